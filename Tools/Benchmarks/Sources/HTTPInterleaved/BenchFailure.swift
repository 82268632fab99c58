/// A benchmark case that did not see what it measures (a miss where a hit was meant, a URL
/// that does not parse): the run stops rather than timing the wrong thing.
struct BenchFailure: Error, CustomStringConvertible {
    let description: String

    init(_ description: String) {
        self.description = description
    }
}
