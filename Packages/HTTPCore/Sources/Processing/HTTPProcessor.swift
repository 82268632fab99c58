import Foundation

/// Prepares requests: turns `request.object` into a body and sets the headers that go with it.
///
/// The requirement has no default, so a processor whose method is misspelt does not compile.
/// Processors run on the call's task, never on the caller's thread; a thrown error fails the
/// call with ``HTTPError/Code/processor``. A processor that adds credentials declares itself an
/// ``HTTPCredentialProcessor``: the session cannot tell a header that carries a secret from
/// one that does not, so only those are kept to the origins credentials may go to; a plain
/// request processor prepares every request it is given.
///
/// ```swift
/// struct CSVWriter: HTTPRequestProcessor {
///     func prepare(_ request: inout HTTPRequest) throws {
///         guard let rows = request.object as? [[String]] else { return }
///         request.data = Data(rows.map { $0.joined(separator: ",") }.joined(separator: "\n").utf8)
///         request.headers["Content-Type"] = "text/csv"
///     }
/// }
/// ```
public protocol HTTPRequestProcessor: Sendable {
    /// Turns `request.object` into `request.data` and sets the headers that go with it.
    ///
    /// - Throws: ``HTTPError/Code/unsupportedRequestObject`` for an object it
    ///   cannot write, or its own error, which fails the call.
    func prepare(_ request: inout HTTPRequest) throws
}

/// A request processor that adds credentials (an `Authorization` header, an API key). As one
/// of a session's processors it prepares only requests for the origins the session's
/// credentials may go to (``HTTPSession/Configuration-swift.struct/sendsCredentialsToAnyOrigin``).
public protocol HTTPCredentialProcessor: HTTPRequestProcessor {}

/// Digests responses: turns `response.data` into `response.object`.
///
/// The requirement has no default, so a processor whose method is misspelt does not compile.
///
/// ```swift
/// struct CSVReader: HTTPResponseProcessor {
///     func process(_ response: inout HTTPResponse) throws {
///         response.object = response.text?.split(separator: "\n").map { $0.split(separator: ",") }
///     }
/// }
/// try session.update { try $0.processorRegistry.register(CSVReader(), for: "text/csv") }
/// ```
public protocol HTTPResponseProcessor: Sendable {
    /// Turns `response.data` into `response.object`.
    ///
    /// - Throws: its own error, which fails the call with the response it could not read.
    func process(_ response: inout HTTPResponse) throws
}

/// A processor for both directions: one type that writes a model
/// into a request and reads it back from a response (JSON, forms, XML, multipart).
public typealias HTTPProcessor = HTTPRequestProcessor & HTTPResponseProcessor

/// Passes raw bytes through: a request object of `Data`, `[UInt8]` or `String` (UTF-8) becomes
/// the body; a response's data becomes its object.
public struct HTTPDataProcessor: HTTPProcessor {
    /// The processor; it has no settings.
    public init() {}

    /// Puts the request's object, raw bytes or a string, into its body.
    ///
    /// - Throws: ``HTTPError/Code/unsupportedRequestObject`` for other object types.
    public func prepare(_ request: inout HTTPRequest) throws {
        switch request.object {
        case nil: return
        case let data as Data: request.data = data
        case let bytes as [UInt8]: request.data = Data(bytes)
        case let string as String: request.data = Data(string.utf8)
        case let other?:
            throw HTTPError.unsupportedRequestObject(
                type: String(describing: Swift.type(of: other)), processor: "HTTPDataProcessor")
        }
    }

    public func process(_ response: inout HTTPResponse) throws {
        response.object = response.data
    }
}
