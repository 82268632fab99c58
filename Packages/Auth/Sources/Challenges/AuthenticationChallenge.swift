/// One challenge of a `WWW-Authenticate` or `Proxy-Authenticate` field (RFC 9110 §11.2): a
/// scheme with either a token68 or parameters.
///
/// ```swift
/// let challenges = AuthenticationChallenge.parse(#"Digest realm="api", nonce="abc", qop="auth", Basic realm="api""#)
/// print(challenges.map(\.scheme))   // ["digest", "basic"]
/// let realm = challenges[0]["realm"]   // "api"
/// ```
public struct AuthenticationChallenge: Sendable, Hashable {
    /// The scheme, lowercased (`basic`, `digest`, `bearer`).
    public var scheme: String
    /// The parameters by lowercased name, values unquoted; the first of a repeated name wins.
    public var parameters: [String: String]
    /// The token68 form (`Negotiate abc==`), when the challenge has one instead of parameters.
    public var token: String?

    /// A challenge from its parts; the scheme is lowercased, the parameters kept as given
    /// (the parser gives their names lowercased, as the subscript looks them up).
    public init(scheme: String, parameters: [String: String] = [:], token: String? = nil) {
        self.scheme = scheme.lowercased()
        self.parameters = parameters
        self.token = token
    }

    /// The parameter `name` (any case).
    public subscript(name: String) -> String? { parameters[name.lowercased()] }

    /// The realm, which with scheme, host and port names the protection space.
    public var realm: String? { self["realm"] }

    /// Every challenge of the fields' values (several per field and across fields), in order.
    /// What cannot be read as a challenge is skipped: a malformed field yields fewer
    /// challenges, never an error or a crash.
    public static func parse(_ fields: [String]) -> [AuthenticationChallenge] {
        fields.flatMap(parse)
    }

    /// Every challenge of one field value, in order.
    public static func parse(_ field: String) -> [AuthenticationChallenge] {
        var reader = ChallengeReader(Array(field.utf8))
        return reader.challenges()
    }
}

/// The RFC 9110 grammar, read over bytes:
///
///     challenge   = auth-scheme [ 1*SP ( token68 / #auth-param ) ]
///     auth-param  = token BWS "=" BWS ( token / quoted-string )
///     token68     = 1*( ALPHA / DIGIT / "-" / "." / "_" / "~" / "+" / "/" ) *"="
///
/// A comma separates both challenges and a challenge's parameters: a new challenge starts where
/// a token is not followed by `=`.
struct ChallengeReader {
    private let bytes: [UInt8]
    private var index = 0

    init(_ bytes: [UInt8]) {
        self.bytes = bytes
    }

    mutating func challenges() -> [AuthenticationChallenge] {
        var result: [AuthenticationChallenge] = []
        while index < bytes.count {
            skipSeparators()
            guard let scheme = token() else {
                skipToComma()
                continue
            }
            var challenge = AuthenticationChallenge(scheme: scheme)
            skipSpaces()
            if let token68 = token68() {
                challenge.token = token68
            } else {
                readParameters(into: &challenge)
            }
            result.append(challenge)
        }
        return result
    }

    /// Parameters until the next challenge (a token not followed by `=`) or the end.
    private mutating func readParameters(into challenge: inout AuthenticationChallenge) {
        while index < bytes.count {
            let start = index
            skipSeparators()
            guard let name = token() else {
                if index < bytes.count { skipToComma() }
                continue
            }
            skipSpaces()
            guard index < bytes.count, bytes[index] == UInt8(ascii: "=") else {
                index = start  // a scheme: the next challenge begins here
                return
            }
            index += 1
            skipSpaces()
            let value = index < bytes.count && bytes[index] == UInt8(ascii: "\"") ? quotedString() : token()
            if let value, challenge.parameters[name.lowercased()] == nil {
                challenge.parameters[name.lowercased()] = value
            }
            skipSpaces()
            if index < bytes.count, bytes[index] != UInt8(ascii: ",") { skipToComma() }
        }
    }

    /// A token68 when one stands alone before the next comma or the end; `realm="x"` and
    /// `realm=x` are parameters, whose `=` a token68's padding would otherwise swallow.
    private mutating func token68() -> String? {
        let start = index
        while index < bytes.count, Self.isToken68(bytes[index]) { index += 1 }
        guard index > start else { return nil }
        while index < bytes.count, bytes[index] == UInt8(ascii: "=") { index += 1 }
        let end = index
        skipSpaces()
        guard index == bytes.count || bytes[index] == UInt8(ascii: ",") else {
            index = start
            return nil
        }
        return String(decoding: bytes[start..<end], as: UTF8.self)
    }

    private mutating func token() -> String? {
        let start = index
        while index < bytes.count, bytes[index].isHTTPTokenCharacter { index += 1 }
        return index > start ? String(decoding: bytes[start..<index], as: UTF8.self) : nil
    }

    /// A quoted string with its `\` escapes undone; an unterminated one runs to the end.
    private mutating func quotedString() -> String {
        index += 1
        var value: [UInt8] = []
        while index < bytes.count, bytes[index] != UInt8(ascii: "\"") {
            if bytes[index] == UInt8(ascii: "\\"), index + 1 < bytes.count { index += 1 }
            value.append(bytes[index])
            index += 1
        }
        if index < bytes.count { index += 1 }
        return String(decoding: value, as: UTF8.self)
    }

    private mutating func skipSpaces() {
        while index < bytes.count, bytes[index] == UInt8(ascii: " ") || bytes[index] == UInt8(ascii: "\t") { index += 1 }
    }

    private mutating func skipSeparators() {
        while index < bytes.count, [UInt8(ascii: " "), UInt8(ascii: "\t"), UInt8(ascii: ",")].contains(bytes[index]) {
            index += 1
        }
    }

    /// Skips what cannot be read, up to and past the next comma outside a quoted string.
    private mutating func skipToComma() {
        var quoted = false
        while index < bytes.count {
            let byte = bytes[index]
            index += 1
            if byte == UInt8(ascii: "\\"), quoted { index += 1; continue }
            if byte == UInt8(ascii: "\"") { quoted.toggle() }
            if byte == UInt8(ascii: ","), !quoted { return }
        }
    }

    private static func isToken68(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            true
        default:
            Array("-._~+/".utf8).contains(byte)
        }
    }
}
