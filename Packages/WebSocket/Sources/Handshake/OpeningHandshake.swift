import Crypto
import Foundation
import JewzHTTPCore

/// The client's half of RFC 6455's opening handshake (§4.1): the request that asks for the
/// upgrade, and the checks on the server's answer.
struct OpeningHandshake: Sendable {
    /// `Sec-WebSocket-Key`: 16 random bytes, base64, new for each handshake.
    let key: String
    let subprotocols: [String]
    let deflate: PerMessageDeflate?

    init(subprotocols: [String], deflate: PerMessageDeflate?) {
        var generator = SystemRandomNumberGenerator()
        key = Data((0..<16).map { _ in UInt8.random(in: 0...255, using: &generator) }).base64EncodedString()
        self.subprotocols = subprotocols
        self.deflate = deflate
    }

    /// The handshake as a request of the session: `ws` and `wss` become `http` and `https`, so
    /// that cookies, credentials and proxies match as for any request to the host.
    ///
    /// - Throws: ``WebSocketError/Code/invalidURL`` for another scheme or no host.
    func request(from base: HTTPRequest) throws(WebSocketError) -> HTTPRequest {
        var request = base
        request.url = try Self.httpURL(for: base.url)
        request.method = .get
        request.body = nil
        request.headers.set("websocket", for: "Upgrade")
        request.headers.set("Upgrade", for: "Connection")
        request.headers.set(key, for: "Sec-WebSocket-Key")
        request.headers.set("13", for: "Sec-WebSocket-Version")
        if !subprotocols.isEmpty { request.headers.set(subprotocols.joined(separator: ", "), for: "Sec-WebSocket-Protocol") }
        if let deflate { request.headers.set(deflate.headerValue, for: "Sec-WebSocket-Extensions") }
        return request
    }

    /// `options` as the handshake needs them: around the cache, and no processor reading the
    /// `101`'s body.
    static func options(from options: HTTPRequestOptions) -> HTTPRequestOptions {
        var options = options
        options.caching = .init(policy: .reloadIgnoringCache)
        options.responseProcessors = []
        return options
    }

    /// `url` with `ws` as `http` and `wss` as `https`; `http` and `https` as they are.
    static func httpURL(for url: URL) throws(WebSocketError) -> URL {
        guard var parts = URLComponents(url: url, resolvingAgainstBaseURL: false), let host = parts.host, !host.isEmpty else {
            throw WebSocketError(.invalidURL, url.absoluteString)
        }
        switch parts.scheme?.lowercased() {
        case "ws", "http": parts.scheme = "http"
        case "wss", "https": parts.scheme = "https"
        default: throw WebSocketError(.invalidURL, url.absoluteString)
        }
        guard let http = parts.url else { throw WebSocketError(.invalidURL, url.absoluteString) }
        return http
    }

    /// What `key` must come back as in `Sec-WebSocket-Accept`.
    static func acceptValue(for key: String) -> String {
        Data(Insecure.SHA1.hash(data: Data((key + "258EAFA5-E914-47DA-95CA-C5AB0DC85B11").utf8))).base64EncodedString()
    }

    /// What the server agreed to, once its answer passed every check of RFC 6455 §4.1.
    struct Agreement: Sendable {
        var subprotocol: String?
        var deflate: PerMessageDeflate.Parameters?
    }

    /// Checks the server's answer: `101`, `Upgrade: websocket`, `Connection: upgrade`, the
    /// accept value of this key, a subprotocol and extensions among those offered.
    ///
    /// - Throws: ``WebSocketError/Code/handshakeRejected`` saying which check failed.
    func agreement(with response: HTTPResponse) throws(WebSocketError) -> Agreement {
        func reject(_ why: String) -> WebSocketError { WebSocketError(.handshakeRejected, why, response: response) }
        guard response.statusCode == 101 else {
            throw reject("it answered \(response.statusCode) \(HTTPResponse.reasonPhrase(for: response.statusCode)) rather than 101")
        }
        guard response.headers["Upgrade"]?.lowercased() == "websocket" else { throw reject("its Upgrade field is not 'websocket'") }
        guard response.headers.tokens(for: "Connection").contains("upgrade") else {
            throw reject("its Connection field does not name 'upgrade'")
        }
        guard response.headers["Sec-WebSocket-Accept"] == Self.acceptValue(for: key) else {
            throw reject("its Sec-WebSocket-Accept does not answer the key sent")
        }
        var agreement = Agreement()
        if let chosen = response.headers["Sec-WebSocket-Protocol"] {
            guard subprotocols.contains(chosen) else { throw reject("it chose the subprotocol '\(chosen)', which was not offered") }
            agreement.subprotocol = chosen
        }
        let extensions = response.headers.values(for: "Sec-WebSocket-Extensions").joined(separator: ",")
        if !extensions.trimmingCharacters(in: .whitespaces).isEmpty {
            guard let deflate else { throw reject("it named extensions (\(extensions)) although none was offered") }
            do {
                agreement.deflate = try deflate.accept(extensions)
            } catch {
                throw reject(error.detail)
            }
        }
        return agreement
    }
}
