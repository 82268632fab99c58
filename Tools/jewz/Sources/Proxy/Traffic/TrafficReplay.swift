import Foundation
import JewzHTTPCore
import NIOCore
import NIOHTTP1
import NIOPosix

/// "Send again": an exchange's request, as it went or edited, sent to the proxy itself, so that
/// it goes out as any client's would — through the cache, the recording, the upstream — and
/// shows up in the view as a new exchange.
struct TrafficReplay: Sendable {
    /// The proxy's address.
    let host: String
    let port: Int
    /// The origin a reverse proxy stands in front of; `nil` for a forward proxy.
    let upstream: URL?

    /// What the page changed; what it left `nil` is sent as it went.
    struct Edits: Decodable, Sendable {
        var method: String?
        var url: String?
        /// Name-value pairs; a value still `[redacted]` is sent as it went.
        var headers: [[String]]?
        /// UTF-8 text.
        var body: String?
    }

    /// What came back.
    struct Outcome: Encodable {
        let status: Int
        let bytes: Int
    }

    /// Why a request could not be sent again, as the page is told.
    struct Failure: Error {
        let status: Int
        let message: String
    }

    /// Sends `exchange`'s request with `edits` through the proxy and reads the whole answer.
    ///
    /// - Throws: ``Failure`` when the edits do not make a request this proxy takes, the body
    ///   was not kept, or the proxy cannot be reached.
    func send(_ exchange: TrafficExchange, edits: Edits) async throws(Failure) -> Outcome {
        let method = edits.method?.uppercased() ?? exchange.method
        guard !method.isEmpty, method.allSatisfy({ $0.isLetter }) else { throw Failure(status: 400, message: "\(method) is not a method.") }
        let target = try self.target(edits.url.flatMap(URL.init(string:)) ?? exchange.url, edited: edits.url)
        var headers = HTTPHeaders()
        for pair in edits.headers ?? exchange.requestHeaders.map({ [$0.name, $0.value] }) {
            guard pair.count == 2, !pair[0].isEmpty else { throw Failure(status: 400, message: "A header is a [name, value] pair.") }
            let (name, value) = (pair[0], pair[1])
            guard !["host", "content-length", "transfer-encoding", "connection", "via"].contains(name.lowercased()) else { continue }
            let original = value == "[redacted]" ? exchange.requestHeaders.values(for: name).first : nil
            headers.add(name: name, value: original ?? value)
        }
        let body: Data?
        if let text = edits.body {
            body = Data(text.utf8)
        } else if let kept = exchange.requestBody {
            guard kept.isComplete else { throw Failure(status: 409, message: "The body was \(kept.size) bytes, more than the view keeps: edit it to send again.") }
            body = kept.kept
        } else {
            body = nil
        }
        headers.replaceOrAdd(name: "Host", value: target.host)
        if let body { headers.replaceOrAdd(name: "Content-Length", value: String(body.count)) }
        headers.replaceOrAdd(name: "Connection", value: "close")
        let head = HTTPRequestHead(version: .http1_1, method: HTTPMethod(rawValue: method), uri: target.uri, headers: headers)
        do {
            return try await exchangeOnce(head, body: body)
        } catch {
            throw Failure(status: 502, message: "The proxy at \(host):\(port) did not answer: \(error)")
        }
    }

    /// The request target to send the proxy, and the `Host` the origin is to see.
    private func target(_ url: URL, edited: String?) throws(Failure) -> (uri: String, host: String) {
        guard let host = url.host, ["http", "https"].contains(url.scheme?.lowercased() ?? "") else {
            throw Failure(status: 400, message: "\(edited ?? url.absoluteString) is not an http:// or https:// URL.")
        }
        let authority = url.port.map { "\(host):\($0)" } ?? host
        guard let upstream else {
            guard url.scheme?.lowercased() == "http" else { throw Failure(status: 400, message: "A forward proxy sees only http:// URLs (HTTPS goes in tunnels).") }
            return (url.absoluteString, authority)
        }
        guard url.scheme?.lowercased() == upstream.scheme?.lowercased(), host.lowercased() == upstream.host?.lowercased(), url.port == upstream.port else {
            throw Failure(status: 400, message: "This proxy is in front of \(upstream.absoluteString): send again goes only to URLs under it.")
        }
        let query = url.query(percentEncoded: true).map { "?\($0)" } ?? ""
        let path = url.path(percentEncoded: true)
        return ((path.isEmpty ? "/" : path) + query, authority)
    }

    /// One request on a connection of its own; the answer's status and body length.
    private func exchangeOnce(_ head: HTTPRequestHead, body: Data?) async throws -> Outcome {
        let channel = try await ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .connect(host: host, port: port) { channel in
                channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.addHTTPClientHandlers()
                    return try NIOAsyncChannel<HTTPClientResponsePart, HTTPClientRequestPart>(wrappingChannelSynchronously: channel)
                }
            }
        return try await channel.executeThenClose { inbound, outbound in
            try await outbound.write(.head(head))
            if let body { try await outbound.write(.body(.byteBuffer(ByteBuffer(bytes: body)))) }
            try await outbound.write(.end(nil))
            var status = 0
            var bytes = 0
            for try await part in inbound {
                switch part {
                case .head(let response): status = Int(response.status.code)
                case .body(let chunk): bytes += chunk.readableBytes
                case .end: return Outcome(status: status, bytes: bytes)
                }
            }
            return Outcome(status: status, bytes: bytes)
        }
    }
}
