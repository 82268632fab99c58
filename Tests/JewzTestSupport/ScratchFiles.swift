import Foundation

/// A new empty directory of its own under the temporary directory, so that a test's leftovers
/// are visible and removed with it.
public func makeScratchDirectory(prefix: String = "jewz-test") throws -> URL {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("\(prefix)-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    return directory
}

/// The names in `directory`, empty when it cannot be read.
public func contents(of directory: URL) -> [String] {
    (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
}

/// What the Sandbox's `/sink` reports about an upload.
public struct SinkReport: Decodable {
    public var length: Int64
    public var crc32: UInt
    public var contentType: String
}

/// Whether the heavy tests run: a load of thousands of requests starves the timing tests that
/// run beside it on a 2-core machine, so they run alone, in a second `swift test` that
/// `.ci/run` starts with `JEWZ_HEAVY_TESTS=1`.
public let heavyTestsEnabled = ProcessInfo.processInfo.environment["JEWZ_HEAVY_TESTS"] != nil
