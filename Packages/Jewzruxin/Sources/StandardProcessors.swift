import JewzBrotli
import JewzForm
import JewzGzip
import JewzHTTPCore
import JewzJSON
import JewzMultipart
import JewzXML
import JewzZstd

/// The processors `import Jewzruxin` installs in `ProcessorRegistry.shared`. HTTPCore finds this
/// type by name when the shared registry is first used.
public enum StandardProcessors: ProcessorRegistryDefaults {
    public static func registerDefaults(in registry: ProcessorRegistry) {
        // The patterns are constants of the processors themselves, so registering cannot fail.
        try? registry.register(HTTPJSONProcessor(), for: HTTPJSONProcessor.mediaTypePatterns)
        try? registry.register(HTTPJSONLinesProcessor(), for: HTTPJSONLinesProcessor.mediaTypePatterns)
        try? registry.register(HTTPFormProcessor(), for: HTTPFormProcessor.mediaTypePatterns)
        try? registry.register(HTTPXMLProcessor(), for: HTTPXMLProcessor.mediaTypePatterns)
        try? registry.register(HTTPMultipartProcessor(), for: HTTPMultipartProcessor.mediaTypePatterns)
        // A request object without a processor goes as JSON, the form APIs mostly take.
        registry.objectProcessor = HTTPJSONProcessor()
    }

    public static func registerDefaultCodings(in registry: ContentCodingRegistry) {
        registry.register(HTTPGzipProcessor(), for: HTTPGzipProcessor.codings)
        registry.register(HTTPBrotliDecoder(), for: HTTPBrotliDecoder.codings)
        registry.register(HTTPZstdDecoder(), for: HTTPZstdDecoder.codings)
    }
}
