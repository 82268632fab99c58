import JewzLocking
import Logging
import struct Synchronization.Atomic

/// Maps media-type patterns to the processors that digest responses of those types.
///
/// An entry that also prepares requests (an ``HTTPProcessor``: JSON, forms, XML, multipart)
/// writes bodies of its type too: ``requestProcessor(forContentType:)``.
///
/// Patterns are `type/subtype` (exact), `type/*+suffix`, `type/*` and `*/*`. For a response,
/// the most specific registered pattern wins in that order; parameters such as `charset` play
/// no part in matching. Registering again for the same pattern replaces the processor.
///
/// ```swift
/// try ProcessorRegistry.shared.register(CSVProcessor(), for: "text/csv")
/// ```
public final class ProcessorRegistry: Sendable {
    /// The registry sessions use unless given another one. In a program that links the umbrella
    /// module Jewzruxin it holds the standard processors from its first use (JSON, JSON lines,
    /// form, XML, multipart, and JSON for request objects); in one built from single modules it
    /// starts empty, and the program registers what it uses.
    public static let shared = SharedRegistries.made.processors

    private struct Entries {
        var processors: [String: any HTTPResponseProcessor] = [:]
        /// Lookups by `Content-Type` value, so that a response of a type seen before costs one
        /// dictionary read instead of a parse; emptied whenever a registration changes.
        var byContentType: [String: Answer] = [:]
        /// The last answer of ``processor(forContentType:)``: an API's responses mostly share one
        /// `Content-Type`, which a comparison finds where the dictionary would hash it.
        var lastAnswer: Answer?
        /// Counts changes, so that a lookup that raced with one is not cached.
        var generation = 0
        var objectProcessor: (any HTTPRequestProcessor)?

        mutating func changed() {
            generation += 1
            byContentType = [:]
            lastAnswer = nil
        }
    }

    /// How many distinct `Content-Type` values the lookup cache holds before it starts over.
    private static let contentTypeCacheLimit = 64

    /// A `Content-Type` and the processor for it (`nil`: none). An object, so that a lookup
    /// hands it out with one retain: an optional existential is copied through the runtime's
    /// generic value witnesses, a few hundred instructions a response.
    private final class Answer: Sendable {
        let contentType: String
        let processor: (any HTTPResponseProcessor)?
        /// The standard processor that would take this type, when none is registered.
        let missing: StandardProcessor?

        init(contentType: String, mediaType: MediaType?, processor: (any HTTPResponseProcessor)?) {
            self.contentType = contentType
            self.processor = processor
            missing = processor == nil ? mediaType.flatMap(StandardProcessor.init) : nil
        }
    }

    private let entries = Mutex(Entries())
    /// Whether a response a standard processor would have read went unread here, told once.
    private let warnedOfMissing = Atomic(false)

    /// Creates an empty registry.
    public init() {}

    /// Registers `processor` for each of `patterns`.
    ///
    /// - Throws: ``HTTPError/Code/invalidConfiguration`` naming a pattern that is not one of
    ///   the four forms (type/subtype, type/*+suffix, type/*, */*); nothing is registered then.
    public func register(_ processor: any HTTPResponseProcessor, for patterns: String...) throws(HTTPError) {
        try register(processor, for: patterns)
    }

    /// Registers `processor` for each of `patterns`.
    ///
    /// - Throws: ``HTTPError/Code/invalidConfiguration``; nothing is registered then.
    public func register(_ processor: any HTTPResponseProcessor, for patterns: [String]) throws(HTTPError) {
        let keys = try patterns.map(Self.normalizedPattern)
        entries.withLock { entries in
            for key in keys { entries.processors[key] = processor }
            entries.changed()
        }
    }

    /// Removes the processor registered for `pattern`, if any.
    public func unregister(_ pattern: String) {
        guard let key = try? Self.normalizedPattern(pattern) else { return }
        entries.withLock { entries in
            entries.processors.removeValue(forKey: key)
            entries.changed()
        }
    }

