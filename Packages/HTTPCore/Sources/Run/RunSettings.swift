/// What a run starts from: the request, the call's options, and what only a cycle adds (its
/// progress handler, its download). A cycle holds one and hands a run a copy.
struct RunSettings {
    var request: HTTPRequest
    var options: HTTPRequestOptions
    var didSendBodyData: HTTPCycle.DidSendBodyDataHandler?
    // Out of line: few runs download, and a finished cycle is freed, with cold caches, a line
    // at a time.
    @OutOfLine var download: HTTPDownload? = nil
    /// The transport this run's exchanges go over instead of the session's: one that keeps
    /// its connection past the response (a WebSocket's opening handshake). Out of line, as
    /// `download` is, for the same reason.
    @OutOfLine var transport: (any HTTPTransport)? = nil
}
