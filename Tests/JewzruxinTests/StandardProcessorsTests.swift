import Foundation
import JewzSandbox
import JewzTestSupport
import Jewzruxin
import Testing

/// Counts CSV lines: a user's own processor.
struct LineCountingProcessor: HTTPProcessor {
    func process(_ response: inout HTTPResponse) throws {
        response.object = response.text?.split(separator: "\n").count
    }
}

@Suite struct StandardProcessorsTests {
    @Test func importingTheUmbrellaRegistersJSONAndForm() {
        #expect(ProcessorRegistry.shared.processor(forContentType: "application/json") is HTTPJSONProcessor)
        #expect(ProcessorRegistry.shared.processor(forContentType: "application/hal+json; charset=utf-8") is HTTPJSONProcessor)
        #expect(ProcessorRegistry.shared.processor(forContentType: "application/x-www-form-urlencoded") is HTTPFormProcessor)
    }

    @Test func responsesAreParsedAutomaticallyWithTheDefaultSessionSetup() async throws {
        try await withSandbox(registry: .shared) { sandbox, session in
            let cycle = try await HTTPCycle.get(sandbox.url("/json"), session: session)
            #expect(cycle.response?.json?["items"][1]["title"] == "Wörld")
        }
    }

    @Test func aUsersProcessorIsAppliedAutomaticallyOnceRegistered() async throws {
        let registry = ProcessorRegistry()
        try registry.register(LineCountingProcessor(), for: "text/csv")
        try await withSandbox(registry: registry) { sandbox, session in
            let cycle = try await HTTPCycle.get(sandbox.url("/csv"), session: session)
            #expect(cycle.response?.object as? Int == 3)
        }
    }
}
