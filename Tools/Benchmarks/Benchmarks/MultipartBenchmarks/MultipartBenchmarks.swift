import Benchmark
import Foundation
import JewzHTTPCore
import JewzMultipart

// Encoding a multipart body with a 256 MiB file to a null sink, as a transport pulls it:
// ours (the body's chunks, headers and boundaries included) beside the floor any streaming
// encoder stands on, reading the same file in 64 KiB chunks.
let benchmarks: @Sendable () -> Void = {
    let size = 256 << 20
    let file = FileManager.default.temporaryDirectory.appendingPathComponent("jewz-bench-multipart.bin")
    if (try? FileManager.default.attributesOfItem(atPath: file.path)[.size] as? NSNumber)?.intValue != size {
        let block = Data((0..<(1 << 20)).map { UInt8(truncatingIfNeeded: $0 &* 131) })
        guard FileManager.default.createFile(atPath: file.path, contents: nil) else { return }
        guard let handle = try? FileHandle(forWritingTo: file) else { return }
        for _ in 0..<(size >> 20) { try? handle.write(contentsOf: block) }
        try? handle.close()
    }
    var form = MultipartFormData()
    form.append("Quarterly figures", name: "title")
    form.append(Data(repeating: 0x61, count: 100_000), name: "notes", filename: "notes.txt")
    try? form.append(fileAt: file, name: "video", filename: "video.mp4")
    let configuration = Benchmark.Configuration(
        metrics: [.wallClock, .throughput, .peakMemoryResident], maxDuration: .seconds(10), maxIterations: 20)
    print("multipart body: \(form.contentLength) bytes")

    Benchmark("encode 256 MiB: Jewzruxin multipart body to a null sink", configuration: configuration) { benchmark in
        for _ in benchmark.scaledIterations {
            var total = 0
            guard let chunks = try? form.body.chunks() else { return }
            for try await chunk in chunks { total += chunk.count }
            blackHole(total)
        }
    }
    Benchmark("encode 256 MiB: the file read in 64 KiB chunks (baseline)", configuration: configuration) { benchmark in
        for _ in benchmark.scaledIterations {
            var total = 0
            guard let handle = try? FileHandle(forReadingFrom: file) else { return }
            while let chunk = try handle.read(upToCount: 64 << 10), !chunk.isEmpty { total += chunk.count }
            try handle.close()
            blackHole(total)
        }
    }
}
