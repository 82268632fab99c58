import Foundation
import Logging

/// One run of a cycle: what it read when it started (``RunSnapshot``), its prepared request,
/// and the stages of the flow in ARCHITECTURE.md, top to bottom — prepare, send with retries
/// (the exchange itself is in `CycleRun+Exchange.swift`), complete, close. Lives in the run's
/// task only.
///
/// The async stages hold a reference to the run rather than copies of its parts, and leave
/// synchronous work to functions that are not inlined into them: every async frame is
/// allocated for each run, and a large one costs a malloc of its own.
final class CycleRun {
    let cycle: HTTPCycle
    let generation: Int
    /// When the run started: its events' elapsed times count from here.
    let started: ContinuousClock.Instant
    let snapshot: RunSnapshot
    let transfer: Transfer
    /// The request as ``prepare()`` left it.
    private(set) var request: HTTPRequest
    /// When the whole run must be over: its start plus the request's `timeout`, else the
    /// session's `timeoutForResource`. Every attempt, backoff and `Retry-After` wait fits in it.
    private(set) var deadline: ContinuousClock.Instant?

    init(cycle: HTTPCycle, generation: Int, settings: HTTPCycle.Settings, channel: ResponseBodyChannel?) {
        self.cycle = cycle
        self.generation = generation
        started = .now
        snapshot = RunSnapshot(cycle: settings, session: cycle.session.snapshot())
        // A streamed body goes to its reader, never to a file.
        let target = channel == nil ? settings.download.map { download in
            DownloadTarget(download) { [cycle] written, total, expected in download.didWriteData?(cycle, written, total, expected) }
        } : nil
        transfer = Transfer(download: target, channel: channel, didSendBodyData: settings.didSendBodyData)
        request = settings.request
    }

    var session: HTTPSession { cycle.session }

    // MARK: 1. Prepare

    /// Prepares the request: the session's headers and the decoders' Accept-Encoding where it
    /// has none, the request processors, and the checks that keep malformed requests off the
    /// wire. Authentications add theirs before each send (``answeringChallenges(_:)``).
    @inline(never)
    func prepare() throws {
        if transfer.download?.download.isResumable == true, !request.headers.contains("Accept-Encoding") {
            // Ranges of an encoded body cannot be decoded from the middle.
            request.headers["Accept-Encoding"] = "identity"
        }
        request.headers.addMissing(
            from: snapshot.session.values.contentCodings.requestHeaders(adding: session.configuration.additionalHeaders))
        for processor in snapshot.requestProcessors {
            try Self.applying(processor) { try processor.prepare(&request) }
        }
        if request.object != nil, request.body == nil {
            try Self.encodeWithoutProcessor(&request, registry: snapshot.session.values.processorRegistry)
        }
        try request.validateForSending(vettedURL: cycle.vettedURL)
        deadline = (request.timeout ?? session.configuration.timeoutForResource).map { started + $0 }
        cycle.emit(.requestPrepared(request, elapsed: .now - started), to: snapshot.eventMonitors)
    }

    /// A request object no processor turned into a body: bytes go as they are, a `String` as
    /// UTF-8 text, anything else through the registry's object processor (JSON, with the
    /// umbrella) — or it is an error rather than a request sent without its body.
    @inline(never)
    private static func encodeWithoutProcessor(_ request: inout HTTPRequest, registry: ProcessorRegistry) throws {
        switch request.object {
        case is Data, is [UInt8], is String:
            try HTTPDataProcessor().prepare(&request)
            if request.object is String { request.headers.addMissing(from: ["Content-Type": "text/plain; charset=utf-8"]) }
        case let object?:
            guard let processor = registry.objectProcessor else {
                throw HTTPError.unsupportedRequestObject(
                    type: String(describing: type(of: object)), processor: "Without a request processor, the cycle")
            }
            try applying(processor) { try processor.prepare(&request) }
        case nil:
            return
        }
    }

    // MARK: 2. Send, with retries

    /// Sends the prepared request until an attempt's outcome is final (a response, or a failure
    /// the retry policy lets stand), then completes the run with it.
    func sendWithRetries() async throws -> HTTPResponse {
        var retries = 0
        while true {
            try cycle.checkCancellation(of: generation)
            let outcome: AttemptOutcome
            do {
                // A place on the network is held for the exchange only, not for backoff or processing.
                let queue = session.queue
                if !queue.tryAcquire() { try await queue.acquire(for: cycle, priority: cycle.priority) }
                let received: ReceivedResponse
                do {
                    // A cancel that came while the cycle waited for its place stops it here.
                    try cycle.checkCancellation(of: generation)
                    received = try await exchange(attemptRequest(attempt: retries + 1))
                } catch {
                    queue.release()
                    throw error
                }
                queue.release()
                try cycle.checkCancellation(of: generation)
                outcome = self.outcome(of: received, attempt: retries + 1)
            } catch {
                outcome = .failed(HTTPError(transportError: error))
            }
            switch try nextStep(after: outcome, retries: retries) {
            case .finished(let response):
                return response
            case .retry(let delay):
                retries += 1
                try await Self.backOff(for: delay)
            }
        }
    }

