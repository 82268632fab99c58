import Foundation

/// Prepares requests (`object` → `data` and headers) and digests responses (`data` → `object`).
///
/// Both requirements have default implementations that do nothing, so a processor implements
/// only the direction it handles. Processors run on the cycle's task, never on the caller's
/// thread, and a thrown error fails the cycle with ``HTTPError/processor(name:underlying:response:)``.
///
/// ```swift
/// struct CSVProcessor: HTTPProcessor {
///     func process(_ response: inout HTTPResponse) throws {
///         response.object = response.text?.split(separator: "\n").map { $0.split(separator: ",") }
///     }
/// }
/// try ProcessorRegistry.shared.register(CSVProcessor(), for: "text/csv")
/// ```
public protocol HTTPProcessor: Sendable {
    /// Turns `request.object` into `request.data` and sets the headers that go with it.
    func prepare(_ request: inout HTTPRequest) throws
    /// Turns `response.data` into `response.object`.
    func process(_ response: inout HTTPResponse) throws
}

extension HTTPProcessor {
    public func prepare(_ request: inout HTTPRequest) throws {}
    public func process(_ response: inout HTTPResponse) throws {}
}

/// Passes raw bytes through: a request object of `Data`, `[UInt8]` or `String` (UTF-8) becomes
/// the body; a response's data becomes its object.
public struct HTTPDataProcessor: HTTPProcessor {
    public init() {}

    /// - Throws: ``HTTPError/unsupportedRequestObject(type:processor:)`` for other object types.
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
