import Foundation

#if canImport(Glibc)
import Glibc
#else
import Darwin
#endif

/// Just enough of a blocking TCP socket for a one-line server.
struct Socket {
    let descriptor: Int32
    var port: Int = 0

    static func listenOnLoopback() throws -> Socket {
        #if canImport(Glibc)
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        #else
        let descriptor = socket(AF_INET, SOCK_STREAM, 0)
        #endif
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, length) == 0 && getsockname(descriptor, $0, &length) == 0 }
        }
        guard bound, listen(descriptor, 8) == 0 else { throw POSIXError(.EADDRNOTAVAIL) }
        return Socket(descriptor: descriptor, port: Int(UInt16(bigEndian: address.sin_port)))
    }

    func accept() -> Socket? {
        let client = Foundation.accept(descriptor, nil, nil)
        return client >= 0 ? Socket(descriptor: client) : nil
    }

    /// Reads until the empty line that ends a request head.
    func readRequestHead() -> String {
        var received: [UInt8] = []
        var byte: UInt8 = 0
        while read(descriptor, &byte, 1) == 1 {
            received.append(byte)
            if received.suffix(4) == Array("\r\n\r\n".utf8) { break }
        }
        return String(decoding: received, as: UTF8.self)
    }

    func write(_ text: String) {
        _ = text.utf8CString.withUnsafeBufferPointer { Foundation.write(descriptor, $0.baseAddress, $0.count - 1) }
    }

    func close() {
        _ = Foundation.close(descriptor)
    }
}
