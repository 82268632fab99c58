import CoreMetrics
import JewzHTTPCore

/// The attempts of one hedged call, racing: a task per attempt and one for the next delay, in
/// one group, so that the winner's return cancels every other.
struct HedgeRace {
    let settings: Hedging.Configuration
    let delay: Duration
    let origin: String
    /// The stage's timer, which the delay is waited on.
    let clock: HedgeClock

    private enum Event: Sendable {
        case answered(HTTPResponse, attempt: Int)
        case failed(any Error)
        case delayPassed
    }

    /// Runs attempts of `attempt` as the settings say, and returns the first answer.
    ///
    /// - Throws: the last attempt's error when none answered.
    func run(_ attempt: @escaping @Sendable () async throws -> HTTPResponse) async throws -> HTTPResponse {
        try await withThrowingTaskGroup(of: Event.self) { group in
            var started = 0
            var running = 0
            var timerRunning = false
            var heldBack: HTTPResponse?
            var lastError: (any Error)?

            func start() {
                started += 1
                running += 1
                let number = started
                if number > 1 { Counter(label: "jewz.hedging.attempts", dimensions: [("origin", origin)]).increment() }
                group.addTask {
                    do {
                        return .answered(try await attempt(), attempt: number)
                    } catch {
                        return .failed(error)
                    }
                }
                if started < settings.maximumAttempts, !timerRunning {
                    timerRunning = true
                    group.addTask { [clock, delay] in
                        await clock.wait(until: .now + delay)
                        return .delayPassed
                    }
                }
            }

            start()
            while let event = try await group.next() {
                switch event {
                case .answered(let response, let number):
                    running -= 1
                    if settings.hedgedStatusCodes.contains(response.statusCode), running > 0 || started < settings.maximumAttempts {
                        if heldBack == nil { heldBack = response }
                        if running == 0 { start() }
                        continue
                    }
                    group.cancelAll()
                    if number > 1 { Counter(label: "jewz.hedging.wins", dimensions: [("origin", origin)]).increment() }
                    return response
                case .failed(let error):
                    running -= 1
                    lastError = error
                    if Task.isCancelled { throw HTTPError.cancelled(explicitly: false) }
                    if started < settings.maximumAttempts {
                        start()
                    } else if running == 0 {
                        group.cancelAll()
                        if let heldBack { return heldBack }
                        throw error
                    }
                case .delayPassed:
                    timerRunning = false
                    if Task.isCancelled { throw HTTPError.cancelled(explicitly: false) }
                    if started < settings.maximumAttempts { start() }
                }
            }
            if let heldBack { return heldBack }
            throw lastError ?? HTTPError.cancelled(explicitly: false)
        }
    }
}
