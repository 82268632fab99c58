import Benchmark
import BenchmarkFixtures
import Foundation
import JewzGzip
import ZlibBaseline

// Decompressing a 50 MB body: ours (whole buffer, and streamed in 16 KiB pieces as a body
// arrives) beside zlib itself called once from C into an exact-size buffer.
let benchmarks: @Sendable () -> Void = {
    var text = ""
    var line = 0
    while text.utf8.count < 50 << 20 {
        text += #"{"id":\#(line),"event":"request","path":"/api/v1/items/\#(line % 977)","status":\#(200 + line % 7),"ms":\#(line % 113)}"# + "\n"
        line += 1
    }
    let plain = Data(text.utf8)
    guard let packed = try? Gzip.compress(plain) else { return }
    let configuration = Benchmark.Configuration(metrics: [.wallClock, .throughput, .peakMemoryResident], maxDuration: .seconds(10), maxIterations: 20)
    print("50 MB body compresses to \(packed.count) bytes")

    Benchmark("decompress 50 MB: Jewzruxin Gzip.decompress", configuration: configuration) { benchmark in
        for _ in benchmark.scaledIterations { blackHole(try? Gzip.decompress(packed, limits: .none)) }
    }
    Benchmark("decompress 50 MB: Jewzruxin streamed, 16 KiB pieces", configuration: configuration) { benchmark in
        for _ in benchmark.scaledIterations { blackHole(decodeInPieces(packed, with: GzipDecompressor(limits: .none))) }
    }
    Benchmark("decompress 50 MB: zlib, one inflate call (baseline)", configuration: configuration) { benchmark in
        var output = [UInt8](repeating: 0, count: plain.count)
        for _ in benchmark.scaledIterations {
            let length = packed.withUnsafeBytes { input in
                output.withUnsafeMutableBufferPointer { out in
                    zlib_baseline_gunzip(input.bindMemory(to: UInt8.self).baseAddress, input.count, out.baseAddress, out.count)
                }
            }
            blackHole(length)
        }
    }
}
