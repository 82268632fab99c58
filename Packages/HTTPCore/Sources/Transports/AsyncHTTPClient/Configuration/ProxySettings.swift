import Foundation

extension AsyncHTTPClientTransport.Configuration {
    /// A proxy server: HTTP (every request, http or https, goes through a `CONNECT` tunnel)
    /// or SOCKS5.
    public struct Proxy: Sendable, Hashable, CustomStringConvertible {
        /// The protocol spoken to the proxy.
        public enum Kind: Sendable, Hashable {
            /// An HTTP proxy: every request goes through a `CONNECT` tunnel.
            case http
            /// A SOCKS5 proxy (RFC 1928), without authentication.
            case socks5
        }

        /// The protocol spoken to the proxy.
        public var kind: Kind
        /// The proxy's host name or address.
        public var host: String
        /// The proxy's port.
        public var port: Int
        /// Sent as Basic `Proxy-Authorization` to an HTTP proxy.
        public var credentials: Credentials?

        /// A user name and password for an HTTP proxy that asks for them.
        public struct Credentials: Sendable, Hashable {
            /// The user name.
            public var user: String
            /// The password; never shown in a description.
            public var password: String

            /// Credentials of `user` with `password`.
            public init(user: String, password: String) {
                self.user = user
                self.password = password
            }
        }

        /// A proxy of `kind` at `host` and `port`, with `credentials` for an HTTP proxy that
        /// asks for them.
        public init(kind: Kind, host: String, port: Int, credentials: Credentials? = nil) {
            self.kind = kind
            self.host = host
            self.port = port
            self.credentials = credentials
        }

        /// Reads `http://user:password@host:port` or `socks5://host:port` (curl's forms; a URL
        /// without a scheme is an HTTP proxy, without a port 1080 for SOCKS5, else 80).
        ///
        /// - Throws: ``HTTPError/Code/invalidConfiguration`` for another scheme, no host, or
        ///   credentials on a SOCKS5 proxy (the transport cannot send them).
        public init(url text: String) throws {
            let text = text.contains("://") ? text : "http://" + text
            guard let components = URLComponents(string: text), let host = components.host, !host.isEmpty else {
                throw HTTPError.invalidConfiguration("'\(text.redactingURLCredentials)' is not a proxy URL such as http://host:3128")
            }
            switch components.scheme?.lowercased() {
            case "http": kind = .http
            case "socks5", "socks5h": kind = .socks5
            default:
                throw HTTPError.invalidConfiguration(
                    "proxy scheme '\(components.scheme ?? "")' is not supported: use http:// or socks5://")
            }
            self.host = host.hasPrefix("[") ? String(host.dropFirst().dropLast()) : host
            port = components.port ?? (kind == .socks5 ? 1080 : 80)
            if let user = components.user {
                guard kind == .http else {
                    throw HTTPError.invalidConfiguration("SOCKS5 proxies with credentials are not supported; use an HTTP proxy")
                }
                credentials = Credentials(
                    user: user.removingPercentEncoding ?? user,
                    password: components.password.map { $0.removingPercentEncoding ?? $0 } ?? "")
            } else {
                credentials = nil
            }
        }

        /// The proxy's URL, without its password.
        public var description: String {
            let user = credentials.map { "\($0.user):***@" } ?? ""
            return "\(kind == .http ? "http" : "socks5")://\(user)\(host.contains(":") ? "[\(host)]" : host):\(port)"
        }
    }

    /// Which proxy each request goes through.
    ///
    /// ```swift
    /// var configuration = HTTPSession.Configuration()
    /// configuration.transport.proxies = .all(try .init(url: "http://user:pw@proxy:3128"))
    /// configuration.transport.proxies = try .environment()   // HTTP_PROXY, HTTPS_PROXY, NO_PROXY
    /// ```
    public struct Proxies: Sendable, Hashable {
        /// For `http://` URLs; `nil` to connect directly.
        public var http: Proxy?
        /// For `https://` URLs; `nil` to connect directly.
        public var https: Proxy?
        /// Hosts reached directly (`NO_PROXY`): `example.com` also covers its subdomains, a
        /// leading dot or `*.` the same, `*` every host; `host:port` only that port.
        public var bypass: [String]

        /// Proxies for `http://` and `https://` URLs (`nil`: connect directly), and the hosts
        /// that `bypass` them.
        public init(http: Proxy?, https: Proxy?, bypass: [String] = []) {
            self.http = http
            self.https = https
            self.bypass = bypass
        }

        /// Every request through `proxy`, but for the `bypass` hosts.
        public static func all(_ proxy: Proxy, bypass: [String] = []) -> Proxies {
            Proxies(http: proxy, https: proxy, bypass: bypass)
        }

        /// The proxies curl would use: `http_proxy`/`HTTP_PROXY`, `https_proxy`/`HTTPS_PROXY`,
        /// `all_proxy`/`ALL_PROXY` for either, and `no_proxy`/`NO_PROXY`; lowercase first.
        /// `nil` when none is set.
        ///
        /// - Throws: ``HTTPError/Code/invalidConfiguration`` when a variable holds no proxy URL.
        public static func environment(_ environment: [String: String] = ProcessInfo.processInfo.environment) throws -> Proxies? {
            func value(_ name: String) -> String? {
                (environment[name.lowercased()] ?? environment[name.uppercased()]).flatMap { $0.isEmpty ? nil : $0 }
            }
            let all = try value("all_proxy").map(Proxy.init(url:))
            let http = try value("http_proxy").map(Proxy.init(url:)) ?? all
            let https = try value("https_proxy").map(Proxy.init(url:)) ?? all
            guard http != nil || https != nil else { return nil }
            let bypass = value("no_proxy")?.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
                .filter { !$0.isEmpty } ?? []
            return Proxies(http: http, https: https, bypass: bypass)
        }

        /// The proxy for `url`, or `nil` to connect directly.
        package func proxy(for url: URL) -> Proxy? {
            let scheme = url.scheme?.lowercased()
            guard let proxy = scheme == "https" ? https : scheme == "http" ? http : nil else { return nil }
            guard let host = url.host?.lowercased() else { return proxy }
            return bypass.contains { Self.entry($0, covers: host, port: url.effectivePort) } ? nil : proxy
        }

        private static func entry(_ entry: String, covers host: String, port: Int) -> Bool {
            var pattern = entry.lowercased()
            if pattern == "*" { return true }
            // `host:port` or `[v6]:port`; a bare IPv6 address has several colons and no port.
            if let colon = pattern.lastIndex(of: ":"),
                pattern.hasPrefix("[") ? pattern[..<colon].hasSuffix("]") : pattern.filter({ $0 == ":" }).count == 1,
                let entryPort = Int(pattern[pattern.index(after: colon)...])
            {
                guard entryPort == port else { return false }
                pattern = String(pattern[..<colon])
            }
            pattern = pattern.trimmingCharacters(in: CharacterSet(charactersIn: "[]"))
            if pattern.hasPrefix("*.") { pattern.removeFirst(2) } else if pattern.hasPrefix(".") { pattern.removeFirst() }
            return host == pattern || host.hasSuffix("." + pattern)
        }
    }
}
