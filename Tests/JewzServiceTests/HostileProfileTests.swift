import Foundation
import JewzService
import JewzTestSupport
import Testing

/// Profiles are fetched from servers: a document built to exhaust the reader fails fast with a
/// short, typed error.
@Suite struct HostileProfileTests {
    @Test func aliasesThatExpandToABillionValuesAreRefused() throws {
        var lines = ["openapi: 3.0.0", "l0: &l0 [x, x, x, x, x, x, x, x, x, x]"]
        for level in 1..<9 { lines.append("l\(level): &l\(level) [" + Array(repeating: "*l\(level - 1)", count: 10).joined(separator: ", ") + "]") }
        let document = Data(lines.joined(separator: "\n").utf8)
        let error = #expect(throws: ServiceError.self) { try ServiceProfile(data: document) }
        let outcome = error?.description
        #expect(outcome?.contains("its aliases expand it past") == true, "\(String(describing: outcome))")
    }

    @Test func deepNestingIsRefusedWithAShortMessage() throws {
        for document in [String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000),
                         "openapi: 3.0.0\npaths: " + String(repeating: "{a: ", count: 300) + "1" + String(repeating: "}", count: 300)] {
            let error = #expect(throws: ServiceError.self) { try ServiceProfile(data: Data(document.utf8)) }
            #expect(error?.code == .unreadableProfile)
            #expect((error?.description.count ?? .max) < 600, "\(error?.description.prefix(700) ?? "")")
        }
    }

    @Test func aliasesWithinTheBudgetStillWork() throws {
        let document = """
            openapi: 3.0.3
            servers: [{url: "https://api.example"}]
            components:
              parameters:
                Limit: &limit {name: limit, in: query, schema: {type: integer}}
            paths:
              /a: {get: {operationId: a, parameters: [*limit]}}
              /b: {get: {operationId: b, parameters: [*limit]}}
            """
        let profile = try ServiceProfile(data: Data(document.utf8))
        #expect(profile.resource(named: "a")?.template.template == "/a{?limit}")
        #expect(profile.resource(named: "b")?.template.template == "/b{?limit}")
    }

    /// ProfileFuzzer's finding (2026-11-25): Yams read `+333333:3:33:3:33:3:3:3:3` as a base-60
    /// integer (YAML 1.1) and trapped when it overflowed. Such values are text now, as YAML 1.2
    /// (OpenAPI 3.1's) reads them.
    @Test func aBase60IntegerIsTextNotATrap() throws {
        let error = #expect(throws: ServiceError.self) { try ServiceProfile(data: Data("+333333:3:33:3:33:3:3:3:3".utf8)) }
        #expect(error?.code == .invalidProfile, "\(String(describing: error))")
        let document = """
            BaseURL: "https://api.example"
            Headers: {X-Window: 1:30, X-Huge: 99999999:59:59:59:59:59:59}
            Resources: [{Name: a, URITemplate: /a}]
            """
        let profile = try ServiceProfile(data: Data(document.utf8))
        #expect(profile.headers["X-Window"] == "1:30")
        #expect(profile.headers["X-Huge"] == "99999999:59:59:59:59:59:59")
    }

    /// ProfileFuzzer's finding: Yams's constructor trapped on a mapping key that is itself a
    /// mapping (`{ [{…}]: … }`), which a profile's bytes from a server could hold.
    @Test func aKeyThatIsAListOrAMappingIsAnErrorNotATrap() {
        for document in [#"{"Environments": { [{"Name": "search"}]: 1 }}"#, "? [a, b]\n: c\n", "? {a: b}\n: c\n"] {
            let error = #expect(throws: ServiceError.self) { try ServiceProfile(data: Data(document.utf8)) }
            #expect(error?.code == .unreadableProfile)
            #expect(error?.description.contains("is a list or a mapping") == true, "\(String(describing: error))")
        }
    }

    /// ProfileFuzzer's finding (2026-11-25, LeakSanitizer): `PropertyListSerialization` leaked
    /// the error of every property list it rejected. Property lists are read by
    /// `PropertyListDecoder` now, whose parser also says where the list went wrong.
    @Test func aBrokenPropertyListSaysWhereAndNestingIsBounded() throws {
        let broken = #"<?xml version="1.0" encoding="UTF-8"?><plist version="1.0"><dict><key>BaseURL</key></dict></plist>"#
        let error = #expect(throws: ServiceError.self) { try ServiceProfile(data: Data(broken.utf8)) }
        #expect(error?.code == .unreadableProfile)
        #expect(error?.description.contains("at line 1") == true, "\(String(describing: error))")

        let deep = "<plist version=\"1.0\">" + String(repeating: "<array>", count: 300) + String(repeating: "</array>", count: 300) + "</plist>"
        let nested = #expect(throws: ServiceError.self) { try ServiceProfile(data: Data(deep.utf8)) }
        #expect(nested?.description.contains("nests deeper than") == true, "\(String(describing: nested))")
    }
}
