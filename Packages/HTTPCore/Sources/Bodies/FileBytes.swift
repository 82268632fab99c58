import CJewzFiles
import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Reading an open file's bytes at an offset, with `pread(2)`: a stored body's chunks, a cache
/// entry's parts and a request body's files, without `FileHandle`'s cost.
package enum FileBytes {
    /// `count` bytes at `offset` of the file open as `descriptor`, or `nil` when fewer are there
    /// or the read fails.
    package static func read(_ count: Int, from descriptor: Int32, at offset: Int) -> Data? {
        var data = Data(count: count)
        let filled = data.withUnsafeMutableBytes { fill($0, from: descriptor, at: offset) }
        return filled == count ? data : nil
    }

    /// As ``read(_:from:at:)``, from the page cache only: `nil` when the bytes are not all in
    /// memory (reading them would wait on the disk) or the file is shorter. Then read them
    /// where waiting is allowed, on NIO's thread pool.
    package static func readCached(_ count: Int, from descriptor: Int32, at offset: Int) -> Data? {
        var data = Data(count: count)
        let got = data.withUnsafeMutableBytes { jewz_pread_cached(descriptor, $0.baseAddress, UInt($0.count), Int64(offset)) }
        return got == count ? data : nil
    }

    /// Fills `buffer` from `offset` of the file open as `descriptor`, as far as the file goes:
    /// the bytes read (fewer than the buffer holds only at the file's end), `nil` when a read fails.
    package static func fill(_ buffer: UnsafeMutableRawBufferPointer, from descriptor: Int32, at offset: Int) -> Int? {
        guard let base = buffer.baseAddress else { return 0 }
        var done = 0
        while done < buffer.count {
            let got = pread(descriptor, base + done, buffer.count - done, off_t(offset + done))
            if got > 0 {
                done += got
            } else if got == 0 {
                break
            } else if errno != EINTR {
                return nil
            }
        }
        return done
    }
}
