// swift-tools-version:6.0
// Not part of the Jewzruxin build: a stand-alone reproduction for the AsyncHTTPClient maintainers.
import PackageDescription

let package = Package(
    name: "Reproduction",
    platforms: [.macOS(.v13)],
    dependencies: [.package(url: "https://github.com/swift-server/async-http-client.git", exact: "1.37.0")],
    targets: [
        .executableTarget(
            name: "Reproduction",
            dependencies: [.product(name: "AsyncHTTPClient", package: "async-http-client")])
    ]
)
