extension String {
    /// The text with C0 and C1 controls and DEL written as escapes (`\n`, `\r`, `\t`,
    /// `\u{1B}`): what a server or a user sent, shown in a message, stays one line and never
    /// becomes a terminal command.
    package var escapingControlCharacters: String {
        var result = ""
        result.reserveCapacity(utf8.count)
        for scalar in unicodeScalars {
            switch scalar {
            case "\n": result += "\\n"
            case "\r": result += "\\r"
            case "\t": result += "\\t"
            case "\u{00}"..."\u{1F}", "\u{7F}"..."\u{9F}": result += "\\u{\(String(scalar.value, radix: 16, uppercase: true))}"
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result
    }
}
