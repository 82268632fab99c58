import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Runs `body` with a free loopback port that refuses every connection: a socket bound to it
/// and never listening, held until `body` returns, so no server the suite starts is given it.
/// (A port a server just gave up is no such port: another test's server may take it first.)
///
/// - Throws: `RefusingPortUnavailable` when no port can be held.
public func withRefusingPort<T>(_ body: (Int) async throws -> T) async throws -> T {
    let (descriptor, address) = try boundLoopbackSocket(listening: false)
    defer { close(descriptor) }
    return try await body(Int(UInt16(bigEndian: address.sin_port)))
}

/// A TCP socket bound to a free port of 127.0.0.1, listening with a queue of one when asked,
/// and its address.
///
/// - Throws: `RefusingPortUnavailable`.
private func boundLoopbackSocket(listening: Bool) throws -> (descriptor: Int32, address: sockaddr_in) {
    let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    guard descriptor >= 0 else { throw RefusingPortUnavailable(errorNumber: errno) }
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_port = 0
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    let ready = withUnsafeMutablePointer(to: &address) { pointer in
        pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
            bind(descriptor, $0, length) == 0 && (!listening || listen(descriptor, 0) == 0) && getsockname(descriptor, $0, &length) == 0
        }
    }
    guard ready else {
        let error = RefusingPortUnavailable(errorNumber: errno)
        close(descriptor)
        throw error
    }
    return (descriptor, address)
}

/// Runs `body` with `http://127.0.0.1:PORT` + `path` on a port that refuses every connection
/// (see ``withRefusingPort(_:)``).
public func withRefusedURL<T>(_ path: String = "/", _ body: (String) async throws -> T) async throws -> T {
    try await withRefusingPort { port in try await body("http://127.0.0.1:\(port)\(path)") }
}

/// The error ``withRefusingPort(_:)`` throws when it cannot hold a port.
public struct RefusingPortUnavailable: Error, CustomStringConvertible {
    public let errorNumber: Int32

    public var description: String { "cannot hold a port on 127.0.0.1: \(String(cString: strerror(errorNumber)))" }
}

/// Runs `body` with a loopback port whose listener never accepts and whose queue is full, so that
/// a new connection is neither refused nor made: connecting to it waits until a timeout. The
/// queue is filled by connections of our own, held with the listener until `body` returns.
///
/// - Throws: `RefusingPortUnavailable` when no such port can be made.
public func withUnacceptingPort<T>(_ body: (Int) async throws -> T) async throws -> T {
    var (listener, address) = try boundLoopbackSocket(listening: true)
    defer { close(listener) }
    // Linux queues backlog + 1 connections; a few more than that leave the queue full.
    var fillers: [Int32] = []
    defer { for filler in fillers { close(filler) } }
    for _ in 0..<3 {
        let filler = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_NONBLOCK.rawValue), 0)
        guard filler >= 0 else { throw RefusingPortUnavailable(errorNumber: errno) }
        fillers.append(filler)
        _ = withUnsafePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(filler, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
    }
    return try await body(Int(UInt16(bigEndian: address.sin_port)))
}
