// swift-tools-version:6.1
import Foundation
import PackageDescription

// The benchmarks: a package of their own, so the root package never pulls benchmark
// dependencies. Every benchmark has a baseline beside it in the same target; `./run` prints
// the ratios. A path dependency is known by its folder's name, which differs between clones.
let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .deletingLastPathComponent().deletingLastPathComponent().lastPathComponent.lowercased()

let benchmark: Target.Dependency = .product(name: "Benchmark", package: "benchmark")
let plugins: [Target.PluginUsage] = [.plugin(name: "BenchmarkPlugin", package: "benchmark")]

let package = Package(
    name: "JewzBenchmarks",
    platforms: [.macOS(.v15)],
    dependencies: [
        .package(path: "../.."),
        .package(url: "https://github.com/ordo-one/benchmark.git", from: "1.38.1", traits: ["MallocInterposer"]),
        .package(url: "https://github.com/swift-server/async-http-client.git", from: "1.37.0"),
        .package(url: "https://github.com/apple/swift-nio.git", from: "2.101.2"),
        .package(url: "https://github.com/apple/swift-distributed-tracing.git", from: "1.7.3"),
        .package(url: "https://github.com/apple/swift-metrics.git", from: "2.13.0"),
        // The WebSocket benchmark's reference: Hummingbird's WSClient.
        .package(url: "https://github.com/hummingbird-project/swift-websocket.git", from: "1.6.2"),
        .package(url: "https://github.com/apple/swift-log.git", from: "1.16.2"),
    ],
    targets: [
        .executableTarget(
            name: "URITemplateBenchmarks",
            dependencies: [benchmark, .product(name: "JewzURITemplate", package: root)],
            path: "Benchmarks/URITemplateBenchmarks",
            plugins: plugins
        ),
        .executableTarget(
            name: "JSONBenchmarks",
            dependencies: [
                benchmark, .product(name: "JewzJSON", package: root), .product(name: "JewzHTTPCore", package: root),
                "BenchmarkFixtures",
            ],
            path: "Benchmarks/JSONBenchmarks",
            plugins: plugins
        ),
        .executableTarget(
            name: "GzipBenchmarks",
            dependencies: [benchmark, .product(name: "JewzGzip", package: root), "ZlibBaseline", "BenchmarkFixtures"],
            path: "Benchmarks/GzipBenchmarks",
            plugins: plugins
        ),
        .executableTarget(
            name: "CompressionBenchmarks",
            dependencies: [
                benchmark, .product(name: "JewzBrotli", package: root), .product(name: "JewzZstd", package: root),
                .product(name: "JewzHTTPCore", package: root), "CodecBaseline", "BenchmarkFixtures",
            ],
            path: "Benchmarks/CompressionBenchmarks",
            plugins: plugins
        ),
        .executableTarget(
            name: "XMLBenchmarks",
            dependencies: [benchmark, .product(name: "JewzXML", package: root)],
            path: "Benchmarks/XMLBenchmarks",
            plugins: plugins
        ),
        .executableTarget(
            name: "MultipartBenchmarks",
            dependencies: [
                benchmark, .product(name: "JewzMultipart", package: root), .product(name: "JewzHTTPCore", package: root),
            ],
            path: "Benchmarks/MultipartBenchmarks",
            plugins: plugins
        ),
        .executableTarget(
            name: "HTTPBenchmarks",
            dependencies: [
                benchmark, .product(name: "Jewzruxin", package: root),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOCore", package: "swift-nio"), .product(name: "NIOPosix", package: "swift-nio"),
                "BenchmarkFixtures",
            ],
            path: "Benchmarks/HTTPBenchmarks",
            plugins: plugins
        ),
        .executableTarget(
            name: "HTTPInterleaved",
            dependencies: [
                .product(name: "Jewzruxin", package: root), .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOCore", package: "swift-nio"), .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"), "BenchmarkFixtures",
                .product(name: "InMemoryTracing", package: "swift-distributed-tracing"),
                .product(name: "MetricsTestKit", package: "swift-metrics"),
            ],
            path: "Sources/HTTPInterleaved"
        ),
        .executableTarget(
            name: "WebSocketEcho",
            dependencies: [.product(name: "Jewzruxin", package: root)],
            path: "Sources/WebSocketEcho"
        ),
        .executableTarget(
            name: "WSClientEcho",
            dependencies: [
                .product(name: "WSClient", package: "swift-websocket"), .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOCore", package: "swift-nio"),
            ],
            path: "Sources/WSClientEcho"
        ),
        .target(
            name: "BenchmarkFixtures",
            dependencies: [.product(name: "AsyncHTTPClient", package: "async-http-client"), .product(name: "JewzHTTPCore", package: root)],
            path: "Sources/BenchmarkFixtures"
        ),
        .target(
            name: "CodecBaseline",
            path: "Sources/CodecBaseline",
            linkerSettings: [.linkedLibrary("brotlienc"), .linkedLibrary("brotlidec"), .linkedLibrary("zstd")]
        ),
        .target(
            name: "ZlibBaseline",
            path: "Sources/ZlibBaseline",
            linkerSettings: [.linkedLibrary("z")]
        ),
    ]
)
