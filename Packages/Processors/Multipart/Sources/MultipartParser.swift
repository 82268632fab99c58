import Foundation
import JewzHTTPCore

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Splits a multipart body (RFC 2046: `mixed`, `form-data`, `byteranges`…) into parts as its
/// bytes arrive. It holds at most one part's headers (bounded by ``MultipartLimits``) and a
/// boundary's length of body; everything else is handed on at once as events.
///
/// ```swift
/// let chunks = [Data]()
/// let response = try await session.send(HTTPRequest(url: url))
/// var parser = try MultipartParser(contentType: response.headers["Content-Type"] ?? "")
/// for chunk in chunks {
///     for event in try parser.feed(chunk) { handle(event) }
/// }
/// try parser.finish()
/// ```
public struct MultipartParser {
    /// What the parser found.
    public enum Event: Sendable, Equatable {
        /// A part begins, with its headers.
        case partBegan(HTTPHeaderFields)
        /// The next bytes of the current part's body.
        case body(Data)
        /// The current part's body is complete.
        case partEnded
    }

    private enum State {
        case preamble
        case afterBoundary
        case headers
        case body
        case epilogue
    }

    private let limits: MultipartLimits
    /// `--boundary`.
    private let delimiter: [UInt8]
    /// `CRLF--boundary`: what ends a part's body.
    private let bodyDelimiter: [UInt8]
    private var pending: [UInt8] = []
    /// Where the unread input starts in ``pending``.
    private var start = 0
    private var state = State.preamble
    private var partCount = 0
    private var atStart = true

    /// A parser for `boundary`.
    ///
    /// - Throws: ``MultipartError/missingBoundary(contentType:)`` for an empty boundary.
    public init(boundary: String, limits: MultipartLimits = .init()) throws(MultipartError) {
        guard !boundary.isEmpty else { throw .missingBoundary(contentType: "") }
        self.limits = limits
        delimiter = Array("--\(boundary)".utf8)
        bodyDelimiter = Array("\r\n--\(boundary)".utf8)
    }

    /// A parser for the boundary a Content-Type names.
    ///
    /// - Throws: ``MultipartError/missingBoundary(contentType:)``.
    public init(contentType: String, limits: MultipartLimits = .init()) throws(MultipartError) {
        try self.init(boundary: Self.boundary(in: contentType), limits: limits)
    }

    /// The `boundary` parameter of a multipart Content-Type.
    ///
    /// - Throws: ``MultipartError/missingBoundary(contentType:)``.
    public static func boundary(in contentType: String) throws(MultipartError) -> String {
        guard let boundary = MediaType(contentType)?.parameter("boundary"), !boundary.isEmpty else {
            throw .missingBoundary(contentType: contentType)
        }
        return boundary
    }

    /// Reads the next bytes and returns what they complete.
    ///
    /// - Throws: ``MultipartError`` for a malformed body; the parser is unusable afterwards.
    public mutating func feed(_ chunk: some DataProtocol) throws(MultipartError) -> [Event] {
        if case .epilogue = state { return [] }
        pending.append(contentsOf: chunk)
        var events: [Event] = []
        while try step(&events) {}
        // What the steps consumed goes once per feed, not once per step: many small parts in
        // one large chunk would otherwise move the rest of the chunk for each of them.
        pending.removeFirst(start)
        start = 0
        return events
    }

    /// Ends the input.
    ///
    /// - Throws: ``MultipartError/noOpeningBoundary`` or ``MultipartError/truncated(partIndex:)``
    ///   when the closing boundary never came.
    public mutating func finish() throws(MultipartError) {
        switch state {
        case .epilogue: return
        case .preamble: throw .noOpeningBoundary
        default: throw .truncated(partIndex: Swift.max(partCount - 1, 0))
        }
    }

    /// The input not consumed yet.
    private var unread: ArraySlice<UInt8> { pending[start...] }

