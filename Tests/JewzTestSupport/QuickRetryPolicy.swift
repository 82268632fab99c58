import JewzHTTPCore

/// The default retry decisions with delays short enough for tests.
public func quickPolicy() -> RetryPolicy {
    var policy = RetryPolicy()
    policy.baseDelay = .milliseconds(5)
    policy.jitter = 0
    return policy
}
