import Foundation

/// Turns a response body into text, choosing the encoding in this order:
/// an explicit override, else the Content-Type `charset`, else ISO-8859-1 for `text/*`
/// (RFC 2616 §3.7.1), else a byte-order mark, else UTF-8 when the bytes are valid UTF-8.
enum TextDecoding {
    static func decode(_ data: Data, mediaType: MediaType?, override: String.Encoding?) -> String? {
        if let override {
            return string(from: data, encoding: override)
        }
        if let charset = mediaType?.charset, let encoding = String.Encoding(ianaCharsetName: charset) {
            return string(from: data, encoding: encoding)
        }
        if mediaType?.type == "text" {
            return string(from: data, encoding: .isoLatin1)
        }
        if let (encoding, markLength) = byteOrderMark(of: data) {
            return string(from: data.dropFirst(markLength), encoding: encoding)
        }
        return String(validating: data, as: UTF8.self)
    }

    static func string(from data: Data, encoding: String.Encoding) -> String? {
        switch encoding {
        case .utf8:
            let body = data.starts(with: [0xEF, 0xBB, 0xBF]) ? data.dropFirst(3) : data
            return String(validating: body, as: UTF8.self)
        case .isoLatin1:
            // Every byte is a code point of the same value: no table, no failure.
            var scalars = String.UnicodeScalarView()
            scalars.append(contentsOf: data.lazy.map { Unicode.Scalar($0) })
            return String(scalars)
        case .ascii:
            return data.allSatisfy { $0 < 0x80 } ? String(decoding: data, as: UTF8.self) : nil
        default:
            return String(data: data, encoding: encoding)
        }
    }

    static func byteOrderMark(of data: Data) -> (String.Encoding, Int)? {
        if data.starts(with: [0xEF, 0xBB, 0xBF]) { return (.utf8, 3) }
        if data.starts(with: [0xFF, 0xFE, 0x00, 0x00]) { return (.utf32LittleEndian, 4) }
        if data.starts(with: [0x00, 0x00, 0xFE, 0xFF]) { return (.utf32BigEndian, 4) }
        if data.starts(with: [0xFF, 0xFE]) { return (.utf16LittleEndian, 2) }
        if data.starts(with: [0xFE, 0xFF]) { return (.utf16BigEndian, 2) }
        return nil
    }
}

extension String.Encoding {
    /// The encoding an IANA charset name (`utf-8`, `ISO-8859-1`, `windows-1252`…) stands for.
    package init?(ianaCharsetName name: String) {
        switch name.trimmingHTTPWhitespace().lowercased() {
        case "utf-8", "utf8": self = .utf8
        case "us-ascii", "ascii", "ansi_x3.4-1968": self = .ascii
        case "iso-8859-1", "iso8859-1", "iso_8859-1", "latin1", "l1": self = .isoLatin1
        case "iso-8859-2", "iso8859-2", "latin2": self = .isoLatin2
        case "utf-16": self = .utf16
        case "utf-16le": self = .utf16LittleEndian
        case "utf-16be": self = .utf16BigEndian
        case "utf-32": self = .utf32
        case "utf-32le": self = .utf32LittleEndian
        case "utf-32be": self = .utf32BigEndian
        case "windows-1250", "cp1250": self = .windowsCP1250
        case "windows-1251", "cp1251": self = .windowsCP1251
        case "windows-1252", "cp1252": self = .windowsCP1252
        case "windows-1253", "cp1253": self = .windowsCP1253
        case "windows-1254", "cp1254": self = .windowsCP1254
        case "shift_jis", "shift-jis", "sjis": self = .shiftJIS
        case "euc-jp": self = .japaneseEUC
        case "iso-2022-jp": self = .iso2022JP
        case "macintosh", "mac": self = .macOSRoman
        default: return nil
        }
    }
}
