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
    private let echoed = Atomic<Bool>(false)

    var name: String { "print" }

    /// - Parameters:
    ///   - parts: the `--print` letters; H prints the head, B the body.
    ///   - placeholder: what B prints for a body that is not in memory (a file, a form).
    ///   - sends: `false` for `--offline`.
    private init(parts: String, placeholder: String?, sends: Bool) {
        self.parts = parts
        self.placeholder = placeholder
        self.sends = sends
    }

    /// The middleware a command's session needs to print what `parts` asks of the request, or
    /// to send nothing (`offline`, which prints head and body); `nil` when nothing is printed.
    static func forPrinting(_ parts: String, offline: Bool = false, placeholder: String? = nil) -> RequestEcho? {
        guard offline || parts.contains("H") || parts.contains("B") else { return nil }
        return RequestEcho(parts: offline ? "HB" : parts, placeholder: placeholder, sends: !offline)
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
        if parts.contains("H") { ExchangePrinter.printRequestHead(request) }
        guard parts.contains("B") else { return }
        if let data = request.data {
            ExchangePrinter.printBody(data, text: String(data: data, encoding: .utf8))
        } else if let placeholder {
            print(placeholder)
        }
    }
}

/// The stages a command's request went through, for `--verbose`: the session's chain, hop by
/// hop, as the cycle's ``HTTPEvent/stageEntered(_:request:)`` events name them.
final class StageTrace: HTTPEventMonitor {
    private let names = Mutex<[String]>([])

    func cycle(_ cycle: HTTPCycle, didEmit event: HTTPEvent) {
        if case .stageEntered(let name, _) = event { names.withLock { $0.append(name) } }
    }

    /// The line `--verbose` prints: `through retry → redirects → print → transport`.
    var line: String { "through " + names.withLock { $0 }.joined(separator: " → ") }
}
