import Foundation
import JewzLocking
import Jewzruxin

/// A one-line progress display on standard error for a download: bytes, rate and time left,
/// redrawn at most ten times a second, finished with a newline. For terminals only: a log file
/// should not fill with carriage returns.
final class ProgressBar: Sendable {
    private struct State {
        var start = ContinuousClock.now
        var lastDraw: ContinuousClock.Instant?
        var startBytes: Int64?
        var drewLast = false
    }

    private let state = Mutex(State())

    /// A bar when standard error is a terminal, else `nil`.
    static func forTerminal() -> ProgressBar? {
        isatty(STDERR_FILENO) == 1 ? ProgressBar() : nil
    }

    /// The handler a download calls after each write.
    var handler: HTTPProgressHandler {
        { [self] written, total, expected in update(written: written, total: total, expected: expected) }
    }

    private func update(written: Int64, total: Int64, expected: Int64?) {
        let now = ContinuousClock.now
        let finished = expected.map { total >= $0 } ?? false
        let line: String? = state.withLock { state in
            // A resumed download's first total includes what was there before: the rate counts
            // only what this run brought.
            let from = state.startBytes ?? (total - written)
            state.startBytes = from
            if let last = state.lastDraw, now - last < .milliseconds(100), !finished { return nil }
            if finished, state.drewLast { return nil }
            state.lastDraw = now
            state.drewLast = finished
            let elapsed = (now - state.start).inSeconds
            let rate = elapsed > 0 ? Double(total - from) / elapsed : 0
            return Self.line(total: total, expected: expected, rate: rate)
        }
        guard let line else { return }
        StandardOutput.writeError("\r\u{1B}[K" + line + (finished ? "\n" : ""))
    }

    /// `12.3 MiB of 100.0 MiB (12%)  8.1 MiB/s  0:11 left`.
    static func line(total: Int64, expected: Int64?, rate: Double) -> String {
        var text = size(Double(total))
        if let expected, expected > 0 {
            text += " of \(size(Double(expected))) (\(total * 100 / expected)%)"
        }
        text += "  \(size(rate))/s"
        if let expected, rate > 0, expected > total {
            let seconds = Int((Double(expected - total) / rate).rounded(.up))
            text += "  \(seconds / 60):\(String(format: "%02d", seconds % 60)) left"
        }
        return text
    }

    private static func size(_ bytes: Double) -> String {
        switch bytes {
        case ..<1024: String(format: "%.0f B", bytes)
        case ..<1_048_576: String(format: "%.1f KiB", bytes / 1024)
        case ..<1_073_741_824: String(format: "%.1f MiB", bytes / 1_048_576)
        default: String(format: "%.2f GiB", bytes / 1_073_741_824)
        }
    }
}
