/// What a call was asked to return, fixed by the session's call it came from:
/// ``HTTPSession/send(_:options:)``, ``HTTPSession/stream(_:options:)`` or
/// ``HTTPSession/download(_:to:resumingFrom:options:didWriteData:)``. A cycle keeps it across its runs.
package enum ResponseDelivery: Sendable {
    /// The body whole in memory, processed.
    case memory
    /// The head at once, the body a stream for the caller to read.
    case stream
    /// The body into a file; indirect, so that the others cost a call one word to move.
    indirect case download(HTTPDownload)
}

/// Where one call's response body goes, decided once when the call starts.
enum ResponseDestination: Sendable {
    /// Into memory, up to the session's size limit.
    case memory
    /// To the caller, as a stream in ``HTTPResponse/body``, read as it arrives.
    case stream
    /// Into a download's file.
    case file(DownloadTarget)

    init(_ delivery: ResponseDelivery) {
        switch delivery {
        case .memory: self = .memory
        case .stream: self = .stream
        case .download(let download): self = .file(DownloadTarget(download))
        }
    }

    var isInMemory: Bool {
        if case .memory = self { true } else { false }
    }

    /// The download's target, for a call whose body goes to a file.
    var download: DownloadTarget? {
        if case .file(let target) = self { target } else { nil }
    }
}
