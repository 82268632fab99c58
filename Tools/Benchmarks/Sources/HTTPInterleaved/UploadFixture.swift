import AsyncHTTPClient
import Foundation
import Jewzruxin
import NIOCore

// What the upload cases send: a 64 MiB file, as it is and as the one part of a form, and the
// baseline's bodies read from it.

/// A 64 MiB file to upload, read from the page cache by both sides; written when the upload
/// case first runs, removed at exit.
enum UploadFixture {
    static let size = 64 << 20
    static let file: URL = {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("jewz-bench-upload-\(getpid())")
        guard FileManager.default.createFile(atPath: url.path, contents: Data(count: size)) else {
            print("cannot write \(url.path)")
            exit(1)
        }
        atexit { try? FileManager.default.removeItem(at: UploadFixture.file) }
        return url
    }()

    static let boundary = "jewz-bench-boundary"
    /// The file as the one part of a form, for the multipart upload.
    static let form: MultipartFormData = {
        do {
            var form = try MultipartFormData(boundary: boundary)
            try form.append(fileAt: file, name: "file", filename: "upload.bin", contentType: "application/octet-stream")
            return form
        } catch {
            print("cannot make the multipart form: \(error)")
            exit(1)
        }
    }()
    /// What the baseline writes around the file: the part's head and the closing boundary.
    static let multipartFraming = (
        "--\(boundary)\r\nContent-Disposition: form-data; name=\"file\"; filename=\"upload.bin\"\r\n"
            + "Content-Type: application/octet-stream\r\n\r\n",
        "\r\n--\(boundary)--\r\n"
    )
    static let sinkURL: URL = {
        guard let url = URL(string: sink) else {
            print("not a URL: \(sink)")
            exit(1)
        }
        return url
    }()
}

/// A file read in 64 KiB buffers, the baseline's upload body.
struct FileBuffers: AsyncSequence, Sendable {
    let url: URL

    struct AsyncIterator: AsyncIteratorProtocol {
        let handle: FileHandle?

        mutating func next() async throws -> ByteBuffer? {
            guard let data = try handle?.read(upToCount: 64 << 10), !data.isEmpty else { return nil }
            return ByteBuffer(data: data)
        }
    }

    func makeAsyncIterator() -> AsyncIterator { AsyncIterator(handle: try? FileHandle(forReadingFrom: url)) }
}

/// The baseline's multipart body: the part's head, the file in 64 KiB buffers, the closing boundary.
struct FramedFileBuffers: AsyncSequence, Sendable {
    let head: ByteBuffer
    let file: URL
    let tail: ByteBuffer

    struct AsyncIterator: AsyncIteratorProtocol {
        var head: ByteBuffer?
        var file: FileBuffers.AsyncIterator
        var tail: ByteBuffer?

        mutating func next() async throws -> ByteBuffer? {
            if let head {
                self.head = nil
                return head
            }
            if let buffer = try await file.next() { return buffer }
            defer { tail = nil }
            return tail
        }
    }

    func makeAsyncIterator() -> AsyncIterator {
        AsyncIterator(head: head, file: FileBuffers(url: file).makeAsyncIterator(), tail: tail)
    }
}
