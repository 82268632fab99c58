/// Where a call's response body goes, decided once when the call starts, from
/// ``HTTPRequestOptions/responseBody``.
enum ResponseDestination: Sendable {
    /// Into memory, up to the session's size limit.
    case memory
    /// To the caller, as a stream in ``HTTPResponse/body``, read as it arrives.
    case stream
    /// Into a download's file.
    case file(DownloadTarget)

    init(_ body: HTTPRequestOptions.BodyDestination) {
        switch body {
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
