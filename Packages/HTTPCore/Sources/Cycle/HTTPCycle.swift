import Foundation
import JewzLocking

/// One request and its response as an object to hold: create, configure and start a cycle,
/// then read the response from the same object; restart it, cancel it from elsewhere, be
/// called back on the session's completion queue. Each start is one call of
/// ``HTTPSession/send(_:options:)`` (an ``HTTPCall``), which replaces the response of the one
/// before.
///
/// ```swift
/// let cycle = HTTPCycle(requestURL: url, requestMethod: .post)
/// cycle.request.headers["User-Agent"] = "Example/1.0"
/// cycle.request.data = Data("Hello".utf8)
/// try await cycle.start()
/// print(cycle.response?.text ?? "")
/// ```
///
/// When nothing needs holding, `session.send` or a one-call form (``HTTPCycle/get``…) does
/// the same without an object.
public final class HTTPCycle: Sendable {
    /// Called with the cycle and `nil`, or the error that ended it.
    public typealias Completion = @Sendable (HTTPCycle, HTTPError?) -> Void

    /// The session whose path the cycle's runs take.
    public let session: HTTPSession

    struct State {
        var settings: RunSettings
        var lifecycle = CycleLifecycle()
        var response: HTTPResponse?
        var retryCount = 0
        var resumeData: DownloadResumeData?
        /// Callers waiting for the current run's outcome (``startOrJoin()``).
        var joiners: [UUID: CheckedContinuation<HTTPResponse, any Error>] = [:]
    }

    let state: Mutex<State>
    /// The URL a string initializer checked already: preparing a request with it skips the check.
    let vettedURL: URL?

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
    /// `delivery` is what each run returns: the body in memory unless it says otherwise.
    package init(
        request: consuming HTTPRequest, options: consuming HTTPRequestOptions, delivery: ResponseDelivery = .memory, session: HTTPSession,
        vettedURL: URL?
    ) {
        self.session = session
        self.vettedURL = vettedURL
        state = Mutex(State(settings: RunSettings(request: request, options: options, delivery: delivery)))
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

    /// What this cycle uses instead of its session's settings: processors, authentications,
    /// retry policy, upload progress. Changes apply to the next start, except
    /// ``HTTPRequestOptions/priority``, which also moves a run waiting in the queue.
    public var options: HTTPRequestOptions {
        get { state.withLock { $0.settings.options } }
        set {
            let running = state.withLock { state in
                defer { state.settings.options = newValue }
                return state.settings.options.priority != newValue.priority ? state.lifecycle.call : nil
            }
            running?.priority = newValue.priority
        }
    }

    /// What each run returns: the body in memory (the default), as a stream, or in a file.
    /// Changes apply to the next start.
    package var delivery: ResponseDelivery {
        get { state.withLock { $0.settings.delivery } }
        set { state.withLock { $0.settings.delivery = newValue } }
    }

    /// Where the latest run's download can be continued from, when it failed or was cancelled
    /// after writing part of a resumable body (the failure's ``HTTPError/resumeData``).
    public var resumeData: DownloadResumeData? {
        state.withLock { $0.resumeData }
    }

    /// How many times the latest run sent its request again after a failure.
    public var retryCount: Int {
        let (running, recorded) = state.withLock { ($0.lifecycle.call, $0.retryCount) }
        return running?.retryCount ?? recorded
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
        try await awaitRun(streaming: false)
    }

    /// Sends the request and calls `completion` on the session's completion queue.
    ///
    /// After ``cancel(explicitly:)`` with `explicitly: true`, `completion` is not called.
    public func start(completion: @escaping Completion) {
        runInOwnTask(completion: completion)
    }

    /// Sends the request and returns as soon as the response head has arrived, with the body
    /// to be read as it arrives instead of being collected in memory, as
    /// ``HTTPSession/stream(_:options:)`` does.
    ///
    /// Failures before the head are retried as for ``start()``; a status that fails the cycle
    /// throws ``HTTPError/Code/statusCode`` with the (small) body collected as usual. Once the
    /// head is returned, the run is not retried: an error ends the body's sequence. Response
    /// processors do not run on a streamed body. The run lasts until the body is read or
    /// dropped. Starting a cycle that is running restarts it.
    ///
    /// - Returns: the response's head and its body, a stream read once; ``response`` is the head
    ///   with no body.
    /// - Throws: ``HTTPError``, as ``start()``.
    public func startStreaming() async throws -> HTTPStreamedResponse {
        let response = try await awaitRun(streaming: true)
        return HTTPStreamedResponse(head: HTTPResponse.Head(response), body: response.body)
    }

    /// Cancels the running request, if any, and sends the same request again. A completion
    /// handler given to the last ``start(completion:)`` is called for the new run only.
    public func restart() {
        let completion = state.withLock { $0.lifecycle.completion }
        runInOwnTask(completion: completion)
    }

    /// Cancels the running request.
    ///
    /// - Parameter explicitly: `true` when a person asked for it: the completion handler is
    ///   not called and the async ``start()`` throws a cancellation whose
    ///   ``HTTPError/isExplicitCancellation`` is `true`. With `false` the cycle completes
    ///   with an implicit cancellation.
    public func cancel(explicitly: Bool) {
        state.withLock { $0.lifecycle.cancel(explicitly: explicitly) }?.cancel(explicitly: explicitly)
    }
}
