import Foundation
import JewzHTTPCore
import JewzJSON
import JewzSandbox
import JewzTestSupport
import Testing

/// Newline-delimited JSON: typed as it streams, and parsed whole by the processor.
@Suite struct JSONLinesTests {
    struct Line: Decodable, Equatable {
        var index: Int
        var text: String
    }

    @Test func eachLineIsDecodedAsItArrives() async throws {
        try await withSandbox { sandbox, session in
            let cycle = HTTPCycle(requestURL: try #require(URL(string: sandbox.url("/ndjson?count=4&interval=5"))), session: session)
            let body = try await cycle.startStreaming().body
            var lines: [Line] = []
            for try await line in body.jsonLines(as: Line.self) { lines.append(line) }
            #expect(lines == (0..<4).map { Line(index: $0, text: "line \($0)") })
        }
    }

    @Test func aLineThatIsNoValueNamesItsNumber() async throws {
        try await withScriptedServer({ _ in
            let body = "{\"index\":0,\"text\":\"a\"}\n\n{\"index\":\"one\"}\n"
            return [.send(responseHead("HTTP/1.1 200 OK", ["Content-Type: application/x-ndjson", "Content-Length: \(body.utf8.count)"]) + body)]
        }) { server, session in
            let body = try await HTTPCycle(requestURL: try #require(URL(string: server.url("/"))), session: session).startStreaming().body
            var decoded = 0
            let error = await #expect(throws: HTTPError.self) {
                for try await _ in body.jsonLines(as: Line.self) { decoded += 1 }
            }
            #expect(decoded == 1)
            #expect(error?.code == .processor)
            #expect(error?.description.contains("on line 3") == true, "\(String(describing: error))")
            #expect(error?.underlying is DecodingError)
        }
    }

    @Test func theProcessorReadsAndWritesWholeBodies() async throws {
        var registry = ProcessorRegistry()
        try registry.register(HTTPJSONLinesProcessor(), for: HTTPJSONLinesProcessor.mediaTypePatterns)
        try await withSandbox(registry: registry) { sandbox, session in
            let response = try await HTTPCycle.get(sandbox.url("/ndjson?count=3"), session: session)
            let values = try #require(response.object as? [JSONValue])
            #expect(values.map { $0["index"].int } == [0, 1, 2])
            let sent = try await HTTPCycle.post(
                sandbox.url("/dumpupload/"), requestObject: [["a": 1], ["b": [true]]] as [JSONValue],
                options: .init(requestProcessors: [HTTPJSONLinesProcessor()]), session: session)
            #expect(sent.text == "{\"a\":1}\n{\"b\":[true]}\n")
            #expect(sent.headers["Content-Type"] == "application/x-ndjson")
        }
        var broken = HTTPResponse(statusCode: 200, body: HTTPResponseBody(Data("{\"a\":1}\n\n{\"b\":\n".utf8)))
        let error = #expect(throws: JSONError.self) { try HTTPJSONLinesProcessor().process(&broken) }
        #expect(error?.code == .syntax)
        #expect(error?.line == 3 && error?.column == 6)
    }
}
