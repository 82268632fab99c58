import Foundation
@testable import JewzCache
import JewzHTTPCore
import JewzTestSupport
import Testing

/// The memory and disk stores: limits, order of use, persistence, damage, two writers.
@Suite struct StoreTests {
    private func entry(_ key: String, bytes: Int = 10) -> CachedResponse {
        CachedResponse(
            key: key, statusCode: 200, headers: ["Cache-Control": "max-age=60", "Content-Type": "text/plain"],
            body: Data(repeating: UInt8(ascii: "x"), count: bytes), url: URL(string: "http://127.0.0.1/\(key)"),
            requestDate: Date(), responseDate: Date(), varyingFields: ["accept-language": "en"])
    }

    @Test func aStoredResponseIsAValue() throws {
        // Its parts share one object between copies; changing a copy leaves the others as they were.
        let original = entry("value", bytes: 4)
        var changed = original
        changed.body = Data("longer body".utf8)
        changed.url = URL(string: "http://127.0.0.1/elsewhere")
        #expect(changed.bodyLength == 11)
        #expect(original.body == Data("xxxx".utf8))
        #expect(original.bodyLength == 4)
        #expect(original.url == URL(string: "http://127.0.0.1/value"))
        let file = FileHandle.standardInput
        let filed = original.withBody(in: file, length: 4)
        #expect(filed.body.isEmpty)
        #expect(filed.bodyFile === file)
        #expect(filed.bodyLength == 4)
        #expect(original.bodyFile == nil)
        #expect(filed.headers == original.headers)
        #expect(filed.rules.freshnessLifetime(shared: false) == 60)
    }

    @Test func anAnswerCarriesItsAgeOnceWhateverTheStoredFieldsSay() throws {
        var headers: HTTPHeaderFields = ["Cache-Control": "max-age=60", "age": "5"]
        let aged = CachedResponse(
            key: "aged", statusCode: 200, headers: headers, body: Data(), url: nil, requestDate: Date(), responseDate: Date(),
            varyingFields: [:])
        #expect(aged.answer(source: .cache, age: 7.9).response.headers.values(for: "Age") == ["7"])
        headers.remove("age")
        let fresh = CachedResponse(
            key: "fresh", statusCode: 200, headers: headers, body: Data(), url: nil, requestDate: Date(), responseDate: Date(),
            varyingFields: [:])
        #expect(fresh.answer(source: .cache, age: 0).response.headers.values(for: "Age") == ["0"])
    }

    @Test func answersAtDifferentAgesEachCarryTheirOwnAge() throws {
        // Answers in the same second share their headers: the next second must not get them.
        let stored = CachedResponse(
            key: "shared", statusCode: 200, headers: ["Cache-Control": "max-age=60", "ETag": "\"v1\""], body: Data("hi".utf8),
            url: nil, requestDate: Date(), responseDate: Date(), varyingFields: [:])
        let ages = [3.2, 3.9, 4.0, 3.0, 59.99]
        let answered = ages.map { stored.answer(source: .cache, age: $0).response.headers }
        #expect(answered.map { $0.values(for: "Age") } == [["3"], ["3"], ["4"], ["3"], ["59"]])
        #expect(answered.allSatisfy { $0["ETag"] == "\"v1\"" && $0["Cache-Control"] == "max-age=60" })
        #expect(stored.headers["Age"] == nil)
    }

    @Test func memoryEvictsTheLeastRecentlyUsedByCountAndCost() throws {
        let store = MemoryCacheStore(costLimit: 1 << 20, countLimit: 2)
        try store.store(entry("a"))
        try store.store(entry("b"))
        _ = store.response(forKey: "a")
        try store.store(entry("c"))
        #expect(store.response(forKey: "b") == nil)
        #expect(store.response(forKey: "a") != nil)
        #expect(store.response(forKey: "c") != nil)
        let small = MemoryCacheStore(costLimit: 3_000, countLimit: 100)
        try small.store(entry("big", bytes: 2_000))
        try small.store(entry("bigger", bytes: 2_000))
        #expect(small.response(forKey: "big") == nil)
        #expect(small.usage.count == 1)
        try small.store(entry("huge", bytes: 10_000))
        #expect(small.response(forKey: "huge") == nil)
    }

