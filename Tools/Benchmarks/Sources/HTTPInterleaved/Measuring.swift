import Foundation

// How a case is timed: a contender's requests at a concurrency, wall-clock and CPU time.

struct Contender: Sendable {
    let name: String
    let request: @Sendable () async throws -> Void
}

struct Sample {
    var seconds: Double
    var cpuSeconds: Double
}

func processCPUTime() -> Double {
    var time = timespec()
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &time)
    return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
}

/// `count` requests, `concurrency` at a time.
func measure(_ contender: Contender, count: Int, concurrency: Int) async throws -> Sample {
    let wallStart = ContinuousClock.now
    let cpuStart = processCPUTime()
    try await withThrowingTaskGroup(of: Void.self) { group in
        for worker in 0..<concurrency {
            let share = count / concurrency + (worker < count % concurrency ? 1 : 0)
            group.addTask {
                for _ in 0..<share { try await contender.request() }
            }
        }
        try await group.waitForAll()
    }
    let elapsed = ContinuousClock.now - wallStart
    let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
    return Sample(seconds: seconds, cpuSeconds: processCPUTime() - cpuStart)
}

func median(_ values: [Double]) -> Double {
    let sorted = values.sorted()
    guard !sorted.isEmpty else { return 0 }
    return sorted.count % 2 == 1 ? sorted[sorted.count / 2] : (sorted[sorted.count / 2 - 1] + sorted[sorted.count / 2]) / 2
}
