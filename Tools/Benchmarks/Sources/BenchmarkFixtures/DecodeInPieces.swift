import Foundation
import JewzHTTPCore

/// `packed` fed to `decoder` `pieceSize` bytes at a time, as a body arrives from the network;
/// what it decoded.
public func decodeInPieces(_ packed: Data, with decoder: any HTTPContentDecoding, pieceSize: Int = 16 << 10) -> Data {
    var output = Data()
    packed.withUnsafeBytes { bytes in
        var offset = 0
        while offset < bytes.count {
            let end = min(offset + pieceSize, bytes.count)
            try? decoder.decode(UnsafeRawBufferPointer(rebasing: bytes[offset..<end]), into: &output)
            offset = end
        }
    }
    try? decoder.finish(into: &output)
    return output
}
