/// What a soak runs: how long, how many at once, and the seed its choices come from (printed,
/// so that a run can be repeated).
struct SoakOptions: Sendable {
    var seconds = 120
    var concurrency = 64
    var seed = UInt64.random(in: 1...UInt64.max)

    struct Invalid: Error, CustomStringConvertible {
        let description: String
    }

    init(_ arguments: ArraySlice<String>) throws {
        var rest = arguments
        while let name = rest.popFirst() {
            guard let value = rest.popFirst() else { throw Invalid(description: "\(name) needs a value") }
            switch name {
            case "--seconds":
                guard let seconds = Int(value), seconds >= 10 else { throw Invalid(description: "--seconds is at least 10") }
                self.seconds = seconds
            case "--concurrency":
                guard let concurrency = Int(value), (1...1024).contains(concurrency) else { throw Invalid(description: "--concurrency is 1...1024") }
                self.concurrency = concurrency
            case "--seed":
                guard let seed = UInt64(value) else { throw Invalid(description: "--seed is a number") }
                self.seed = seed
            default:
                throw Invalid(description: "unknown option \(name)")
            }
        }
    }
}

/// SplitMix64: a small, seeded generator, one per worker.
struct SeededGenerator: RandomNumberGenerator {
    private var state: UInt64

    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var value = state
        value = (value ^ (value >> 30)) &* 0xBF58_476D_1CE4_E5B9
        value = (value ^ (value >> 27)) &* 0x94D0_49BB_1331_11EB
        return value ^ (value >> 31)
    }
}
