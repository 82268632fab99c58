import Foundation
import JewzLocking

/// The playground endpoints of the seed, plus the ones tests need. Every route validates its
/// input and answers 400 on anything malformed; nothing a client sends can crash it.
///
/// | path | answers |
/// | --- | --- |
/// | `/hello/` | `Hello World` |
/// | `/dumpupload/` | the request body, with the request's Content-Type |
/// | `/echo/?code=&content=&encoding=&header=Name:Value&delay=` | as the parameters say |
/// | `/hello_with_basic_auth` | `Hello World` for Basic `test:12345`, else 401 |
/// | `/status/N` | status N |
/// | `/bytes/N` | N bytes, byte i = i mod 256 |
/// | `/json`, `/xml`, `/csv` | a small document of that type |
/// | `/inspect`, `/inspect/ANY/PATH` | the request as JSON (method, uri, protocol version, headers, the body's first 64 KiB and its length) |
/// | `/drop/N` | announces N bytes, sends half, closes the connection |
/// | `/counter?key=K&fail=N&status=S&retry-after=R&delay=D&hold=H` | status S (503) N times per key, each after D seconds, then 200; every answer after H seconds |
/// | `/counter?key=K&refuse=1` over HTTP/2 | the key's first stream refused unprocessed (``SandboxStreamRefusal``), the rest counted |
/// | `/redirect/N?status=S` | N redirects (302, or S: 301/302/303/307/308), then `/dumpupload/` for 307/308, else `/hello/` |
/// | `/ratelimited?key=K&limit=N&window=S` | N answers per key in any S seconds, announced in `RateLimit-Policy`; then 429 (``SandboxRateLimits``) |
/// | `/redirect-to?url=U&status=S` | a redirect (302, or S) to U, which may be on another server |
/// | `/encoded?coding=gzip,deflate&content=&repeat=N&truncate=1&garbage=1&zstd-window=W` | content compressed in those codings, in order, by zlib (`raw-deflate` too), libbrotli (`br`) or libzstd (`zstd`, with a 2^W-byte window) |
/// | `/bomb/N` | N MiB of zeros, gzipped (cached per size) |
/// | `/oauth/…`, `/.well-known/oauth-authorization-server` | an OAuth 2.0 authorization server and a resource (``SandboxOAuth``) |
/// | `/token/issue`, `/token/protected`, `/token/expire` | bearer tokens handed out, checked, all expired (``SandboxTokens``) |
/// | `/digest-auth/QOP/USER/PASSWORD/ALGORITHM?stale-after=N&next-nonce=1&userhash=1&ntlm=1` | RFC 7616 Digest (see ``SandboxDigest``); `ntlm=1` offers NTLM too |
/// | `/ntlm-auth/USER/PASSWORD?proxy=1&garble=1` | NTLMv2, each handshake kept with its connection (see ``SandboxNTLM``) |
/// | `/events/KEY?…`, `/ndjson?count=N&interval=MS` | Server-Sent Events that resume, JSON lines, paced (``SandboxEvents``) |
/// | `/ws/…` | WebSocket endpoints (``SandboxWebSockets``) |
/// | `/cached/KEY?cc=&etag=&last-modified=1&expires=&vary=&age=&type=json&size=N&image=NAME&delay=MS`, `/cached/KEY/down|up|count` | caching headers on demand, an image of ``SandboxImages``, hits counted, 503 on command (``SandboxCache``) |
public final class SandboxRouter: Sendable {
    /// `count` bytes, byte i being i mod 256, put together from a 64 KiB block: a body of
    /// megabytes costs its copies, not a step per byte.
    static func countingBytes(_ count: Int) -> Data {
        var data = Data(capacity: count)
        while data.count < count { data.append(countingBlock.prefix(count - data.count)) }
        return data
    }

    private static let countingBlock = Data((0..<65_536).map { UInt8(truncatingIfNeeded: $0) })

    /// The largest request body accepted; larger ones get 413.
    public static let maximumRequestBodySize = 256 << 20
    /// The longest `/echo/?delay=` and `/counter?delay=&hold=` may wait: long enough that a
    /// test proving a request ended early never confuses a starved machine with the answer.
    public static let maximumDelay: Duration = .seconds(300)
    private static let maximumDelaySeconds = Double(maximumDelay.components.seconds)

    private let counters = Mutex<[String: Int]>([:])
    private let digest = SandboxDigest()
    private let ntlm = SandboxNTLM()
    private let tokens = SandboxTokens()
    private let cache = SandboxCache()
    private let eventStreams = SandboxEvents()
    private let oauth = SandboxOAuth()
    private let rateLimits = SandboxRateLimits()

