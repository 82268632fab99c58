/// Bounds on decompression, so a small hostile body cannot exhaust memory.
public struct GzipLimits: Sendable, Equatable {
    /// The most decoded bytes accepted. Default: 1 GiB.
    public var maximumDecodedSize: Int
    /// The most decoded bytes per compressed byte, checked once ``ratioCheckThreshold`` bytes
    /// are decoded. Default: 200 (text and JSON rarely exceed 20; 1 GiB of zeros is ~1000).
    public var maximumExpansionRatio: Int
    /// Decoded size below which the ratio is not checked. Default: 1 MiB.
    public var ratioCheckThreshold: Int

    public init(maximumDecodedSize: Int = 1 << 30, maximumExpansionRatio: Int = 200, ratioCheckThreshold: Int = 1 << 20) {
        self.maximumDecodedSize = maximumDecodedSize
        self.maximumExpansionRatio = maximumExpansionRatio
        self.ratioCheckThreshold = ratioCheckThreshold
    }

    /// No limits: for data you trust.
    public static let none = GzipLimits(maximumDecodedSize: .max, maximumExpansionRatio: .max, ratioCheckThreshold: .max)
}
