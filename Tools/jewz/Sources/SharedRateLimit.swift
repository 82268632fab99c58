import ArgumentParser
import Foundation
import Jewzruxin
#if canImport(Glibc)
import Glibc
#endif

/// `--rate` on a request: each exchange (retries and redirect hops too) takes a turn at its
/// origin from a file every jewz run on the machine shares, so that a script calling jewz in a
/// loop stays under the limit however its runs overlap. A `429` or `503` with `Retry-After`
/// holds every later run off for that long.
///
/// A turn is kept in the file as an instant and the process that holds it. A process that has
/// sent its request counts as sending now until its answer comes, then at the instant it came
/// (the server saw the request no later): so a window counted from the file never holds more
/// than the server counts. A process that died keeps its turn at the instant it planned.
struct SharedRateLimit: HTTPMiddleware {
    let limit: RateLimit
    /// Where the files are, one per origin.
    let directory: URL

    var name: String { "shared rate limit" }

    /// The directory `--rate` keeps its turns in: `$XDG_STATE_HOME/jewz/rate`, else
    /// `~/.local/state/jewz/rate`.
    static func defaultDirectory(environment: [String: String] = ProcessInfo.processInfo.environment) -> URL? {
        let state = environment["XDG_STATE_HOME"].map { URL(fileURLWithPath: $0) }
            ?? environment["HOME"].map { URL(fileURLWithPath: $0).appendingPathComponent(".local/state") }
        return state?.appendingPathComponent("jewz/rate")
    }

    func intercept(_ request: HTTPRequest, next: HTTPNext) async throws -> HTTPResponse {
        let turns = try RateTurnFile(directory: directory, origin: request.url, limit: limit)
        var wait = try turns.take()
        while let delay = wait {
            do {
                try await Task.sleep(for: delay)
                wait = try turns.confirm()
            } catch {
                try? turns.finish(sent: false, holdFor: nil)
                throw error
            }
        }
        let response: HTTPResponse
        do {
            response = try await next(request)
        } catch {
            try? turns.finish(sent: true, holdFor: nil)
            throw error
        }
        let hold = [429, 503].contains(response.statusCode) ? RetryPolicy.retryAfter(response.headers["Retry-After"]) : nil
        try? turns.finish(sent: true, holdFor: hold)
        return response
    }
}

/// One call's turn in its origin's file of turns, read and written under an exclusive `flock`,
/// which a process holds only to read, decide and write.
struct RateTurnFile {
    private struct Turn: Codable {
        /// Seconds since 1970: when the call is to go, or went, or was answered.
        var at: Double
        /// The process that holds it, alive or not.
        var process: Int32
        /// Which of the process's turns it is: a process may have several calls on their way.
        var token: UInt64
        var sent: Bool
        /// The answer came (or the call never went): `at` is final.
        var done: Bool
    }

    private struct Contents: Codable {
        var turns: [Turn] = []
        var heldUntil: Double?
    }

    private let path: String
    private let limit: RateLimit
    private let process = getpid()
    private let token = UInt64.random(in: 0...UInt64.max)

    init(directory: URL, origin url: URL, limit: RateLimit) throws {
        self.limit = limit
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        let name = url.origin.map { $0.isLetter || $0.isNumber || $0 == "." ? $0 : "_" }
        path = directory.appendingPathComponent(String(name)).path
    }

    /// Takes this process's turn: nil when it may go now, or how long to wait first.
    func take() throws -> Duration? {
        try update { contents, now in
            let last = contents.turns.map(\.at).max() ?? now
            let turn = Self.turn(from: max(now, contents.heldUntil ?? now, last), limit: limit, others: contents.turns, now: now)
            contents.turns.append(Turn(at: turn, process: process, token: token, sent: turn <= now, done: false))
            return Self.wait(until: turn, from: now)
        }
    }

    /// After a wait: nil when the turn has come (it counts as sending now), or how much longer,
    /// as calls before it may not have been answered yet.
    func confirm() throws -> Duration? {
        try update { contents, now in
            guard let index = contents.turns.firstIndex(where: { $0.token == token }) else { return nil }
            var others = contents.turns
            others.remove(at: index)
            let turn = Self.turn(from: max(now, contents.heldUntil ?? now), limit: limit, others: others, now: now)
            contents.turns[index].at = max(turn, now)
            contents.turns[index].sent = turn <= now
            return Self.wait(until: turn, from: now)
        }
    }

