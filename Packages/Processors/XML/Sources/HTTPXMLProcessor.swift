import Foundation
import JewzHTTPCore

/// Sends and reads XML.
///
/// Response: parses the body into an ``XMLTree`` in `response.object` (registered for
/// `application/xml`, `text/xml` and `application/*+xml`); an empty body is `nil`.
/// Request: an ``XMLTree`` or ``XMLTree/Element`` object becomes the body, with
/// `Content-Type: application/xml; charset=utf-8` unless one is set.
public struct HTTPXMLProcessor: HTTPProcessor {
    /// The media types the processor reads, for registering it in one line.
    public static let mediaTypePatterns = ["application/xml", "text/xml", "application/*+xml"]

    /// The processor; it has no settings.
    public init() {}

    /// Writes the request's object (an ``XMLTree`` or an ``XMLTree/Element``) as an XML body.
    ///
    /// - Throws: `HTTPError.unsupportedRequestObject` for other objects.
    public func prepare(_ request: inout HTTPRequest) throws {
        switch request.object {
        case nil: return
        case let tree as XMLTree: request.data = tree.xmlData()
        case let element as XMLTree.Element:
            request.data = Data(("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n" + element.xmlString()).utf8)
        case let other?:
            throw HTTPError.unsupportedRequestObject(type: String(describing: type(of: other)), processor: "HTTPXMLProcessor")
        }
        request.headers.addMissing(from: ["Content-Type": "application/xml; charset=utf-8"])
    }

    /// Parses the body into an ``XMLTree``, the response's object.
    ///
    /// - Throws: ``XMLError``.
    public func process(_ response: inout HTTPResponse) throws {
        guard !response.data.isEmpty else {
            response.object = nil
            return
        }
        response.object = try XMLTree(data: response.data)
    }
}

/// Reading a response's XML body.
extension HTTPResponse {
    /// The parsed XML body, when an XML processor produced one.
    public var xml: XMLTree? { object as? XMLTree }
}
