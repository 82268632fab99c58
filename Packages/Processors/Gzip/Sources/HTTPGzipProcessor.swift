import Foundation
import JewzHTTPCore

/// gzip and deflate for HTTP.
///
/// As a content decoder (registered for `gzip`, `x-gzip` and `deflate` in a
/// `ContentCodingRegistry`, a session's `contentCodings`; in a program that links the umbrella every new configuration has it), responses are decoded chunk by chunk
/// as they arrive, within ``limits``. As a request processor (opt-in: add it after the
/// processor that makes the body, on a cycle or a session), it gzips the body and sets
/// `Content-Encoding: gzip`.
///
/// ```swift
/// let cycle = HTTPCycle(requestURL: url)
/// try session.update { $0.contentCodings.register(HTTPGzipProcessor(), for: HTTPGzipProcessor.codings) }
/// cycle.options.requestProcessors = [HTTPJSONProcessor(), HTTPGzipProcessor()]   // compress this upload
/// ```
public struct HTTPGzipProcessor: HTTPRequestProcessor, HTTPContentDecoder {
    /// The `Content-Encoding` tokens it decodes.
    public static let codings = ["gzip", "x-gzip", "deflate"]

    /// How far a response may inflate.
    public var limits: GzipLimits
    /// The compression level for request bodies: 0…9, or -1 for zlib's default.
    public var compressionLevel: Int32

    /// A processor that decodes within `limits` and encodes request bodies at `compressionLevel`
    /// (zlib's, -1 for its default).
    public init(limits: GzipLimits = GzipLimits(), compressionLevel: Int32 = -1) {
        self.limits = limits
        self.compressionLevel = compressionLevel
    }

    /// A decoder for one response's body.
    public func makeDecoding() -> any HTTPContentDecoding {
        GzipDecompressor(format: .automatic, limits: limits)
    }

    /// Gzips `request.data` unless the request already has a `Content-Encoding`.
    ///
    /// - Throws: ``GzipError/zlib(code:)``.
    public func prepare(_ request: inout HTTPRequest) throws {
        guard let data = request.data, !request.headers.contains("Content-Encoding") else { return }
        request.data = try Gzip.compress(data, level: compressionLevel)
        request.headers["Content-Encoding"] = "gzip"
    }
}
