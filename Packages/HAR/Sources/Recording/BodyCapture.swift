import Foundation
import JewzHTTPCore
import JewzLocking

/// The first bytes of a streamed response body, copied as it is read, and how many there were
/// in all: a body past the limit is counted, not kept.
final class BodyCapture: Sendable {
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

    /// Counts the next chunk, and keeps it while the kept bytes stay within the limit.
    func keep(_ chunk: Data) {
        state.withLock { state in
            state.count += chunk.count
            guard state.kept.count + chunk.count <= limit else { return }
            state.kept.append(chunk)
        }
    }

    /// The bytes kept, the bytes seen, and when the head arrived.
    var captured: (kept: Data, count: Int, headArrived: ContinuousClock.Instant?) {
        state.withLock { ($0.kept, $0.count, $0.headArrived) }
    }
}
