import Foundation
import FuzzDriver
import JewzService

/// Feeds arbitrary bytes as a service profile — JSON, a property list, YAML or an OpenAPI
/// document, as `ServiceProfile.fetch` takes them from a server — to the reader and the
/// verifier. A trap is a finding; so is a verifier that says nothing about bytes no profile can
/// be made from, and a profile whose resources' templates do not expand.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    let bytes = Data(bytes: data, count: count)
    let problems: [ProfileProblem]
    do { problems = try ServiceProfile.problems(in: bytes) } catch { return 0 }
    do {
        let profile = try ServiceProfile(data: bytes)
        for resource in profile.resources {
            do { _ = try resource.template.expand { _ in "x" } } catch {
                if error.code == .prefixOnCompositeValue { continue }
                fatalError("\(resource.template) does not expand: \(error)")
            }
        }
    } catch {
        if problems.isEmpty { fatalError("no profile and no problem: \(error)") }
    }
    return 0
}

/// SwiftPM links an executable's entry point as `<target>_main`; hand control to libFuzzer.
@_cdecl("ProfileFuzzer_main")
public func fuzzerMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    runFuzzer(argc, argv) { data, count in fuzz(data, count) }
}
