import Foundation
import JewzHTTPCore
import JewzMultipart

// Partial content (RFC 9111 §3.3–3.4): a `206` of one range (or each range of a
// `multipart/byteranges` one), or the start of a body whose transfer broke, is kept beside its
// URL's entry and answers the ranges wholly inside it while fresh (§3.3). Pieces with one strong
// validator join (``StoredPieces``), and the piece from byte 0 is completed by asking the origin
// for the rest (`Range` with `If-Range`) when the whole body is wanted (§3.4); a piece without a
// validator stands alone and is never combined.
extension HTTPCache {
    /// Where a URL's partial entry is kept, beside its whole one.
    static func partialKey(_ key: String) -> String { key + "\n206" }

    /// The validator that ties pieces together: a strong `ETag`, else `Last-Modified` (RFC 9110
    /// §13.1.5 lets `If-Range` carry either).
    static func rangeValidator(_ headers: HTTPHeaderFields) -> String? {
        if let etag = headers["ETag"] { return etag.hasPrefix("W/") ? nil : etag }
        return headers["Last-Modified"]
    }

    /// Keeps a `206` answer to `request` among the URL's stored pieces when they share its
    /// strong validator (pieces that touch join into one; at most ``StoredPieces/maximumCount``);
    /// otherwise, or without a validator, in their place.
    func keepPartial(_ response: HTTPResponse, for request: HTTPRequest, key: String, control: CacheControl, sent: Date) {
        guard response.statusCode == 206, !response.headers.contains("Vary"),
            let piece = StoredPieces(answer: response.headers, length: response.data.count),
            let entry = storable(
                response, for: request, key: Self.partialKey(key), control: control, requestDate: sent, responseDate: now(), partial: true)
        else { return }
        var pieces = piece
        var body = response.data
        if let validator = Self.rangeValidator(response.headers), let stored = store.response(forKey: Self.partialKey(key)),
            Self.rangeValidator(stored.headers) == validator,
            let held = StoredPieces(stored: stored.headers, length: stored.body.count), held.completeLength == piece.completeLength
        {
            // More pieces than a URL keeps: those held stay, this one is not kept.
            guard let joined = held.joining(piece, body: stored.body, data: response.data) else { return }
            (pieces, body) = joined
        }
        try? store.store(
            CachedResponse(
                key: entry.key, statusCode: 206, headers: pieces.describing(entry.headers), body: body, url: entry.url,
                requestDate: entry.requestDate, responseDate: entry.responseDate, varyingFields: [:], lifetimeOverride: entry.lifetimeOverride))
    }

    /// `response`, a `206` whose body may still stream: kept as a piece (or pieces) at once when
    /// it is in memory; else once it has been read whole, when it is not larger than
    /// ``BoundedGathering/memoryLimit`` (a range a proxy's client asks for, not a download's body).
    func keepingPartial(_ response: HTTPResponse, for request: HTTPRequest, key: String, control: CacheControl, sent: Date) async -> HTTPResponse {
        guard response.statusCode == 206 else { return response }
        guard response.body.isStream else {
            await onStore {
                self.keepPartial(response, for: request, key: key, control: control, sent: sent)
                self.keepByteRanges(response, for: request, key: key, control: control, sent: sent)
            }
            return response
        }
        let gathered = BoundedGathering()
        var copying = response
        copying.body = response.body.copying(
            each: { chunk in chunk.withUnsafeBytes { gathered.append($0) } },
            atEnd: { [self] in
                guard let data = gathered.take() else { return }
                var whole = response
                whole.data = data
                await onStore { [whole] in
                    self.keepPartial(whole, for: request, key: key, control: control, sent: sent)
                    self.keepByteRanges(whole, for: request, key: key, control: control, sent: sent)
                }
            })
        return copying
    }

    /// Keeps the parts of a `multipart/byteranges` answer as pieces, in order, as
    /// ``keepPartial(_:for:key:control:sent:)`` keeps a single range: parts that touch join
    /// into one piece.
    func keepByteRanges(_ response: HTTPResponse, for request: HTTPRequest, key: String, control: CacheControl, sent: Date) {
        guard response.statusCode == 206, response.contentType?.essence == "multipart/byteranges",
            let type = response.headers["Content-Type"], let boundary = try? MultipartParser.boundary(in: type),
            let parts = try? MultipartParser.parts(of: response.data, boundary: boundary)
        else { return }
        for part in parts {
            var piece = response
            piece.data = part.body
            piece.headers["Content-Type"] = part.headers["Content-Type"]
            piece.headers["Content-Range"] = part.headers["Content-Range"]
            piece.headers["Content-Length"] = String(part.body.count)
            keepPartial(piece, for: request, key: key, control: control, sent: sent)
        }
    }

