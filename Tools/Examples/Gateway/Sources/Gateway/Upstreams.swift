import Foundation
import JewzHTTPCore
import JewzJSON
import JewzResilience

/// The two services the gateway calls, through one session: its retry policy, circuit breaker,
/// rate limit and cache are the session's, set from the configuration.
struct Upstreams: Sendable {
    let session: HTTPSession
    let catalog: URL
    let prices: URL

    struct Product: Codable, Sendable {
        var id: String
        var name: String
    }

    struct Price: Codable, Sendable {
        var id: String
        var price: Double
    }

    /// - Throws: `HTTPError`, as every failure of a call is.
    func product(_ id: String) async throws -> Product {
        try await session.send(HTTPRequest(url: catalog.appendingPathComponent("products/\(id)")), options: Self.decoded).decode(Product.self)
    }

    /// - Throws: `HTTPError`, as every failure of a call is.
    func price(_ id: String) async throws -> Price {
        try await session.send(HTTPRequest(url: prices.appendingPathComponent("prices/\(id)")), options: Self.decoded).decode(Price.self)
    }

    /// No processor parses the body first: `decode` reads the bytes once.
    private static let decoded = HTTPRequestOptions(responseProcessors: [])

    /// The price, or why there is none: the gateway answers without it.
    func priceOrFailure(_ id: String) async -> Result<Price, any Error> {
        do {
            return .success(try await price(id))
        } catch {
            return .failure(error)
        }
    }
}

/// What the gateway answers when an upstream did not: the status, and a reason a person reads.
struct UpstreamFailure: Sendable {
    var status: Int
    var reason: String
    /// Seconds until the upstream is tried again, when an open circuit says so.
    var retryAfter: Int?

    init(_ failure: any Error) {
        guard let error = failure as? HTTPError else {
            status = 502
            reason = "the upstream failed: \(failure)"
            retryAfter = nil
            return
        }
        if let refused = error.underlying as? ResilienceError {
            status = 503
            reason = refused.description
            retryAfter = refused.retryAfter.map { max(1, Int(($0 - .now).components.seconds) + 1) }
            return
        }
        retryAfter = nil
        switch error.code {
        case .timedOut:
            status = 504
            reason = "the upstream did not answer in time"
        case .statusCode where error.response?.statusCode == 404:
            status = 404
            reason = "no such product"
        default:
            status = 502
            reason = "the upstream failed: \(error.code)"
        }
    }
}
