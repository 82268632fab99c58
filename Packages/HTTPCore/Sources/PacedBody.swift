import Foundation
import NIOCore
import NIOFoundationCompat

/// A request body for AsyncHTTPClient that cannot run ahead of the connection.
///
/// AsyncHTTPClient pauses a streamed body when the channel stops being writable, but the pause
/// reaches the producing task only after the event loop has run the writes already queued; a
/// producer reading a file from the page cache queues hundreds of megabytes in that time (we
/// measured 600 MiB for a 1 GiB upload in 16 KiB chunks). Every ``barrierInterval`` bytes the
/// producer waits until each event loop has worked through what was queued before it, so a
/// pause is in effect before more is produced.
struct PacedBody: AsyncSequence, Sendable {
    typealias Element = ByteBuffer

    static let barrierInterval = 1 << 20

    let chunks: HTTPBodyChunks
    let eventLoops: any EventLoopGroup

    struct AsyncIterator: AsyncIteratorProtocol {
        var chunks: HTTPBodyChunks.AsyncIterator
        let eventLoops: any EventLoopGroup
        var sinceBarrier = 0

        mutating func next() async throws -> ByteBuffer? {
            if sinceBarrier >= PacedBody.barrierInterval {
                sinceBarrier = 0
                for eventLoop in eventLoops.makeIterator() {
                    try await eventLoop.submit {}.get()
                }
            }
            guard let chunk = try await chunks.next() else { return nil }
            sinceBarrier += chunk.count
            return ByteBuffer(data: chunk)
        }
    }

    func makeAsyncIterator() -> AsyncIterator {
        AsyncIterator(chunks: chunks.makeAsyncIterator(), eventLoops: eventLoops)
    }
}
