import Foundation
import HTTPTypes
import JewzHTTPCore

/// A request from swift-http-types' request.
extension JewzHTTPCore.HTTPRequest {
    /// The request `request` of swift-http-types describes: its method, URL and header fields,
    /// in order. The body is not part of HTTPTypes' value; set ``/JewzHTTPCore/HTTPRequest/body`` to send one.
    ///
    /// - Throws: ``HTTPTypesConversionError`` with ``HTTPTypesConversionError/Code/missingURL``
    ///   when `request` has no scheme, authority or path to make a URL of.
    public init(_ request: HTTPTypes.HTTPRequest) throws(HTTPTypesConversionError) {
        guard let url = request.url else {
            throw HTTPTypesConversionError(.missingURL, "\(request.scheme ?? "")://\(request.authority ?? "")\(request.path ?? "")")
        }
        self.init(url: url, method: HTTPMethod(rawValue: request.method.rawValue), headers: HTTPHeaderFields(request.headerFields))
    }
}

/// swift-http-types' request from Jewzruxin's request.
extension HTTPTypes.HTTPRequest {
    /// `request` as swift-http-types' value: method, URL (scheme, authority, path and query)
    /// and header fields, in order. The body stays with `request`.
    ///
    /// - Throws: ``HTTPTypesConversionError`` when the method or a header is one HTTPTypes
    ///   refuses (it would replace a value's bytes; this says so rather than send another value).
    public init(_ request: JewzHTTPCore.HTTPRequest) throws(HTTPTypesConversionError) {
        guard let method = Method(request.method.rawValue) else {
            throw HTTPTypesConversionError(.invalidMethod, request.method.rawValue)
        }
        self.init(method: method, url: request.url, headerFields: try HTTPFields(request.headers))
    }
}
