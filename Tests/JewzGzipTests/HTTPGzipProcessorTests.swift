import Foundation
import JewzGzip
import JewzHTTPCore
import JewzSandbox
import JewzTestSupport
import Testing

/// A Sandbox session whose content-coding registry knows gzip and deflate.
func withGzipSandbox(_ body: (Sandbox, HTTPSession) async throws -> Void) async throws {
    var codings = ContentCodingRegistry()
    codings.register(HTTPGzipProcessor(), for: HTTPGzipProcessor.codings)
    try await withSandbox(contentCodings: codings, body)
}

@Suite struct HTTPGzipProcessorTests {
    @Test(arguments: ["gzip", "x-gzip", "deflate", "raw-deflate", "gzip,deflate", "deflate,gzip,raw-deflate"])
    func encodedResponsesAreDecodedAutomatically(_ coding: String) async throws {
        try await withGzipSandbox { sandbox, session in
            let response = try await HTTPCycle.get(
                sandbox.url("/encoded"), parameters: ["coding": "\(coding)", "content": "Grüße ", "repeat": 5000], session: session)
            #expect(response.text == String(repeating: "Grüße ", count: 5000))
        }
    }

    /// #27 defect 4: 12,000 stacked codings once built 12,000 decoders with their buffers.
    @Test func stackedCodingsAreCappedAtFive() async throws {
        var codings = ContentCodingRegistry()
        codings.register(HTTPGzipProcessor(), for: HTTPGzipProcessor.codings)
        let header = Array(repeating: "gzip", count: 12_000).joined(separator: ", ")
        try await withScriptedServer(contentCodings: codings, { _ in
            [.send(responseHead("HTTP/1.1 200 OK", ["Content-Encoding: \(header)", "Content-Length: 4"]) + "abcd")]
        }) { server, session in
            let error = await httpError { try await HTTPCycle.get(server.url("/"), session: session) }
            #expect(error?.code == .contentDecoding)
            #expect(error?.description.contains("at most 5") == true, "\(String(describing: error))")
        }
    }

    @Test func acceptEncodingIsAdvertisedUnlessSet() async throws {
        try await withGzipSandbox { sandbox, session in
            let response = try await HTTPCycle.get(sandbox.url("/inspect"), session: session)
            #expect(try Inspection(response).values("Accept-Encoding") == ["gzip, x-gzip, deflate"])
            let own = try HTTPCycle(sandbox.url("/inspect"), method: .get, session: session)
            own.request.headers["Accept-Encoding"] = "identity"
            try await own.start()
            #expect(try Inspection(own.response).values("Accept-Encoding") == ["identity"])
        }
    }

    @Test func withoutADecoderTheBodyStaysEncoded() async throws {
        try await withSandbox { sandbox, session in
            let response = try await HTTPCycle.get(sandbox.url("/encoded"), parameters: ["content": "abc"], session: session)
            #expect(response.data.prefix(2) == Data([0x1F, 0x8B]))
            #expect(try Gzip.decompress(response.data ) == Data("abc".utf8))
        }
    }

    @Test(arguments: [("truncate", GzipError.truncated), ("garbage", GzipError.trailingData)])
    func brokenStreamsFailTheCycle(_ flaw: String, _ expected: GzipError) async throws {
        try await withGzipSandbox { sandbox, session in
            let error = await httpError {
                _ = try await HTTPCycle.get(sandbox.url("/encoded"), parameters: QueryParameters([("content", QueryValue("abc")), (flaw, QueryValue(1))]), session: session)
            }
            guard let error, error.code == .contentDecoding else {
                Issue.record("got \(String(describing: error))")
                return
            }
            #expect(error.description.hasPrefix("The gzip-encoded body"))
            #expect(error.underlying as? GzipError == expected)
        }
    }

    @Test func aGibibyteBombFailsFastWithAClearError() async throws {
        try await withGzipSandbox { sandbox, session in
            let clock = ContinuousClock()
            _ = try? await HTTPCycle.get(sandbox.url("/bomb/1024"), session: session)  // builds the server's cached bomb
            let started = clock.now
            let error = await httpError { _ = try await HTTPCycle.get(sandbox.url("/bomb/1024"), session: session) }
            guard let error, error.code == .contentDecoding else {
                Issue.record("got \(String(describing: error))")
                return
            }
            #expect(error.underlying as? GzipError == .expansionRatioExceeded(limit: 200))
            // The ratio error proves decoding stopped early; the bound only catches a pathological
            // slowdown, with room for a loaded CI machine.
            #expect(clock.now - started < .seconds(60))
        }
    }

    @Test func requestBodiesAreCompressedOnRequest() async throws {
        try await withGzipSandbox { sandbox, session in
            let original = Data(String(repeating: "compress me ", count: 1000).utf8)
            let cycle = try HTTPCycle(sandbox.url("/inspect"), method: .post, session: session)
            cycle.request.data = original
            cycle.options.requestProcessors = [HTTPGzipProcessor()]
            try await cycle.start()
            let inspection = try Inspection(cycle.response)
            #expect(inspection.values("Content-Encoding") == ["gzip"])
            #expect(inspection.bodyLength < original.count / 10)

            let echoed = try HTTPCycle(sandbox.url("/dumpupload/"), method: .post, session: session)
            echoed.request.data = original
            echoed.options.requestProcessors = [HTTPGzipProcessor()]
            try await echoed.start()
            #expect(try Gzip.decompress(echoed.response?.data ?? Data()) == original)
        }
    }
}
