import Foundation
import Logging
import NIOCore
import Synchronization
import WSClient

// The reference side of the WebSocket benchmark: the same workload as WebSocketEcho, with
// Hummingbird's WSClient (swift-websocket), without compression.
//
// Usage: WSClientEcho URL ROUND_TRIPS BULK_MESSAGES BULK_SIZE

let arguments = CommandLine.arguments
guard arguments.count == 5, let roundTrips = Int(arguments[2]), let bulkMessages = Int(arguments[3]), let bulkSize = Int(arguments[4]) else {
    FileHandle.standardError.write(Data("usage: WSClientEcho URL ROUND_TRIPS BULK_MESSAGES BULK_SIZE\n".utf8))
    exit(1)
}
let timings = Mutex<(Duration, Duration)>((.zero, .zero))
var generator = SystemRandomNumberGenerator()
let blob = ByteBuffer(bytes: (0..<bulkSize).map { index in index % 4 == 0 ? UInt8.random(in: 0...255, using: &generator) : UInt8(index % 61) })

try await WebSocketClient.connect(url: arguments[1], configuration: .init(maxFrameSize: 64 << 20), logger: Logger(label: "bench")) {
    inbound, outbound, _ in
    var messages = inbound.messages(maxSize: 64 << 20).makeAsyncIterator()
    let payload = String(repeating: "r", count: 32)
    let started = ContinuousClock.now
    for _ in 0..<roundTrips {
        try await outbound.write(.text(payload))
        _ = try await messages.next()
    }
    let roundTripTime = ContinuousClock.now - started
    let bulkStarted = ContinuousClock.now
    try await withThrowingTaskGroup(of: Void.self) { group in
        group.addTask {
            for _ in 0..<bulkMessages { try await outbound.write(.binary(blob)) }
        }
        for _ in 0..<bulkMessages { _ = try await messages.next() }
        try await group.waitForAll()
    }
    let bulkTime = ContinuousClock.now - bulkStarted
    timings.withLock { $0 = (roundTripTime, bulkTime) }
}

func seconds(_ duration: Duration) -> Double {
    Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
}
let (roundTripTime, bulkTime) = timings.withLock { $0 }
let report: [String: Double] = [
    "round_trips_per_second": Double(roundTrips) / seconds(roundTripTime),
    "bulk_mib_per_second": Double(bulkMessages * bulkSize) / Double(1 << 20) / seconds(bulkTime),
]
print(String(decoding: try JSONSerialization.data(withJSONObject: report, options: [.sortedKeys]), as: UTF8.self))
