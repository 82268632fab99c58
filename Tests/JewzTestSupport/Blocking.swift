import Dispatch
import Foundation

/// Runs blocking work (waiting on a process or a socket) on a thread of its own, so it never
/// holds one of the few threads of Swift's cooperative pool that every other test needs.
public func runBlocking<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
    try await withCheckedThrowingContinuation { continuation in
        onOwnThread { continuation.resume(with: Result { try work() }) }
    }
}

/// Starts `work` on a new thread, inside `group` when one is given.
///
/// Not `DispatchQueue.global()`: on Linux its default queue is as wide as the machine has cores
/// and Swift's executor shares it, so a dozen blocked reads there stall every test for the
/// seconds libdispatch takes to add threads, one at a time.
public func onOwnThread(joining group: DispatchGroup? = nil, _ work: @escaping @Sendable () -> Void) {
    group?.enter()
    Thread.detachNewThread {
        work()
        group?.leave()
    }
}
