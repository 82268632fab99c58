import Foundation
import JewzHTTPCore
import JewzLocking

/// The cookies of a session (RFC 6265): stored from every response's `Set-Cookie`, redirects
/// included, and sent with every request they match, on any transport.
///
/// Off by default; on with one setting:
/// ```swift
/// let cookiesFile = URL(filePath: "cookies.json")
/// var configuration = HTTPSession.Configuration()
/// configuration.cookieJar = try HTTPCookieJar(persistingTo: cookiesFile)   // or HTTPCookieJar()
/// ```
/// Domain and path rules, host-only cookies, `Secure`, `Max-Age` before `Expires`, deletion by
/// a past date, and no cookie for a public suffix (`co.uk`) are RFC 6265's. A jar holds at most
/// 50 cookies per domain and 3000 in all (RFC 6265 §6.1's least), the oldest going first; a name
/// and value over 4096 bytes are not kept.
public final class HTTPCookieJar: HTTPCookieStorage {
    package static let maximumCookiesPerDomain = 50
    package static let maximumCookies = 3000

    private let cookies = Mutex<[HTTPCookie]>([])
    private let file: URL?
    private let suffixes: PublicSuffixList
    /// What expiry is measured by: the system's clock, or a test's.
    private let clock: @Sendable () -> Date

    /// Creates an empty jar, or one that starts with the cookies saved in `file` and saves
    /// them there (atomically) after every change.
    ///
    /// - Parameters:
    ///   - file: where the cookies are kept between runs; `nil` keeps them in memory only.
    ///   - now: the clock expiry dates are compared with (a test's fixed date).
    /// - Throws: the file's read or decoding error when it exists but cannot be read.
    public convenience init(persistingTo file: URL? = nil, now: @escaping @Sendable () -> Date = Date.init) throws {
        self.init(file: file, clock: now)
        if let file, FileManager.default.fileExists(atPath: file.path) {
            let saved = try JSONDecoder().decode([HTTPCookie].self, from: Data(contentsOf: file))
            let now = now()
            cookies.withLock { $0 = saved.filter { ($0.expires ?? .distantFuture) > now } }
        }
    }

    /// Creates a jar in memory holding `cookies` (those not expired, within the jar's limits):
    /// cookies kept elsewhere, such as a file of the caller's own format.
    public convenience init(restoring cookies: [HTTPCookie]) {
        // Without a file nothing is read, so nothing can throw.
        self.init(file: nil, clock: Date.init)
        self.cookies.withLock { stored in
            stored = cookies
            Self.evict(&stored, now: Date())
        }
    }

    private init(file: URL?, clock: @escaping @Sendable () -> Date) {
        self.file = file
        self.clock = clock
        suffixes = .shared
    }

    /// Every cookie the jar holds that has not expired.
    public var all: [HTTPCookie] {
        let now = clock()
        return cookies.withLock { $0.filter { ($0.expires ?? .distantFuture) > now } }
    }

    /// Stores the cookies of `setCookieFields` (each one `Set-Cookie` field's value, as received:
    /// never split at commas, which belong to values) that a response from `url` may set;
    /// ignores the others, as RFC 6265 §5.3 says.
    public func store(_ setCookieFields: [String], from url: URL) {
        store(setCookieFields, from: url, now: clock())
    }

    /// As ``store(_:from:)``, at `now` rather than by the jar's clock.
    public func store(_ setCookieFields: [String], from url: URL, now: Date) {
        guard !setCookieFields.isEmpty, let host = url.host?.lowercased() else { return }
        let secure = url.scheme?.lowercased() == "https"
        let accepted = setCookieFields.compactMap { SetCookie($0) }.compactMap { cookie(from: $0, host: host, url: url, secure: secure, now: now) }
        guard !accepted.isEmpty else { return }
        cookies.withLock { cookies in
            for cookie in accepted {
                let old = cookies.firstIndex { $0.name == cookie.name && $0.domain == cookie.domain && $0.path == cookie.path }
                var cookie = cookie
                if let old {
                    // A replacement keeps its place in the order of creation.
                    cookie.created = cookies[old].created
                    cookies.remove(at: old)
                }
                // A date in the past deletes the cookie.
                if let expires = cookie.expires, expires <= now { continue }
                cookies.append(cookie)
            }
            Self.evict(&cookies, now: now)
        }
        save()
    }

    /// The `Cookie` field for a request to `url`, `nil` when no cookie matches: longer paths
    /// first, then older cookies (RFC 6265 §5.4).
    public func cookieField(for url: URL) -> String? {
        cookieField(for: url, now: clock())
    }

    /// As ``cookieField(for:)``, at `now` rather than by the jar's clock.
    public func cookieField(for url: URL, now: Date) -> String? {
        guard let host = url.host?.lowercased() else { return nil }
        let path = url.requestPath
        let secure = url.scheme?.lowercased() == "https"
        let matching = cookies.withLock { $0.filter { $0.matches(host: host, path: path, secure: secure, now: now) } }
        guard !matching.isEmpty else { return nil }
        return matching
            .sorted { ($0.path.count, $1.created) > ($1.path.count, $0.created) }
            .map { "\($0.name)=\($0.value)" }.joined(separator: "; ")
    }

    /// Removes every cookie.
    public func removeAll() {
        cookies.withLock { $0.removeAll() }
        save()
    }

    /// The cookie a `Set-Cookie` makes for a response from `host`, or `nil` when RFC 6265
    /// §5.3 ignores it.
    private func cookie(from set: SetCookie, host: String, url: URL, secure: Bool, now: Date) -> HTTPCookie? {
        // A Secure cookie comes only over https (RFC 6265bis §5.7).
        if set.isSecure, !secure { return nil }
        var domain = host
        var hostOnly = true
        if let attribute = set.domain {
            if suffixes.isPublicSuffix(attribute) {
                // Only the suffix itself may set a cookie for itself, and for itself alone.
                guard attribute == host else { return nil }
            } else {
                guard HTTPCookie.domain(host, matches: attribute) else { return nil }
                domain = attribute
                hostOnly = false
            }
        }
        let expires: Date? = set.maxAge.map { now.addingTimeInterval(TimeInterval(min($0, 400 * 86_400))) } ?? set.expires
        return HTTPCookie(
            name: set.name, value: set.value, domain: domain, path: set.path ?? HTTPCookie.defaultPath(of: url.requestPath),
            expires: expires, isSecure: set.isSecure, isHTTPOnly: set.isHTTPOnly, isHostOnly: hostOnly, created: now)
    }

    /// Drops expired cookies, then the oldest past the per-domain and total limits.
    private static func evict(_ cookies: inout [HTTPCookie], now: Date) {
        cookies.removeAll { ($0.expires ?? .distantFuture) <= now }
        var perDomain: [String: Int] = [:]
        for cookie in cookies { perDomain[cookie.domain, default: 0] += 1 }
        for (domain, count) in perDomain where count > maximumCookiesPerDomain {
            var excess = count - maximumCookiesPerDomain
            cookies.removeAll { cookie in
                guard excess > 0, cookie.domain == domain else { return false }
                excess -= 1
                return true
            }
        }
        if cookies.count > maximumCookies { cookies.removeFirst(cookies.count - maximumCookies) }
    }

    /// Writes the jar to its file, if it has one: to a temporary file, then renamed over it,
    /// so that a crash never leaves half a jar. A write that fails keeps the cookies in memory.
    private func save() {
        guard let file else { return }
        let snapshot = all
        guard let data = try? JSONEncoder().encode(snapshot) else { return }
        try? data.write(to: file, options: .atomic)
    }
}
