import Foundation
import Synchronization

#if canImport(Glibc)
import Glibc
private let system = (write: Glibc.write, close: Glibc.close)
#elseif canImport(Darwin)
import Darwin
private let system = (write: Darwin.write, close: Darwin.close)
#endif

/// A file a download writes into with plain `write(2)` calls: each chunk goes straight from
/// the connection's buffer to the kernel, without a copy or a buffer of ours.
package final class DownloadFile: Sendable {
    let url: URL
    /// The open file, -1 once closed: atomic, so that the file can be handed between the tasks
    /// of a run (its ``DownloadTarget`` orders the calls).
    private let fileDescriptor: Atomic<Int32>

    /// Opens `url` for writing at `offset`, creating it when missing and cutting anything
    /// past `offset`.
    ///
    /// - Throws: ``HTTPError/downloadFile(path:reason:)``.
    package init(url: URL, keepingFirst offset: Int64) throws(HTTPError) {
        self.url = url
        let descriptor = open(url.path, O_WRONLY | O_CREAT | O_CLOEXEC, 0o600)
        fileDescriptor = Atomic(descriptor)
        guard descriptor >= 0 else { throw Self.failure(url, "cannot open") }
        // Cut only what is there: on ext4, truncating a file (even an empty one) makes its
        // close flush the whole file to disk (auto_da_alloc), which halved download speed.
        var status = stat()
        guard fstat(descriptor, &status) == 0,
            status.st_size <= offset || ftruncate(descriptor, off_t(offset)) == 0,
            lseek(descriptor, off_t(offset), SEEK_SET) == offset
        else {
            let error = Self.failure(url, "cannot cut to \(offset) bytes")
            _ = system.close(descriptor)
            fileDescriptor.store(-1, ordering: .relaxed)
            throw error
        }
    }

    deinit {
        let descriptor = fileDescriptor.load(ordering: .relaxed)
        if descriptor >= 0 { _ = system.close(descriptor) }
    }

    /// A new file's name in `directory`, recognisable as ours.
    static func temporaryURL(in directory: URL) -> URL {
        directory.appendingPathComponent("jewz-download-\(UUID().uuidString)")
    }

    /// Writes all of `bytes`.
    ///
    /// - Throws: ``HTTPError/downloadFile(path:reason:)`` (disk full, file closed…).
    package func write(_ bytes: UnsafeRawBufferPointer) throws(HTTPError) {
        guard var base = bytes.baseAddress else { return }
        let descriptor = fileDescriptor.load(ordering: .relaxed)
        var remaining = bytes.count
        while remaining > 0 {
            let written = system.write(descriptor, base, remaining)
            if written < 0 {
                if errno == EINTR { continue }
                throw Self.failure(url, "cannot write")
            }
            remaining -= written
            base += written
        }
    }

    /// Closes the file; its contents stay.
    ///
    /// - Throws: ``HTTPError/downloadFile(path:reason:)`` when the last writes fail to land.
    package func close() throws(HTTPError) {
        let descriptor = fileDescriptor.exchange(-1, ordering: .relaxed)
        guard descriptor >= 0 else { return }
        let result = system.close(descriptor)
        if result != 0 { throw Self.failure(url, "cannot close") }
    }

    private static func failure(_ url: URL, _ what: String) -> HTTPError {
        .downloadFile(path: url.path, reason: "\(what): \(String(cString: strerror(errno)))")
    }
}