    /// The processor that turns a request object into a body when the call has no request
    /// processor and the object is neither bytes nor a `String` (which go as they are). In a
    /// program that links the umbrella the shared registry's is JewzJSON's
    /// `HTTPJSONProcessor`, so that a `JSONValue`, a dictionary or any `Encodable` goes as
    /// JSON; `nil` makes such an object an error.
    public var objectProcessor: (any HTTPRequestProcessor)? {
        get { entries.withLock { $0.objectProcessor } }
        set { entries.withLock { $0.objectProcessor = newValue } }
    }

    /// The registered patterns, sorted.
    package var patterns: [String] {
        entries.withLock { $0.processors.keys.sorted() }
    }

    /// The processor for a `Content-Type` value, by the most specific matching pattern.
    package func processor(forContentType contentType: String) -> (any HTTPResponseProcessor)? {
        answer(forContentType: contentType).processor
    }

    /// The processor for a response's `Content-Type` value; when there is none and one of the
    /// umbrella's standard processors would have read it (the program does not link the
    /// umbrella and registered nothing for it), a warning saying what to add, once per registry.
    func processor(forContentType contentType: String, warning logger: Logger) -> (any HTTPResponseProcessor)? {
        let answer = answer(forContentType: contentType)
        if let missing = answer.missing, !warnedOfMissing.exchange(true, ordering: .relaxed) {
            logger.warning("\(missing.warning(for: contentType))")
        }
        return answer.processor
    }

    private func answer(forContentType contentType: String) -> Answer {
        let (cached, generation) = entries.withLock { entries -> (Answer?, Int) in
            if let last = entries.lastAnswer, last.contentType == contentType { return (last, entries.generation) }
            let cached = entries.byContentType[contentType]
            if let cached { entries.lastAnswer = cached }
            return (cached, entries.generation)
        }
        if let cached { return cached }
        // Parsed outside the lock; the answer is kept only if no registration came in between.
        let mediaType = MediaType(contentType)
        let answer = Answer(contentType: contentType, mediaType: mediaType, processor: mediaType.flatMap(processor(for:)))
        entries.withLock { entries in
            guard entries.generation == generation else { return }
            if entries.byContentType.count >= Self.contentTypeCacheLimit { entries.byContentType = [:] }
            entries.byContentType[contentType] = answer
            entries.lastAnswer = answer
        }
        return answer
    }

    /// The processor that writes request bodies of a `Content-Type`: the one registered for it
    /// when it prepares requests too, else `nil`.
    package func requestProcessor(forContentType contentType: String) -> (any HTTPRequestProcessor)? {
        processor(forContentType: contentType) as? any HTTPRequestProcessor
    }

    /// The processor for a media type, by the most specific matching pattern.
    func processor(for mediaType: MediaType) -> (any HTTPResponseProcessor)? {
        entries.withLock { entries in
            let processors = entries.processors
            if let exact = processors[mediaType.essence] { return exact }
            if let suffix = mediaType.suffix, let bySuffix = processors["\(mediaType.type)/*+\(suffix)"] {
                return bySuffix
            }
            return processors["\(mediaType.type)/*"] ?? processors["*/*"]
        }
    }

    /// The pattern as the registry keys it (lowercased, without parameters).
    ///
    /// - Throws: ``HTTPError/Code/invalidConfiguration``.
    private static func invalid(_ pattern: String) -> HTTPError {
        .invalidConfiguration("'\(pattern)' is not a media-type pattern; use type/subtype, type/*+suffix, type/* or */*")
    }

    static func normalizedPattern(_ pattern: String) throws(HTTPError) -> String {
        guard let mediaType = MediaType(pattern), mediaType.parameters.isEmpty else { throw Self.invalid(pattern) }
        let type = mediaType.type
        let subtype = mediaType.subtype
        let valid =
            if type == "*" {
                subtype == "*"
            } else if subtype == "*" {
                type.isHTTPToken
            } else if subtype.hasPrefix("*+") {
                type.isHTTPToken && subtype.dropFirst(2).isHTTPToken
            } else {
                type.isHTTPToken && subtype.isHTTPToken && !subtype.contains("*")
            }
        guard valid, !type.contains("*") || type == "*" else { throw Self.invalid(pattern) }
        return mediaType.essence
    }
}
