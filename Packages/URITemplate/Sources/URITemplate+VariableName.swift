extension URITemplate {
    /// `name` spelled as a template variable: the characters RFC 6570 names cannot hold
    /// (`-`, `$`, `@`, a dot at either end…) percent-encoded, so that an API's `page-size`
    /// becomes `{page%2Dsize}`. A name that is valid already comes back unchanged.
    ///
    /// Expansion looks values up by the spelled name; ``variableNames`` lists it too.
    public static func variableName(for name: String) -> String {
        let bytes = Array(name.utf8)
        func isKept(_ index: Int) -> Bool {
            let byte = bytes[index]
            guard byte == .dot else { return URIEncoding.isVariableCharacter(byte) }
            return index > 0 && index < bytes.count - 1 && bytes[index - 1] != .dot
        }
        guard !bytes.indices.allSatisfy(isKept) else { return name }
        var spelled: [UInt8] = []
        for index in bytes.indices {
            if isKept(index) { spelled.append(bytes[index]) } else { URIEncoding.appendPercentEncoded(bytes[index], to: &spelled) }
        }
        return String(decoding: spelled, as: UTF8.self)
    }
}
