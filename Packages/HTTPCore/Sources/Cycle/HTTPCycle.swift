import Foundation
import JewzLocking
import struct Synchronization.Atomic

/// One request and its response: create, configure and start a cycle, then read the response
/// from the same object. A cycle can be started again (``restart()``); each run replaces the
/// response of the one before.
///
/// ```swift
/// let cycle = HTTPCycle(requestURL: url, requestMethod: .post)
/// cycle.request.headers["User-Agent"] = "Example/1.0"
/// cycle.request.data = Data("Hello".utf8)
/// try await cycle.start()
/// print(cycle.response?.text ?? "")
/// ```
///
/// The cycle holds its settings and the lifecycle of its runs (start, cancel, restart, what a
/// caller sees); each run's pipeline is a ``RequestRun``.
public final class HTTPCycle: Sendable {
    /// Called with the cycle and `nil`, or the error that ended it.
    public typealias Completion = @Sendable (HTTPCycle, HTTPError?) -> Void
    /// Called as the request body goes out: the bytes just sent, all sent so far in this
    /// attempt, and the body's length (`nil` for a stream of unknown length).
    public typealias DidSendBodyDataHandler = @Sendable (
        HTTPCycle, _ bytesSent: Int64, _ totalBytesSent: Int64, _ totalBytesExpectedToSend: Int64?
    ) -> Void
    /// Called as a download is written: the bytes just written, the file's size so far, and
    /// the size expected in the end (`nil` when unknown).
    public typealias DidWriteBodyDataHandler = @Sendable (
        HTTPCycle, _ bytesWritten: Int64, _ totalBytesWritten: Int64, _ totalBytesExpectedToWrite: Int64?
    ) -> Void

    public let session: HTTPSession

    struct State {
        var settings: RunSettings
        var lifecycle = CycleLifecycle()
        var response: HTTPResponse?
        var retryCount = 0
        @OutOfLine var resumeData: DownloadResumeData? = nil
    }

    let state: Mutex<State>
    /// The URL a string initializer checked already: preparing a request with it skips the check.
    let vettedURL: URL?
    /// The generation of the run that may go on: set when a run starts, 0 once it is cancelled.
    /// Every stage of a run checks it, so it is an atomic load rather than the lock.
    let liveGeneration = Atomic(0)

    /// Creates a cycle that is ready to ``start()``.
    public convenience init(
        requestURL: URL, requestMethod: HTTPMethod = .get, session: HTTPSession = .default,
        requestObject: (any Sendable)? = nil, options: HTTPRequestOptions = HTTPRequestOptions()
    ) {
        self.init(
            request: HTTPRequest(url: requestURL, method: requestMethod, object: requestObject), options: options,
            session: session)
    }

    /// Creates a cycle for `request` with its own `options`, ready to ``start()``.
    public convenience init(request: HTTPRequest, options: HTTPRequestOptions = HTTPRequestOptions(), session: HTTPSession = .default) {
        self.init(request: request, options: options, session: session, vettedURL: nil)
    }

    /// Creates a cycle with every setting in place at once, so that building one takes no lock;
    /// `vettedURL` is the request's URL when the caller checked it is ``Foundation/URL/isSendableHTTP``.
    package init(request: consuming HTTPRequest, options: consuming HTTPRequestOptions, session: HTTPSession, vettedURL: URL?) {
        self.session = session
        self.vettedURL = vettedURL
        state = Mutex(State(settings: RunSettings(request: request, options: options)))
        if session.hasEventMonitors.load(ordering: .acquiring) {
            emit(.created, to: session.settings().configuration.eventMonitors)
        }
    }

    /// The request to send. Changes apply to the next start.
    public var request: HTTPRequest {
        get { state.withLock { $0.settings.request } }
        set { state.withLock { $0.settings.request = newValue } }
    }

    /// The response of the latest run, once it arrived (also when its status failed the cycle).
    public var response: HTTPResponse? {
        state.withLock { $0.response }
    }

    /// What this cycle uses instead of its session's settings. Changes apply to the next start,
    /// except ``HTTPRequestOptions/priority``, which also moves a cycle waiting in the queue.
    public var options: HTTPRequestOptions {
        get { state.withLock { $0.settings.options } }
        set {
            let moved = state.withLock { state in
                defer { state.settings.options = newValue }
                return state.settings.options.priority != newValue.priority
            }
            if moved { session.queue.reprioritize(self, to: newValue.priority) }
        }
    }

    /// Where the cycle stands in its session's queue.
    var priority: RequestPriority {
        state.withLock { $0.settings.options.priority }
    }

    /// Reports the request body's progress as it is sent.
    public var didSendBodyData: DidSendBodyDataHandler? {
        get { state.withLock { $0.settings.didSendBodyData } }
        set { state.withLock { $0.settings.didSendBodyData = newValue } }
    }

    /// Makes the response body go to a file instead of ``HTTPResponse/data``; see
    /// ``HTTPDownload``. A response whose status fails the cycle stays in memory.
    public var download: HTTPDownload? {
        get { state.withLock { $0.settings.download } }
        set { state.withLock { $0.settings.download = newValue } }
    }

    /// Where the latest run's download can be continued from, when it failed or was cancelled
    /// after writing part of a resumable body; pass it to ``HTTPDownload/resumeData``.
    public var resumeData: DownloadResumeData? {
        state.withLock { $0.resumeData }
    }

