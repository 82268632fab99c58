import Foundation
import JewzHTTPCore
import JewzLocking

/// A response as a cache keeps it: status, headers and body, when it was requested and
/// received (for its age, RFC 9111 §4.2.3), and what it was stored for.
///
/// Its parts live in one immutable object, so that a copy — every hit takes one from the store
/// — is one retain rather than one per string, array and URL, and concurrent hits do not pass
/// a dozen reference counts between cores. Changing a part makes a new object.
public struct CachedResponse: Sendable {
    private var storage: Storage

    /// The key it is stored under: method and URL, or the request's own key.
    public var key: String { storage.parts.key }
    /// The status, as the server sent it.
    public var statusCode: Int { storage.parts.statusCode }
    /// The headers, as the server sent them (those of a revalidating `304` merged in).
    public var headers: HTTPHeaderFields { storage.parts.headers }
    /// The body, unless it was left in ``bodyFile``. Setting it sets ``bodyLength`` too.
    public var body: Data {
        get { storage.parts.body }
        set {
            update { parts in
                parts.body = newValue
                parts.bodyLength = newValue.count
            }
        }
    }
    /// The open file holding the body from its first byte, when a store left it there
    /// (``CacheStore/responseLeavingBody(forKey:)``) rather than reading it. Read at positions,
    /// never by moving the handle's offset: the copies of a response share it.
    public var bodyFile: FileHandle? {
        get { storage.parts.bodyFile }
        set { update { $0.bodyFile = newValue } }
    }
    /// The body's length, wherever it is.
    public var bodyLength: Int {
        get { storage.parts.bodyLength }
        set { update { $0.bodyLength = newValue } }
    }
    /// The URL the response came from.
    public var url: URL? {
        get { storage.parts.url }
        set { update { $0.url = newValue } }
    }
    /// When the request that brought it was sent, and when its response arrived.
    public var requestDate: Date { storage.parts.requestDate }
    /// When the response was received.
    public var responseDate: Date { storage.parts.responseDate }
    /// The request's values of the fields its `Vary` names (names lowercased; a field the
    /// request lacked is absent): a later request must send the same to be answered by it.
    public var varyingFields: [String: String] { storage.parts.varyingFields }
    /// A lifetime the call set (``/JewzHTTPCore/HTTPRequestOptions/Caching-swift.struct/lifetime``), in seconds, which wins
    /// over the headers.
    public var lifetimeOverride: Double? { storage.parts.lifetimeOverride }

    /// What its headers say, read once rather than at every lookup (so what they are read
    /// from cannot change).
    var rules: StoredRules { storage.rules }

    /// A stored response with each of its parts.
    public init(
        key: String, statusCode: Int, headers: HTTPHeaderFields, body: Data, url: URL?, requestDate: Date,
        responseDate: Date, varyingFields: [String: String], lifetimeOverride: Double? = nil
    ) {
        let parts = Parts(
            key: key, statusCode: statusCode, headers: headers, body: body, bodyFile: nil, bodyLength: body.count, url: url,
            requestDate: requestDate, responseDate: responseDate, varyingFields: varyingFields, lifetimeOverride: lifetimeOverride)
        storage = Storage(
            parts,
            rules: StoredRules(
                statusCode: statusCode, headers: headers, requestDate: requestDate, responseDate: responseDate,
                lifetimeOverride: lifetimeOverride))
    }

    /// The same response with its body in `file`, `length` bytes from its start.
    ///
    /// Read the entry's other parts from the same open file: the body is read from what is
    /// open, whatever its name points to by then, so a store may replace or remove the entry
    /// meanwhile. Give a handle that closes its file when the last copy of the response is gone,
    /// as `FileHandle(forReadingFrom:)` and `FileHandle(fileDescriptor:closeOnDealloc: true)` do.
    public func withBody(in file: FileHandle, length: Int) -> CachedResponse {
        var copy = self
        copy.update { parts in
            parts.body = Data()
            parts.bodyFile = file
            parts.bodyLength = length
        }
        return copy
    }

    /// What a cycle receives from it: the response, and the file its body is in, if any.
    func answer(source: HTTPResponse.Source, age: Double) -> CacheAnswer {
        let headers = storage.headers(answeringAge: Int(min(age, Double(Int32.max))))
        var response = HTTPResponse(statusCode: storage.parts.statusCode, headers: headers, body: HTTPResponseBody(storage.parts.body), url: storage.parts.url)
        response.source = source
        return CacheAnswer(response: consume response, bodyFile: storage.parts.bodyFile, length: storage.parts.bodyLength)
    }

