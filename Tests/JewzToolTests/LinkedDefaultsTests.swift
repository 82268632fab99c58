import Foundation
import JewzSandbox
import JewzTestSupport
import Testing

/// What a program gets for linking the umbrella, and what one built from single modules does not.
@Suite struct LinkedDefaultsTests {
    /// `jewz` links the umbrella and calls nothing to register: JSON is parsed and the
    /// decoders are advertised.
    @Test func aProgramLinkingTheUmbrellaParsesWithoutACall() async throws {
        try await withSandbox { sandbox, _ in
            let parsed = try await runJewz(["--parsed", sandbox.url("/json")])
            #expect(parsed.status == 0, "\(parsed.error)")
            #expect(parsed.output.contains(#""title": "Wörld""#), "\(parsed.output)")
            let verbose = try await runJewz(["-v", sandbox.url("/hello/")])
            #expect((verbose.output + verbose.error).contains("Accept-Encoding: gzip, x-gzip, deflate, br"), "\(verbose.error)")
        }
    }

    /// A program built from JewzHTTPCore alone links without the umbrella's hook: its shared
    /// registries are empty, and the first JSON response it cannot parse says what to add, once.
    @Test func aProgramFromSingleModulesIsToldOnceWhatToAdd() async throws {
        try await withSandbox { sandbox, _ in
            let run = try await runJewz([sandbox.url("/json"), "3"], executable: builtExecutable("CoreOnlyProbe"))
            #expect(run.status == 0, "\(run.error)")
            #expect(run.output.split(separator: "\n") == [
                "codings: []",
                "200 application/json parsed: false",
                "200 application/json parsed: false",
                "200 application/json parsed: false",
            ])
            let warnings = run.error.split(separator: "\n").filter { $0.contains("was not parsed") }
            #expect(warnings.count == 1, "\(run.error)")
            #expect(warnings.first?.contains(
                "A response of type application/json was not parsed (response.object is nil): no processor is registered for it. "
                    + "Depend on the umbrella module Jewzruxin, which registers the standard processors, or register JewzJSON's: "
                    + "try session.update { try $0.processorRegistry.register(HTTPJSONProcessor(), for: HTTPJSONProcessor.mediaTypePatterns) }. Told once.") == true)
        }
    }
}
