import Dispatch
import Foundation
import JewzHTTPCore
import JewzSandbox
import JewzTestSupport
import Synchronization
import Testing

/// How responses reach their processors: the cycle's, else the session's, else the registry's
/// for the Content-Type, and how their failures are named.
@Suite struct ResponseProcessingTests {
    @Test func sessionProcessorsBackCyclesThatHaveNone() async throws {
        try await withSandbox { sandbox, session in
            let sessionProcessor = CountingProcessor()
            try session.update { $0.requestProcessors = [sessionProcessor] }
            let cycle = try HTTPCycle(sandbox.url("/inspect"), method: .get, session: session)
            #expect(cycle.options.requestProcessors == nil)
            try await cycle.start()
            #expect(try Inspection(cycle.response).values("X-Prepared") == ["yes"])
            #expect(sessionProcessor.runs == 1)

            let own = CountingProcessor()
            cycle.options.requestProcessors = [own]
            try await cycle.start()
            #expect(own.runs == 1)
            #expect(sessionProcessor.runs == 1)
        }
    }

    @Test func theRegistryProcessesResponsesByContentType() async throws {
        try await withSandbox { sandbox, session in
            try session.update { try $0.processorRegistry.register(TaggingProcessor(tag: "csv"), for: "text/csv") }
            let response = try await HTTPCycle.get(sandbox.url("/csv"), session: session)
            #expect(response.object as? String == "csv")

            // Explicit processors beat the registry; an empty list turns processing off.
            let explicit = try await HTTPCycle.get(sandbox.url("/csv"), options: .init(responseProcessors: [TaggingProcessor(tag: "mine")]), session: session)
            #expect(explicit.object as? String == "mine")
            let none = try await HTTPCycle.get(sandbox.url("/csv"), options: .init(responseProcessors: []), session: session)
            #expect(none.object == nil)
        }
    }

    @Test func aRequestCanOptOutOrForceTheContentType() async throws {
        try await withSandbox { sandbox, session in
            try session.update { try $0.processorRegistry.register(TaggingProcessor(tag: "csv"), for: "text/csv") }
            let optOut = try HTTPCycle(sandbox.url("/csv"), method: .get, session: session)
            optOut.options.responseProcessors = []
            try await optOut.start()
            #expect(optOut.response?.object == nil)

            let forced = try HTTPCycle(sandbox.url("/hello/"), method: .get, session: session)
            forced.options.responseContentTypeOverride = "text/csv"
            try await forced.start()
            #expect(forced.response?.object as? String == "csv")
        }
    }

    @Test func processorErrorsNameTheProcessorAndCarryTheResponse() async throws {
        struct Failing: HTTPResponseProcessor {
            struct Broken: Error {}
            func process(_ response: inout HTTPResponse) throws { throw Broken() }
        }
        try await withSandbox { sandbox, session in
            let error = await httpError {
                _ = try await HTTPCycle.get(sandbox.url("/hello/"), options: .init(responseProcessors: [Failing()]), session: session)
            }
            guard let error, error.code == .processor else {
                Issue.record("got \(String(describing: error))")
                return
            }
            #expect(error.description.hasPrefix("Failing failed"))
            #expect(error.underlying is Failing.Broken)
            // A one-call form's caller has no cycle: the body it could not read comes with the error.
            #expect(error.response?.statusCode == 200)
            #expect(error.response?.text == "Hello World")
        }
    }
}
