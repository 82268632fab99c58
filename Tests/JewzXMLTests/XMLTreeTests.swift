import Foundation
import JewzXML
import Testing

let catalog = """
    <?xml version="1.0" encoding="UTF-8"?>
    <catalog xmlns="urn:default" xmlns:j="urn:jewzruxin" version="2">
      <!-- two items -->
      <j:item id="1" j:rank="high">Hello <b>bold</b> world</j:item>
      <j:item id="2"><![CDATA[a < b && "c"]]></j:item>
      <?render fast?>
    </catalog>
    """

@Suite struct XMLTreeTests {
    @Test func buildsTheTreeWithNamespacesAttributesTextAndCDATA() throws {
        let tree = try XMLTree(string: catalog)
        #expect(tree.root.name == "catalog")
        #expect(tree.root.namespaceURI == "urn:default")
        #expect(tree.root.namespaceDeclarations == [.init(prefix: nil, uri: "urn:default"), .init(prefix: "j", uri: "urn:jewzruxin")])
        let items = tree.root.elements(named: "item")
        #expect(items.count == 2)
        #expect(items[0].prefix == "j")
        #expect(items[0].namespaceURI == "urn:jewzruxin")
        #expect(items[0][attribute: "id"] == "1")
        #expect(items[0][attribute: "j:rank"] == "high")
        #expect(items[0].text == "Hello bold world")
        #expect(items[1].children == [.cdata(#"a < b && "c""#)])
        #expect(tree.root.children.contains(.comment(" two items ")))
        #expect(tree.root.children.contains(.processingInstruction(target: "render", data: "fast")))
    }

    @Test func xpathWithPrefixesFromTheDocumentAndFromTheCaller() throws {
        let tree = try XMLTree(string: catalog)
        #expect(try tree.nodes(forXPath: "//j:item/@id").map(\.text) == ["1", "2"])
        #expect(try tree.nodes(forXPath: "//d:catalog/j:item[@id='2']", namespaces: ["d": "urn:default"]).first?.text == #"a < b && "c""#)
        #expect(try tree.nodes(forXPath: "count(//j:item)") == [.text("2")])
        #expect(try tree.nodes(forXPath: "string(//j:item/@j:rank)") == [.text("high")])
        #expect(try tree.nodes(forXPath: "boolean(//nothing)") == [.text("false")])
        #expect(try tree.nodes(forXPath: "//nothing").isEmpty)
        #expect(throws: XMLError.self) { try tree.nodes(forXPath: "//x:item") }
        #expect(throws: XMLError.self) { try tree.nodes(forXPath: "//j:item[") }
    }

    @Test(arguments: [
        ("<a><b></a>", 1),
        ("<a>\n<b attr=novalue/></a>", 2),
        ("", 1),
        ("<a>text</a><second/>", 1),
        ("\u{FEFF}<a>&undefined;</a>", 1),
    ])
    func malformedDocumentsReportWhere(_ text: String, _ line: Int) {
        let error = #expect(throws: XMLError.self) { try XMLTree(string: text) }
        #expect(error?.code == .syntax)
        #expect(error?.message.isEmpty == false)
        #expect(error?.line == line)
        #expect((error?.column ?? -1) >= 0)
    }

    @Test func anExternalEntityNamingALocalFileIsNotRead() throws {
        let secret = FileManager.default.temporaryDirectory.appendingPathComponent("jewz-xxe-\(UUID().uuidString).txt")
        try Data("TOP-SECRET".utf8).write(to: secret)
        defer { try? FileManager.default.removeItem(at: secret) }
        let payload = """
            <?xml version="1.0"?>
            <!DOCTYPE r [<!ENTITY xxe SYSTEM "\(secret.absoluteString)">]>
            <r>&xxe;</r>
            """
        #expect(throws: XMLError.entityDeclarationsNotAllowed) { try XMLTree(string: payload) }
        let parameterEntity = """
            <!DOCTYPE r [<!ENTITY % p SYSTEM "\(secret.absoluteString)"> %p;]><r/>
            """
        #expect(throws: XMLError.entityDeclarationsNotAllowed) { try XMLTree(string: parameterEntity) }
    }

    @Test func anExternalDTDIsNotLoaded() throws {
        let dtd = FileManager.default.temporaryDirectory.appendingPathComponent("jewz-\(UUID().uuidString).dtd")
        try Data(#"<!ATTLIST r injected CDATA "from-the-dtd">"#.utf8).write(to: dtd)
        defer { try? FileManager.default.removeItem(at: dtd) }
        let tree = try XMLTree(string: #"<!DOCTYPE r SYSTEM "\#(dtd.absoluteString)"><r/>"#)
        #expect(tree.root[attribute: "injected"] == nil)
    }

    @Test func billionLaughsFailsFast() {
        var payload = #"<?xml version="1.0"?><!DOCTYPE lolz [<!ENTITY lol "lol">"#
        for level in 1...9 {
            let previous = level == 1 ? "lol" : "lol\(level - 1)"
            payload += "<!ENTITY lol\(level) \"" + String(repeating: "&\(previous);", count: 10) + "\">"
        }
        payload += "]><lolz>&lol9;</lolz>"
        let clock = ContinuousClock()
        let started = clock.now
        #expect(throws: XMLError.entityDeclarationsNotAllowed) { try XMLTree(string: payload) }
        // Expanding the entities would take minutes; the margin is for a loaded machine.
        #expect(clock.now - started < .seconds(30))
    }

    @Test func depthIsBounded() {
        let deep = String(repeating: "<a>", count: 100_000) + String(repeating: "</a>", count: 100_000)
        #expect(throws: XMLError.self) { try XMLTree(string: deep) }
        let fine = String(repeating: "<a>", count: 200) + String(repeating: "</a>", count: 200)
        #expect(throws: Never.self) { try XMLTree(string: fine) }
    }

    @Test func writingEscapesAndRoundTrips() throws {
        let element = XMLTree.Element(
            name: "note", prefix: "n", namespaceURI: "urn:n",
            attributes: [.init(name: "title", value: "a \"quoted\" <b> & \n line")],
            namespaceDeclarations: [.init(prefix: "n", uri: "urn:n")],
            children: [.text("x < y & z > w"), .cdata("keep ]]> this"), .element(.init(name: "empty")), .comment("c")])
        let parsed = try XMLTree(root: element).root
        #expect(parsed.attributes.first?.value == "a \"quoted\" <b> & \n line")
        #expect(parsed.text == "x < y & z > wkeep ]]> this")
        #expect(parsed.elements(named: "empty").count == 1)
        #expect(parsed.namespaceURI == "urn:n")
    }

    @Test func concurrentParsesAndQueriesAreSafe() async throws {
        let shared = try XMLTree(string: catalog)
        try await withThrowingTaskGroup(of: Int.self) { group in
            for task in 0..<8 {
                group.addTask {
                    var found = 0
                    for _ in 0..<50 {
                        let own = try XMLTree(string: catalog)
                        found += try own.nodes(forXPath: "//j:item").count
                        found += try shared.nodes(forXPath: "//j:item[@id='\(task % 2 + 1)']").count
                        _ = try? XMLTree(string: "<broken")
                    }
                    return found
                }
            }
            for try await found in group { #expect(found == 150) }
        }
    }
}
