import Foundation
import JewzHTTPCore

/// Reads a `text/event-stream` body into events as its bytes arrive, by the WHATWG HTML rules
/// (§9.2.6): a leading byte-order mark dropped, lines ended by CR, LF or CRLF, `:` comments,
/// `data` lines joined, `event`, `id` (ignored when it contains NUL) and `retry` (digits only),
/// an event dispatched at a blank line and only when it has data. Unknown fields are ignored.
///
/// ```swift
/// var parser = EventStreamParser()
/// for event in try parser.events(in: Data("data: hello\n\n".utf8)) { print(event.data) }
/// ```
public struct EventStreamParser: Sendable {
    /// The most bytes one event's data may hold.
    public let maximumEventSize: Int
    /// The last event ID so far, as of the last blank line: what a reconnection sends as
    /// `Last-Event-ID`. It carries over to later events and connections.
    public private(set) var lastEventID = ""
    /// The wait before reconnecting that the stream's last valid `retry` field asked for.
    public private(set) var reconnectionTime: Duration?

    private var lines: LineSplitter
    private var data = ""
    private var dataSize = 0
    private var hasData = false
    private var eventType = ""
    /// The `id` read since the last blank line, which makes it ``lastEventID``.
    private var idBuffer = ""
    /// The first bytes of a stream, held until they show whether it starts with a BOM.
    private var opening: Data? = Data()

    /// A parser with the given limits, resuming after `lastEventID`.
    ///
    /// - Parameters:
    ///   - maximumLineLength: the most bytes one line may hold.
    ///   - maximumEventSize: the most bytes one event's data may hold.
    ///   - lastEventID: the ID to resume after, as a stored `Last-Event-ID`.
    public init(maximumLineLength: Int = 1 << 20, maximumEventSize: Int = 8 << 20, lastEventID: String = "") {
        lines = LineSplitter(maximumLength: maximumLineLength)
        self.maximumEventSize = maximumEventSize
        self.lastEventID = lastEventID
        idBuffer = lastEventID
    }

    /// The events `chunk` completes, in order.
    ///
    /// - Throws: `HTTPError` with code `.lineTooLong`, or ``EventSourceError/Code/eventTooLarge``.
    public mutating func events(in chunk: Data) throws -> [ServerSentEvent] {
        var input = chunk
        if var opening {
            opening.append(chunk)
            let bom: [UInt8] = [0xEF, 0xBB, 0xBF]
            if opening.count < 3, opening.elementsEqual(bom.prefix(opening.count)) {
                self.opening = opening
                return []
            }
            input = opening.starts(with: bom) ? opening.dropFirst(3) : opening
            self.opening = nil
        }
        var events: [ServerSentEvent] = []
        for line in try lines.lines(endedBy: input) {
            if let event = try take(line) { events.append(event) }
        }
        return events
    }

    /// Ends the stream: an event without its closing blank line is dropped, and the next bytes
    /// are a new stream (a reconnection's), which may start with a BOM. The last event ID and
    /// the reconnection time are kept.
    public mutating func finish() {
        _ = lines.finish()
        data = ""
        dataSize = 0
        hasData = false
        eventType = ""
        idBuffer = lastEventID
        opening = Data()
    }

    /// Applies one line; the event it dispatches, if it is a blank line ending one.
    private mutating func take(_ bytes: Data) throws -> ServerSentEvent? {
        guard !bytes.isEmpty else { return dispatch() }
        guard bytes.first != UInt8(ascii: ":") else { return nil }
        let colon = bytes.firstIndex(of: UInt8(ascii: ":"))
        let field = String(decoding: bytes[..<(colon ?? bytes.endIndex)], as: UTF8.self)
        var value = colon.map { bytes[($0 + 1)...] } ?? Data()[...]
        if value.first == 0x20 { value = value.dropFirst() }
        switch field {
        case "data":
            dataSize += value.count + 1
            guard dataSize <= maximumEventSize + 1 else { throw EventSourceError.eventTooLarge(limit: maximumEventSize) }
            if hasData { data.append("\n") }
            data.append(String(decoding: value, as: UTF8.self))
            hasData = true
        case "event":
            eventType = String(decoding: value, as: UTF8.self)
        case "id":
            if !value.contains(0) { idBuffer = String(decoding: value, as: UTF8.self) }
        case "retry":
            if !value.isEmpty, value.count <= 12, value.allSatisfy({ (0x30...0x39).contains($0) }),
                let milliseconds = Int(String(decoding: value, as: UTF8.self))
            {
                reconnectionTime = .milliseconds(milliseconds)
            }
        default:
            break
        }
        return nil
    }

    /// The event the buffers hold, if they hold data; the buffers start afresh either way, and
    /// the `id` read becomes the last event ID.
    private mutating func dispatch() -> ServerSentEvent? {
        lastEventID = idBuffer
        defer {
            data = ""
            dataSize = 0
            hasData = false
            eventType = ""
        }
        guard hasData else { return nil }
        return ServerSentEvent(type: eventType.isEmpty ? "message" : eventType, data: data, id: lastEventID)
    }
}