    /// How many requests `/ratelimited` answered and refused with 429 for `key`.
    public func rateLimitCounts(forKey key: String) -> (answered: Int, refused: Int) { rateLimits.counts(forKey: key) }

    /// How many tokens the OAuth server has issued, per grant type.
    public var oauthTokensIssued: [String: Int] { oauth.tokensIssued }

    /// How many tokens `/token/issue` has handed out.
    public var tokensIssued: Int { tokens.issued }

    /// The nonce counts each Digest nonce was used with, in the order requests arrived.
    public var digestNonceCounts: [String: [Int]] { digest.countsByNonce }

    /// How many NTLM handshakes `/ntlm-auth` has accepted.
    public var ntlmHandshakesCompleted: Int { ntlm.completedHandshakes }

    public init() {}

    /// The keys whose first HTTP/2 stream was refused.
    private let refusedKeys = Mutex<Set<String>>([])

    /// Whether to refuse this stream for `key`: the first time it is asked.
    func refusesStream(forKey key: String) -> Bool {
        refusedKeys.withLock { $0.insert(key).inserted }
    }

    /// How many streams were refused, one per key at most.
    public var streamsRefused: Int { refusedKeys.withLock { $0.count } }

    /// How many requests `/counter` has answered, or is holding, for `key`: tests wait on it
    /// to know that a request reached the server.
    public func requestCount(forKey key: String) -> Int {
        counters.withLock { $0[key, default: 0] }
    }

    /// The `Last-Event-ID` each request for `/events/KEY` carried, in order ("" for none).
    public func lastEventIDs(forKey key: String) -> [String] {
        eventStreams.lastEventIDs(forKey: key)
    }

    /// How many requests `/cached/KEY` has had, conditional ones included.
    public func cacheHits(forKey key: String) -> Int {
        cache.hits(forKey: key)
    }

    /// The response for a complete request.
    public func respond(to request: SandboxRequest) -> SandboxResponse {
        guard let query = request.queryItems else { return .text("malformed request target", status: 400) }
        let segments = request.path.split(separator: "/").map(String.init)
        switch (segments.first ?? "", segments.count) {
        case ("hello", 1):
            return .text("Hello World")
        case ("dumpupload", 1):
            return SandboxResponse(
                status: 200,
                headers: [("Content-Type", request.header("Content-Type") ?? "application/octet-stream")],
                body: request.body)
        case ("echo", 1):
            return echo(query)
        case ("hello_with_basic_auth", 1):
            return basicAuth(request)
        case ("status", 2):
            guard let code = Int(segments[1]), (200...599).contains(code) else {
                return .text("status must be 200...599", status: 400)
            }
            return .text("status \(code)", status: code)
        case ("bytes", 2):
            guard let count = Int(segments[1]), (0...Self.maximumRequestBodySize).contains(count) else {
                return .text("byte count must be 0...\(Self.maximumRequestBodySize)", status: 400)
            }
            return SandboxResponse(
                status: 200, headers: [("Content-Type", "application/octet-stream")],
                body: Self.countingBytes(count))
        case ("json", 1):
            return document(Self.sampleJSON, type: "application/json")
        case ("items", 2):
            guard let count = Int(segments[1]), (0...100_000).contains(count) else {
                return .text("item count must be 0...100000", status: 400)
            }
            return document(Self.items(count: count), type: "application/json")
        case ("xml", 1):
            return document(Self.sampleXML, type: "application/xml")
        case ("csv", 1):
            return document("name,language\nJewzruxin,Swift\nhttpx,Python\n", type: "text/csv; charset=utf-8")
        case ("inspect", _):
            return inspect(request)
        case ("openapi.yaml", 1):
            return SandboxOpenAPI.respond(to: request)
        case ("drop", 2):
            guard let count = Int(segments[1]), (2...Self.maximumRequestBodySize).contains(count) else {
                return .text("byte count must be 2...\(Self.maximumRequestBodySize)", status: 400)
            }
            var response = SandboxResponse(
                status: 200, headers: [("Content-Type", "application/octet-stream")],
                body: Data(repeating: 0x61, count: count))
            response.delivery = .dropAfter(bytes: count / 2)
            return response
        case ("counter", 1):
            return counter(query)
        case ("ratelimited", 1):
            return rateLimits.respond(query)
        case ("encoded", 1):
            return encoded(query)
        case ("bomb", 2):
            guard let mebibytes = Int(segments[1]), (1...4096).contains(mebibytes) else {
                return .text("bomb size must be 1...4096 MiB", status: 400)
            }
            return bomb(mebibytes: mebibytes)
        case ("redirect", 2):
            let status = query.first { $0.name == "status" }?.value.flatMap { Int($0) } ?? 302
            guard let remaining = Int(segments[1]), (0...50).contains(remaining), [301, 302, 303, 307, 308].contains(status) else {
                return .text("redirect count must be 0...50 and status 301/302/303/307/308", status: 400)
            }
            let keepsBody = status == 307 || status == 308
            let location = remaining == 0 ? (keepsBody ? "/dumpupload/" : "/hello/") : "/redirect/\(remaining - 1)?status=\(status)"
            return SandboxResponse(status: status, headers: [("Location", location)])
        case ("oauth", 2...3), (".well-known", 2):
            return oauth.respond(to: request, segments: segments, query: query)
        case ("token", 2):
            return tokens.respond(to: request, action: segments[1])
        case ("events", 2):
            return eventStreams.events(request, key: segments[1], query: query, tokens: tokens)
        case ("ndjson", 1):
            return SandboxEvents.lines(query)
        case ("cached", 2), ("cached", 3):
            return cache.respond(to: request, segments: segments, query: query)
        case ("digest-auth", 5):
            return digest.respond(to: request, segments: segments, query: query)
        case ("ntlm-auth", 3):
            return ntlm.respond(to: request, segments: segments, query: query)
        case ("ws", _):
            return SandboxWebSockets.respond(to: request, segments: segments)
        case ("redirect-to", 1):
            let status = query.first { $0.name == "status" }?.value.flatMap { Int($0) } ?? 302
            guard let location = query.first(where: { $0.name == "url" })?.value, [301, 302, 303, 307, 308].contains(status) else {
                return .text("give url=, and status 301/302/303/307/308", status: 400)
            }
            return SandboxResponse(status: status, headers: [("Location", location)])
        default:
            return .text("no such endpoint: \(request.path)", status: 404)
        }
    }

