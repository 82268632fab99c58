import Foundation
import JewzHTTPCore

/// Sends and reads JSON.
///
/// Request: turns `request.object` into JSON — a ``JSONValue`` (member order kept), any
/// `Encodable` (through ``encoder``), or dictionaries and arrays of plain values — and sets
/// `Content-Type: application/json` unless one is set.
///
/// Response: parses the body into a ``JSONValue`` in `response.object`. An empty body is
/// `nil`, not an error (204, 205, HEAD…). For a model type, send with the `decoding:` forms
/// (`HTTPCycle.get(url, decoding: T.self)`, `cycle.start(decoding: T.self)`):
/// the body is decoded once, with no tree built first.
///
/// ```swift
/// let response = try await HTTPCycle.post(url, requestObject: ["name": "Ada"] as JSONValue,
///                                         options: .init(requestProcessors: [HTTPJSONProcessor()]))
/// let name = (response.object as? JSONValue)?["name"].string
/// ```
public struct HTTPJSONProcessor: HTTPProcessor {
    /// The media types the processor reads, for registering it in one line.
    public static let mediaTypePatterns = ["application/json", "application/*+json"]

    /// The encoder used for `Encodable` request objects.
    public var encoder: JSONEncoder
    /// The deepest nesting accepted in a response.
    public var maximumDepth: Int

    /// A processor that encodes `Encodable` objects with `encoder` and refuses responses nested
    /// deeper than `maximumDepth`.
    public init(encoder: JSONEncoder = JSONEncoder(), maximumDepth: Int = 512) {
        self.encoder = encoder
        self.maximumDepth = maximumDepth
    }

    /// Writes the request's object (a ``JSONValue``, an `Encodable`, dictionaries and arrays of
    /// JSON values) as the JSON body.
    ///
    /// - Throws: `HTTPError` with code `.unsupportedRequestObject` for an object (or a value
    ///   inside it) that JSON cannot hold, ``JSONError/nonFiniteNumber``, or the encoder's error.
    public func prepare(_ request: inout HTTPRequest) throws {
        guard let object = request.object else { return }
        let data: Data
        switch object {
        case let value as JSONValue:
            data = Data(value.encoded())
        case let encodable as any Encodable:
            data = try encoder.encode(encodable)
        default:
            do {
                data = Data(try JSONValue(converting: object).encoded())
            } catch where error.code == .unsupportedValue {
                throw HTTPError.unsupportedRequestObject(type: error.reason, processor: "HTTPJSONProcessor")
            }
        }
        request.data = data
        request.headers.addMissing(from: ["Content-Type": "application/json"])
    }

    /// Parses the body into a ``JSONValue``, the response's object; an empty body gives none.
    ///
    /// - Throws: ``JSONError`` saying where the body stopped being JSON.
    public func process(_ response: inout HTTPResponse) throws {
        guard !response.data.isEmpty else {
            response.object = nil
            return
        }
        response.object = try JSONValue(parsing: response.data, maximumDepth: maximumDepth)
    }
}

/// Reading a response's JSON: as a ``JSONValue``, or decoded as a `Decodable` type.
extension HTTPResponse {
    /// The body decoded as `type` by `decoder`. To send and decode in one step, without a
    /// processor parsing the body first, use the `decoding:` forms.
    ///
    /// - Throws: ``/JewzHTTPCore/HTTPError`` with the code ``/JewzHTTPCore/HTTPError/Code/processor``,
    ///   this response and the decoder's `DecodingError` as its `underlying` error, as every
    ///   failure of a call is an `HTTPError`.
    public func decode<T: Decodable>(_ type: T.Type, using decoder: JSONDecoder = JSONDecoder()) throws(HTTPError) -> T {
        do {
            return try decoder.decode(type, from: data)
        } catch {
            throw HTTPError.processor(name: "JSONDecoder(\(type))", underlying: error, response: self)
        }
    }

    /// The parsed JSON body, when a JSON processor produced one.
    public var json: JSONValue? { object as? JSONValue }
}
