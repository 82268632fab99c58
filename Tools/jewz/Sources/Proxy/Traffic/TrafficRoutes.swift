import Foundation
import JewzHAR
import JewzHTTPCore
import JewzJSON
import NIOHTTP1

/// What the traffic view's server answers to each request.
///
/// Only its own pages may use it: a request whose `Host` is not the address it listens on is
/// refused (so a web site cannot reach it by rebinding a name to 127.0.0.1), and a change
/// ("send again") must come as JSON, which another site's page cannot send without asking.
struct TrafficRoutes: Sendable {
    let log: TrafficLog
    let replay: TrafficReplay
    /// The `Host` values the page is reached by; `nil` when it listens on every address, where
    /// the machine's names are not known here (and exposing it was asked for).
    let hosts: Set<String>?
    /// How much of a body the page is sent to show; the rest is a link away.
    static let shownLimit = 256 << 10

    init(log: TrafficLog, replay: TrafficReplay, bind: String, port: Int) {
        self.log = log
        self.replay = replay
        guard !["0.0.0.0", "::"].contains(bind) else {
            hosts = nil
            return
        }
        var names: Set<String> = [bind, "127.0.0.1", "localhost", "[::1]"]
        if bind.contains(":") { names.insert("[\(bind)]") }
        hosts = Set(names.map { "\($0):\(port)".lowercased() })
    }

    func reply(to head: HTTPRequestHead, body: Data) async -> TrafficReply {
        guard hosts == nil || head.headers["Host"].first.map({ hosts?.contains($0.lowercased()) == true }) == true else {
            return .text(403, "The traffic view answers only at the address it listens on.")
        }
        let parts = URLComponents(string: head.uri)
        let path = (parts?.path ?? "/").split(separator: "/").map(String.init)
        let query = Dictionary((parts?.queryItems ?? []).map { ($0.name, $0.value ?? "") }, uniquingKeysWith: { $1 })
        switch (head.method, path.first, path.count) {
        case (.GET, nil, _):
            return TrafficPage.file("index.html")
        case (.GET, let name?, 1) where name != "api":
            return TrafficPage.file(name)
        case (.GET, "api", 2) where path[1] == "exchanges":
            return .json(JSONValue.array(log.exchanges.map(\.summary)))
        case (.GET, "api", 2) where path[1] == "events":
            return events()
        case (.GET, "api", 2) where path[1] == "har":
            return har(ids: query["ids"])
        case (.GET, "api", 3) where path[1] == "exchanges":
            return detail(path[2], reveal: query["reveal"] == "1")
        case (.GET, "api", 5) where path[1] == "exchanges" && path[3] == "body":
            return wholeBody(path[2], of: path[4])
        case (.POST, "api", 4) where path[1] == "exchanges" && path[3] == "send-again":
            guard head.headers["Content-Type"].first.flatMap(MediaType.init)?.essence == "application/json" else {
                return .text(415, "Send again takes its edits as application/json.")
            }
            return await sendAgain(path[2], edits: body)
        default:
            return .text(404, "No such page: \(head.method) \(parts?.path ?? head.uri)")
        }
    }

    /// Every row, then the rows that changed, as Server-Sent Events named `exchanges` whose data
    /// is a JSON array: one at most every ``batchInterval``, so that a page costs the proxy per
    /// batch rather than per exchange.
    private func events() -> TrafficReply {
        let watch = log.watch()
        return .events(AsyncStream { continuation in
            let task = Task {
                continuation.yield("retry: 1000\n\n")
                for await _ in watch.wakes {
                    let rows = watch.changes()
                    if !rows.isEmpty {
                        continuation.yield("event: exchanges\ndata: \(JSONValue.array(rows).formatted())\n\n")
                    }
                    try? await Task.sleep(for: Self.batchInterval)
                }
                continuation.finish()
            }
            continuation.onTermination = { _ in task.cancel() }
        })
    }

    /// The least time between two batches of changed rows a page is sent.
    static let batchInterval = Duration.milliseconds(50)

