import Foundation
import Jewzruxin
import Synchronization

/// The transport behind `--print H`/`B` and `--offline`: prints the first request as it goes on
/// the wire — after the processors, the session's headers, Accept-Encoding, authentication and
/// cookies — as httpie does, rather than as the command built it. Later hops, challenge answers
/// and retries go out unprinted. Offline, it prints and sends nothing.
final class EchoingTransport: HTTPTransport {
    private let base: any HTTPTransport
    private let parts: String
    private let placeholder: String?
    private let sends: Bool
    private let echoed = Atomic<Bool>(false)

    /// - Parameters:
    ///   - parts: the `--print` letters; H prints the head, B the body.
    ///   - placeholder: what B prints for a body that is not in memory (a file, a form).
    ///   - sends: `false` for `--offline`: the exchange then fails as cancelled.
    private init(base: any HTTPTransport, parts: String, placeholder: String?, sends: Bool) {
        self.base = base
        self.parts = parts
        self.placeholder = placeholder
        self.sends = sends
    }

    /// The transport a command's session needs to print what `parts` asks of the request, or
    /// to send nothing (`offline`, which prints head and body); `nil` when the default will do.
    static func forPrinting(
        _ parts: String, offline: Bool = false, placeholder: String? = nil,
        transport configuration: AsyncHTTPClientTransport.Configuration
    ) -> EchoingTransport? {
        guard offline || parts.contains("H") || parts.contains("B") else { return nil }
        return EchoingTransport(
            base: AsyncHTTPClientTransport(configuration: configuration), parts: offline ? "HB" : parts,
            placeholder: placeholder, sends: !offline)
    }

    /// Whether a request reached the wire (or would have, offline) and was printed.
    var hasEchoed: Bool { echoed.load(ordering: .acquiring) }

    func send(
        _ request: HTTPRequest, timeout: Duration?, onBodySent: (@Sendable (Int) -> Void)?,
        to receiver: inout some HTTPResponseReceiver
    ) async throws {
        if !echoed.exchange(true, ordering: .acquiringAndReleasing) { echo(request) }
        guard sends else { throw HTTPError.cancelled(explicitly: true) }
        try await base.send(request, timeout: timeout, onBodySent: onBodySent, to: &receiver)
    }

    func shutdown() async throws {
        try await base.shutdown()
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
