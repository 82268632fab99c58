import Foundation
import Logging
import JewzLocking
import struct Synchronization.Atomic

/// One request on its way along a session's path: a ``HTTPSession/send(_:options:)``, or one
/// run of a ``HTTPCycle`` (which is made of sends). What the session's event monitors are told
/// about, what ``HTTPSession/runningCalls`` lists and ``HTTPSession/cancelAllCalls()`` stops.
///
/// It decides everything when it starts — the session's settings, the call's options, the
/// prepared request, the deadline, where the body goes — and is then handed to every stage
/// through ``HTTPNext``; its steps are the pipeline (`Pipeline/`), the response processors, the
/// close. Only its control (cancellation, priority, retry count) changes while it runs.
///
/// ```swift
/// let stopped = session.cancelCalls { $0.url.host == "uploads.example.com" }
/// session.pendingCalls.first?.priority = .high
/// ```
///
/// Synchronous work sits in functions that are not inlined into the async ones: every async
/// frame is allocated for each call, and a large one costs a malloc of its own.
public final class HTTPCall: Sendable {
    let session: HTTPSession
    /// The request's URL when its maker checked it already.
    let vettedURL: URL?
    /// When the call started: its events' elapsed times count from here.
    let started: ClockReading
    /// The session's settings as they were when the call started (one shared object).
    let settings: HTTPSession.Settings
    let pipeline: Pipeline
    /// The request and options as the call took them, its request prepared: kept whole, so
    /// that a call copies them once and none of their parts again.
    private let overrides: RunSettings
    /// Why preparing the request failed, if it did: the call ends with it before any stage.
    private let preparationFailure: (any Error)?
    /// When the whole call must be over: its start plus its options' `timeoutForResource`, else
    /// the session's. Every attempt, backoff and `Retry-After` wait fits in it.
    let deadline: ClockReading?
    /// Where the response's body goes, decided once, here.
    let destination: ResponseDestination
    /// Whether the registry picks the response processor by Content-Type: neither the options
    /// nor the session names processors (an empty list in the options turns processing off).
    let processesByContentType: Bool
    /// The session's monitors, empty when nobody listens.
    let monitors: [any HTTPEventMonitor]
    /// Where the session's activity counts this call, from its start to ``close(failure:)``:
    /// set once the call is made, as the activity keeps the call itself.
    let activitySlot = Atomic(-1)
    /// The transport the call's exchanges go over instead of the session's: one that keeps its
    /// connection past the response (a WebSocket's opening handshake). Boxed, so that a call
    /// without one pays a null pointer.
    let ownTransport: Boxed<any HTTPTransport>?
    /// What changes while the call runs: see `HTTPCall+Control.swift`.
    let control: Mutex<Control>
    /// Whether ``cancel(explicitly:)`` was called: read by every stage without the lock.
    let cancelled = Atomic(false)

    init(
        session: HTTPSession, settings runSettings: consuming RunSettings, vettedURL: URL?, ownTransport: Boxed<any HTTPTransport>? = nil
    ) {
        let started = ClockReading.now
        let settings = session.settings()
        self.session = session
        self.vettedURL = vettedURL
        self.ownTransport = ownTransport
        self.started = started
        self.settings = settings
        let destination = ResponseDestination(runSettings.delivery)
        self.destination = destination
        control = Mutex(Control(priority: runSettings.options.priority))
        // The options' fields read in place: a copy of the whole would retain each of them.
        processesByContentType = runSettings.options.responseProcessors == nil && settings.configuration.responseProcessors.isEmpty
        monitors = settings.configuration.eventMonitors
        pipeline = settings.pipeline(
            authenticates: runSettings.options.authentications.map { !$0.isEmpty } ?? !settings.configuration.authentications.isEmpty,
            download: destination.download, bodyInMemory: destination.isInMemory)
        do {
            var credentialFields: [String] = []
            try Self.prepare(
                &runSettings.request, credentialFields: &credentialFields,
                processors: runSettings.options.requestProcessors ?? settings.configuration.requestProcessors,
                sessionWide: runSettings.options.requestProcessors == nil, settings: settings,
                resumable: destination.download?.download.isResumable == true, vettedURL: vettedURL)
            if !credentialFields.isEmpty { runSettings.credentialFields = credentialFields }
            if let idleTimeout = runSettings.options.idleTimeout { runSettings.request.idleTimeout = idleTimeout }
            preparationFailure = nil
        } catch {
            preparationFailure = error
        }
        deadline = (runSettings.options.timeoutForResource ?? settings.configuration.timeoutForResource).map { started + $0 }
        overrides = runSettings
        activitySlot.store(session.activity.begin(self), ordering: .relaxed)
    }

