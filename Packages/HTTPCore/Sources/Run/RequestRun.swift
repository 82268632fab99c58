import Foundation
import Logging
import Synchronization

/// One run of a request, the one core of ``HTTPSession/send(_:options:)`` and of each start of a
/// cycle: what it decided when it started (the session's settings, the call's options, the
/// prepared request, the deadline, the pipeline), then its steps — the pipeline (`Pipeline/`),
/// the response processors, the close. Handed to every stage through
/// ``HTTPNext``; immutable, so stages on several tasks (a coalesced exchange) share it.
///
/// Synchronous work sits in functions that are not inlined into the async ones: every async
/// frame is allocated for each run, and a large one costs a malloc of its own.
final class RequestRun: Sendable {
    let session: HTTPSession
    /// The cycle whose run this is; `nil` for ``HTTPSession/send(_:options:)``, which its task
    /// alone cancels and which reports to nobody while it runs.
    let cycle: HTTPCycle?
    let generation: Int
    /// The request's URL when its maker checked it already.
    let vettedURL: URL?
    /// When the run started: its events' elapsed times count from here.
    let started: ClockReading
    /// The session's settings as they were when the run started (one shared object).
    let settings: HTTPSession.Settings
    let pipeline: Pipeline
    /// The request and options as the run took them, its request prepared: kept whole, so
    /// that a run copies them once (out of the cycle's lock) and none of their parts again.
    private let overrides: RunSettings
    /// Why preparing the request failed, if it did: the run ends with it before any stage.
    private let preparationFailure: (any Error)?
    /// When the whole run must be over: its start plus the request's `timeout`, else the
    /// session's `timeoutForResource`. Every attempt, backoff and `Retry-After` wait fits in it.
    let deadline: ClockReading?
    let bodies: RunBodies
    /// Whether the registry picks the response processor by Content-Type: neither the cycle
    /// nor the session names processors (an empty list on the cycle turns processing off).
    let processesByContentType: Bool
    /// The session's monitors, empty when nobody listens.
    let monitors: [any HTTPEventMonitor]
    /// Where the session's activity counts this run, from its start to ``close(failure:)``.
    let activitySlot: Int
    /// The transport the run's exchanges go over instead of the session's: one that keeps its
    /// connection past the response (a WebSocket's opening handshake). Boxed, so that a run
    /// without one pays a null pointer.
    let ownTransport: Boxed<any HTTPTransport>?

    init(
        session: HTTPSession, cycle: HTTPCycle?, generation: Int, settings runSettings: consuming RunSettings, vettedURL: URL?,
        channel: ResponseBodyChannel?, ownTransport: Boxed<any HTTPTransport>? = nil
    ) {
        let started = ClockReading.now
        let settings = session.settings()
        self.session = session
        self.cycle = cycle
        self.generation = generation
        self.vettedURL = vettedURL
        self.ownTransport = ownTransport
        self.started = started
        self.settings = settings
        // A streamed body goes to its reader, never to a file; only a cycle downloads.
        // The box, not the value: a run without a download copies nothing.
        let target = channel == nil && runSettings.$download != nil ? Self.downloadTarget(runSettings.$download, of: cycle) : nil
        bodies = RunBodies(download: target, channel: channel, didSendBodyData: cycle == nil ? nil : runSettings.didSendBodyData)
        // The options' fields read in place: a copy of the whole would retain each of them.
        processesByContentType = runSettings.options.responseProcessors == nil && settings.configuration.responseProcessors.isEmpty
        monitors = settings.configuration.eventMonitors
        pipeline = settings.pipeline(
            authenticates: runSettings.options.authentications.map { !$0.isEmpty } ?? !settings.configuration.authentications.isEmpty,
            download: target)
        do {
            try Self.prepare(
                &runSettings.request, processors: runSettings.options.requestProcessors ?? settings.configuration.requestProcessors,
                sessionWide: runSettings.options.requestProcessors == nil, settings: settings,
                resumable: target?.download.isResumable == true, vettedURL: vettedURL)
            preparationFailure = nil
        } catch {
            // Prepared in place: what the cycle holds is the request before the processors ran.
            if let cycle { runSettings.request = cycle.request }
            preparationFailure = error
        }
        deadline = (runSettings.request.timeout ?? settings.configuration.timeoutForResource).map { started + $0 }
        overrides = runSettings
        activitySlot = session.activity.begin(cycle)
    }

