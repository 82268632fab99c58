/// Everything that can make a cycle fail, as values a caller can switch over.
///
/// A cancelled request is always ``cancelled(explicitly:)``, never a network failure.
public enum HTTPError: Error, CustomStringConvertible {
    /// The URL string could not be parsed, or has no scheme or host.
    case invalidURL(String)
    /// A header name or value is not allowed on the wire (control characters, empty name…).
    case invalidHeader(name: String)
    /// A media-type pattern given to a ``ProcessorRegistry`` is not `type/subtype`.
    case invalidMediaTypePattern(String)
    /// The server answered with a status the session treats as a failure (>= 400 by default).
    /// The response stays readable on the cycle.
    case statusCode(Int)
    /// The cycle was cancelled; `explicitly` tells whether a user asked for it.
    case cancelled(explicitly: Bool)
    /// The request or the whole transfer took longer than its timeout.
    case timedOut
    /// No connection could be made (refused, unreachable, DNS): the server never saw the request.
    case connectionFailed(reason: String)
    /// The connection broke after the request started going out.
    case connectionLost(reason: String)
    /// The response body is larger than the session allows.
    case responseTooLarge(limit: Int)
    /// The body could not be decoded for its `Content-Encoding` (corrupt, truncated, or past a
    /// decompression limit).
    case contentDecoding(coding: String, underlying: any Error)
    /// A request or response processor failed.
    case processor(name: String, underlying: any Error)
    /// A processor was given a request object of a type it cannot turn into data.
    case unsupportedRequestObject(type: String, processor: String)
    /// Any other failure reported by the transport.
    case transport(reason: String)
    /// A one-shot body (a stream) would have to be sent a second time.
    case bodyNotReplayable
    /// A file body cannot be read.
    case unreadableBody(String)
    /// A downloaded body could not be written to its file.
    case downloadFile(path: String, reason: String)
    /// A resumed download got a range other than the one it asked for.
    case downloadNotResumable(reason: String)
    /// The consumer of a streamed body stopped reading before its end.
    case streamAbandoned
    /// A `MockTransport` has no stub for this request.
    case unmatchedMockRequest(method: String, url: String)
    /// The session was shut down; create a new one to send more requests.
    case sessionShutDown

    public var description: String {
        switch self {
        case .invalidURL(let string):
            "Invalid URL '\(string)': give an absolute URL with a scheme and host, such as https://example.com/path."
        case .invalidHeader(let name):
            "Invalid header '\(name)': names must be tokens and values must not contain CR, LF or NUL."
        case .invalidMediaTypePattern(let pattern):
            "Invalid media-type pattern '\(pattern)': use type/subtype, type/*+suffix, type/* or */*."
        case .statusCode(let code):
            "The server answered with status \(code); the response is still on the cycle. Set the session's shouldTreatStatusCodeAsFailure to accept it."
        case .cancelled(let explicitly):
            explicitly ? "The request was cancelled by the user." : "The request was cancelled."
        case .timedOut:
            "The request timed out; raise the timeout on the request or the session configuration if the server is slow."
        case .connectionFailed(let reason):
            "Could not connect (\(reason)); check the host, the port and that the server is running."
        case .connectionLost(let reason):
            "The connection was lost during the exchange (\(reason)); the request may or may not have been processed."
        case .responseTooLarge(let limit):
            "The response body is larger than \(limit) bytes; raise maximumResponseBodySize or stream the body."
        case .contentDecoding(let coding, let underlying):
            "The \(coding)-encoded body could not be decoded: \(underlying)"
        case .processor(let name, let underlying):
            "\(name) failed: \(underlying)"
        case .unsupportedRequestObject(let type, let processor):
            "\(processor) cannot turn a request object of type \(type) into data; use another processor or set request.data."
        case .transport(let reason):
            "The transport failed: \(reason)"
        case .bodyNotReplayable:
            "The request body is a one-shot stream that was already sent; it cannot be sent again for a restart or a redirect that keeps the body (307/308). Use a .data or .file body when it must be replayable."
        case .unreadableBody(let path):
            "The file body at \(path) cannot be read; check that it exists and is readable."
        case .downloadFile(let path, let reason):
            "The download could not be written to \(path) (\(reason)); check free space and permissions of the temporary directory."
        case .downloadNotResumable(let reason):
            "The download could not be resumed: \(reason). Start it again without resume data."
        case .streamAbandoned:
            "The response body stream was dropped before its end; the transfer was stopped."
        case .unmatchedMockRequest(let method, let url):
            "No mock stub matches \(method) \(url); add one with MockTransport.stub(_:path:…)."
        case .sessionShutDown:
            "The session has been shut down; create a new HTTPSession to send requests."
        }
    }
}
