import AsyncHTTPClient
import Foundation
import JewzLocking
import NIOCore
import NIOFoundationCompat

// A request body as AsyncHTTPClient sends it: bytes in one piece, or buffers written as the
// connection takes them, a window at a time.
extension AsyncHTTPClientTransport {
    /// How many bytes of a streamed request body may be written but not yet sent.
    static let bytesInFlight = 2 << 20

    /// The request body as AsyncHTTPClient sends it: bytes in one piece when nobody watches
    /// the progress; bytes and files read straight into the buffers they are sent from; a
    /// stream's chunks, written as the connection takes them.
    func body(of request: HTTPRequest, reportingProgress: Bool, eventLoop: any EventLoop) throws -> HTTPClient.Body? {
        guard let body = request.body else { return nil }
        let segments: [HTTPBodySegment]
        switch body {
        case .data(let data) where !reportingProgress:
            return .bytes(data)
        case .data(let data):
            segments = [.data(data)]
        case .file(let url):
            segments = [.file(url)]
        case .segments(let parts):
            segments = parts
        case .stream:
            return try streamed(body, eventLoop: eventLoop)
        }
        // Read again for each attempt AsyncHTTPClient makes: bytes and files can be.
        let buffers = BodyByteBuffers(
            segments: segments, bufferSize: reportingProgress ? HTTPBodyChunks.chunkSize : BodyByteBuffers.unwatchedBufferSize)
        return .stream(contentLength: Int64(try segments.length())) { writer in
            let promise = eventLoop.makePromise(of: Void.self)
            promise.completeWithTask {
                try await Self.write(buffers, to: writer, window: Self.bytesInFlight / buffers.bufferSize)
            }
            return promise.futureResult
        }
    }

    /// A one-shot stream as AsyncHTTPClient sends it, its chunks written as the connection takes them.
    private func streamed(_ body: HTTPRequestBody, eventLoop: any EventLoop) throws -> HTTPClient.Body {
        // The chunks are taken now (a stream's only chance); should AsyncHTTPClient ask
        // again (it follows no redirects here, the cycle does), only a replayable body can
        // give them.
        let chunks = try HTTPBodyChunks(body, reporting: nil)
        let first = Mutex<HTTPBodyChunks?>(chunks)
        return .stream(contentLength: chunks.length.map(Int64.init)) { writer in
            let promise = eventLoop.makePromise(of: Void.self)
            promise.completeWithTask {
                let chunks = try first.withLock { chunks in
                    defer { chunks = nil }
                    return chunks
                } ?? HTTPBodyChunks(body, reporting: nil)
                let buffers = chunks.map { ByteBuffer(data: $0) }
                try await Self.write(buffers, to: writer, window: Self.bytesInFlight / HTTPBodyChunks.chunkSize)
            }
            return promise.futureResult
        }
    }

    /// Writes `buffers` in order, at most `window` of them unsent, waiting for half a window at
    /// a time: the connection always has buffers to send, memory holds at most a window, and
    /// the writing task is woken once per half window rather than once per buffer (each
    /// wake-up of a sleeping thread cost more CPU than the buffer's copy).
    private static func write(
        _ buffers: some AsyncSequence<ByteBuffer, any Error>, to writer: HTTPClient.Body.StreamWriter, window: Int
    ) async throws {
        let half = window / 2
        var writes = CircularBuffer<EventLoopFuture<Void>>(initialCapacity: window)
        for try await buffer in buffers {
            writes.append(writer.write(.byteBuffer(buffer)))
            if writes.count == window {
                // Writes complete in order: the half's last done means the half is.
                try await writes[writes.index(writes.startIndex, offsetBy: half - 1)].get()
                writes.removeFirst(half)
            }
        }
        for write in writes { try await write.get() }
    }
}
