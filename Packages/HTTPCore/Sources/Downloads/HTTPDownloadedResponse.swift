import Foundation

/// A response whose body went into a file: what
/// ``HTTPSession/download(_:to:resumingFrom:options:didWriteData:)`` returns. Its head's fields
/// read as its own (`download.statusCode`).
@dynamicMemberLookup
public struct HTTPDownloadedResponse: Sendable {
    /// The status, headers and URL.
    public var head: HTTPResponse.Head
    /// The file holding the complete body: the destination the download was given.
    public var fileURL: URL

    /// A field of the ``head``.
    public subscript<Value>(dynamicMember field: KeyPath<HTTPResponse.Head, Value>) -> Value {
        head[keyPath: field]
    }
}
