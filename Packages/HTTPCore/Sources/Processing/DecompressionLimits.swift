/// Bounds on decoding a compressed body, so a small hostile body cannot exhaust memory: the
/// same for every content coding (gzip, deflate, brotli, zstd).
public struct DecompressionLimits: Sendable, Equatable {
    /// The most decoded bytes accepted. Default: 1 GiB.
    public var maximumDecodedSize: Int
    /// The most decoded bytes per compressed byte, checked once ``ratioCheckThreshold`` bytes
    /// are decoded. Default: 200 (text and JSON rarely exceed 20; 1 GiB of zeros is ~1000).
    public var maximumExpansionRatio: Int
    /// Decoded size below which the ratio is not checked. Default: 1 MiB.
    public var ratioCheckThreshold: Int

    /// Limits with the given values; the defaults suit any API's responses.
    public init(maximumDecodedSize: Int = 1 << 30, maximumExpansionRatio: Int = 200, ratioCheckThreshold: Int = 1 << 20) {
        self.maximumDecodedSize = maximumDecodedSize
        self.maximumExpansionRatio = maximumExpansionRatio
        self.ratioCheckThreshold = ratioCheckThreshold
    }

    /// No limits: for data you trust.
    public static let none = DecompressionLimits(maximumDecodedSize: .max, maximumExpansionRatio: .max, ratioCheckThreshold: .max)
}

/// One body's encoded and decoded byte counts, checked against its limits as a decoder goes.
package struct DecompressionBudget: Sendable {
    package let limits: DecompressionLimits
    private var encoded = 0
    private var decoded = 0

    package init(_ limits: DecompressionLimits) {
        self.limits = limits
    }

    /// Counts `count` compressed bytes taken in.
    package mutating func consume(_ count: Int) {
        encoded += count
    }

    /// Counts `count` bytes decoded.
    ///
    /// - Throws: ``ContentDecodingError/Code/sizeLimitExceeded`` or
    ///   ``ContentDecodingError/Code/expansionRatioExceeded`` for `coding`.
    package mutating func produce(_ count: Int, coding: String) throws(ContentDecodingError) {
        decoded += count
        if decoded > limits.maximumDecodedSize {
            throw .sizeLimitExceeded(coding: coding, limit: limits.maximumDecodedSize)
        }
        if decoded > limits.ratioCheckThreshold, decoded / Swift.max(encoded, 1) > limits.maximumExpansionRatio {
            throw .expansionRatioExceeded(coding: coding, limit: limits.maximumExpansionRatio)
        }
    }
}
