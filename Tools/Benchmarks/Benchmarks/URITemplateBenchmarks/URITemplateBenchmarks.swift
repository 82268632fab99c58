import Benchmark
import Foundation
import JewzURITemplate

// Expansions per second with pre-parsed templates, ours beside Foundation's URL.Template on
// the same templates and values; and the cost of parsing a typical template.
let benchmarks: @Sendable () -> Void = {
    Benchmark.defaultConfiguration = .init(
        metrics: [.throughput, .wallClock, .mallocCountTotal], scalingFactor: .kilo,
        maxDuration: .seconds(2), maxIterations: 1_000_000)

    let cases: [(name: String, template: String, ours: [String: URITemplate.Value], foundation: [URL.Template.VariableName: URL.Template.Value])] = [
        ("level 1", "https://api.example.com/users/{user}/repos",
         ["user": "jewzruxin"], [.init("user"): .text("jewzruxin")]),
        ("level 3", "https://api.example.com{/owner,repo}/search{?q,page,per_page}",
         ["owner": "swift", "repo": "nio", "q": "event loop", "page": "2", "per_page": "50"],
         [.init("owner"): .text("swift"), .init("repo"): .text("nio"), .init("q"): .text("event loop"),
          .init("page"): .text("2"), .init("per_page"): .text("50")]),
        ("level 4", "https://api.example.com{/path*}{?query*}{#frag}",
         ["path": ["repos", "swift", "nio"], "query": ["sort": "updated", "page": "2"], "frag": "top"],
         [.init("path"): .list(["repos", "swift", "nio"]), .init("query"): .associativeList(["sort": "updated", "page": "2"]),
          .init("frag"): .text("top")]),
    ]

    for testCase in cases {
        guard let ours = try? URITemplate(testCase.template), let theirs = URL.Template(testCase.template) else {
            print("cannot parse \(testCase.template)")
            continue
        }
        // Both sides must agree before either is timed.
        let expanded = try? ours.expand(testCase.ours)
        let foundation = URL(template: theirs, variables: testCase.foundation)?.absoluteString
        if expanded != foundation { print("warning: \(testCase.name): ours \(expanded ?? "nil"), Foundation \(foundation ?? "nil")") }

        Benchmark("expand \(testCase.name): Jewzruxin") { benchmark in
            for _ in benchmark.scaledIterations { blackHole(try? ours.expand(testCase.ours)) }
        }
        Benchmark("expand \(testCase.name): Jewzruxin + URL(string:)") { benchmark in
            for _ in benchmark.scaledIterations { blackHole((try? ours.expand(testCase.ours)).flatMap { URL(string: $0) }) }
        }
        Benchmark("expand \(testCase.name): Foundation URL.Template (baseline)") { benchmark in
            for _ in benchmark.scaledIterations { blackHole(URL(template: theirs, variables: testCase.foundation)) }
        }
    }

    let typical = "https://api.example.com/repos/{owner}/{repo}/issues{?state,labels,page}"
    Benchmark("parse typical: Jewzruxin") { benchmark in
        for _ in benchmark.scaledIterations { blackHole(try? URITemplate(typical)) }
    }
    Benchmark("parse typical: Foundation URL.Template (baseline)") { benchmark in
        for _ in benchmark.scaledIterations { blackHole(URL.Template(typical)) }
    }
}