    /// How many times the latest run sent its request again after a failure.
    public var retryCount: Int {
        state.withLock { $0.retryCount }
    }

    /// Whether a run is in progress (its completion handler, if any, has not run yet).
    public var isRunning: Bool {
        state.withLock { $0.lifecycle.isBusy }
    }

    // MARK: Starting and stopping

    /// Sends the request and returns when the response has been processed.
    ///
    /// Cancelling the awaiting task cancels the cycle. Starting a cycle that is running
    /// restarts it.
    ///
    /// - Returns: the processed response, also available as ``response``.
    /// - Throws: ``HTTPError``: ``HTTPError/Code/statusCode`` when the status counts as a
    ///   failure (the response is on the error and the cycle), ``HTTPError/Code/cancelled``
    ///   when cancelled, network and processor errors otherwise.
    @discardableResult
    public func start() async throws -> HTTPResponse {
        let task = runInOwnTask(completion: nil)
        return try await withTaskCancellationHandler {
            try await task.value
        } onCancel: {
            self.cancel(explicitly: false)
        }
    }

    /// Sends the request and calls `completion` on the session's completion queue.
    ///
    /// After ``cancel(explicitly:)`` with `explicitly: true`, `completion` is not called.
    public func start(completion: @escaping Completion) {
        _ = runInOwnTask(completion: completion)
    }

    /// Sends the request and returns as soon as the response head has arrived, with the body
    /// to be read as it arrives instead of being collected in memory.
    ///
    /// Failures before the head are retried as for ``start()``; a status that fails the cycle
    /// throws ``HTTPError/Code/statusCode`` with the (small) body collected as usual. Once the
    /// head is returned, the run is not retried: an error ends the body's sequence. Response
    /// processors do not run on a streamed body. Starting a cycle that is running restarts it.
    ///
    /// - Returns: the response (status, headers, URL; its ``HTTPResponse/data`` is empty) and
    ///   its body.
    /// - Throws: ``HTTPError``, as ``start()``.
    public func startStreaming() async throws -> (response: HTTPResponse, body: HTTPResponseBody) {
        let channel = ResponseBodyChannel { [weak self] in self?.cancel(explicitly: false) }
        _ = runInOwnTask(completion: nil, streamingTo: channel)
        let reader = HTTPResponseBody.Reader(channel)
        let response = try await withTaskCancellationHandler {
            try await channel.head()
        } onCancel: {
            self.cancel(explicitly: false)
        }
        return (response, HTTPResponseBody(reader: reader))
    }

    /// Cancels the running request, if any, and sends the same request again. A completion
    /// handler given to the last ``start(completion:)`` is called for the new run only.
    public func restart() {
        let completion = state.withLock { $0.lifecycle.completion }
        _ = runInOwnTask(completion: completion)
    }

    /// Cancels the running request.
    ///
    /// - Parameter explicitly: `true` when a person asked for it: the completion handler is
    ///   not called and the async ``start()`` throws a cancellation whose
    ///   ``HTTPError/isExplicitCancellation`` is `true`. With `false` the cycle completes
    ///   with an implicit cancellation.
    public func cancel(explicitly: Bool) {
        let stopping = state.withLock { state in
            let stopping = state.lifecycle.cancel(explicitly: explicitly)
            if stopping != nil { liveGeneration.store(0, ordering: .releasing) }
            return stopping
        }
        guard let stopping else { return }
        stopping.task?.cancel()
        stopping.exchange?.cancel()
        session.queue.withdraw(self)
    }

    /// Keeps the exchange of the running run so that ``cancel(explicitly:)`` can stop it,
    /// or stops it now when the cycle was cancelled before it started.
    func attach(_ exchange: any HTTPExchangeCancelling) {
        if state.withLock({ $0.lifecycle.attach(exchange) }) { exchange.cancel() }
    }

    /// Runs the cycle for an async one-call form (`get`, `post`, `upload`, `download`…), whose caller
    /// never holds the cycle while it runs.
    ///
    /// When nothing else can reach the cycle while it is on the wire, it runs in the calling
    /// task instead of a task of its own: the caller's task cancels it, and a task per request
    /// (its allocation, its frames, the hop back to the caller) is saved. Event monitors,
    /// progress handlers and a session queue that may hold requests (``HTTPSession/pendingCycles``)
    /// hand the cycle to others, whose ``cancel(explicitly:)`` must stop the exchange at once,
    /// which only a task of its own allows: then it runs as ``start()``.
    ///
    /// The processed response is returned; it is kept on the cycle (``response``) only when
    /// someone may read it there: a download's handler, which is given the cycle, or a caller
    /// that shares the cycle afterwards (`keepsResponse`).
    ///
    /// - Throws: ``HTTPError``, as ``start()``.
    // Inlined into the one-call forms, whose frame it would otherwise add to every request's.
    @discardableResult @inline(__always)
    nonisolated(nonsending) package func startUnshared(keepsResponse: Bool = false) async throws -> HTTPResponse {
        guard let (generation, previous, downloads) = beginUnreachableRun() else { return try await start() }
        previous?.cancel()
        let keeps = keepsResponse || downloads
        return try await run(generation, completion: nil, channel: nil) { response in
            if keeps { record(copy response, of: generation) }
            return response
        }
    }
}
