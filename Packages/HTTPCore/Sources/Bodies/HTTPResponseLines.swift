import Foundation

extension HTTPResponseBody {
    /// The body's lines as they arrive, for newline-delimited formats (JSON lines, logs):
    /// split at LF, CR or CRLF, without their ends, decoded as UTF-8 (a malformed sequence
    /// becomes U+FFFD). A last line without an end is included.
    ///
    /// ```swift
    /// let log = try await session.stream(HTTPRequest(url: url))
    /// for try await line in log.body.lines() { print(line) }
    /// ```
    ///
    /// - Parameter maximumLength: the most bytes one line may hold; longer ends the sequence
    ///   with ``HTTPError/Code/lineTooLong``, so a server cannot make it hold unbounded memory.
    public func lines(maximumLength: Int = 1 << 20) -> some AsyncSequence<String, any Error> & Sendable {
        splitIntoLines(maximumLength: maximumLength)
    }

    /// As ``lines(maximumLength:)``, as the concrete sequence, for the modules that store it.
    package func splitIntoLines(maximumLength: Int) -> HTTPResponseLines {
        HTTPResponseLines(body: self, maximumLength: maximumLength)
    }
}

/// The lines of a streamed body; see ``HTTPResponseBody/lines(maximumLength:)``.
package struct HTTPResponseLines: AsyncSequence, Sendable {
    package typealias Element = String

    let body: HTTPResponseBody
    let maximumLength: Int

    package struct AsyncIterator: AsyncIteratorProtocol {
        private var chunks: HTTPResponseBody.AsyncIterator
        private var splitter: LineSplitter
        private var ready: [Data] = []
        private var nextReady = 0
        private var ended = false

        init(_ lines: HTTPResponseLines) {
            chunks = lines.body.makeAsyncIterator()
            splitter = LineSplitter(maximumLength: lines.maximumLength)
        }

        /// The next line, or `nil` after the last.
        ///
        /// - Throws: ``HTTPError/Code/lineTooLong``, or what ended the transfer.
        package mutating func next() async throws -> String? {
            while nextReady == ready.count {
                guard !ended else { return nil }
                ready = []
                nextReady = 0
                if let chunk = try await chunks.next() {
                    ready = try splitter.lines(endedBy: chunk)
                } else {
                    ended = true
                    if let last = splitter.finish() { ready = [last] }
                }
            }
            defer { nextReady += 1 }
            return String(decoding: ready[nextReady], as: UTF8.self)
        }
    }

    package func makeAsyncIterator() -> AsyncIterator {
        AsyncIterator(self)
    }
}
