#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Foundation
import JewzHTTPCore

extension HTTPError {
    /// Classifies a URLSession error like the default transport's errors.
    init(urlError error: any Error) {
        guard let error = error as? URLError else {
            self = .transport(reason: String(describing: error))
            return
        }
        switch error.code {
        case .timedOut:
            self = .timedOut
        case .cancelled:
            self = .cancelled(explicitly: false)
        case .cannotConnectToHost, .cannotFindHost, .dnsLookupFailed, .notConnectedToInternet:
            self = .connectionFailed(reason: error.localizedDescription)
        case .networkConnectionLost, .badServerResponse:
            self = .connectionLost(reason: error.localizedDescription)
        case .badURL:
            self = .invalidURL(error.failingURL?.absoluteString ?? "")
        case .unsupportedURL:
            // The URL was checked before sending: libcurl says "unsupported protocol" when the
            // answer's status line is not HTTP/1.x (HTTP/0.9, or a status below 100).
            self = .invalidResponse(reason: "the server's answer is not HTTP/1.x (\(error.localizedDescription))")
        default:
            self = .transport(reason: error.localizedDescription)
        }
    }
}
