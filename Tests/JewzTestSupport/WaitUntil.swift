/// Waits, yielding, until `condition` holds: for a state another task reaches (a request
/// arrived at the server, a waiter registered), not a time.
public func waitUntil(_ condition: () -> Bool) async {
    while !condition() { await Task.yield() }
}
