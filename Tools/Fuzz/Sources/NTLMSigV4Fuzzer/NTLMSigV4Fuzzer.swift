import FuzzDriver
@_spi(Fuzzing) import JewzAuth

/// Feeds arbitrary bytes to the NTLM challenge reader and the target information reader (what
/// it reads, written back, reads the same), and, split at 0x00 into a method, a path, a query
/// and `name:value` fields, to Signature Version 4's canonical request for S3 and for other
/// services (the same input gives the same request; its last line is the payload's hash). A
/// trap anywhere is a finding.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: count))
    _ = AuthParsers.ntlmChallenge(bytes)
    if let info = AuthParsers.ntlmTargetInformation(bytes), !info.again {
        fatalError("target information written back reads differently: \(bytes)")
    }
    let parts = bytes.split(separator: 0, maxSplits: 3, omittingEmptySubsequences: false).map { String(decoding: $0, as: UTF8.self) }
    guard parts.count == 4 else { return 0 }
    var fields: [(name: String, value: String)] = []
    for line: Substring in parts[3].split(separator: "\n") {
        guard let colon = line.firstIndex(of: ":") else { continue }
        fields.append((String(line[..<colon]), String(line[line.index(after: colon)...])))
    }
    for s3 in [true, false] {
        let canonical = AuthParsers.sigV4CanonicalRequest(method: parts[0], path: parts[1], query: parts[2], fields: fields, s3: s3)
        let again = AuthParsers.sigV4CanonicalRequest(method: parts[0], path: parts[1], query: parts[2], fields: fields, s3: s3)
        // Compared as bytes: a `\r` before the last `\n` would make one character of them.
        let ending = Array("\ne3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855".utf8)
        guard canonical == again, Array(canonical.utf8).suffix(ending.count) == ending[...] else {
            fatalError("an unstable or malformed canonical request: \(canonical.debugDescription)")
        }
    }
    return 0
}

/// SwiftPM links an executable's entry point as `<target>_main`; hand control to libFuzzer.
@_cdecl("NTLMSigV4Fuzzer_main")
public func fuzzerMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    runFuzzer(argc, argv) { data, count in fuzz(data, count) }
}
