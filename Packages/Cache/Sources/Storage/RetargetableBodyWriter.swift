import JewzHTTPCore
import struct Synchronization.Atomic

/// A store's body writer that can keep what it wrote as another entry than the one it was
/// made for: how the start of a body whose transfer broke becomes a piece
/// (`HTTPCache.storing`, for a streamed body). The stores of this module make such writers.
protocol RetargetableBodyWriter: CacheBodyWriter {
    /// Stores the bytes written as the body of `entry` (its key, status and headers).
    func finish(as entry: CachedResponse)
}

/// Passes a body on to a store's writer, counting it, and when the transfer breaks keeps what
/// arrived as the entry `piece` makes of that count, if it makes one.
final class CutOffKeepingWriter: CacheBodyWriter {
    private let inner: any RetargetableBodyWriter
    private let piece: @Sendable (Int) -> CachedResponse?
    /// Written by the one task that reads the body; read when it ends.
    private let written = Atomic(0)

    init(_ inner: any RetargetableBodyWriter, piece: @escaping @Sendable (Int) -> CachedResponse?) {
        self.inner = inner
        self.piece = piece
    }

    func write(_ bytes: UnsafeRawBufferPointer) {
        written.add(bytes.count, ordering: .relaxed)
        inner.write(bytes)
    }

    func finish() {
        inner.finish()
    }

    func fail() {
        guard let entry = piece(written.load(ordering: .relaxed)) else { return }
        inner.finish(as: entry)
    }
}
