import Foundation
import JewzHTTPCore

// A piece completed for a body that is not kept in memory (a download's, a reader's): the
// stored start goes up first, then the rest as the origin sends it, and the whole is stored as
// it is read — so a second download of a URL whose first one broke asks only for the rest.
extension HTTPCache {
    /// The whole body for a streamed `request`: the stored piece from byte 0, then what the
    /// origin sends for `Range: bytes=n-` with `If-Range`, stored whole as it is read. `nil`
    /// when there is no such piece or the answer does not continue it (a changed validator,
    /// another range): the whole is then asked for anew. A `200` the origin sends instead (the
    /// representation changed) is that answer, stored as any. The piece is forgotten either way.
    ///
    /// - Throws: what sending the rest threw; the piece stays then.
    func completePartialStreaming(_ request: HTTPRequest, key: String, control: CacheControl, network: Network) async throws -> HTTPFileResponse? {
        guard let (stored, pieces, validator, rest) = pieceToComplete(for: request, key: key, leavingBody: true) else { return nil }
        // The first piece, from byte 0; pieces after it are superseded by the whole.
        let start = pieces.ranges[0]
        let storing = keeper(for: request, key: key, stored: nil, control: control, sent: now())
        let response = try await network(rest) { head in
            if head.statusCode == 200 { return storing(head) }
            guard let whole = Self.continuation(head, of: stored, pieces: pieces, validator: validator), let writer = storing(whole) else {
                return nil
            }
            // The stored start first; the rest is appended as it is read.
            if let file = stored.bodyFile {
                guard copyBody(from: file, length: start.count, into: writer) else { return nil }
            } else {
                stored.body.prefix(start.count).withUnsafeBytes { writer.write($0) }
            }
            return writer
        }
        // Opened before the piece is forgotten: its file stays readable once removed.
        var first = stored.answer(source: .cache, age: 0)
        first.length = start.count
        if first.bodyFile == nil { first.response.data = first.response.data.prefix(start.count) }
        let startBody = try HTTPResponseBody(stored: first)
        store.removeResponse(forKey: Self.partialKey(key))
        if response.statusCode == 200 { return HTTPFileResponse(response: response, bodyFile: nil, length: 0) }
        guard var whole = Self.continuation(response, of: stored, pieces: pieces, validator: validator) else { return nil }
        let remainder = try response.stream ?? HTTPResponseBody(stored: HTTPFileResponse(response: response, bodyFile: nil, length: response.data.count))
        whole.stream = startBody.followed(by: remainder)
        counters.bytesSaved.add(start.count, ordering: .relaxed)
        return HTTPFileResponse(response: whole, bodyFile: nil, length: pieces.completeLength)
    }

    /// The head of the whole body when `rest` — the answer to the request for what follows
    /// the first of `pieces` — continues it: a `206` under the same validator for exactly the
    /// rest. The new fields over the stored (§3.4); `nil` otherwise.
    private static func continuation(_ rest: HTTPResponse, of stored: CachedResponse, pieces: StoredPieces, validator: String) -> HTTPResponse? {
        guard rest.statusCode == 206, rangeValidator(rest.headers) == validator, let range = ContentRange(rest.headers["Content-Range"]),
            range.completeLength == Int64(pieces.completeLength), range.first == Int64(pieces.ranges[0].upperBound + 1),
            range.last == Int64(pieces.completeLength - 1)
        else { return nil }
        var whole = rest
        whole.statusCode = 200
        whole.headers = completedHeaders(stored.headers, by: rest.headers, completeLength: pieces.completeLength)
        whole.data = Data()
        whole.stream = nil
        return whole
    }
}
