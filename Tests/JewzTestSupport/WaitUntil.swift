/// Waits until `condition` holds: for a state another task reaches (a request arrived at the
/// server, a waiter registered), not a time.
///
/// It yields at first, for states reached at once, then checks every millisecond: a waiter
/// that only yielded would keep a core busy, and the suite's many waiters together starved the
/// event loops and timers of the 2 cores CI has (a 200 ms timeout took 21 s to fire).
public func waitUntil(_ condition: () -> Bool) async {
    var checks = 0
    while !condition() {
        checks += 1
        if checks < 64 {
            await Task.yield()
        } else {
            try? await Task.sleep(for: .milliseconds(1))
        }
    }
}
