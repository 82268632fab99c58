import Crypto
import Foundation
import JewzHTTPCore
import JewzLocking
import NIOCore
import NIOHTTP1
import NIOPosix

extension OAuth2Client {
    /// The authorization code grant with PKCE (RFC 7636, S256) through a loopback redirect
    /// (RFC 8252 §7.3), for a program with a user at hand: listens on 127.0.0.1 at a port the
    /// system picks, hands the sign-in URL to `open` (a browser, or a line the user copies),
    /// takes the one redirect that carries this sign-in's `state`, and exchanges its code.
    ///
    /// A request to the listener with another `state` is answered 400 and ignored: it cannot
    /// come from this sign-in. After the first accepted code, every other request is refused.
    ///
    /// - Parameters:
    ///   - scopes: the scopes to ask for; none leaves them to the server.
    ///   - timeout: how long the user has to sign in.
    ///   - open: shows the user the sign-in URL.
    /// - Throws: ``AuthError/Code/accessDenied`` when the user refuses;
    ///   ``AuthError/Code/authorizationServer`` for another error in the redirect or from the
    ///   token endpoint; ``AuthError/Code/expiredToken`` when `timeout` passes first; a socket
    ///   error when no port can be opened on 127.0.0.1.
    public func authorizationCodeToken(
        scopes: [String] = [], timeout: Duration = .seconds(300), open: @Sendable (URL) async throws -> Void
    ) async throws -> OAuth2Token {
        guard let authorizationEndpoint = endpoints.authorization else {
            throw AuthError.invalidServerResponse("the server has no authorization endpoint; give one, or discover the endpoints")
        }
        let verifier = JWTSigner.base64URL(Data(SymmetricKey(size: .bits256).withUnsafeBytes { Array($0) }))
        let state = JWTSigner.base64URL(Data(SymmetricKey(size: .bits128).withUnsafeBytes { Array($0) }))
        let listener = try await LoopbackListener.start(expectingState: state)
        defer { listener.close() }
        let redirectURI = listener.redirectURI
        var components = URLComponents(url: authorizationEndpoint, resolvingAgainstBaseURL: false)
        var query = components?.queryItems ?? []
        query += [
            URLQueryItem(name: "response_type", value: "code"), URLQueryItem(name: "client_id", value: clientID),
            URLQueryItem(name: "redirect_uri", value: redirectURI.absoluteString), URLQueryItem(name: "state", value: state),
            URLQueryItem(name: "code_challenge", value: Self.codeChallenge(for: verifier)),
            URLQueryItem(name: "code_challenge_method", value: "S256"),
        ]
        if !scopes.isEmpty { query.append(URLQueryItem(name: "scope", value: scopes.joined(separator: " "))) }
        components?.queryItems = query
        guard let url = components?.url else {
            throw AuthError.invalidServerResponse("the authorization endpoint \(authorizationEndpoint.absoluteString) cannot take a query")
        }
        try await open(url)
        let code = try await listener.code(within: timeout)
        return try await token(forCode: code, verifier: verifier, redirectURI: redirectURI)
    }

    /// `BASE64URL(SHA256(verifier))` (RFC 7636 §4.2).
    static func codeChallenge(for verifier: String) -> String {
        JWTSigner.base64URL(Data(SHA256.hash(data: Data(verifier.utf8))))
    }
}

/// The listener a loopback redirect lands on, bound to 127.0.0.1 until closed.
struct LoopbackListener: Sendable {
    private let callback: LoopbackCallback
    private let channel: any Channel
    let redirectURI: URL

