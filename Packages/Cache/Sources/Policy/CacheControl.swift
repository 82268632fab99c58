import Foundation
import JewzHTTPCore

/// The directives of the `Cache-Control` fields of a request or a response (RFC 9111 §5.2),
/// those only shared caches heed included.
///
/// Unknown directives are ignored; a delta-seconds that is not digits makes a response's
/// `max-age` zero (§4.2.1: invalid freshness information means stale) and is ignored
/// elsewhere; values past 2³¹ are held at 2³¹ (§1.2.2).
struct CacheControl: Sendable, Hashable {
    var maxAge: Int?
    /// `s-maxage`: a shared cache's lifetime, over `max-age` and `Expires`.
    var sharedMaxAge: Int?
    /// `max-stale`: `Int.max` when given without a value (any staleness).
    var maxStale: Int?
    var minFresh: Int?
    var noCache = false
    var noStore = false
    var mustRevalidate = false
    /// `proxy-revalidate`: `must-revalidate` for shared caches only.
    var proxyRevalidate = false
    var isPublic = false
    var isPrivate = false
    /// The fields a qualified `private="…"` keeps out of shared caches (lowercased); empty
    /// for a plain `private`, which keeps the whole response out.
    var privateFields: [String] = []
    var onlyIfCached = false
    /// `must-understand`: store only if the status's caching rules are known, then despite
    /// `no-store` (RFC 9111 §5.2.2.3).
    var mustUnderstand = false
    var staleWhileRevalidate: Int?
    var staleIfError: Int?

    /// Whether a response says how long it stays fresh (or that it may be stored at all)
    /// rather than leaving it to heuristics.
    var isExplicit: Bool {
        maxAge != nil || sharedMaxAge != nil || noCache || noStore || isPublic || isPrivate || mustRevalidate || proxyRevalidate
    }

    init(_ headers: HTTPHeaderFields) {
        // One pass over the fields: every request and every response is read here.
        var hasCacheControl = false
        var pragmaNoCache = false
        for field in headers {
            if field.name.equalsCaseInsensitively("Cache-Control") {
                hasCacheControl = true
                for directive in Self.directives(in: field.value) {
                    apply(directive.name, directive.argument)
                }
            } else if field.name.equalsCaseInsensitively("Pragma") {
                pragmaNoCache =
                    pragmaNoCache || field.value.split(separator: ",").contains { $0.trimmingHTTPWhitespace().lowercased() == "no-cache" }
            }
        }
        // HTTP/1.0's `Pragma: no-cache`, when no Cache-Control says otherwise (§5.4).
        if !hasCacheControl, pragmaNoCache { noCache = true }
    }

    private mutating func apply(_ name: String, _ argument: String?) {
        switch name {
        case "max-age": maxAge = Self.seconds(argument) ?? 0
        case "max-stale": maxStale = argument == nil ? Int.max : Self.seconds(argument)
        case "min-fresh": minFresh = Self.seconds(argument)
        case "no-cache": noCache = true
        case "no-store": noStore = true
        case "s-maxage": sharedMaxAge = Self.seconds(argument) ?? 0
        case "must-revalidate": mustRevalidate = true
        case "proxy-revalidate": proxyRevalidate = true
        case "public": isPublic = true
        case "private":
            isPrivate = true
            privateFields = argument.map { $0.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces).lowercased() } } ?? []
        case "only-if-cached": onlyIfCached = true
        case "must-understand": mustUnderstand = true
        case "stale-while-revalidate": staleWhileRevalidate = Self.seconds(argument)
        case "stale-if-error": staleIfError = Self.seconds(argument)
        default: break
        }
    }

    /// RFC 9111 §1.2.2's delta-seconds.
    private static func seconds(_ argument: String?) -> Int? {
        guard let argument, !argument.isEmpty, argument.utf8.allSatisfy({ (48...57).contains($0) }) else { return nil }
        return Int(argument.prefix(10)).map { min($0, 1 << 31) } ?? (1 << 31)
    }

    /// The directives of one field value: `name[=token|"quoted"]`, comma-separated; names
    /// lowercased; commas inside quoted strings kept. Read byte by byte (every delimiter is
    /// ASCII, so multi-byte characters pass through whole).
    static func directives(in value: String) -> [(name: String, argument: String?)] {
        var result: [(String, String?)] = []
        var name: [UInt8] = []
        var argument: [UInt8]?
        var inQuotes = false
        var escaped = false
        func text(_ bytes: [UInt8]) -> String {
            let isSpace: (UInt8) -> Bool = { $0 == UInt8(ascii: " ") || $0 == UInt8(ascii: "\t") }
            guard let start = bytes.firstIndex(where: { !isSpace($0) }), let end = bytes.lastIndex(where: { !isSpace($0) }) else {
                return ""
            }
            return String(decoding: bytes[start...end], as: UTF8.self)
        }
        func flush() {
            let trimmed = text(name).lowercased()
            if !trimmed.isEmpty { result.append((trimmed, argument.map(text))) }
            name.removeAll(keepingCapacity: true)
            argument = nil
        }
        for byte in value.utf8 {
            if inQuotes {
                if escaped {
                    argument?.append(byte)
                    escaped = false
                } else if byte == UInt8(ascii: "\\") {
                    escaped = true
                } else if byte == UInt8(ascii: "\"") {
                    inQuotes = false
                } else {
                    argument?.append(byte)
                }
            } else if byte == UInt8(ascii: ",") {
                flush()
            } else if byte == UInt8(ascii: "="), argument == nil {
                argument = []
            } else if byte == UInt8(ascii: "\""), argument != nil {
                inQuotes = true
            } else if argument != nil {
                argument?.append(byte)
            } else {
                name.append(byte)
            }
        }
        flush()
        return result
    }
}