    /// How many bytes it takes, roughly: what the stores' limits count.
    var cost: Int {
        body.count + headers.fields.reduce(key.utf8.count + 64) { $0 + $1.name.utf8.count + $1.value.utf8.count + 4 }
    }

    /// Replaces parts that do not change its rules (the body and where it is, the URL).
    private mutating func update(_ change: (inout Parts) -> Void) {
        var parts = storage.parts
        change(&parts)
        storage = Storage(parts, rules: storage.rules)
    }

    /// The parts as the initializer and the setters give them.
    private struct Parts: Sendable {
        var key: String
        var statusCode: Int
        var headers: HTTPHeaderFields
        var body: Data
        var bodyFile: FileHandle?
        var bodyLength: Int
        var url: URL?
        var requestDate: Date
        var responseDate: Date
        var varyingFields: [String: String]
        var lifetimeOverride: Double?
    }

    private final class Storage: Sendable {
        let parts: Parts
        let rules: StoredRules
        /// Whether the stored headers carry an `Age` field, which an answer replaces.
        let hasAge: Bool

        /// The headers of the latest answer, `Age` included, shared by the hits of the same
        /// second: a copy per hit retained every field's strings, and with hits on both cores
        /// each of those reference counts passed between them.
        private let latestAnswer = Mutex<(age: Int, headers: HTTPHeaderFields)?>(nil)

        init(_ parts: Parts, rules: StoredRules) {
            self.parts = parts
            self.rules = rules
            hasAge = parts.headers.contains("Age")
        }

        /// The stored headers with `Age: age`.
        func headers(answeringAge age: Int) -> HTTPHeaderFields {
            if let latest = latestAnswer.withLock({ $0 }), latest.age == age { return latest.headers }
            var headers = parts.headers
            // Most stored responses have no Age of their own: then it is added, not searched for.
            if hasAge { headers["Age"] = String(age) } else { headers.add(String(age), for: "Age") }
            latestAnswer.withLock { $0 = (age, headers) }
            return headers
        }
    }
}

/// A stored response's freshness (RFC 9111 §4.2) and the directives that bind a cache,
/// computed when it is stored.
struct StoredRules: Sendable {
    /// How long it is fresh from its origin, in seconds, for a private cache.
    private let privateLifetime: Double
    /// The same for a shared cache: `s-maxage` wins over the rest (§5.2.2.10).
    private let sharedLifetime: Double
    /// Its age when it arrived: §4.2.3's `corrected_initial_age`.
    let initialAge: Double
    let responseDate: Date
    /// `must-revalidate`: once stale, never given without asking.
    private let privateRevalidation: Bool
    /// The same for a shared cache, which `proxy-revalidate` and `s-maxage` bind too.
    private let sharedRevalidation: Bool
    /// `no-cache`: stored, but given only after the origin confirms it.
    let noCache: Bool
    /// `stale-while-revalidate`'s window (RFC 5861 §3), in seconds.
    let staleWhileRevalidate: Double?
    /// `stale-if-error`'s window (RFC 5861 §4), in seconds.
    let staleIfError: Double?
    /// The validators a conditional request sends.
    let etag: String?
    let lastModified: String?
    /// The fields its `Vary` names, lowercased.
    let varyNames: [String]

