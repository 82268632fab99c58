import Foundation
@testable import JewzCache
import JewzHTTPCore
import JewzTestSupport
import Testing

/// The parsers a request's fields go through on the way to a stored answer: whatever a client
/// sends, they answer within bounds and never trap. The random rounds collect what failed and
/// expect once: an expectation per round would keep a thread of the suite's two busy for
/// seconds, starving the in-process servers of other tests.
@Suite struct RangeParsingTests {
    @Test(arguments: [
        ("bytes=0-0", 10, ByteRangeRequest.bytes(0...0)), ("bytes=3-", 10, .bytes(3...9)), ("bytes=-3", 10, .bytes(7...9)),
        ("bytes=-30", 10, .bytes(0...9)), ("bytes=5-50", 10, .bytes(5...9)), ("bytes=10-", 10, .unsatisfiable),
        ("bytes=-0", 10, .unsatisfiable), ("bytes=0-1,3-4", 10, .several([0...1, 3...4])), ("bytes=0-5,3-8", 10, .whole), ("bytes=5-6,0-1", 10, .whole),
        ("bytes=0-1,20-30,-2", 10, .several([0...1, 8...9])), ("bytes=1-0", 10, .whole), ("bytes=a-b", 10, .whole),
        ("Bytes = 2-3", 10, .whole), ("BYTES=2-3", 10, .bytes(2...3)), ("bytes=0-", 0, .unsatisfiable), ("bytes=99999999999999999999-", 10, .whole),
    ])
    func rangeFieldsReadAsRFC9110Writes(_ field: String, _ length: Int, _ expected: ByteRangeRequest) {
        #expect(ByteRangeRequest(field, length: length) == expected, "\(field) of \(length)")
    }

    @Test func anyRangeFieldGivesABoundedAnswer() {
        var generator = SeededGenerator()
        let alphabet = Array("bytes=0123456789-, ;\t=xX")
        var failures: [String] = []
        for _ in 0..<1_000 {
            let length = Int.random(in: 0...1_000, using: &generator)
            let field = String((0..<Int.random(in: 0...40, using: &generator)).map { _ in alphabet.randomElement(using: &generator) ?? "-" })
            switch ByteRangeRequest(field, length: length) {
            case .whole, .unsatisfiable: continue
            case .bytes(let range):
                if range.lowerBound < 0 || range.upperBound >= length { failures.append("\(field) of \(length)") }
            case .several(let ranges):
                let inside = ranges.allSatisfy { $0.lowerBound >= 0 && $0.upperBound < length }
                let apart = zip(ranges, ranges.dropFirst()).allSatisfy { $0.upperBound < $1.lowerBound }
                if !inside || !apart || ranges.count < 2 || ranges.count > ByteRangeRequest.maximumRanges { failures.append("\(field) of \(length)") }
            }
        }
        #expect(failures.isEmpty, "\(failures.prefix(5)), \(generator)")
    }

    @Test func normalisedValuesAreStableAndIgnoreTheOrderOfEqualPreferences() {
        var generator = SeededGenerator()
        let items = [
            "en-US", "fr", "de;q=0.5", "gzip", "BR", "*;q=0", "text/html;level=1", "x;q=0.50", " ja ", ";q=1", ",,", "a;=", "b;==;q",
            "c;q=", "d;q=2", "=;=",
        ]
        var failures: [String] = []
        for _ in 0..<500 {
            let chosen = (0..<Int.random(in: 0...6, using: &generator)).compactMap { _ in items.randomElement(using: &generator) }
            let value = chosen.joined(separator: ", ")
            for name in ["Accept-Language", "Accept-Encoding", "Accept", "X-Other"] {
                let normalised = SelectingHeader.normalized(value, for: name)
                if SelectingHeader.normalized(normalised, for: name) != normalised { failures.append("unstable \(name): \(value)") }
                if name.hasPrefix("Accept"), SelectingHeader.normalized(chosen.reversed().joined(separator: ","), for: name) != normalised {
                    failures.append("order \(name): \(value)")
                }
            }
        }
        #expect(failures.isEmpty, "\(failures.prefix(5)), \(generator)")
    }

    @Test func anyContentRangeOrStoredRangesGivePiecesThatFitTheirBodyOrNone() {
        var generator = SeededGenerator()
        let alphabet = Array("bytes 0123456789-/*,x")
        let listAlphabet = Array("0123456789-, ")
        var failures: [String] = []
        for _ in 0..<2_000 {
            let field = String((0..<Int.random(in: 0...30, using: &generator)).map { _ in alphabet.randomElement(using: &generator) ?? "-" })
            let list = String((0..<Int.random(in: 0...20, using: &generator)).map { _ in listAlphabet.randomElement(using: &generator) ?? "-" })
            let length = Int.random(in: 0...20, using: &generator)
            let headers: HTTPHeaderFields = ["Content-Range": field, StoredPieces.field: list]
            if let pieces = StoredPieces(stored: headers, length: length) {
                let apart = zip(pieces.ranges, pieces.ranges.dropFirst()).allSatisfy { $0.upperBound + 1 < $1.lowerBound }
                if !apart || pieces.byteCount != length || (pieces.ranges.last?.upperBound ?? .max) >= pieces.completeLength
                    || (pieces.ranges.first?.lowerBound ?? -1) < 0
                {
                    failures.append("stored \(field) [\(list)] of \(length)")
                }
            }
            // An answer's own field of that name is not the cache's: one range, its Content-Range.
            if let piece = StoredPieces(answer: headers, length: length) {
                if piece.ranges.count != 1 || piece.byteCount != length || piece.ranges[0].upperBound >= piece.completeLength {
                    failures.append("answer \(field) of \(length)")
                }
            }
        }
        #expect(failures.isEmpty, "\(failures.prefix(5)), \(generator)")
    }

    @Test func piecesJoinWhereTheyTouchAndTheNewBytesWinWhereTheyOverlap() throws {
        let held = StoredPieces(ranges: [0...3, 10...13], completeLength: 20)
        let body = Data("abcdKLMN".utf8)
        let (joined, bytes) = try #require(held.joining(StoredPieces(ranges: [3...9], completeLength: 20), body: body, data: Data("XYZxyzw".utf8)))
        #expect(joined.ranges == [0...13])
        #expect(String(decoding: bytes, as: UTF8.self) == "abcXYZxyzwKLMN")
        let apart = try #require(held.joining(StoredPieces(ranges: [16...17], completeLength: 20), body: body, data: Data("pq".utf8)))
        #expect(apart.pieces.ranges == [0...3, 10...13, 16...17])
        #expect(apart.pieces.bodyOffset(of: 16...17) == 8)
        #expect(apart.pieces.bodyOffset(of: 3...10) == nil, "a range across a gap is not held")
        #expect(held.joining(StoredPieces(ranges: [0...1], completeLength: 21), body: body, data: Data("zz".utf8)) == nil)
    }
}
