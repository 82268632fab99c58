import Foundation
import JewzHTTPCore
import JewzLocking

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Writes one entry of a ``DiskCacheStore`` as its body arrives: the body into a file in
/// `tmp/`, then, when finished, the metadata and the footer (``EntryCoding``), and the rename
/// into place. A writer dropped unfinished, or whose body outgrows the store, removes its file:
/// the entry stored before it stays as it was.
final class DiskBodyWriter: RetargetableBodyWriter {
    private let response: CachedResponse
    private let store: DiskCacheStore
    private let scratch: String
    private let state: Mutex<State>

    private struct State {
        /// The open file; -1 once it is closed (finished, or given up).
        var descriptor: Int32
        var written = 0
        var failure: CacheError?
    }

    /// - Throws: ``CacheError/Code/directoryUnusable`` when `tmp/` takes no new file.
    init(_ response: CachedResponse, store: DiskCacheStore) throws {
        self.response = response
        self.store = store
        let file = try store.scratchFile(forKey: response.key)
        scratch = file.path
        state = Mutex(State(descriptor: file.descriptor))
    }

    deinit {
        state.withLock { state in
            if state.descriptor >= 0 {
                close(state.descriptor)
                unlink(scratch)
            }
        }
    }

    func write(_ bytes: UnsafeRawBufferPointer) {
        state.withLock { state in
            guard state.descriptor >= 0 else { return }
            do {
                state.written += bytes.count
                guard state.written <= store.sizeLimit else {
                    throw CacheError.entryTooLarge(limit: store.sizeLimit)
                }
                try DiskCacheStore.write(bytes, to: state.descriptor)
            } catch {
                giveUp(&state, error)
            }
        }
    }

    func finish() {
        try? commit()
    }

    func finish(as entry: CachedResponse) {
        try? commit(as: entry)
    }

    /// Completes the entry and renames it into place.
    ///
    /// - Throws: ``CacheError`` when a write failed or the rename did.
    func commit() throws {
        try commit(as: response)
    }

    /// Completes the file as `entry`'s (its key, status and headers, the bytes written as its
    /// body) and renames it into place.
    private func commit(as response: CachedResponse) throws {
        let size = try state.withLock { state -> Int in
            if let failure = state.failure { throw failure }
            guard state.descriptor >= 0 else { throw CacheError.directoryUnusable(store.directory.path, "the entry was already written") }
            let metadata = EntryCoding.metadata(of: response)
            let footer = EntryCoding.footer(metadataLength: metadata.count, bodyLength: state.written)
            do {
                try metadata.withUnsafeBytes { try DiskCacheStore.write($0, to: state.descriptor) }
                try footer.withUnsafeBytes { try DiskCacheStore.write($0, to: state.descriptor) }
            } catch {
                giveUp(&state, error)
                throw error
            }
            close(state.descriptor)
            state.descriptor = -1
            return state.written + metadata.count + footer.count
        }
        try store.install(scratch, forKey: response.key, size: size)
    }

    /// Closes and removes the file: nothing of this body will be stored.
    private func giveUp(_ state: inout State, _ error: any Error) {
        close(state.descriptor)
        state.descriptor = -1
        unlink(scratch)
        state.failure = error as? CacheError ?? CacheError.directoryUnusable(store.directory.path, "\(error)")
    }
}
