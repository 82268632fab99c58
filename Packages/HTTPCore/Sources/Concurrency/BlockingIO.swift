import NIOPosix

/// Work that waits on files (reads, writes, renames, locks), run on NIO's thread pool so that
/// it never holds one of the few threads every task shares.
package enum BlockingIO {
    /// The result of `work`, run on NIO's shared thread pool. The work runs whether or not
    /// the task is cancelled meanwhile: a write begun is never half skipped.
    ///
    /// - Throws: what `work` throws.
    package static func run<Value: Sendable, Failure: Error>(
        _ work: @escaping @Sendable () throws(Failure) -> Value
    ) async throws(Failure) -> Value {
        let outcome = await withCheckedContinuation { (continuation: CheckedContinuation<Result<Value, Failure>, Never>) in
            NIOThreadPool.singleton.submit { _ in
                continuation.resume(returning: Result { () throws(Failure) -> Value in try work() })
            }
        }
        return try outcome.get()
    }

    /// Starts `work` on NIO's shared thread pool without waiting for it: for what must happen
    /// where nothing can wait, as when a body is dropped.
    package static func start(_ work: @escaping @Sendable () -> Void) {
        NIOThreadPool.singleton.submit { _ in work() }
    }
}
