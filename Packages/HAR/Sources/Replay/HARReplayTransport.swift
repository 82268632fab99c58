import Foundation
import JewzHTTPCore

/// A transport that answers from an archive instead of the network: what a test suite recorded
/// against a real server (with ``HARRecorder``, or a browser, or mitmproxy) replays offline.
///
/// Requests match by method and URL, the query's order aside; ``Configuration-swift.struct``
/// adds the body and named headers. Entries that match alike answer in their recorded order. A
/// request that matches nothing fails with ``HARError/Code/unmatched`` naming the closest
/// recorded request (strict), or goes to a fallback transport (pass-through). Recorded bodies
/// are given decoded, without the recorded `Content-Encoding`.
///
/// ```swift
/// let archive = try HTTPArchive(contentsOf: URL(fileURLWithPath: "Fixtures/api.har"))
/// let session = HTTPSession(configuration: .init { $0.customTransport = HARReplayTransport(archive: archive) })
/// let user = try await HTTPCycle.get("https://api.example.com/users/42", session: session)
/// ```
public final class HARReplayTransport: HTTPTransport {
    /// How requests are matched and answered.
    public struct Configuration: Sendable {
        /// Whether the request's body must be the recorded one. Default: `false`.
        public var matchesBody: Bool
        /// Headers whose values must be the recorded ones (redacted credentials never match).
        public var matchedHeaders: [String]
        /// Whether an answer waits as long as the recorded exchange took. Default: `false`.
        public var honoursTimings: Bool

        /// Matching with the given rules.
        public init(matchesBody: Bool = false, matchedHeaders: [String] = [], honoursTimings: Bool = false) {
            self.matchesBody = matchesBody
            self.matchedHeaders = matchedHeaders
            self.honoursTimings = honoursTimings
        }
    }

    /// How requests are matched to entries, and whether timings are replayed.
    public let configuration: Configuration
    /// Where requests that match nothing go; `nil`: they fail.
    public let fallback: (any HTTPTransport)?
    private let matcher: HARMatcher

    /// A transport that answers from `archive`.
    ///
    /// - Parameters:
    ///   - archive: the exchanges to answer from (``HTTPArchive/init(contentsOf:)`` reads a file).
    ///   - configuration: how requests are matched to entries, and whether timings are replayed.
    ///   - fallback: the transport for requests no entry matches (shut down with this one);
    ///     `nil` fails them with ``HARError/Code/unmatched``.
    public init(archive: HTTPArchive, configuration: Configuration = Configuration(), fallback: (any HTTPTransport)? = nil) {
        self.configuration = configuration
        self.fallback = fallback
        matcher = HARMatcher(archive: archive, matchesBody: configuration.matchesBody, matchedHeaders: configuration.matchedHeaders)
    }

    /// Answers `request` with the first recorded exchange that matches it, or hands it to the
    /// fallback.
    ///
    /// - Throws: `HTTPError` with code `.transport` and a ``HARError`` underneath: no entry
    ///   matched (``HARError/Code/unmatched``), or the entry recorded a failure; `.timedOut`
    ///   when honoured timings pass the timeout.
    public func send(
        _ request: HTTPRequest, timeout: Duration?, onBodySent: (@Sendable (Int) -> Void)?,
        to receiver: inout some HTTPResponseReceiver
    ) async throws {
        var body: Data?
        if configuration.matchesBody, request.body != nil {
            var copy = request
            body = try await copy.collectBody(upTo: .max)
        }
        guard let entry = matcher.entry(for: request, body: body) else {
            if let fallback { return try await fallback.send(request, timeout: timeout, onBodySent: onBodySent, to: &receiver) }
            let unmatched = HARError(.unmatched, "\(request.method) \(request.url.absoluteString)", closest: matcher.closest(to: request))
            throw HTTPError.transport(underlying: unmatched)
        }
        if body == nil, let requestBody = request.body {
            for try await _ in try requestBody.chunks(reporting: onBodySent) {}
        }
        if configuration.honoursTimings, entry.time > 0 {
            let recorded = Duration.milliseconds(Int(entry.time.rounded()))
            if let timeout, timeout < recorded {
                try await Task.sleep(for: timeout)
                throw HTTPError.timedOut
            }
            try await Task.sleep(for: recorded)
        }
        guard entry.response.status != 0 else {
            throw HTTPError.transport(underlying: HARError(.recordedFailure, entry.response.comment ?? "\(entry.request.method) \(entry.request.url)"))
        }
        let content = HARMatcher.bytes(text: entry.response.content.text, encoding: entry.response.content.encoding) ?? Data()
        var headers = HTTPHeaderFields()
        for field in entry.response.headers where !["content-encoding", "content-length", "transfer-encoding"].contains(field.name.lowercased()) {
            headers.add(field.value, for: field.name)
        }
        headers.add(String(content.count), for: "Content-Length")
        try receiver.receiveHead(statusCode: entry.response.status, headers: headers, url: request.url)
        if !content.isEmpty {
            try content.withUnsafeBytes { try receiver.receiveBody($0) }
            try await receiver.waitForDemand()
        }
    }

    /// Shuts down the fallback transport, if any.
    public func shutdown() async throws {
        try await fallback?.shutdown()
    }
}
