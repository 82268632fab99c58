import Foundation

extension HTTPArchive {
    /// A request as sent.
    public struct Request: Codable, Sendable, Equatable {
        public var method: String
        /// The absolute URL, fragment left out.
        public var url: String
        public var httpVersion: String
        public var cookies: [Cookie]
        public var headers: [NameValue]
        public var queryString: [NameValue]
        public var postData: PostData?
        /// -1: the head's size on the wire is not known here.
        public var headersSize: Int
        /// The body's size, 0 without one, -1 when not known.
        public var bodySize: Int
        public var comment: String?

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
        public var status: Int
        public var statusText: String
        public var httpVersion: String
        public var cookies: [Cookie]
        public var headers: [NameValue]
        public var content: Content
        /// The `Location` of a redirect, else empty.
        public var redirectURL: String
        public var headersSize: Int
        public var bodySize: Int
        public var comment: String?

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
        public var name: String
        public var value: String
        public var path: String?
        public var domain: String?
        public var expires: String?
        public var httpOnly: Bool?
        public var secure: Bool?

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
        public var mimeType: String
        /// The body as text, or in base64 when ``encoding`` says so (not in HAR 1.2 itself,
        /// but what every tool reads for binary bodies).
        public var text: String?
        public var encoding: String?
        public var params: [NameValue]?
        public var comment: String?

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
        public var mimeType: String
        /// The body as text, or in base64 when ``encoding`` is `base64`; `nil` when it was left
        /// out (see ``comment``).
        public var text: String?
        public var encoding: String?
        public var comment: String?

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
