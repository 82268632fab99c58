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
/// A program that links this module has them in every new configuration's registries
/// (``/JewzHTTPCore/HTTPSession/Configuration-swift.struct/processorRegistry`` and
/// ``/JewzHTTPCore/HTTPSession/Configuration-swift.struct/contentCodings``) without a call:
/// responses are parsed by Content-Type and compressed bodies decoded. Call
/// ``install(in:codings:)`` for registries of your own, which start empty. Register your own
/// processors in either: a later registration for a media type replaces an earlier one.
///
/// ```swift
/// import Jewzruxin
///
/// let response = try await HTTPCycle.get("https://api.example.com/items")
/// let first = response.json?["items"][0]
/// var strict = ProcessorRegistry()                     // a session's own registry
/// var codings = ContentCodingRegistry()
/// StandardProcessors.install(in: &strict, codings: &codings)
/// ```
public enum StandardProcessors {
    /// Registers JSON (`application/json`, `application/*+json`), JSON lines, form, XML and
    /// multipart processors in `registry`, JSON as its object processor, and the gzip, deflate,
    /// br and zstd decoders in `codings`.
    public static func install(in registry: inout ProcessorRegistry, codings: inout ContentCodingRegistry) {
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
