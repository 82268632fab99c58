// swift-tools-version:6.0
// swift-openapi-generator, built apart from the product: regenerate.sh runs it when the
// Sandbox's document changes, and the generated code is committed, so neither the product's
// build nor CI compiles the generator (about a minute and a half on 2 cores, OpenAPIKit and Yams).
import PackageDescription

let package = Package(
    name: "SandboxClientGenerator",
    dependencies: [.package(url: "https://github.com/apple/swift-openapi-generator.git", exact: "1.14.3")],
    targets: []
)
