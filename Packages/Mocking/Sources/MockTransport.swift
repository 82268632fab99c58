import Foundation
import JewzHTTPCore
import JewzLocking

/// A transport that answers from stubs instead of the network, so tests and previews run
/// without a server. Mocked cycles go through the same processors, retry and status logic as
/// real ones; a request no stub matches fails with ``UnmatchedRequest`` (reported by a cycle as
/// ``/JewzHTTPCore/HTTPError/Code/transport``, with the mock's error as ``/JewzHTTPCore/HTTPError/underlying``) — or, given a
/// fallback transport, goes on to it, so that a test fakes only what it must.
///
/// ```swift
/// let mock = MockTransport()
/// try mock.fakeGET("/users/42", json: User(id: 42, name: "Ada"))
/// mock.stub(.post, path: "/orders", status: 503, headers: ["Retry-After": "1"])
/// let session = HTTPSession(configuration: .init { $0.customTransport = mock })
/// ```
public final class MockTransport: HTTPTransport {
    /// No stub matches a request: add one with ``stub(_:path:status:headers:body:delay:)``.
    public struct UnmatchedRequest: Error, CustomStringConvertible {
        /// The request's method.
        public var method: HTTPMethod
        /// The request's URL.
        public var url: URL

        /// `METHOD URL`.
        public var description: String {
            "No mock stub matches \(method) \(url.absoluteString); add one with MockTransport.stub(_:path:…)."
        }
    }

    /// What a stub answers.
    public enum Answer: Sendable {
        /// A response with this status, headers and body.
        case response(status: Int, headers: HTTPHeaderFields, body: Data)
        /// A failure, as a transport reports it (`.timedOut`, `.connectionFailed`…).
        case failure(HTTPError)
    }

    private struct Stub {
        let matches: @Sendable (HTTPRequest) -> Bool
        let answer: @Sendable (HTTPRequest) throws -> Answer
        let delay: Duration
    }

    private let stubs = Mutex<[Stub]>([])
    private let received = Mutex<[HTTPRequest]>([])
    /// Where requests no stub matches go; `nil`: they fail.
    public let fallback: (any HTTPTransport)?

    /// A transport that answers from its stubs, sending what matches none to `fallback` (`nil`:
    /// failing it).
    ///
    /// - Parameter fallback: the transport that sends requests no stub matches (the network's,
    ///   or another mock); `nil` fails them with ``UnmatchedRequest``. It is shut down with the mock.
    public init(fallback: (any HTTPTransport)? = nil) {
        self.fallback = fallback
    }

    /// The requests sent so far, in order, those passed to the fallback included.
    public var requests: [HTTPRequest] { received.withLock { $0 } }

    /// Answers requests that `predicate` accepts. Later stubs take precedence over earlier ones.
    public func stub(
        where predicate: @escaping @Sendable (HTTPRequest) -> Bool, delay: Duration = .zero,
        answer: @escaping @Sendable (HTTPRequest) throws -> Answer
    ) {
        stubs.withLock { $0.append(Stub(matches: predicate, answer: answer, delay: delay)) }
    }

    /// Answers `method` (any method if `nil`) requests to `path` with a fixed response.
    public func stub(
        _ method: HTTPMethod? = nil, path: String, status: Int = 200, headers: HTTPHeaderFields = [:], body: Data = Data(),
        delay: Duration = .zero
    ) {
        stub(where: Self.matching(method, path), delay: delay) { _ in .response(status: status, headers: headers, body: body) }
    }

    /// Answers `method` requests to `path` with a failure.
    public func stub(_ method: HTTPMethod? = nil, path: String, failure: HTTPError, delay: Duration = .zero) {
        stub(where: Self.matching(method, path), delay: delay) { _ in .failure(failure) }
    }

    /// Answers GET `path` with `value` encoded as JSON.
    ///
    /// - Throws: the encoder's error.
    public func fakeGET(_ path: String, json value: some Encodable & Sendable, status: Int = 200, encoder: JSONEncoder = JSONEncoder()) throws {
        let body = try encoder.encode(value)
        stub(.get, path: path, status: status, headers: ["Content-Type": "application/json"], body: body)
    }

    /// Answers GET `path` with a file's contents, read when the request arrives.
    public func fakeGET(_ path: String, file: URL, contentType: String, status: Int = 200) {
        stub(where: Self.matching(.get, path)) { _ in
            .response(status: status, headers: ["Content-Type": contentType], body: try Data(contentsOf: file))
        }
    }

    private static func matching(_ method: HTTPMethod?, _ path: String) -> @Sendable (HTTPRequest) -> Bool {
        { request in (method == nil || request.method == method) && request.url.path(percentEncoded: false) == path }
    }

    /// Answers `request` with the first stub that matches it, records it, or hands it to the
    /// fallback.
    public func send(
        _ request: HTTPRequest, timeout: Duration?, onBodySent: (@Sendable (Int) -> Void)?,
        to receiver: inout some HTTPResponseReceiver
    ) async throws {
        received.withLock { $0.append(request) }
        guard let stub = stubs.withLock({ $0.last { $0.matches(request) } }) else {
            guard let fallback else { throw HTTPError.transport(underlying: UnmatchedRequest(method: request.method, url: request.url)) }
            return try await fallback.send(request, timeout: timeout, onBodySent: onBodySent, to: &receiver)
        }
        // Consume the body as a real transport would: progress is reported, and a one-shot
        // body cannot be sent twice here either.
        if let body = request.body {
            for try await _ in try body.chunks(reporting: onBodySent) {}
        }
        if stub.delay > .zero {
            if let timeout, timeout < stub.delay {
                try await Task.sleep(for: timeout)
                throw HTTPError.timedOut
            }
            try await Task.sleep(for: stub.delay)
        }
        switch try stub.answer(request) {
        case .failure(let error):
            throw error
        case .response(let status, let headers, let body):
            try receiver.receiveHead(statusCode: status, headers: headers, url: request.url)
            if !body.isEmpty {
                try body.withUnsafeBytes { try receiver.receiveBody($0) }
                try await receiver.waitForDemand()
            }
        }
    }

    /// Shuts down the fallback transport, if any.
    public func shutdown() async throws {
        try await fallback?.shutdown()
    }
}
