import Foundation
import JewzHTTPCore
import JewzLocking

/// The first bytes of a response body, copied as it arrives (``JewzHTTPCore/HTTPNext/copyingBody(to:)``),
/// and how many there were in all: a body past the limit is counted, not kept.
final class BodyCapture: HTTPResponseBodyWriter {
    private struct State {
        var kept = Data()
        var count = 0
        var headArrived: ContinuousClock.Instant?
    }

    private let limit: Int
    private let state = Mutex(State())

    init(limit: Int) {
        self.limit = limit
    }

    /// Notes that the head arrived now: the end of the wait, the start of the receive.
    func headArrived() {
        state.withLock { $0.headArrived = .now }
    }

    func write(_ bytes: UnsafeRawBufferPointer) {
        state.withLock { state in
            state.count += bytes.count
            guard state.kept.count + bytes.count <= limit else { return }
            state.kept.append(contentsOf: bytes)
        }
    }

    func finish() {}

    /// The bytes kept, the bytes seen, and when the head arrived.
    var captured: (kept: Data, count: Int, headArrived: ContinuousClock.Instant?) {
        state.withLock { ($0.kept, $0.count, $0.headArrived) }
    }
}
