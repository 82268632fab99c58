import Benchmark
import BenchmarkFixtures
import Foundation
import JewzHTTPCore
import JewzJSON

// Parsing JSON bodies of 2 KB, 1 MB and 50 MB through HTTPJSONProcessor, beside Foundation
// on the same bytes: JSONSerialization for the untyped tree, JSONDecoder for a Decodable model
// (which `response.decode` calls directly).

/// A JSON array of items of about `bytes` bytes, the same on every run.
func document(bytes: Int) -> Data {
    var text = "["
    var index = 0
    while text.utf8.count < bytes {
        if index > 0 { text += "," }
        text += #"{"id":\#(index),"name":"item \#(index) — ü","price":\#(Double(index) * 1.25),"tags":["a","b\n","c"],"active":\#(index % 2 == 0)}"#
        index += 1
    }
    return Data((text + "]").utf8)
}

let benchmarks: @Sendable () -> Void = {
    Benchmark.defaultConfiguration = .init(metrics: [.throughput, .wallClock, .peakMemoryResident], maxDuration: .seconds(5))

    for (label, size) in [("2 KB", 2 << 10), ("1 MB", 1 << 20), ("50 MB", 50 << 20)] {
        let body = document(bytes: size)
        let iterations = size > (1 << 20) ? 5 : size > (64 << 10) ? 100 : 100_000
        let configuration = Benchmark.Configuration(maxDuration: .seconds(10), maxIterations: iterations)

        Benchmark("\(label) tree: HTTPJSONProcessor → JSONValue", configuration: configuration) { benchmark in
            for _ in benchmark.scaledIterations {
                var response = HTTPResponse(statusCode: 200, headers: ["Content-Type": "application/json"], body: HTTPResponseBody(body))
                try? HTTPJSONProcessor().process(&response)
                blackHole(response.object)
            }
        }
        Benchmark("\(label) tree: JSONSerialization (baseline)", configuration: configuration) { benchmark in
            for _ in benchmark.scaledIterations { blackHole(try? JSONSerialization.jsonObject(with: body)) }
        }
        Benchmark("\(label) model: response.decode([Item].self)", configuration: configuration) { benchmark in
            let response = HTTPResponse(statusCode: 200, body: HTTPResponseBody(body))
            for _ in benchmark.scaledIterations { blackHole(try? response.decode([Item].self)) }
        }
        Benchmark("\(label) model: JSONDecoder (baseline)", configuration: configuration) { benchmark in
            for _ in benchmark.scaledIterations { blackHole(try? JSONDecoder().decode([Item].self, from: body)) }
        }
    }
}
