import Foundation
import JewzHTTPCore
import JewzJSON
import JewzTestSupport
import Testing

/// `JSONValue` to and from the `[String: Any]` form `JSONSerialization` reads and writes, for
/// code ported from it.
@Suite struct FoundationFormTests {
    private let document = #"{"id": 7, "big": 123456789012345678901234567890, "ratio": 0.25, "ok": true, "none": null, "tags": ["a", 1, false], "nested": {"x": -3}}"#

    @Test func aDocumentReadsAsJSONSerializationWouldGiveIt() throws {
        let value = try JSONValue(parsing: document)
        let dictionary = try #require(value.foundationDictionary)
        #expect(dictionary["id"] as? Int == 7)
        #expect(dictionary["big"] as? Decimal == Decimal(string: "123456789012345678901234567890"))
        #expect(dictionary["ratio"] as? Double == 0.25)
        #expect(dictionary["ok"] as? Bool == true)
        #expect(dictionary["none"] is NSNull)
        let tags = try #require(dictionary["tags"] as? [Any])
        #expect(tags[0] as? String == "a" && tags[1] as? Int == 1 && tags[2] as? Bool == false)
        #expect((dictionary["nested"] as? [String: Any])?["x"] as? Int == -3)
        #expect(value["tags"].foundationArray?.count == 3)
        #expect(value["id"].foundationDictionary == nil)
        // What JSONSerialization writes of it parses back to the same document.
        let written = try JSONSerialization.data(withJSONObject: value.foundationObject, options: [.sortedKeys])
        #expect(try JSONValue(parsing: written)["tags"] == value["tags"])
    }

    /// `JSONSerialization`'s numbers are `NSNumber`s, whose `1` casts to `true`: they come back
    /// as the numbers and Booleans they were.
    @Test func whatJSONSerializationReadsConvertsBackExactly() throws {
        let text = #"{"one": 1, "yes": true, "zero": 0, "no": false, "half": 0.5, "large": 18446744073709551615, "negative": -9223372036854775808}"#
        let foundation = try JSONSerialization.jsonObject(with: Data(text.utf8))
        let converted = try JSONValue(converting: foundation)
        #expect(converted == (try JSONValue(parsing: text)).sortedForComparison)
        #expect(converted["one"] == 1 && converted["zero"] == 0)
        #expect(converted["yes"] == true && converted["no"] == false)
        #expect(converted["large"].number?.text == "18446744073709551615")
        // And a round trip through the Foundation form keeps the document.
        let original = try JSONValue(parsing: document)
        #expect(try JSONValue(converting: original.foundationObject) == original.sortedForComparison)
    }

    @Test func aResponseBodyReadsAsADictionary() async throws {
        try await withJSONSandbox { sandbox, session in
            let response = try await HTTPCycle.get(sandbox.url("/json"), session: session)
            let object = try #require(response.jsonObject as? [String: Any])
            #expect(object["name"] as? String == "Jewzruxin")
        }
    }
}

extension JSONValue {
    /// The value with object members sorted by key, as ``JSONValue/init(converting:)`` makes
    /// them from a dictionary.
    fileprivate var sortedForComparison: JSONValue {
        switch self {
        case .array(let elements): .array(elements.map(\.sortedForComparison))
        case .object(let object): .object(JSONObject(object.members.sorted { $0.key < $1.key }.map { ($0.key, $0.value.sortedForComparison) }))
        default: self
        }
    }
}