    @Test func diskEntriesSurviveANewStoreAndKeepTheirOrder() throws {
        let directory = try makeScratchDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        do {
            let store = try DiskCacheStore(directory: directory, sizeLimit: 1 << 20)
            for key in ["one", "two", "three"] { try store.store(entry(key, bytes: 100)) }
            _ = store.response(forKey: "one")
        }
        let reopened = try DiskCacheStore(directory: directory, sizeLimit: 1 << 20)
        let one = try #require(reopened.response(forKey: "one"))
        #expect(one.body.count == 100)
        #expect(one.headers["Cache-Control"] == "max-age=60")
        #expect(one.varyingFields == ["accept-language": "en"])
        #expect(reopened.usage.count == 3)
        // "two" is now the least recently used: a limit that holds two entries drops it.
        let entrySize = reopened.usage.size / 3
        let limited = try DiskCacheStore(directory: directory, sizeLimit: entrySize * 2 + entrySize / 2)
        #expect(limited.usage.count == 2)
        #expect(limited.response(forKey: "two") == nil)
        #expect(limited.response(forKey: "three") != nil)
    }

    @Test func aDamagedEntryIsDiscardedNotServed() throws {
        let directory = try makeScratchDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = try DiskCacheStore(directory: directory)
        try store.store(entry("whole", bytes: 1_000))
        try store.store(entry("cut", bytes: 1_000))
        let file = directory.appendingPathComponent("entries").appendingPathComponent(DiskCacheStore.fileName(forKey: "cut"))
        let handle = try FileHandle(forWritingTo: file)
        try handle.truncate(atOffset: 700)
        try handle.close()
        #expect(store.response(forKey: "cut") == nil)
        #expect(!FileManager.default.fileExists(atPath: file.path))
        #expect(store.response(forKey: "whole")?.body.count == 1_000)
        // A torn journal line (a writer killed mid-line) is ignored.
        let journal = try FileHandle(forWritingTo: directory.appendingPathComponent("journal"))
        try journal.seekToEnd()
        try journal.write(contentsOf: Data("W 0123".utf8))
        try journal.close()
        #expect(try DiskCacheStore(directory: directory).response(forKey: "whole") != nil)
    }

    @Test func whatADeadWriterLeftIsCountedOrIgnoredNeverServedHalf() throws {
        let directory = try makeScratchDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        do {
            let store = try DiskCacheStore(directory: directory)
            try store.store(entry("kept", bytes: 500))
        }
        // Killed while writing: half a file in tmp/. Killed between the rename and the
        // journal line: a whole file the journal does not name. And a journal line whose file
        // was never renamed into place.
        let entries = directory.appendingPathComponent("entries")
        let half = directory.appendingPathComponent("tmp").appendingPathComponent(DiskCacheStore.fileName(forKey: "half") + ".1.2")
        try Data(repeating: 0x63, count: 300).write(to: half)
        let scratch = try makeScratchDirectory()
        defer { try? FileManager.default.removeItem(at: scratch) }
        let orphan = try DiskCacheStore(directory: scratch)
        try orphan.store(entry("orphan", bytes: 400))
        try FileManager.default.copyItem(
            at: orphan.directory.appendingPathComponent("entries").appendingPathComponent(DiskCacheStore.fileName(forKey: "orphan")),
            to: entries.appendingPathComponent(DiskCacheStore.fileName(forKey: "orphan")))
        let journal = try FileHandle(forWritingTo: directory.appendingPathComponent("journal"))
        try journal.seekToEnd()
        try journal.write(contentsOf: Data("W \(DiskCacheStore.fileName(forKey: "ghost")) 999\n".utf8))
        try journal.close()
        let reopened = try DiskCacheStore(directory: directory)
        #expect(reopened.usage.count == 2)
        #expect(reopened.response(forKey: "kept")?.body.count == 500)
        #expect(reopened.response(forKey: "orphan")?.body.count == 400)
        #expect(reopened.response(forKey: "half") == nil)
        #expect(reopened.response(forKey: "ghost") == nil)
    }

