import JewzLocking
import Logging
import struct Synchronization.Atomic

/// Maps media-type patterns to the processors that digest responses of those types: a value,
/// held by a session's configuration (``HTTPSession/Configuration-swift.struct/processorRegistry``)
/// and read as it was when each call started.
///
/// An entry that also prepares requests (an ``HTTPProcessor``: JSON, forms, XML, multipart)
/// writes bodies of its type too, for a request whose `Content-Type` it takes.
///
/// Patterns are `type/subtype` (exact), `type/*+suffix`, `type/*` and `*/*`. For a response,
/// the most specific registered pattern wins in that order; parameters such as `charset` play
/// no part in matching. Registering again for the same pattern replaces the processor.
///
/// A new configuration's registry holds the standard processors (JSON, JSON lines, form, XML,
/// multipart, and JSON for request objects) in a program that links the umbrella module
/// Jewzruxin; in one built from single modules it starts empty, and the program registers what
/// it uses.
///
/// ```swift
/// try session.update { try $0.processorRegistry.register(CSVProcessor(), for: "text/csv") }
/// ```
public struct ProcessorRegistry: Sendable {
    /// The entries, never changed once made: a registration makes new ones. An object, so that
    /// a call's copy of the configuration takes the registry with one retain, and so that its
    /// lookups share one memo.
    private final class Table: Sendable {
        let processors: [String: any HTTPResponseProcessor]
        let objectProcessor: (any HTTPRequestProcessor)?
        /// Lookups by `Content-Type` value, so that a response of a type seen before costs one
        /// dictionary read instead of a parse, and the last answer: an API's responses mostly
        /// share one `Content-Type`, which a comparison finds where the dictionary would hash it.
        let memo = Mutex<(byContentType: [String: Answer], last: Answer?)>(([:], nil))
        /// Whether a response a standard processor would have read went unread, told once.
        let warnedOfMissing = Atomic(false)

        init(processors: [String: any HTTPResponseProcessor] = [:], objectProcessor: (any HTTPRequestProcessor)? = nil) {
            self.processors = processors
            self.objectProcessor = objectProcessor
        }
    }

    /// How many distinct `Content-Type` values the lookup memo holds before it starts over.
    private static let contentTypeMemoLimit = 64

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

    private var table = Table()

    /// Creates an empty registry.
    public init() {}

    /// Registers `processor` for each of `patterns`.
    ///
    /// - Throws: ``HTTPError/Code/invalidConfiguration`` naming a pattern that is not one of
    ///   the four forms (type/subtype, type/*+suffix, type/*, */*); nothing is registered then.
    public mutating func register(_ processor: any HTTPResponseProcessor, for patterns: String...) throws(HTTPError) {
        try register(processor, for: patterns)
    }

    /// Registers `processor` for each of `patterns`.
    ///
    /// - Throws: ``HTTPError/Code/invalidConfiguration``; nothing is registered then.
    public mutating func register(_ processor: any HTTPResponseProcessor, for patterns: [String]) throws(HTTPError) {
        let keys = try patterns.map(Self.normalizedPattern)
        var processors = table.processors
        for key in keys { processors[key] = processor }
        table = Table(processors: processors, objectProcessor: table.objectProcessor)
    }

    /// Removes the processor registered for `pattern`, if any.
    public mutating func unregister(_ pattern: String) {
        guard let key = try? Self.normalizedPattern(pattern) else { return }
        var processors = table.processors
        processors.removeValue(forKey: key)
        table = Table(processors: processors, objectProcessor: table.objectProcessor)
    }

    /// The processor that turns a request object into a body when the call has no request
    /// processor and the object is neither bytes nor a `String` (which go as they are). In a
    /// program that links the umbrella it is JewzJSON's `HTTPJSONProcessor` from the start, so
    /// that a `JSONValue`, a dictionary or any `Encodable` goes as JSON; `nil` makes such an
    /// object an error.
    public var objectProcessor: (any HTTPRequestProcessor)? {
        get { table.objectProcessor }
        set { table = Table(processors: table.processors, objectProcessor: newValue) }
    }

    /// The registered patterns, sorted.
    package var patterns: [String] {
        table.processors.keys.sorted()
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
        if let missing = answer.missing, !table.warnedOfMissing.exchange(true, ordering: .relaxed) {
            logger.warning("\(missing.warning(for: contentType))")
        }
        return answer.processor
    }

    private func answer(forContentType contentType: String) -> Answer {
        let table = table
        let cached = table.memo.withLock { memo -> Answer? in
            if let last = memo.last, last.contentType == contentType { return last }
            let cached = memo.byContentType[contentType]
            if let cached { memo.last = cached }
            return cached
        }
        if let cached { return cached }
        // Parsed outside the lock: the table does not change, so any thread's answer is right.
        let mediaType = MediaType(contentType)
        let answer = Answer(contentType: contentType, mediaType: mediaType, processor: mediaType.flatMap(processor(for:)))
        table.memo.withLock { memo in
            if memo.byContentType.count >= Self.contentTypeMemoLimit { memo.byContentType = [:] }
            memo.byContentType[contentType] = answer
            memo.last = answer
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
        let processors = table.processors
        if let exact = processors[mediaType.essence] { return exact }
        if let suffix = mediaType.suffix, let bySuffix = processors["\(mediaType.type)/*+\(suffix)"] {
            return bySuffix
        }
        return processors["\(mediaType.type)/*"] ?? processors["*/*"]
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
