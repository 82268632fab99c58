import Foundation

/// Where a run's response body goes once content-decoded.
enum ResponseDestination {
    /// Into ``HTTPResponse/data``, up to the session's size limit.
    case memory
    /// Into a file, for downloads.
    case file(DownloadTarget)
    /// To a consumer reading ``HTTPResponseBody`` as it arrives.
    case stream(ResponseBodyChannel)

    /// Sends a body still arriving to the file or the reader, chunk by chunk as it is read,
    /// after its head, and returns the fields its wrappers add at its end
    /// (``HTTPResponseBody/withTrailers(_:)``).
    ///
    /// - Throws: what ended the body, the file's errors, or ``HTTPError/Code/streamAbandoned``
    ///   when the reader went away.
    func deliver(_ head: HTTPResponse, body: HTTPResponseBody) async throws -> HTTPHeaderFields {
        var head = head
        head.stream = nil
        switch self {
        case .memory: return [:]
        case .file(let target):
            try target.begin(statusCode: head.statusCode, headers: head.headers, url: head.url, isDecoded: head.headers.namesContentCoding)
        case .stream(let channel): channel.deliverHead(head)
        }
        for try await chunk in body {
            switch self {
            case .memory: return [:]
            case .file(let target): try chunk.withUnsafeBytes { try target.write($0) }
            case .stream(let channel):
                try await channel.waitForDemand()
                try channel.enqueue(chunk)
            }
        }
        if case .file(let target) = self { try target.finishWriting() }
        return body.reader.trailingFields()
    }
}
