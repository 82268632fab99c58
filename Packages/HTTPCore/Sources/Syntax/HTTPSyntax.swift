import Foundation

// The ASCII rules of HTTP's grammar (RFC 9110 §5.6) that more than one part of the core
// checks: tokens, header values, whitespace, case-insensitive names, sendable URLs.

extension UInt8 {
    /// Whether the byte would end a header value or split the request (CR, LF, NUL).
    var breaksHeaderValue: Bool { self == 0x0D || self == 0x0A || self == 0x00 }

    /// Whether the byte may appear in a token such as a header name (RFC 9110 §5.6.2: visible
    /// ASCII except the delimiters `"(),/:;<=>?@[\]{}`).
    package var isHTTPTokenCharacter: Bool {
        switch self {
        case 0x21, 0x23...0x27, 0x2A, 0x2B, 0x2D, 0x2E, 0x30...0x39, 0x41...0x5A, 0x5E...0x7A, 0x7C, 0x7E: true
        default: false
        }
    }

    var asciiLowercased: UInt8 {
        (0x41...0x5A).contains(self) ? self | 0x20 : self
    }
}

extension StringProtocol {
    /// Whether the string is a non-empty token (RFC 9110 §5.6.2).
    package var isHTTPToken: Bool {
        // Native strings are scanned as contiguous bytes, the rest byte by byte.
        !isEmpty
            && (utf8.withContiguousStorageIfAvailable { $0.allSatisfy(\.isHTTPTokenCharacter) }
                ?? utf8.allSatisfy(\.isHTTPTokenCharacter))
    }

    /// Whether the string can be a header value: no CR, LF or NUL.
    var isValidHeaderValue: Bool {
        utf8.withContiguousStorageIfAvailable { !$0.contains(where: \.breaksHeaderValue) }
            ?? !utf8.contains(where: \.breaksHeaderValue)
    }

    /// ASCII case-insensitive equality, the comparison HTTP uses for names and tokens.
    package func equalsCaseInsensitively(_ other: some StringProtocol) -> Bool {
        let lhs = utf8
        let rhs = other.utf8
        guard lhs.count == rhs.count else { return false }
        // Native strings compare as contiguous bytes; a header lookup does this for every field.
        let contiguous = lhs.withContiguousStorageIfAvailable { left in
            rhs.withContiguousStorageIfAvailable { right in Self.equalsCaseInsensitively(left, right) }
        }
        if let contiguous, let result = contiguous { return result }
        return Self.equalsCaseInsensitively(lhs, rhs)
    }

    private static func equalsCaseInsensitively(_ lhs: some Collection<UInt8>, _ rhs: some Collection<UInt8>) -> Bool {
        zip(lhs, rhs).allSatisfy { a, b in a == b || a.asciiLowercased == b.asciiLowercased }
    }

    /// The string without leading and trailing spaces and tabs (HTTP's OWS).
    package func trimmingHTTPWhitespace() -> String {
        let isWhitespace: (Character) -> Bool = { $0 == " " || $0 == "\t" }
        guard let start = firstIndex(where: { !isWhitespace($0) }),
            let end = lastIndex(where: { !isWhitespace($0) })
        else { return "" }
        return String(self[start...end])
    }
}

extension String {
    /// ASCII case-insensitive equality of two strings, as the generic form above; chosen for a
    /// header lookup's `String` names, where the lengths alone tell most fields apart and
    /// equal spellings (the usual case) need no lowercasing.
    package func equalsCaseInsensitively(_ other: String) -> Bool {
        guard utf8.count == other.utf8.count else { return false }
        if self == other { return true }
        for (a, b) in zip(utf8, other.utf8) where a != b && a.asciiLowercased != b.asciiLowercased {
            return false
        }
        return true
    }
}

extension HTTPHeaderFields {
    /// The elements of a list-valued field such as `Content-Encoding`, `Accept-Ranges` or
    /// `Vary` (RFC 9110 §5.6.1), over every field of that name: split at commas, trimmed,
    /// lowercased, empty elements dropped.
    package func tokens(for name: String) -> [String] {
        var tokens: [String] = []
        for value in values(for: name) {
            for element in value.split(separator: ",") {
                let token = element.trimmingHTTPWhitespace().lowercased()
                if !token.isEmpty { tokens.append(token) }
            }
        }
        return tokens
    }

    /// Whether `Content-Encoding` names a coding other than `identity`: the body as sent is then
    /// not the representation's own bytes, and a range of it cannot be continued.
    package var namesContentCoding: Bool {
        tokens(for: "Content-Encoding").contains { $0 != "identity" }
    }
}

extension HTTPRequest {
    /// Refuses what must never reach the wire: a URL that is not http(s) with a host, and
    /// header names or values that would split or corrupt the request. `vettedURL`, when the
    /// request's URL is that one, and `vettedHeaders`, when the request's headers are those
    /// very fields (the same storage), were checked already.
    ///
    /// - Throws: ``HTTPError/Code/invalidURL`` or ``HTTPError/Code/invalidHeader``.
    func validateForSending(vettedURL: URL? = nil, vettedHeaders: HTTPHeaderFields? = nil) throws(HTTPError) {
        guard url == vettedURL || url.isSendableHTTP else { throw .invalidURL(url.absoluteString) }
        if let vettedHeaders, headers.sharesStorage(with: vettedHeaders) { return }
        if let field = headers.firstUnsendableField { throw .invalidHeader(name: field.name) }
    }
}

