import Foundation
import JewzSandbox
import JewzTestSupport
import Jewzruxin
import Testing

/// Counts CSV lines: a user's own processor.
struct LineCountingProcessor: HTTPResponseProcessor {
    func process(_ response: inout HTTPResponse) throws {
        response.object = response.text?.split(separator: "\n").count
    }
}

@Suite struct StandardProcessorsTests {
    @Test func installingRegistersTheProcessorsAndDecodersWhereItIsTold() {
        var registry = ProcessorRegistry()
        var codings = ContentCodingRegistry()
        #expect(registry.processor(forContentType: "application/json") == nil)
        #expect(codings.tokens.isEmpty)
        StandardProcessors.install(in: &registry, codings: &codings)
        #expect(registry.processor(forContentType: "application/json") is HTTPJSONProcessor)
        #expect(registry.processor(forContentType: "application/hal+json; charset=utf-8") is HTTPJSONProcessor)
        #expect(registry.processor(forContentType: "application/x-www-form-urlencoded") is HTTPFormProcessor)
        #expect(registry.objectProcessor is HTTPJSONProcessor)
        #expect(Set(codings.tokens).isSuperset(of: ["gzip", "deflate", "br"]))
        // Again: the same registrations, and a user's own made after it stay.
        try? registry.register(LineCountingProcessor(), for: "text/csv")
        StandardProcessors.install(in: &registry, codings: &codings)
        #expect(registry.processor(forContentType: "text/csv") is LineCountingProcessor)
        #expect(registry.patterns.count == Set(registry.patterns).count)
    }

    @Test func aNewConfigurationHasTheStandardPartsWithoutACall() {
        let configuration = HTTPSession.Configuration()
        #expect(configuration.processorRegistry.processor(forContentType: "application/json") is HTTPJSONProcessor)
        #expect(configuration.processorRegistry.objectProcessor is HTTPJSONProcessor)
        #expect(Set(configuration.contentCodings.tokens).isSuperset(of: ["gzip", "deflate", "br"]))
    }

    @Test func aRegistryIsAValueThatASessionReadsAsItWasWhenACallStarted() throws {
        var configuration = HTTPSession.Configuration()
        let before = configuration.processorRegistry
        try configuration.processorRegistry.register(LineCountingProcessor(), for: "application/json")
        #expect(configuration.processorRegistry.processor(forContentType: "application/json") is LineCountingProcessor)
        #expect(before.processor(forContentType: "application/json") is HTTPJSONProcessor, "a copy does not change")
        #expect(HTTPSession.Configuration().processorRegistry.processor(forContentType: "application/json") is HTTPJSONProcessor,
            "nor does the next configuration's")
    }

    @Test func responsesAreParsedAutomaticallyWithTheDefaultSessionSetup() async throws {
        try await withSandbox(registry: .standard()) { sandbox, session in
            let response = try await HTTPCycle.get(sandbox.url("/json"), session: session)
            #expect(response.json?["items"][1]["title"] == "Wörld")
        }
    }

    @Test func aUsersProcessorIsAppliedAutomaticallyOnceRegistered() async throws {
        var registry = ProcessorRegistry()
        try registry.register(LineCountingProcessor(), for: "text/csv")
        try await withSandbox(registry: registry) { sandbox, session in
            let response = try await HTTPCycle.get(sandbox.url("/csv"), session: session)
            #expect(response.object as? Int == 3)
        }
    }

    struct Greeting: Encodable { let text: String }

    @Test func withTheStandardProcessorsAnObjectWithoutAProcessorGoesAsJSON() async throws {
        try await withSandbox(registry: .standard()) { sandbox, session in
            let encodable = try await HTTPCycle.post(sandbox.url("/inspect"), requestObject: Greeting(text: "hi"), session: session)
            let inspection = try Inspection(encodable)
            #expect(inspection.body == #"{"text":"hi"}"#)
            #expect(inspection.values("Content-Type") == ["application/json"])
            let dictionary = try await HTTPCycle.post(sandbox.url("/inspect"), requestObject: ["n": 1], session: session)
            #expect(try Inspection(dictionary).body == #"{"n":1}"#)
        }
    }
}
