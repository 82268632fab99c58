// What an error says to a person: what happened, and what to do about it.
extension HTTPError {
    /// What happened on the network, without what to do about it, for a command-line tool to say
    /// that in its own terms; `nil` for any other failure.
    package var networkSummary: String? {
        if case .network(let failure) = detail { return failure.summary }
        return nil
    }

    /// What happened and what to do about it, in sentences a person can act on.
    public var description: String {
        let text: String
        let second: String
        switch detail {
        case .text(let value): (text, second) = (value, "")
        case .pair(let first, let other): (text, second) = (first, other)
        case .limit(let limit): (text, second) = (String(limit), "")
        case .none, .explicit: (text, second) = ("", "")
        case .network(let failure): return "\(failure.summary) \(failure.advice)"
        }
        switch code {
        case .invalidURL:
            return "Invalid URL '\(text)': give an absolute URL with a scheme and host, such as https://example.com/path."
        case .invalidHeader:
            return "Invalid header '\(text)': names must be tokens and values must not contain CR, LF or NUL."
        case .statusCode:
            let status = response.map { String($0.statusCode) } ?? "?"
            return "The server answered with status \(status); the response is on the error (response). Set the session's shouldTreatStatusCodeAsFailure to accept it."
        case .cancelled:
            return isExplicitCancellation ? "The request was cancelled by the user." : "The request was cancelled."
        case .timedOut:
            return "The request timed out; raise the timeout on the request or the session configuration if the server is slow."
        case .connectionFailed:
            return "Could not connect (\(text)); check the host, the port and that the server is running."
        case .connectionLost:
            return "The connection was lost during the exchange (\(text)); the request may or may not have been processed."
        case .responseTooLarge:
            return "The response body is larger than \(text) bytes; raise maximumResponseBodySize, or download or stream the body."
        case .contentDecoding:
            return "The \(text)-encoded body could not be decoded: \(underlying.map { String(describing: $0) } ?? "")"
        case .processor:
            return "\(text) failed: \(underlying.map { String(describing: $0) } ?? "")"
        case .unsupportedRequestObject where second.isEmpty:
            return "No request processor turns a request object of type \(text) into a body: depend on the umbrella module Jewzruxin, which sends it as JSON, or set ProcessorRegistry's objectProcessor or a request processor (the options' or the session's); or set request.data."
        case .unsupportedRequestObject:
            return "\(second) cannot turn a request object of type \(text) into a body; set a request processor that can, or set request.data."
        case .transport:
            return "The transport failed: \(text)"
        case .bodyNotReplayable:
            return "The request body is a one-shot stream that was already sent; it cannot be sent again for a retry, a restart or a redirect that keeps the body (307/308). Use a .data or .file body when it must be replayable."
        case .unreadableBody:
            return "The file body at \(text) cannot be read; check that it exists and is readable."
        case .downloadFile:
            return "The download could not be written to \(text) (\(second)); check free space and permissions of the temporary directory."
        case .downloadNotResumable:
            return "The download could not be resumed: \(text). Start it again without resume data."
        case .streamAbandoned:
            return "The response body stream was dropped before its end; the transfer was stopped."
        case .sessionShutDown:
            return "The session has been shut down; create a new HTTPSession to send requests."
        case .tooManyRedirects:
            return "The server redirected more times than the session allows (\(text)); raise maximumRedirects if the chain is expected."
        case .redirectLoop:
            return "The server's redirects loop back to a URL already visited at \(text); the server is misconfigured."
        case .insecureRedirect:
            return "The server redirected from \(text) to \(second), leaving https; set allowsInsecureRedirects on the session's configuration if that is expected."
        case .invalidResponse:
            return "The server's answer is not valid HTTP (\(text)); the server or something between it and you is broken."
        case .certificateRejected:
            return "The server's TLS certificate was refused: \(text). Trust its authority with the transport's tls.additionalTrustRoots, or, for a test server only, turn verification off."
        case .tlsHandshakeFailed:
            return "The TLS handshake failed (\(text)); check the TLS versions both sides accept and whether the server wants a client certificate (tls.clientIdentity)."
        case .pinMismatch:
            return "The certificate chain of \(text) ends at no root with a pinned key (\(second)). If the server changed its authority on purpose, pin the new root's key (jewz pins shows a server's)."
        case .proxyAuthenticationRequired:
            return "The proxy answered 407 Proxy Authentication Required; give its user and password in the proxy URL (http://user:password@host:port)."
        case .invalidConfiguration:
            return "Invalid configuration: \(text)."
        case .authentication:
            return "The authentication \(text) failed: \(underlying.map { String(describing: $0) } ?? "")"
        case .downloadHandler:
            return "The download's file handler failed: \(underlying.map { String(describing: $0) } ?? ""); the file was removed."
        case .middleware:
            return "The middleware \(text) failed: \(underlying.map { String(describing: $0) } ?? "")"
        case .requestTooLarge:
            return "The request body is larger than \(text) bytes, the most a middleware reads into memory; raise the session's maximumResponseBodySize, or sign or inspect the body as it streams."
        case .lineTooLong:
            return "A line of the streamed body is longer than \(text) bytes, the most read into memory for one line; raise maximumLineLength if the server's lines are that long."
        default:
            return "\(code): \(text)"
        }
    }
}
