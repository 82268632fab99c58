import CZlib
import Foundation
import NIOCore

/// The routes that move bodies too large to hold: `/download/N` streams N bytes of a fixed
/// pattern with ranges and validators, `/sink` consumes an upload of any size and answers with
/// its length and CRC-32. Neither holds more than a chunk in memory.
///
/// | route | answer |
/// | --- | --- |
/// | `/download/N?validator=etag\|weak\|date\|none&version=V&drop=K&stall=S&chunked=1` | N bytes, byte i = i mod 251; `Range`/`If-Range` honoured; closes after K body bytes; sends nothing more after S body bytes, keeping the connection open |
/// | `/sink?drop=K` (or any path under `/sink/`) | `{"length":…,"crc32":…,"contentType":…}` for the request body; closes after K bytes |
public enum SandboxStreams {
    /// Byte `i` of every `/download/N` body. 251 is prime, so no power-of-two chunking lines
    /// up with the pattern and a misplaced chunk shows.
    public static func patternByte(at offset: Int64) -> UInt8 {
        UInt8(offset % 251)
    }

    /// The bytes `range` of the pattern, for checking downloads; copied a period at a time,
    /// since tests compare many megabytes in debug builds.
    public static func pattern(_ range: Range<Int64>) -> Data {
        var data = Data(count: range.count)
        // Two periods, so that 251 bytes can be read from any phase.
        let periods = (0..<502).map { UInt8($0 % 251) }
        let phase = Int(range.lowerBound % 251)
        data.withUnsafeMutableBytes { output in
            periods.withUnsafeBytes { source in
                guard let target = output.baseAddress, let origin = source.baseAddress else { return }
                var written = 0
                while written < output.count {
                    let count = Swift.min(251, output.count - written)
                    (target + written).copyMemory(from: origin + phase, byteCount: count)
                    written += count
                }
            }
        }
        return data
    }

    /// The CRC-32 `/sink` reports, for comparing with what was sent.
    public static func crc32(of data: Data) -> UInt {
        data.withUnsafeBytes { CZlib.crc32(CZlib.crc32(0, nil, 0), $0.bindMemory(to: Bytef.self).baseAddress, uInt($0.count)) }
    }

    /// The largest `/download/N`.
    public static let maximumDownloadSize: Int64 = 64 << 30
    static let chunkSize = 64 << 10

    /// 64 KiB of pattern plus one period, so any chunk is a slice of it.
    static let patternBuffer: ByteBuffer = {
        var buffer = ByteBufferAllocator().buffer(capacity: chunkSize + 251)
        for offset in 0..<(chunkSize + 251) { buffer.writeInteger(patternByte(at: Int64(offset))) }
        return buffer
    }()

    /// A planned `/download/N` answer.
    struct Download {
        var status: Int
        var headers: [(name: String, value: String)]
        /// The body bytes to send, as pattern offsets.
        var range: Range<Int64>
        /// Close the connection after this many body bytes.
        var dropAfter: Int64?
        /// Send nothing more after this many body bytes, and keep the connection open.
        var stallAfter: Int64?
        var chunked: Bool
    }

    static func plan(download uri: String, headers: [(name: String, value: String)]) -> Download? {
        guard let components = URLComponents(string: uri) else { return nil }
        let segments = components.path.split(separator: "/")
        guard segments.count == 2, segments[0] == "download", let size = Int64(segments[1]),
            (0...maximumDownloadSize).contains(size)
        else { return nil }
        let query = components.queryItems ?? []
        let value: (String) -> String? = { name in query.first { $0.name == name }?.value }
        let header: (String) -> String? = { name in headers.first { $0.name.lowercased() == name }?.value }
        let version = value("version") ?? "1"
        let etag = "\"pattern-\(size)-\(version)\""
        let lastModified = version == "1" ? "Sat, 21 Nov 2026 09:00:00 GMT" : "Sun, 22 Nov 2026 09:00:00 GMT"
        var fields: [(name: String, value: String)] = [("Content-Type", "application/octet-stream")]
        var validator: String?
        switch value("validator") ?? "etag" {
        case "etag": validator = etag; fields.append(("ETag", etag))
        case "weak": fields.append(("ETag", "W/" + etag))
        case "date": validator = lastModified; fields.append(("Last-Modified", lastModified))
        default: break
        }
        if validator != nil { fields.append(("Accept-Ranges", "bytes")) }
        var plan = Download(
            status: 200, headers: fields, range: 0..<size, dropAfter: value("drop").flatMap { Int64($0) },
            stallAfter: value("stall").flatMap { Int64($0) }, chunked: value("chunked") == "1")
        // A range applies when the server supports them and If-Range, if any, still matches.
        guard let validator, let range = header("range"), header("if-range").map({ $0 == validator }) ?? true else {
            return plan
        }
        guard let requested = byteRange(range, size: size) else {
            plan.status = 416
            plan.headers.append(("Content-Range", "bytes */\(size)"))
            plan.range = 0..<0
            return plan
        }
        plan.status = 206
        plan.headers.append(("Content-Range", "bytes \(requested.lowerBound)-\(requested.upperBound - 1)/\(size)"))
        plan.range = requested
        return plan
    }

    /// `bytes=first-` or `bytes=first-last` within `size`.
    private static func byteRange(_ value: String, size: Int64) -> Range<Int64>? {
        guard value.hasPrefix("bytes=") else { return nil }
        let bounds = value.dropFirst(6).split(separator: "-", maxSplits: 1, omittingEmptySubsequences: false)
        guard bounds.count == 2, let first = Int64(bounds[0]), first < size else { return nil }
        let last = bounds[1].isEmpty ? size - 1 : Int64(bounds[1]).map { Swift.min($0, size - 1) }
        guard let last, last >= first else { return nil }
        return first..<(last + 1)
    }

    /// The running count and checksum of a `/sink` upload.
    struct Sink {
        var length: Int64 = 0
        var crc: UInt = CZlib.crc32(0, nil, 0)
        var contentType: String
        var dropAfter: Int64?

        mutating func consume(_ buffer: ByteBuffer) {
            length += Int64(buffer.readableBytes)
            buffer.withUnsafeReadableBytes { bytes in
                crc = CZlib.crc32(crc, bytes.bindMemory(to: Bytef.self).baseAddress, uInt(bytes.count))
            }
        }

        var shouldDrop: Bool { dropAfter.map { length >= $0 } ?? false }

        var report: Data {
            let type = contentType.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"")
            return Data("{\"length\":\(length),\"crc32\":\(crc),\"contentType\":\"\(type)\"}".utf8)
        }
    }

    static func sink(uri: String, headers: [(name: String, value: String)]) -> Sink? {
        guard let components = URLComponents(string: uri), components.path == "/sink" || components.path.hasPrefix("/sink/") else {
            return nil
        }
        let drop = components.queryItems?.first { $0.name == "drop" }?.value.flatMap { Int64($0) }
        let type = headers.first { $0.name.lowercased() == "content-type" }?.value ?? ""
        return Sink(contentType: type, dropAfter: drop)
    }
}