    /// Where a cycle's `download` writes, reporting to its progress handler; `nil` without one.
    @inline(never)
    private static func downloadTarget(_ box: Boxed<HTTPDownload>?, of cycle: HTTPCycle?) -> DownloadTarget? {
        guard let download = box?.value, let cycle else { return nil }
        return DownloadTarget(download) { [cycle] written, total, expected in download.didWriteData?(cycle, written, total, expected) }
    }

    /// The request as prepared: the session's headers, the request processors. The request as
    /// the cycle held it when preparing failed. Lent, not copied: stages read it on every run.
    var request: HTTPRequest {
        _read { yield overrides.request }
    }

    /// The cycle's response processors, else the session's.
    var responseProcessors: [any HTTPResponseProcessor] {
        overrides.options.responseProcessors ?? settings.configuration.responseProcessors
    }

    /// The cycle's authentications, else the session's.
    var authentications: [any HTTPAuthentication] {
        overrides.options.authentications ?? settings.configuration.authentications
    }

    /// Whether ``authentications`` may give credentials to a request for `url`: a cycle's own
    /// go anywhere, the session's where its configuration lets them.
    func mayAuthenticate(_ url: URL) -> Bool {
        overrides.options.authentications != nil || settings.configuration.sendsSessionCredentials(to: url)
    }

    /// The cycle's retry policy, else the session's. Held by reference: a run that never fails
    /// never copies the policy's sets and closures, which every concurrent run of the session shares.
    var retryPolicy: Boxed<RetryPolicy> {
        overrides.options.retryPolicyStorage.projectedValue ?? settings.retryPolicy
    }

    /// Whether a person asked for the request, so that it is retried until data arrives.
    var solicited: Bool { overrides.options.solicited }

    /// Where the run waits in the session's queue: the cycle's priority as it is now.
    var priority: RequestPriority { cycle?.priority ?? overrides.options.priority }

    /// Runs the prepared request through the pipeline and completes the run with its response,
    /// which goes to `keep` (see ``complete(_:statusFailed:keep:)``).
    ///
    /// - Throws: ``HTTPError``: why preparing failed, what a stage threw, the status error
    ///   (with the processed response), a processor's failure.
    // Inlined, as are `execute` and its callers: one async frame for the whole run.
    @inline(__always)
    nonisolated(nonsending) func perform<Outcome>(keep: (consuming HTTPResponse) -> Outcome) async throws -> Outcome {
        if let preparationFailure { throw preparationFailure }
        emit(.requestPrepared(request, elapsed: ClockReading.now - started))
        var response = try await HTTPNext(pipeline: pipeline, position: 0, run: self, isShared: false)(overrides.request)
        if response.stream != nil || !(bodies.isInMemory || response.isBodyDelivered) { response = try await land(response) }
        let statusFailed = statusFails(response)
        return try complete(consume response, statusFailed: statusFailed, keep: keep)
    }

    /// The whole run: ``perform(keep:)``, then the close; or the failure, as ``fail(with:)``
    /// makes it.
    ///
    /// - Throws: ``HTTPError``: a cancellation as it was asked for, never the network error
    ///   it caused; otherwise what ``perform(keep:)`` threw.
    @inline(__always)
    nonisolated(nonsending) func execute<Outcome>(keep: (consuming HTTPResponse) -> Outcome) async throws(HTTPError) -> Outcome {
        do {
            let outcome = try await perform(keep: keep)
            close(failure: nil)
            return outcome
        } catch {
            throw fail(with: error)
        }
    }

    // MARK: Preparing

    /// The request as it goes into the pipeline: the session's headers and the decoders'
    /// Accept-Encoding where it has none, the request processors, and the checks that keep
    /// malformed requests off the wire.
    @inline(never)
    private static func prepare(
        _ request: inout HTTPRequest, processors: [any HTTPRequestProcessor], sessionWide: Bool, settings: HTTPSession.Settings,
        resumable: Bool, vettedURL: URL?
    ) throws {
        if resumable, !request.headers.contains("Accept-Encoding") {
            // Ranges of an encoded body cannot be decoded from the middle.
            request.headers["Accept-Encoding"] = "identity"
        }
        let defaults = settings.configuration.contentCodings.requestHeaders(adding: settings.configuration.additionalHeaders)
        request.headers.addMissing(from: defaults.fields)
        for processor in processors {
            // The session's credentials stay with the origins it lets them go to.
            if sessionWide, processor is any HTTPCredentialProcessor, !settings.configuration.sendsSessionCredentials(to: request.url) {
                continue
            }
            try applying(processor) { try processor.prepare(&request) }
        }
        if request.object != nil, request.body == nil {
            try encodeWithoutProcessor(&request, registry: settings.configuration.processorRegistry)
        }
        try request.validateForSending(vettedURL: vettedURL, vettedHeaders: defaults.vetted)
    }

