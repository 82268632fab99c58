// swift-tools-version:6.0
import Foundation
import PackageDescription

// A path dependency is known by its folder's name, which differs between clones.
let rootIdentity = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .deletingLastPathComponent().deletingLastPathComponent().lastPathComponent.lowercased()

// libFuzzer harnesses, kept out of the root package so that sanitizer flags and
// `-parse-as-library` never touch a normal build. See README.md for how to run them.
let package = Package(
    name: "JewzFuzz",
    dependencies: [.package(path: "../.."), .package(url: "https://github.com/apple/swift-nio.git", from: "2.101.2")],
    targets: [
        .target(name: "FuzzDriver"),
        .executableTarget(
            name: "URITemplateFuzzer",
            dependencies: ["FuzzDriver", .product(name: "JewzURITemplate", package: rootIdentity)],
            swiftSettings: [.unsafeFlags(["-parse-as-library"])]
        ),
        .executableTarget(
            name: "ChallengeFuzzer",
            dependencies: ["FuzzDriver", .product(name: "JewzAuth", package: rootIdentity)],
            swiftSettings: [.unsafeFlags(["-parse-as-library"])]
        ),
        .executableTarget(
            name: "HeaderFuzzer",
            dependencies: [
                "FuzzDriver", .product(name: "JewzHTTPCore", package: rootIdentity), .product(name: "JewzCache", package: rootIdentity),
                .product(name: "JewzCookies", package: rootIdentity),
            ],
            swiftSettings: [.unsafeFlags(["-parse-as-library"])]
        ),
        .executableTarget(
            name: "BodyFuzzer",
            dependencies: [
                "FuzzDriver", .product(name: "JewzJSON", package: rootIdentity), .product(name: "JewzForm", package: rootIdentity),
                .product(name: "JewzMultipart", package: rootIdentity),
            ],
            swiftSettings: [.unsafeFlags(["-parse-as-library"])]
        ),
        .executableTarget(
            name: "ProfileFuzzer",
            dependencies: ["FuzzDriver", .product(name: "JewzService", package: rootIdentity)],
            swiftSettings: [.unsafeFlags(["-parse-as-library"])]
        ),
        .executableTarget(
            name: "OAuthFuzzer",
            dependencies: ["FuzzDriver", .product(name: "JewzAuth", package: rootIdentity)],
            swiftSettings: [.unsafeFlags(["-parse-as-library"])]
        ),
        .executableTarget(
            name: "NTLMSigV4Fuzzer",
            dependencies: ["FuzzDriver", .product(name: "JewzAuth", package: rootIdentity)],
            swiftSettings: [.unsafeFlags(["-parse-as-library"])]
        ),
        .executableTarget(
            name: "RangeFuzzer",
            dependencies: ["FuzzDriver", .product(name: "JewzCache", package: rootIdentity)],
            swiftSettings: [.unsafeFlags(["-parse-as-library"])]
        ),
        .executableTarget(
            name: "WebSocketFuzzer",
            dependencies: [
                "FuzzDriver", .product(name: "JewzWebSocket", package: rootIdentity),
                .product(name: "NIOCore", package: "swift-nio"), .product(name: "NIOWebSocket", package: "swift-nio"),
            ],
            swiftSettings: [.unsafeFlags(["-parse-as-library"])]
        ),
        .executableTarget(
            name: "HARFuzzer",
            dependencies: ["FuzzDriver", .product(name: "JewzHAR", package: rootIdentity)],
            swiftSettings: [.unsafeFlags(["-parse-as-library"])]
        ),
        .executableTarget(
            name: "ImageFuzzer",
            dependencies: ["FuzzDriver", .product(name: "JewzImageCache", package: rootIdentity)],
            swiftSettings: [.unsafeFlags(["-parse-as-library"])]
        ),
    ]
)
