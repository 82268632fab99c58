import Foundation

extension URL {
    /// Scheme, host and port, the default port written out (`https://api.example.com:443`):
    /// what credentials are bound to, and what the resilience stages count per.
    ///
    /// Read off the URL's text when that is plain (a lowercase scheme and host of ASCII, no user
    /// or percent sign, a port of digits), which every stage of every call asks for; anything
    /// else goes through Foundation's parts, which the plain reading agrees with.
    package var origin: String {
        plainOrigin ?? partsOrigin
    }

    /// The origin from Foundation's parsed parts.
    package var partsOrigin: String {
        "\(scheme?.lowercased() ?? "")://\(host?.lowercased() ?? ""):\(effectivePort)"
    }

    /// The origin read off the text, or nil when the text is not plain.
    package var plainOrigin: String? {
        var text = absoluteString
        return text.withUTF8 { bytes -> String? in
            // The scheme: a lowercase letter, then letters, digits, "+", "-" or ".", up to "://".
            guard let first = bytes.first, (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(first) else { return nil }
            var index = 1
            while index < bytes.count, Self.isLowercaseSchemeByte(bytes[index]) { index += 1 }
            let schemeEnd = index
            guard bytes.count > index + 2, bytes[index] == UInt8(ascii: ":"), bytes[index + 1] == UInt8(ascii: "/"),
                bytes[index + 2] == UInt8(ascii: "/")
            else { return nil }
            let hostStart = index + 3
            index = hostStart
            var colon: Int?
            while index < bytes.count {
                let byte = bytes[index]
                if byte == UInt8(ascii: "/") || byte == UInt8(ascii: "?") || byte == UInt8(ascii: "#") { break }
                if byte == UInt8(ascii: ":") {
                    guard colon == nil else { return nil }
                    colon = index
                } else if colon != nil {
                    guard (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) else { return nil }
                } else {
                    guard Self.isLowercaseHostByte(byte) else { return nil }
                }
                index += 1
            }
            let hostEnd = colon ?? index
            guard hostEnd > hostStart else { return nil }
            let scheme = bytes[0..<schemeEnd]
            var port = scheme.elementsEqual("https".utf8) ? 443 : 80
            if let colon {
                // One to five digits that make a port; anything else is Foundation's to read.
                guard index - colon - 1 >= 1, index - colon - 1 <= 5 else { return nil }
                port = bytes[(colon + 1)..<index].reduce(0) { $0 * 10 + Int($1 - UInt8(ascii: "0")) }
                guard port <= 65535 else { return nil }
            }
            return String(decoding: bytes[0..<hostEnd], as: UTF8.self) + ":" + String(port)
        }
    }

    private static func isLowercaseSchemeByte(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte) || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
            || byte == UInt8(ascii: "+") || byte == UInt8(ascii: "-") || byte == UInt8(ascii: ".")
    }

    /// A byte of a host name or IPv4 address as Foundation gives it back unchanged.
    private static func isLowercaseHostByte(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte) || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
            || byte == UInt8(ascii: "-") || byte == UInt8(ascii: ".")
    }
}
