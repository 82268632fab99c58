import ArgumentParser
import Foundation
import Jewzruxin

/// What a file that is not a regular one holds — a FIFO, `/dev/stdin`, a process substitution
/// (`<(gzip -c data)`), a character device — read as it comes, for an upload sent chunked: it
/// has no size to send up front and can be read once.
///
/// Each chunk is read when the upload asks for it, on NIO's thread pool (a read from a pipe
/// waits for its writer), so a slow network holds the writer back rather than filling memory.
final class PipeChunks: Sendable {
    private let descriptor: Int32
    private let path: String

    /// The chunks of the file at `path`.
    ///
    /// - Throws: `ValidationError` when it cannot be opened.
    init(path: String) throws {
        descriptor = open(path, O_RDONLY | O_CLOEXEC)
        self.path = path
        guard descriptor >= 0 else {
            throw ValidationError("The file body at \(path) cannot be opened (\(String(cString: strerror(errno)))); check that it exists and is readable.")
        }
    }

    deinit { close(descriptor) }

    /// Whether `path` names something other than a regular file (a pipe, a device), which
    /// must be streamed without a length.
    static func isStream(_ path: String) -> Bool {
        var info = stat()
        return stat(path, &info) == 0 && info.st_mode & S_IFMT != S_IFREG
    }

    /// The body: chunks of up to 64 KiB, until the writer closes its end.
    var body: HTTPRequestBody {
        .stream(HTTPBodyStream(AsyncThrowingStream { try await self.next() }))
    }

    /// The next chunk; `nil` at the end.
    ///
    /// - Throws: ``HTTPError/Code/unreadableBody`` when a read fails.
    private func next() async throws -> Data? {
        let (descriptor, path) = (descriptor, path)
        return try await BlockingIO.run { () throws(HTTPError) -> Data? in
            var chunk = Data(count: 64 << 10)
            while true {
                let count = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
                if count > 0 { return chunk.prefix(count) }
                if count == 0 { return nil }
                guard errno == EINTR else { throw .unreadableBody(path) }
            }
        }
    }
}
