import Jewzruxin
import NIOHTTP1

/// The fields a proxy passes on (RFC 9110 §7.6.1): never the connection's own — `Connection`,
/// the fields it names, `Keep-Alive`, `Proxy-Connection`, `TE`, `Trailer`, `Transfer-Encoding`,
/// `Upgrade`, and `Proxy-Authorization`, meant for this proxy — and a `Via` of its own.
enum ProxyHeaders {
    static let via = "1.1 jewz"
    private static let hopByHop: Set<String> = [
        "connection", "keep-alive", "proxy-connection", "te", "trailer", "transfer-encoding", "upgrade", "proxy-authorization",
    ]

    /// The fields of a client's request to send on: without hop-by-hop fields and `Host` (the
    /// URL sets it), with `Via`.
    static func outgoing(_ fields: HTTPHeaders) -> HTTPHeaderFields {
        var headers = HTTPHeaderFields()
        for (name, value) in passed(fields) where name.lowercased() != "host" { headers.add(value, for: name) }
        headers.add(via, for: "Via")
        return headers
    }

    /// The fields of an upstream response to give the client, with `Via`.
    static func incoming(_ fields: HTTPHeaderFields) -> HTTPHeaders {
        var headers = HTTPHeaders()
        let named = Set(fields.tokens(for: "Connection"))
        for field in fields.fields where !hopByHop.contains(field.name.lowercased()) && !named.contains(field.name.lowercased()) {
            headers.add(name: field.name, value: field.value)
        }
        headers.add(name: "Via", value: via)
        return headers
    }

    private static func passed(_ fields: HTTPHeaders) -> [(String, String)] {
        let named = Set(fields["Connection"].flatMap { $0.split(separator: ",") }.map { $0.trimmingCharacters(in: .whitespaces).lowercased() })
        return fields.filter { !hopByHop.contains($0.name.lowercased()) && !named.contains($0.name.lowercased()) }.map { ($0.name, $0.value) }
    }

    /// The method as the client wrote it: NIO's parser knows every method llhttp does and
    /// passes them all on, but names `M-SEARCH` without its hyphen.
    static func methodName(_ method: NIOHTTP1.HTTPMethod) -> String {
        method == .MSEARCH ? "M-SEARCH" : method.rawValue
    }
}
