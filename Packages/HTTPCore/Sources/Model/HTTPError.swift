/// Why a cycle failed: a ``code`` to switch over, the ``response`` when one arrived, the
/// ``underlying`` error when another part failed, and a ``description`` that says what to do.
///
/// A struct rather than an enum, so that the toolkit can add kinds of failure without breaking
/// a caller's `switch` (as AsyncHTTPClient's `HTTPClientError` does): switch over ``code``
/// with a `default` branch.
///
/// ```swift
/// do {
///     try await HTTPCycle.get("https://example.com/users/42")
/// } catch let error as HTTPError where error.code == .statusCode {
///     print(error.response?.statusCode ?? 0, error.response?.text ?? "")
/// } catch HTTPError.Code.cancelled {
///     return
/// } catch let error as HTTPError {
///     switch error.code {
///     case .timedOut, .connectionFailed: showOffline()
///     default: print(error)
///     }
/// }
/// ```
///
/// A cancelled request is always ``Code/cancelled``, never a network failure.
public struct HTTPError: Error, CustomStringConvertible {
    /// The kind of failure. New codes may be added: match them with a `default` branch.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        private enum Value: String, Sendable {
            case invalidURL, invalidHeader, statusCode, cancelled, timedOut, connectionFailed, connectionLost
            case responseTooLarge, contentDecoding, processor, unsupportedRequestObject, transport
            case bodyNotReplayable, unreadableBody, downloadFile, downloadNotResumable, streamAbandoned
            case sessionShutDown, tooManyRedirects, redirectLoop, insecureRedirect, invalidResponse
            case certificateRejected, tlsHandshakeFailed, proxyAuthenticationRequired, invalidConfiguration
            case pinMismatch, middleware, requestTooLarge, lineTooLong, authentication, downloadHandler
        }

        private let value: Value

        private init(_ value: Value) {
            self.value = value
        }

        /// The URL is not an absolute http(s) URL with a host.
        public static let invalidURL = Code(.invalidURL)
        /// A header name or value is not allowed on the wire.
        public static let invalidHeader = Code(.invalidHeader)
        /// The server answered with a status the session treats as a failure; see ``HTTPError/response``.
        public static let statusCode = Code(.statusCode)
        /// The cycle was cancelled; see ``HTTPError/isExplicitCancellation``.
        public static let cancelled = Code(.cancelled)
        /// The exchange took longer than a timeout allows.
        public static let timedOut = Code(.timedOut)
        /// No connection could be made: the server never saw the request.
        public static let connectionFailed = Code(.connectionFailed)
        /// The connection broke after the request started going out.
        public static let connectionLost = Code(.connectionLost)
        /// The response body is larger than the session allows.
        public static let responseTooLarge = Code(.responseTooLarge)
        /// The body could not be decoded for its `Content-Encoding`.
        public static let contentDecoding = Code(.contentDecoding)
        /// A request or response processor failed.
        public static let processor = Code(.processor)
        /// An authentication failed (a token refresh, a challenge it could not answer, a
        /// server's proof it refused); see ``HTTPError/underlying``.
        public static let authentication = Code(.authentication)
        /// A download's file handler threw; see ``HTTPError/underlying``.
        public static let downloadHandler = Code(.downloadHandler)
        /// A processor was given a request object it cannot turn into a body.
        public static let unsupportedRequestObject = Code(.unsupportedRequestObject)
        /// Any other failure of the transport.
        public static let transport = Code(.transport)
        /// A one-shot body (a stream) would have to be sent a second time.
        public static let bodyNotReplayable = Code(.bodyNotReplayable)
        /// A file body cannot be read.
        public static let unreadableBody = Code(.unreadableBody)
        /// A downloaded body could not be written to its file.
        public static let downloadFile = Code(.downloadFile)
        /// A resumed download got another range than the one it asked for.
        public static let downloadNotResumable = Code(.downloadNotResumable)
        /// The reader of a streamed body stopped before its end.
        public static let streamAbandoned = Code(.streamAbandoned)
        /// The session was shut down.
        public static let sessionShutDown = Code(.sessionShutDown)
        /// The server redirected more times than the session allows.
        public static let tooManyRedirects = Code(.tooManyRedirects)
        /// The server's redirects lead back to a URL already visited.
        public static let redirectLoop = Code(.redirectLoop)
        /// The server redirected from https to http, which the session does not allow.
        public static let insecureRedirect = Code(.insecureRedirect)
        /// The server's answer is not valid HTTP (a malformed status line, headers or framing).
        public static let invalidResponse = Code(.invalidResponse)

        /// The server's TLS certificate was refused: not signed by a trusted root, or not for
        /// the host. Nothing was sent.
        public static let certificateRejected = Code(.certificateRejected)
        /// A pinned host's chain did not end at a root with a pinned key
        /// (``AsyncHTTPClientTransport/Configuration/CertificatePinning``). Nothing was sent.
        public static let pinMismatch = Code(.pinMismatch)
        /// The TLS handshake failed for another reason (no common version or cipher, the
        /// server wanted a client certificate). Nothing was sent.
        public static let tlsHandshakeFailed = Code(.tlsHandshakeFailed)
        /// The proxy answered 407: it wants credentials, or others than those given.
        public static let proxyAuthenticationRequired = Code(.proxyAuthenticationRequired)
        /// A setting cannot be used (an unreadable PEM file, a malformed proxy URL).
        public static let invalidConfiguration = Code(.invalidConfiguration)
        /// A middleware threw an error of its own; see ``HTTPError/underlying``.
        public static let middleware = Code(.middleware)
        /// A request body read into memory (``HTTPRequest/collectBody(upTo:)``) is larger than
        /// the limit it was read with.
        public static let requestTooLarge = Code(.requestTooLarge)
        /// A line of a body read line by line (``HTTPResponseBody/lines(maximumLength:)``, an
        /// event stream) is longer than the limit it was read with.
        public static let lineTooLong = Code(.lineTooLong)
        /// The code's name, as a `switch` spells it.
        public var description: String { value.rawValue }

        /// Matches an error that is an ``HTTPError`` with this code, so that
        /// `catch HTTPError.Code.timedOut` and `case HTTPError.Code.statusCode:` read as they say.
        public static func ~= (code: Code, error: any Error) -> Bool {
            (error as? HTTPError)?.code == code
        }
    }

    /// What the message is made of, beside the code.
    enum Detail: Sendable {
        case none
        case text(String)
        case pair(String, String)
        case limit(Int)
        case explicit(Bool)
        /// Where and how an exchange failed on the network.
        case network(NetworkFailure)
    }

    /// Everything but the code, in one object: an error is two words to pass around, and the
    /// common ones (``timedOut``, a cancellation) share theirs.
    private final class Payload: Sendable {
        let detail: Detail
        let response: HTTPResponse?
        let underlying: (any Error)?
        let resumeData: DownloadResumeData?

        init(detail: Detail, response: HTTPResponse?, underlying: (any Error)?, resumeData: DownloadResumeData? = nil) {
            self.detail = detail
            self.response = response
            self.underlying = underlying
            self.resumeData = resumeData
        }
    }

    /// The kind of failure.
    public let code: Code
    private var payload: Payload?

    private init(_ code: Code, _ detail: Detail = .none, response: HTTPResponse? = nil, underlying: (any Error)? = nil) {
        self.code = code
        let isBare: Bool = if case .none = detail { response == nil && underlying == nil } else { false }
        payload = isBare ? nil : Payload(detail: detail, response: response, underlying: underlying)
    }

    var detail: Detail { payload?.detail ?? .none }

    /// Whether the request is known not to have been processed — an HTTP/2 stream the server
    /// refused, a request never sent — so that it can go again whatever its method.
    var isUnprocessed: Bool {
        guard case .network(let failure) = detail else { return false }
        switch failure.event {
        case .streamRefused, .notSent: return true
        default: return false
        }
    }

    /// The response that came back, when the failure is about it: always for ``Code/statusCode``
    /// (status, headers and body, processed when its processor could read it), and for a
    /// ``Code/processor`` that could not read a response (its body as it came), so that a
    /// one-call form's caller can see what the server sent. For ``Code/connectionLost`` and
    /// ``Code/timedOut`` after the head of a body bound for memory: the head and the part of
    /// the body that arrived (content codings undone), which a cache keeps as a piece.
    public var response: HTTPResponse? { payload?.response }

    /// The error of the part that failed: a processor's, a decoder's, the transport's.
    public var underlying: (any Error)? { payload?.underlying }

    /// Where a resumable download that failed or was cancelled can continue from: its partial
    /// file and the validator that makes continuing safe. Give it back to
    /// ``HTTPSession/download(_:to:resumingFrom:options:didWriteData:)``.
    public var resumeData: DownloadResumeData? { payload?.resumeData }

    /// The same failure, carrying where its download can continue from.
    package func resuming(from resumeData: DownloadResumeData) -> HTTPError {
        var resuming = self
        resuming.payload = Payload(detail: detail, response: response, underlying: underlying, resumeData: resumeData)
        return resuming
    }

    /// The response's status code, for ``Code/statusCode`` failures.
    public var statusCode: Int? { response?.statusCode }

    /// Whether a person asked for the cancellation (``HTTPCycle/cancel(explicitly:)`` with `true`).
    public var isExplicitCancellation: Bool {
        if case .explicit(true) = detail { true } else { false }
    }

    // MARK: Making errors

    /// The URL string could not be parsed, or has no http(s) scheme or host.
    package static func invalidURL(_ url: String) -> HTTPError { HTTPError(.invalidURL, .text(url.redactingURLCredentials)) }

    /// The header `name` or its value is not allowed on the wire.
    package static func invalidHeader(name: String) -> HTTPError { HTTPError(.invalidHeader, .text(name)) }

    /// The server answered with a status the session treats as a failure.
    package static func statusCode(_ response: HTTPResponse) -> HTTPError { HTTPError(.statusCode, response: response) }

    /// The cycle was cancelled; `explicitly` when a person asked for it.
    package static func cancelled(explicitly: Bool) -> HTTPError { explicitly ? cancelledExplicitly : cancelledImplicitly }
    private static let cancelledExplicitly = HTTPError(.cancelled, .explicit(true))
    private static let cancelledImplicitly = HTTPError(.cancelled, .explicit(false))

    /// The request or the whole transfer took longer than its timeout.
    public static let timedOut = HTTPError(.timedOut)

    /// No connection could be made (refused, unreachable, DNS): the server never saw the request.
    public static func connectionFailed(reason: String) -> HTTPError { HTTPError(.connectionFailed, .text(reason)) }

    /// The connection broke after the request started going out.
    public static func connectionLost(reason: String) -> HTTPError { HTTPError(.connectionLost, .text(reason)) }

    /// The response body is larger than `limit` bytes.
    package static func responseTooLarge(limit: Int) -> HTTPError { HTTPError(.responseTooLarge, .limit(limit)) }

    /// The body could not be decoded for the `coding` (corrupt, truncated, past a limit).
    package static func contentDecoding(coding: String, underlying: any Error) -> HTTPError {
        HTTPError(.contentDecoding, .text(coding), underlying: underlying)
    }

    /// The processor called `name` failed; when it was reading a `response`, the error carries it.
    package static func processor(name: String, underlying: any Error, response: HTTPResponse? = nil) -> HTTPError {
        HTTPError(.processor, .text(name), response: response, underlying: underlying)
    }

    /// This failure with the response it is about.
    package func about(_ response: HTTPResponse) -> HTTPError {
        HTTPError(code, detail, response: response, underlying: underlying)
    }

    /// The `processor` cannot turn a request object of `type` into a body; `nil` when no processor was there to try.
    package static func unsupportedRequestObject(type: String, processor: String?) -> HTTPError {
        HTTPError(.unsupportedRequestObject, .pair(type, processor ?? ""))
    }

    /// Any other failure of the transport, described by `reason`.
    package static func transport(reason: String) -> HTTPError { HTTPError(.transport, .text(reason)) }

    /// Any other failure of the transport: `underlying`, such as a `MockTransport.UnmatchedRequest` (JewzMocking).
    package static func transport(underlying: any Error) -> HTTPError {
        HTTPError(.transport, .text(String(describing: underlying)), underlying: underlying)
    }

    /// A one-shot body would have to be sent again.
    package static let bodyNotReplayable = HTTPError(.bodyNotReplayable)

    /// The file body at `path` cannot be read.
    package static func unreadableBody(_ path: String) -> HTTPError { HTTPError(.unreadableBody, .text(path)) }

    /// A download could not be written to `path`.
    package static func downloadFile(path: String, reason: String) -> HTTPError { HTTPError(.downloadFile, .pair(path, reason)) }

    /// A resumed download got another range than the one it asked for.
    package static func downloadNotResumable(reason: String) -> HTTPError { HTTPError(.downloadNotResumable, .text(reason)) }

    /// The reader of a streamed body stopped before its end.
    package static let streamAbandoned = HTTPError(.streamAbandoned)

    /// The session was shut down.
    package static let sessionShutDown = HTTPError(.sessionShutDown)

    /// The server redirected more than `limit` times.
    package static func tooManyRedirects(limit: Int) -> HTTPError { HTTPError(.tooManyRedirects, .limit(limit)) }

    /// The server's redirects came back to `url`, visited already.
    package static func redirectLoop(url: String) -> HTTPError { HTTPError(.redirectLoop, .text(url)) }

    /// The server redirected from `from` (https) to `to` (http).
    package static func insecureRedirect(from: String, to: String) -> HTTPError {
        HTTPError(.insecureRedirect, .pair(from, to))
    }

    /// The server's answer is not valid HTTP, as `reason` says.
    package static func invalidResponse(reason: String) -> HTTPError { HTTPError(.invalidResponse, .text(reason)) }

    /// The server's certificate was refused, for `reason`.
    package static func certificateRejected(reason: String) -> HTTPError { HTTPError(.certificateRejected, .text(reason)) }
    /// The TLS handshake failed, for `reason`.
    package static func tlsHandshakeFailed(reason: String) -> HTTPError { HTTPError(.tlsHandshakeFailed, .text(reason)) }
    /// ``Code/pinMismatch``: `host`'s chain ended at no root with one of `pins`; `served` is
    /// what the server presented, as far as it could be read.
    package static func pinMismatch(host: String, served: [AsyncHTTPClientTransport.CertificatePin], pins: [String]) -> HTTPError {
        let presented = served.isEmpty ? "its certificates could not be read" : "it presented " + served.map(\.description).joined(separator: ", ")
        return HTTPError(.pinMismatch, .pair(host, presented + "; the pins are " + pins.joined(separator: ", ")))
    }
    /// The proxy wants credentials.
    package static let proxyAuthenticationRequired = HTTPError(.proxyAuthenticationRequired)
    /// A setting cannot be used, for `reason`.
    package static func invalidConfiguration(_ reason: String) -> HTTPError { HTTPError(.invalidConfiguration, .text(reason)) }

    /// The authentication called `name` threw `underlying`.
    package static func authentication(name: String, underlying: any Error) -> HTTPError {
        HTTPError(.authentication, .text(name), underlying: underlying)
    }

    /// A download's file handler threw `underlying`.
    package static func downloadHandler(underlying: any Error) -> HTTPError {
        HTTPError(.downloadHandler, underlying: underlying)
    }

    /// The middleware called `name` threw `underlying`.
    package static func middleware(name: String, underlying: any Error) -> HTTPError {
        HTTPError(.middleware, .text(name), underlying: underlying)
    }

    /// A failure of `code` on the network, told with where it happened (`failure`).
    package static func network(_ code: Code, _ failure: NetworkFailure, underlying: (any Error)? = nil) -> HTTPError {
        HTTPError(code, .network(failure), underlying: underlying)
    }

    /// A request body is larger than `limit` bytes, the most it was to be read into memory with.
    package static func requestTooLarge(limit: Int) -> HTTPError { HTTPError(.requestTooLarge, .limit(limit)) }

    /// A line of a streamed body is longer than `limit` bytes.
    package static func lineTooLong(limit: Int) -> HTTPError { HTTPError(.lineTooLong, .limit(limit)) }
}
