import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1
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
            self = .certificateRejected(
                reason: "it is self-signed, signed by an authority not trusted here, or expired")
        case let error as NIOSSLExtraError where error == .failedToValidateHostname:
            self = .certificateRejected(reason: "it is issued for another host name")
        case let error as NIOSSLError:
            self = .tlsHandshakeFailed(reason: String(describing: error))
        case is NIOConnectionError:
            self = .connectionFailed(reason: String(describing: error))
        case let error as IOError where [ECONNREFUSED, ENETUNREACH, EHOSTUNREACH, EADDRNOTAVAIL].contains(error.errnoCode):
            self = .connectionFailed(reason: String(describing: error))
        case let error as IOError where [ECONNRESET, EPIPE].contains(error.errnoCode):
            self = .connectionLost(reason: String(describing: error))
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
}

