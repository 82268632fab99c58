/// `Content-Range: bytes first-last/complete` (RFC 9110 §14.4); the complete length may be `*`.
package struct ContentRange: Equatable {
    package var first: Int64
    package var last: Int64
    package var completeLength: Int64?

    package init(first: Int64, last: Int64, completeLength: Int64?) {
        self.first = first
        self.last = last
        self.completeLength = completeLength
    }

    /// The field's value, as it is read.
    package var field: String {
        "bytes \(first)-\(last)/" + (completeLength.map { String($0) } ?? "*")
    }

    package init?(_ value: String?) {
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
