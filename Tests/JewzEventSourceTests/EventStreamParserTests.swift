import Foundation
import JewzEventSource
import JewzHTTPCore
import JewzTestSupport
import Testing

/// The WHATWG event-stream rules, byte by byte, whatever the chunking.
@Suite struct EventStreamParserTests {
    /// The events `text` gives when fed in pieces of `size` bytes (0: whole).
    private func events(_ text: String, pieces size: Int = 0, parser: inout EventStreamParser) throws -> [ServerSentEvent] {
        let bytes = Data(text.utf8)
        guard size > 0 else { return try parser.events(in: bytes) }
        var found: [ServerSentEvent] = []
        for start in stride(from: 0, to: bytes.count, by: size) {
            found += try parser.events(in: bytes.subdata(in: start..<min(start + size, bytes.count)))
        }
        return found
    }

    private func events(_ text: String, pieces size: Int = 0) throws -> [ServerSentEvent] {
        var parser = EventStreamParser()
        return try events(text, pieces: size, parser: &parser)
    }

    @Test(arguments: [0, 1, 2, 3, 7])
    func fieldsDataLinesAndCommentsMakeEvents(pieces: Int) throws {
        let stream = "\u{FEFF}: a comment\r\nevent: update\r\ndata: first\r\ndata:second\rdata:  third\n\nid: 7\ndata\n\n:ping\n\ndata: x\nunknown: y\n\n"
        let found = try events(stream, pieces: pieces)
        #expect(found == [
            ServerSentEvent(type: "update", data: "first\nsecond\n third"),
            ServerSentEvent(type: "message", data: "", id: "7"),
            ServerSentEvent(type: "message", data: "x", id: "7"),
        ])
    }

    @Test func anIDWithNULIsIgnoredAndAnEmptyOneResets() throws {
        var parser = EventStreamParser()
        var found = try events("id: 1\ndata: a\n\nid: 2\u{0}x\ndata: b\n\nid\ndata: c\n\n", parser: &parser)
        #expect(found.map(\.id) == ["1", "1", ""])
        // An id in an event the stream never finished is not the last event ID.
        found = try events("id: 9\ndata: d\n\nid: 10\ndata: cut", parser: &parser)
        parser.finish()
        #expect(found.map(\.id) == ["9"])
        #expect(parser.lastEventID == "9")
    }

    @Test func retryTakesDigitsOnly() throws {
        var parser = EventStreamParser()
        _ = try events("retry: 1500\n\n", parser: &parser)
        #expect(parser.reconnectionTime == .milliseconds(1500))
        _ = try events("retry: 2s\nretry: -1\nretry:\nretry: 1e3\n\n", parser: &parser)
        #expect(parser.reconnectionTime == .milliseconds(1500))
    }

    @Test func aBlankLineWithoutDataDispatchesNothing() throws {
        #expect(try events("event: lonely\n\n\n\ndata: after\n\n") == [ServerSentEvent(data: "after")])
    }

    @Test func anUnfinishedEventIsDroppedAndTheNextStreamMayStartWithABOM() throws {
        var parser = EventStreamParser()
        #expect(try events("data: half", parser: &parser).isEmpty)
        parser.finish()
        #expect(try events("\u{FEFF}data: whole\n\n", parser: &parser) == [ServerSentEvent(data: "whole")])
        // Only a leading BOM is dropped.
        #expect(try events("data: \u{FEFF}kept\n\n", parser: &parser).first?.data == "\u{FEFF}kept")
    }

    @Test func linesAndEventsAreBounded() throws {
        var short = EventStreamParser(maximumLineLength: 16, maximumEventSize: 1 << 20)
        let long = #expect(throws: HTTPError.self) { try short.events(in: Data(("data: " + String(repeating: "x", count: 20)).utf8)) }
        #expect(long?.code == .lineTooLong)
        var small = EventStreamParser(maximumLineLength: 1 << 20, maximumEventSize: 10)
        let large = #expect(throws: EventSourceError.self) { try small.events(in: Data("data: 123456\ndata: 7890\n".utf8)) }
        #expect(large?.code == .eventTooLarge)
        var exact = EventStreamParser(maximumLineLength: 1 << 20, maximumEventSize: 10)
        #expect(try exact.events(in: Data("data: 12345\ndata: 6789\n\n".utf8)).first?.data == "12345\n6789")
    }

    /// Random chunkings of a stream give the events of the whole, and random bytes give events
    /// or typed errors, never a trap.
    @Test func anyChunkingGivesTheSameEvents() throws {
        var generator = SeededGenerator()
        let stream = "id: 1\r\nevent: a\r\ndata: x\r\n\r\n:c\rdata: y\rdata: z\r\r\nretry: 5\ndata: w\n\n"
        let whole = try events(stream)
        #expect(whole.count == 3, "\(whole)")
        let bytes = Array(stream.utf8)
        for _ in 0..<500 {
            var parser = EventStreamParser()
            var found: [ServerSentEvent] = []
            var start = 0
            while start < bytes.count {
                let end = min(bytes.count, start + Int.random(in: 1...6, using: &generator))
                found += try parser.events(in: Data(bytes[start..<end]))
                start = end
            }
            #expect(found == whole, "\(generator)")
        }
        for _ in 0..<500 {
            var parser = EventStreamParser(maximumLineLength: 64, maximumEventSize: 64)
            let noise = Data((0..<Int.random(in: 0...200, using: &generator)).map { _ in
                [0x0A, 0x0D, 0x3A, 0x20, 0x00, 0x64, 0x61, 0x74, 0x61, 0xEF, 0xBB, 0xBF].randomElement(using: &generator) ?? 0
            })
            do {
                for event in try parser.events(in: noise) { #expect(event.data.utf8.count <= 64, "\(generator)") }
            } catch let error as HTTPError {
                #expect(error.code == .lineTooLong, "\(generator)")
            } catch {
                #expect(error is EventSourceError, "\(generator)")
            }
        }
    }
}
