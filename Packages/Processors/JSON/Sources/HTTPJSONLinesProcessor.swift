import Foundation
import JewzHTTPCore

/// Sends and reads newline-delimited JSON (`application/x-ndjson`, `application/jsonl`): one
/// document a line. For a body read as it arrives, use
/// ``JewzHTTPCore/HTTPResponseBody/jsonLines(as:using:maximumLineLength:)``; this processor
/// reads one held in memory.
///
/// Request: turns an array in `request.object` — of ``JSONValue``s, `Encodable`s, or plain
/// values — into one line each, and sets `Content-Type: application/x-ndjson` unless one is set.
///
/// Response: parses each non-blank line into a ``JSONValue``; `response.object` is the array.
public struct HTTPJSONLinesProcessor: HTTPProcessor {
    /// The media types the processor reads, for registering it in one line.
    public static let mediaTypePatterns = ["application/x-ndjson", "application/jsonl", "application/x-jsonlines"]

    /// Writes and reads each line's document.
    public var json: HTTPJSONProcessor

    /// A processor whose lines are read and written by `json`'s rules.
    public init(json: HTTPJSONProcessor = HTTPJSONProcessor()) {
        self.json = json
    }

    /// Writes an array request object as one JSON document a line, `application/x-ndjson`.
    ///
    /// - Throws: `HTTPError` with code `.unsupportedRequestObject` for an object that is not
    ///   an array, or what ``HTTPJSONProcessor/prepare(_:)`` throws for one of its elements.
    public func prepare(_ request: inout HTTPRequest) throws {
        guard let object = request.object else { return }
        guard let elements = object as? [any Sendable] else {
            throw HTTPError.unsupportedRequestObject(type: String(describing: type(of: object)), processor: "HTTPJSONLinesProcessor")
        }
        var body = Data()
        for element in elements {
            var line = HTTPRequest(url: request.url)
            line.object = element
            try json.prepare(&line)
            body.append(line.data ?? Data("null".utf8))
            body.append(0x0A)
        }
        request.data = body
        request.headers.addMissing(from: ["Content-Type": "application/x-ndjson"])
    }

    /// Parses each line that is not blank into a ``JSONValue``; the response's object is their
    /// array.
    ///
    /// - Throws: ``JSONError`` for the first line that is not JSON, its `line` counted in the
    ///   whole body.
    public func process(_ response: inout HTTPResponse) throws {
        var values: [JSONValue] = []
        var lineNumber = 0
        for line in response.data.split(separator: 0x0A, omittingEmptySubsequences: false) {
            lineNumber += 1
            guard line.contains(where: { ![0x20, 0x09, 0x0D].contains($0) }) else { continue }
            do {
                values.append(try JSONValue(parsing: Data(line), maximumDepth: json.maximumDepth))
            } catch {
                throw error.placed(onLine: lineNumber)
            }
        }
        response.object = values
    }
}
