import JewzHTTPCore

/// Zstandard (`zstd`, RFC 9659) for HTTP responses, decoded chunk by chunk as they arrive
/// within ``limits``. Register it in a `ContentCodingRegistry` (`import Jewzruxin` does) and
/// sessions advertise `zstd` in `Accept-Encoding`.
///
/// ```swift
/// ContentCodingRegistry.shared.register(HTTPZstdDecoder(), for: HTTPZstdDecoder.codings)
/// ```
public struct HTTPZstdDecoder: HTTPContentDecoder {
    /// The `Content-Encoding` tokens it decodes.
    public static let codings = ["zstd"]

    public var limits: DecompressionLimits

    public init(limits: DecompressionLimits = DecompressionLimits()) {
        self.limits = limits
    }

    public func makeDecoding() -> any HTTPContentDecoding {
        ZstdDecompressor(limits: limits)
    }
}
