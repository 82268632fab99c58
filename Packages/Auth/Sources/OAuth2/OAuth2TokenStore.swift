import Foundation
import JewzHTTPCore
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

    /// Runs `renewal` — reading the token kept, refreshing it, saving the new one — while no
    /// other renewal through the same store runs, in this process or another: two runs that
    /// refresh a rotating refresh token at once would otherwise fork its family, and the
    /// server would revoke both. The default runs it as it is (a store of one process).
    ///
    /// - Throws: what `renewal` throws, or why the store could not be held.
    func renewing<Value: Sendable>(_ renewal: () async throws -> Value) async throws -> Value
}

extension OAuth2TokenStore {
    /// Runs `renewal` as it is: the authentication already runs one renewal at a time.
    public func renewing<Value: Sendable>(_ renewal: () async throws -> Value) async throws -> Value {
        try await renewal()
    }
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
/// process never sees half a token, and a rotated refresh token is never lost. Renewals hold
/// a lock file beside it (`flock`), so that two processes never refresh at once. The file
/// records the server and client the token is for, and a store made for another refuses it.
/// A file or directory owned by another user, or that others may write (the file: read), is
/// refused, as ssh refuses such a key. A file that cannot be read as a token counts as none,
/// so the next sign-in replaces it.
public struct OAuth2FileTokenStore: OAuth2TokenStore {
    /// The file.
    public let url: URL
    /// The authorization server (its issuer, or its token endpoint) the token is for; `nil`
    /// takes a token of any server.
    public let server: URL?
    /// The client the token is for; `nil` takes a token of any client.
    public let clientID: String?

    /// A store in the file at `url`, for the tokens `server` grants `clientID` when they are
    /// given; nothing is read or written until the token is asked for or saved.
    public init(url: URL, server: URL? = nil, clientID: String? = nil) {
        self.url = url
        self.server = server
        self.clientID = clientID
    }

    /// What the file holds: the token, and whom it is for.
    private struct Contents: Codable {
        var server: URL?
        var clientID: String?
        var token: OAuth2Token
    }

    /// The token in the file; `nil` when there is none, or it cannot be read as one.
    ///
    /// - Throws: ``AuthError/Code/untrustedTokenStore`` when the file or its directory belongs
    ///   to another user or others may change it, or the file holds another server's or
    ///   client's token.
    public func token() async throws -> OAuth2Token? {
        try checkOwnership()
        guard let data = try? Data(contentsOf: url), let contents = try? JSONDecoder.tokens.decode(Contents.self, from: data) else {
            return nil
        }
        if let server, contents.server != server {
            throw AuthError.untrustedTokenStore(
                "\(url.path) holds a token of \(contents.server?.absoluteString ?? "an unnamed server"), not \(server.absoluteString): give each server a store of its own")
        }
        if let clientID, contents.clientID != clientID {
            throw AuthError.untrustedTokenStore(
                "\(url.path) holds a token of the client \(contents.clientID ?? "unnamed"), not \(clientID): give each client a store of its own")
        }
        return contents.token
    }

    /// Writes `token` to the file (0600, written anew and renamed over), or removes the file for
    /// `nil`.
    ///
    /// - Throws: ``AuthError/Code/untrustedTokenStore`` as ``token()`` does; `CocoaError` or
    ///   `POSIXError` when the directory or the file cannot be written.
    public func save(_ token: OAuth2Token?) async throws {
        try checkOwnership()
        guard let token else {
            try? FileManager.default.removeItem(at: url)
            return
        }
        let directory = try makeDirectory()
        let data = try JSONEncoder.tokens.encode(Contents(server: server, clientID: clientID, token: token))
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

    /// Runs `renewal` holding an exclusive lock on the file's lock file (`NAME.lock`, 0600),
    /// waited for on NIO's thread pool: a second process renewing waits, then reads the token
    /// the first one kept.
    ///
    /// - Throws: what `renewal` throws; `POSIXError` when the lock file cannot be opened.
    public func renewing<Value: Sendable>(_ renewal: () async throws -> Value) async throws -> Value {
        try checkOwnership()
        try makeDirectory()
        let lockPath = url.path + ".lock"
        let descriptor = try await BlockingIO.run { () throws(POSIXError) -> Int32 in
            let descriptor = open(lockPath, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0o600)
            guard descriptor >= 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
            while flock(descriptor, LOCK_EX) != 0 {
                guard errno == EINTR else {
                    let failure = POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO)
                    close(descriptor)
                    throw failure
                }
            }
            return descriptor
        }
        // Closing the descriptor lets the lock go, whatever the renewal did.
        defer { close(descriptor) }
        return try await renewal()
    }

    /// The file's directory, made (mode 0700) when missing.
    @discardableResult
    private func makeDirectory() throws -> URL {
        let directory = url.deletingLastPathComponent()
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        return directory
    }

    /// Refuses a store another user could have written or could read: the file and its
    /// directory must be this user's, the directory writable by no one else, the file
    /// readable by no one else.
    ///
    /// - Throws: ``AuthError/Code/untrustedTokenStore``.
    private func checkOwnership() throws {
        for (path, forbidden) in [(url.deletingLastPathComponent().path, mode_t(0o022)), (url.path, mode_t(0o077))] {
            var info = stat()
            guard stat(path, &info) == 0 else { continue }
            if info.st_uid != geteuid() {
                throw AuthError.untrustedTokenStore("\(path) belongs to another user: keep tokens in a directory of your own")
            }
            if info.st_mode & forbidden != 0 {
                let what = forbidden == 0o077 ? "others can read it" : "others can write to it"
                throw AuthError.untrustedTokenStore(
                    "\(path) has mode \(String(info.st_mode & 0o777, radix: 8)), so \(what): chmod \(forbidden == 0o077 ? "600" : "700") \(path)")
            }
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
