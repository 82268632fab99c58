import Foundation
import FuzzDriver
import JewzImageCache

/// Feeds arbitrary bytes to `Image(data:)`: every format's header reader behind the sniffer.
/// A trap is a finding; so is an image with a side of zero or less, which every reader must
/// refuse.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    let bytes = Data(UnsafeBufferPointer(start: data, count: count))
    if let image = try? Image(data: bytes), let size = image.pixelSize, size.width <= 0 || size.height <= 0 {
        fatalError("a \(image.format) image of \(size)")
    }
    return 0
}

/// SwiftPM links an executable's entry point as `<target>_main`; hand control to libFuzzer.
@_cdecl("ImageFuzzer_main")
public func fuzzerMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    runFuzzer(argc, argv) { data, count in fuzz(data, count) }
}
