import Foundation

/// A property list (XML or binary) as the tree of dictionaries, arrays and scalars a profile is
/// read from.
///
/// Read with `PropertyListDecoder` (swift-foundation's own parsers), not
/// `PropertyListSerialization`: on Linux the latter leaks the `CFError` of every property list
/// it rejects, about 640 bytes each (200,000 rejected lists grew a process by 250 MB), and a
/// profile may come from a server.
struct PropertyListTree: Decodable {
    let value: Any

    /// The tree `data` holds.
    ///
    /// - Throws: the decoder's error for bytes that are no property list, and one of ours for a
    ///   list nested deeper than `ProfileDocument.maximumDepth`.
    static func parse(_ data: Data) throws -> Any {
        try PropertyListDecoder().decode(PropertyListTree.self, from: data).value
    }

    init(from decoder: any Decoder) throws {
        guard decoder.codingPath.count < ProfileDocument.maximumDepth else {
            throw DecodingError.dataCorrupted(
                .init(codingPath: [], debugDescription: "it nests deeper than \(ProfileDocument.maximumDepth) levels"))
        }
        if let table = try? decoder.container(keyedBy: Key.self) {
            var dictionary: [String: Any] = [:]
            for key in table.allKeys {
                dictionary[key.stringValue] = try table.decode(PropertyListTree.self, forKey: key).value
            }
            value = dictionary
        } else if var list = try? decoder.unkeyedContainer() {
            var array: [Any] = []
            while !list.isAtEnd { array.append(try list.decode(PropertyListTree.self).value) }
            value = array
        } else {
            value = try Self.scalar(in: decoder.singleValueContainer())
        }
    }

    /// The scalar's own type: the decoder refuses a type the element is not (`<integer>` as a
    /// string, `<true/>` as a number), so the first that decodes is the element's.
    private static func scalar(in container: any SingleValueDecodingContainer) throws -> Any {
        if let flag = try? container.decode(Bool.self) { return flag }
        if let integer = try? container.decode(Int.self) { return integer }
        if let real = try? container.decode(Double.self) { return real }
        if let text = try? container.decode(String.self) { return text }
        if let date = try? container.decode(Date.self) { return date }
        return try container.decode(Data.self)
    }

    private struct Key: CodingKey {
        let stringValue: String
        var intValue: Int? { nil }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }
}
