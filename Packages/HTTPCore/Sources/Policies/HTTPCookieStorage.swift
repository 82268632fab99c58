import Foundation

/// Where a session keeps cookies (``HTTPSession/Configuration-swift.struct/cookieJar``): asked
/// for the `Cookie` field of every exchange the session sends, told the `Set-Cookie` fields of
/// every response, redirects and challenges included. JewzCookies' `HTTPCookieJar` is the one
/// that follows RFC 6265; a type of yours may share cookies with another client.
///
/// Both are called on the request path, concurrently from many requests: answer quickly, from
/// memory, and never block on I/O.
public protocol HTTPCookieStorage: Sendable {
    /// The `Cookie` field for a request to `url`, or `nil` to send none.
    func cookieField(for url: URL) -> String?

    /// Keeps what `setCookieFields` (each one `Set-Cookie` field's value, as received) say for
    /// a response from `url`.
    func store(_ setCookieFields: [String], from url: URL)
}
