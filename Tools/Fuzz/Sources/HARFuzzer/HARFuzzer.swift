import Foundation
import FuzzDriver
import JewzHAR

/// Feeds arbitrary bytes to the HAR reader (`HTTPArchive` from JSON): an archive read, written
/// and read again is the same archive. A trap anywhere is a finding.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    let bytes = Data(UnsafeBufferPointer(start: data, count: count))
    guard let archive = try? JSONDecoder().decode(HTTPArchive.self, from: bytes) else { return 0 }
    guard let written = try? JSONEncoder().encode(archive) else { fatalError("an archive read cannot be written") }
    guard let again = try? JSONDecoder().decode(HTTPArchive.self, from: written), again == archive else {
        fatalError("an archive written reads differently: \(String(decoding: written, as: UTF8.self))")
    }
    return 0
}

/// SwiftPM links an executable's entry point as `<target>_main`; hand control to libFuzzer.
@_cdecl("HARFuzzer_main")
public func fuzzerMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    runFuzzer(argc, argv) { data, count in fuzz(data, count) }
}
