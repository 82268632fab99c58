import Foundation
import Jewzruxin
import Synchronization

/// The network middleware behind `--print H`/`B` and `--offline`: prints the first request as
/// it goes on the wire — after the processors, the session's headers, Accept-Encoding,
/// authentication and cookies — as httpie does, rather than as the command built it. Later
/// hops, challenge answers and retries go out unprinted. Offline, it prints and answers
/// without sending: the exchange ends as cancelled.
final class RequestEcho: HTTPMiddleware {
    private let parts: String
    private let placeholder: String?
    private let sends: Bool
    /// Whether the `Authorization` value is shown redacted: a token jewz got (`--oauth2`), or
    /// credentials read from a file (`--netrc`), which the user never typed and must not find
    /// in a terminal's scrollback.
    private let redactsAuthorization: Bool
    private let echoed = Atomic<Bool>(false)

    var name: String { "print" }

    /// - Parameters:
    ///   - parts: the `--print` letters; H prints the head, B the body.
    ///   - placeholder: what B prints for a body that is not in memory (a file, a form).
    ///   - sends: `false` for `--offline`.
    private init(parts: String, placeholder: String?, sends: Bool, redactsAuthorization: Bool) {
        self.parts = parts
        self.placeholder = placeholder
        self.sends = sends
        self.redactsAuthorization = redactsAuthorization
    }

    /// The middleware a command's session needs to print what `parts` asks of the request, or
    /// to send nothing (`offline`, which prints head and body); `nil` when nothing is printed.
    static func forPrinting(
        _ parts: String, offline: Bool = false, placeholder: String? = nil, redactingAuthorization: Bool = false
    ) -> RequestEcho? {
        guard offline || parts.contains("H") || parts.contains("B") else { return nil }
        return RequestEcho(parts: offline ? "HB" : parts, placeholder: placeholder, sends: !offline, redactsAuthorization: redactingAuthorization)
    }

    /// Whether a request reached the wire (or would have, offline) and was printed.
    var hasEchoed: Bool { echoed.load(ordering: .acquiring) }

    func intercept(_ request: HTTPRequest, next: HTTPNext) async throws -> HTTPResponse {
        if !echoed.exchange(true, ordering: .acquiringAndReleasing) { echo(request) }
        guard sends else { throw HTTPError.cancelled(explicitly: true) }
        return try await next(request)
    }

    /// Prints `request` as `parts` asks: the head, then the body (or what stands for it).
    func echo(_ request: HTTPRequest) {
        if parts.contains("H") {
            var shown = request
            if redactsAuthorization, let value = shown.headers["Authorization"] {
                shown.headers["Authorization"] = (value.split(separator: " ").first.map { $0 + " " } ?? "") + "<redacted>"
            }
            // A session token is never typed on the command line: jewz read it from the
            // environment or a profile.
            if shown.headers.contains("X-Amz-Security-Token") { shown.headers["X-Amz-Security-Token"] = "<redacted>" }
            ExchangePrinter.printRequestHead(shown)
        }
        guard parts.contains("B") else { return }
        if let data = request.data {
            ExchangePrinter.printBody(data, text: String(data: data, encoding: .utf8), asSent: true)
        } else if let placeholder {
            printLine(placeholder)
        }
    }
}

/// What `--verbose` tells of a command's request: the stages it went through, hop by hop, as
/// the call's ``HTTPEvent/stageEntered(_:request:)`` events name them, and each attempt's
/// timings from the request, response and retry events.
final class StageTrace: HTTPEventMonitor {
    private struct Attempt {
        let number: Int
        let sent: Duration
        var outcome: String?
        var ended: Duration?
        var retryDelay: Duration?
    }

    private let names = Mutex<[String]>([])
    private let attempts = Mutex<[Attempt]>([])

    func call(_ call: HTTPCall, didEmit event: HTTPEvent) {
        switch event {
        case .stageEntered(let name, _):
            names.withLock { $0.append(name) }
        case .requestSent(_, let attempt, let elapsed):
            attempts.withLock { $0.append(Attempt(number: attempt, sent: elapsed)) }
        case .responseReceived(let response, let attempt, let elapsed):
            update(attempt) { ($0.outcome, $0.ended) = (String(response.statusCode), elapsed) }
        case .retrying(let reason, let delay, let attempt, let elapsed):
            update(attempt) { attempt in
                if attempt.outcome == nil { (attempt.outcome, attempt.ended) = (reason.code.description, elapsed) }
                attempt.retryDelay = delay
            }
        case .failed(let error, let elapsed):
            attempts.withLock { attempts in
                guard let last = attempts.indices.last, attempts[last].outcome == nil else { return }
                (attempts[last].outcome, attempts[last].ended) = (error.code.description, elapsed)
            }
        default:
            break
        }
    }

    private func update(_ number: Int, _ change: (inout Attempt) -> Void) {
        attempts.withLock { attempts in
            guard let index = attempts.lastIndex(where: { $0.number == number }) else { return }
            change(&attempts[index])
        }
    }

    /// The line `--verbose` prints: `through retry → redirects → print → transport`.
    var line: String { "through " + names.withLock { $0 }.joined(separator: " → ") }

    /// A line per attempt: `attempt 1: sent at 0.3 ms, 503 at 4.1 ms (3.8 ms), retried after 5.0 ms`.
    var attemptLines: [String] {
        attempts.withLock { $0 }.map { attempt in
            var line = "attempt \(attempt.number): sent at \(Self.milliseconds(attempt.sent))"
            if let outcome = attempt.outcome, let ended = attempt.ended {
                line += ", \(outcome) at \(Self.milliseconds(ended)) (\(Self.milliseconds(ended - attempt.sent)))"
            }
            if let delay = attempt.retryDelay { line += ", retried after \(Self.milliseconds(delay))" }
            return line
        }
    }

    private static func milliseconds(_ duration: Duration) -> String {
        let (seconds, attoseconds) = duration.components
        return String(format: "%.1f ms", Double(seconds) * 1000 + Double(attoseconds) / 1e15)
    }
}