    /// One exchange opened: its HAR entry (credentials redacted unless `reveal`), its bodies cut
    /// to what the page shows, and its phases.
    private func detail(_ id: String, reveal: Bool) -> TrafficReply {
        guard let exchange = Int(id).flatMap(log.exchange) else { return .text(404, "No exchange \(id) is kept.") }
        var entry = exchange.entry(redacting: !reveal, bodyLimit: log.bodyLimit, keptParts: true)
        let request = entry.request.postData.map {
            TrafficBodyShown(
                text: $0.text, encoding: $0.encoding, mimeType: $0.mimeType, size: exchange.requestBody?.size ?? 0, note: $0.comment,
                partial: exchange.requestBody?.isComplete == false)
        }
        let content = entry.response.content
        let response = TrafficBodyShown(
            text: content.text, encoding: content.encoding, mimeType: content.mimeType, size: content.size, note: content.comment,
            partial: !exchange.responseBody.isComplete)
        entry.request.postData?.text = nil
        entry.response.content.text = nil
        return .json(TrafficDetail(
            summary: exchange.summary, entry: entry, revealed: reveal, requestBody: request, responseBody: response,
            phases: .init(sent: exchange.sentAt, head: exchange.headAt, end: exchange.endedAt)))
    }

    /// The whole kept body (`request` or `response`), decoded, as its own type but never run as
    /// a page of this origin.
    private func wholeBody(_ id: String, of side: String) -> TrafficReply {
        guard let exchange = Int(id).flatMap(log.exchange) else { return .text(404, "No exchange \(id) is kept.") }
        let (body, headers) = side == "request" ? (exchange.requestBody, exchange.requestHeaders) : (exchange.responseBody, exchange.responseHeaders)
        guard let body, ["request", "response"].contains(side) else { return .text(404, "Exchange \(id) has no \(side) body.") }
        let (bytes, _) = TrafficDecoding.decoded(body.kept, headers: headers)
        return .content(status: 200, headers: [
            ("Content-Type", headers["Content-Type"] ?? "application/octet-stream"),
            ("Content-Security-Policy", "sandbox; default-src 'none'; img-src 'self'; style-src 'unsafe-inline'"),
        ], body: Array(bytes))
    }

    /// The exchanges `ids` names (all kept ones without it) as a HAR 1.2 archive, credentials redacted.
    private func har(ids: String?) -> TrafficReply {
        let wanted = ids.map { Set($0.split(separator: ",").compactMap { Int($0) }) }
        let entries = log.exchanges.filter { wanted?.contains($0.id) ?? true }.map { $0.entry(redacting: true, bodyLimit: log.bodyLimit) }
        return .json(HTTPArchive(log: .init(entries: entries)), headers: [("Content-Disposition", "attachment; filename=\"jewz-traffic.har\"")])
    }

    private func sendAgain(_ id: String, edits: Data) async -> TrafficReply {
        guard let exchange = Int(id).flatMap(log.exchange) else { return .text(404, "No exchange \(id) is kept.") }
        let changes: TrafficReplay.Edits
        do {
            changes = edits.isEmpty ? TrafficReplay.Edits() : try JSONDecoder().decode(TrafficReplay.Edits.self, from: edits)
        } catch {
            return .text(400, "The edits are not the JSON send again takes ({\"method\", \"url\", \"headers\": [[name, value]], \"body\"}).")
        }
        do {
            return .json(try await replay.send(exchange, edits: changes))
        } catch {
            return .text(error.status, error.message)
        }
    }
}

/// A body as the page shows it: decoded, as HAR text (UTF-8, else base64), cut at
/// ``TrafficRoutes/shownLimit`` characters; `truncated` when it is not all of it.
struct TrafficBodyShown: Encodable {
    var text: String?
    var encoding: String?
    var mimeType: String
    var size: Int
    var note: String?
    var truncated = false

    /// `partial`: the text is the part of the body the view kept.
    init(text: String?, encoding: String?, mimeType: String, size: Int, note: String?, partial: Bool) {
        self.encoding = encoding
        self.mimeType = mimeType
        self.size = size
        self.note = note
        truncated = partial
        guard let text, text.utf8.count > TrafficRoutes.shownLimit else {
            self.text = text
            return
        }
        // Base64 is cut at a multiple of four, so that what is shown still decodes.
        let cut = encoding == "base64" ? TrafficRoutes.shownLimit / 4 * 4 : TrafficRoutes.shownLimit
        self.text = String(text.prefix(cut))
        truncated = true
    }
}

/// One exchange opened in the page.
struct TrafficDetail: Encodable {
    struct Phases: Encodable {
        let sent: Double?
        let head: Double?
        let end: Double?
    }

    let summary: JSONValue
    let entry: HTTPArchive.Entry
    let revealed: Bool
    let requestBody: TrafficBodyShown?
    let responseBody: TrafficBodyShown
    let phases: Phases
}
