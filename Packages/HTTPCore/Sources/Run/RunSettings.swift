/// What a run starts from: the request, the call's options, and what only a cycle adds (its
/// progress handler, its download). A cycle holds one and hands a run a copy.
struct RunSettings {
    var request: HTTPRequest
    var options: HTTPRequestOptions
    var didSendBodyData: HTTPCycle.DidSendBodyDataHandler?
    // Out of line: few runs download, and a finished cycle is freed, with cold caches, a line
    // at a time.
    @OutOfLine var download: HTTPDownload? = nil
}
