import Foundation

// The upload and download forms, each in an `async` form that returns the processed response
// (it runs in the calling task, which cancels it) and a completion-handler form that returns
// the cycle at once.
extension HTTPCycle {
    /// Uploads `source` and returns the processed response.
    ///
    /// - Parameters:
    ///   - method: POST unless given.
    ///   - source: what to send: `.data`, or `.file` streamed from disk (never read whole).
    ///   - didSendBodyData: called as the body goes out; its totals restart with each retry.
    /// - Throws: ``HTTPError``, as ``HTTPCycle/Sender``'s forms; ``HTTPError/Code/unreadableBody``
    ///   when the file cannot be read.
    @discardableResult
    public static func upload(
        _ urlString: String, method: HTTPMethod = .post, parameters: QueryParameters = [:], source: HTTPRequestBody,
        contentType: String? = nil, didSendBodyData: DidSendBodyDataHandler? = nil, options: HTTPRequestOptions = HTTPRequestOptions(),
        session: HTTPSession = .default
    ) async throws -> HTTPResponse {
        let cycle = try HTTPCycle(urlString, method: method, parameters: parameters, options: options, session: session)
        cycle.prepareUpload(source, contentType: contentType, didSendBodyData: didSendBodyData)
        return try await cycle.startUnshared()
    }

    /// Uploads `source`, returns the cycle at once and calls `completion` when done.
    ///
    /// - Throws: ``HTTPError/Code/invalidURL`` before anything is sent.
    @discardableResult
    public static func upload(
        _ urlString: String, method: HTTPMethod = .post, parameters: QueryParameters = [:], source: HTTPRequestBody,
        contentType: String? = nil, didSendBodyData: DidSendBodyDataHandler? = nil, options: HTTPRequestOptions = HTTPRequestOptions(),
        session: HTTPSession = .default, completion: @escaping Completion
    ) throws -> HTTPCycle {
        let cycle = try HTTPCycle(urlString, method: method, parameters: parameters, options: options, session: session)
        cycle.prepareUpload(source, contentType: contentType, didSendBodyData: didSendBodyData)
        cycle.start(completion: completion)
        return cycle
    }

    /// Downloads to a temporary file, hands it to `downloadFile` once complete and valid, and
    /// returns the response (its body went to the file). The file is removed when
    /// `downloadFile` returns.
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
        options: HTTPRequestOptions = HTTPRequestOptions(), session: HTTPSession = .default, downloadFile: @escaping HTTPDownload.FileHandler
    ) async throws -> HTTPResponse {
        let cycle = try HTTPCycle(urlString, method: .get, parameters: parameters, options: options, session: session)
        cycle.download = HTTPDownload(resumable: resumable, resumingFrom: resumeData, didWriteData: didWriteData, downloadFile: downloadFile)
        return try await cycle.startUnshared()
    }

    /// Downloads to a temporary file, returns the cycle at once, hands the file to
    /// `downloadFile` once complete and valid, then calls `completion`.
    ///
    /// - Throws: ``HTTPError/Code/invalidURL`` before anything is sent.
    @discardableResult
    public static func download(
        _ urlString: String, parameters: QueryParameters = [:], resumable: Bool = false,
        resumingFrom resumeData: DownloadResumeData? = nil, didWriteData: DidWriteBodyDataHandler? = nil,
        options: HTTPRequestOptions = HTTPRequestOptions(), session: HTTPSession = .default, downloadFile: @escaping HTTPDownload.FileHandler,
        completion: @escaping Completion
    ) throws -> HTTPCycle {
        let cycle = try HTTPCycle(urlString, method: .get, parameters: parameters, options: options, session: session)
        cycle.download = HTTPDownload(resumable: resumable, resumingFrom: resumeData, didWriteData: didWriteData, downloadFile: downloadFile)
        cycle.start(completion: completion)
        return cycle
    }

    /// Makes the cycle send `source` as its body.
    private func prepareUpload(_ source: HTTPRequestBody, contentType: String?, didSendBodyData: DidSendBodyDataHandler?) {
        state.withLock { state in
            state.settings.request.body = source
            if let contentType { state.settings.request.headers["Content-Type"] = contentType }
            state.settings.didSendBodyData = didSendBodyData
        }
    }
}
