import Foundation

// The upload and download forms, each in an `async` form that sends once and returns the
// processed response (in the calling task, which cancels it) and a completion-handler form
// that returns a started cycle at once. What they take beyond a request goes into the request
// (the body's source), the options (upload progress) or the cycle's delivery (the download).
extension HTTPCycle {
    /// Uploads `source` and returns the processed response.
    ///
    /// - Parameters:
    ///   - urlString: an absolute http(s) URL, or with the session's `baseURL`, a path under it.
    ///   - method: POST unless given.
    ///   - parameters: merged into the URL's query.
    ///   - source: what to send: `.data`, or `.file` streamed from disk (never read whole).
    ///   - contentType: the body's `Content-Type`; by default none is set.
    ///   - didSendBodyData: called as the body goes out; its totals restart with each retry.
    ///   - options: the call's own processors, authentications, retry policy.
    ///   - session: the session that sends it; ``HTTPSession/default`` unless given.
    /// - Throws: ``HTTPError``, as ``HTTPCycle/Sender``'s forms; ``HTTPError/Code/unreadableBody``
    ///   when the file cannot be read.
    @discardableResult
    public static func upload(
        _ urlString: String, method: HTTPMethod = .post, parameters: QueryParameters = [:], source: HTTPRequestBody,
        contentType: String? = nil, didSendBodyData: HTTPProgressHandler? = nil, options: HTTPRequestOptions = HTTPRequestOptions(),
        session: HTTPSession = .default
    ) async throws -> HTTPResponse {
        var (request, url) = try request(urlString, method, parameters, [:], nil, session)
        var options = options
        prepareUpload(&request, &options, source, contentType: contentType, didSendBodyData: didSendBodyData)
        return try await session.send(request, options: options, vettedURL: url)
    }

    /// Uploads `source`, returns the cycle at once and calls `completion` when done.
    ///
    /// - Throws: ``HTTPError/Code/invalidURL`` before anything is sent.
    @discardableResult
    public static func upload(
        _ urlString: String, method: HTTPMethod = .post, parameters: QueryParameters = [:], source: HTTPRequestBody,
        contentType: String? = nil, didSendBodyData: HTTPProgressHandler? = nil, options: HTTPRequestOptions = HTTPRequestOptions(),
        session: HTTPSession = .default, completion: @escaping Completion
    ) throws -> HTTPCycle {
        var (request, url) = try request(urlString, method, parameters, [:], nil, session)
        var options = options
        prepareUpload(&request, &options, source, contentType: contentType, didSendBodyData: didSendBodyData)
        let cycle = HTTPCycle(request: request, options: options, session: session, vettedURL: url)
        cycle.start(completion: completion)
        return cycle
    }

    /// Downloads to a temporary file, hands it to `downloadFile` once complete and valid, and
    /// returns the response (its body went to the file). The file is removed when
    /// `downloadFile` returns.
    ///
    /// - Parameters:
    ///   - urlString: an absolute http(s) URL, or with the session's `baseURL`, a path under it.
    ///   - parameters: merged into the URL's query.
    ///   - resumable: keep a partial file on failure when the server supports ranges, and ask
    ///     for the body without a content coding to that end; see ``HTTPError/resumeData``.
    ///   - resumeData: continue an earlier download.
    ///   - didWriteData: called as the body goes into the file.
    ///   - options: the call's own processors, authentications, retry policy.
    ///   - session: the session that sends it; ``HTTPSession/default`` unless given.
    ///   - downloadFile: given the response and the complete file, to move or read it before
    ///     it is removed.
    /// - Throws: ``HTTPError``; after a failure of a resumable download, with the
    ///   ``HTTPError/resumeData`` to continue it from.
    @discardableResult
    public static func download(
        _ urlString: String, parameters: QueryParameters = [:], resumable: Bool = false,
        resumingFrom resumeData: DownloadResumeData? = nil, didWriteData: HTTPProgressHandler? = nil,
        options: HTTPRequestOptions = HTTPRequestOptions(), session: HTTPSession = .default,
        downloadFile: @escaping @Sendable (HTTPResponse, URL) throws -> Void
    ) async throws -> HTTPResponse {
        let (request, url) = try request(urlString, .get, parameters, [:], nil, session)
        let download = HTTPDownload(resumable: resumable, resumingFrom: resumeData, didWriteData: didWriteData, downloadFile: downloadFile)
        return try await session.send(request, options: options, delivery: .download(download), vettedURL: url)
    }

    /// Downloads to a temporary file, returns the cycle at once, hands the file to
    /// `downloadFile` once complete and valid, then calls `completion`.
    ///
    /// - Throws: ``HTTPError/Code/invalidURL`` before anything is sent.
    @discardableResult
    public static func download(
        _ urlString: String, parameters: QueryParameters = [:], resumable: Bool = false,
        resumingFrom resumeData: DownloadResumeData? = nil, didWriteData: HTTPProgressHandler? = nil,
        options: HTTPRequestOptions = HTTPRequestOptions(), session: HTTPSession = .default,
        downloadFile: @escaping @Sendable (HTTPResponse, URL) throws -> Void, completion: @escaping Completion
    ) throws -> HTTPCycle {
        let (request, url) = try request(urlString, .get, parameters, [:], nil, session)
        let download = HTTPDownload(resumable: resumable, resumingFrom: resumeData, didWriteData: didWriteData, downloadFile: downloadFile)
        let cycle = HTTPCycle(request: request, options: options, delivery: .download(download), session: session, vettedURL: url)
        cycle.start(completion: completion)
        return cycle
    }

    /// Makes `request` send `source` as its body, with `options` reporting its progress.
    private static func prepareUpload(
        _ request: inout HTTPRequest, _ options: inout HTTPRequestOptions, _ source: HTTPRequestBody, contentType: String?,
        didSendBodyData: HTTPProgressHandler?
    ) {
        request.body = source
        if let contentType { request.headers["Content-Type"] = contentType }
        if let didSendBodyData { options.didSendBodyData = didSendBodyData }
    }
}
