import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Reading exactly so many bytes of an open file, with `pread(2)`: a stored body's chunks and a
/// cache entry's parts, without `FileHandle`'s cost on a path a cache hit takes.
package enum FileBytes {
    /// `count` bytes at `offset` of the file open as `descriptor`, or `nil` when fewer are there
    /// or the read fails.
    package static func read(_ count: Int, from descriptor: Int32, at offset: Int) -> Data? {
        var data = Data(count: count)
        let complete = data.withUnsafeMutableBytes { buffer -> Bool in
            guard let base = buffer.baseAddress else { return true }
            var done = 0
            while done < count {
                let got = pread(descriptor, base + done, count - done, off_t(offset + done))
                if got < 0, errno == EINTR { continue }
                guard got > 0 else { return false }
                done += got
            }
            return true
        }
        return complete ? data : nil
    }
}
