import Synchronization

#if !JEWZ_TSAN
/// What the package's modules lock with: `Synchronization.Mutex` itself, whose `withLock` the
/// compiler always inlines. (A wrapper's generic `withLock` was called unspecialized, looking up
/// `Mutex<Value>`'s metadata at run time on every call.)
/// Built with `-Xswiftc -DJEWZ_TSAN`, the wrapper below takes its place.
package typealias Mutex<Value: ~Copyable> = Synchronization.Mutex<Value>
#else
/// `Synchronization.Mutex` with its critical sections shown to ThreadSanitizer: what the
/// package's modules lock with in `-Xswiftc -DJEWZ_TSAN` builds.
///
/// Why: on Linux the standard library's `Mutex` locks with futexes in code TSan does not
/// instrument, so TSan sees no order between two threads' critical sections and reports every
/// access under the lock as a race. Here each critical section tells TSan it acquires and
/// releases the lock's token, which orders them as the lock does.
package struct Mutex<Value: ~Copyable>: ~Copyable {
    @usableFromInline
    package let base: Synchronization.Mutex<Value>
    /// An object whose address names this lock to TSan.
    @usableFromInline
    package let token = TSanToken()

    @inlinable
    package init(_ initialValue: consuming sending Value) {
        base = Synchronization.Mutex(initialValue)
    }

    /// Runs `body` with the value, holding the lock.
    @inlinable
    package borrowing func withLock<Result: ~Copyable, E: Error>(
        _ body: (inout sending Value) throws(E) -> sending Result
    ) throws(E) -> sending Result {
        let address = UnsafeRawPointer(Unmanaged.passUnretained(token).toOpaque())
        return try base.withLock { (value: inout sending Value) throws(E) -> sending Result in
            tsanAcquire(address)
            defer { tsanRelease(address) }
            return try body(&value)
        }
    }
}

extension Mutex: Sendable where Value: ~Copyable {}

package final class TSanToken: Sendable {
    @usableFromInline
    package init() {}
}

// TSan's annotation interface (compiler-rt's tsan_interface.h), linked with -sanitize=thread.
@usableFromInline
@_silgen_name("__tsan_acquire")
func tsanAcquire(_ address: UnsafeRawPointer)

@usableFromInline
@_silgen_name("__tsan_release")
func tsanRelease(_ address: UnsafeRawPointer)
#endif
