import AsyncHTTPClient
import Foundation

/// The paths every server of `./run` answers (nginx's folder, or the Sandbox).
public enum BenchPath {
    public static let hello = "/hello/"
    /// `Hello World` with `Cache-Control: max-age=3600` (the Sandbox's `/cached/KEY` does the same).
    public static let cached = "/cached/bench?cc=max-age=3600"
    /// 1 MiB of the download pattern with `Cache-Control: max-age=3600` (the Sandbox's
    /// `/cached/KEY?size=N` sends N bytes the same way).
    public static let cachedLarge = "/cached/bench-large?cc=max-age=3600&size=1048576"
    /// The Sandbox's `plain.png` (37×23) with `Cache-Control: max-age=3600`, from nginx as
    /// from the Sandbox's `/cached/KEY?image=NAME`.
    public static let image = "/cached/bench-image?image=plain.png&cc=max-age=3600"
    public static let items = "/items/27"
    public static let download = "/download/104857600"
    /// 1 MiB of the download pattern, without cache headers: a body read into memory.
    public static let large = "/download/1048576"
    /// Takes a PUT of any body. nginx's WebDAV module reads the whole body before it answers,
    /// where a `return` answers at once and lets the client stop sending.
    public static let sink = "/sink/upload"
}

/// Streams a response body into a temporary file with write(2), the least a caller of raw
/// AsyncHTTPClient would write, then removes the file.
public func rawDownload(_ url: String, client: HTTPClient) async throws {
    let path = FileManager.default.temporaryDirectory.appendingPathComponent("raw-\(UUID().uuidString)").path
    let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
    guard descriptor >= 0 else { throw POSIXError(.EACCES) }
    defer {
        close(descriptor)
        unlink(path)
    }
    let response = try await client.execute(HTTPClientRequest(url: url), timeout: .seconds(60))
    for try await buffer in response.body {
        try buffer.withUnsafeReadableBytes { bytes in
            var offset = 0
            while offset < bytes.count {
                let written = write(descriptor, bytes.baseAddress.map { $0 + offset }, bytes.count - offset)
                guard written > 0 else { throw POSIXError(.EIO) }
                offset += written
            }
        }
    }
}
