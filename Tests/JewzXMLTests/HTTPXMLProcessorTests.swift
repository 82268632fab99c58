import Foundation
import JewzHTTPCore
import JewzSandbox
import JewzTestSupport
import JewzXML
import Testing

func withXMLSandbox(_ body: (Sandbox, HTTPSession) async throws -> Void) async throws {
    var registry = ProcessorRegistry()
    try registry.register(HTTPXMLProcessor(), for: HTTPXMLProcessor.mediaTypePatterns)
    try await withSandbox(registry: registry, body)
}

@Suite struct HTTPXMLProcessorTests {
    @Test func xmlResponsesAreParsedThroughTheRegistry() async throws {
        try await withXMLSandbox { sandbox, session in
            let response = try await HTTPCycle.get(sandbox.url("/xml"), session: session)
            let tree = try #require(response.xml)
            #expect(try tree.nodes(forXPath: "//j:item[@id='2']").first?.text == "World & more")
            for type in ["text/xml; charset=utf-8", "application/atom+xml"] {
                let echoed = try await HTTPCycle.get(
                    sandbox.url("/echo/"), parameters: ["content": "<r a=\"1\"/>", "header": "Content-Type: \(type)"], session: session)
                #expect(echoed.xml?.root[attribute: "a"] == "1")
            }
        }
    }

    @Test func treesAreSentAsXML() async throws {
        try await withXMLSandbox { sandbox, session in
            let order = XMLTree.Element(name: "order", attributes: [.init(name: "id", value: "7")], children: [.text("Zoë & co")])
            let response = try await HTTPCycle.post(
                sandbox.url("/dumpupload/"), requestObject: order, options: .init(requestProcessors: [HTTPXMLProcessor()]), session: session)
            #expect(response.headers["Content-Type"] == "application/xml; charset=utf-8")
            #expect(response.xml?.root == order)
        }
    }

    @Test func brokenXMLFailsTheCycleWithLineAndColumn() async throws {
        try await withXMLSandbox { sandbox, session in
            let error = await httpError {
                _ = try await HTTPCycle.get(
                    sandbox.url("/echo/"), parameters: ["content": "<a>\n  <b></a>", "header": "Content-Type: application/xml"],
                    session: session)
            }
            let underlying = try #require(error?.underlying as? XMLError, "got \(String(describing: error))")
            #expect(error?.code == .processor)
            #expect(error?.description.hasPrefix("HTTPXMLProcessor failed") == true)
            #expect(underlying.code == .syntax)
            #expect(underlying.line == 2)
        }
    }

    @Test func aDTDOnTheNetworkIsNeverFetched() async throws {
        try await withXMLSandbox { sandbox, session in
            let dtd = sandbox.url("/counter?key=dtd&fail=0")
            _ = try XMLTree(string: #"<!DOCTYPE r SYSTEM "\#(dtd)"><r/>"#)
            let probe = try await HTTPCycle.get(dtd, session: session)
            #expect(probe.text == "attempt 1 succeeds")
        }
    }
}
