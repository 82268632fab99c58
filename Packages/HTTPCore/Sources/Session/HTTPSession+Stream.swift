import Foundation

extension HTTPSession {
    /// Sends `request` along the session's request path, as ``send(_:options:)`` does, and
    /// returns at the response's head, with its body to read as it arrives.
    ///
    /// For a body too large for memory, or one that never ends (server-sent events, a JSON
    /// lines feed): at most about a megabyte waits for a slow reader, beyond it the connection
    /// waits too. No response processor reads the body. The call — its place in the queue, its
    /// connection, the session's count of calls in flight — lasts until the body is read to its
    /// end or dropped; dropping it, or cancelling the task that reads it, stops the transfer.
    /// A failing status's body is not streamed: it is in the error's response, as for `send`.
    ///
    /// The call is full duplex: a request body given as a stream goes on being written while
    /// the response's body is read, so a server that answers each part before the next is sent
    /// is served, over HTTP/1.1 and HTTP/2. A request body cannot end with trailer fields: the
    /// default transport's AsyncHTTPClient sends them only through an API it marks unstable.
    ///
    /// ```swift
    /// let feedURL = URL(string: "https://example.com/feed")!
    /// var hasher = SHA256()
    /// let response = try await session.stream(HTTPRequest(url: feedURL))
    /// for try await chunk in response.body { hasher.update(data: chunk) }
    /// ```
    ///
    /// - Parameters:
    ///   - request: what to send; the session's processors, headers and credentials are added.
    ///   - options: what this call uses instead of the session's settings.
    /// - Returns: the response's head and its body, a stream read once.
    /// - Throws: ``HTTPError``, as ``send(_:options:)`` before the head; reading the body
    ///   throws what ended the transfer.
    public func stream(_ request: HTTPRequest, options: HTTPRequestOptions = HTTPRequestOptions()) async throws -> HTTPStreamedResponse {
        let response = try await send(request, options: options, delivery: .stream, vettedURL: nil)
        return HTTPStreamedResponse(head: HTTPResponse.Head(response), body: response.body)
    }
}
