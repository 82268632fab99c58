#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Runs `body` and returns the CPU time the calling thread spent in it: for tests that bound
/// an algorithm's cost, which a loaded machine's wall clock would blur.
public func threadCPUTime(_ body: () throws -> Void) rethrows -> Duration {
    let start = threadCPUNow()
    try body()
    return threadCPUNow() - start
}

private func threadCPUNow() -> Duration {
    var time = timespec()
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time)
    return .seconds(time.tv_sec) + .nanoseconds(time.tv_nsec)
}
