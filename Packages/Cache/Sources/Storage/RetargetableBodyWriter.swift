import JewzHTTPCore
import JewzLocking

/// A store's body writer that can keep what it wrote as another entry than the one it was
/// made for: how the start of a body whose transfer broke becomes a piece
/// (`HTTPCache`'s keeper for a streamed body). The stores of this module make such writers.
protocol RetargetableBodyWriter: HTTPResponseBodyWriter {
    /// Stores the bytes written as the body of `entry` (its key, status and headers).
    func finish(as entry: CachedResponse)
}

/// Passes a body on to a store's writer, counting it, and when the transfer breaks keeps what
/// arrived as the entry `piece` makes of that count, if it makes one.
final class CutOffKeepingWriter: HTTPResponseBodyWriter {
    private let inner: any RetargetableBodyWriter
    private let piece: @Sendable (Int) -> CachedResponse?
    private let written = Mutex(0)

    init(_ inner: any RetargetableBodyWriter, piece: @escaping @Sendable (Int) -> CachedResponse?) {
        self.inner = inner
        self.piece = piece
    }

    func write(_ bytes: UnsafeRawBufferPointer) {
        written.withLock { $0 += bytes.count }
        inner.write(bytes)
    }

    func finish() {
        inner.finish()
    }

    func fail() {
        guard let entry = piece(written.withLock { $0 }) else { return }
        inner.finish(as: entry)
    }
}
