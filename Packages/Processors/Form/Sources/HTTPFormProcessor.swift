import Foundation
import JewzHTTPCore

/// Sends and reads `application/x-www-form-urlencoded` bodies.
///
/// Request: `request.object` as ``FormFields``, a ``FormValue`` (nested fields as
/// `user[name]`), or `[String: String]` / `[String: [String]]` (names sorted) becomes the body,
/// and `Content-Type: application/x-www-form-urlencoded` is set unless one is set.
/// Response: the body becomes ``FormFields`` in `response.object`; an empty body is `nil`.
public struct HTTPFormProcessor: HTTPProcessor {
    /// The media types the processor reads, for registering it in one line.
    public static let mediaTypePatterns = ["application/x-www-form-urlencoded"]

    /// How lists are written in request bodies.
    public var listStyle: FormValue.ListStyle

    /// A processor that writes lists as `listStyle` says.
    public init(listStyle: FormValue.ListStyle = .repeatedName) {
        self.listStyle = listStyle
    }

    /// Writes the request's object (``FormFields``, a ``FormValue``, a `[String: String]`) as a
    /// form body.
    ///
    /// - Throws: `HTTPError` with code `.unsupportedRequestObject` for other objects.
    public func prepare(_ request: inout HTTPRequest) throws {
        guard let object = request.object else { return }
        let fields: FormFields
        switch object {
        case let value as FormFields: fields = value
        case let value as FormValue: fields = FormFields(value, listStyle: listStyle)
        case let value as [String: String]:
            fields = FormFields(value.sorted { $0.key < $1.key }.map { ($0.key, $0.value) })
        case let value as [String: [String]]:
            fields = FormFields(value.sorted { $0.key < $1.key }.flatMap { entry in entry.value.map { (entry.key, $0) } })
        default:
            throw HTTPError.unsupportedRequestObject(type: String(describing: type(of: object)), processor: "HTTPFormProcessor")
        }
        request.data = Data(fields.encoded().utf8)
        request.headers.addMissing(from: ["Content-Type": "application/x-www-form-urlencoded"])
    }

    /// Reads a form body into ``FormFields``, the response's object.
    ///
    /// - Throws: ``FormError/invalidEncoding(field:offset:)``.
    public func process(_ response: inout HTTPResponse) throws {
        guard !response.data.isEmpty else {
            response.object = nil
            return
        }
        guard let text = String(validating: response.data, as: UTF8.self) else {
            throw FormError.invalidEncoding(field: "", offset: 0)
        }
        response.object = try FormFields(decoding: text)
    }
}

/// Reading a response's form body.
extension HTTPResponse {
    /// The parsed form body, when a form processor produced one.
    public var form: FormFields? { object as? FormFields }
}
