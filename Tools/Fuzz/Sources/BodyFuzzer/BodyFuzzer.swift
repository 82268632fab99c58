import Foundation
import FuzzDriver
import JewzForm
import JewzJSON
import JewzMultipart

/// Feeds arbitrary bytes to the body parsers: JSON (with its depth limit), form decoding, and
/// the multipart push parser in chunks of every size the first byte picks. A trap anywhere is
/// a finding; so is JSON that parses but does not parse again from its own writing.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    let bytes = UnsafeBufferPointer(start: data, count: count)
    if let value = try? JSONValue(parsing: bytes, maximumDepth: 64) {
        let written = value.encoded()
        guard (try? JSONValue(parsing: written, maximumDepth: 64)) != nil else {
            fatalError("JSON that does not read back: \(String(decoding: written, as: UTF8.self))")
        }
    }
    _ = try? FormFields(decoding: String(decoding: bytes, as: UTF8.self))
    if var parser = try? MultipartParser(boundary: "fuzz-boundary") {
        let step = max(1, Int(bytes.first ?? 1))
        var offset = 0
        do {
            while offset < bytes.count {
                _ = try parser.feed(bytes[offset..<min(offset + step, bytes.count)])
                offset += step
            }
            try parser.finish()
        } catch {
            // A malformed body is an error value: what the parser must give.
        }
    }
    return 0
}

/// SwiftPM links an executable's entry point as `<target>_main`; hand control to libFuzzer.
@_cdecl("BodyFuzzer_main")
public func fuzzerMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    runFuzzer(argc, argv) { data, count in fuzz(data, count) }
}
