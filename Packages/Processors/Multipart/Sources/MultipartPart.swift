import Foundation
import JewzHTTPCore

/// One part of a parsed multipart body.
public struct MultipartPart: Sendable, Equatable {
    public var headers: HTTPHeaderFields
    public var body: Data

    public init(headers: HTTPHeaderFields, body: Data) {
        self.headers = headers
        self.body = body
    }

    /// The form field's name (`Content-Disposition: form-data; name=…`).
    public var name: String? { dispositionParameter("name") }

    /// The file name: RFC 5987's `filename*` when present, else `filename` (with the
    /// `%22`, `%0D`, `%0A` that browsers write decoded).
    public var filename: String? {
        if let extended = dispositionParameter("filename*"), let decoded = Self.decodeExtendedValue(extended) {
            return decoded
        }
        return dispositionParameter("filename").map {
            $0.replacingOccurrences(of: "%22", with: "\"").replacingOccurrences(of: "%0D", with: "\r")
                .replacingOccurrences(of: "%0A", with: "\n")
        }
    }

    /// The part's Content-Type, parsed.
    public var contentType: MediaType? { headers["Content-Type"].flatMap { MediaType($0) } }

    /// The body as text, by the part's charset or else UTF-8.
    public var text: String? {
        HTTPResponse(statusCode: 200, headers: headers, data: body).text
    }

    /// A parameter of Content-Disposition, unquoted.
    private func dispositionParameter(_ wanted: String) -> String? {
        guard let disposition = headers["Content-Disposition"] else { return nil }
        return Self.parameters(of: disposition).first { $0.name == wanted }?.value
    }

    /// `type; a=b; c="d;e"` → [(a, b), (c, d;e)], names lowercased, quotes and escapes undone.
    static func parameters(of header: String) -> [(name: String, value: String)] {
        var result: [(String, String)] = []
        var characters = header.drop { $0 != ";" }
        while characters.first == ";" {
            characters = characters.dropFirst().drop { $0 == " " || $0 == "\t" }
            let name = characters.prefix { $0 != "=" && $0 != ";" }
            characters = characters.dropFirst(name.count)
            guard characters.first == "=" else { continue }
            characters = characters.dropFirst()
            var value = ""
            if characters.first == "\"" {
                characters = characters.dropFirst()
                while let character = characters.first, character != "\"" {
                    characters = characters.dropFirst()
                    if character == "\\", let escaped = characters.first {
                        value.append(escaped)
                        characters = characters.dropFirst()
                    } else {
                        value.append(character)
                    }
                }
                characters = characters.dropFirst().drop { $0 != ";" }
            } else {
                let raw = characters.prefix { $0 != ";" }
                value = raw.trimmingCharacters(in: .whitespaces)
                characters = characters.dropFirst(raw.count)
            }
            result.append((name.trimmingCharacters(in: .whitespaces).lowercased(), value))
        }
        return result
    }

    /// RFC 8187 `UTF-8'language'percent-encoded` (the charset every sender must support).
    static func decodeExtendedValue(_ value: String) -> String? {
        let pieces = value.split(separator: "'", maxSplits: 2, omittingEmptySubsequences: false)
        guard pieces.count == 3, pieces[0].lowercased() == "utf-8" else { return nil }
        return PercentEncoding.decode(pieces[2])
    }
}