    /// Keeps what arrived of a whole body before its transfer broke (the response an
    /// ``HTTPError`` carries for a connection lost or a timeout) as a piece from its first
    /// byte, when it can be one: a `200` whose `Content-Length` is the whole length, with no
    /// content coding (so the bytes kept are the representation's own), and a strong validator
    /// (``keepPartial(_:for:key:control:sent:)`` checks it and the storage rules).
    func keepCutOff(_ error: any Error, for request: HTTPRequest, key: String, control: CacheControl, sent: Date) {
        guard let partial = (error as? HTTPError)?.response,
            var piece = Self.cutOffHead(partial, arrived: partial.data.count, answering: request)
        else { return }
        piece.data = partial.data
        keepPartial(piece, for: request, key: key, control: control, sent: sent)
    }

    /// The entry to keep when a streamed body (a download's, a reader's) broke after `arrived`
    /// bytes of the answer `head`, as ``keepCutOff(_:for:key:control:sent:)`` keeps one in
    /// memory; `nil` when those bytes cannot be a piece.
    func cutOffPiece(of head: HTTPResponse, arrived: Int, for request: HTTPRequest, key: String, control: CacheControl, sent: Date) -> CachedResponse? {
        guard let piece = Self.cutOffHead(head, arrived: arrived, answering: request), !piece.headers.contains("Vary"),
            Self.rangeValidator(piece.headers) != nil
        else { return nil }
        // The head's fields as `cutOffHead` describes the piece: a server's own `Jewz-Stored-Ranges` is gone.
        return storable(piece, for: request, key: Self.partialKey(key), control: control, requestDate: sent, responseDate: now(), partial: true)
    }

    /// The `206` head of the first `arrived` bytes of `whole`'s body, when they can be a piece:
    /// a `200` answering a request for the whole, whose `Content-Length` is the whole length,
    /// with no content coding (so the bytes are the representation's own).
    private static func cutOffHead(_ whole: HTTPResponse, arrived: Int, answering request: HTTPRequest) -> HTTPResponse? {
        guard whole.statusCode == 200, !request.headers.contains("Range"),
            !whole.headers.namesContentCoding,
            let length = whole.headers["Content-Length"].flatMap(Int.init), (1..<length).contains(arrived)
        else { return nil }
        var piece = whole
        piece.data = Data()
        piece.statusCode = 206
        piece.headers = StoredPieces(ranges: [0...(arrived - 1)], completeLength: length).describing(piece.headers)
        return piece
    }

    /// The answer of a stored piece to a `Range` request it covers, while fresh.
    func partialAnswer(to request: HTTPRequest, key: String, control: CacheControl) -> CacheAnswer? {
        guard let field = request.headers["Range"], let stored = store.response(forKey: Self.partialKey(key)),
            let pieces = StoredPieces(stored: stored.headers, length: stored.body.count), isFresh(stored, at: now(), control: control)
        else { return nil }
        if let condition = request.headers["If-Range"], !Self.ifRange(condition, matches: stored.headers) { return nil }
        guard case .bytes(let range) = ByteRangeRequest(field, length: pieces.completeLength), let offset = pieces.bodyOffset(of: range) else {
            return nil
        }
        counters.hits.add(1, ordering: .relaxed)
        var response = HTTPResponse(statusCode: 206, headers: stored.headers, body: HTTPResponseBody(stored.body.subdata(in: offset..<(offset + range.count))), url: stored.url)
        response.headers = StoredPieces(ranges: [range], completeLength: pieces.completeLength).describing(response.headers)
        response.headers["Age"] = String(Int(stored.rules.age(at: now())))
        response.source = .cache
        counters.bytesSaved.add(response.data.count, ordering: .relaxed)
        return CacheAnswer(response: response)
    }

    /// The stored pieces whose first, from byte 0, a `request` for the whole can complete (the
    /// body's first bytes), their validator, and the request for the rest (`Range: bytes=n-`,
    /// with `If-Range` when there is a validator: without one, the answer can only be taken
    /// whole), counted as sent.
    func pieceToComplete(for request: HTTPRequest, key: String) -> (stored: CachedResponse, pieces: StoredPieces, validator: String?, rest: HTTPRequest)? {
        let partialKey = Self.partialKey(key)
        guard request.method == .get, !request.headers.contains("Range"),
            let stored = store.responseLeavingBody(forKey: partialKey),
            let pieces = StoredPieces(stored: stored.headers, length: stored.bodyLength), pieces.ranges[0].lowerBound == 0
        else { return nil }
        let validator = Self.rangeValidator(stored.headers)
        var rest = request
        rest.headers["Range"] = "bytes=\(pieces.ranges[0].upperBound + 1)-"
        rest.headers["If-Range"] = validator
        counters.networkRequests.add(1, ordering: .relaxed)
        return (stored, pieces, validator, rest)
    }

    /// The fields of a piece completed by `rest`'s answer: the new response's, the stored ones it
    /// does not send kept (§3.4), for the whole body.
    static func completedHeaders(_ stored: HTTPHeaderFields, by rest: HTTPHeaderFields, completeLength: Int) -> HTTPHeaderFields {
        var headers = stored
        headers.remove(StoredPieces.field)
        for name in Set(rest.fields.map { $0.name.lowercased() }) { headers.remove(name) }
        for field in rest.fields where field.name.lowercased() != "content-range" { headers.add(field.value, for: field.name) }
        headers["Content-Length"] = String(completeLength)
        return headers
    }
}
