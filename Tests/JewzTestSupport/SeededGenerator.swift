import Foundation

/// A random number generator that repeats itself from a seed (SplitMix64), for tests that try
/// random inputs: a failure names its seed, and `JEWZ_TEST_SEED=N` replays it.
public struct SeededGenerator: RandomNumberGenerator, Sendable {
    /// The seed this generator started from: put it in every expectation's message.
    public let seed: UInt64
    private var state: UInt64

    /// A generator from `seed`; without one, from `JEWZ_TEST_SEED` when it is set, else a
    /// fresh random seed.
    public init(seed: UInt64? = nil) {
        let chosen = seed
            ?? ProcessInfo.processInfo.environment["JEWZ_TEST_SEED"].flatMap { UInt64($0) }
            ?? UInt64.random(in: 0...UInt64.max)
        self.seed = chosen
        state = chosen
    }

    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var mixed = state
        mixed = (mixed ^ (mixed >> 30)) &* 0xBF58_476D_1CE4_E5B9
        mixed = (mixed ^ (mixed >> 27)) &* 0x94D0_49BB_1331_11EB
        return mixed ^ (mixed >> 31)
    }
}

extension SeededGenerator: CustomStringConvertible {
    /// "seed N (replay with JEWZ_TEST_SEED=N)", for expectation messages.
    public var description: String { "seed \(seed) (replay with JEWZ_TEST_SEED=\(seed))" }
}
