import JewzBrotli
import JewzForm
import JewzGzip
import JewzHTTPCore
import JewzJSON
import JewzMultipart
import JewzXML
import JewzZstd

/// The toolkit's processors and content decoders, registered where sessions find them.
///
/// Call ``install(in:codings:)`` once when the program starts, before its first request, as a
/// server calls `LoggingSystem.bootstrap`: from then on responses are parsed by Content-Type and
/// compressed bodies decoded. Register your own processors after it: a later registration for
/// a media type replaces an earlier one.
///
/// ```swift
/// import Jewzruxin
///
/// StandardProcessors.install()
/// let cycle = try await HTTPCycle.get("https://api.example.com/items")
/// let first = cycle.response?.json?["items"][0]
/// ```
public enum StandardProcessors {
    /// Registers JSON (`application/json`, `application/*+json`), JSON lines, form, XML and
    /// multipart processors in `registry`, JSON as its object processor, and the gzip, deflate,
    /// br and zstd decoders in `codings`.
    ///
    /// - Parameters:
    ///   - registry: by default the one sessions use unless configured otherwise.
    ///   - codings: by default the one sessions use unless configured otherwise.
    public static func install(in registry: ProcessorRegistry = .shared, codings: ContentCodingRegistry = .shared) {
        // The patterns are constants of the processors themselves, so registering cannot fail.
        try? registry.register(HTTPJSONProcessor(), for: HTTPJSONProcessor.mediaTypePatterns)
        try? registry.register(HTTPJSONLinesProcessor(), for: HTTPJSONLinesProcessor.mediaTypePatterns)
        try? registry.register(HTTPFormProcessor(), for: HTTPFormProcessor.mediaTypePatterns)
        try? registry.register(HTTPXMLProcessor(), for: HTTPXMLProcessor.mediaTypePatterns)
        try? registry.register(HTTPMultipartProcessor(), for: HTTPMultipartProcessor.mediaTypePatterns)
        // A request object without a processor goes as JSON, the form APIs mostly take.
        registry.objectProcessor = HTTPJSONProcessor()
        codings.register(HTTPGzipProcessor(), for: HTTPGzipProcessor.codings)
        codings.register(HTTPBrotliDecoder(), for: HTTPBrotliDecoder.codings)
        codings.register(HTTPZstdDecoder(), for: HTTPZstdDecoder.codings)
    }
}
