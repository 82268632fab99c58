extension URLSessionExchange {
    /// The `Set-Cookie` fields in `values`, where a transport that merges repeated fields
    /// (FoundationNetworking, and it alone) joined several with commas: a comma starts a new
    /// field only when what follows reads `name=`, so an `Expires` date's comma stays inside its
    /// field. A guess only such a transport needs: a value with `, x=` in it is split.
    static func setCookieFields(in values: [String]) -> [String] {
        var fields: [String] = []
        for value in values {
            for (index, piece) in value.split(separator: ",", omittingEmptySubsequences: false).enumerated() {
                let trimmed = piece.drop { $0 == " " }
                let name = trimmed.prefix { $0 != "=" && $0 != ";" && $0 != " " && $0 != "," }
                let startsACookie = !name.isEmpty && trimmed.dropFirst(name.count).first == "="
                if startsACookie || index == 0 {
                    fields.append(String(trimmed))
                } else {
                    fields[fields.count - 1] += "," + piece
                }
            }
        }
        return fields
    }
}
