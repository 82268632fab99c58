import Foundation
import Jewzruxin
import JewzLocking

/// Every operation a soak starts, and how each ended: completed, failed with a typed error
/// (by its code), cancelled, or failed with something else — which the soak counts as lost.
final class SoakLedger: Sendable {
    enum Outcome: Sendable {
        case completed
        case cancelled
        case failed(String)
        /// An error of no module's type, or an answer that was wrong: the request is lost.
        case lost(String)
    }

    struct Counts: Sendable {
        var started = 0
        var completed = 0
        var cancelled = 0
        var failures: [String: Int] = [:]
        var lost: [String: Int] = [:]
        /// The time all of them took, together.
        var duration = Duration.zero

        var ended: Int { completed + cancelled + failures.values.reduce(0, +) + lost.values.reduce(0, +) }
    }

    private let counts = Mutex<[SoakOperation: Counts]>([:])

    func start(_ operation: SoakOperation) {
        counts.withLock { $0[operation, default: Counts()].started += 1 }
    }

    func end(_ operation: SoakOperation, _ outcome: Outcome, took duration: Duration) {
        counts.withLock { counts in
            counts[operation, default: Counts()].duration += duration
            switch outcome {
            case .completed: counts[operation, default: Counts()].completed += 1
            case .cancelled: counts[operation, default: Counts()].cancelled += 1
            case .failed(let code): counts[operation, default: Counts()].failures[code, default: 0] += 1
            case .lost(let what): counts[operation, default: Counts()].lost[what, default: 0] += 1
            }
        }
    }

    var snapshot: [SoakOperation: Counts] { counts.withLock { $0 } }

    /// How an error ended an operation: a typed error of the toolkit by its code, a
    /// cancellation, or anything else.
    static func outcome(of error: any Error) -> Outcome {
        switch error {
        case is CancellationError: .cancelled
        case let error as HTTPError: error.code == .cancelled ? .cancelled : .failed("HTTPError.\(error.code)")
        case let error as WebSocketError: .failed("WebSocketError.\(error.code)")
        case let error as EventSourceError: .failed("EventSourceError.\(error.code)")
        case let error as SoakOperation.WrongAnswer: .lost(error.description)
        default: .lost("\(type(of: error)): \(error)")
        }
    }
}
