import Foundation
import JewzLocking

/// A body produced as it is sent, such as a pipe or a generator: it can be sent once.
///
/// ```swift
/// let cycle = HTTPCycle(requestURL: url)
/// let (chunks, continuation) = AsyncThrowingStream<Data, any Error>.makeStream()
/// cycle.request.body = .stream(HTTPBodyStream(length: 11, chunks))
/// continuation.yield(Data("Hello World".utf8)); continuation.finish()
/// ```
public final class HTTPBodyStream: Sendable {
    /// The length in bytes, if known up front (sent as Content-Length; else chunked).
    package let length: Int?
    private let chunks: Mutex<AsyncThrowingStream<Data, any Error>?>

    /// A body of `chunks`, read once as it is sent; `length` goes in `Content-Length` when it
    /// is known (else the body is sent chunked).
    public init(length: Int? = nil, _ chunks: AsyncThrowingStream<Data, any Error>) {
        self.length = length
        self.chunks = Mutex(chunks)
    }

    /// The chunks, the first time they are asked for.
    ///
    /// - Throws: ``HTTPError/Code/bodyNotReplayable`` every later time.
    package func take() throws(HTTPError) -> AsyncThrowingStream<Data, any Error> {
        let taken = chunks.withLock { chunks in
            defer { chunks = nil }
            return chunks
        }
        guard let taken else { throw .bodyNotReplayable }
        return taken
    }
}