    private func encoded(_ query: [URLQueryItem]) -> SandboxResponse {
        let value: (String) -> String? = { name in query.first { $0.name == name }?.value }
        let names = (value("coding") ?? "gzip").split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
        let codings = names.compactMap(SandboxCompression.Coding.init(rawValue:))
        guard codings.count == names.count, !codings.isEmpty,
            let repetitions = Int(value("repeat") ?? "1"), (1...1_000_000).contains(repetitions)
        else { return .text("coding must list gzip, x-gzip, deflate, raw-deflate, br or zstd; repeat 1...1000000", status: 400) }
        let window = value("zstd-window").flatMap { Int32($0) }
        guard (window.map { (10...27).contains($0) } ?? true) else { return .text("zstd-window must be 10...27", status: 400) }
        var body = Data(String(repeating: value("content") ?? "Hello World", count: repetitions).utf8)
        for coding in codings {
            guard let compressed = SandboxCompression.compress(body, as: coding, zstdWindowLog: window) else {
                return .text("\(coding.rawValue) compression failed", status: 500)
            }
            body = compressed
        }
        if value("truncate") == "1" { body = body.dropLast(min(8, body.count)) }
        if value("garbage") == "1" { body.append(Data("garbage".utf8)) }
        return SandboxResponse(
            status: 200,
            headers: [("Content-Type", "text/plain; charset=utf-8"), ("Content-Encoding", codings.map(\.headerToken).joined(separator: ", "))],
            body: body)
    }

    /// Built bombs, shared by every Sandbox in the process.
    private static let bombs = Mutex<[Int: Data]>([:])

    private func bomb(mebibytes: Int) -> SandboxResponse {
        let body = Self.bombs.withLock { bombs in
            if let cached = bombs[mebibytes] { return cached }
            let compressed = SandboxCompression.zeroBomb(mebibytes: mebibytes) ?? Data()
            bombs[mebibytes] = compressed
            return compressed
        }
        return SandboxResponse(
            status: 200, headers: [("Content-Type", "application/octet-stream"), ("Content-Encoding", "gzip")], body: body)
    }

    /// A JSON array of `count` catalogue items, the same on every call: a list of realistic
    /// size for paging demos and the decoding benchmark (`Tools/Benchmarks/run` writes the same
    /// text for nginx).
    static func items(count: Int) -> String {
        let items = (0..<count).map { id in
            #"{"id":\#(id),"name":"item \#(id)","price":\#(id).25,"tags":["new","sale"],"active":\#(id % 2 == 0)}"#
        }
        return "[" + items.joined(separator: ",") + "]"
    }

    private func document(_ text: String, type: String) -> SandboxResponse {
        SandboxResponse(status: 200, headers: [("Content-Type", type)], body: Data(text.utf8))
    }

