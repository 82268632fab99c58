import Foundation
import Jewzruxin

// One side of the WebSocket benchmark (`./websocket` runs it beside Python's websockets client
// against the same server): echo round trips one at a time, then bulk messages sent while their
// echoes are read. Prints one JSON object.
//
// Usage: WebSocketEcho URL ROUND_TRIPS BULK_MESSAGES BULK_SIZE deflate|plain

let arguments = CommandLine.arguments
guard arguments.count == 6, let url = URL(string: arguments[1]), let roundTrips = Int(arguments[2]),
    let bulkMessages = Int(arguments[3]), let bulkSize = Int(arguments[4])
else {
    FileHandle.standardError.write(Data("usage: WebSocketEcho URL ROUND_TRIPS BULK_MESSAGES BULK_SIZE deflate|plain\n".utf8))
    exit(1)
}
let options = WebSocketOptions(maximumMessageSize: 64 << 20, compression: arguments[5] == "deflate" ? PerMessageDeflate() : nil)
let session = HTTPSession()

/// The two timed parts, on one socket; nonisolated, as the message iterator is not Sendable.
nonisolated func measure(_ socket: WebSocket) async throws -> (Duration, Duration) {
    var messages = socket.messages.makeAsyncIterator()
    let payload = String(repeating: "r", count: 32)
    let started = ContinuousClock.now
    for _ in 0..<roundTrips {
        try await socket.send(text: payload)
        _ = try await messages.next()
    }
    let roundTripTime = ContinuousClock.now - started
    // Bytes that do not compress to nothing: a deflate run moves real work.
    var generator = SystemRandomNumberGenerator()
    let blob = Data((0..<bulkSize).map { index in index % 4 == 0 ? UInt8.random(in: 0...255, using: &generator) : UInt8(index % 61) })
    let bulkStarted = ContinuousClock.now
    let bulkTime = try await withThrowingTaskGroup(of: Void.self) { group in
        group.addTask {
            for _ in 0..<bulkMessages { try await socket.send(data: blob) }
        }
        for _ in 0..<bulkMessages { _ = try await messages.next() }
        try await group.waitForAll()
        return ContinuousClock.now - bulkStarted
    }
    return (roundTripTime, bulkTime)
}

let (roundTripTime, bulkTime) = try await session.withWebSocket(to: url, options: options) { try await measure($0) }
try await session.shutdown()

func seconds(_ duration: Duration) -> Double {
    Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
}
let report: [String: Double] = [
    "round_trips_per_second": Double(roundTrips) / seconds(roundTripTime),
    "bulk_mib_per_second": Double(bulkMessages * bulkSize) / Double(1 << 20) / seconds(bulkTime),
]
let json = try JSONSerialization.data(withJSONObject: report, options: [.sortedKeys])
print(String(decoding: json, as: UTF8.self))
