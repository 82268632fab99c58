import Foundation

extension HTTPSession {
    /// Sends `request` along the session's request path, as ``send(_:options:)`` does, and
    /// writes the response's body to `destination` as it arrives, never whole in memory.
    ///
    /// The body goes to a temporary file beside `destination` and replaces what is there only
    /// once it is complete and valid. When the call fails or is cancelled and the server can
    /// continue the body (`Accept-Ranges: bytes` and a strong ETag or a Last-Modified date),
    /// the partial file stays and the error's ``HTTPError/resumeData`` says where to go on:
    /// give it back as `resumeData` to ask only for the rest. To that end the body is asked
    /// for without a content coding, unless the request names its own `Accept-Encoding`.
    ///
    /// ```swift
    /// let file = URL(filePath: "big.iso")
    /// do {
    ///     let saved = try await session.download(HTTPRequest(url: url), to: file)
    ///     print(saved.statusCode, saved.fileURL.path)
    /// } catch let error as HTTPError where error.resumeData != nil {
    ///     _ = try await session.download(HTTPRequest(url: url), to: file, resumingFrom: error.resumeData)
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - request: what to send; the session's processors, headers and credentials are added.
    ///   - destination: where the complete body goes; a file there is replaced.
    ///   - resumeData: where an earlier download of the same resource stopped; sent as
    ///     `Range` with `If-Range`, so a changed resource comes whole again.
    ///   - options: what this call uses instead of the session's settings.
    ///   - didWriteData: called after each write with the bytes just written, the bytes in the
    ///     file (counting those it continued from) and the size expected, when known.
    /// - Returns: the response's head and the file's URL, `destination`.
    /// - Throws: ``HTTPError``, as ``send(_:options:)``; ``HTTPError/Code/downloadHandler`` when
    ///   the file cannot be moved to `destination`; a failure that left a partial file to go
    ///   on from carries ``HTTPError/resumeData``.
    public func download(
        _ request: HTTPRequest, to destination: URL, resumingFrom resumeData: DownloadResumeData? = nil,
        options: HTTPRequestOptions = HTTPRequestOptions(), didWriteData: HTTPProgressHandler? = nil
    ) async throws -> HTTPDownloadedResponse {
        var download = HTTPDownload.moving(to: destination, resumable: true, resumingFrom: resumeData, didWriteData: didWriteData)
        // Beside the destination, the final move is a rename.
        download.temporaryDirectory = destination.deletingLastPathComponent()
        let response = try await send(request, options: options, delivery: .download(download), vettedURL: nil)
        return HTTPDownloadedResponse(head: HTTPResponse.Head(response), fileURL: destination)
    }
}