    /// The request as prepared — the session's headers added, the request processors run — or,
    /// when preparing it failed, as it was given. Lent, not copied: stages read it on every call.
    public var request: HTTPRequest {
        _read { yield overrides.request }
    }

    /// The options the call was made with.
    var options: HTTPRequestOptions {
        _read { yield overrides.options }
    }

    /// The options' response processors, else the session's.
    var responseProcessors: [any HTTPResponseProcessor] {
        overrides.options.responseProcessors ?? settings.configuration.responseProcessors
    }

    /// The options' authentications, else the session's.
    var authentications: [any HTTPAuthentication] {
        overrides.options.authentications ?? settings.configuration.authentications
    }

    /// Whether ``authentications`` may give credentials to a request for `url`: the options'
    /// go anywhere, the session's where its configuration lets them.
    func mayAuthenticate(_ url: URL) -> Bool {
        overrides.options.authentications != nil || settings.configuration.sendsSessionCredentials(to: url)
    }

    /// Which redirects the call follows, of those its session follows.
    var redirects: HTTPRequestOptions.Redirects { overrides.options.redirects }

    /// The names of the fields the request processors that add credentials set: they stay
    /// with the call's origin, as `Authorization` does.
    var credentialFields: [String] { overrides.credentialFields ?? [] }

    /// The options' retry policy, else the session's. Held by reference: a call that never
    /// fails never copies the policy's sets and closures, which every concurrent call shares.
    var retryPolicy: Boxed<RetryPolicy> {
        overrides.options.retryPolicyStorage.projectedValue ?? settings.retryPolicy
    }

    /// The media type the registry picks the processor by, instead of the response's.
    var responseContentTypeOverride: String? { overrides.options.responseContentTypeOverride }

    /// What the session's cache may do for the call.
    var caching: HTTPRequestOptions.Caching { overrides.options.caching }

    /// Whether a person asked for the request, so that it is retried until data arrives.
    var solicited: Bool { overrides.options.solicited }

    /// The upload progress handler of the options, if any.
    var didSendBodyData: HTTPProgressHandler? { overrides.options.didSendBodyData }

    /// Runs the prepared request through the pipeline and completes the call with its response
    /// (see ``complete(_:statusFailed:)``).
    ///
    /// - Throws: ``HTTPError``: why preparing failed, what a stage threw, the status error
    ///   (with the processed response), a processor's failure.
    // Inlined, as is `execute`: one async frame for the whole call.
    @inline(__always)
    nonisolated(nonsending) func perform() async throws -> HTTPResponse {
        if let preparationFailure { throw preparationFailure }
        if session.refusesCalls.load(ordering: .relaxed) { throw HTTPError.sessionShutDown }
        emit(.requestPrepared(request, elapsed: ClockReading.now - started))
        var response = try await HTTPNext(pipeline: pipeline, position: 0, call: self, isShared: false)(overrides.request)
        if response.body.isStream || !destination.isInMemory { response = try await land(response) }
        let statusFailed = statusFails(response)
        return try complete(consume response, statusFailed: statusFailed)
    }

    /// The whole call: ``perform()``, then the close — at once, or, for a body handed over as a
    /// stream, when the reader is done with it; or the failure, as ``fail(with:)`` makes it.
    ///
    /// - Throws: ``HTTPError``: a cancellation as it was asked for, never the network error
    ///   it caused; otherwise what ``perform()`` threw.
    @inline(__always)
    nonisolated(nonsending) func execute() async throws(HTTPError) -> HTTPResponse {
        do {
            var response = try await perform()
            if response.body.isStream {
                response.body = closing(after: response.body)
            } else {
                close(failure: nil)
            }
            return response
        } catch {
            throw fail(with: error)
        }
    }
}
