import Foundation
import Logging
import Synchronization

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

    private struct State {
        var request: HTTPRequest
        var response: HTTPResponse?
        var requestProcessors: [any HTTPProcessor]?
        var responseProcessors: [any HTTPProcessor]?
        var authentications: [any HTTPAuthentication]?
        var solicited = false
        // Settings few cycles have are held out of line: inline they took 290 of the cycle's
        // 744 bytes, and a finished cycle is freed, with cold caches, a line at a time.
        @OutOfLine var retryPolicy: RetryPolicy?
        var retryCount = 0
        var priority = RequestPriority.normal
        var didSendBodyData: DidSendBodyDataHandler?
        @OutOfLine var download: HTTPDownload? = nil
        @OutOfLine var resumeData: DownloadResumeData? = nil
        /// Counts runs, so that the result of a run that was restarted is dropped.
        var generation = 0
        /// Whether a run is between its launch and its end.
        var running = false
        /// The running run's task, once launched (cancelled by ``cancel(explicitly:)``).
        var task: Task<HTTPResponse, any Error>?
        var completion: Completion?
        var cancellation: HTTPError?
        /// A finished run's completion handler is queued but has not run: a cancel still wins.
        var completionPending = false
    }

    private let state: Mutex<State>
    /// The URL a string initializer checked already: preparing a request with it skips the check.
    private let vettedURL: URL?
    /// The generation of the run that may go on: set when a run begins, 0 once it is cancelled.
    /// Every step of a run checks it, so it is an atomic load rather than the lock.
    private let liveGeneration = Atomic(0)

    /// Creates a cycle that is ready to ``start()``.
    public convenience init(
        requestURL: URL, requestMethod: HTTPMethod = .get, session: HTTPSession = .default,
        requestObject: (any Sendable)? = nil, requestProcessors: [any HTTPProcessor]? = nil,
        responseProcessors: [any HTTPProcessor]? = nil,
        authentications: [any HTTPAuthentication]? = nil
    ) {
        self.init(
            request: HTTPRequest(url: requestURL, method: requestMethod, object: requestObject), session: session,
            requestProcessors: requestProcessors, responseProcessors: responseProcessors, authentications: authentications)
    }

    /// Creates a cycle with every setting in place at once, so that building one takes no lock.
    init(
        request: HTTPRequest, session: HTTPSession, requestProcessors: [any HTTPProcessor]?,
        responseProcessors: [any HTTPProcessor]?, authentications: [any HTTPAuthentication]?, solicited: Bool = false,
        retryPolicy: RetryPolicy? = nil, vettedURL: URL? = nil
    ) {
        self.session = session
        self.vettedURL = vettedURL
        state = Mutex(
            State(
                request: request, requestProcessors: requestProcessors, responseProcessors: responseProcessors,
                authentications: authentications, solicited: solicited, retryPolicy: retryPolicy))
        if session.hasEventMonitors.load(ordering: .acquiring) {
            emit(.created, to: session.eventMonitors)
        }
    }

    /// The request to send. Changes apply to the next start.
    public var request: HTTPRequest {
        get { state.withLock { $0.request } }
        set { state.withLock { $0.request = newValue } }
    }

    /// The response of the latest run, once it arrived (also when its status failed the cycle).
    public var response: HTTPResponse? {
        state.withLock { $0.response }
    }

    /// This cycle's request processors; `nil` uses the session's.
    public var requestProcessors: [any HTTPProcessor]? {
        get { state.withLock { $0.requestProcessors } }
        set { state.withLock { $0.requestProcessors = newValue } }
    }

    /// This cycle's response processors; `nil` uses the session's, and when those are empty
    /// the session's registry picks one by Content-Type. An empty list turns processing off.
    public var responseProcessors: [any HTTPProcessor]? {
        get { state.withLock { $0.responseProcessors } }
        set { state.withLock { $0.responseProcessors = newValue } }
    }

    /// This cycle's authentications; `nil` uses the session's.
    public var authentications: [any HTTPAuthentication]? {
        get { state.withLock { $0.authentications } }
        set { state.withLock { $0.authentications = newValue } }
    }

    /// Whether a person asked for this request (a tap on "reload"), so it should be retried
    /// until data arrives.
    public var solicited: Bool {
        get { state.withLock { $0.solicited } }
        set { state.withLock { $0.solicited = newValue } }
    }

    /// This cycle's retry policy; `nil` uses the session's.
    public var retryPolicy: RetryPolicy? {
        get { state.withLock { $0.retryPolicy } }
        set { state.withLock { $0.retryPolicy = newValue } }
    }

    /// Where the cycle stands in its session's queue; changing it moves a waiting cycle.
    public var priority: RequestPriority {
        get { state.withLock { $0.priority } }
        set {
            state.withLock { $0.priority = newValue }
            session.queue.reprioritize(self, to: newValue)
        }
    }

    /// Reports the request body's progress as it is sent.
    public var didSendBodyData: DidSendBodyDataHandler? {
        get { state.withLock { $0.didSendBodyData } }
        set { state.withLock { $0.didSendBodyData = newValue } }
    }

    /// Makes the response body go to a file instead of ``HTTPResponse/data``; see
    /// ``HTTPDownload``. A response whose status fails the cycle stays in memory.
    public var download: HTTPDownload? {
        get { state.withLock { $0.download } }
        set { state.withLock { $0.download = newValue } }
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
        state.withLock { $0.running || $0.completionPending }
    }

    // MARK: Starting

    /// Sends the request and returns when the response has been processed.
    ///
    /// Cancelling the awaiting task cancels the cycle. Starting a cycle that is running
    /// restarts it.
    ///
    /// - Returns: the processed response, also available as ``response``.
    /// - Throws: ``HTTPError``: `.statusCode` when the status counts as a failure (the response
    ///   is still set), `.cancelled` when cancelled, network and processor errors otherwise.
    @discardableResult
    public func start() async throws -> HTTPResponse {
        let task = launch(completion: nil)
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
        _ = launch(completion: completion)
    }

    /// Sends the request and returns as soon as the response head has arrived, with the body
    /// to be read as it arrives instead of being collected in memory.
    ///
    /// Failures before the head are retried as for ``start()``; a status that fails the cycle
    /// throws `.statusCode` with the (small) body collected in ``response`` as usual. Once the
    /// head is returned, the run is not retried: an error ends the body's sequence. Response
    /// processors do not run on a streamed body. Starting a cycle that is running restarts it.
    ///
    /// - Returns: the response (status, headers, URL; its ``HTTPResponse/data`` is empty) and
    ///   its body.
    /// - Throws: ``HTTPError``, as ``start()``.
    public func startStreaming() async throws -> (response: HTTPResponse, body: HTTPResponseBody) {
        let channel = ResponseBodyChannel { [weak self] in self?.cancel(explicitly: false) }
        _ = launch(completion: nil, streamingTo: channel)
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
        let completion = state.withLock { $0.completion }
        _ = launch(completion: completion)
    }

    /// Cancels the running request.
    ///
    /// - Parameter explicitly: `true` when a person asked for it: the completion handler is
    ///   not called and the async ``start()`` throws `.cancelled(explicitly: true)`. With
    ///   `false` the cycle completes with `.cancelled(explicitly: false)`.
    public func cancel(explicitly: Bool) {
        let task = state.withLock { state -> Task<HTTPResponse, any Error>? in
            guard state.running || state.completionPending else { return nil }
            state.cancellation = .cancelled(explicitly: explicitly)
            liveGeneration.store(0, ordering: .releasing)
            return state.task
        }
        task?.cancel()
        session.queue.withdraw(self)
    }

    /// Runs the cycle for a one-call form (`get`, `send`, `upload`, `download`…), whose caller
    /// never holds the cycle while it runs.
    ///
    /// When nothing else can reach the cycle while it is on the wire, it runs in the calling
    /// task instead of a task of its own: the caller's task cancels it, and a task per request
    /// (its allocation, its frames, the hop back to the caller) is saved. Event monitors,
    /// progress handlers and a session queue that may hold requests (``HTTPSession/pendingCycles``)
    /// hand the cycle to others, whose ``cancel(explicitly:)`` must stop the exchange at once,
    /// which only a task of its own allows: then it runs as ``start()``.
    ///
    /// - Returns: the processed response, as ``start()``.
    /// - Throws: ``HTTPError``, as ``start()``.
    @discardableResult
    package func startUnshared() async throws -> HTTPResponse {
        guard let (generation, previous) = beginUnreachableRun() else { return try await start() }
        previous?.cancel()
        return try await perform(generation, completion: nil, channel: nil)
    }

    /// Starts a new run in a task of its own and returns that task.
    private func launch(completion: Completion?, streamingTo channel: ResponseBodyChannel? = nil) -> Task<HTTPResponse, any Error> {
        let (generation, previous) = beginRun(completion: completion)
        previous?.cancel()
        let task = Task {
            try await self.perform(generation, completion: completion, channel: channel)
        }
        // The run may have ended already, or been cancelled before its task was known: record
        // the task only for a run still going, and pass on a cancel that came first.
        let cancelledEarly = state.withLock { state -> Bool in
            guard state.generation == generation, state.running else { return false }
            state.task = task
            return state.cancellation != nil
        }
        if cancelledEarly { task.cancel() }
        return task
    }

    /// Marks a new run as started and returns its generation and the task of the run it
    /// replaces, for the caller to cancel.
    private func beginRun(completion: Completion?) -> (generation: Int, previous: Task<HTTPResponse, any Error>?) {
        state.withLock { Self.begin(&$0, completion: completion, liveGeneration: liveGeneration) }
    }

    /// As ``beginRun(completion:)``, unless others get hold of the cycle while it runs (the
    /// session's event monitors and queue, ``HTTPSession/pendingCycles``, the cycle's progress
    /// handlers): then it starts nothing and returns `nil`. One lock for both, as every
    /// one-call request asks.
    private func beginUnreachableRun() -> (generation: Int, previous: Task<HTTPResponse, any Error>?)? {
        if session.hasEventMonitors.load(ordering: .acquiring) || session.queue.mayHoldRequests { return nil }
        return state.withLock { state in
            if state.didSendBodyData != nil || state.download?.didWriteData != nil { return nil }
            return Self.begin(&state, completion: nil, liveGeneration: liveGeneration)
        }
    }

    private static func begin(
        _ state: inout State, completion: Completion?, liveGeneration: borrowing Atomic<Int>
    ) -> (generation: Int, previous: Task<HTTPResponse, any Error>?) {
        state.generation += 1
        state.completion = completion
        state.cancellation = nil
        state.completionPending = false
        state.retryCount = 0
        state.resumeData = nil
        state.running = true
        liveGeneration.store(state.generation, ordering: .releasing)
        let previous = state.task
        state.task = nil
        return (state.generation, previous)
    }

    /// One run from start to completion: the pipeline, the events that close it, the log.
    private func perform(_ generation: Int, completion: Completion?, channel: ResponseBodyChannel?) async throws -> HTTPResponse {
        let run = RunContext(generation: generation, settings: session.snapshot(), channel: channel)
        session.activity.begin()
        // Prepared and sent here rather than in a step of its own: one async frame fewer per run.
        var plan: RunPlan?
        // The closing steps take the failure alone: the response is not copied for them.
        do {
            let prepared = try prepare(run)
            plan = prepared
            let response = try await send(prepared)
            conclude(run, failure: nil, completion: completion)
            return response
        } catch {
            if let plan { keepResumeData(of: plan) }
            let failure = finalError(for: error, generation: generation)
            conclude(run, failure: failure, completion: completion)
            throw failure
        }
    }

    /// Closes a run: its body stream, the session's activity, the closing events and log, the
    /// stored outcome and the completion handler.
    @inline(never)
    private func conclude(_ run: RunContext, failure: HTTPError?, completion: Completion?) {
        run.channel?.finish(with: failure)
        session.activity.end()
        let monitors = run.settings.values.eventMonitors
        if let failure {
            if case .cancelled(let explicitly) = failure {
                emit(.cancelled(explicitly: explicitly, elapsed: .now - run.started), to: monitors)
            } else {
                emit(.failed(failure, elapsed: .now - run.started), to: monitors)
                logFailure(failure)
            }
        }
        emit(.finished(elapsed: .now - run.started), to: monitors)
        finish(run.generation, failure: failure, completion: completion)
    }

    /// The error a run ends with: cancellation as recorded by ``cancel(explicitly:)``, never
    /// as the network error it may have caused.
    private func finalError(for error: any Error, generation: Int) -> HTTPError {
        let recorded = state.withLock { $0.generation == generation ? $0.cancellation : nil }
        if let recorded { return recorded }
        if Task.isCancelled { return .cancelled(explicitly: false) }
        return HTTPError(transportError: error)
    }

    private func finish(_ generation: Int, failure: HTTPError?, completion: Completion?) {
        state.withLock { state in
            guard state.generation == generation else { return }
            state.task = nil
            state.running = false
            state.completionPending = completion != nil
        }
        guard let completion else { return }
        session.completionQueue.async {
            // A cancel issued before the completion runs always wins; a restarted run's
            // completion belongs to the new run.
            let outcome = self.state.withLock { state -> HTTPError?? in
                guard state.generation == generation else { return .none }
                state.completionPending = false
                if case .cancelled(explicitly: true)? = state.cancellation { return .none }
                if let cancellation = state.cancellation { return .some(cancellation) }
                return .some(failure)
            }
            if case .some(let error) = outcome {
                completion(self, error)
            }
        }
    }

    /// Tells the session's monitors; the event (a copy of the request or response, a clock
    /// reading) is built only when someone listens.
    private func emit(_ event: @autoclosure () -> HTTPEvent, to monitors: [any HTTPEventMonitor]) {
        guard !monitors.isEmpty else { return }
        let event = event()
        for monitor in monitors {
            monitor.cycle(self, didEmit: event)
        }
    }

    /// Logs a failure at error level with a bounded preview of the body.
    private func logFailure(_ error: HTTPError) {
        let (request, response) = state.withLock { ($0.request, $0.response) }
        var metadata: Logger.Metadata = ["method": "\(request.method)", "url": "\(request.url.absoluteString)"]
        if let response {
            metadata["status"] = "\(response.statusCode)"
            metadata["body"] = "\(String(decoding: response.data.prefix(512), as: UTF8.self))"
        }
        session.logger.error("\(error)", metadata: metadata)
    }

    // MARK: The pipeline
    //
    // The async steps below hold a reference to the run's plan rather than copies of its
    // parts, and leave synchronous work to functions that are not inlined into them: every
    // async frame is allocated for each run, and a large one costs a malloc of its own.

    /// After a failed run: a download leaves its partial file only when it can be continued,
    /// and the cycle keeps where to continue from.
    @inline(never)
    private func keepResumeData(of plan: RunPlan) {
        guard let target = plan.transfer.download else { return }
        let resumeData = target.abandon(requestURL: plan.request.url)
        let generation = plan.run.generation
        state.withLock { state in
            if state.generation == generation { state.resumeData = resumeData }
        }
    }

    /// Reads the cycle's settings and prepares its request: default headers, request
    /// processors, authentications, validation.
    @inline(never)
    private func prepare(_ run: RunContext) throws -> RunPlan {
        let (original, ownRequestProcessors, ownResponseProcessors, ownAuthentications, ownRetryPolicy, solicited, didSendBodyData, download) =
            state.withLock {
                (
                    $0.request, $0.requestProcessors, $0.responseProcessors, $0.authentications, $0.retryPolicy, $0.solicited,
                    $0.didSendBodyData, $0.download
                )
            }
        let settings = run.settings
        let requestProcessors = ownRequestProcessors ?? settings.values.requestProcessors
        let authentications = ownAuthentications ?? settings.values.authentications
        let target = run.channel == nil ? download.map { download in
            DownloadTarget(download) { [self] written, total, expected in download.didWriteData?(self, written, total, expected) }
        } : nil
        let transfer = Transfer(download: target, channel: run.channel, didSendBodyData: didSendBodyData)

        var request = original
        if download?.isResumable == true, run.channel == nil, !request.headers.contains("Accept-Encoding") {
            // Ranges of an encoded body cannot be decoded from the middle.
            request.headers["Accept-Encoding"] = "identity"
        }
        // The session's headers and the decoders' Accept-Encoding, where the request has none.
        request.headers.addMissing(
            from: settings.values.contentCodings.requestHeaders(adding: session.configuration.additionalHeaders))
        for processor in requestProcessors {
            try Self.applying(processor) { try processor.prepare(&request) }
        }
        for authentication in authentications {
            try Self.applying(authentication) { try authentication.authorize(&request) }
        }
        try request.validateForSending(vettedURL: vettedURL)
        emit(.requestPrepared(request, elapsed: .now - run.started), to: settings.values.eventMonitors)
        return RunPlan(
            run: run, request: request, transfer: transfer, authentications: authentications,
            ownRetryPolicy: ownRetryPolicy, responseProcessors: ownResponseProcessors, solicited: solicited)
    }

    /// Sends a prepared request until it succeeds or the retry policy gives up, then
    /// processes the response and hands a download its file.
    private func send(_ plan: RunPlan) async throws -> HTTPResponse {
        var retries = 0
        while true {
            try checkCancellation(plan.run)
            let outcome: AttemptOutcome
            do {
                // A place on the network is held for the exchange only, not for backoff or processing.
                if !session.queue.tryAcquire() { try await session.queue.acquire(for: self, priority: priority) }
                let received: HTTPResponse
                do {
                    // A cancel that came while the cycle waited for its place stops it here.
                    try checkCancellation(plan.run)
                    received = try await exchange(attemptRequest(plan, attempt: retries + 1), plan: plan)
                } catch {
                    session.queue.release()
                    throw error
                }
                session.queue.release()
                try checkCancellation(plan.run)
                outcome = classify(received, plan: plan, attempt: retries + 1)
            } catch {
                outcome = .failed(HTTPError(transportError: error), response: nil)
            }
            switch try settle(outcome, retries: retries, plan: plan) {
            case .finished(let response):
                return response
            case .retry(let delay):
                retries += 1
                try await Self.backOff(for: delay)
            }
        }
    }

    /// What follows an attempt: the run's response, or another attempt after a delay.
    private enum NextStep {
        case finished(HTTPResponse)
        case retry(after: Duration)
    }

    /// Decides what follows an attempt: processes a final response, or asks the retry policy.
    /// Not inlined into ``send(_:)``, whose async frame would otherwise hold its responses and
    /// errors for every request.
    @inline(never)
    private func settle(_ outcome: consuming AttemptOutcome, retries: Int, plan: RunPlan) throws -> NextStep {
        let failure: HTTPError
        let failedResponse: HTTPResponse?
        // Consumed, so that the response is moved out rather than copied field by field.
        switch consume outcome {
        case .succeeded(let response):
            return .finished(try complete(response, plan: plan))
        case .failed(let error, let response):
            failure = error
            failedResponse = response
        }
        try checkCancellation(plan.run)
        guard let delay = retryDelay(after: failure, response: failedResponse, retries: retries, plan: plan) else {
            // No retry: a failing status is still processed and reported below.
            guard let failedResponse else { throw failure }
            return .finished(try complete(failedResponse, plan: plan))
        }
        return .retry(after: delay)
    }

    /// Waits before a retry. Not inlined: the sleep's machinery would widen ``send(_:)``'s
    /// async frame, which every request allocates and touches, for a path few take.
    @inline(never)
    private static func backOff(for delay: Duration) async throws {
        try await Task.sleep(for: delay)
    }

    /// Throws when the run's task is cancelled, or the run was cancelled or replaced by a
    /// restart (which a run in the calling task learns only here).
    private func checkCancellation(_ run: RunContext) throws {
        if Task.isCancelled || liveGeneration.load(ordering: .acquiring) != run.generation {
            throw CancellationError()
        }
    }

    /// What one attempt ended with.
    private enum AttemptOutcome {
        case succeeded(HTTPResponse)
        case failed(HTTPError, response: HTTPResponse?)
    }

    /// The request of one attempt (a download continues what earlier attempts wrote, when the
    /// server allows), announced to the monitors.
    @inline(never)
    private func attemptRequest(_ plan: RunPlan, attempt: Int) -> HTTPRequest {
        let request = plan.transfer.download?.prepare(plan.request) ?? plan.request
        emit(.requestSent(request, attempt: attempt, elapsed: .now - plan.run.started), to: plan.run.settings.values.eventMonitors)
        return request
    }

    /// Whether a received response ends the attempts or fails the attempt.
    @inline(never)
    private func classify(_ received: consuming HTTPResponse, plan: RunPlan, attempt: Int) -> AttemptOutcome {
        let settings = plan.run.settings
        emit(.responseReceived(copy received, attempt: attempt, elapsed: .now - plan.run.started), to: settings.values.eventMonitors)
        guard settings.values.shouldTreatStatusCodeAsFailure(received.statusCode) else { return .succeeded(received) }
        return .failed(.statusCode(received.statusCode), response: received)
    }

    /// How long to wait before the next attempt, or `nil` when the failure stands; records
    /// and reports a retry.
    @inline(never)
    private func retryDelay(after failure: HTTPError, response: HTTPResponse?, retries: Int, plan: RunPlan) -> Duration? {
        let request = plan.request
        let attempt = RetryAttempt(
            method: request.method, url: request.url, error: failure, response: response, retryCount: retries,
            solicited: plan.solicited)
        // A one-shot body has been used up, and a streamed head is in the caller's hands:
        // the failure stands as it is.
        let replayable = (request.body?.isReplayable ?? true) && !(plan.transfer.channel?.hasDeliveredHead ?? false)
        guard replayable, let delay = plan.retryPolicy.delay(for: attempt) else { return nil }
        emit(
            .retrying(reason: failure, delay: delay, attempt: retries + 1, elapsed: .now - plan.run.started),
            to: plan.run.settings.values.eventMonitors)
        let generation = plan.run.generation
        state.withLock { state in
            if state.generation == generation { state.retryCount = retries + 1 }
        }
        session.logger.debug(
            "retrying \(request.method) \(request.url.absoluteString) in \(delay) after \(failure)",
            metadata: ["retry": "\(retries + 1)"])
        return delay
    }

    /// Processes the final response, stores it, and hands a finished download its file.
    @inline(never)
    private func complete(_ response: consuming HTTPResponse, plan: RunPlan) throws -> HTTPResponse {
        try checkCancellation(plan.run)
        let settings = plan.run.settings
        let failed = settings.values.shouldTreatStatusCodeAsFailure(response.statusCode)
        var processingError: (any Error)?
        if !failed, !plan.transfer.isInMemory {
            // The body went to a file or a stream: there is nothing to process.
        } else if !failed {
            do {
                try processResponse(&response, request: plan.request, explicit: plan.responseProcessors, settings: settings)
            } catch {
                processingError = error
            }
        } else {
            // A failing status keeps its error; the body is still processed when it can be.
            try? processResponse(&response, request: plan.request, explicit: plan.responseProcessors, settings: settings)
        }
        try checkCancellation(plan.run)
        emit(.processed(copy response, elapsed: .now - plan.run.started), to: settings.values.eventMonitors)
        let generation = plan.run.generation
        let stored = copy response
        state.withLock { state in
            if state.generation == generation { state.response = stored }
        }
        if failed { throw HTTPError.statusCode(response.statusCode) }
        if let processingError { throw processingError }
        if let target = plan.transfer.download, let location = target.completedFile() {
            defer { target.removeFile() }
            do {
                try target.download.downloadFile(self, location)
            } catch {
                throw HTTPError.processor(name: "download file handler", underlying: error)
            }
        }
        return response
    }

    /// Sends the request, answering a 401/407 challenge once per authentication.
    private func exchange(_ request: HTTPRequest, plan: RunPlan) async throws -> HTTPResponse {
        let response = try await sendOnce(request, plan: plan)
        let replayable = request.body?.isReplayable ?? true
        // A redirect that keeps the body was not followed: it would have resent a one-shot body.
        if !replayable, session.configuration.followsRedirects, response.statusCode == 307 || response.statusCode == 308,
            response.headers.contains("Location")
        {
            throw HTTPError.bodyNotReplayable
        }
        // A challenge is answered by sending the request again, which a one-shot body cannot be.
        guard response.statusCode == 401 || response.statusCode == 407, replayable, !plan.authentications.isEmpty else {
            return response
        }
        return try await answer(challenge: response, to: request, plan: plan)
    }

    /// Sends the request again with each authentication's answer to a 401/407, until one is
    /// let in. Not inlined: few requests are challenged, and every request would carry its
    /// copies of the request in ``exchange(_:plan:)``'s async frame.
    @inline(never)
    private func answer(challenge: HTTPResponse, to request: HTTPRequest, plan: RunPlan) async throws -> HTTPResponse {
        var response = challenge
        for authentication in plan.authentications {
            var retry = request
            let answers = try Self.applying(authentication) {
                try authentication.respond(to: response, retrying: &retry)
            }
            guard answers else { continue }
            try retry.validateForSending()
            response = try await sendOnce(retry, plan: plan)
            if response.statusCode != 401, response.statusCode != 407 { break }
        }
        return response
    }

    /// One exchange, shared with identical GETs in flight when the session coalesces them.
    private func sendOnce(_ request: HTTPRequest, plan: RunPlan) async throws -> HTTPResponse {
        // The fields one by one: a copy of `values` would retain and release each of them, on
        // objects every concurrent run shares.
        let settings = plan.run.settings
        let transfer = plan.transfer
        let session = self.session
        let codings = settings.values.contentCodings
        let isFailure = settings.values.shouldTreatStatusCodeAsFailure
        guard request.method == .get, settings.values.coalescesIdenticalGETs, transfer.isInMemory else {
            let onBodySent = transfer.didSendBodyData.map { handler in
                Self.progressReporter(for: self, expecting: request.body?.knownLength, handler: handler)
            }
            return try await Self.transfer(
                request, session: session, codings: codings, destination: transfer.destination, isFailure: isFailure,
                onBodySent: onBodySent)
        }
        return try await session.coalescer.response(for: request) {
            try await Self.transfer(request, session: session, codings: codings, destination: .memory, isFailure: isFailure, onBodySent: nil)
        }
    }

    /// Adds up the sizes a transport reports into the seed's progress callback.
    private static func progressReporter(
        for cycle: HTTPCycle, expecting length: Int?, handler: @escaping DidSendBodyDataHandler
    ) -> @Sendable (Int) -> Void {
        let total = Atomic<Int64>(0)
        let expected = length.map(Int64.init)
        return { count in
            let sent = total.add(Int64(count), ordering: .relaxed).newValue
            handler(cycle, Int64(count), sent, expected)
        }
    }

    /// One exchange on the session's transport, content-decoded.
    @inline(never)
    private static func transfer(
        _ request: HTTPRequest, session: HTTPSession, codings: ContentCodingRegistry, destination: ResponseDestination,
        isFailure: @escaping @Sendable (Int) -> Bool, onBodySent: (@Sendable (Int) -> Void)?
    ) async throws -> HTTPResponse {
        let started = logStart(of: request, logger: session.logger)
        var collector = ResponseCollector(
            codings: codings, maximumBodySize: session.configuration.maximumResponseBodySize, destination: destination,
            isFailure: isFailure)
        let timeout = request.timeout ?? session.configuration.timeoutForResource
        if let transport = session.defaultTransport {
            try await transport.send(request, timeout: timeout, onBodySent: onBodySent, to: &collector)
        } else {
            try await session.transport.send(request, timeout: timeout, onBodySent: onBodySent, to: &collector)
        }
        let response = try collector.finish()
        if let started { logEnd(of: request, response: response, started: started, logger: session.logger) }
        return response
    }

    /// Logs a request going out at debug level, and returns when it went when that level
    /// prints (the clock is read only then). Not inlined, as the log's temporaries would widen
    /// ``transfer(_:session:codings:destination:isFailure:onBodySent:)``'s async frame.
    @inline(never)
    private static func logStart(of request: HTTPRequest, logger: Logger) -> ContinuousClock.Instant? {
        guard logger.logLevel <= .debug else { return nil }
        logger.debug("\(request.method) \(request.url.absoluteString)")
        return .now
    }

    /// Logs a response and how long its exchange took, at debug level.
    @inline(never)
    private static func logEnd(of request: HTTPRequest, response: HTTPResponse, started: ContinuousClock.Instant, logger: Logger) {
        logger.debug("\(response.statusCode) \(request.method) \(request.url.absoluteString) in \(.now - started)")
    }

    /// Runs the explicit processors, else the session's, else the registry's for the
    /// Content-Type (unless the request opts out or the body is empty).
    private func processResponse(
        _ response: inout HTTPResponse, request: HTTPRequest, explicit: [any HTTPProcessor]?, settings: HTTPSession.Settings
    ) throws {
        var processors = explicit ?? settings.values.responseProcessors
        if explicit == nil, processors.isEmpty, request.appliesContentTypeProcessing, !response.data.isEmpty {
            // An override that does not parse leaves the response's own type in charge.
            let override = request.responseContentTypeOverride.flatMap { MediaType($0) == nil ? nil : $0 }
            if let contentType = override ?? response.headers["Content-Type"],
                let processor = settings.values.processorRegistry.processor(forContentType: contentType)
            {
                processors = [processor]
            }
        }
        for processor in processors {
            try Self.applying(processor) { try processor.process(&response) }
        }
    }

    /// Runs a processor's or authentication's step, naming it in the error it throws.
    private static func applying<T>(_ part: Any, _ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch let error as HTTPError {
            throw error
        } catch {
            throw HTTPError.processor(name: String(describing: type(of: part)), underlying: error)
        }
    }
}

