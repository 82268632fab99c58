/// How one run moves its bodies: where the response goes, and who watches the upload.
struct RunBodies: Sendable {
    var download: DownloadTarget?
    var channel: ResponseBodyChannel?
    var didSendBodyData: HTTPCycle.DidSendBodyDataHandler?

    var destination: ResponseDestination {
        if let download { .file(download) } else if let channel { .stream(channel) } else { .memory }
    }

    var isInMemory: Bool { download == nil && channel == nil }
}
