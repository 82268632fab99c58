import Benchmark
import BenchmarkFixtures
import CodecBaseline
import Foundation
import JewzBrotli
import JewzHTTPCore
import JewzZstd

// Decoding a 50 MB body as it arrives (16 KiB pieces, as GzipBenchmarks feeds gzip) beside each
// codec's own library called once from C into an exact-size buffer, on the same bytes.
let benchmarks: @Sendable () -> Void = {
    var text = ""
    var line = 0
    while text.utf8.count < 50 << 20 {
        text += #"{"id":\#(line),"event":"request","path":"/api/v1/items/\#(line % 977)","status":\#(200 + line % 7),"ms":\#(line % 113)}"# + "\n"
        line += 1
    }
    let plain = [UInt8](text.utf8)
    var scratch = [UInt8](repeating: 0, count: plain.count + (1 << 20))
    let brotliLength = codec_baseline_brotli_compress(plain, plain.count, &scratch, scratch.count)
    let brotli = Data(scratch.prefix(max(brotliLength, 0)))
    let zstdLength = codec_baseline_zstd_compress(plain, plain.count, &scratch, scratch.count)
    let zstd = Data(scratch.prefix(max(zstdLength, 0)))
    print("50 MB body: brotli \(brotli.count) bytes, zstd \(zstd.count) bytes")
    let configuration = Benchmark.Configuration(metrics: [.wallClock, .throughput, .peakMemoryResident], maxDuration: .seconds(10), maxIterations: 20)

    Benchmark("brotli 50 MB: Jewzruxin BrotliDecompressor, 16 KiB pieces", configuration: configuration) { benchmark in
        for _ in benchmark.scaledIterations { blackHole(decodeInPieces(brotli, with: BrotliDecompressor(limits: .none))) }
    }
    /// The library's one-shot decoder on `packed`, into an exact-size buffer, as a baseline.
    func baseline(_ name: String, _ packed: Data, _ decompress: @escaping @Sendable (UnsafePointer<UInt8>?, Int, UnsafeMutablePointer<UInt8>?, Int) -> Int) {
        Benchmark(name, configuration: configuration) { benchmark in
            var output = [UInt8](repeating: 0, count: plain.count)
            for _ in benchmark.scaledIterations {
                blackHole(packed.withUnsafeBytes { decompress($0.bindMemory(to: UInt8.self).baseAddress, $0.count, &output, output.count) })
            }
        }
    }

    baseline("brotli 50 MB: libbrotli, one BrotliDecoderDecompress call (baseline)", brotli, codec_baseline_brotli_decompress)
    Benchmark("zstd 50 MB: Jewzruxin ZstdDecompressor, 16 KiB pieces", configuration: configuration) { benchmark in
        for _ in benchmark.scaledIterations { blackHole(decodeInPieces(zstd, with: ZstdDecompressor(limits: .none))) }
    }
    baseline("zstd 50 MB: libzstd, one ZSTD_decompress call (baseline)", zstd, codec_baseline_zstd_decompress)
}
