import Synchronization

/// `Synchronization.Mutex`, and what the package's modules lock with: the same lock, whose
/// critical sections ThreadSanitizer can see when built with `-Xswiftc -DJEWZ_TSAN`.
///
/// Why: on Linux the standard library's `Mutex` locks with futexes in code TSan does not
/// instrument, so TSan sees no order between two threads' critical sections and reports every
/// access under the lock as a race. With `JEWZ_TSAN`, each critical section tells TSan it
/// acquires and releases the lock's token, which orders them as the lock does; without it, this
/// is `Synchronization.Mutex` with nothing added.
package struct Mutex<Value: ~Copyable>: ~Copyable {
    @usableFromInline
    package let base: Synchronization.Mutex<Value>
    #if JEWZ_TSAN
    /// An object whose address names this lock to TSan.
    @usableFromInline
    package let token = TSanToken()
    #endif

    @inlinable
    package init(_ initialValue: consuming sending Value) {
        base = Synchronization.Mutex(initialValue)
    }

    /// Runs `body` with the value, holding the lock.
    @inlinable
    package borrowing func withLock<Result: ~Copyable, E: Error>(
        _ body: (inout sending Value) throws(E) -> sending Result
    ) throws(E) -> sending Result {
        #if JEWZ_TSAN
        let address = UnsafeRawPointer(Unmanaged.passUnretained(token).toOpaque())
        return try base.withLock { (value: inout sending Value) throws(E) -> sending Result in
            tsanAcquire(address)
            defer { tsanRelease(address) }
            return try body(&value)
        }
        #else
        return try base.withLock(body)
        #endif
    }
}

extension Mutex: Sendable where Value: ~Copyable {}

#if JEWZ_TSAN
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