extension HTTPHeaderFields {
    /// The first field that must not reach the wire: a name that is not a token, or a value
    /// with a CR, LF or NUL; `nil` when every field may be sent.
    var firstUnsendableField: Field? {
        fields.first { !$0.name.isHTTPToken || !$0.value.isValidHeaderValue }
    }
}

extension URL {
    /// Whether the URL can be sent: http or https (or their `+unix` forms, whose host is a
    /// percent-encoded socket path), with a host.
    ///
    /// Read from the URL's text, which a parsed URL has already checked: asking the URL for its
    /// scheme and host instead builds a string for each, on every request.
    package var isSendableHTTP: Bool {
        var text = absoluteString
        return text.withUTF8(Self.isSendableHTTP)
    }

    /// Whether `text`, a URL that parsed, starts with `http://` or `https://` (in any case, with
    /// `+unix` before the colon or not) and an authority whose host, past any user info, is
    /// not empty.
    private static func isSendableHTTP(_ text: UnsafeBufferPointer<UInt8>) -> Bool {
        // ASCII letters lowercased; past the end, a byte no letter matches.
        func lowercased(_ index: Int) -> UInt8 { index < text.count ? text[index] | 0x20 : 0 }
        guard lowercased(0) == UInt8(ascii: "h"), lowercased(1) == UInt8(ascii: "t"), lowercased(2) == UInt8(ascii: "t"),
            lowercased(3) == UInt8(ascii: "p")
        else { return false }
        var colon = lowercased(4) == UInt8(ascii: "s") ? 5 : 4
        if colon + 5 <= text.count, text[colon] == UInt8(ascii: "+"), lowercased(colon + 1) == UInt8(ascii: "u"),
            lowercased(colon + 2) == UInt8(ascii: "n"), lowercased(colon + 3) == UInt8(ascii: "i"), lowercased(colon + 4) == UInt8(ascii: "x")
        {
            colon += 5
        }
        guard text.count >= colon + 3, text[colon] == UInt8(ascii: ":"), text[colon + 1] == UInt8(ascii: "/"),
            text[colon + 2] == UInt8(ascii: "/")
        else { return false }
        var hostStart = colon + 3
        var end = hostStart
        while end < text.count, text[end] != UInt8(ascii: "/"), text[end] != UInt8(ascii: "?"), text[end] != UInt8(ascii: "#") {
            if text[end] == UInt8(ascii: "@") { hostStart = end + 1 }
            end += 1
        }
        // An empty host leaves nothing, or the port's colon, where it should be.
        return hostStart < end && text[hostStart] != UInt8(ascii: ":")
    }
}

extension URL {
    /// The URL a string spells, characters that may not appear in a URL (spaces, non-ASCII)
    /// percent-encoded, as `URL(string:)` makes it.
    ///
    /// Why not `URL(string:)` alone: it searches every component for characters to encode
    /// before parsing, a third of its cost, though most strings have none. A strict parse
    /// comes first; only a string it refuses pays for the search.
    package init?(encodingIfNeeded string: String) {
        guard let url = URL(string: string, encodingInvalidCharacters: false) ?? URL(string: string) else { return nil }
        self = url
    }

    /// Whether the URL names a Unix domain socket (`http+unix`, `https+unix`): what only the
    /// default transport reaches, and where a redirect from elsewhere may never lead.
    package var isUnixSocketURL: Bool {
        scheme.map { $0.lowercased().hasSuffix("+unix") } ?? false
    }

    /// This URL sent to the server on the Unix domain socket at `socketPath`: AsyncHTTPClient's
    /// `http+unix` form, the path and query kept; `nil` when the URL has no http scheme.
    package func onUnixSocket(_ socketPath: String) -> URL? {
        guard let scheme = scheme?.lowercased(), scheme == "http" || scheme == "https",
            var components = URLComponents(url: self, resolvingAgainstBaseURL: false)
        else { return nil }
        components.scheme = scheme + "+unix"
        components.user = nil
        components.password = nil
        components.port = nil
        components.percentEncodedHost = socketPath.addingPercentEncoding(withAllowedCharacters: .alphanumerics.union(.init(charactersIn: "-._~")))
        return components.url
    }

    /// The `Host` field this URL's authority makes: the host, and the port when it is not the
    /// scheme's default.
    package var hostField: String? {
        guard let host else { return nil }
        let bracketed = host.contains(":") ? "[\(host)]" : host
        guard let port, port != defaultPort else { return bracketed }
        return "\(bracketed):\(port)"
    }

    /// The port the URL names, else its scheme's default.
    package var effectivePort: Int { port ?? defaultPort }

    /// The scheme's default port: 443 for https, 80 for anything else.
    package var defaultPort: Int { scheme?.lowercased() == "https" ? 443 : 80 }
}

extension URL {
    /// Whether the URL's host is this machine's loopback: `localhost`, 127.0.0.0/8 or `::1`,
    /// the one place plain http carries no risk of being read on the way.
    package var isLoopback: Bool {
        guard let host = host(percentEncoded: false)?.lowercased() else { return false }
        if host == "localhost" || host == "::1" || host == "[::1]" { return true }
        let octets = host.split(separator: ".", omittingEmptySubsequences: false)
        return octets.count == 4 && octets[0] == "127" && octets.allSatisfy { UInt8($0) != nil }
    }
}
