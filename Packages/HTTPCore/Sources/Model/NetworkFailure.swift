import Foundation

/// Where and how an exchange failed on the network, for an ``HTTPError``'s message: the host and
/// port, what happened there in words, and how far the exchange had come. The transport's own
/// error stays the error's ``HTTPError/underlying``, out of the sentence.
package struct NetworkFailure: Sendable {
    /// What happened.
    package enum Event: Sendable {
        /// Nothing listens on the port.
        case refused
        /// The host name has no address.
        case unresolvable
        /// The network knows no way to the host.
        case unreachable
        /// Connecting failed otherwise, in words.
        case notConnected(String)
        /// A timeout ran out.
        case timedOut
        /// The server reset the connection.
        case reset
        /// The server closed the connection before the response was complete.
        case closed
        /// The server refused an HTTP/2 stream before processing it (`REFUSED_STREAM`, RFC
        /// 9113 §8.7): the request can be sent again, whatever its method.
        case streamRefused
        /// The connection the request was to go on began to close before it went out (an
        /// HTTP/2 server's GOAWAY): nothing was sent.
        case notSent
        /// An HTTP/2 stream was closed before the response was complete: reset by the server,
        /// or dropped by a connection it is closing (GOAWAY).
        case streamClosed
        /// The server's certificate was refused, and why, in words.
        case certificateRejected(String)
        /// The TLS handshake failed otherwise.
        case tlsFailed
    }

    /// How far the exchange had come when it failed.
    package enum Progress: Sendable, Equatable {
        /// No connection was made yet.
        case connecting
        /// The request went out; no response head came.
        case waitingForResponse
        /// The head came, and this many bytes of the body (content codings undone).
        case readingBody(Int)
    }

    package var host: String?
    package var port: Int?
    package var event: Event
    package var progress: Progress

    package init(host: String?, port: Int?, event: Event, progress: Progress) {
        self.host = host
        self.port = port
        self.event = event
        self.progress = progress
    }

    /// `host port N`, or "the server" when the host is not known.
    private var place: String {
        guard let host else { return "the server" }
        return port.map { "\(host) port \($0)" } ?? host
    }

    /// What happened, in one sentence.
    var summary: String {
        switch event {
        case .refused: return "Could not connect to \(place): the connection was refused."
        case .unresolvable: return "Could not resolve host \(host ?? "(none)")."
        case .unreachable: return "Could not connect to \(place): no route to the host."
        case .notConnected(let words): return "Could not connect to \(place): \(words)."
        case .timedOut:
            switch progress {
            case .connecting: return "Timed out connecting to \(place)."
            case .waitingForResponse: return "Timed out waiting for a response from \(place)."
            case .readingBody(let bytes): return "Timed out reading the body from \(place) after \(Self.bytes(bytes))."
            }
        case .reset: return "The connection to \(place) was reset by the server \(brokenAt)."
        case .closed: return "The server at \(place) closed the connection \(brokenAt)."
        case .notSent: return "The connection to \(place) was closing before the request went out."
        case .streamRefused: return "The server at \(place) refused the request's HTTP/2 stream before processing it."
        case .streamClosed: return "The server at \(place) closed the request's HTTP/2 stream \(brokenAt)."
        case .certificateRejected(let why): return "The TLS certificate of \(place) was refused: \(why)."
        case .tlsFailed: return "The TLS handshake with \(place) failed."
        }
    }

    /// What to do about it, naming the settings of the API (a command-line tool names its flags).
    var advice: String {
        switch event {
        case .refused, .unreachable, .notConnected: "Check the host, the port and that the server is running."
        case .unresolvable: "Check the host name, and that this machine can resolve names."
        case .timedOut:
            "Raise the request's timeout (or the session's timeoutForResource, the transport's timeouts) if the server is slow."
        case .streamRefused, .notSent:
            "The server did not process the request: it is safe to send it again (the session does, up to three times)."
        case .reset, .closed, .streamClosed:
            progress == .connecting || progress == .waitingForResponse
                ? "The server may or may not have processed the request." : "The server did process the request."
        case .certificateRejected:
            "Trust its authority with the transport's tls.additionalTrustRoots, or, for a test server only, turn verification off."
        case .tlsFailed:
            "Check the TLS versions both sides accept, and whether the server wants a client certificate (tls.clientIdentity)."
        }
    }

    /// When the connection broke: before the response, or where in its body.
    private var brokenAt: String {
        switch progress {
        case .connecting, .waitingForResponse: "before the response arrived"
        case .readingBody(let bytes): "after \(Self.bytes(bytes)) of the body"
        }
    }

    private static func bytes(_ count: Int) -> String {
        count == 1 ? "1 byte" : "\(count) bytes"
    }
}
