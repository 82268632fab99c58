import Foundation
import JewzLocking

/// One launch at a time for the whole suite: Foundation's `Process.run()` on Linux crashed in
/// its own memcpy (SIGSEGV) when several tests' threads launched at once. Only the launch is
/// serialized; the children run, and are waited for, side by side.
private let launching = Mutex(())

/// Launches `process` as `Process.run()` does, never beside another launch of the suite's.
///
/// - Throws: what `run()` throws (a missing executable).
public func launch(_ process: Process) throws {
    try launching.withLock { _ in try process.run() }
}
