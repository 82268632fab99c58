import CJewzHooks

/// The registries a new configuration starts with, made once and filled then, through a weak
/// symbol, by the umbrella module when the program links it.
enum LinkedRegistries {
    static let standard: (processors: ProcessorRegistry, codings: ContentCodingRegistry) = {
        var processors = ProcessorRegistry()
        var codings = ContentCodingRegistry()
        withUnsafeMutablePointer(to: &processors) { processors in
            withUnsafeMutablePointer(to: &codings) { codings in
                jewz_register_linked_standard_parts(processors, codings)
            }
        }
        return (processors, codings)
    }()
}

/// One of the umbrella's standard response processors, known here by name only (HTTPCore does
/// not import the modules above it): what a warning tells a program that reads such a response
/// without it.
struct StandardProcessor: Sendable {
    let module: String
    let processor: String

    /// The standard processor registered for `mediaType`, if one is.
    init?(_ mediaType: MediaType) {
        switch (mediaType.type, mediaType.subtype, mediaType.suffix) {
        case ("application", "json", _), ("application", _, "json"): (module, processor) = ("JewzJSON", "HTTPJSONProcessor")
        case ("application", "x-ndjson", _), ("application", "jsonl", _): (module, processor) = ("JewzJSON", "HTTPJSONLinesProcessor")
        case ("application", "x-www-form-urlencoded", _): (module, processor) = ("JewzForm", "HTTPFormProcessor")
        case ("application", "xml", _), ("text", "xml", _), ("application", _, "xml"): (module, processor) = ("JewzXML", "HTTPXMLProcessor")
        case ("multipart", _, _): (module, processor) = ("JewzMultipart", "HTTPMultipartProcessor")
        default: return nil
        }
    }

    /// What a program reading a response of `contentType` without this processor should add.
    func warning(for contentType: String) -> String {
        "A response of type \(contentType) was not parsed (response.object is nil): no processor is registered for it. "
            + "Depend on the umbrella module Jewzruxin, which registers the standard processors, or register \(module)'s: "
            + "try session.update { try $0.processorRegistry.register(\(processor)(), for: \(processor).mediaTypePatterns) }. Told once."
    }
}
