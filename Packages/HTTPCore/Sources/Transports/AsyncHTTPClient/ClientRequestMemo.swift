import AsyncHTTPClient
import Foundation
import JewzLocking
import NIOHTTP1
import NIOSSL

/// The AsyncHTTPClient request a lane made last, made again for the next request to the same
/// URL with the same method: AsyncHTTPClient takes a URL apart anew for every request it is
/// given (scheme, host, port, and the percent-encoded path through `URLComponents`), and a
/// client asks for the same endpoint again and again.
///
/// One entry, replaced by every request that misses it: a miss costs a comparison of URLs.
/// The session's ``ParsedURLMemo`` does the same for the string a URL is parsed from.
/// The entry keeps no headers, body or TLS configuration of the request it came from.
final class ClientRequestMemo: Sendable {
    private let last = Mutex<HTTPClient.Request?>(nil)

    /// A request for `url` with `method`, `headers`, `body` and `tlsConfiguration`, as
    /// AsyncHTTPClient's own initializer makes it.
    ///
    /// - Throws: AsyncHTTPClient's error for a URL it cannot send (no host, another scheme).
    func request(
        url: URL, method: NIOHTTP1.HTTPMethod, headers: HTTPHeaders, body: HTTPClient.Body?, tlsConfiguration: TLSConfiguration?
    ) throws -> HTTPClient.Request {
        let known = last.withLock { last -> HTTPClient.Request? in
            guard let last, last.method == method, last.url == url else { return nil }
            return last
        }
        if var request = known {
            request.headers = headers
            request.body = body
            request.tlsConfiguration = tlsConfiguration
            return request
        }
        var entry = try HTTPClient.Request(url: url, method: method)
        last.withLock { $0 = entry }
        entry.headers = headers
        entry.body = body
        entry.tlsConfiguration = tlsConfiguration
        return entry
    }
}