    /// What one attempt ended with: a response the status policy accepts, or a failure (a
    /// failing status is one, its response on the error).
    private enum AttemptOutcome {
        case succeeded(HTTPResponse)
        case failed(HTTPError)
    }

    /// What follows an attempt: the run's response, or another attempt after a delay.
    private enum NextStep {
        case finished(HTTPResponse)
        case retry(after: Duration)
    }

    /// The request of one attempt (a download continues what earlier attempts wrote, when the
    /// server allows), announced to the monitors.
    @inline(never)
    private func attemptRequest(attempt: Int) -> HTTPRequest {
        let request = transfer.download?.prepare(request) ?? request
        cycle.emit(.requestSent(request, attempt: attempt, elapsed: .now - started), to: snapshot.eventMonitors)
        return request
    }

    /// The attempt's outcome, from the status verdict that came with the response.
    @inline(never)
    private func outcome(of received: consuming ReceivedResponse, attempt: Int) -> AttemptOutcome {
        let response = received.response
        cycle.emit(.responseReceived(response, attempt: attempt, elapsed: .now - started), to: snapshot.eventMonitors)
        return received.statusFailed ? .failed(.statusCode(response)) : .succeeded(response)
    }

    /// Decides what follows an attempt: completes the run with a final response, or asks the
    /// retry policy. Not inlined into ``sendWithRetries()``, whose async frame would otherwise
    /// hold its responses and errors for every request.
    @inline(never)
    private func nextStep(after outcome: consuming AttemptOutcome, retries: Int) throws -> NextStep {
        let failure: HTTPError
        // Consumed, so that the response is moved out rather than copied field by field.
        switch consume outcome {
        case .succeeded(let response):
            return .finished(try complete(response, statusFailed: false))
        case .failed(let error):
            failure = error
        }
        try cycle.checkCancellation(of: generation)
        guard let delay = retryDelay(after: failure, retries: retries) else {
            // No retry: a failing status is still processed and reported.
            guard failure.code == .statusCode, let response = failure.response else { throw failure }
            return .finished(try complete(response, statusFailed: true))
        }
        return .retry(after: delay)
    }

    /// How long to wait before the next attempt, or `nil` when the failure stands; records
    /// and reports a retry.
    @inline(never)
    private func retryDelay(after failure: HTTPError, retries: Int) -> Duration? {
        // A one-shot body has been used up, and a streamed head is in the caller's hands:
        // the failure stands as it is.
        guard request.hasReplayableBody, !(transfer.channel?.hasDeliveredHead ?? false) else { return nil }
        let attempt = RetryAttempt(
            method: request.method, url: request.url, error: failure, retryCount: retries, solicited: snapshot.solicited)
        guard let delay = snapshot.retryPolicy.value.delay(for: attempt) else { return nil }
        // A retry that could not start before the run's deadline is not made: the failure stands.
        if let deadline, .now + delay >= deadline { return nil }
        cycle.emit(
            .retrying(reason: failure, delay: delay, attempt: retries + 1, elapsed: .now - started), to: snapshot.eventMonitors)
        cycle.record(retryCount: retries + 1, of: generation)
        session.logger.debug(
            "retrying \(request.method) \(request.url.redactedString) in \(delay) after \(failure)",
            metadata: ["retry": "\(retries + 1)"])
        return delay
    }

    /// How long the next exchange may take: what is left of the run's deadline.
    ///
    /// - Throws: ``HTTPError/timedOut`` when nothing is left.
    func remainingTime() throws -> Duration? {
        guard let deadline else { return nil }
        let remaining = deadline - .now
        guard remaining > .zero else { throw HTTPError.timedOut }
        return remaining
    }

    /// Waits before a retry. Not inlined: the sleep's machinery would widen
    /// ``sendWithRetries()``'s async frame, which every request allocates and touches, for a
    /// path few take.
    @inline(never)
    private static func backOff(for delay: Duration) async throws {
        try await Task.sleep(for: delay)
    }

    // MARK: 3. Complete