    private func echo(_ query: [URLQueryItem]) -> SandboxResponse {
        let value: (String) -> String? = { name in query.first { $0.name == name }?.value }
        let code = value("code").map { Int($0) } ?? 200
        guard let code, (200...599).contains(code) else { return .text("code must be 200...599", status: 400) }
        let content = value("content") ?? ""
        var headers: [(name: String, value: String)] = []
        for item in query where item.name == "header" {
            guard let field = item.value, let colon = field.firstIndex(of: ":"), colon != field.startIndex,
                field.utf8.allSatisfy({ $0 >= 0x20 && $0 != 0x7F })
            else { return .text("header must be Name:Value", status: 400) }
            headers.append((String(field[..<colon]), String(field[field.index(after: colon)...]).trimmingCharacters(in: .whitespaces)))
        }
        let body: Data
        if let charset = value("encoding") {
            guard let encoding = Self.encodings[charset.lowercased()] else {
                return .text("unsupported encoding \(charset)", status: 400)
            }
            guard let encoded = content.data(using: encoding) else {
                return .text("content cannot be encoded as \(charset)", status: 400)
            }
            body = encoded
        } else {
            body = Data(content.utf8)
        }
        if !headers.contains(where: { $0.name.lowercased() == "content-type" }) {
            headers.append(("Content-Type", "text/plain; charset=\(value("encoding") ?? "utf-8")"))
        }
        var response = SandboxResponse(status: code, headers: headers, body: body)
        if let delay = value("delay") {
            guard let seconds = Double(delay), seconds >= 0, seconds <= Self.maximumDelaySeconds else {
                return .text("delay must be 0...\(Int(Self.maximumDelaySeconds)) seconds", status: 400)
            }
            response.delay = .milliseconds(Int(seconds * 1000))
        }
        return response
    }

    /// The charsets `/echo/?encoding=` can produce: enough to exercise every text-decoding rule.
    private static let encodings: [String: String.Encoding] = [
        "utf-8": .utf8, "iso-8859-1": .isoLatin1, "us-ascii": .ascii, "utf-16": .utf16, "utf-16le": .utf16LittleEndian,
        "utf-16be": .utf16BigEndian, "windows-1252": .windowsCP1252,
    ]

    private func basicAuth(_ request: SandboxRequest) -> SandboxResponse {
        let expected = "Basic " + Data("test:12345".utf8).base64EncodedString()
        if request.header("Authorization") == expected {
            return .text("Hello World")
        }
        var response = SandboxResponse.text("authentication required", status: 401)
        response.headers.append(("WWW-Authenticate", "Basic realm=\"sandbox\""))
        return response
    }

    private func counter(_ query: [URLQueryItem]) -> SandboxResponse {
        let value: (String) -> String? = { name in query.first { $0.name == name }?.value }
        guard let key = value("key"), let failures = Int(value("fail") ?? "1"), failures >= 0,
            let status = Int(value("status") ?? "503"), (400...599).contains(status)
        else { return .text("counter needs key, fail >= 0 and status 400...599", status: 400) }
        let attempt = counters.withLock { counters in
            counters[key, default: 0] += 1
            return counters[key, default: 0]
        }
        if attempt <= failures {
            var response = SandboxResponse.text("attempt \(attempt) fails", status: status)
            if let retryAfter = value("retry-after") {
                response.headers.append(("Retry-After", retryAfter))
            }
            if let delay = value("delay").flatMap(Double.init), delay > 0, delay <= Self.maximumDelaySeconds {
                response.delay = .milliseconds(Int(delay * 1000))
            }
            return response
        }
        var success = SandboxResponse.text("attempt \(attempt) succeeds")
        if let hold = value("hold").flatMap(Double.init), hold > 0, hold <= Self.maximumDelaySeconds {
            success.delay = .milliseconds(Int(hold * 1000))
        }
        return success
    }

    private func inspect(_ request: SandboxRequest) -> SandboxResponse {
        struct Inspection: Encodable {
            var method: String
            var uri: String
            var version: String
            var headers: [[String]]
            var body: String
            var bodyLength: Int
        }
        let inspection = Inspection(
            method: request.method, uri: request.uri, version: request.version, headers: request.headers.map { [$0.name, $0.value] },
            body: String(decoding: request.body.prefix(64 << 10), as: UTF8.self), bodyLength: request.body.count)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        guard let data = try? encoder.encode(inspection) else { return .text("cannot encode", status: 500) }
        return SandboxResponse(status: 200, headers: [("Content-Type", "application/json")], body: data)
    }

    static let sampleJSON = """
        {"name":"Jewzruxin","version":1,"tags":["http","swift"],"items":[{"id":1,"title":"Hello"},{"id":2,"title":"Wörld"}]}
        """

    static let sampleXML = """
        <?xml version="1.0" encoding="UTF-8"?>
        <catalog xmlns:j="urn:jewzruxin"><j:item id="1">Hello</j:item><j:item id="2"><![CDATA[World & more]]></j:item></catalog>
        """
}
