import Foundation
import JewzHTTPCore
import JewzLocking

/// A body writer that gathers the body in memory up to a limit and hands the whole response
/// on when finished: how a store in memory takes a streamed body. Past the limit it keeps
/// nothing.
final class GatheringBodyWriter: RetargetableBodyWriter {
    private let response: CachedResponse
    private let limit: Int
    private let onFinish: @Sendable (CachedResponse) -> Void
    /// The body so far; `nil` once it passed the limit.
    private let body = Mutex<Data?>(Data())

    init(_ response: CachedResponse, limit: Int, onFinish: @escaping @Sendable (CachedResponse) -> Void) {
        self.response = response
        self.limit = limit
        self.onFinish = onFinish
    }

    func write(_ bytes: UnsafeRawBufferPointer) {
        body.withLock { body in
            guard let count = body?.count else { return }
            if count + bytes.count > limit { body = nil } else { body?.append(contentsOf: bytes) }
        }
    }

    func finish() {
        finish(as: response)
    }

    func finish(as entry: CachedResponse) {
        guard let whole = body.withLock({ body in defer { body = nil }; return body }) else { return }
        var complete = entry
        complete.bodyFile = nil
        complete.body = whole
        onFinish(complete)
    }
}