    /// Processes the final response, stores it on the cycle, and hands a finished download its
    /// file; a failing status is processed when it can be, and its error wins.
    ///
    /// - Throws: ``HTTPError/Code/statusCode`` with the processed response, a processor's
    ///   failure with the response it could not read, or the download handler's.
    @inline(never)
    private func complete(_ response: consuming HTTPResponse, statusFailed: Bool) throws -> HTTPResponse {
        try cycle.checkCancellation(of: generation)
        var processingError: (any Error)?
        if !statusFailed, !transfer.isInMemory {
            // The body went to a file or a stream: there is nothing to process.
        } else if !statusFailed {
            do {
                try process(&response)
            } catch {
                processingError = error
            }
        } else {
            try? process(&response)
        }
        try cycle.checkCancellation(of: generation)
        cycle.emit(.processed(copy response, elapsed: .now - started), to: snapshot.eventMonitors)
        cycle.record(copy response, of: generation)
        if statusFailed { throw HTTPError.statusCode(response) }
        if let processingError {
            // The body as it came goes with the error: a one-call form's caller has no cycle to ask.
            guard let failure = processingError as? HTTPError, failure.code == .processor, failure.response == nil else {
                throw processingError
            }
            throw failure.about(response)
        }
        if let target = transfer.download, let location = target.completedFile() {
            defer { target.removeFile() }
            do {
                try target.download.downloadFile(cycle, location)
            } catch {
                throw HTTPError.processor(name: "download file handler", underlying: error)
            }
        }
        return response
    }

    /// Runs the response processors; when neither the cycle nor the session names any, the
    /// one the registry has for the Content-Type (unless the request opts out or the body is
    /// empty).
    private func process(_ response: inout HTTPResponse) throws {
        if snapshot.processesByContentType {
            guard request.appliesContentTypeProcessing, !response.data.isEmpty else { return }
            // An override that does not parse leaves the response's own type in charge.
            let override = request.responseContentTypeOverride.flatMap { MediaType($0) == nil ? nil : $0 }
            guard let contentType = override ?? response.headers["Content-Type"],
                let processor = snapshot.session.values.processorRegistry.processor(forContentType: contentType)
            else { return }
            try Self.applying(processor) { try processor.process(&response) }
        } else {
            for processor in snapshot.responseProcessors {
                try Self.applying(processor) { try processor.process(&response) }
            }
        }
    }

    /// Runs a processor's or authentication's step, naming it in the error it throws.
    static func applying<T>(_ part: Any, _ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch {
            throw named(error, by: part)
        }
    }

    /// Runs an authentication's asynchronous step, naming it in the error it throws.
    static func applying<T>(_ part: Any, _ body: () async throws -> T) async throws -> T {
        do {
            return try await body()
        } catch {
            throw named(error, by: part)
        }
    }

    private static func named(_ error: any Error, by part: Any) -> HTTPError {
        (error as? HTTPError) ?? HTTPError.processor(name: String(describing: type(of: part)), underlying: error)
    }

    // MARK: 4. Close

    /// Ends a run that failed: a download leaves its partial file only when it can be
    /// continued (and the cycle keeps where to continue from), then the run closes.
    ///
    /// - Returns: the error the run ends with: a cancellation as ``HTTPCycle/cancel(explicitly:)``
    ///   recorded it, never as the network error it may have caused.
    @inline(never)
    func fail(with error: any Error) -> HTTPError {
        if let target = transfer.download {
            cycle.record(target.abandon(requestURL: request.url), of: generation)
        }
        let failure: HTTPError
        if let recorded = cycle.recordedCancellation(of: generation) {
            failure = recorded
        } else if Task.isCancelled {
            failure = .cancelled(explicitly: false)
        } else {
            failure = HTTPError(transportError: error)
        }
        close(failure: failure)
        return failure
    }

    /// Closes a run: its body stream, the session's activity, the closing events and the log.
    @inline(never)
    func close(failure: HTTPError?) {
        transfer.channel?.finish(with: failure)
        session.activity.end(cycle)
        let monitors = snapshot.eventMonitors
        if let failure {
            if failure.code == .cancelled {
                cycle.emit(.cancelled(explicitly: failure.isExplicitCancellation, elapsed: .now - started), to: monitors)
            } else {
                cycle.emit(.failed(failure, elapsed: .now - started), to: monitors)
                logFailure(failure)
            }
        }
        cycle.emit(.finished(elapsed: .now - started), to: monitors)
    }

    /// Logs a failure at error level with a bounded preview of the body.
    private func logFailure(_ error: HTTPError) {
        let response = error.response ?? cycle.response
        var metadata: Logger.Metadata = ["method": "\(request.method)", "url": "\(request.url.redactedString)"]
        if let response {
            metadata["status"] = "\(response.statusCode)"
            metadata["body"] = "\(String(decoding: response.data.prefix(512), as: UTF8.self))"
        }
        session.logger.error("\(error)", metadata: metadata)
    }
}
