import Foundation

/// A response whose body is read as it arrives, once: what ``HTTPSession/stream(_:options:)``
/// returns. Its head's fields read as its own (`response.statusCode`).
///
/// The call lasts — its place in the session's queue, its connection — until the body is read
/// to its end or dropped; dropping it unread stops the transfer.
@dynamicMemberLookup
public struct HTTPStreamedResponse: Sendable {
    /// The status, headers and URL.
    public var head: HTTPResponse.Head
    /// The body's chunks, content codings undone: iterate it once, or ``HTTPResponseBody/collect(upTo:)``.
    public var body: HTTPResponseBody

    /// A field of the ``head``.
    public subscript<Value>(dynamicMember field: KeyPath<HTTPResponse.Head, Value>) -> Value {
        head[keyPath: field]
    }
}
