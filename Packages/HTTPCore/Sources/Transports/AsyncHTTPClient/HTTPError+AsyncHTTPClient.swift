import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1
import NIOHTTP2
import NIOPosix
import NIOSSL

extension HTTPError {
    /// Classifies an AsyncHTTPClient or SwiftNIO error, so that callers can tell a request the
    /// server never saw from one that broke on the way.
    @inline(never)  // Its casts would widen the async frame of every request that may fail.
    package init(transportError error: any Error) {
        switch error {
        case let error as HTTPError:
            self = error
        case is CancellationError:
            self = .cancelled(explicitly: false)
        case let error as HTTPClientError:
            switch error {
            // Qualified: HTTPError.Code's `~=` would otherwise claim the names both types share.
            case HTTPClientError.connectTimeout, HTTPClientError.readTimeout, HTTPClientError.writeTimeout,
                HTTPClientError.deadlineExceeded, HTTPClientError.getConnectionFromPoolTimeout,
                HTTPClientError.tlsHandshakeTimeout, HTTPClientError.socksHandshakeTimeout,
                HTTPClientError.httpProxyHandshakeTimeout:
                self = .timedOut
            case HTTPClientError.cancelled, HTTPClientError.requestStreamCancelled:
                self = .cancelled(explicitly: false)
            case HTTPClientError.remoteConnectionClosed:
                self = .connectionLost(reason: "the server closed the connection")
            case HTTPClientError.invalidURL, HTTPClientError.emptyHost, HTTPClientError.emptyScheme:
                self = .invalidURL(String(describing: error))
            case HTTPClientError.alreadyShutdown:
                self = .sessionShutDown
            case HTTPClientError.proxyAuthenticationRequired:
                self = .proxyAuthenticationRequired
            case HTTPClientError.invalidProxyResponse:
                self = .invalidResponse(reason: String(describing: error))
            default:
                self = .transport(underlying: error)
            }
        case NIOSSLError.handshakeFailed(let inner) where String(describing: inner).contains("CERTIFICATE_VERIFY_FAILED"):
            self = .certificateRejected(reason: Self.certificateProblem(of: error))
        case let error as NIOSSLExtraError where error == .failedToValidateHostname:
            self = .certificateRejected(reason: Self.certificateProblem(of: error))
        case let error as NIOSSLError:
            self = .tlsHandshakeFailed(reason: String(describing: error))
        case is NIOConnectionError:
            self = .connectionFailed(reason: String(describing: error))
        case let error as IOError where [ECONNREFUSED, ENETUNREACH, EHOSTUNREACH, EADDRNOTAVAIL].contains(error.errnoCode):
            self = .connectionFailed(reason: String(describing: error))
        case let error as IOError where [ECONNRESET, EPIPE].contains(error.errnoCode):
            self = .connectionLost(reason: String(describing: error))
        case let error as NIOHTTP2Errors.StreamClosed:
            self = .connectionLost(
                reason: error.errorCode == .refusedStream
                    ? "the server refused the HTTP/2 stream before processing it" : "the HTTP/2 stream was closed (\(error.errorCode))")
        case HTTPParserError.invalidEOFState:
            self = .connectionLost(reason: "the connection closed before the response was complete")
        case let error as HTTPParserError:
            self = .invalidResponse(reason: String(describing: error))
        case ChannelError.connectTimeout(_):
            self = .timedOut
        case ChannelError.eof, ChannelError.ioOnClosedChannel, ChannelError.outputClosed:
            self = .connectionLost(reason: String(describing: error))
        default:
            self = .transport(underlying: error)
        }
    }

    /// As ``init(transportError:)``, told with where it happened — the host and port of `url` —
    /// and how far the exchange had come, for the failures of the network: connecting, a
    /// timeout, a lost connection, TLS.
    @inline(never)
    package init(transportError error: any Error, url: URL, progress: NetworkFailure.Progress) {
        let classified = HTTPError(transportError: error)
        var progress = progress
        let event: NetworkFailure.Event
        switch classified.code {
        case .connectionFailed:
            event = Self.connectionEvent(of: error)
        case .timedOut:
            if Self.isConnectTimeout(error) { progress = .connecting }
            event = .timedOut
        case .connectionLost:
            if let closed = error as? NIOHTTP2Errors.StreamClosed {
                event = closed.errorCode == .refusedStream ? .streamRefused : .streamClosed
            } else {
                event = Self.isReset(error) ? .reset : .closed
            }
        case .certificateRejected:
            event = .certificateRejected(Self.certificateProblem(of: error))
        case .tlsHandshakeFailed:
            event = .tlsFailed
        default:
            self = classified
            return
        }
        // A failure of our own making (a timeout the watchdog called) has no error beneath it.
        let underlying = (error as? HTTPError).map { $0.underlying } ?? error
        self = .network(
            classified.code, NetworkFailure(host: url.host, port: url.effectivePort, event: event, progress: progress),
            underlying: underlying)
    }

    /// How connecting failed, in words: no address for the name, a refusal, no route.
    private static func connectionEvent(of error: any Error) -> NetworkFailure.Event {
        var errors = [error]
        if let error = error as? NIOConnectionError {
            if error.connectionErrors.isEmpty, error.dnsAError != nil || error.dnsAAAAError != nil { return .unresolvable }
            errors = error.connectionErrors.map(\.error)
        }
        let codes = errors.compactMap { ($0 as? IOError)?.errnoCode }
        if !codes.isEmpty, codes.allSatisfy({ $0 == ECONNREFUSED }) { return .refused }
        if codes.contains(where: { $0 == ENETUNREACH || $0 == EHOSTUNREACH }) { return .unreachable }
        if let code = codes.first { return .notConnected(String(cString: strerror(code)).lowercased()) }
        return .notConnected("the connection could not be made")
    }

    private static func isConnectTimeout(_ error: any Error) -> Bool {
        if case ChannelError.connectTimeout = error { return true }
        guard let error = error as? HTTPClientError else { return false }
        return [.connectTimeout, .tlsHandshakeTimeout, .socksHandshakeTimeout, .httpProxyHandshakeTimeout].contains(error)
    }

    private static func isReset(_ error: any Error) -> Bool {
        guard let error = error as? IOError else { return false }
        return error.errnoCode == ECONNRESET || error.errnoCode == EPIPE
    }

    /// Why a certificate was refused, in words.
    private static func certificateProblem(of error: any Error) -> String {
        if let error = error as? NIOSSLExtraError, error == .failedToValidateHostname { return "it is issued for another host name" }
        return "it is self-signed, signed by an authority not trusted here, or expired"
    }
}
