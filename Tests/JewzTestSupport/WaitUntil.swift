import Testing

/// Waits until `condition` holds: for a state another task reaches (a request arrived at the
/// server, a waiter registered), not a time.
///
/// It yields at first, for states reached at once, then checks every millisecond: a waiter
/// that only yielded would keep a core busy, and the suite's many waiters together starved the
/// event loops and timers of the 2 cores CI has (a 200 ms timeout took 21 s to fire).
///
/// - Throws: ``WaitTimedOut`` when `deadline` passes first, after recording an issue at the
///   caller's line: a state that is never reached fails its test instead of hanging the suite.
///   The deadline catches a hang, not slowness: on a VM three times slower than the usual one
///   the whole suite took 40 s, and states a test reaches in milliseconds alone took over 30.
public func waitUntil(
    deadline: Duration = .seconds(120), sourceLocation: SourceLocation = #_sourceLocation, _ condition: () -> Bool
) async throws {
    let clock = ContinuousClock()
    let end = clock.now.advanced(by: deadline)
    var checks = 0
    while !condition() {
        guard clock.now < end else {
            Issue.record("waited \(deadline) for a condition that did not come to hold", sourceLocation: sourceLocation)
            throw WaitTimedOut(deadline: deadline)
        }
        checks += 1
        if checks < 64 {
            await Task.yield()
        } else {
            try? await Task.sleep(for: .milliseconds(1))
        }
    }
}

/// The error ``waitUntil(deadline:sourceLocation:_:)`` throws when its deadline passes.
public struct WaitTimedOut: Error {
    public let deadline: Duration
}
