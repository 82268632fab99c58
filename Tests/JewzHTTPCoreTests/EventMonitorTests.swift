import Foundation
import JewzHTTPCore
import JewzLocking
import JewzSandbox
import JewzTestSupport
import Testing

/// Records event names per request URL (each test's cycles have URLs of their own).
final class RecordingMonitor: HTTPEventMonitor {
    private let events = Mutex<[String: [String]]>([:])

    func call(_ call: HTTPCall, didEmit event: HTTPEvent) {
        var name = event.name
        switch event {
        case .requestSent(_, let attempt, _), .responseReceived(_, let attempt, _): name += "#\(attempt)"
        case .retrying(let reason, _, _, _): name += "(\(reason))"
        case .stageEntered(let stage, _): name = "→\(stage)"
        default: break
        }
        events.withLock { $0[call.request.url.absoluteString, default: []].append(name) }
    }

    func names(of cycle: HTTPCycle) -> [String] {
        events.withLock { $0[cycle.request.url.absoluteString] ?? [] }
    }

    /// Each URL's names, in no particular order of URLs.
    var allNames: [[String]] {
        events.withLock { Array($0.values) }
    }
}

@Suite struct EventMonitorTests {
    @Test func aSuccessfulRunReportsEveryStageInOrder() async throws {
        try await withSandbox { sandbox, session in
            let monitor = RecordingMonitor()
            try session.update { $0.eventMonitors = [monitor] }
            let cycle = try HTTPCycle(sandbox.url("/hello/"), method: .get, session: session)
            try await cycle.start()
            #expect(monitor.names(of: cycle) == [
                "requestPrepared", "→retry", "requestSent#1", "→redirects", "→transport", "responseReceived#1",
                "processed", "finished",
            ])
        }
    }

    @Test func retriesAndFailuresAreReportedWithTheirReason() async throws {
        try await withSandbox { sandbox, session in
            let monitor = RecordingMonitor()
            try session.update { $0.eventMonitors = [monitor] }
            try session.update { $0.retryPolicy = quickPolicy() }
            let retriedCycle = try HTTPCycle(sandbox.url("/counter"), method: .get, parameters: ["key": "events", "fail": 1], session: session)
            try await retriedCycle.start()
            let attempt = { (number: Int) in ["requestSent#\(number)", "→redirects", "→transport", "responseReceived#\(number)"] }
            #expect(monitor.names(of: retriedCycle) == ["requestPrepared", "→retry"] + attempt(1)
                + ["retrying(\(HTTPError.statusCode(HTTPResponse(statusCode: 503))))"] + attempt(2) + ["processed", "finished"])
            let failing = try HTTPCycle(sandbox.url("/status/404"), method: .get, session: session)
            _ = await httpError { try await failing.start() }
            #expect(monitor.names(of: failing).suffix(3) == ["processed", "failed", "finished"])
        }
    }

    @Test func cancellationIsReportedAsSuch() async throws {
        try await withSandbox { sandbox, session in
            let monitor = RecordingMonitor()
            try session.update { $0.eventMonitors = [monitor] }
            let cycle = try HTTPCycle(sandbox.url("/echo/"), method: .get, parameters: ["delay": 5], session: session)
            let task = Task { try await cycle.start() }
            try await waitUntil { monitor.names(of: cycle).contains("requestSent#1") }
            cycle.cancel(explicitly: true)
            _ = await httpError { _ = try await task.value }
            try await waitUntil { !cycle.isRunning }
            #expect(monitor.names(of: cycle).suffix(2) == ["cancelled", "finished"])
            #expect(!monitor.names(of: cycle).contains("failed"))
        }
    }
}
