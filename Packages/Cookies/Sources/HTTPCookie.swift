import Foundation
import JewzHTTPCore

/// One cookie as a jar keeps it (RFC 6265 §5.3).
public struct HTTPCookie: Sendable, Hashable, Codable {
    /// The cookie's name.
    public var name: String
    /// The cookie's value.
    public var value: String
    /// The host (for a host-only cookie) or the domain it is sent to, lowercased.
    public var domain: String
    /// The path it is sent under (`Path`, else the request's default path).
    public var path: String
    /// When it expires; `nil` for a session cookie, kept until the jar goes.
    public var expires: Date?
    /// Sent over https only.
    public var isSecure: Bool
    /// Not for scripts; kept and sent like any other here (no scripts read a jar).
    public var isHTTPOnly: Bool
    /// Sent to `domain` exactly, not to its subdomains: the server gave no `Domain`.
    public var isHostOnly: Bool
    /// When it was first stored: older cookies come first among those with equal paths.
    public var created: Date

    /// A cookie with each of its attributes.
    public init(
        name: String, value: String, domain: String, path: String = "/", expires: Date? = nil, isSecure: Bool = false,
        isHTTPOnly: Bool = false, isHostOnly: Bool = true, created: Date = Date()
    ) {
        self.name = name
        self.value = value
        self.domain = domain.lowercased()
        self.path = path
        self.expires = expires
        self.isSecure = isSecure
        self.isHTTPOnly = isHTTPOnly
        self.isHostOnly = isHostOnly
        self.created = created
    }

    /// Whether the cookie goes with a request to `host` (lowercased), `path`, over a secure
    /// channel or not, at `now` (RFC 6265 §5.4).
    func matches(host: String, path requestPath: String, secure: Bool, now: Date) -> Bool {
        if let expires, expires <= now { return false }
        if isSecure, !secure { return false }
        let domainMatches = isHostOnly ? host == domain : Self.domain(host, matches: domain)
        return domainMatches && Self.path(requestPath, matches: path)
    }

    /// RFC 6265 §5.1.3: the host is the domain, or a name under it (never an IP address).
    static func domain(_ host: String, matches domain: String) -> Bool {
        if host == domain { return true }
        return host.hasSuffix("." + domain) && !host.isIPAddress
    }

    /// RFC 6265 §5.1.4: the cookie's path is the request's, or a directory above it.
    static func path(_ requestPath: String, matches cookiePath: String) -> Bool {
        guard requestPath.hasPrefix(cookiePath) else { return false }
        return requestPath.count == cookiePath.count || cookiePath.hasSuffix("/")
            || requestPath[requestPath.index(requestPath.startIndex, offsetBy: cookiePath.count)] == "/"
    }

    /// RFC 6265 §5.1.4: the directory of a request path, the path a cookie without `Path` gets.
    static func defaultPath(of requestPath: String) -> String {
        guard requestPath.hasPrefix("/"), let slash = requestPath.lastIndex(of: "/"), slash != requestPath.startIndex else {
            return "/"
        }
        return String(requestPath[..<slash])
    }
}

extension URL {
    /// The path as the request line carries it, what RFC 6265 matches cookies against:
    /// percent-encoding and a trailing slash kept (`URL.path` drops both), `/` when empty.
    var requestPath: String {
        let path = path(percentEncoded: true)
        return path.isEmpty ? "/" : path
    }
}

extension String {
    /// Whether this host is an IPv4 or IPv6 address rather than a name.
    var isIPAddress: Bool {
        contains(":") || (split(separator: ".").count == 4 && allSatisfy { $0.isNumber || $0 == "." })
    }
}
