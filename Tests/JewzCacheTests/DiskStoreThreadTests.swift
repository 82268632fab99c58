import Foundation
import JewzCache
import JewzHTTPCore
import JewzLocking
import JewzTestSupport
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// The disk store waits on files on the cache's own threads: never on the few threads tasks
/// share, nor on NIO's shared pool, which every file body of the process is read on.
@Suite struct DiskStoreThreadTests {
    @Test func requestsWaitingOnTheDirectorysLockHoldNeitherTheTasksThreadsNorTheSharedPool() async throws {
        let directory = try makeScratchDirectory(prefix: "jewz-disk-threads")
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = try DiskCacheStore(directory: directory)
        // Another process's hold on the directory, as `flock` sees it: every store write waits.
        let holder = try DirectoryLockHolder(directory.appendingPathComponent("lock"))
        // A connection on loopback was once seen to take over the default 10 s while the whole
        // suite ran on two loaded cores: threads are tested here, not how fast a machine connects.
        var transport = AsyncHTTPClientTransport.Configuration()
        transport.timeouts.connect = .seconds(120)
        try await withScriptedCache(store: store, transport: transport, { _ in ["HTTP/1.1 200 OK", "Cache-Control: max-age=600"] }) { server, session in
            let requests = Task {
                try await withThrowingTaskGroup(of: Int.self) { group in
                    for index in 0..<8 { group.addTask { try await fetch(server.url("/item/\(index)"), session: session).statusCode } }
                    return try await group.reduce(into: []) { $0.append($1) }
                }
            }
            // Resumed by a thread of its own once two entries wait to be renamed into place (a
            // loaded suite may take long to get there); had they waited on the tasks' threads
            // (two here), this task could not resume until the holder gave up 10 s later.
            await holder.waitUntil(filesIn: directory.appendingPathComponent("tmp"), reach: 2, within: .seconds(60), thenGiveUpAfter: .seconds(10))
            #expect(holder.sawTheFiles, "no entry waited to be renamed into place")
            #expect(!holder.hasGivenUp, "the tasks' threads were all waiting on the store's lock")
            let sharedPoolRanMeanwhile = await BlockingIO.run { holder.holds }
            #expect(sharedPoolRanMeanwhile, "NIO's shared pool ran nothing until the store's lock was let go")
            holder.release()
            let statuses = try await requests.value
            #expect(statuses == Array(repeating: 200, count: 8))
            #expect(store.usage.count == 8)
        }
    }
}

/// Holds a directory's `flock` from a descriptor of its own, as another process would, and
/// watches from a thread outside the tasks' pool.
private final class DirectoryLockHolder: Sendable {
    private let descriptor: Int32
    private let released = Mutex(false)
    private let gaveUp = Mutex(false)
    private let sawFiles = Mutex(false)

    init(_ lockFile: URL) throws {
        descriptor = open(lockFile.path, O_RDWR | O_CLOEXEC)
        try #require(descriptor >= 0)
        try #require(flock(descriptor, LOCK_EX) == 0)
    }

    deinit { release() }

    var hasGivenUp: Bool { gaveUp.withLock { $0 } }
    var sawTheFiles: Bool { sawFiles.withLock { $0 } }
    var holds: Bool { !released.withLock { $0 } }

    /// Returns once `directory` holds `count` files (or `wait` has passed); then, unless
    /// ``release()`` comes first, gives the lock up after `limit`, so that a pool that was
    /// blocked recovers.
    func waitUntil(filesIn directory: URL, reach count: Int, within wait: Duration, thenGiveUpAfter limit: Duration) async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let thread = Thread { [self] in
                let clock = ContinuousClock()
                var deadline = clock.now.advanced(by: wait)
                while contents(of: directory).count < count, clock.now < deadline { usleep(2_000) }
                sawFiles.withLock { $0 = contents(of: directory).count >= count }
                continuation.resume()
                deadline = clock.now.advanced(by: limit)
                while !released.withLock({ $0 }), clock.now < deadline { usleep(2_000) }
                gaveUp.withLock { $0 = !released.withLock { $0 } }
                release()
            }
            thread.start()
        }
    }

    func release() {
        released.withLock { released in
            if !released { close(descriptor) }
            released = true
        }
    }
}