    init(statusCode: Int, headers: HTTPHeaderFields, requestDate: Date, responseDate: Date, lifetimeOverride: Double?) {
        let control = CacheControl(headers)
        // Dates as RFC 9110 §5.6.7 writes them, nothing else (the lenient reader is the cookies').
        let date = headers["Date"].flatMap { HTTPDate.parseStrictly($0) } ?? responseDate
        let apparentAge = max(0, responseDate.timeIntervalSince(date))
        let ageValue = Self.ageValue(headers)
        initialAge = max(apparentAge, ageValue + max(0, responseDate.timeIntervalSince(requestDate)))
        self.responseDate = responseDate
        let freshnessLifetime: Double
        if let lifetimeOverride {
            freshnessLifetime = lifetimeOverride
        } else if let maxAge = control.maxAge {
            freshnessLifetime = Double(maxAge)
        } else if let expires = headers["Expires"] {
            // An Expires that is not an HTTP-date ("0", "-1", a date in another form, two
            // fields joined) means already expired (§5.3).
            freshnessLifetime = HTTPDate.parseStrictly(expires, ignoringCase: true).map { max(0, $0.timeIntervalSince(date)) } ?? 0
        } else if let lastModified = headers["Last-Modified"].flatMap({ HTTPDate.parseStrictly($0) }),
            StoredRules.isHeuristicallyCacheable(statusCode) || control.isPublic
        {
            // §4.2.2: a tenth of the time since the last change, as browsers do, at most a
            // week. RFC 9111 no longer excludes URLs with a query, as RFC 2616 did.
            freshnessLifetime = min(max(0, date.timeIntervalSince(lastModified)) / 10, 7 * 86_400)
        } else {
            freshnessLifetime = 0
        }
        privateLifetime = freshnessLifetime
        sharedLifetime = lifetimeOverride == nil ? control.sharedMaxAge.map(Double.init) ?? freshnessLifetime : freshnessLifetime
        privateRevalidation = control.mustRevalidate && lifetimeOverride == nil
        sharedRevalidation = (control.mustRevalidate || control.proxyRevalidate || control.sharedMaxAge != nil) && lifetimeOverride == nil
        noCache = control.noCache && lifetimeOverride == nil
        staleWhileRevalidate = control.staleWhileRevalidate.map(Double.init)
        staleIfError = control.staleIfError.map(Double.init)
        etag = headers["ETag"]
        lastModified = headers["Last-Modified"]
        varyNames = headers.tokens(for: "Vary")
    }

    /// The `Age` field's seconds (§5.1): a non-negative integer, the first of a list (or of two
    /// fields); anything else (`7200.0`, `-5`) is ignored as 0.
    static func ageValue(_ headers: HTTPHeaderFields) -> Double {
        guard let first = headers.values(for: "Age").first?.split(separator: ",", omittingEmptySubsequences: false).first else {
            return 0
        }
        let text = first.trimmingCharacters(in: .whitespaces)
        guard !text.isEmpty, text.utf8.allSatisfy({ (0x30...0x39).contains($0) }) else { return 0 }
        // A value too large for an Int is the largest age there is (§1.2.2).
        return Double(Int(text) ?? Int(Int32.max))
    }

    /// How long it is fresh from its origin, in seconds, in a shared cache or a private one.
    func freshnessLifetime(shared: Bool) -> Double {
        shared ? sharedLifetime : privateLifetime
    }

    /// Whether, once stale, it must never be given without asking the origin.
    func mustRevalidate(shared: Bool) -> Bool {
        shared ? sharedRevalidation : privateRevalidation
    }

    /// §4.2.3's `current_age`.
    func age(at now: Date) -> Double {
        initialAge + max(0, now.timeIntervalSince(responseDate))
    }

    var hasValidators: Bool { etag != nil || lastModified != nil }

    /// The statuses a cache may store and give fresh by heuristics (RFC 9110 §15.1).
    static func isHeuristicallyCacheable(_ statusCode: Int) -> Bool {
        [200, 203, 204, 300, 301, 308, 404, 405, 410, 414, 501].contains(statusCode)
    }
}

extension CachedResponse {
    /// The fields a `304` must not replace (RFC 9111 §3.2): they describe the stored body or
    /// the connection, not the resource.
    private static let keptOnRevalidation: Set<String> = [
        "content-length", "content-encoding", "content-range", "transfer-encoding", "connection", "keep-alive",
    ]

    /// The same body with the headers a `304` sent in place of the stored ones, aged from the
    /// `304`'s exchange.
    func revalidated(by fresh: HTTPHeaderFields, requestDate: Date, responseDate: Date) -> CachedResponse {
        var headers = headers
        var replaced: Set<String> = []
        for field in fresh.fields where !Self.keptOnRevalidation.contains(field.name.lowercased()) {
            let name = field.name.lowercased()
            if replaced.insert(name).inserted { headers.remove(field.name) }
            headers.add(field.value, for: field.name)
        }
        return replacing(headers: headers, requestDate: requestDate, responseDate: responseDate)
    }

    /// This response with the parts given replaced, its body (in memory or in its file) kept.
    func replacing(key: String? = nil, headers: HTTPHeaderFields? = nil, requestDate: Date? = nil, responseDate: Date? = nil) -> CachedResponse {
        var copy = CachedResponse(
            key: key ?? self.key, statusCode: statusCode, headers: headers ?? self.headers, body: body, url: url,
            requestDate: requestDate ?? self.requestDate, responseDate: responseDate ?? self.responseDate,
            varyingFields: varyingFields, lifetimeOverride: lifetimeOverride)
        copy.update { parts in
            parts.bodyFile = bodyFile
            parts.bodyLength = bodyLength
        }
        return copy
    }
}
