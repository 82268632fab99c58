import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1
import NIOPosix

extension HTTPError {
    /// Classifies an AsyncHTTPClient or SwiftNIO error, so that callers can tell a request the
    /// server never saw from one that broke on the way.
    @inline(never)  // Its casts would widen the async frame of every request that may fail.
    init(transportError error: any Error) {
        switch error {
        case let error as HTTPError:
            self = error
        case is CancellationError:
            self = .cancelled(explicitly: false)
        case let error as HTTPClientError:
            switch error {
            case .connectTimeout, .readTimeout, .writeTimeout, .deadlineExceeded,
                .getConnectionFromPoolTimeout, .tlsHandshakeTimeout:
                self = .timedOut
            case .cancelled, .requestStreamCancelled:
                self = .cancelled(explicitly: false)
            case .remoteConnectionClosed:
                self = .connectionLost(reason: "the server closed the connection")
            case .invalidURL, .emptyHost, .emptyScheme:
                self = .invalidURL(String(describing: error))
            case .alreadyShutdown:
                self = .sessionShutDown
            case .invalidProxyResponse:
                self = .invalidResponse(reason: String(describing: error))
            default:
                self = .transport(underlying: error)
            }
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

