import Foundation
import JewzHTTPCore

/// The ranges of a representation a partial entry holds, in order and apart, and the length of
/// the whole; the entry's body is their bytes one after another. One range is described by the
/// entry's `Content-Range`; more by ``field`` beside it, a field of stored entries only.
struct StoredPieces: Equatable {
    /// The most ranges one entry keeps: a piece that would make more is not kept.
    static let maximumCount = 8
    /// Lists the ranges of a stored entry that holds more than one (`0-9, 50-59`).
    static let field = "Jewz-Stored-Ranges"

    let ranges: [ClosedRange<Int>]
    let completeLength: Int

    /// How many bytes the body holds.
    var byteCount: Int { ranges.reduce(0) { $0 + $1.count } }

    /// The pieces a stored entry's `headers` describe for a body of `length` bytes; `nil`
    /// when they do not add up to it.
    init?(stored headers: HTTPHeaderFields, length: Int) {
        guard let range = ContentRange(headers["Content-Range"]), let complete = range.completeLength.map(Int.init) else { return nil }
        let ranges: [ClosedRange<Int>]
        if let list = headers[Self.field] {
            var parsed: [ClosedRange<Int>] = []
            for item in list.split(separator: ",") {
                let bounds = item.split(separator: "-").map { Int($0.trimmingCharacters(in: .whitespaces)) }
                guard bounds.count == 2, let first = bounds[0], let last = bounds[1], first <= last else { return nil }
                parsed.append(first...last)
            }
            ranges = parsed
        } else {
            ranges = [Int(range.first)...Int(range.last)]
        }
        self.init(ranges: ranges, completeLength: complete)
        guard byteCount == length, Self.areApart(ranges), let last = ranges.last, last.upperBound < complete else { return nil }
    }

    /// The one piece of an answer's `Content-Range` whose body is `length` bytes; a field of
    /// ``field``'s name the server sent means nothing here.
    init?(answer headers: HTTPHeaderFields, length: Int) {
        var single = headers
        single.remove(Self.field)
        self.init(stored: single, length: length)
    }

    init(ranges: [ClosedRange<Int>], completeLength: Int) {
        self.ranges = ranges
        self.completeLength = completeLength
    }

    /// Where the bytes of `range` start in the body, when one piece holds them all.
    func bodyOffset(of range: ClosedRange<Int>) -> Int? {
        var offset = 0
        for piece in ranges {
            if piece.contains(range.lowerBound), piece.contains(range.upperBound) { return offset + range.lowerBound - piece.lowerBound }
            offset += piece.count
        }
        return nil
    }

    /// `headers` describing these pieces: a `Content-Range` from the first byte held to the
    /// last, the body's length, and ``field`` when there is more than one.
    func describing(_ headers: HTTPHeaderFields) -> HTTPHeaderFields {
        var headers = headers
        let span = ContentRange(first: Int64(ranges[0].lowerBound), last: Int64(ranges[ranges.count - 1].upperBound), completeLength: Int64(completeLength))
        headers["Content-Range"] = span.field
        headers["Content-Length"] = String(byteCount)
        if ranges.count > 1 {
            headers[Self.field] = ranges.map { "\($0.lowerBound)-\($0.upperBound)" }.joined(separator: ", ")
        } else {
            headers.remove(Self.field)
        }
        return headers
    }

    /// These pieces with `body`, joined by `piece` with `data` (which wins where they overlap):
    /// pieces that touch become one. `nil` when the result would hold more than
    /// ``maximumCount`` pieces, or the lengths of the whole differ.
    func joining(_ piece: StoredPieces, body: Data, data: Data) -> (pieces: StoredPieces, body: Data)? {
        guard piece.completeLength == completeLength, piece.ranges.count == 1 else { return nil }
        var segments: [(range: ClosedRange<Int>, bytes: Data)] = []
        var offset = 0
        for range in ranges {
            segments.append((range, body.subdata(in: offset..<(offset + range.count))))
            offset += range.count
        }
        segments.append((piece.ranges[0], data))
        var merged: [ClosedRange<Int>] = []
        for range in segments.map(\.range).sorted(by: { $0.lowerBound < $1.lowerBound }) {
            if let last = merged.last, range.lowerBound <= last.upperBound + 1 {
                merged[merged.count - 1] = last.lowerBound...max(last.upperBound, range.upperBound)
            } else {
                merged.append(range)
            }
        }
        guard merged.count <= Self.maximumCount else { return nil }
        var joined = Data()
        for range in merged {
            var bytes = Data(count: range.count)
            // In order, so that the new piece, last, wins where it overlaps what was held.
            for segment in segments where segment.range.overlaps(range) {
                let start = segment.range.lowerBound - range.lowerBound
                bytes.replaceSubrange(start..<(start + segment.range.count), with: segment.bytes)
            }
            joined.append(bytes)
        }
        return (StoredPieces(ranges: merged, completeLength: completeLength), joined)
    }

    private static func areApart(_ ranges: [ClosedRange<Int>]) -> Bool {
        zip(ranges, ranges.dropFirst()).allSatisfy { $0.upperBound + 1 < $1.lowerBound } && (ranges.first?.lowerBound ?? 0) >= 0
    }
}
