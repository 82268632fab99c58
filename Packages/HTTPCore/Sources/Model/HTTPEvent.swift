/// Something that happened to a call (``HTTPCall``); times are measured from its start.
public enum HTTPEvent: Sendable {
    /// Processors and authentications have prepared the request.
    case requestPrepared(HTTPRequest, elapsed: Duration)
    /// An attempt went to the network (1 for the first).
    case requestSent(HTTPRequest, attempt: Int, elapsed: Duration)
    /// A stage of the session's request path took the request (``HTTPMiddleware/name``): the
    /// path a request went through, in order, the stages below the redirects once per hop.
    case stageEntered(String, request: HTTPRequest)
    /// An attempt joined an identical GET already in flight instead of sending its own
    /// (``HTTPSession/Configuration/coalescesIdenticalGETs``).
    case requestCoalesced(HTTPRequest)
    /// An attempt's response arrived (its body still arriving when it streams).
    case responseReceived(HTTPResponse, attempt: Int, elapsed: Duration)
    /// An attempt failed and will be sent again after `delay`.
    case retrying(reason: HTTPError, delay: Duration, attempt: Int, elapsed: Duration)
    /// The response processors have run.
    case processed(HTTPResponse, elapsed: Duration)
    /// The call failed (not by cancellation).
    case failed(HTTPError, elapsed: Duration)
    /// The call was cancelled.
    case cancelled(explicitly: Bool, elapsed: Duration)
    /// The call is over, whatever the outcome: for a body read as a stream, once it is read.
    case finished(elapsed: Duration)

    /// The event's name, for logs (`"requestSent"`…).
    public var name: String {
        switch self {
        case .requestPrepared: "requestPrepared"
        case .requestSent: "requestSent"
        case .stageEntered: "stageEntered"
        case .requestCoalesced: "requestCoalesced"
        case .responseReceived: "responseReceived"
        case .retrying: "retrying"
        case .processed: "processed"
        case .failed: "failed"
        case .cancelled: "cancelled"
        case .finished: "finished"
        }
    }
}

/// Observes every call of a session — each `send`, each run of a cycle: log, trace or measure
/// without touching the pipeline.
///
/// Events arrive synchronously on the call's task, in order for one call and concurrently
/// across calls: keep the work short and thread-safe.
///
/// ```swift
/// struct Timings: HTTPEventMonitor {
///     func call(_ call: HTTPCall, didEmit event: HTTPEvent) {
///         if case .finished(let elapsed) = event { print(call.request.url, elapsed) }
///     }
/// }
/// try session.update { $0.eventMonitors.append(Timings()) }
/// ```
public protocol HTTPEventMonitor: Sendable {
    /// Called with each event of `call`, in order.
    func call(_ call: HTTPCall, didEmit event: HTTPEvent)
}
