import Foundation

/// A `Content-Disposition` field (RFC 6266 for responses, RFC 7578 for form parts): its type
/// and parameters, and the file name it suggests, safe to use as a file's name.
///
/// ```swift
/// let disposition = ContentDisposition(#"attachment; filename="report.pdf"; filename*=UTF-8''r%C3%A9sum%C3%A9.pdf"#)
/// let name = disposition?.filename          // "résumé.pdf" (filename* wins)
/// let safeName = disposition?.safeFilename  // "résumé.pdf"; "../../etc/passwd" would give "passwd"
/// ```
public struct ContentDisposition: Sendable, Hashable {
    /// The disposition type, lowercased: `attachment`, `inline`, `form-data`…
    public let type: String
    /// The parameters in order, names lowercased, quotes and escapes undone: read them by
    /// name with the subscript.
    package let parameters: [Parameter]

    package struct Parameter: Sendable, Hashable {
        package let name: String
        package let value: String
    }

    /// Parses `field`; `nil` when it has no type.
    public init?(_ field: String) {
        let type = field.prefix { $0 != ";" }.trimmingCharacters(in: .whitespaces).lowercased()
        guard !type.isEmpty else { return nil }
        self.type = type
        parameters = Self.parameters(of: field)
    }

    /// The value of the parameter called `name` (case-insensitive), or `nil`.
    public subscript(name: String) -> String? {
        let wanted = name.lowercased()
        return parameters.first { $0.name == wanted }?.value
    }

    /// The file name: RFC 8187's `filename*` when present and UTF-8, else `filename` (with the
    /// `%22`, `%0D`, `%0A` that browsers write in form data decoded). As the sender wrote it:
    /// use ``safeFilename`` to name a file.
    public var filename: String? {
        if let extended = self["filename*"], let decoded = Self.decodeExtendedValue(extended) {
            return decoded
        }
        return self["filename"].map {
            $0.replacingOccurrences(of: "%22", with: "\"").replacingOccurrences(of: "%0D", with: "\r")
                .replacingOccurrences(of: "%0A", with: "\n")
        }
    }

    /// ``filename`` made safe to name a file in a directory of the caller's choosing: its last
    /// path component only (no `/`, `\`, `..`), without control characters, no leading dot (a
    /// hidden file), at most 255 bytes of UTF-8; `nil` when nothing usable is left.
    public var safeFilename: String? {
        filename.flatMap(Self.safeFilename(from:))
    }

    /// `name` made safe as ``safeFilename`` describes: for names taken from a URL's path too.
    package static func safeFilename(from name: String) -> String? {
        let last = name.split { $0 == "/" || $0 == "\\" }.last.map(String.init) ?? ""
        var cleaned = String(String.UnicodeScalarView(last.unicodeScalars.filter { $0.value >= 0x20 && $0.value != 0x7F }))
        cleaned = cleaned.trimmingCharacters(in: .whitespaces)
        while cleaned.hasPrefix(".") { cleaned.removeFirst() }
        while cleaned.utf8.count > 255 { cleaned.removeLast() }
        return cleaned.isEmpty ? nil : cleaned
    }

    /// `type; a=b; c="d;e"` → [(a, b), (c, d;e)], names lowercased, quotes and escapes undone.
    private static func parameters(of header: String) -> [Parameter] {
        var result: [Parameter] = []
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
            result.append(Parameter(name: name.trimmingCharacters(in: .whitespaces).lowercased(), value: value))
        }
        return result
    }

    /// RFC 8187 `UTF-8'language'percent-encoded` (the charset every sender must support).
    private static func decodeExtendedValue(_ value: String) -> String? {
        let pieces = value.split(separator: "'", maxSplits: 2, omittingEmptySubsequences: false)
        guard pieces.count == 3, pieces[0].lowercased() == "utf-8" else { return nil }
        return PercentEncoding.decode(pieces[2])
    }
}

extension HTTPResponse {
    /// The response's `Content-Disposition`, parsed.
    var contentDisposition: ContentDisposition? {
        headers["Content-Disposition"].flatMap(ContentDisposition.init)
    }

    /// A file name to save the body under, safe in any directory: `Content-Disposition`'s,
    /// else the URL's last path component (as URLSession's `suggestedFilename`); `nil` when
    /// neither gives one.
    public var suggestedFilename: String? {
        if let name = contentDisposition?.safeFilename { return name }
        guard let last = url?.lastPathComponent, last != "/" else { return nil }
        return ContentDisposition.safeFilename(from: last)
    }
}
