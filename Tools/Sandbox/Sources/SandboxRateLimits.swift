import Foundation
import JewzLocking

/// `/ratelimited?key=K&limit=N&window=S`: at most N answers per key in any S seconds (a sliding
/// log), each announcing its policy as the IETF httpapi draft does (`RateLimit-Policy: N;w=S`,
/// with `RateLimit-Limit`, `RateLimit-Remaining` and `RateLimit-Reset`); past it, `429` with
/// `Retry-After`. Counts what it answered and refused per key.
final class SandboxRateLimits: Sendable {
    private struct Key {
        var sent: [ContinuousClock.Instant] = []
        var answered = 0
        var refused = 0
    }

    private let keys = Mutex<[String: Key]>([:])

    /// How many requests of `key` were answered and refused.
    func counts(forKey key: String) -> (answered: Int, refused: Int) {
        keys.withLock { ($0[key]?.answered ?? 0, $0[key]?.refused ?? 0) }
    }

    func respond(_ query: [URLQueryItem]) -> SandboxResponse {
        let value: (String) -> String? = { name in query.first { $0.name == name }?.value }
        guard let key = value("key"), let limit = Int(value("limit") ?? "10"), (1...10_000).contains(limit),
            let window = Int(value("window") ?? "1"), (1...3600).contains(window)
        else { return .text("ratelimited needs key, limit 1...10000 and window 1...3600", status: 400) }
        let span = Duration.seconds(window)
        let (allowed, remaining, reset) = keys.withLock { keys -> (Bool, Int, Duration) in
            // Read under the lock, so that the log is in order: a request whose thread was held
            // between reading the clock and taking the lock would otherwise count, in a window
            // ending at its stale instant, the requests logged after that instant too.
            let now = ContinuousClock.now
            var entry = keys[key] ?? Key()
            defer { keys[key] = entry }
            entry.sent.removeAll { now - $0 >= span }
            let reset = entry.sent.first.map { span - (now - $0) } ?? .zero
            guard entry.sent.count < limit else {
                entry.refused += 1
                return (false, 0, reset)
            }
            entry.sent.append(now)
            entry.answered += 1
            return (true, limit - entry.sent.count, entry.sent.first.map { span - (now - $0) } ?? span)
        }
        let resetSeconds = Int((Double(reset.components.seconds) + Double(reset.components.attoseconds) / 1e18).rounded(.up))
        var response = allowed ? SandboxResponse.text("within the limit") : .text("too many requests", status: 429)
        response.headers += [
            ("RateLimit-Policy", "\(limit);w=\(window)"), ("RateLimit-Limit", "\(limit)"), ("RateLimit-Remaining", "\(remaining)"),
            ("RateLimit-Reset", "\(resetSeconds)"),
        ]
        if !allowed { response.headers.append(("Retry-After", "\(max(resetSeconds, 1))")) }
        return response
    }
}
