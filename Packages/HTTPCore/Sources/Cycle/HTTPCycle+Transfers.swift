import Foundation

// The seed's upload and download forms, each in an `async` form that returns the finished
// cycle (it runs in the calling task, which cancels it) and a completion-handler form that
// returns the cycle at once.
extension HTTPCycle {
    /// Uploads `source` and returns the finished cycle.
    ///
    /// - Parameters:
    ///   - method: POST unless given.
    ///   - source: what to send: `.data`, or `.file` streamed from disk (never read whole).
    ///   - didSendBodyData: called as the body goes out; its totals restart with each retry.
    /// - Throws: ``HTTPError``, as ``send(_:_:parameters:requestObject:requestProcessors:responseProcessors:authentications:solicited:retryPolicy:session:)``;
    ///   ``HTTPError/Code/unreadableBody`` when the file cannot be read.
    @discardableResult
    public static func upload(
        _ urlString: String, method: HTTPMethod = .post, parameters: QueryParameters = [:], source: HTTPRequestBody,
        contentType: String? = nil, didSendBodyData: DidSendBodyDataHandler? = nil,
        responseProcessors: [any HTTPProcessor]? = nil, authentications: [any HTTPAuthentication]? = nil,
        session: HTTPSession = .default
    ) async throws -> HTTPCycle {
        let cycle = try uploadCycle(
            urlString, method: method, parameters: parameters, source: source, contentType: contentType,
            didSendBodyData: didSendBodyData, responseProcessors: responseProcessors,
            authentications: authentications, session: session)
        try await cycle.startUnshared()
        return cycle
    }

    /// Uploads `source`, returns the cycle at once and calls `completion` when done.
    ///
    /// - Throws: ``HTTPError/Code/invalidURL`` before anything is sent.
    @discardableResult
    public static func upload(
        _ urlString: String, method: HTTPMethod = .post, parameters: QueryParameters = [:], source: HTTPRequestBody,
        contentType: String? = nil, didSendBodyData: DidSendBodyDataHandler? = nil,
        responseProcessors: [any HTTPProcessor]? = nil, authentications: [any HTTPAuthentication]? = nil,
        session: HTTPSession = .default, completion: @escaping Completion
    ) throws -> HTTPCycle {
        let cycle = try uploadCycle(
            urlString, method: method, parameters: parameters, source: source, contentType: contentType,
            didSendBodyData: didSendBodyData, responseProcessors: responseProcessors,
            authentications: authentications, session: session)
        cycle.start(completion: completion)
        return cycle
    }

    /// Downloads to a temporary file, hands it to `downloadFile` once complete and valid, and
    /// returns the finished cycle. The file is removed when `downloadFile` returns.
    ///
    /// - Parameters:
    ///   - resumable: keep a partial file on failure when the server supports ranges; see
    ///     ``HTTPDownload/isResumable`` and ``resumeData``.
    ///   - resumeData: continue an earlier download.
    /// - Throws: ``HTTPError``; after a failure, the cycle on which to read ``resumeData`` is
    ///   the one given to a completion form, so keep a cycle and ``start()`` it when you need it.
    @discardableResult
    public static func download(
        _ urlString: String, parameters: QueryParameters = [:], resumable: Bool = false,
        resumingFrom resumeData: DownloadResumeData? = nil, didWriteData: DidWriteBodyDataHandler? = nil,
        authentications: [any HTTPAuthentication]? = nil, session: HTTPSession = .default,
        downloadFile: @escaping HTTPDownload.FileHandler
    ) async throws -> HTTPCycle {
        let cycle = try downloadCycle(
            urlString, parameters: parameters, resumable: resumable, resumingFrom: resumeData, didWriteData: didWriteData,
            authentications: authentications, session: session, downloadFile: downloadFile)
        try await cycle.startUnshared()
        return cycle
    }

    /// Downloads to a temporary file, returns the cycle at once, hands the file to
    /// `downloadFile` once complete and valid, then calls `completion`.
    ///
    /// - Throws: ``HTTPError/Code/invalidURL`` before anything is sent.
    @discardableResult
    public static func download(
        _ urlString: String, parameters: QueryParameters = [:], resumable: Bool = false,
        resumingFrom resumeData: DownloadResumeData? = nil, didWriteData: DidWriteBodyDataHandler? = nil,
        authentications: [any HTTPAuthentication]? = nil, session: HTTPSession = .default,
        downloadFile: @escaping HTTPDownload.FileHandler, completion: @escaping Completion
    ) throws -> HTTPCycle {
        let cycle = try downloadCycle(
            urlString, parameters: parameters, resumable: resumable, resumingFrom: resumeData, didWriteData: didWriteData,
            authentications: authentications, session: session, downloadFile: downloadFile)
        cycle.start(completion: completion)
        return cycle
    }

    private static func downloadCycle(
        _ urlString: String, parameters: QueryParameters, resumable: Bool, resumingFrom resumeData: DownloadResumeData?,
        didWriteData: DidWriteBodyDataHandler?, authentications: [any HTTPAuthentication]?, session: HTTPSession,
        downloadFile: @escaping HTTPDownload.FileHandler
    ) throws -> HTTPCycle {
        let cycle = try HTTPCycle(urlString, method: .get, parameters: parameters, authentications: authentications, session: session)
        cycle.download = HTTPDownload(
            resumable: resumable, resumingFrom: resumeData, didWriteData: didWriteData, downloadFile: downloadFile)
        return cycle
    }

    private static func uploadCycle(
        _ urlString: String, method: HTTPMethod, parameters: QueryParameters, source: HTTPRequestBody, contentType: String?,
        didSendBodyData: DidSendBodyDataHandler?, responseProcessors: [any HTTPProcessor]?,
        authentications: [any HTTPAuthentication]?, session: HTTPSession
    ) throws -> HTTPCycle {
        let cycle = try HTTPCycle(
            urlString, method: method, parameters: parameters, responseProcessors: responseProcessors,
            authentications: authentications, session: session)
        cycle.request.body = source
        if let contentType { cycle.request.headers["Content-Type"] = contentType }
        cycle.didSendBodyData = didSendBodyData
        return cycle
    }
}
