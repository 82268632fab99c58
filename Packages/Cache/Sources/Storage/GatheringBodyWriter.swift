import Foundation
import JewzHTTPCore

/// A body writer that gathers the body in memory up to a limit and hands the whole response
/// on when finished: how a store in memory takes a streamed body. Past the limit it keeps
/// nothing.
final class GatheringBodyWriter: RetargetableBodyWriter {
    private let response: CachedResponse
    private let onFinish: @Sendable (CachedResponse) -> Void
    private let body: BoundedGathering

    init(_ response: CachedResponse, limit: Int, onFinish: @escaping @Sendable (CachedResponse) -> Void) {
        self.response = response
        self.onFinish = onFinish
        body = BoundedGathering(limit: limit)
    }

    func write(_ bytes: UnsafeRawBufferPointer) {
        body.append(bytes)
    }

    func finish() {
        finish(as: response)
    }

    func finish(as entry: CachedResponse) {
        guard let whole = body.take() else { return }
        var complete = entry
        complete.bodyFile = nil
        complete.body = whole
        onFinish(complete)
    }
}
