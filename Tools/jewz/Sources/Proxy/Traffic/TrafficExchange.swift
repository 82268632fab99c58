import Foundation
import JewzHAR
import JewzHTTPCore
import JewzJSON

/// One exchange through `jewz proxy` as the traffic view keeps it: the request and the answer
/// as they went by (credentials unredacted: the view redacts what it shows), bodies up to the
/// view's limit, where the answer came from and when each phase ended.
struct TrafficExchange: Sendable {
    enum State: String, Sendable {
        /// Sent on, no answer yet.
        case waiting
        /// The answer's head is back; its body is on its way.
        case receiving
        case complete
        case failed
    }

    /// The bytes of a body the view kept: all of them, or the first `limit` and the count.
    struct Body: Sendable {
        var kept = Data()
        var size = 0
        var isComplete: Bool { kept.count == size }
    }

    let id: Int
    let started: Date
    let method: String
    let url: URL
    let requestHeaders: HTTPHeaderFields
    /// `nil` for a request without a body.
    var requestBody: Body?
    var state = State.waiting
    var status: Int?
    var version: String?
    var responseHeaders = HTTPHeaderFields()
    var responseBody = Body()
    /// `origin`, `replay`, `cache`, `cache, revalidated`, `cache, stale`, or `proxy` for an
    /// answer of the proxy's own.
    var source = "origin"
    var failure: String?
    /// Milliseconds from the start: the request sent on, the answer's head, the end.
    var sentAt: Double?
    var headAt: Double?
    var endedAt: Double?

    /// The response's media type, as its `Content-Type` names it.
    var mimeType: String { responseHeaders["Content-Type"] ?? "" }
}

// MARK: - What the page is sent

extension TrafficExchange {
    /// A row of the list, as the page reads it: written with the toolkit's JSON writer, which
    /// a watched proxy runs for every exchange (Foundation's encoder cost it a fifth of its speed).
    var summary: JSONValue {
        [
            "id": JSONValue(integerLiteral: id), "method": .string(method), "url": .string(HTTPArchive.recordedURL(url)),
            "host": .string(url.host ?? ""), "status": status.map { JSONValue(integerLiteral: $0) } ?? .null,
            "state": .string(state.rawValue), "source": .string(source), "mimeType": .string(mimeType),
            "size": JSONValue(integerLiteral: responseBody.size),
            // Milliseconds since 1970, for the waterfall.
            "started": JSONValue(floatLiteral: (started.timeIntervalSince1970 * 1000).rounded()),
            "time": endedAt.map { JSONValue(floatLiteral: ($0 * 1000).rounded() / 1000) } ?? .null,
            "failure": failure.map(JSONValue.string) ?? .null,
        ]
    }

    /// The exchange as a HAR 1.2 entry: bodies decoded from their content coding, credentials
    /// redacted when `redacting` (the HAR recorder's rule). A body longer than the view keeps is
    /// left out, as the HAR recorder leaves one out, unless `keptParts` (for the page, which shows
    /// what it has).
    func entry(redacting: Bool, bodyLimit: Int, keptParts: Bool = false) -> HTTPArchive.Entry {
        var request = HTTPArchive.Request(
            method: method, url: HTTPArchive.recordedURL(url), httpVersion: version ?? "HTTP/1.1",
            cookies: HTTPArchive.requestCookies(requestHeaders, redacting: redacting),
            headers: HTTPArchive.fields(requestHeaders, redacting: redacting), queryString: HTTPArchive.query(of: url),
            bodySize: requestBody?.size ?? 0)
        if let requestBody {
            let type = requestHeaders["Content-Type"] ?? ""
            let shown = Self.text(of: requestBody, headers: requestHeaders, limit: bodyLimit, redacting: redacting, keptPart: keptParts)
            request.postData = HTTPArchive.PostData(mimeType: type, text: shown.text, encoding: shown.encoding, comment: shown.comment)
        }
        let shown = Self.text(of: responseBody, headers: responseHeaders, limit: bodyLimit, redacting: redacting, keptPart: keptParts)
        let response = HTTPArchive.Response(
            status: status ?? 0, statusText: status.map(HTTPResponse.reasonPhrase(for:)) ?? "", httpVersion: version ?? "HTTP/1.1",
            cookies: HTTPArchive.responseCookies(responseHeaders, redacting: redacting),
            headers: HTTPArchive.fields(responseHeaders, redacting: redacting),
            content: HTTPArchive.Content(size: shown.size, mimeType: mimeType, text: shown.text, encoding: shown.encoding, comment: shown.comment),
            redirectURL: responseHeaders["Location"] ?? "", bodySize: responseBody.size, comment: failure.map { "failed: \($0)" })
        let blocked = sentAt ?? 0
        let wait = max(0, (headAt ?? endedAt ?? blocked) - blocked)
        let receive = max(0, (endedAt ?? headAt ?? 0) - (headAt ?? endedAt ?? 0))
        return HTTPArchive.Entry(
            startedDateTime: HTTPArchive.timestamp(started), time: blocked + wait + receive, request: request, response: response,
            timings: HTTPArchive.Timings(blocked: blocked, send: 0, wait: wait, receive: receive), comment: "source: \(source)")
    }

    /// A body as HAR text, decoded from its `Content-Encoding` when a decoder is registered
    /// (left as it came, with a note, when decoding fails), and its decoded size. Past the
    /// view's limit, nothing, or with `keptPart` the part kept.
    private static func text(
        of body: Body, headers: HTTPHeaderFields, limit: Int, redacting: Bool, keptPart: Bool
    ) -> (text: String?, encoding: String?, comment: String?, size: Int) {
        let past = "\(body.size) bytes, past the traffic view's limit of \(limit)"
        guard body.isComplete || keptPart else { return (nil, nil, past + ": not kept", body.size) }
        var (bytes, note) = TrafficDecoding.decoded(body.kept, headers: headers)
        if !body.isComplete { note = past + ": the first \(body.kept.count) kept" + (note.map { "; \($0)" } ?? "") }
        var (text, encoding, comment) = HTTPArchive.text(of: bytes, count: bytes.count, limit: .max)
        if redacting, encoding == nil, let shown = text {
            text = HTTPArchive.redactingCredentials(in: shown, mimeType: headers["Content-Type"] ?? "")
        }
        comment = note ?? comment
        return (text, encoding, comment, body.isComplete ? bytes.count : body.size)
    }
}
