import Foundation

/// What a request's `Range` asks of a body of known length (RFC 9110 §14.1.2): one range of
/// bytes, several in ascending order, none it can have, or nothing this cache answers in part.
enum ByteRangeRequest: Equatable {
    /// Answer the whole body: no `bytes` unit, a malformed set, more than
    /// ``maximumRanges``, or ranges that overlap or go back.
    case whole
    /// No range of the set overlaps the body: a 416.
    case unsatisfiable
    /// These bytes of the body.
    case bytes(ClosedRange<Int>)
    /// These ranges of the body, ascending and apart: a `multipart/byteranges` answer.
    case several([ClosedRange<Int>])

    /// The most ranges read from one field; a longer set is answered whole, never expanded.
    static let maximumRanges = 100

    /// What `field` asks of a body `length` bytes long.
    init(_ field: String, length: Int) {
        let trimmed = field.trimmingCharacters(in: .whitespaces)
        guard trimmed.lowercased().hasPrefix("bytes="), length >= 0 else {
            self = .whole
            return
        }
        let specs = trimmed.dropFirst(6).split(separator: ",", omittingEmptySubsequences: false)
        guard specs.count <= Self.maximumRanges else {
            self = .whole
            return
        }
        var ranges: [ClosedRange<Int>] = []
        for spec in specs {
            guard let range = Self.range(spec.trimmingCharacters(in: .whitespaces), length: length) else {
                self = .whole
                return
            }
            if let range { ranges.append(range) }
        }
        switch ranges.count {
        case 0: self = .unsatisfiable
        case 1: self = .bytes(ranges[0])
        default:
            // Ranges out of order or overlapping are a client's mistake or an attack (§14.2):
            // the whole body answers them, never an expansion.
            let ascending = zip(ranges, ranges.dropFirst()).allSatisfy { $0.upperBound < $1.lowerBound }
            self = ascending ? .several(ranges) : .whole
        }
    }

    /// One `first-last`, `first-` or `-suffix`: `.some(nil)` when valid but outside the body,
    /// `nil` when malformed.
    private static func range(_ spec: String, length: Int) -> ClosedRange<Int>?? {
        let halves = spec.split(separator: "-", maxSplits: 1, omittingEmptySubsequences: false)
        guard halves.count == 2, halves[0].allSatisfy(\.isASCIIDigitCharacter), halves[1].allSatisfy(\.isASCIIDigitCharacter) else {
            return nil
        }
        switch (Int(halves[0]), Int(halves[1])) {
        case (let first?, nil) where halves[1].isEmpty:
            return .some(first < length ? first...(length - 1) : nil)
        case (let first?, let last?):
            guard first <= last else { return nil }
            return .some(first < length ? first...min(last, length - 1) : nil)
        case (nil, let suffix?) where halves[0].isEmpty:
            return .some(suffix > 0 && length > 0 ? max(0, length - suffix)...(length - 1) : nil)
        default:
            return nil
        }
    }
}

extension Character {
    fileprivate var isASCIIDigitCharacter: Bool { isASCII && isNumber }
}