    /// A request object no processor turned into a body: bytes go as they are, a `String` as
    /// UTF-8 text, anything else through the registry's object processor (JSON, with the
    /// umbrella) — or it is an error rather than a request sent without its body.
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

    // MARK: What stages ask of the run

    /// Throws when the run's task is cancelled, or — unless the caller's exchange is shared by
    /// coalesced cycles — the run was cancelled or replaced by a restart.
    ///
    /// - Parameter includingTask: whether to ask the task too, a thread-local lookup that the
    ///   path skips between its own stages (a user's stage, the transport's entry and the run's
    ///   end ask).
    func checkCancellation(sharing shared: Bool = false, includingTask: Bool = true) throws {
        if shared {
            if includingTask, Task.isCancelled { throw CancellationError() }
        } else {
            if let cycle {
                try cycle.checkCancellation(of: generation, includingTask: includingTask)
            } else if includingTask, Task.isCancelled {
                throw CancellationError()
            }
        }
    }

    /// How long the next exchange may take: what is left of the run's deadline.
    ///
    /// - Throws: ``HTTPError/timedOut`` when nothing is left.
    func remainingTime() throws -> Duration? {
        guard let deadline else { return nil }
        let remaining = deadline - ClockReading.now
        guard remaining > .zero else { throw HTTPError.timedOut }
        return remaining
    }

    /// Whether the session's status policy fails the cycle for `response`.
    func statusFails(_ response: HTTPResponse) -> Bool {
        settings.configuration.shouldTreatStatusCodeAsFailure(response.statusCode)
    }

    /// Whether a response's body stays in memory whatever the run's destination: a failing
    /// status's, or a redirect's the session follows.
    func keepsInMemory(_ response: HTTPResponse) -> Bool {
        ResponseCollector.setsAside(
            statusFailed: statusFails(response), followsRedirects: settings.configuration.followsRedirects,
            statusCode: response.statusCode, headers: response.headers)
    }

    /// Reports an attempt going out.
    @inline(never)
    func emitAttempt(_ request: HTTPRequest, number: Int) {
        emit(.requestSent(request, attempt: number, elapsed: ClockReading.now - started))
    }

    /// Reports an attempt's response, and returns the failure it is when its status fails the
    /// cycle (the response on the error).
    @inline(never)
    func failure(of response: HTTPResponse, attempt: Int) -> HTTPError? {
        emit(.responseReceived(response, attempt: attempt, elapsed: ClockReading.now - started))
        return statusFails(response) ? .statusCode(response) : nil
    }

    /// Adds up the sizes a transport reports into the cycle's upload progress handler; `nil`
    /// when the cycle has none.
    func uploadProgressReporter(for request: HTTPRequest) -> (@Sendable (Int) -> Void)? {
        guard let handler = bodies.didSendBodyData, let cycle else { return nil }
        let total = Atomic<Int64>(0)
        let expected = request.body?.knownLength.map(Int64.init)
        return { count in
            let sent = total.add(Int64(count), ordering: .relaxed).newValue
            handler(cycle, Int64(count), sent, expected)
        }
    }

    /// Tells the session's monitors; the event is built only when someone listens.
    func emit(_ event: @autoclosure () -> HTTPEvent) {
        cycle?.emit(event(), to: monitors)
    }

    /// Runs a processor's step, naming it in the error it throws.
    static func applying<T>(_ processor: Any, _ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch {
            throw (error as? HTTPError) ?? HTTPError.processor(name: name(of: processor), underlying: error)
        }
    }

    /// Runs an authentication's step, naming it in the error it throws.
    static func authenticating<T>(_ authentication: any HTTPAuthentication, _ body: () async throws -> T) async throws -> T {
        do {
            return try await body()
        } catch {
            throw (error as? HTTPError) ?? HTTPError.authentication(name: name(of: authentication), underlying: error)
        }
    }

    private static func name(of part: Any) -> String {
        String(describing: type(of: part))
    }
}
