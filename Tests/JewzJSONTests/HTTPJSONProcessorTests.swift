import Foundation
import JewzHTTPCore
import JewzJSON
import JewzSandbox
import JewzTestSupport
import Testing

/// A session whose registry knows JSON, against a fresh Sandbox.
func withJSONSandbox(_ body: (Sandbox, HTTPSession) async throws -> Void) async throws {
    var registry = ProcessorRegistry()
    try registry.register(HTTPJSONProcessor(), for: HTTPJSONProcessor.mediaTypePatterns)
    try await withSandbox(registry: registry, body)
}

struct Person: Codable, Equatable {
    var name: String
    var languages: [String]
}

@Suite struct HTTPJSONProcessorTests {
    @Test func aJSONValueRoundTripsThroughTheServerInOrder() async throws {
        try await withJSONSandbox { sandbox, session in
            let sent: JSONValue = ["zeta": "Ωmega 😀", "alpha": ["a&b=c/d?e", "", 1.5, nil], "empty": ""]
            let response = try await HTTPCycle.post(
                sandbox.url("/dumpupload/"), requestObject: sent, options: .init(requestProcessors: [HTTPJSONProcessor()]), session: session)
            #expect(response.headers["Content-Type"] == "application/json")
            #expect(response.json == sent)
            #expect(response.json?.object?.keys == ["zeta", "alpha", "empty"])
        }
    }

    struct Item: Decodable, Equatable {
        var id: Int
        var name: String
        var price: Double
        var tags: [String]
        var active: Bool
    }

    @Test func typedRequestsDecodeTheBodyWithoutBuildingATree() async throws {
        try await withJSONSandbox { sandbox, session in
            let items = try await HTTPCycle.get(sandbox.url("/items/3"), decoding: [Item].self, session: session)
            #expect(items == [
                Item(id: 0, name: "item 0", price: 0.25, tags: ["new", "sale"], active: true),
                Item(id: 1, name: "item 1", price: 1.25, tags: ["new", "sale"], active: false),
                Item(id: 2, name: "item 2", price: 2.25, tags: ["new", "sale"], active: true),
            ])
            // The registry's JSON processor did not run: no tree in `object`, the body is intact.
            let cycle = try HTTPCycle(sandbox.url("/items/2"), method: .get, session: session)
            let two = try await cycle.start(decoding: [Item].self)
            #expect(two.map(\.id) == [0, 1])
            #expect(cycle.response?.object == nil)
            #expect(cycle.response?.statusCode == 200)
            #expect(try cycle.response?.decode([Item].self) == two)
        }
    }

    @Test func aBodyThatIsNotTheModelFailsAsAProcessorError() async throws {
        try await withJSONSandbox { sandbox, session in
            await #expect {
                try await HTTPCycle.get(sandbox.url("/json"), decoding: [Item].self, session: session)
            } throws: { error in
                guard let error = error as? HTTPError, error.code == .processor else { return false }
                // The body that was not an [Item] comes with the error, for the caller to look at.
                return error.description.contains("Item") && error.underlying is DecodingError
                    && error.response?.text?.contains(#""name":"Jewzruxin""#) == true
            }
            // A failing status stays the status error; nothing is decoded.
            await #expect {
                try await HTTPCycle.get(sandbox.url("/status/404"), decoding: [Item].self, session: session)
            } throws: { error in
                (error as? HTTPError)?.statusCode == 404
            }
        }
    }

    @Test func encodableModelsAndTypedDecoding() async throws {
        try await withJSONSandbox { sandbox, session in
            let ada = Person(name: "Ada Lovelace", languages: ["en", "fr"])
            let response = try await HTTPCycle.put(
                sandbox.url("/dumpupload/"), requestObject: ada, options: .init(requestProcessors: [HTTPJSONProcessor()]), session: session)
            #expect(try response.decode(Person.self) == ada)
            #expect(response.json?["languages"][1].string == "fr")
            // A body that is not the type is an HTTPError like every failure of a call, with the response.
            let mismatch = #expect(throws: HTTPError.self) { try response.decode([Person].self) }
            #expect(mismatch?.code == .processor)
            #expect(mismatch?.response?.statusCode == 200)
            #expect(mismatch?.underlying is DecodingError)
        }
    }

    @Test func plainDictionariesAreSent() async throws {
        try await withJSONSandbox { sandbox, session in
            let object: [String: any Sendable] = ["k1": "v1", "k2": 9, "k3": [17, "v3"] as [any Sendable]]
            let response = try await HTTPCycle.post(
                sandbox.url("/dumpupload/"), requestObject: object, options: .init(requestProcessors: [HTTPJSONProcessor()]), session: session)
            #expect(response.text == #"{"k1":"v1","k2":9,"k3":[17,"v3"]}"#)
        }
    }

    @Test func anExplicitContentTypeIsKept() async throws {
        var request = HTTPRequest(url: try #require(URL(string: "http://h/")), object: ["a": 1] as JSONValue)
        request.headers["Content-Type"] = "application/vnd.api+json"
        try HTTPJSONProcessor().prepare(&request)
        #expect(request.headers["Content-Type"] == "application/vnd.api+json")
        #expect(request.data == Data(#"{"a":1}"#.utf8))
    }

    @Test func suffixTypesAreParsedByTheRegistry() async throws {
        try await withJSONSandbox { sandbox, session in
            let cycle = try HTTPCycle(
                sandbox.url("/echo/"), method: .get,
                parameters: ["code": 422, "content": #"{"title":"invalid"}"#, "header": "Content-Type: application/problem+json"],
                session: session)
            await #expect(throws: HTTPError.self) { try await cycle.start() }
            #expect(cycle.response?.json?["title"] == "invalid")
        }
    }

    @Test func anEmptyBodyIsNotAnError() async throws {
        try await withJSONSandbox { sandbox, session in
            let response = try await HTTPCycle.get(
                sandbox.url("/echo/"), parameters: ["code": 204, "header": "Content-Type: application/json"], options: .init(responseProcessors: [HTTPJSONProcessor()]), session: session)
            #expect(response.statusCode == 204)
            #expect(response.object == nil)
        }
    }

    @Test func aBrokenBodySaysWhereItBroke() async throws {
        try await withJSONSandbox { sandbox, session in
            let cycle = try HTTPCycle(
                sandbox.url("/echo/"), method: .get,
                parameters: ["content": "{\"items\": [1,\n 2,,]}", "header": "Content-Type: application/json"], session: session)
            do {
                try await cycle.start()
                Issue.record("a broken body parsed")
            } catch let error as HTTPError where error.code == .processor {
                #expect(error.description.hasPrefix("HTTPJSONProcessor failed"))
                let underlying = try #require(error.underlying as? JSONError, "got \(error)")
                #expect(underlying.code == .syntax)
                #expect(underlying.line == 2 && underlying.column == 4)
                #expect(underlying.excerpt?.contains("2,,]") == true)
            }
            #expect(cycle.response?.statusCode == 200)
        }
    }

    @Test func sessionJSONFeedsTheLargeDocumentPath() async throws {
        try await withJSONSandbox { sandbox, session in
            let items = (0..<20_000).map { JSONValue.object(["id": .number(JSONNumber($0)), "name": "item \($0)"]) }
            let response = try await HTTPCycle.post(
                sandbox.url("/dumpupload/"), requestObject: JSONValue.array(items), options: .init(requestProcessors: [HTTPJSONProcessor()]),
                session: session)
            #expect(response.json?.array?.count == 20_000)
            #expect(response.json?[19_999]["name"] == "item 19999")
        }
    }
}
