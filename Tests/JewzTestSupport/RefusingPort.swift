import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Runs `body` with a loopback port that refuses every connection: a socket bound to it and
/// never listening, held until `body` returns. A server that was shut down frees its port for
/// the next one the suite starts; a held port cannot be handed on, so "refused" stays refused.
///
/// - Parameter port: The port to hold, say one a server just gave up; 0 takes a free one.
/// - Throws: `RefusingPortUnavailable` when the port is taken.
public func withRefusingPort<T>(_ port: Int = 0, _ body: (Int) async throws -> T) async throws -> T {
    let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    guard descriptor >= 0 else { throw RefusingPortUnavailable(port: port, errorNumber: errno) }
    defer { close(descriptor) }
    // Connections the port's last server closed may linger in TIME_WAIT; they do not listen.
    var reuse: Int32 = 1
    setsockopt(descriptor, SOL_SOCKET, SO_REUSEADDR, &reuse, socklen_t(MemoryLayout<Int32>.size))
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_port = in_port_t(UInt16(port).bigEndian)
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    let bound = withUnsafeMutablePointer(to: &address) { pointer in
        pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
            bind(descriptor, $0, length) == 0 && getsockname(descriptor, $0, &length) == 0
        }
    }
    guard bound else { throw RefusingPortUnavailable(port: port, errorNumber: errno) }
    return try await body(Int(UInt16(bigEndian: address.sin_port)))
}

/// Runs `body` with `http://127.0.0.1:PORT` + `path` on a port that refuses every connection
/// (see ``withRefusingPort(_:_:)``).
public func withRefusedURL<T>(_ path: String = "/", _ body: (String) async throws -> T) async throws -> T {
    try await withRefusingPort { port in try await body("http://127.0.0.1:\(port)\(path)") }
}

/// The error ``withRefusingPort(_:_:)`` throws when it cannot hold the port.
public struct RefusingPortUnavailable: Error, CustomStringConvertible {
    public let port: Int
    public let errorNumber: Int32

    public var description: String { "cannot hold port \(port) on 127.0.0.1: \(String(cString: strerror(errorNumber)))" }
}
