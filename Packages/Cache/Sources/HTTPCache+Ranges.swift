import Foundation
import JewzHTTPCore

// Answering a `Range` request from a stored whole response (RFC 9110 §14, RFC 9111 §3.4):
// one range as a 206 with its `Content-Range`, several as a 206 of `multipart/byteranges`, a
// range past the end as a 416; a set this cache does not answer in part, or a stale
// `If-Range`, gets the whole body, which is always a valid answer.
extension HTTPCache {
    /// The most bytes the parts of one `multipart/byteranges` answer may hold: they are read
    /// into memory, and a larger set is answered whole, as a stream, instead.
    static let maximumBytesInParts = 4 << 20

    /// `answer`, cut to the range `request` asks for when it came from the store whole. One
    /// range of a body in a file goes up as a stream read from it; several are read into
    /// memory, up to ``maximumBytesInParts``, on the store's thread when they are in a file.
    func ranged(_ answer: CacheAnswer, for request: HTTPRequest) async -> CacheAnswer {
        guard answer.response.source != .network, answer.response.statusCode == 200, !answer.response.body.isStream,
            let field = request.headers["Range"]
        else { return answer }
        if let condition = request.headers["If-Range"], !Self.ifRange(condition, matches: answer.response.headers) { return answer }
        let length = answer.length
        var response = answer.response
        response.data = Data()
        switch ByteRangeRequest(field, length: length) {
        case .whole:
            return answer
        case .unsatisfiable:
            response.statusCode = 416
            response.headers["Content-Range"] = "bytes */\(length)"
        case .bytes(let range):
            response.statusCode = 206
            response.headers["Content-Range"] = ContentRange(first: Int64(range.lowerBound), last: Int64(range.upperBound), completeLength: Int64(length)).field
            if let file = answer.bodyFile {
                response.headers["Content-Length"] = String(range.count)
                return CacheAnswer(response: response, bodyFile: file, bodyOffset: answer.bodyOffset + range.lowerBound, length: range.count)
            }
            guard let bytes = answer.bytes(at: range.lowerBound, count: range.count) else { return answer }
            response.data = bytes
        case .several(let ranges):
            guard ranges.reduce(0, { $0 + $1.count }) <= Self.maximumBytesInParts,
                let pieces = await bytes(of: answer, in: ranges)
            else { return answer }
            let boundary = "jewz-byteranges-" + UUID().uuidString
            let partType = response.headers["Content-Type"]
            var parts = Data()
            for (range, bytes) in zip(ranges, pieces) {
                var head = "--\(boundary)\r\n"
                if let partType { head += "Content-Type: \(partType)\r\n" }
                head += "Content-Range: \(ContentRange(first: Int64(range.lowerBound), last: Int64(range.upperBound), completeLength: Int64(length)).field)\r\n\r\n"
                parts.append(Data(head.utf8))
                parts.append(bytes)
                parts.append(Data("\r\n".utf8))
            }
            parts.append(Data("--\(boundary)--\r\n".utf8))
            response.statusCode = 206
            response.data = parts
            response.headers.remove("Content-Range")
            response.headers["Content-Type"] = "multipart/byteranges; boundary=\(boundary)"
        }
        response.headers["Content-Length"] = String(response.data.count)
        return CacheAnswer(response: response)
    }

    /// The bytes of each of `ranges` of `answer`'s body, or `nil` when one is past its end:
    /// read on the store's thread when the body is in a file.
    private func bytes(of answer: CacheAnswer, in ranges: [ClosedRange<Int>]) async -> [Data]? {
        let read: @Sendable () -> [Data]? = {
            var pieces: [Data] = []
            for range in ranges {
                guard let bytes = answer.bytes(at: range.lowerBound, count: range.count) else { return nil }
                pieces.append(bytes)
            }
            return pieces
        }
        return answer.bodyFile == nil ? read() : await onStore(read)
    }

    /// Whether an `If-Range` still names the stored representation: its strong `ETag`, or
    /// exactly its `Last-Modified` (§13.1.5); a weak tag never matches.
    static func ifRange(_ condition: String, matches headers: HTTPHeaderFields) -> Bool {
        let condition = condition.trimmingCharacters(in: .whitespaces)
        if condition.hasPrefix("\"") { return headers["ETag"].map { !$0.hasPrefix("W/") && $0 == condition } ?? false }
        return headers["Last-Modified"] == condition
    }
}
