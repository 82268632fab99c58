import Foundation
import JewzLocking

/// Responses with the caching headers a test asks for, counted per key, and a switch that
/// takes a key down (503) to prove `stale-if-error`:
///
/// - `/cached/KEY?cc=DIRECTIVES&etag=E&last-modified=1&expires=SECONDS&vary=NAME&age=A&language=TAG&type=json&size=N&image=NAME&delay=MS`
///   answers 200 with `Cache-Control: DIRECTIVES`, `ETag: "E"`, a `Last-Modified` fixed per key,
///   `Expires` SECONDS from now, `Vary: NAME`, `Age: A`, and a body naming the key and the hit's number
///   (`KEY #3`, with `NAME=value` under `vary`; JSON under `type=json`; N bytes under `size`;
///   one of ``SandboxImages`` under `image`), MS milliseconds after the request (at most 30 s).
///   A matching `If-None-Match` or `If-Modified-Since` gets `304` with the same headers.
/// - `/cached/KEY/down` and `/cached/KEY/up` make KEY answer 503 or answer again;
///   `/cached/KEY/count` says how many requests KEY had.
final class SandboxCache: Sendable {
    private struct State {
        var hits: [String: Int] = [:]
        var down: Set<String> = []
        var lastModified: [String: String] = [:]
    }

    private let state = Mutex(State())

    func hits(forKey key: String) -> Int {
        state.withLock { $0.hits[key, default: 0] }
    }

    func respond(to request: SandboxRequest, segments: [String], query: [URLQueryItem]) -> SandboxResponse {
        let key = segments[1]
        if segments.count == 3 {
            switch segments[2] {
            case "down": state.withLock { _ = $0.down.insert(key) }
            case "up": state.withLock { _ = $0.down.remove(key) }
            case "count": return .text("\(hits(forKey: key))")
            default: return .text("cached actions: down, up, count", status: 404)
            }
            return .text("\(key) \(segments[2])")
        }
        let value: (String) -> String? = { name in query.first { $0.name == name }?.value }
        let now = Date()
        let (hit, isDown, lastModified) = state.withLock { state in
            state.hits[key, default: 0] += 1
            let lastModified = state.lastModified[key] ?? Self.httpDate(now.addingTimeInterval(-3600))
            state.lastModified[key] = lastModified
            return (state.hits[key, default: 0], state.down.contains(key), lastModified)
        }
        if isDown { return .text("\(key) is down", status: 503) }
        var headers: [(name: String, value: String)] = [("Date", Self.httpDate(now))]
        if let directives = value("cc") { headers.append(("Cache-Control", directives)) }
        let etag = value("etag").map { "\"\($0)\"" }
        if let etag { headers.append(("ETag", etag)) }
        if value("last-modified") != nil { headers.append(("Last-Modified", lastModified)) }
        if let seconds = value("expires").flatMap(Double.init) { headers.append(("Expires", Self.httpDate(now.addingTimeInterval(seconds)))) }
        if let vary = value("vary") { headers.append(("Vary", vary)) }
        if let age = value("age") { headers.append(("Age", age)) }
        if let language = value("language") { headers.append(("Content-Language", language)) }
        let notModified = (etag != nil && request.header("If-None-Match") == etag)
            || (value("last-modified") != nil && request.header("If-Modified-Since") == lastModified)
        var response = answer(key: key, hit: hit, notModified: notModified, headers: headers, request: request, value: value)
        if let delay = value("delay").flatMap(Int.init), delay > 0 {
            response.delay = min(.milliseconds(min(delay, 30_000)), SandboxRouter.maximumDelay)
        }
        return response
    }

    /// The answer's status and body, once the headers are set.
    private func answer(
        key: String, hit: Int, notModified: Bool, headers: [(name: String, value: String)], request: SandboxRequest,
        value: (String) -> String?
    ) -> SandboxResponse {
        var headers = headers
        if notModified { return SandboxResponse(status: 304, headers: headers) }
        if let name = value("image") {
            guard let image = SandboxImages.data(named: name) else { return .text("no image called \(name)", status: 404) }
            headers.append(("Content-Type", SandboxImages.mediaType(of: name)))
            return SandboxResponse(status: 200, headers: headers, body: image)
        }
        var text = "\(key) #\(hit)"
        if let vary = value("vary") { text += " \(vary)=\(request.header(vary) ?? "")" }
        if let size = value("size").flatMap(Int.init), (0...(64 << 20)).contains(size) {
            headers.append(("Content-Type", "application/octet-stream"))
            return SandboxResponse(status: 200, headers: headers, body: Data(repeating: UInt8(ascii: "c"), count: size))
        }
        if value("type") == "json" {
            headers.append(("Content-Type", "application/json"))
            return SandboxResponse(status: 200, headers: headers, body: Data(#"{"key":"\#(key)","hit":\#(hit)}"#.utf8))
        }
        headers.append(("Content-Type", "text/plain; charset=utf-8"))
        return SandboxResponse(status: 200, headers: headers, body: Data(text.utf8))
    }

    private static func httpDate(_ date: Date) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss 'GMT'"
        return formatter.string(from: date)
    }
}
