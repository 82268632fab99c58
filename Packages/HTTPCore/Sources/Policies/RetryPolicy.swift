import Foundation

/// When a failed attempt is sent again, and after how long.
///
/// By default a timeout, a 408 and a 503 are retried up to ``maximumRetryCount`` times (3),
/// with exponential backoff and jitter; a 429 or 503 with `Retry-After` waits what the server
/// asks (up to ``maximumRetryAfter``). A request that is not idempotent (POST, PATCH…) is only
/// retried when the failure proves the server never received it (``HTTPError/connectionFailed(reason:)``):
/// never after a response, a timeout or a connection lost mid-exchange: the server may have
/// acted on them. One that carries an `Idempotency-Key` (the IETF httpapi draft, as Stripe's,
/// Adyen's and PayPal's APIs take it) is retried as an idempotent one: the server acts on a key
/// once.
///
/// ```swift
/// var policy = RetryPolicy()
/// policy.retryableStatusCodes.insert(429)
/// policy.shouldRetry = { attempt in attempt.error.code == .timedOut ? false : nil }   // nil: default decision
/// try session.update { $0.retryPolicy = policy }
/// ```
public struct RetryPolicy: Sendable {
    /// The default ``maximumRetryCount``.
    package static let defaultMaximumRetryCount = 3

    /// Retries after the first attempt, for cycles that are not solicited.
    public var maximumRetryCount = RetryPolicy.defaultMaximumRetryCount
    /// Statuses that are retried (for idempotent requests).
    public var retryableStatusCodes: Set<Int> = [408, 503]
    /// Whether timeouts are retried (for idempotent requests).
    public var retriesTimeouts = true
    /// The delay before the first retry; each next one is ``backoffMultiplier`` times longer.
    public var baseDelay: Duration = .milliseconds(250)
    /// How much longer each retry's delay is than the one before.
    public var backoffMultiplier = 2.0
    /// The longest computed delay, also the cap for solicited cycles that retry without end.
    public var maximumDelay: Duration = .seconds(30)
    /// A random spread of ± this fraction of each delay, so clients do not retry in step.
    public var jitter = 0.2
    /// The longest a `Retry-After` header is honoured; a longer one is not retried.
    public var maximumRetryAfter: Duration = .seconds(120)
    /// Decides per attempt: `true` or `false` overrides
    /// the policy's decision, `nil` keeps it. The safety rule for non-idempotent requests and
    /// cancellation always apply.
    public var shouldRetry: (@Sendable (RetryAttempt) -> Bool?)?

    /// The default policy: up to 3 retries, with backoff, after a connection that could not be
    /// made, a timeout, or a 408 or 503.
    public init() {}

    /// A policy that never retries.
    public static var never: RetryPolicy {
        var policy = RetryPolicy()
        policy.maximumRetryCount = 0
        policy.shouldRetry = { _ in false }
        return policy
    }

    /// The delay before sending `attempt`'s request again, or `nil` to stop.
    package func delay(for attempt: RetryAttempt) -> Duration? {
        if attempt.error.code == .cancelled { return nil }
        let serverNeverSawIt = attempt.error.code == .connectionFailed
        guard attempt.isIdempotent || serverNeverSawIt else { return nil }

        let retryAfter = attempt.error.response.flatMap { response in
            [429, 503].contains(response.statusCode) ? Self.retryAfter(response.headers["Retry-After"]) : nil
        }
        if let retryAfter, retryAfter > maximumRetryAfter { return nil }

        var decision: Bool
        if attempt.solicited {
            decision = true
        } else {
            decision = attempt.retryCount < maximumRetryCount && isRetryable(attempt.error)
        }
        if let verdict = shouldRetry?(attempt) { decision = verdict }
        guard decision else { return nil }
        return retryAfter ?? backoff(afterRetries: attempt.retryCount)
    }

    private func isRetryable(_ error: HTTPError) -> Bool {
        switch error.code {
        case .statusCode: error.statusCode.map(retryableStatusCodes.contains) ?? false
        case .timedOut: retriesTimeouts
        case .connectionFailed: true
        default: false
        }
    }

    /// `baseDelay × multiplier^retries`, capped, with jitter.
    func backoff(afterRetries retries: Int) -> Duration {
        let base = baseDelay.inSeconds * pow(backoffMultiplier, Double(min(retries, 62)))
        let capped = min(base, maximumDelay.inSeconds)
        let spread = capped * jitter * Double.random(in: -1...1)
        return .nanoseconds(Int64(max(0, capped + spread) * 1e9))
    }

    /// The wait a `Retry-After` value asks for: delay-seconds or an HTTP-date (RFC 9110 §10.2.3).
    public static func retryAfter(_ value: String?, now: Date = Date()) -> Duration? {
        guard let value = value?.trimmingHTTPWhitespace(), !value.isEmpty else { return nil }
        if value.allSatisfy(\.isASCII), let seconds = Int(value) {
            return seconds >= 0 ? .seconds(seconds) : nil
        }
        guard let date = HTTPDate.parse(value) else { return nil }
        return .milliseconds(Int64(max(0, date.timeIntervalSince(now)) * 1000))
    }
}

/// What a retry decision looks at: the request, the failure, and the attempts so far.
public struct RetryAttempt: Sendable {
    /// The request's method: only an idempotent one is retried after it may have been processed.
    public var method: HTTPMethod
    /// Whether the request carries an `Idempotency-Key`, which a server acts on once.
    public var carriesIdempotencyKey: Bool
    /// Whether the request may be sent again after the server may have acted on it: its
    /// method is idempotent, or it carries an `Idempotency-Key`.
    public var isIdempotent: Bool { method.isIdempotent || carriesIdempotencyKey }
    /// The request's URL (after the redirects followed so far).
    public var url: URL
    /// The failure; for a failing status it carries the response.
    public var error: HTTPError
    /// Retries made before this decision (0 after the first attempt).
    public var retryCount: Int
    /// Whether a person asked for the request (``HTTPRequestOptions/solicited``): it is retried
    /// until data arrives.
    public var solicited: Bool

    package init(method: HTTPMethod, url: URL, error: HTTPError, retryCount: Int, solicited: Bool = false, carriesIdempotencyKey: Bool = false) {
        self.method = method
        self.carriesIdempotencyKey = carriesIdempotencyKey
        self.url = url
        self.error = error
        self.retryCount = retryCount
        self.solicited = solicited
    }
}
