import Foundation
import JewzHTTPCore

/// Images being fetched ahead of need (``ImageCache/prefetch(_:maximumConcurrent:)``), at low
/// priority, a few at a time.
public final class ImagePrefetch: Sendable {
    /// How a prefetch went: the images now cached, and those that failed.
    public struct Outcome: Sendable, Hashable {
        /// How many images are now cached.
        public var fetched = 0
        /// How many could not be fetched (a failed download, a body that is no image).
        public var failed = 0
    }

    private let task: Task<Outcome, Never>

    init(_ task: Task<Outcome, Never>) {
        self.task = task
    }

    /// Stops fetching: downloads no one else waits for are cancelled.
    public func cancel() {
        task.cancel()
    }

    /// Waits for the prefetch to end (all fetched, or cancelled).
    public var outcome: Outcome {
        get async { await task.value }
    }
}

extension ImageCache {
    /// Fetches `urls` into the caches at low priority, at most `maximumConcurrent` at once, so
    /// that they are there when asked for. Images already in memory cost nothing.
    @discardableResult
    public func prefetch(_ urls: [URL], maximumConcurrent: Int = 4) -> ImagePrefetch {
        let limit = max(1, maximumConcurrent)
        return ImagePrefetch(Task {
            await withTaskGroup(of: Bool.self) { group in
                var outcome = ImagePrefetch.Outcome()
                var pending = urls.makeIterator()
                var running = 0
                func record(_ fetched: Bool) {
                    if fetched { outcome.fetched += 1 } else { outcome.failed += 1 }
                }
                while !Task.isCancelled, let url = pending.next() {
                    if running == limit, let fetched = await group.next() {
                        running -= 1
                        record(fetched)
                    }
                    group.addTask { (try? await self.response(for: url, priority: .low)) != nil }
                    running += 1
                }
                for await fetched in group { record(fetched) }
                return outcome
            }
        })
    }
}
