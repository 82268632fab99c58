import JewzHTTPCore

/// Brotli (`br`) for HTTP responses, decoded chunk by chunk as they arrive within ``limits``.
/// Register it in a `ContentCodingRegistry` (a session's `contentCodings`; in a program that links the umbrella every new configuration has it) and sessions advertise
/// `br` in `Accept-Encoding`.
///
/// ```swift
/// try session.update { $0.contentCodings.register(HTTPBrotliDecoder(), for: HTTPBrotliDecoder.codings) }
/// ```
public struct HTTPBrotliDecoder: HTTPContentDecoder {
    /// The `Content-Encoding` tokens it decodes.
    public static let codings = ["br"]

    /// How far a response may inflate.
    public var limits: DecompressionLimits

    /// A decoder within `limits`.
    public init(limits: DecompressionLimits = DecompressionLimits()) {
        self.limits = limits
    }

    /// A decoder for one response's body.
    public func makeDecoding() -> any HTTPContentDecoding {
        BrotliDecompressor(limits: limits)
    }
}
