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
    /// `url`'s file, open for reading, and its size as it opens: an upload sends no more than
    /// the length it counted, however the file grows.
    ///
    /// - Throws: ``HTTPError/unreadableBody(_:)`` when it cannot be opened.
    package static func open(_ url: URL) throws(HTTPError) -> (handle: FileHandle, size: Int) {
        guard let handle = try? FileHandle(forReadingFrom: url), let end = try? handle.seekToEnd() else {
            throw .unreadableBody(url.path)
        }
        return (handle, Int(end))
    }

    /// `count` bytes at `offset` of the file open as `descriptor`, or `nil` when fewer are there
    /// or the read fails.
    package static func read(_ count: Int, from descriptor: Int32, at offset: Int) -> Data? {
        // A read that may wait throws nothing.
        (try? read(count, from: descriptor, at: offset, waiting: true)) ?? nil
    }

    /// Thrown by a read that may not wait when some of its bytes are on the disk only (or the
    /// file is shorter): read them again where waiting is allowed, on NIO's thread pool.
    package struct WouldWait: Error {
        package init() {}
    }

    /// As ``read(_:from:at:)``; without `waiting`, from the page cache only (`RWF_NOWAIT`).
    ///
    /// - Throws: ``WouldWait`` when not `waiting` and the bytes are not all in memory.
    package static func read(_ count: Int, from descriptor: Int32, at offset: Int, waiting: Bool) throws -> Data? {
        var data = Data(count: count)
        let filled = try data.withUnsafeMutableBytes { try fill($0, from: descriptor, at: offset, waiting: waiting) }
        return filled == count ? data : nil
    }

    /// As ``fill(_:from:at:)``; without `waiting`, only when the page cache holds the whole
    /// buffer's bytes (`RWF_NOWAIT`): a read that ends short, at the file's end or not, is left
    /// to one that may wait.
    ///
    /// - Throws: ``WouldWait`` when not `waiting` and the buffer cannot be filled from memory.
    package static func fill(_ buffer: UnsafeMutableRawBufferPointer, from descriptor: Int32, at offset: Int, waiting: Bool) throws -> Int? {
        guard !waiting else { return fill(buffer, from: descriptor, at: offset) }
        let got = jewz_pread_cached(descriptor, buffer.baseAddress, UInt(buffer.count), Int64(offset))
        guard got == buffer.count else { throw WouldWait() }
        return got
    }

    /// What `read` gives, read where this is called when the page cache holds the bytes
    /// (`read(false)`), and on NIO's thread pool, where waiting on the disk holds no task's
    /// thread, when it throws ``WouldWait`` (`read(true)`).
    ///
    /// - Throws: what `read` throws, but ``WouldWait``.
    package static func readInPlaceOrOnPool<Value: Sendable>(
        _ read: @escaping @Sendable (_ waiting: Bool) throws -> Value
    ) async throws -> Value {
        do {
            return try read(false)
        } catch is WouldWait {
            return try await BlockingIO.run { try read(true) }
        }
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
