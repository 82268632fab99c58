import Benchmark
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

    /// `packed` fed to `decoder` 16 KiB at a time.
    func streamed(_ packed: Data, into decoder: any HTTPContentDecoding) -> Data {
        var output = Data()
        packed.withUnsafeBytes { bytes in
            var offset = 0
            while offset < bytes.count {
                let end = min(offset + 16 << 10, bytes.count)
                try? decoder.decode(UnsafeRawBufferPointer(rebasing: bytes[offset..<end]), into: &output)
                offset = end
            }
        }
        try? decoder.finish(into: &output)
        return output
    }

    Benchmark("brotli 50 MB: Jewzruxin BrotliDecompressor, 16 KiB pieces", configuration: configuration) { benchmark in
        for _ in benchmark.scaledIterations { blackHole(streamed(brotli, into: BrotliDecompressor(limits: .none))) }
    }
    Benchmark("brotli 50 MB: libbrotli, one BrotliDecoderDecompress call (baseline)", configuration: configuration) { benchmark in
        var output = [UInt8](repeating: 0, count: plain.count)
        for _ in benchmark.scaledIterations {
            blackHole(brotli.withUnsafeBytes { codec_baseline_brotli_decompress($0.bindMemory(to: UInt8.self).baseAddress, $0.count, &output, output.count) })
        }
    }
    Benchmark("zstd 50 MB: Jewzruxin ZstdDecompressor, 16 KiB pieces", configuration: configuration) { benchmark in
        for _ in benchmark.scaledIterations { blackHole(streamed(zstd, into: ZstdDecompressor(limits: .none))) }
    }
    Benchmark("zstd 50 MB: libzstd, one ZSTD_decompress call (baseline)", configuration: configuration) { benchmark in
        var output = [UInt8](repeating: 0, count: plain.count)
        for _ in benchmark.scaledIterations {
            blackHole(zstd.withUnsafeBytes { codec_baseline_zstd_decompress($0.bindMemory(to: UInt8.self).baseAddress, $0.count, &output, output.count) })
        }
    }
}
