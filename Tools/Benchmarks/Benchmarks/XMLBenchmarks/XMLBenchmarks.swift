import Benchmark
import Foundation
import FoundationXML
import JewzXML

// Parsing a 10 MB XML document: ours (a complete immutable tree) beside FoundationXML's
// XMLDocument, which wraps nodes lazily; so also both parse-and-visit-every-element.
let benchmarks: @Sendable () -> Void = {
    var text = #"<?xml version="1.0" encoding="UTF-8"?><feed xmlns:j="urn:j">"#
    var index = 0
    while text.utf8.count < 10 << 20 {
        text += #"<j:entry id="\#(index)" kind="k\#(index % 7)"><title>Entry \#(index) — ü</title><summary>Some &amp; text \#(index)</summary><link href="https://example.com/\#(index)"/></j:entry>"#
        index += 1
    }
    text += "</feed>"
    let data = Data(text.utf8)
    let configuration = Benchmark.Configuration(metrics: [.wallClock, .throughput, .peakMemoryResident], maxDuration: .seconds(10), maxIterations: 30)

    Benchmark("parse 10 MB: Jewzruxin XMLTree", configuration: configuration) { benchmark in
        for _ in benchmark.scaledIterations { blackHole(try? XMLTree(data: data)) }
    }
    Benchmark("parse 10 MB: FoundationXML XMLDocument (baseline)", configuration: configuration) { benchmark in
        for _ in benchmark.scaledIterations { blackHole(try? FoundationXML.XMLDocument(data: data)) }
    }
    Benchmark("parse + visit 10 MB: Jewzruxin XMLTree", configuration: configuration) { benchmark in
        for _ in benchmark.scaledIterations {
            guard let tree = try? XMLTree(data: data) else { continue }
            var count = 0
            func visit(_ element: XMLTree.Element) {
                count += element.name.utf8.count
                for child in element.children { if case .element(let inner) = child { visit(inner) } }
            }
            visit(tree.root)
            blackHole(count)
        }
    }
    Benchmark("parse + visit 10 MB: FoundationXML XMLDocument (baseline)", configuration: configuration) { benchmark in
        for _ in benchmark.scaledIterations {
            guard let document = try? FoundationXML.XMLDocument(data: data), let root = document.rootElement() else { continue }
            var count = 0
            func visit(_ element: FoundationXML.XMLElement) {
                count += element.name?.utf8.count ?? 0
                for child in element.children ?? [] { if let inner = child as? FoundationXML.XMLElement { visit(inner) } }
            }
            visit(root)
            blackHole(count)
        }
    }
}