    /// Keeps the turn at the instant its answer came, or drops it when the call never went;
    /// `holdFor` holds the origin off for that long.
    func finish(sent: Bool, holdFor hold: Duration?) throws {
        try update { contents, now in
            if let index = contents.turns.firstIndex(where: { $0.token == token }) {
                if sent {
                    contents.turns[index].at = now
                    contents.turns[index].done = true
                } else {
                    contents.turns.remove(at: index)
                }
            }
            if let hold, hold > .zero {
                contents.heldUntil = max(contents.heldUntil ?? now, now + min(hold.inSeconds, 3600))
            }
        }
    }

    /// The earliest instant from `earliest` at which `limit` has room beside `others`: a call
    /// on its way counts as now, one answered at its answer, one waiting at its planned turn.
    private static func turn(from earliest: Double, limit: RateLimit, others: [Turn], now: Double) -> Double {
        let window = limit.paddedWindow.inSeconds
        let instants = others.map { $0.sent && !$0.done && isAlive($0.process) ? now : $0.at }
        var turn = earliest
        for _ in 0..<8 {
            let recent = instants.filter { $0 <= turn && turn - $0 < window }.sorted()
            guard recent.count >= limit.requests else { break }
            turn = recent[recent.count - limit.requests] + window
        }
        return turn
    }

    /// How long from `now` until `turn`, in whole milliseconds; nil when it has come.
    private static func wait(until turn: Double, from now: Double) -> Duration? {
        turn > now ? .milliseconds(Int64(((turn - now) * 1000).rounded(.up))) : nil
    }

    private static func isAlive(_ process: Int32) -> Bool {
        kill(process, 0) == 0 || errno == EPERM
    }

    /// Reads the file under an exclusive lock, lets `change` decide, and writes it back, without
    /// the turns no window can count any more.
    private func update<T>(_ change: (inout Contents, Double) throws -> T) throws -> T {
        let descriptor = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw RateTurnError(path: path, errno: errno) }
        defer { close(descriptor) }
        guard flock(descriptor, LOCK_EX) == 0 else { throw RateTurnError(path: path, errno: errno) }
        let handle = FileHandle(fileDescriptor: descriptor, closeOnDealloc: false)
        let data = try handle.readToEnd() ?? Data()
        // A file another version wrote, or cut short, starts again empty rather than stopping jewz.
        var contents = (try? JSONDecoder().decode(Contents.self, from: data)) ?? Contents()
        let now = Date().timeIntervalSince1970
        let window = limit.paddedWindow.inSeconds
        contents.turns.removeAll { now - $0.at >= window && ($0.done || !Self.isAlive($0.process)) }
        if let held = contents.heldUntil, held < now { contents.heldUntil = nil }
        let result = try change(&contents, now)
        let encoded = try JSONEncoder().encode(contents)
        guard ftruncate(descriptor, 0) == 0, lseek(descriptor, 0, SEEK_SET) == 0 else { throw RateTurnError(path: path, errno: errno) }
        try handle.write(contentsOf: encoded)
        return result
    }
}

/// The file of `--rate`'s turns could not be used.
struct RateTurnError: Error, CustomStringConvertible {
    let path: String
    let errno: Int32

    var description: String {
        "--rate keeps its turns in \(path), which cannot be used (\(String(cString: strerror(errno)))): set XDG_STATE_HOME to a directory of your own"
    }
}

extension RateLimit {
    /// The limit a `--rate` option describes: `N`, `N/s` or `N/SECONDSs`.
    ///
    /// - Throws: `ValidationError` for anything else.
    init(option text: String) throws {
        let parts = text.split(separator: "/", maxSplits: 1).map(String.init)
        let window = parts.count == 2 ? (parts[1] == "s" ? 1 : Int(parts[1].hasSuffix("s") ? String(parts[1].dropLast()) : parts[1])) : 1
        guard let requests = parts.first.flatMap({ Int($0) }), requests > 0, let window, window > 0 else {
            throw ValidationError("--rate takes N, N/s or N/SECONDSs, such as 10/s or 100/60s.")
        }
        self.init(requests: requests, per: .seconds(window))
    }
}
