import Foundation
@testable import JewzHTTPCore
import JewzSandbox
import JewzTestSupport
import Testing

/// `HTTPResponseBody.lines()` and the splitter under it.
@Suite struct ResponseLinesTests {
    @Test(arguments: TransportKind.allCases)
    func linesArriveAsTheServerSendsThem(transport: TransportKind) async throws {
        try await withSandbox(transport: transport) { sandbox, session in
            // The body never ends: each line is read while the server still holds the response open.
            let cycle = HTTPCycle(requestURL: try #require(URL(string: sandbox.url("/ndjson?count=5&interval=5&end=hold"))), session: session)
            let opened = try await cycle.startStreaming()
            let (response, body) = (opened.head, opened.body)
            #expect(response.headers["Content-Type"] == "application/x-ndjson")
            let lines = try await withTimeLimit(.seconds(60)) {
                var lines: [String] = []
                for try await line in body.lines() {
                    lines.append(line)
                    if lines.count == 5 { break }
                }
                return lines
            }
            #expect(lines == (0..<5).map { #"{"index":\#($0),"text":"line \#($0)"}"# })
        }
    }

    @Test func crLfAndCrlfEndLinesAcrossChunksAndTheLastMayHaveNone() throws {
        var generator = SeededGenerator()
        let text = Array("one\ntwo\r\nthree\rfour\r\r\nfive\n\nsix".utf8)
        let expected = ["one", "two", "three", "four", "", "five", "", "six"]
        for _ in 0..<300 {
            var splitter = LineSplitter(maximumLength: 64)
            var lines: [String] = []
            var start = 0
            while start < text.count {
                let end = min(text.count, start + Int.random(in: 1...5, using: &generator))
                lines += try splitter.lines(endedBy: Data(text[start..<end])).map { String(decoding: $0, as: UTF8.self) }
                start = end
            }
            if let last = splitter.finish() { lines.append(String(decoding: last, as: UTF8.self)) }
            #expect(lines == expected, "\(generator)")
        }
    }

    @Test func aLineLongerThanTheLimitIsAnErrorBeforeItEnds() async throws {
        var splitter = LineSplitter(maximumLength: 8)
        #expect(try splitter.lines(endedBy: Data("12345678\n1234".utf8)).count == 1)
        let error = #expect(throws: HTTPError.self) { try splitter.lines(endedBy: Data("56789".utf8)) }
        #expect(error?.code == .lineTooLong)
        try await withSandbox { sandbox, session in
            let cycle = HTTPCycle(requestURL: try #require(URL(string: sandbox.url("/ndjson?count=3"))), session: session)
            let body = try await cycle.startStreaming().body
            let thrown = await #expect(throws: HTTPError.self) { for try await _ in body.lines(maximumLength: 10) {} }
            #expect(thrown?.code == .lineTooLong)
            #expect(thrown?.description.contains("10 bytes") == true)
        }
    }
}
