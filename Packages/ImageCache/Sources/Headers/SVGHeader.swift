import Foundation

/// SVG: XML text whose root element is `svg`, after any XML declaration, comments and
/// doctype. Its size is the root's `width` and `height` in user units (plain numbers or
/// `px`), else its `viewBox`'s; a drawing that states neither, or only relative units, has none.
enum SVGHeader {
    /// How much of the text is read to find the root element.
    private static let window = 4_096

    /// The root element's start tag, when the text is an SVG document.
    static func rootTag(_ bytes: UnsafeRawBufferPointer) -> Substring? {
        var text = Substring(String(decoding: UnsafeRawBufferPointer(rebasing: bytes.prefix(window)), as: UTF8.self))
        if text.hasPrefix("\u{FEFF}") { text = text.dropFirst() }
        while true {
            text = text.drop { $0.isWhitespace }
            if text.hasPrefix("<?") {
                guard let end = text.range(of: "?>") else { return nil }
                text = text[end.upperBound...]
            } else if text.hasPrefix("<!--") {
                guard let end = text.range(of: "-->") else { return nil }
                text = text[end.upperBound...]
            } else if text.hasPrefix("<!") {
                guard let end = text.firstIndex(of: ">") else { return nil }
                text = text[text.index(after: end)...]
            } else {
                break
            }
        }
        guard text.hasPrefix("<svg") || text.hasPrefix("<svg:svg") else { return nil }
        guard let end = text.firstIndex(of: ">") else { return text }
        return text[..<end]
    }

    /// The size the root tag states, or `nil`.
    static func pixelSize(rootTag tag: Substring) -> PixelSize? {
        if let width = attribute("width", in: tag).flatMap(userUnits).flatMap(pixels),
            let height = attribute("height", in: tag).flatMap(userUnits).flatMap(pixels)
        {
            return PixelSize(width: width, height: height)
        }
        guard let box = attribute("viewBox", in: tag) else { return nil }
        let numbers = box.split { $0 == " " || $0 == "," }.compactMap { Double($0) }
        guard numbers.count == 4, let width = pixels(numbers[2]), let height = pixels(numbers[3]) else { return nil }
        return PixelSize(width: width, height: height)
    }

    /// A side in whole pixels, rounded up; `nil` unless it is above zero and below a billion,
    /// so that no number an SVG states can trap the conversion to `Int`.
    private static func pixels(_ length: Double) -> Int? {
        guard length > 0, length < 1e9 else { return nil }
        return Int(length.rounded(.up))
    }

    /// An attribute's value in a start tag, single- or double-quoted.
    private static func attribute(_ name: String, in tag: Substring) -> Substring? {
        var rest = tag
        while let found = rest.range(of: name + "=") {
            let before = rest[..<found.lowerBound].last
            rest = rest[found.upperBound...]
            guard before == nil || before?.isWhitespace == true, let quote = rest.first, quote == "\"" || quote == "'" else { continue }
            let value = rest.dropFirst()
            guard let end = value.firstIndex(of: quote) else { return nil }
            return value[..<end]
        }
        return nil
    }

    /// A length in user units: a plain number or pixels; `nil` for relative units.
    private static func userUnits(_ value: Substring) -> Double? {
        let number = value.hasSuffix("px") ? value.dropLast(2) : value
        return Double(number.trimmingCharacters(in: .whitespaces))
    }
}
