import Foundation
import JewzHTTPCore

// Typed responses: the body goes straight to a `JSONDecoder`, without the registry's
// processor building a `JSONValue` tree first that nobody reads (which would parse the body
// twice).
/// Sending a request and decoding its JSON body as a `Decodable` type, in one call.
extension HTTPCycle {
    /// Sends the request and decodes the JSON body as `type`.
    ///
    /// No response processor reads the body first, the decoder alone does; the response stays
    /// readable in ``/JewzHTTPCore/HTTPCycle/response``. The cycle's options keep
    /// `responseProcessors` empty, so later runs of this cycle skip processing too.
    ///
    /// ```swift
    /// let cycle = HTTPCycle(requestURL: url)
    /// let user = try await cycle.start(decoding: User.self)
    /// print(cycle.response?.statusCode ?? 0, user.name)
    /// ```
    ///
    /// - Returns: the decoded body.
    /// - Throws: ``/JewzHTTPCore/HTTPError`` as ``/JewzHTTPCore/HTTPCycle/start()`` does, and
    ///   ``/JewzHTTPCore/HTTPError/Code/processor`` with the decoder's `DecodingError`
    ///   and the response when the body is not a `type`.
    public func start<T: Decodable>(decoding type: T.Type, using decoder: JSONDecoder = JSONDecoder()) async throws -> T {
        options.responseProcessors = []
        return try await start().decode(type, using: decoder)
    }

}

/// Sending a request and decoding its JSON body as a `Decodable` type, in one call.
extension HTTPCycle.Sender {
    /// Sends a request and decodes the JSON body as `type`; see
    /// ``HTTPCycle/start(decoding:using:)``. Keep a cycle and call that method when you also
    /// need the response's status or headers.
    ///
    /// ```swift
    /// let draft = Person(name: "Ada")
    /// let people = try await HTTPCycle.get("https://api.example.com/people", decoding: [Person].self)
    /// let created = try await HTTPCycle.post(url, requestObject: draft, decoding: Person.self)
    /// ```
    ///
    /// - Throws: ``/JewzHTTPCore/HTTPError``: `.invalidURL` before anything is sent, the errors of
    ///   ``/JewzHTTPCore/HTTPSession/send(_:options:)``, and `.processor` (with the response) when the body is
    ///   not a `type`.
    public func callAsFunction<T: Decodable>(
        _ urlString: String, parameters: QueryParameters = [:], headers: HTTPHeaderFields = [:],
        requestObject: (any Sendable)? = nil, timeout: Duration? = nil, options: HTTPRequestOptions = .init(),
        decoding type: T.Type, using decoder: JSONDecoder = JSONDecoder(), session: HTTPSession = .default
    ) async throws -> T {
        let (request, url) = try HTTPCycle.request(urlString, method, parameters, headers, requestObject, session)
        var options = options.bounded(by: timeout)
        // The decoder reads the bytes: no processor parses them first.
        options.responseProcessors = []
        return try await session.send(request, options: options, vettedURL: url).decode(type, using: decoder)
    }
}
