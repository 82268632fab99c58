import JewzHTTPCore

/// The readers of range fields that have no public way in, for the harnesses in `Tools/Fuzz`
/// (`@_spi(Fuzzing) import JewzCache`). Not API: names and shapes may change.
@_spi(Fuzzing) public enum CacheParsers {
    /// What a `Range` field asks of a body of `length` bytes: `nil` for the whole body, no
    /// ranges for a 416, else the ranges to answer.
    public static func byteRanges(_ field: String, length: Int) -> [ClosedRange<Int>]? {
        switch ByteRangeRequest(field, length: length) {
        case .whole: nil
        case .unsatisfiable: []
        case .bytes(let range): [range]
        case .several(let ranges): ranges
        }
    }

    /// The pieces a stored entry's `Content-Range` and `Jewz-Stored-Ranges` describe for a
    /// body of `length` bytes; `nil` when they do not add up.
    public static func storedPieces(contentRange: String, storedRanges: String?, length: Int) -> (ranges: [ClosedRange<Int>], completeLength: Int)? {
        var headers: HTTPHeaderFields = ["Content-Range": contentRange]
        if let storedRanges { headers[StoredPieces.field] = storedRanges }
        return StoredPieces(stored: headers, length: length).map { ($0.ranges, $0.completeLength) }
    }
}
