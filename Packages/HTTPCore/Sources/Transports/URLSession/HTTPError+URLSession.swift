#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Foundation

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
        case .badURL, .unsupportedURL:
            self = .invalidURL(error.failingURL?.absoluteString ?? "")
        default:
            self = .transport(reason: error.localizedDescription)
        }
    }
}
