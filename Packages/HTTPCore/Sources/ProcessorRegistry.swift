import Synchronization

/// Maps media-type patterns to the processors that digest responses of those types.
///
/// Patterns are `type/subtype` (exact), `type/*+suffix`, `type/*` and `*/*`. For a response,
/// the most specific registered pattern wins in that order; parameters such as `charset` play
/// no part in matching. Registering again for the same pattern replaces the processor.
///
/// ```swift
/// try ProcessorRegistry.shared.register(CSVProcessor(), for: "text/csv")
/// ```
public final class ProcessorRegistry: Sendable {
    /// The registry sessions use unless given another one.
    ///
    /// With `import Jewzruxin` it starts with the standard processors (JSON, form…); with
    /// HTTPCore alone it starts empty.
    public static let shared: ProcessorRegistry = {
        let registry = ProcessorRegistry()
        standardDefaults?.registerDefaults(in: registry)
        return registry
    }()

    private let entries = Mutex<[String: any HTTPProcessor]>([:])

    /// Creates an empty registry.
    public init() {}

    /// Registers `processor` for each of `patterns`.
    ///
    /// - Throws: ``HTTPError/invalidMediaTypePattern(_:)`` when a pattern is not one of the four
    ///   forms; nothing is registered then.
    public func register(_ processor: any HTTPProcessor, for patterns: String...) throws {
        try register(processor, for: patterns)
    }

    /// Registers `processor` for each of `patterns`.
    ///
    /// - Throws: ``HTTPError/invalidMediaTypePattern(_:)``; nothing is registered then.
    public func register(_ processor: any HTTPProcessor, for patterns: [String]) throws {
        let keys = try patterns.map(Self.normalizedPattern)
        entries.withLock { entries in
            for key in keys { entries[key] = processor }
        }
    }

    /// Removes the processor registered for `pattern`, if any.
    public func unregister(_ pattern: String) {
        guard let key = try? Self.normalizedPattern(pattern) else { return }
        _ = entries.withLock { $0.removeValue(forKey: key) }
    }

    /// The registered patterns, sorted.
    public var patterns: [String] {
        entries.withLock { $0.keys.sorted() }
    }

    /// The processor for a `Content-Type` value, by the most specific matching pattern.
    public func processor(forContentType contentType: String) -> (any HTTPProcessor)? {
        MediaType(contentType).flatMap(processor(for:))
    }

    /// The processor for a media type, by the most specific matching pattern.
    public func processor(for mediaType: MediaType) -> (any HTTPProcessor)? {
        entries.withLock { entries in
            if let exact = entries[mediaType.essence] { return exact }
            if let suffix = mediaType.suffix, let bySuffix = entries["\(mediaType.type)/*+\(suffix)"] {
                return bySuffix
            }
            return entries["\(mediaType.type)/*"] ?? entries["*/*"]
        }
    }

    static func normalizedPattern(_ pattern: String) throws -> String {
        guard let mediaType = MediaType(pattern), mediaType.parameters.isEmpty else {
            throw HTTPError.invalidMediaTypePattern(pattern)
        }
        let isToken: (String) -> Bool = { part in
            !part.isEmpty && part.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || "!#$&-^_.+".contains($0)) }
        }
        let subtype = mediaType.subtype
        let valid: Bool
        if mediaType.type == "*" {
            valid = subtype == "*"
        } else if subtype == "*" {
            valid = isToken(mediaType.type)
        } else if subtype.hasPrefix("*+") {
            valid = isToken(mediaType.type) && isToken(String(subtype.dropFirst(2)))
        } else {
            valid = isToken(mediaType.type) && isToken(subtype)
        }
        guard valid else { throw HTTPError.invalidMediaTypePattern(pattern) }
        return mediaType.essence
    }
}

/// Supplies what the shared registries start with. The umbrella module `Jewzruxin` provides
/// the conformance that fills ``ProcessorRegistry/shared`` and ``ContentCodingRegistry/shared``.
public protocol ProcessorRegistryDefaults {
    /// Registers the default processors in `registry`.
    static func registerDefaults(in registry: ProcessorRegistry)
    /// Registers the default content decoders in `registry`.
    static func registerDefaultCodings(in registry: ContentCodingRegistry)
}

/// `Jewzruxin.StandardProcessors`, when the umbrella module is linked in. It is found by its
/// mangled name, so HTTPCore installs the defaults without depending on the modules above it
/// (see ARCHITECTURE.md).
var standardDefaults: (any ProcessorRegistryDefaults.Type)? {
    _typeByName("9Jewzruxin18StandardProcessorsO") as? any ProcessorRegistryDefaults.Type
}
