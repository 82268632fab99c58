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

    public let session: HTTPSession

    private struct State {
        var request: HTTPRequest
        var response: HTTPResponse?
        var requestProcessors: [any HTTPProcessor]?
        var responseProcessors: [any HTTPProcessor]?
        var authentications: [any HTTPAuthentication]?
        var solicited = false
        var retryPolicy: RetryPolicy?
        var retryCount = 0
        var priority = RequestPriority.normal
        /// Counts runs, so that the result of a run that was restarted is dropped.
        var generation = 0
        var task: Task<HTTPResponse, any Error>?
        var completion: Completion?
        var cancellation: HTTPError?
        /// A finished run's completion handler is queued but has not run: a cancel still wins.
        var completionPending = false
    }

    private let state: Mutex<State>

    /// Creates a cycle that is ready to ``start()``.
    public init(
        requestURL: URL, requestMethod: HTTPMethod = .get, session: HTTPSession = .default,
        requestObject: (any Sendable)? = nil, requestProcessors: [any HTTPProcessor]? = nil,
        responseProcessors: [any HTTPProcessor]? = nil,
        authentications: [any HTTPAuthentication]? = nil
    ) {
        self.session = session
        var state = State(request: HTTPRequest(url: requestURL, method: requestMethod, object: requestObject))
        state.requestProcessors = requestProcessors
        state.responseProcessors = responseProcessors
        state.authentications = authentications
        self.state = Mutex(state)
        emit(.created, to: session.eventMonitors)
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

    /// How many times the latest run sent its request again after a failure.
    public var retryCount: Int {
        state.withLock { $0.retryCount }
    }

    /// Whether a run is in progress (its completion handler, if any, has not run yet).
    public var isRunning: Bool {
        state.withLock { $0.task != nil || $0.completionPending }
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
            guard state.task != nil || state.completionPending else { return nil }
            state.cancellation = .cancelled(explicitly: explicitly)
            return state.task
        }
        task?.cancel()
    }

    private func launch(completion: Completion?) -> Task<HTTPResponse, any Error> {
        // The task is created and recorded under one lock, so a run that ends at once cannot
        // clear its handle before the handle is stored.
        let (task, previous) = state.withLock { state in
            state.generation += 1
            state.completion = completion
            state.cancellation = nil
            state.completionPending = false
            state.retryCount = 0
            let generation = state.generation
            let previous = state.task
            let task = Task { try await self.perform(generation, completion: completion) }
            state.task = task
            return (task, previous)
        }
        previous?.cancel()
        return task
    }

    /// One run from start to completion: the pipeline, the events that close it, the log.
    private func perform(_ generation: Int, completion: Completion?) async throws -> HTTPResponse {
        let result: Result<HTTPResponse, HTTPError>
        let started = ContinuousClock.now
        let settings = session.snapshot()
        session.activity.begin()
        do {
            result = .success(try await run(generation, started: started, settings: settings))
        } catch {
            result = .failure(finalError(for: error, generation: generation))
        }
        session.activity.end()
        let monitors = settings.eventMonitors
        if case .failure(let error) = result {
            if case .cancelled(let explicitly) = error {
                emit(.cancelled(explicitly: explicitly, elapsed: .now - started), to: monitors)
            } else {
                emit(.failed(error, elapsed: .now - started), to: monitors)
                logFailure(error)
            }
        }
        emit(.finished(elapsed: .now - started), to: monitors)
        finish(generation, result: result, completion: completion)
        return try result.get()
    }

    /// The error a run ends with: cancellation as recorded by ``cancel(explicitly:)``, never
    /// as the network error it may have caused.
    private func finalError(for error: any Error, generation: Int) -> HTTPError {
        let recorded = state.withLock { $0.generation == generation ? $0.cancellation : nil }
        if let recorded { return recorded }
        if Task.isCancelled { return .cancelled(explicitly: false) }
        return HTTPError(transportError: error)
    }

    private func finish(_ generation: Int, result: Result<HTTPResponse, HTTPError>, completion: Completion?) {
        state.withLock { state in
            guard state.generation == generation else { return }
            state.task = nil
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
                if case .failure(let error) = result { return .some(error) }
                return .some(nil)
            }
            if case .some(let error) = outcome {
                completion(self, error)
            }
        }
    }

    /// Tells the session's monitors.
    private func emit(_ event: HTTPEvent, to monitors: [any HTTPEventMonitor]) {
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

    private func run(_ generation: Int, started: ContinuousClock.Instant, settings: HTTPSession.Settings) async throws -> HTTPResponse {
        let (original, ownRequestProcessors, ownResponseProcessors, ownAuthentications, ownRetryPolicy, solicited) = state.withLock {
            ($0.request, $0.requestProcessors, $0.responseProcessors, $0.authentications, $0.retryPolicy, $0.solicited)
        }
        let requestProcessors = ownRequestProcessors ?? settings.requestProcessors
        let authentications = ownAuthentications ?? settings.authentications
        let monitors = settings.eventMonitors

        var request = original
        request.headers.addMissing(from: session.configuration.additionalHeaders)
        let codings = settings.contentCodings.tokens
        if !codings.isEmpty, !request.headers.contains("Accept-Encoding") {
            request.headers["Accept-Encoding"] = codings.joined(separator: ", ")
        }
        for processor in requestProcessors {
            try Self.applying(processor) { try processor.prepare(&request) }
        }
        for authentication in authentications {
            try Self.applying(authentication) { try authentication.authorize(&request) }
        }
        try request.validateForSending()
        emit(.requestPrepared(request, elapsed: .now - started), to: monitors)

        let policy = ownRetryPolicy ?? settings.retryPolicy
        var response: HTTPResponse
        var retries = 0
        while true {
            let failure: HTTPError
            var failedResponse: HTTPResponse?
            do {
                // A place on the network is held for the exchange only, not for backoff or processing.
                try await session.queue.acquire(for: self, priority: priority)
                emit(.requestSent(request, attempt: retries + 1, elapsed: .now - started), to: monitors)
                let exchanged: Result<HTTPResponse, any Error>
                do {
                    exchanged = .success(try await exchange(request, authentications: authentications, settings: settings))
                } catch {
                    exchanged = .failure(error)
                }
                session.queue.release()
                let received = try exchanged.get()
                emit(.responseReceived(received, attempt: retries + 1, elapsed: .now - started), to: monitors)
                guard settings.shouldTreatStatusCodeAsFailure(received.statusCode) else {
                    response = received
                    break
                }
                failure = .statusCode(received.statusCode)
                failedResponse = received
            } catch {
                failure = HTTPError(transportError: error)
            }
            if Task.isCancelled { throw CancellationError() }
            let attempt = RetryAttempt(
                method: request.method, url: request.url, error: failure, response: failedResponse, retryCount: retries,
                solicited: solicited)
            // A one-shot body has been used up: the failure stands as it is.
            let replayable = request.body?.isReplayable ?? true
            guard replayable, let delay = policy.delay(for: attempt) else {
                // No retry: a failing status is still processed and reported below.
                guard let failedResponse else { throw failure }
                response = failedResponse
                break
            }
            emit(.retrying(reason: failure, delay: delay, attempt: retries + 1, elapsed: .now - started), to: monitors)
            retries += 1
            state.withLock { state in
                if state.generation == generation { state.retryCount = retries }
            }
            session.logger.debug(
                "retrying \(request.method) \(request.url.absoluteString) in \(delay) after \(failure)",
                metadata: ["retry": "\(retries)"])
            try await Task.sleep(for: delay)
        }

        try Task.checkCancellation()
        let failed = settings.shouldTreatStatusCodeAsFailure(response.statusCode)
        var processingError: (any Error)?
        if !failed {
            do {
                try processResponse(&response, request: request, explicit: ownResponseProcessors, settings: settings)
            } catch {
                processingError = error
            }
        } else {
            // A failing status keeps its error; the body is still processed when it can be.
            try? processResponse(&response, request: request, explicit: ownResponseProcessors, settings: settings)
        }
        try Task.checkCancellation()
        emit(.processed(response, elapsed: .now - started), to: monitors)
        let stored = response
        state.withLock { state in
            if state.generation == generation { state.response = stored }
        }
        if failed { throw HTTPError.statusCode(response.statusCode) }
        if let processingError { throw processingError }
        return response
    }

    private func send(_ request: HTTPRequest, settings: HTTPSession.Settings) async throws -> HTTPResponse {
        let session = self.session
        let codings = settings.contentCodings
        guard request.method == .get, settings.coalescesIdenticalGETs else {
            return try await Self.transfer(request, session: session, codings: codings)
        }
        return try await session.coalescer.response(for: request) {
            try await Self.transfer(request, session: session, codings: codings)
        }
    }

    /// One exchange on the session's transport, content-decoded.
    private static func transfer(
        _ request: HTTPRequest, session: HTTPSession, codings: ContentCodingRegistry
    ) async throws -> HTTPResponse {
        let clock = ContinuousClock()
        let started = clock.now
        session.logger.debug("\(request.method) \(request.url.absoluteString)")
        var collector = ResponseCollector(codings: codings, maximumBodySize: session.configuration.maximumResponseBodySize)
        try await session.transport.send(
            request, timeout: request.timeout ?? session.configuration.timeoutForResource, to: &collector)
        let response = try collector.finish()
        session.logger.debug(
            "\(response.statusCode) \(request.method) \(request.url.absoluteString) in \(clock.now - started)")
        return response
    }

    /// Runs the explicit processors, else the session's, else the registry's for the
    /// Content-Type (unless the request opts out or the body is empty).
    private func processResponse(
        _ response: inout HTTPResponse, request: HTTPRequest, explicit: [any HTTPProcessor]?, settings: HTTPSession.Settings
    ) throws {
        var processors = explicit ?? settings.responseProcessors
        if explicit == nil, processors.isEmpty, request.appliesContentTypeProcessing, !response.data.isEmpty {
            let mediaType = request.responseContentTypeOverride.flatMap { MediaType($0) } ?? response.contentType
            if let mediaType, let processor = settings.processorRegistry.processor(for: mediaType) {
                processors = [processor]
            }
        }
        for processor in processors {
            try Self.applying(processor) { try processor.process(&response) }
        }
    }

    /// Sends the request, answering a 401/407 challenge once per authentication.
    private func exchange(
        _ request: HTTPRequest, authentications: [any HTTPAuthentication], settings: HTTPSession.Settings
    ) async throws -> HTTPResponse {
        var response = try await send(request, settings: settings)
        let replayable = request.body?.isReplayable ?? true
        // A redirect that keeps the body was not followed: it would have resent a one-shot body.
        if !replayable, session.configuration.followsRedirects, [307, 308].contains(response.statusCode),
            response.headers.contains("Location")
        {
            throw HTTPError.bodyNotReplayable
        }
        // A challenge is answered by sending the request again, which a one-shot body cannot be.
        if response.statusCode == 401 || response.statusCode == 407, replayable {
            for authentication in authentications {
                var retry = request
                let answers = try Self.applying(authentication) {
                    try authentication.respond(to: response, retrying: &retry)
                }
                guard answers else { continue }
                try retry.validateForSending()
                response = try await send(retry, settings: settings)
                if response.statusCode != 401, response.statusCode != 407 { break }
            }
        }
        return response
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
    /// header names or values that would split or corrupt the request.
    func validateForSending() throws {
        guard url.isSendableHTTP else { throw HTTPError.invalidURL(url.absoluteString) }
        for field in headers {
            let nameIsToken = !field.name.isEmpty && field.name.utf8.allSatisfy { byte in
                byte > 0x20 && byte < 0x7F && !"()<>@,;:\\\"/[]?={}".utf8.contains(byte)
            }
            let valueIsClean = !field.value.utf8.contains { $0 == 0x0D || $0 == 0x0A || $0 == 0x00 }
            guard nameIsToken, valueIsClean else { throw HTTPError.invalidHeader(name: field.name) }
        }
    }
}

extension URL {
    /// Whether the URL can be sent: http or https, with a host.
    var isSendableHTTP: Bool {
        guard let scheme = scheme?.lowercased(), scheme == "http" || scheme == "https", let host, !host.isEmpty else {
            return false
        }
        return true
    }
}
