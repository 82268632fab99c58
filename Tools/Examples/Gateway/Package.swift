// swift-tools-version:6.1
// An example service: a Hummingbird 2 gateway that calls two upstreams through one session of
// the toolkit, configured from the environment and a JSON file, run in a ServiceGroup. A package
// of its own, as a user's service is; it takes the toolkit from this repository by path.
import PackageDescription

let package = Package(
    name: "jewzruxin-gateway",
    platforms: [.macOS(.v15)],
    dependencies: [
        .package(name: "jewzruxin", path: "../../.."),
        .package(url: "https://github.com/hummingbird-project/hummingbird.git", from: "2.28.1"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle.git", from: "2.13.0"),
        .package(url: "https://github.com/apple/swift-configuration.git", from: "1.4.0", traits: [.defaults, "Reloading"]),
        // The tests run the gateway as a program and send it SIGTERM.
        .package(url: "https://github.com/swiftlang/swift-subprocess.git", from: "1.0.2"),
    ],
    targets: [
        .executableTarget(
            name: "Gateway",
            dependencies: [
                .product(name: "JewzHTTPCore", package: "jewzruxin"),
                .product(name: "JewzJSON", package: "jewzruxin"),
                .product(name: "JewzCache", package: "jewzruxin"),
                .product(name: "JewzResilience", package: "jewzruxin"),
                .product(name: "JewzLifecycle", package: "jewzruxin"),
                .product(name: "JewzConfiguration", package: "jewzruxin"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "Configuration", package: "swift-configuration"),
            ]
        ),
        .testTarget(
            name: "GatewayTests",
            dependencies: [
                "Gateway",
                .product(name: "JewzHTTPCore", package: "jewzruxin"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "Subprocess", package: "swift-subprocess"),
            ]
        ),
    ],
    swiftLanguageModes: [.v6]
)
