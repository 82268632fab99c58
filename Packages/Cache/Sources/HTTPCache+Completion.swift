import Foundation
import JewzHTTPCore

// Completing a stored piece: when the whole body is wanted and the piece from byte 0 is kept,
// the origin is asked only for the rest, and the stored start goes up first, then the rest —
// in memory, or as a stream whose whole is stored as it is read. So a second download of a URL
// whose first one broke asks only for what it lacks.
extension HTTPCache {
    /// The whole body for `request`: the stored piece from byte 0, then what the origin sends
    /// for `Range: bytes=n-` with `If-Range`. `nil` when there is no such piece or the answer
    /// does not continue it (a changed validator, another range, or a piece without a strong
    /// validator, which is never combined): the whole is then asked for anew. A `200` the origin sends instead (the representation changed) is that answer. The
    /// piece is forgotten either way; the caller stores what this returns.
    ///
    /// - Throws: what sending the rest threw.
    func completePartial(_ request: HTTPRequest, key: String, control: CacheControl, network: Network) async throws -> HTTPResponse? {
        guard let (stored, pieces, validator, rest) = await onStore({ self.pieceToComplete(for: request, key: key) }) else { return nil }
        // The first piece, from byte 0; pieces after it are superseded by the whole.
        let start = pieces.ranges[0]
        // The piece's file was opened as it was read: it stays readable once removed.
        let startInFile = stored.bodyFile.map { HTTPResponseBody(contentsOf: $0, length: start.count) }
        let response = try await network(rest)
        await onStore { self.store.removeResponse(forKey: Self.partialKey(key)) }
        if response.statusCode == 200 { return response }
        guard var whole = Self.continuation(response, of: stored, pieces: pieces, validator: validator),
            response.body.isStream || response.data.count == pieces.completeLength - start.count
        else { return nil }
        counters.bytesSaved.add(start.count, ordering: .relaxed)
        if let startInFile {
            whole.body = startInFile.followed(by: response.body)
        } else if response.body.isStream {
            whole.body = HTTPResponseBody(stored.body.prefix(start.count)).followed(by: response.body)
        } else {
            whole.data = stored.body.prefix(start.count) + response.data
        }
        return whole
    }

    /// The head of the whole body when `rest` — the answer to the request for what follows
    /// the first of `pieces` — continues it: a `206` under the same validator for exactly the
    /// rest. The new fields over the stored (§3.4); `nil` otherwise.
    private static func continuation(_ rest: HTTPResponse, of stored: CachedResponse, pieces: StoredPieces, validator: String?) -> HTTPResponse? {
        guard rest.statusCode == 206, let validator, rangeValidator(rest.headers) == validator, let range = ContentRange(rest.headers["Content-Range"]),
            range.completeLength == Int64(pieces.completeLength), range.first == Int64(pieces.ranges[0].upperBound + 1),
            range.last == Int64(pieces.completeLength - 1)
        else { return nil }
        var whole = rest
        whole.statusCode = 200
        whole.headers = completedHeaders(stored.headers, by: rest.headers, completeLength: pieces.completeLength)
        whole.data = Data()
        return whole
    }
}
