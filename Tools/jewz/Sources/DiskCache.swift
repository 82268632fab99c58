import ArgumentParser
import Foundation
import Jewzruxin

/// The HTTP cache `--cache DIR` and `--cache-size MiB` ask for, for requests and the proxy alike.
///
/// - Parameter shared: RFC 9111's shared-cache rules (the proxy's), else a private cache's.
/// - Throws: `ValidationError` for a size that is not above 0; the usage exit status, after
///   saying why, for a directory the cache cannot use.
func diskCache(at path: String, mebibytes: Int, shared: Bool = false) throws -> HTTPCache {
    guard mebibytes > 0 else { throw ValidationError("--cache-size takes a number of MiB above 0.") }
    var configuration = HTTPCache.Configuration()
    configuration.isShared = shared
    do {
        return try HTTPCache(directory: URL(fileURLWithPath: path), sizeLimit: mebibytes << 20, configuration: configuration)
    } catch let error as CacheError {
        printError(error.description)
        throw JewzExit.usage.code
    }
}
