import Foundation
import JewzHTTPCore

/// Reading a newline-delimited JSON body one value at a time.
extension HTTPResponseBody {
    /// Each line of a newline-delimited JSON body (`application/x-ndjson`,
    /// `application/jsonl`) decoded as `type` as it arrives; blank lines are skipped.
    ///
    /// ```swift
    /// let feed = try await session.stream(HTTPRequest(url: url))
    /// for try await token in feed.body.jsonLines(as: Completion.self) { print(token.text, terminator: "") }
    /// ```
    ///
    /// - Parameters:
    ///   - type: what each line decodes to.
    ///   - decoder: the decoder each line goes through.
    ///   - maximumLineLength: the most bytes one line may hold.
    /// - Returns: a sequence that throws ``/JewzHTTPCore/HTTPError/Code/lineTooLong`` for a longer line,
    ///   ``/JewzHTTPCore/HTTPError/Code/processor`` with the decoder's `DecodingError` (and the line's number
    ///   in its name) for a line that is not a `type`, and what ended the transfer.
    public func jsonLines<T: Decodable>(
        as type: T.Type, using decoder: JSONDecoder = JSONDecoder(), maximumLineLength: Int = 1 << 20
    ) -> HTTPJSONLines<T> {
        HTTPJSONLines(lines: splitIntoLines(maximumLength: maximumLineLength), decoder: decoder)
    }
}

/// The decoded lines of a newline-delimited JSON body; see
/// ``JewzHTTPCore/HTTPResponseBody/jsonLines(as:using:maximumLineLength:)``.
public struct HTTPJSONLines<Element: Decodable>: AsyncSequence {
    let lines: HTTPResponseLines
    let decoder: JSONDecoder

    /// Reads the body's lines and decodes each that is not blank.
    public struct AsyncIterator: AsyncIteratorProtocol {
        private var lines: HTTPResponseLines.AsyncIterator
        private let decoder: JSONDecoder
        private var lineNumber = 0

        init(_ sequence: HTTPJSONLines) {
            lines = sequence.lines.makeAsyncIterator()
            decoder = sequence.decoder
        }

        /// The next line's value, or `nil` after the last line.
        public mutating func next() async throws -> Element? {
            while let line = try await lines.next() {
                lineNumber += 1
                guard line.contains(where: { !$0.isWhitespace }) else { continue }
                do {
                    return try decoder.decode(Element.self, from: Data(line.utf8))
                } catch {
                    throw HTTPError.processor(name: "JSONDecoder(\(Element.self)) on line \(lineNumber)", underlying: error, response: nil)
                }
            }
            return nil
        }
    }

    /// An iterator over the decoded lines; the body is read once.
    public func makeAsyncIterator() -> AsyncIterator {
        AsyncIterator(self)
    }
}

extension HTTPJSONLines: Sendable where Element: Sendable {}
