import Foundation
import JewzJSON
import Testing

@Suite struct JSONValueTests {
    @Test func parsesEveryKindAndKeepsMemberOrder() throws {
        let json = try JSONValue(parsing: #" {"z": 1, "a": [true, false, null, -0.5e3, "é\n\u00e9\ud83d\ude00"], "m": {}} "#)
        #expect(json.object?.keys == ["z", "a", "m"])
        #expect(json["z"].int == 1)
        #expect(json["a"][0].bool == true)
        #expect(json["a"][2].isNull)
        #expect(json["a"][3].double == -500)
        #expect(json["a"][4].string == "é\né😀")
        #expect(json["m"].object?.count == 0)
        #expect(json["missing"][3]["deeper"].isNull)
    }

    @Test func bigIntegersAndExactDecimalsSurvive() throws {
        let json = try JSONValue(parsing: "[12345678901234567890, 0.1000000000000000055511151231257827]")
        #expect(json[0].number?.text == "12345678901234567890")
        #expect(json.formatted() == "[12345678901234567890,0.1000000000000000055511151231257827]")
        #expect(json[1].number == JSONNumber(text: "0.1000000000000000055511151231257827"))
    }

    @Test func writesWhatItReadsAndEscapes() throws {
        let value: JSONValue = ["text": "quote \" backslash \\ tab \t nul \u{0} ü", "list": [1, 2.5, nil, true], "empty": [:]]
        let text = value.formatted()
        #expect(text == #"{"text":"quote \" backslash \\ tab \t nul \u0000 ü","list":[1,2.5,null,true],"empty":{}}"#)
        #expect(try JSONValue(parsing: text) == value)
        #expect(value.formatted(pretty: true).contains("\n  \"list\": [\n    1,"))
    }

    @Test(arguments: [
        ("", 1, 1, "unexpected end of input"),
        ("{\"a\": 1,}", 1, 9, "expected a member name"),
        ("[1, 2\n, 3 4]", 2, 5, "expected ',' or ']'"),
        ("{\"a\" 1}", 1, 6, "expected ':'"),
        ("01", 1, 2, "leading zeros"),
        ("[1.]", 1, 4, "after '.'"),
        ("\"abc", 1, 1, "unterminated string"),
        ("\"a\u{1}b\"", 1, 3, "control character"),
        ("\"\\x\"", 1, 2, "invalid escape"),
        ("\"\\ud800\"", 1, 2, "surrogate"),
        ("tru", 1, 1, "expected a value"),
        ("{} []", 1, 4, "after the JSON value"),
    ])
    func syntaxErrorsSayWhere(_ text: String, _ line: Int, _ column: Int, _ reason: String) {
        let error = #expect(throws: JSONError.self) { try JSONValue(parsing: text) }
        #expect(error?.code == .syntax)
        #expect(error?.reason.contains(reason) == true)
        #expect(error?.line == line && error?.column == column)
        #expect((error?.excerpt?.count ?? .max) <= 42)
    }

    @Test func repeatedKeysResolveToTheLastValueAndRoundTrip() throws {
        let text = #"{"tag":"a","other":"","tag":"b/é&?"}"#
        let json = try JSONValue(parsing: text)
        #expect(json["tag"] == "b/é&?")
        #expect(json.object?.keys == ["tag", "other", "tag"])
        #expect(json.formatted() == text)
    }

    @Test func invalidUTF8IsAnError() {
        #expect(throws: JSONError.self) { try JSONValue(parsing: [0x22, 0xFF, 0x22]) }
    }

    @Test func deepNestingFailsFastInsteadOfOverflowingTheStack() {
        let hostile = String(repeating: "[", count: 100_000)
        #expect(throws: JSONError.tooDeep(limit: 512, line: 1, column: 513)) { try JSONValue(parsing: hostile) }
        #expect(throws: Never.self) { try JSONValue(parsing: String(repeating: "[", count: 20) + String(repeating: "]", count: 20), maximumDepth: 20) }
    }

    @Test func convertsPlainSwiftValues() throws {
        let value = try JSONValue(converting: ["b": [1, "x", nil, true] as [Any?], "a": 2.5] as [String: Any])
        #expect(value.formatted() == #"{"a":2.5,"b":[1,"x",null,true]}"#)
        #expect(throws: JSONError.nonFiniteNumber) { try JSONValue(converting: Double.nan) }
        #expect(throws: JSONError.self) { try JSONValue(converting: Date()) }
    }

    @Test func codableRoundTrip() throws {
        let value: JSONValue = ["n": 3, "s": "x", "l": [true, nil]]
        let data = try JSONEncoder().encode(value)
        #expect(try JSONDecoder().decode(JSONValue.self, from: data)["l"] == [true, nil])
    }
}
