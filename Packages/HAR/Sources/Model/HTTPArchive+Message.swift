import Foundation

extension HTTPArchive {
    /// A request as sent.
    public struct Request: Codable, Sendable, Equatable {
        /// The request method.
        public var method: String
        /// The absolute URL, fragment left out.
        public var url: String
        /// `HTTP/1.1` or `HTTP/2`.
        public var httpVersion: String
        /// The cookies the request sent.
        public var cookies: [Cookie]
        /// The header fields, in order.
        public var headers: [NameValue]
        /// The URL's query parameters, decoded.
        public var queryString: [NameValue]
        /// The body, when there is one.
        public var postData: PostData?
        /// -1: the head's size on the wire is not known here.
        public var headersSize: Int
        /// The body's size, 0 without one, -1 when not known.
        public var bodySize: Int
        /// A comment for people reading the archive.
        public var comment: String?

        /// A request with each of the format's fields.
        public init(
            method: String, url: String, httpVersion: String = "HTTP/1.1", cookies: [Cookie] = [], headers: [NameValue] = [],
            queryString: [NameValue] = [], postData: PostData? = nil, headersSize: Int = -1, bodySize: Int = 0, comment: String? = nil
        ) {
            self.method = method
            self.url = url
            self.httpVersion = httpVersion
            self.cookies = cookies
            self.headers = headers
            self.queryString = queryString
            self.postData = postData
            self.headersSize = headersSize
            self.bodySize = bodySize
            self.comment = comment
        }
    }

    /// A response as received.
    public struct Response: Codable, Sendable, Equatable {
        /// The status code.
        public var status: Int
        /// The reason phrase.
        public var statusText: String
        /// `HTTP/1.1` or `HTTP/2`.
        public var httpVersion: String
        /// The cookies the response set.
        public var cookies: [Cookie]
        /// The header fields, in order.
        public var headers: [NameValue]
        /// The body.
        public var content: Content
        /// The `Location` of a redirect, else empty.
        public var redirectURL: String
        /// -1: the head's size on the wire is not known here.
        public var headersSize: Int
        /// The body's size as received, -1 when not known.
        public var bodySize: Int
        /// A comment for people reading the archive.
        public var comment: String?

        /// A response with each of the format's fields.
        public init(
            status: Int, statusText: String = "", httpVersion: String = "HTTP/1.1", cookies: [Cookie] = [], headers: [NameValue] = [],
            content: Content, redirectURL: String = "", headersSize: Int = -1, bodySize: Int = -1, comment: String? = nil
        ) {
            self.status = status
            self.statusText = statusText
            self.httpVersion = httpVersion
            self.cookies = cookies
            self.headers = headers
            self.content = content
            self.redirectURL = redirectURL
            self.headersSize = headersSize
            self.bodySize = bodySize
            self.comment = comment
        }
    }

    /// A cookie a request sent or a response set.
    public struct Cookie: Codable, Sendable, Equatable {
        /// The cookie's name.
        public var name: String
        /// The cookie's value.
        public var value: String
        /// The `Path` attribute.
        public var path: String?
        /// The `Domain` attribute.
        public var domain: String?
        /// The `Expires` attribute, ISO 8601.
        public var expires: String?
        /// Whether the cookie is `HttpOnly`.
        public var httpOnly: Bool?
        /// Whether the cookie is `Secure`.
        public var secure: Bool?

        /// A cookie with each of the format's fields.
        public init(name: String, value: String, path: String? = nil, domain: String? = nil, expires: String? = nil, httpOnly: Bool? = nil, secure: Bool? = nil) {
            self.name = name
            self.value = value
            self.path = path
            self.domain = domain
            self.expires = expires
            self.httpOnly = httpOnly
            self.secure = secure
        }
    }

    /// A request's body.
    public struct PostData: Codable, Sendable, Equatable {
        /// The body's media type.
        public var mimeType: String
        /// The body as text, or in base64 when ``encoding`` says so (not in HAR 1.2 itself,
        /// but what every tool reads for binary bodies).
        public var text: String?
        /// `base64` for a binary body's ``text``.
        public var encoding: String?
        /// A form's fields, for a form body.
        public var params: [NameValue]?
        /// A comment for people reading the archive.
        public var comment: String?

        /// A body with each of the format's fields.
        public init(mimeType: String, text: String?, encoding: String? = nil, params: [NameValue]? = nil, comment: String? = nil) {
            self.mimeType = mimeType
            self.text = text
            self.encoding = encoding
            self.params = params
            self.comment = comment
        }
    }

    /// A response's body, content codings undone.
    public struct Content: Codable, Sendable, Equatable {
        /// The decoded length.
        public var size: Int
        /// Bytes saved by the content coding, when known.
        public var compression: Int?
        /// The body's media type.
        public var mimeType: String
        /// The body as text, or in base64 when ``encoding`` is `base64`; `nil` when it was left
        /// out (see ``comment``).
        public var text: String?
        /// `base64` for a binary body's ``text``.
        public var encoding: String?
        /// Why the body was left out or cut, when it was.
        public var comment: String?

        /// A body with each of the format's fields.
        public init(size: Int, compression: Int? = nil, mimeType: String, text: String? = nil, encoding: String? = nil, comment: String? = nil) {
            self.size = size
            self.compression = compression
            self.mimeType = mimeType
            self.text = text
            self.encoding = encoding
            self.comment = comment
        }
    }
}
