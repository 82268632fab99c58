import Foundation
import JewzLocking

/// Where an ``OAuth2Authentication`` keeps its token between refreshes, and between runs.
///
/// Called from the authentication's one refresh at a time: a rotated refresh token replaces
/// the old one before any request uses the new access token.
public protocol OAuth2TokenStore: Sendable {
    /// The token kept, or `nil` when none is.
    ///
    /// - Throws: when the store cannot be read; the sign-in fails with the error.
    func token() async throws -> OAuth2Token?

    /// Keeps `token` in place of the one kept; `nil` forgets it (signing out).
    ///
    /// - Throws: when the store cannot be written; the refresh fails with the error.
    func save(_ token: OAuth2Token?) async throws
}

/// Keeps the token in memory, for the life of the process: the default.
public final class OAuth2MemoryTokenStore: OAuth2TokenStore {
    private let stored: Mutex<OAuth2Token?>

    /// A store holding `token`, or none.
    public init(_ token: OAuth2Token? = nil) {
        stored = Mutex(token)
    }

    public func token() async throws -> OAuth2Token? { stored.withLock { $0 } }

    public func save(_ token: OAuth2Token?) async throws { stored.withLock { $0 = token } }
}

/// Keeps the token in a JSON file readable by its owner alone (mode 0600, in a directory of
/// mode 0700 created when missing), so that another run of the program reuses and refreshes it.
///
/// Each save writes a new file beside the old and renames it over: a crash or a second
/// process never sees half a token, and a rotated refresh token is never lost. A file that
/// cannot be read as a token counts as none, so the next sign-in replaces it.
public struct OAuth2FileTokenStore: OAuth2TokenStore {
    /// The file.
    public let url: URL

    /// A store in the file at `url`; nothing is read or written until the token is asked for or saved.
    public init(url: URL) {
        self.url = url
    }

    public func token() async throws -> OAuth2Token? {
        guard let data = try? Data(contentsOf: url) else { return nil }
        return try? JSONDecoder.tokens.decode(OAuth2Token.self, from: data)
    }

    /// Writes `token` to the file (0600, written anew and renamed over), or removes the file for
    /// `nil`.
    ///
    /// - Throws: `CocoaError` or `POSIXError` when the directory or the file cannot be written.
    public func save(_ token: OAuth2Token?) async throws {
        guard let token else {
            try? FileManager.default.removeItem(at: url)
            return
        }
        let directory = url.deletingLastPathComponent()
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        let data = try JSONEncoder.tokens.encode(token)
        let temporary = directory.appendingPathComponent(".\(url.lastPathComponent).\(UUID().uuidString)")
        let descriptor = open(temporary.path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
        let written = data.withUnsafeBytes { bytes in write(descriptor, bytes.baseAddress, bytes.count) }
        let synced = fsync(descriptor)
        close(descriptor)
        guard written == data.count, synced == 0, rename(temporary.path, url.path) == 0 else {
            let failure = POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO)
            unlink(temporary.path)
            throw failure
        }
    }
}

extension JSONEncoder {
    fileprivate static var tokens: JSONEncoder {
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .iso8601
        encoder.outputFormatting = [.sortedKeys, .prettyPrinted]
        return encoder
    }
}

extension JSONDecoder {
    fileprivate static var tokens: JSONDecoder {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        return decoder
    }
}
