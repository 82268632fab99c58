import FuzzDriver
import JewzAuth

/// Feeds arbitrary bytes to the `WWW-Authenticate` parser as one or more fields (split at 0x00)
/// and checks what it gives back: every scheme and parameter name a non-empty lowercase token,
/// and a challenge with a token68 has no parameters. A trap anywhere is a finding.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    let bytes = UnsafeBufferPointer(start: data, count: count)
    let fields = bytes.split(separator: 0, omittingEmptySubsequences: false).map { String(decoding: $0, as: UTF8.self) }
    for challenge in AuthenticationChallenge.parse(fields) {
        guard isLowercaseToken(challenge.scheme), challenge.parameters.keys.allSatisfy(isLowercaseToken) else {
            fatalError("malformed result for \(fields.debugDescription): \(challenge)")
        }
        if challenge.token != nil, !challenge.parameters.isEmpty {
            fatalError("token68 and parameters together for \(fields.debugDescription): \(challenge)")
        }
    }
    return 0
}

private func isLowercaseToken(_ text: String) -> Bool {
    !text.isEmpty && text == text.lowercased()
        && text.utf8.allSatisfy { $0 > 0x20 && $0 < 0x7F && !Array(#"()<>@,;:\"/[]?={}"#.utf8).contains($0) }
}

/// SwiftPM links an executable's entry point as `<target>_main`; hand control to libFuzzer.
@_cdecl("ChallengeFuzzer_main")
public func fuzzerMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    runFuzzer(argc, argv) { data, count in fuzz(data, count) }
}
