/// `Content-Range: bytes first-last/complete` (RFC 9110 §14.4); the complete length may be `*`.
struct ContentRange: Equatable {
    var first: Int64
    var last: Int64
    var completeLength: Int64?

    init?(_ value: String?) {
        guard let value, value.lowercased().hasPrefix("bytes ") else { return nil }
        let spec = value.dropFirst(6).trimmingHTTPWhitespace()
        let halves = spec.split(separator: "/", maxSplits: 1, omittingEmptySubsequences: false)
        guard halves.count == 2 else { return nil }
        let bounds = halves[0].split(separator: "-", maxSplits: 1, omittingEmptySubsequences: false)
        guard bounds.count == 2, let first = Int64(bounds[0]), let last = Int64(bounds[1]), first <= last else { return nil }
        self.first = first
        self.last = last
        if halves[1] == "*" {
            completeLength = nil
        } else {
            guard let complete = Int64(halves[1]), complete > last else { return nil }
            completeLength = complete
        }
    }
}
