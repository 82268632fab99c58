import HTTPTypes
import JewzHTTPCore

/// Header fields from swift-http-types' fields.
extension HTTPHeaderFields {
    /// `fields` of swift-http-types, in order, names spelled as they were given.
    public init(_ fields: HTTPFields) {
        self.init(fields.map { ($0.name.rawName, $0.value) })
    }
}

/// swift-http-types' fields from Jewzruxin's header fields.
extension HTTPFields {
    /// `headers` as swift-http-types' fields, in order.
    ///
    /// - Throws: ``HTTPTypesConversionError``: ``HTTPTypesConversionError/Code/invalidFieldName``
    ///   for a name that is not a token, ``HTTPTypesConversionError/Code/invalidFieldValue`` for
    ///   a value HTTPTypes would change.
    public init(_ headers: HTTPHeaderFields) throws(HTTPTypesConversionError) {
        self.init()
        for field in headers {
            guard let name = HTTPField.Name(field.name) else { throw HTTPTypesConversionError(.invalidFieldName, field.name) }
            guard HTTPField.isValidValue(field.value) else { throw HTTPTypesConversionError(.invalidFieldValue, field.name) }
            append(HTTPField(name: name, value: field.value))
        }
    }
}