extension HTTPRequest {
    /// Refuses what must never reach the wire: a URL that is not http(s) with a host, and
    /// header names or values that would split or corrupt the request. `vettedURL`, when the
    /// request's URL is that one, was checked already.
    func validateForSending(vettedURL: URL? = nil) throws {
        guard url == vettedURL || url.isSendableHTTP else { throw HTTPError.invalidURL(url.absoluteString) }
        for field in headers {
            // Native strings are scanned as contiguous bytes, the rest byte by byte.
            let nameIsToken =
                !field.name.isEmpty
                && (field.name.utf8.withContiguousStorageIfAvailable { $0.allSatisfy(\.isHTTPTokenCharacter) }
                    ?? field.name.utf8.allSatisfy(\.isHTTPTokenCharacter))
            let valueIsClean =
                field.value.utf8.withContiguousStorageIfAvailable { !$0.contains(where: \.breaksHeaderValue) }
                ?? !field.value.utf8.contains(where: \.breaksHeaderValue)
            guard nameIsToken, valueIsClean else { throw HTTPError.invalidHeader(name: field.name) }
        }
    }
}

extension UInt8 {
    /// Whether the byte would end a header value or split the request (CR, LF, NUL).
    var breaksHeaderValue: Bool { self == 0x0D || self == 0x0A || self == 0x00 }