    /// One step of the state machine; `false` when it needs more input.
    private mutating func step(_ events: inout [Event]) throws(MultipartError) -> Bool {
        switch state {
        case .preamble:
            // The first boundary opens the body or follows a CRLF ending the preamble.
            if atStart, unread.count >= delimiter.count, unread.starts(with: delimiter) {
                start += delimiter.count
                state = .afterBoundary
                return true
            }
            if atStart, unread.count < delimiter.count, delimiter.starts(with: unread) { return false }
            atStart = false
            if let index = Self.find(bodyDelimiter, in: unread) {
                start = index + bodyDelimiter.count
                state = .afterBoundary
                return true
            }
            start = Swift.max(start, pending.count - bodyDelimiter.count)
            return false
        case .afterBoundary:
            guard unread.count >= 2 else { return false }
            if pending[start] == UInt8(ascii: "-"), pending[start + 1] == UInt8(ascii: "-") {
                state = .epilogue
                start = pending.count
                return false
            }
            // Transport padding (spaces, tabs) may precede the CRLF.
            let padding = unread.prefix { $0 == 0x20 || $0 == 0x09 }.count
            guard unread.count >= padding + 2 else {
                if padding > 1024 { throw .malformedBoundaryLine(partIndex: partCount) }
                return false
            }
            guard pending[start + padding] == 0x0D, pending[start + padding + 1] == 0x0A else {
                throw .malformedBoundaryLine(partIndex: partCount)
            }
            start += padding + 2
            guard partCount < limits.maximumParts else { throw .tooManyParts(limit: limits.maximumParts) }
            partCount += 1
            state = .headers
            return true
        case .headers:
            let end: Int
            let separatorLength: Int
            if unread.starts(with: [0x0D, 0x0A]) {
                end = start
                separatorLength = 2
            } else if let index = Self.find([0x0D, 0x0A, 0x0D, 0x0A], in: unread.prefix(limits.maximumHeaderBytes + 4)) {
                end = index
                separatorLength = 4
            } else {
                if unread.count > limits.maximumHeaderBytes {
                    throw .headersTooLarge(partIndex: partCount - 1, limit: limits.maximumHeaderBytes)
                }
                return false
            }
            guard end - start <= limits.maximumHeaderBytes else {
                throw .headersTooLarge(partIndex: partCount - 1, limit: limits.maximumHeaderBytes)
            }
            let headers = try Self.parseHeaders(pending[start..<end], partIndex: partCount - 1)
            start = end + separatorLength
            events.append(.partBegan(headers))
            state = .body
            return true
        case .body:
            if let index = Self.find(bodyDelimiter, in: unread) {
                if index > start { events.append(.body(Data(pending[start..<index]))) }
                events.append(.partEnded)
                start = index + bodyDelimiter.count
                state = .afterBoundary
                return true
            }
            // Keep what could be the start of a delimiter split across chunks.
            let safe = pending.count - (bodyDelimiter.count - 1)
            if safe > start {
                events.append(.body(Data(pending[start..<safe])))
                start = safe
            }
            return false
        case .epilogue:
            start = pending.count
            return false
        }
    }

    /// `Name: value` lines; names are tokens, values may not hold control characters.
    private static func parseHeaders(_ bytes: ArraySlice<UInt8>, partIndex: Int) throws(MultipartError) -> HTTPHeaderFields {
        var headers = HTTPHeaderFields()
        guard !bytes.isEmpty else { return headers }
        let separators: Set<UInt8> = Set("()<>@,;:\\\"/[]?={} \t".utf8)
        for line in bytes.split(separator: 0x0A, omittingEmptySubsequences: false) {
            var line = line
            if line.last == 0x0D { line = line.dropLast() }
            let text = String(decoding: line, as: UTF8.self)
            guard let colon = line.firstIndex(of: UInt8(ascii: ":")), colon > line.startIndex,
                line[..<colon].allSatisfy({ $0 > 0x20 && $0 < 0x7F && !separators.contains($0) }),
                line[(colon + 1)...].allSatisfy({ $0 >= 0x20 || $0 == 0x09 }), line.allSatisfy({ $0 != 0x7F })
            else { throw .malformedHeader(partIndex: partIndex, line: text) }
            let name = String(decoding: line[..<colon], as: UTF8.self)
            let value = String(decoding: line[(colon + 1)...], as: UTF8.self).trimmingCharacters(in: .whitespaces)
            headers.add(value, for: name)
        }
        return headers
    }

    /// The index in the underlying array of the first `needle` in `haystack`: memchr for the
    /// first byte, memcmp for the rest (the body scan is the parser's hot loop).
    static func find(_ needle: [UInt8], in haystack: ArraySlice<UInt8>) -> Int? {
        guard let first = needle.first, haystack.count >= needle.count else { return nil }
        return haystack.withUnsafeBytes { hay -> Int? in
            needle.withUnsafeBytes { pin -> Int? in
                guard let base = hay.baseAddress, let pinBase = pin.baseAddress else { return nil }
                let lastStart = hay.count - pin.count
                var offset = 0
                while offset <= lastStart {
                    guard let hit = memchr(base + offset, Int32(first), lastStart - offset + 1) else { return nil }
                    let position = base.distance(to: UnsafeRawPointer(hit))
                    if memcmp(base + position, pinBase, pin.count) == 0 { return haystack.startIndex + position }
                    offset = position + 1
                }
                return nil
            }
        }
    }
}

extension MultipartParser {
    /// Splits a whole body into parts.
    ///
    /// - Throws: ``MultipartError``.
    public static func parts(
        of data: some DataProtocol, boundary: String, limits: MultipartLimits = .init()
    ) throws(MultipartError) -> [MultipartPart] {
        var parser = try MultipartParser(boundary: boundary, limits: limits)
        var parts: [MultipartPart] = []
        for event in try parser.feed(data) {
            switch event {
            case .partBegan(let headers): parts.append(MultipartPart(headers: headers, body: Data()))
            case .body(let bytes): parts[parts.count - 1].body.append(bytes)
            case .partEnded: break
            }
        }
        try parser.finish()
        return parts
    }
}
