import NIOPosix

/// Work that waits on files (reads, writes, renames, locks), run on a thread pool so that it
/// never holds one of the few threads every task shares.
package enum BlockingIO {
    /// The result of `work`, run on `threads` (NIO's shared pool unless a component has its
    /// own). The work runs whether or not the task is cancelled meanwhile: a write begun is never
    /// half skipped.
    ///
    /// - Throws: what `work` throws.
    package static func run<Value: Sendable, Failure: Error>(
        on threads: BlockingThreads = .shared, _ work: @escaping @Sendable () throws(Failure) -> Value
    ) async throws(Failure) -> Value {
        let outcome = await withCheckedContinuation { (continuation: CheckedContinuation<Result<Value, Failure>, Never>) in
            threads.pool.submit { _ in
                continuation.resume(returning: Result { () throws(Failure) -> Value in try work() })
            }
        }
        return try outcome.get()
    }

    /// Starts `work` on `threads` without waiting for it: for what must happen where nothing
    /// can wait, as when a body is dropped.
    package static func start(on threads: BlockingThreads = .shared, _ work: @escaping @Sendable () -> Void) {
        threads.pool.submit { _ in work() }
    }
}

/// Threads blocking work runs on. A component whose work may wait without bound on something
/// outside the process (another process's `flock`) keeps threads of its own, so that its waits
/// never hold the shared ones every file body of the process is read on.
package final class BlockingThreads: Sendable {
    /// NIO's shared pool.
    package static let shared = BlockingThreads(pool: .singleton, owned: false)

    let pool: NIOThreadPool
    private let owned: Bool

    private init(pool: NIOThreadPool, owned: Bool) {
        self.pool = pool
        self.owned = owned
    }

    /// `count` threads of their own, stopped when the last reference goes (work still queued
    /// then runs all the same).
    package convenience init(count: Int) {
        let pool = NIOThreadPool(numberOfThreads: count)
        pool.start()
        self.init(pool: pool, owned: true)
    }

    deinit {
        if owned { pool.shutdownGracefully { _ in } }
    }
}
