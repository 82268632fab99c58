import Foundation

/// A response body read as it arrives, in chunks, for bodies too big for memory or meant to be
/// processed on the fly. Content codings are already undone.
///
/// At most about a megabyte waits for a slow reader; beyond it the connection waits too.
/// Dropping the body, or cancelling the task that reads it, stops the transfer.
///
/// ```swift
/// let (response, body) = try await cycle.startStreaming()
/// for try await chunk in body { hasher.update(chunk) }
/// ```
public struct HTTPResponseBody: AsyncSequence, Sendable {
    public typealias Element = Data

    /// Stops the transfer when the last copy of the body and its iterators are gone.
    final class Reader: Sendable {
        let channel: ResponseBodyChannel

        init(_ channel: ResponseBodyChannel) {
            self.channel = channel
        }

        deinit {
            channel.abandon()
        }
    }

    let reader: Reader

    public struct AsyncIterator: AsyncIteratorProtocol {
        let reader: Reader

        /// The next chunk, or `nil` after the last.
        ///
        /// - Throws: the ``HTTPError`` that ended the transfer (a lost connection, a timeout,
        ///   a corrupt encoding), or `CancellationError` when the reading task is cancelled.
        public mutating func next() async throws -> Data? {
            let channel = reader.channel
            return try await withTaskCancellationHandler {
                try await channel.next()
            } onCancel: {
                channel.abandon()
            }
        }
    }

    public func makeAsyncIterator() -> AsyncIterator {
        AsyncIterator(reader: reader)
    }

    /// Reads the whole body into memory, refusing more than `limit` bytes.
    ///
    /// - Throws: ``HTTPError/responseTooLarge(limit:)``, or what ended the transfer.
    public func collect(upTo limit: Int) async throws -> Data {
        var data = Data()
        for try await chunk in self {
            guard data.count + chunk.count <= limit else { throw HTTPError.responseTooLarge(limit: limit) }
            data.append(chunk)
        }
        return data
    }
}
