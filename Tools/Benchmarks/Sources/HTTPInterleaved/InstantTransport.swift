import Foundation
import Jewzruxin

/// Answers every request at once with nginx's `/hello/` response, so that only the cycle's own
/// work is measured.
struct InstantTransport: HTTPTransport {
    /// Whether each request first lets the others run (`YIELD=1`), as one waiting for the
    /// network does: its memory is then as cold as on the wire when it resumes.
    var yields = false
    static let headers: HTTPHeaderFields = [
        "Server": "nginx/1.22.1", "Date": "Sun, 23 Nov 2026 10:00:00 GMT", "Content-Type": "text/plain",
        "Content-Length": "11", "Connection": "keep-alive",
    ]
    static let body = Array("Hello World".utf8)

    func send(
        _ request: HTTPRequest, timeout: Duration?, onBodySent: (@Sendable (Int) -> Void)?,
        to receiver: inout some HTTPResponseReceiver
    ) async throws {
        if yields { await Task.yield() }
        try receiver.receiveHead(statusCode: 200, headers: Self.headers, url: request.url)
        try Self.body.withUnsafeBytes { try receiver.receiveBody($0) }
    }

    func shutdown() async throws {}
}

/// Keeps the body as the cycle's collector does, without decoding or processing.
struct BodyCollector: HTTPResponseReceiver {
    var body = Data()
    mutating func receiveHead(statusCode: Int, headers: HTTPHeaderFields, url: URL?) throws {}
    mutating func receiveBody(_ chunk: UnsafeRawBufferPointer) throws { body.append(contentsOf: chunk) }
}
