import Foundation

/// A rate limit: at most `requests` calls in any `window`.
public struct RateLimit: Sendable, Hashable {
    /// The most calls in one window.
    public var requests: Int
    /// The window's length.
    public var window: Duration

    /// At most `requests` (at least 1) calls in any `window`.
    public init(requests: Int, per window: Duration) {
        self.requests = max(requests, 1)
        self.window = max(window, .milliseconds(1))
    }
}

extension RateLimit {
    /// The window a twentieth longer (50 ms at least), for the time calls take to arrive: a call
    /// that left just inside a window must not land just outside it. What a limiter counts a
    /// window over.
    package var paddedWindow: Duration {
        window + max(window / 20, .milliseconds(50))
    }

    /// The limits a `RateLimit-Policy` field announces (draft-ietf-httpapi-ratelimit-headers):
    /// the early drafts' `10;w=1, 1000;w=3600` and the later `"default";q=10;w=1`. Items
    /// without a quota or a window are left out; at most four are kept.
    static func policies(in field: String) -> [RateLimit] {
        field.split(separator: ",").prefix(4).compactMap { item -> RateLimit? in
            let parts = item.split(separator: ";").map { $0.trimmingCharacters(in: .whitespaces) }
            guard let first = parts.first else { return nil }
            var quota = Int(first)
            var window: Int?
            for parameter in parts.dropFirst() {
                let pair = parameter.split(separator: "=", maxSplits: 1).map(String.init)
                guard pair.count == 2 else { continue }
                switch pair[0].lowercased() {
                case "q": quota = Int(pair[1])
                case "w": window = Int(pair[1])
                default: continue
                }
            }
            guard let quota, quota > 0, let window, window > 0 else { return nil }
            return RateLimit(requests: quota, per: .seconds(window))
        }
    }
}