    /// Whether the byte may appear in a token such as a header name (RFC 9110 §5.6.2: visible
    /// ASCII except the delimiters `"(),/:;<=>?@[\]{}`).
    var isHTTPTokenCharacter: Bool {
        switch self {
        case 0x21, 0x23...0x27, 0x2A, 0x2B, 0x2D, 0x2E, 0x30...0x39, 0x41...0x5A, 0x5E...0x7A, 0x7C, 0x7E: true
        default: false
        }
    }
}

extension URL {
    /// Whether the URL can be sent: http or https, with a host.
    ///
    /// Read from the URL's text, which a parsed URL has already checked: asking the URL for its
    /// scheme and host instead builds a string for each, on every request.
    var isSendableHTTP: Bool {
        var text = absoluteString
        return text.withUTF8(Self.isSendableHTTP)
    }

    /// Whether `text`, a URL that parsed, starts with `http://` or `https://` (in any case) and
    /// an authority whose host, past any user info, is not empty.
    private static func isSendableHTTP(_ text: UnsafeBufferPointer<UInt8>) -> Bool {
        // ASCII letters lowercased; past the end, a byte no letter matches.
        func lowercased(_ index: Int) -> UInt8 { index < text.count ? text[index] | 0x20 : 0 }
        guard lowercased(0) == UInt8(ascii: "h"), lowercased(1) == UInt8(ascii: "t"), lowercased(2) == UInt8(ascii: "t"),
            lowercased(3) == UInt8(ascii: "p")
        else { return false }
        let colon = lowercased(4) == UInt8(ascii: "s") ? 5 : 4
        guard text.count >= colon + 3, text[colon] == UInt8(ascii: ":"), text[colon + 1] == UInt8(ascii: "/"),
            text[colon + 2] == UInt8(ascii: "/")
        else { return false }
        var hostStart = colon + 3
        var end = hostStart
        while end < text.count, text[end] != UInt8(ascii: "/"), text[end] != UInt8(ascii: "?"), text[end] != UInt8(ascii: "#") {
            if text[end] == UInt8(ascii: "@") { hostStart = end + 1 }
            end += 1
        }
        // An empty host leaves nothing, or the port's colon, where it should be.
        return hostStart < end && text[hostStart] != UInt8(ascii: ":")
    }
}

/// How one run moves its bodies: where the response goes and who watches the upload.
struct Transfer {
    var download: DownloadTarget?
    var channel: ResponseBodyChannel?
    var didSendBodyData: HTTPCycle.DidSendBodyDataHandler?

    var destination: ResponseDestination {
        if let download { .file(download) } else if let channel { .stream(channel) } else { .memory }
    }

    var isInMemory: Bool { download == nil && channel == nil }
}

/// An optional value held in an object of its own, so that where it is absent it takes a
/// pointer's space.
@propertyWrapper
private struct OutOfLine<Value: Sendable> {
    private final class Box: Sendable {
        let value: Value

        init(_ value: Value) {
            self.value = value
        }
    }

    private var box: Box?

    init(wrappedValue: Value?) {
        box = wrappedValue.map(Box.init)
    }

    var wrappedValue: Value? {
        get { box?.value }
        set { box = newValue.map(Box.init) }
    }
}
