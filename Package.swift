// swift-tools-version:6.1
import PackageDescription

// One manifest, a library product per module (see ARCHITECTURE.md). Every module carries the
// `Jewz` prefix because module names are global in a SwiftPM build graph.
let package = Package(
    name: "jewzruxin",
    platforms: [.macOS(.v15)],
    products: [
        .library(name: "JewzURITemplate", targets: ["JewzURITemplate"]),
        .library(name: "JewzHTTPCore", targets: ["JewzHTTPCore"]),
        .library(name: "JewzJSON", targets: ["JewzJSON"]),
        .library(name: "JewzForm", targets: ["JewzForm"]),
        .library(name: "JewzGzip", targets: ["JewzGzip"]),
        .library(name: "JewzBrotli", targets: ["JewzBrotli"]),
        .library(name: "JewzZstd", targets: ["JewzZstd"]),
        .library(name: "JewzXML", targets: ["JewzXML"]),
        .library(name: "JewzMultipart", targets: ["JewzMultipart"]),
        .library(name: "JewzAuth", targets: ["JewzAuth"]),
        .library(name: "JewzCache", targets: ["JewzCache"]),
        .library(name: "JewzImageCache", targets: ["JewzImageCache"]),
        .library(name: "JewzService", targets: ["JewzService"]),
        .library(name: "JewzEventSource", targets: ["JewzEventSource"]),
        .library(name: "JewzHAR", targets: ["JewzHAR"]),
        .library(name: "JewzHTTPTypes", targets: ["JewzHTTPTypes"]),
        .library(name: "JewzCookies", targets: ["JewzCookies"]),
        .library(name: "JewzURLSession", targets: ["JewzURLSession"]),
        .library(name: "JewzMocking", targets: ["JewzMocking"]),
        .library(name: "JewzOpenAPI", targets: ["JewzOpenAPI"]),
        .library(name: "JewzWebSocket", targets: ["JewzWebSocket"]),
        .library(name: "JewzLifecycle", targets: ["JewzLifecycle"]),
        .library(name: "JewzResilience", targets: ["JewzResilience"]),
        .library(name: "JewzConfiguration", targets: ["JewzConfiguration"]),
        .library(name: "Jewzruxin", targets: ["Jewzruxin"]),
        .executable(name: "jewz", targets: ["jewz"]),
    ],
    dependencies: [
        .package(url: "https://github.com/swift-server/async-http-client.git", from: "1.37.0"),
        .package(url: "https://github.com/apple/swift-nio.git", from: "2.101.2"),
        .package(url: "https://github.com/apple/swift-log.git", from: "1.16.2"),
        .package(url: "https://github.com/apple/swift-distributed-tracing.git", from: "1.7.3"),
        // The request duration and active requests, for whatever metrics backend a program uses.
        .package(url: "https://github.com/apple/swift-metrics.git", from: "2.13.0"),
        .package(url: "https://github.com/apple/swift-argument-parser.git", from: "1.8.2"),
        // TLS settings of the default transport, and the Sandbox's TLS and HTTP/2 listener.
        .package(url: "https://github.com/apple/swift-nio-ssl.git", from: "2.37.6"),
        .package(url: "https://github.com/apple/swift-nio-http2.git", from: "1.46.0"),
        // SOCKS5 tunnels for WebSockets, which AsyncHTTPClient's pool does not open.
        .package(url: "https://github.com/apple/swift-nio-extras.git", from: "1.35.2"),
        // The Sandbox's certificates, made at run time so that none is committed.
        .package(url: "https://github.com/apple/swift-certificates.git", from: "1.21.1"),
        .package(url: "https://github.com/apple/swift-crypto.git", "3.12.3"..<"5.0.0"),
        // The server ecosystem's currency types, which OpenAPI clients and Hummingbird 2 pass.
        .package(url: "https://github.com/apple/swift-http-types.git", from: "1.8.0"),
        // The ClientTransport protocol that swift-openapi-generator's clients call.
        .package(url: "https://github.com/apple/swift-openapi-runtime.git", from: "1.13.4"),
        // YAML for OpenAPI documents read as service profiles.
        .package(url: "https://github.com/jpsim/Yams.git", from: "6.2.2"),
        // The Service protocol and graceful shutdown a server's ServiceGroup runs its parts by.
        .package(url: "https://github.com/swift-server/swift-service-lifecycle.git", from: "2.13.0"),
        // Settings from the environment and files (and their reloading) a service reads its parts from.
        .package(url: "https://github.com/apple/swift-configuration.git", from: "1.4.0", traits: [.defaults, "Reloading", "YAML"]),
        // `swift package generate-documentation --target X`, the command Swift developers type.
        .package(url: "https://github.com/swiftlang/swift-docc-plugin", from: "1.5.0"),
    ],
    targets: [
        .target(
            name: "JewzLocking",
            path: "Packages/Locking/Sources"
        ),
        .target(
            name: "JewzURITemplate",
            path: "Packages/URITemplate/Sources"
        ),
        // The weak reference through which the umbrella, when a program links it, fills the shared
        // registries on their first use (see ARCHITECTURE.md).
        .target(
            name: "CJewzHooks",
            path: "Packages/HTTPCore/CHooks"
        ),
        // A read from the page cache only (`preadv2` with `RWF_NOWAIT`, which Glibc's Swift
        // module does not show), so that a cached file in memory is read with no thread hop.
        .target(
            name: "CJewzFiles",
            path: "Packages/HTTPCore/CFiles"
        ),
        .target(
            name: "JewzHTTPCore",
            dependencies: [
                "JewzLocking",
                "CJewzHooks",
                "CJewzFiles",
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOHTTP2", package: "swift-nio-http2"),
                .product(name: "NIOFoundationCompat", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Tracing", package: "swift-distributed-tracing"),
                .product(name: "CoreMetrics", package: "swift-metrics"),
            ],
            path: "Packages/HTTPCore/Sources"
        ),
        .target(
            name: "JewzCookies",
            dependencies: ["JewzLocking", "JewzHTTPCore"],
            path: "Packages/Cookies/Sources",
            exclude: ["Resources/SOURCE.md"],
            resources: [.copy("Resources/public_suffix_list.dat")]
        ),
        .target(
            name: "JewzURLSession",
            dependencies: ["JewzLocking", "JewzHTTPCore"],
            path: "Packages/URLSession/Sources"
        ),
        .target(
            name: "JewzMocking",
            dependencies: ["JewzLocking", "JewzHTTPCore"],
            path: "Packages/Mocking/Sources"
        ),
        .target(
            name: "JewzHTTPTypes",
            dependencies: ["JewzHTTPCore", .product(name: "HTTPTypes", package: "swift-http-types")],
            path: "Packages/HTTPTypes/Sources"
        ),
        // Circuit breaker, bulkhead, rate limiter and hedging: middleware per origin.
        .target(
            name: "JewzResilience",
            dependencies: ["JewzHTTPCore", "JewzLocking", .product(name: "CoreMetrics", package: "swift-metrics"), .product(name: "Logging", package: "swift-log")],
            path: "Packages/Resilience/Sources"
        ),
        // A session's configuration read from swift-configuration's providers, and followed as
        // they reload; apart, so that the umbrella stays free of swift-configuration.
        .target(
            name: "JewzConfiguration",
            dependencies: [
                "JewzHTTPCore", "JewzCache", "JewzResilience", .product(name: "Configuration", package: "swift-configuration"),
                .product(name: "Logging", package: "swift-log"),
            ],
            path: "Packages/Configuration/Sources"
        ),
        // A session as a ServiceLifecycle Service; apart, so that HTTPCore stays free of it.
        .target(
            name: "JewzLifecycle",
            dependencies: ["JewzHTTPCore", .product(name: "ServiceLifecycle", package: "swift-service-lifecycle")],
            path: "Packages/Lifecycle/Sources"
        ),
        .target(
            name: "JewzOpenAPI",
            dependencies: [
                "JewzHTTPCore", "JewzHTTPTypes",
                .product(name: "OpenAPIRuntime", package: "swift-openapi-runtime"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
            ],
            path: "Packages/OpenAPI/Sources"
        ),
        .target(
            name: "JewzJSON",
            dependencies: ["JewzHTTPCore"],
            path: "Packages/Processors/JSON/Sources"
        ),
        .target(
            name: "JewzForm",
            dependencies: ["JewzHTTPCore"],
            path: "Packages/Processors/Form/Sources"
        ),
        .systemLibrary(
            name: "CZlib",
            path: "Packages/Processors/Gzip/CZlib",
            pkgConfig: "zlib",
            providers: [.apt(["zlib1g-dev"])]
        ),
        .target(
            name: "JewzGzip",
            dependencies: ["JewzHTTPCore", "CZlib"],
            path: "Packages/Processors/Gzip/Sources"
        ),
        .systemLibrary(
            name: "CBrotli",
            path: "Packages/Processors/Brotli/CBrotli",
            pkgConfig: "libbrotlidec",
            providers: [.apt(["libbrotli-dev"])]
        ),
        .target(
            name: "JewzBrotli",
            dependencies: ["JewzHTTPCore", "CBrotli"],
            path: "Packages/Processors/Brotli/Sources"
        ),
        // Our own declarations of libzstd's ABI, which JewzZstdLibrary loads at run time: the
        // image has the runtime library (libzstd1) but not its header or link name.
        .systemLibrary(
            name: "CZstd",
            path: "Packages/Processors/Zstd/CZstd"
        ),
        .target(
            name: "JewzZstdLibrary",
            dependencies: ["CZstd"],
            path: "Packages/Processors/Zstd/Library"
        ),
        .target(
            name: "JewzZstd",
            dependencies: ["JewzHTTPCore", "CZstd", "JewzZstdLibrary"],
            path: "Packages/Processors/Zstd/Sources"
        ),
        .systemLibrary(
            name: "CLibXML2",
            path: "Packages/Processors/XML/CLibXML2",
            pkgConfig: "libxml-2.0",
            providers: [.apt(["libxml2-dev"])]
        ),
        .target(
            name: "JewzXML",
            dependencies: ["JewzLocking", "JewzHTTPCore", "CLibXML2"],
            path: "Packages/Processors/XML/Sources"
        ),
        .target(
            name: "JewzMultipart",
            dependencies: ["JewzHTTPCore"],
            path: "Packages/Processors/Multipart/Sources"
        ),
        .target(
            name: "JewzAuth",
            dependencies: [
                "JewzLocking", "JewzHTTPCore",
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "_CryptoExtras", package: "swift-crypto"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
            ],
            path: "Packages/Auth/Sources"
        ),
        .target(
            name: "JewzCache",
            dependencies: ["JewzLocking", "JewzHTTPCore", "JewzMultipart"],
            path: "Packages/Cache/Sources"
        ),
        .target(
            name: "JewzService",
            dependencies: ["JewzLocking", "JewzHTTPCore", "JewzURITemplate", .product(name: "Yams", package: "Yams")],
            path: "Packages/Service/Sources"
        ),
        .target(
            name: "JewzEventSource",
            dependencies: ["JewzLocking", "JewzHTTPCore"],
            path: "Packages/EventSource/Sources"
        ),
        .target(
            name: "JewzWebSocket",
            dependencies: [
                "JewzLocking", "JewzHTTPCore", "CZlib",
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOFoundationCompat", package: "swift-nio"),
                .product(name: "NIOWebSocket", package: "swift-nio"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "NIOSOCKS", package: "swift-nio-extras"),
                .product(name: "Crypto", package: "swift-crypto"),
            ],
            path: "Packages/WebSocket/Sources"
        ),
        .target(
            name: "JewzHAR",
            dependencies: ["JewzLocking", "JewzHTTPCore"],
            path: "Packages/HAR/Sources"
        ),
        .target(
            name: "JewzImageCache",
            dependencies: ["JewzLocking", "JewzHTTPCore", "JewzCache"],
            path: "Packages/ImageCache/Sources"
        ),
        .target(
            name: "Jewzruxin",
            dependencies: [
                "JewzHTTPCore", "JewzURITemplate", "JewzJSON", "JewzForm", "JewzGzip", "JewzBrotli", "JewzZstd", "JewzXML",
                "JewzMultipart", "JewzAuth",
                "JewzCache", "JewzImageCache", "JewzService", "JewzEventSource", "JewzHAR", "JewzMocking",
                "JewzCookies", "JewzWebSocket", "JewzResilience",
            ],
            path: "Packages/Jewzruxin/Sources"
        ),
        .target(
            name: "JewzSandbox",
            dependencies: [
                "JewzLocking",
                "JewzAuth",
                "CZlib",
                "CBrotli",
                "CZstd",
                "JewzZstdLibrary",
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOFoundationCompat", package: "swift-nio"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "NIOHTTP2", package: "swift-nio-http2"),
                .product(name: "NIOWebSocket", package: "swift-nio"),
                .product(name: "X509", package: "swift-certificates"),
                .product(name: "Crypto", package: "swift-crypto"),
            ],
            path: "Tools/Sandbox/Sources",
            resources: [.copy("Resources/Images")]
        ),
        .executableTarget(
            name: "jewz",
            dependencies: [
                "JewzLocking",
                "Jewzruxin",
                "JewzSandbox",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "Logging", package: "swift-log"),
                "JewzOpenAPI", "JewzSandboxClient", "JewzLifecycle", "JewzConfiguration", "JewzHAR", "JewzJSON",
                .product(name: "Configuration", package: "swift-configuration"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "CoreMetrics", package: "swift-metrics"),
                .product(name: "InMemoryTracing", package: "swift-distributed-tracing"),
                .product(name: "Tracing", package: "swift-distributed-tracing"),
            ],
            path: "Tools/jewz/Sources",
            // The traffic view's page (`jewz proxy --web`), served from the binary.
            resources: [
                .embedInCode("Proxy/Traffic/Page/index.html"), .embedInCode("Proxy/Traffic/Page/traffic.js"),
                .embedInCode("Proxy/Traffic/Page/bodies.js"), .embedInCode("Proxy/Traffic/Page/traffic.css"),
            ],
            // Released, the Swift runtime and Foundation are linked in: a short run spends much of
            // its time looking up their symbols otherwise. Debug builds, sanitized ones among
            // them, link them dynamically: ThreadSanitizer's runtime fails with them static. Nothing
            // looks symbols up in the executable, so it exports none: the runtime's start finds its
            // own path with `dladdr`, a walk through every exported symbol.
            linkerSettings: [
                .unsafeFlags(
                    [
                        "-Xlinker", "--no-export-dynamic", "-static-stdlib", "-Xlinker", "--start-group", "-lFoundation",
                        "-lFoundationEssentials",
                        "-lFoundationInternationalization", "-lCoreFoundation", "-l_FoundationICU", "-l_FoundationCShims",
                        "-l_FoundationCollections", "-Xlinker", "--end-group",
                    ], .when(configuration: .release))
            ]
        ),
        // A long mixed load against an in-process Sandbox: memory, descriptors and files stay
        // flat, every request is accounted for (Tools/Soak/README.md).
        .executableTarget(
            name: "Soak",
            dependencies: ["JewzLocking", "Jewzruxin", "JewzSandbox"],
            path: "Tools/Soak/Sources"
        ),
        // A program built from JewzHTTPCore alone, for the test that the umbrella's registration
        // reaches only programs that link it.
        .executableTarget(
            name: "CoreOnlyProbe",
            dependencies: ["JewzHTTPCore", .product(name: "Logging", package: "swift-log")],
            path: "Tools/CoreOnlyProbe/Sources"
        ),
        // A client generated from the Sandbox's OpenAPI document (Tools/SandboxClient/regenerate.sh),
        // for the tests and the tour of JewzOpenAPI.
        .target(
            name: "JewzSandboxClient",
            dependencies: [
                .product(name: "OpenAPIRuntime", package: "swift-openapi-runtime"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
            ],
            path: "Tools/SandboxClient/Sources"
        ),
        .target(name: "CJewzSpawn", path: "Tests/CJewzSpawn"),
        .target(
            name: "JewzTestSupport",
            dependencies: [
                "CJewzSpawn", "JewzLocking", "JewzHTTPCore", "JewzURLSession", "Jewzruxin", "JewzSandbox", .product(name: "Logging", package: "swift-log"),
            ],
            path: "Tests/JewzTestSupport"
        ),
        .testTarget(
            name: "JewzMockingTests",
            dependencies: ["JewzMocking", "JewzTestSupport"],
            path: "Tests/JewzMockingTests"
        ),
        .testTarget(
            name: "JewzHTTPTypesTests",
            dependencies: ["JewzHTTPTypes", "JewzTestSupport", .product(name: "HTTPTypes", package: "swift-http-types")],
            path: "Tests/JewzHTTPTypesTests"
        ),
        .testTarget(
            name: "JewzOpenAPITests",
            dependencies: [
                "JewzLocking", "JewzOpenAPI", "JewzSandboxClient", "JewzSandbox", "JewzTestSupport",
                .product(name: "OpenAPIRuntime", package: "swift-openapi-runtime"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "Crypto", package: "swift-crypto"),
            ],
            path: "Tests/JewzOpenAPITests"
        ),
        .testTarget(
            name: "JewzHTTPCoreTests",
            dependencies: [
                "JewzLocking", "JewzHTTPCore", "JewzURLSession", "JewzMocking", "JewzCookies", "JewzSandbox", "JewzTestSupport",
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "Tracing", package: "swift-distributed-tracing"),
                .product(name: "InMemoryTracing", package: "swift-distributed-tracing"),
                .product(name: "CoreMetrics", package: "swift-metrics"),
                .product(name: "MetricsTestKit", package: "swift-metrics"),
            ],
            path: "Tests/JewzHTTPCoreTests"
        ),
        .testTarget(
            name: "JewzCookiesTests",
            dependencies: ["JewzCookies", "JewzMocking", "JewzSandbox", "JewzTestSupport"],
            path: "Tests/JewzCookiesTests",
            resources: [.copy("Resources/http-state")]
        ),
        .testTarget(
            name: "JewzJSONTests",
            dependencies: ["JewzJSON", "JewzSandbox", "JewzTestSupport"],
            path: "Tests/JewzJSONTests",
            resources: [.copy("Resources/JSONTestSuite")]
        ),
        .testTarget(
            name: "JewzFormTests",
            dependencies: ["JewzForm", "JewzSandbox", "JewzTestSupport"],
            path: "Tests/JewzFormTests"
        ),
        .testTarget(
            name: "JewzGzipTests",
            dependencies: ["JewzGzip", "JewzSandbox", "JewzTestSupport"],
            path: "Tests/JewzGzipTests"
        ),
        .testTarget(
            name: "JewzXMLTests",
            dependencies: ["JewzXML", "JewzSandbox", "JewzTestSupport"],
            path: "Tests/JewzXMLTests"
        ),
        .testTarget(
            name: "JewzMultipartTests",
            dependencies: ["JewzMultipart", "JewzMocking", "JewzSandbox", "JewzTestSupport"],
            path: "Tests/JewzMultipartTests"
        ),
        .testTarget(
            name: "JewzAuthTests",
            dependencies: ["JewzAuth", "JewzSandbox", "JewzTestSupport", .product(name: "Crypto", package: "swift-crypto")],
            path: "Tests/JewzAuthTests",
            resources: [.copy("Resources/aws-signing-test-suite")]
        ),
        .testTarget(
            name: "JewzCacheTests",
            dependencies: ["JewzLocking", "JewzCache", "JewzCookies", "JewzSandbox", "JewzTestSupport"],
            path: "Tests/JewzCacheTests"
        ),
        .testTarget(
            name: "JewzServiceTests",
            dependencies: ["JewzLocking", "JewzService", "Jewzruxin", "JewzSandbox", "JewzTestSupport"],
            path: "Tests/JewzServiceTests"
        ),
        .testTarget(
            name: "JewzImageCacheTests",
            dependencies: ["JewzImageCache", "JewzSandbox", "JewzTestSupport"],
            path: "Tests/JewzImageCacheTests"
        ),
        // The READMEs' and doc comments' examples, compiled with warnings as errors and never run
        // (Tools/Examples/generate): a listing a reader copies must not warn in their code either.
        .testTarget(
            name: "JewzExamplesTests",
            dependencies: [
                "Jewzruxin", "JewzOpenAPI", "JewzHTTPTypes", "JewzSandbox", "JewzSandboxClient", "JewzLifecycle", "JewzConfiguration",
                .product(name: "Configuration", package: "swift-configuration"),
                .product(name: "Logging", package: "swift-log"), .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ],
            path: "Tests/JewzExamplesTests",
            swiftSettings: [.unsafeFlags(["-warnings-as-errors"])]
        ),
        .testTarget(
            name: "JewzResilienceTests",
            dependencies: ["JewzResilience", "JewzLocking", "JewzSandbox", "JewzTestSupport"],
            path: "Tests/JewzResilienceTests"
        ),
        .testTarget(
            name: "JewzConfigurationTests",
            dependencies: [
                "JewzConfiguration", "JewzSandbox", "JewzTestSupport", .product(name: "Configuration", package: "swift-configuration"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ],
            path: "Tests/JewzConfigurationTests"
        ),
        .testTarget(
            name: "JewzLifecycleTests",
            dependencies: [
                "JewzLifecycle", "JewzSandbox", "JewzTestSupport",
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "ServiceLifecycleTestKit", package: "swift-service-lifecycle"),
            ],
            path: "Tests/JewzLifecycleTests"
        ),
        .testTarget(
            name: "JewzruxinTests",
            dependencies: ["Jewzruxin", "JewzSandbox", "JewzTestSupport"],
            path: "Tests/JewzruxinTests"
        ),
        .testTarget(
            name: "JewzEventSourceTests",
            dependencies: ["JewzEventSource", "JewzSandbox", "JewzTestSupport", "JewzAuth"],
            path: "Tests/JewzEventSourceTests"
        ),
        .testTarget(
            name: "JewzWebSocketTests",
            dependencies: [
                "JewzWebSocket", "JewzSandbox", "JewzTestSupport", "JewzAuth", "JewzCookies", "JewzLocking", "CZlib",
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOWebSocket", package: "swift-nio"),
                .product(name: "Crypto", package: "swift-crypto"),
            ],
            path: "Tests/JewzWebSocketTests"
        ),
        .testTarget(
            name: "JewzHARTests",
            dependencies: ["JewzHAR", "JewzGzip", "JewzSandbox", "JewzTestSupport"],
            path: "Tests/JewzHARTests"
        ),
        .testTarget(
            name: "JewzBrotliTests",
            dependencies: ["JewzBrotli", "JewzTestSupport"],
            path: "Tests/JewzBrotliTests"
        ),
        .testTarget(
            name: "JewzZstdTests",
            dependencies: ["JewzZstd", "JewzSandbox", "JewzTestSupport"],
            path: "Tests/JewzZstdTests"
        ),
        .testTarget(
            name: "JewzURITemplateTests",
            dependencies: ["JewzURITemplate", "JewzJSON", "JewzTestSupport"],
            path: "Tests/JewzURITemplateTests",
            resources: [.copy("Resources/uritemplate-test")]
        ),
        .testTarget(
            name: "JewzSandboxTests",
            dependencies: ["JewzSandbox", "JewzTestSupport"],
            path: "Tests/JewzSandboxTests"
        ),
        .testTarget(
            name: "JewzToolTests",
            dependencies: ["JewzLocking", "jewz", "CoreOnlyProbe", "JewzCache", "JewzImageCache", "JewzHAR", "JewzSandbox", "JewzTestSupport"],
            path: "Tests/JewzToolTests"
        ),
    ]
)