    @Test func twoStoresOnOneDirectoryDoNotCorruptIt() async throws {
        let directory = try makeScratchDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let first = try DiskCacheStore(directory: directory, sizeLimit: 200_000)
        let second = try DiskCacheStore(directory: directory, sizeLimit: 200_000)
        try await withThrowingTaskGroup(of: Void.self) { group in
            for (index, store) in [first, second].enumerated() {
                group.addTask {
                    try await runBlocking {
                        for round in 0..<200 {
                            try store.store(self.entry("key-\(round % 50)", bytes: 1_000 + index))
                            _ = store.response(forKey: "key-\((round * 7) % 50)")
                        }
                    }
                }
            }
            try await group.waitForAll()
        }
        // Fifty entries of about a kilobyte fit the limit: every key is there, written whole by
        // one store or the other, and counted once.
        let reopened = try DiskCacheStore(directory: directory, sizeLimit: 200_000)
        for round in 0..<50 {
            let found = try #require(reopened.response(forKey: "key-\(round)"), "key-\(round) lost")
            #expect(found.body == Data(repeating: UInt8(ascii: "x"), count: found.body.count), "key-\(round)")
            #expect([1_000, 1_001].contains(found.body.count), "key-\(round)")
        }
        #expect(reopened.usage.count == 50)
        #expect(reopened.usage.size <= 200_000)
    }

    @Test func cacheControlParsesQuotedAndUnknownDirectives() {
        let control = CacheControl(["Cache-Control": #"max-age=60, private="set-cookie, x", community="UCI", stale-if-error=5, max-age=bogus"#])
        #expect(control.maxAge == 0)
        #expect(control.isPrivate)
        #expect(control.staleIfError == 5)
        let huge = CacheControl(["Cache-Control": "max-age=99999999999999999999, max-stale"])
        #expect(huge.maxAge == 1 << 31)
        #expect(huge.maxStale == Int.max)
    }

    @Test func aDiskWriterKeepsNothingUntilFinishedAndNothingPastTheLimit() throws {
        let directory = try makeScratchDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = try DiskCacheStore(directory: directory, sizeLimit: 1 << 20)
        try store.store(entry("kept", bytes: 100))
        let temporary = directory.appendingPathComponent("tmp")
        do {
            let writer = try #require(store.bodyWriter(for: entry("kept", bytes: 0)))
            Data(repeating: 1, count: 5_000).withUnsafeBytes { writer.write($0) }
            #expect(try FileManager.default.contentsOfDirectory(atPath: temporary.path).count == 1)
            // Dropped unfinished: its file goes, and the entry stored before it stays.
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: temporary.path).isEmpty)
        #expect(store.response(forKey: "kept")?.body.count == 100)
        let tooLarge = try #require(store.bodyWriter(for: entry("large", bytes: 0)))
        for _ in 0..<20 { Data(repeating: 2, count: 64 << 10).withUnsafeBytes { tooLarge.write($0) } }
        tooLarge.finish()
        #expect(store.response(forKey: "large") == nil)
        #expect(try FileManager.default.contentsOfDirectory(atPath: temporary.path).isEmpty)
        let writer = try #require(store.bodyWriter(for: entry("kept", bytes: 0)))
        for _ in 0..<4 { Data(repeating: 3, count: 1_000).withUnsafeBytes { writer.write($0) } }
        writer.finish()
        #expect(store.response(forKey: "kept")?.body == Data(repeating: 3, count: 4_000))
    }

    /// A body left in its entry's file is read from the file its entry was read from: an entry
    /// replaced by a shorter one, or removed, before the body is read loses nothing and mixes
    /// in nothing of the newer one.
    @Test func aBodyLeftInItsFileKeepsItsBytesWhenItsEntryIsReplacedOrRemoved() async throws {
        let directory = try makeScratchDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = try DiskCacheStore(directory: directory, sizeLimit: 16 << 20)
        var first = entry("large")
        first.body = Data((0..<3_000_000).map { UInt8(truncatingIfNeeded: $0 % 251) })
        try store.store(first)
        let leftFirst = try #require(store.responseLeavingBody(forKey: "large"))
        try store.store(entry("large", bytes: 2_000_000))
        let leftSecond = try #require(store.responseLeavingBody(forKey: "large"))
        store.removeAll()
        #expect(store.responseLeavingBody(forKey: "large") == nil)
        for (left, expected) in [(leftFirst, first.body), (leftSecond, Data(repeating: UInt8(ascii: "x"), count: 2_000_000))] {
            #expect(left.bodyFile != nil && left.body.isEmpty)
            var read = Data()
            for try await chunk in left.answer(source: .cache, age: 0).sessionResponse().body { read.append(chunk) }
            #expect(read == expected)
        }
    }
}
