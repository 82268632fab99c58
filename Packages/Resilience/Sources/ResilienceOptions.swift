import JewzHTTPCore

/// What one call changes of its session's resilience stages, set on the call's options:
///
/// ```swift
/// let request = HTTPRequest(url: url)
/// var options = HTTPRequestOptions()
/// options.resilience.bypassesCircuitBreaker = true   // a health check must reach the origin
/// options.resilience.hedging = .off
/// let response = try await session.send(request, options: options)
/// ```
public struct ResilienceOptions: Sendable {
    /// Whether the call goes through an open circuit, uncounted: a health check that must
    /// reach the origin to tell whether it is back.
    public var bypassesCircuitBreaker = false
    /// Whether the call goes past a full bulkhead without taking a place: one that must not
    /// wait behind the others (a cancellation sent to the origin).
    public var bypassesBulkhead = false
    /// The longest the call waits for its turn under a rate limit, instead of the limiter's
    /// ``RateLimiter/Configuration-swift.struct/maximumWait``; zero fails at once rather than wait.
    public var maximumRateLimitWait: Duration?
    /// How the call is hedged instead of as the stage says; ``Hedging/Configuration/off`` for
    /// not at all.
    public var hedging: Hedging.Configuration?

    /// The settings of a call that changes nothing.
    public init() {}
}

extension HTTPRequestOptions {
    /// What this call changes of its session's resilience stages.
    public var resilience: ResilienceOptions {
        get { self[ResilienceOptionsKey.self] }
        set { self[ResilienceOptionsKey.self] = newValue }
    }
}

private enum ResilienceOptionsKey: HTTPRequestOptionKey {
    static var defaultValue: ResilienceOptions { ResilienceOptions() }
}