    static func start(expectingState state: String) async throws -> LoopbackListener {
        let callback = LoopbackCallback(expectedState: state)
        let channel = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .childChannelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.configureHTTPServerPipeline()
                    try channel.pipeline.syncOperations.addHandler(CallbackHandler(answer: callback.answer))
                }
            }
            .bind(host: "127.0.0.1", port: 0).get()
        guard let port = channel.localAddress?.port, let redirectURI = URL(string: "http://127.0.0.1:\(port)/callback") else {
            channel.close(promise: nil)
            throw AuthError.invalidServerResponse("the loopback listener has no port")
        }
        return LoopbackListener(callback: callback, channel: channel, redirectURI: redirectURI)
    }

    /// The code of the first redirect with the expected state, or its error.
    func code(within timeout: Duration) async throws -> String {
        let outcome = callback.outcome
        return try await withThrowingTaskGroup(of: String.self) { group in
            group.addTask {
                for await result in outcome { return try result.get() }
                throw CancellationError()
            }
            group.addTask {
                try await Task.sleep(for: timeout)
                throw AuthError.expiredToken("no sign-in came back within \(timeout)")
            }
            defer { group.cancelAll() }
            guard let code = try await group.next() else { throw CancellationError() }
            return code
        }
    }

    func close() {
        callback.finish()
        channel.close(promise: nil)
    }
}

/// Checks the redirects that reach the listener and passes on the first with the expected state.
private final class LoopbackCallback: Sendable {
    /// The sign-in's outcome: the code, or the error the redirect carried.
    let outcome: AsyncStream<Result<String, AuthError>>
    private let deliver: AsyncStream<Result<String, AuthError>>.Continuation
    private let expectedState: String
    private let accepted = Mutex(false)

    init(expectedState: String) {
        self.expectedState = expectedState
        (outcome, deliver) = AsyncStream.makeStream(bufferingPolicy: .bufferingNewest(1))
    }

    func finish() { deliver.finish() }

    /// Reads a request to the listener: the status and text of the page the browser shows.
    @Sendable func answer(_ target: String) -> (Int, String) {
        guard let components = URLComponents(string: target), components.path == "/callback" else { return (404, "Not found.") }
        let value = { (name: String) in components.queryItems?.first { $0.name == name }?.value }
        guard value("state") == expectedState else { return (400, "This sign-in was not started here.") }
        let first = accepted.withLock { accepted in
            defer { accepted = true }
            return !accepted
        }
        guard first else { return (400, "This sign-in is already complete.") }
        if let error = value("error") {
            let description = value("error_description")
            deliver.yield(.failure(
                error == "access_denied"
                    ? AuthError.accessDenied(description ?? "the user refused to sign in")
                    : AuthError.authorizationServer(error: error, description: description, endpoint: "the authorization redirect")))
            return (400, "Sign-in failed; the program says why. You can close this window.")
        }
        guard let code = value("code"), !code.isEmpty else {
            deliver.yield(.failure(AuthError.invalidServerResponse("the authorization redirect carries no code")))
            return (400, "The redirect carries no code.")
        }
        deliver.yield(.success(code))
        return (200, "Signed in. You can close this window and return to the program.")
    }
}

/// Answers each request with the page `answer` gives for its target, then closes.
private final class CallbackHandler: ChannelInboundHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias OutboundOut = HTTPServerResponsePart

    private let answer: @Sendable (String) -> (Int, String)
    private var target: String?

    init(answer: @escaping @Sendable (String) -> (Int, String)) {
        self.answer = answer
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head(let head):
            target = head.uri
        case .body:
            break
        case .end:
            let (status, text) = answer(target ?? "")
            let body = ByteBuffer(string: "<!doctype html><title>Sign-in</title><p>\(text)</p>\n")
            var headers = HTTPHeaders([("Content-Type", "text/html; charset=utf-8"), ("Connection", "close")])
            headers.add(name: "Content-Length", value: "\(body.readableBytes)")
            let head = HTTPResponseHead(version: .http1_1, status: HTTPResponseStatus(statusCode: status), headers: headers)
            context.write(wrapOutboundOut(.head(head)), promise: nil)
            context.write(wrapOutboundOut(.body(.byteBuffer(body))), promise: nil)
            let bound = NIOLoopBound(context, eventLoop: context.eventLoop)
            context.writeAndFlush(wrapOutboundOut(.end(nil))).whenComplete { _ in bound.value.close(promise: nil) }
        }
    }
}
