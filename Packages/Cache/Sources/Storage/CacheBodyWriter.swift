/// Takes a response body into a ``CacheStore`` as it is read, content codings undone: how the
/// cache stores a streamed body (a download's, a reader's) without holding it in memory.
///
/// The bytes count as a body only once ``finish()`` is called. A writer dropped without it —
/// the transfer failed, was cut short or was cancelled — must keep nothing of them as one;
/// ``fail()`` tells it first that what it wrote is the start of a body whose transfer broke.
public protocol CacheBodyWriter: AnyObject, Sendable {
    /// Appends the next bytes of the body. A writer that cannot keep them (its storage is full
    /// or failing) drops them quietly and keeps nothing: a cache's trouble never fails a
    /// request.
    func write(_ bytes: UnsafeRawBufferPointer)
    /// The body is whole: keep it.
    func finish()
    /// The transfer failed after the bytes written: they are the body's start, not the body.
    /// A store may keep them as partial content; by default nothing is kept.
    func fail()
}

extension CacheBodyWriter {
    public func fail() {}
}
