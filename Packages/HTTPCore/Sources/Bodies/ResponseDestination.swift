import Foundation

/// Where a run's response body goes once content-decoded.
enum ResponseDestination {
    /// Into ``HTTPResponse/data``, up to the session's size limit.
    case memory
    /// Into a file, for downloads.
    case file(DownloadTarget)
    /// To a consumer reading ``HTTPResponseBody`` as it arrives.
    case stream(ResponseBodyChannel)

    /// Gives a response that did not come from the transport — a stored one, or one a
    /// middleware made — to the file or the reader, as the network's would have gone, 64 KiB
    /// at a time (nothing to do for memory, where its `data` already is).
    ///
    /// - Throws: the file's errors (``HTTPError/Code/downloadFile``…), or
    ///   ``HTTPError/Code/streamAbandoned`` when the reader went away.
    func deliver(_ answer: HTTPFileResponse) async throws {
        var head = answer.response
        head.data = Data()
        switch self {
        case .memory: return
        case .file(let target): try target.begin(statusCode: head.statusCode, headers: head.headers, url: head.url, isDecoded: true)
        case .stream(let channel): channel.deliverHead(head)
        }
        var chunks = try StoredBodyChunks(answer)
        while let chunk = try chunks.next() {
            switch self {
            case .memory: return
            case .file(let target): try chunk.withUnsafeBytes { try target.write($0) }
            case .stream(let channel):
                try await channel.waitForDemand()
                try channel.enqueue(chunk)
            }
        }
        if case .file(let target) = self { try target.finishWriting() }
    }
}
