import FuzzDriver
@_spi(Fuzzing) import JewzCache

/// Feeds arbitrary bytes to the cache's readers of range fields: the first two bytes give a
/// body length, the rest split at 0x00 is a `Range` field, a `Content-Range` and a stored
/// ranges list. Ranges answered lie inside the body, ascending and apart, at most a hundred;
/// stored pieces add up to the body's length, apart, inside the whole. A trap is a finding.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: count))
    guard bytes.count >= 2 else { return 0 }
    let length = Int(bytes[0]) << 8 | Int(bytes[1])
    let parts = bytes[2...].split(separator: 0, maxSplits: 2, omittingEmptySubsequences: false).map { String(decoding: $0, as: UTF8.self) }
    if let ranges = CacheParsers.byteRanges(parts[0], length: length) {
        let inside = ranges.allSatisfy { $0.lowerBound >= 0 && $0.upperBound < length }
        let apart = zip(ranges, ranges.dropFirst()).allSatisfy { $0.upperBound < $1.lowerBound }
        guard inside, apart, ranges.count <= 100 else { fatalError("ranges \(ranges) for \(parts[0].debugDescription) of \(length) bytes") }
    }
    if parts.count > 1, let pieces = CacheParsers.storedPieces(contentRange: parts[1], storedRanges: parts.count > 2 ? parts[2] : nil, length: length) {
        let total = pieces.ranges.reduce(0) { $0 + $1.count }
        let apart = zip(pieces.ranges, pieces.ranges.dropFirst()).allSatisfy { $0.upperBound < $1.lowerBound }
        guard total == length, apart, (pieces.ranges.last?.upperBound ?? -1) < pieces.completeLength, (pieces.ranges.first?.lowerBound ?? 0) >= 0 else {
            fatalError("pieces \(pieces) for \(parts[1...].joined(separator: " | ").debugDescription) of \(length) bytes")
        }
    }
    return 0
}

/// SwiftPM links an executable's entry point as `<target>_main`; hand control to libFuzzer.
@_cdecl("RangeFuzzer_main")
public func fuzzerMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    runFuzzer(argc, argv) { data, count in fuzz(data, count) }
}
