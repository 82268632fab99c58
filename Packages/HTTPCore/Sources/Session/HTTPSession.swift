import Dispatch
import Foundation
import JewzLocking
import Logging
import struct Synchronization.Atomic

/// Owns a transport and everything its requests share: one ``Configuration`` (processors,
/// authentications, policies, middleware, cache, cookies, limits, the transport's settings),
/// the request queue, and the queue completion handlers run on. A request's
/// ``HTTPRequestOptions`` override the configuration for that request.
///
/// ```swift
/// let session = HTTPSession()
/// try session.update { $0.requestProcessors = [HTTPDataProcessor()] }
/// let cycle = try await HTTPCycle.get("https://example.com", session: session)
/// try await session.shutdown()
/// ```
public final class HTTPSession: Sendable {
    /// The session requests use when none is given. It lives as long as the process, made on
    /// first use from what ``configureDefault(_:)`` set, if anything.
    public static let `default` = HTTPSession.makeDefault()

    /// The transport requests go through from now on: made from the configuration's
    /// ``Configuration-swift.struct/transport`` settings, and made anew when ``update(_:)``
    /// changes them, unless the session was given one.
    public var transport: any HTTPTransport { settings().parts.transport }
    /// Whether the session made its transport (and makes a new one when its settings change).
    private let makesTransport: Bool
    private let isShutDown = Atomic(false)
    /// Whether new calls are refused (``shutdown(gracePeriod:)``): read once by every call.
    let refusesCalls = Atomic(false)

    /// Whether a graceful shutdown has begun (``shutdown(gracePeriod:)``): new calls fail with
    /// ``HTTPError/Code/sessionShutDown`` while those in flight finish.
    public var isShuttingDown: Bool { refusesCalls.load(ordering: .acquiring) }
    /// The queue completion handlers are called on: the configuration's
    /// ``Configuration-swift.struct/completionQueue``, or a serial queue of the session's own.
    package var completionQueue: DispatchQueue { settings().completionQueue }
    /// Where the session logs: the configuration's ``Configuration-swift.struct/logger``.
    package var logger: Logger { settings().configuration.logger }
    /// The completion queue of a configuration that names none.
    private let ownCompletionQueue = DispatchQueue(label: "jewzruxin.session.completion")

    /// What a run reads: the configuration and what is made from it, in one immutable object
    /// that every change replaces, so that a run's snapshot is one reference. Copying the
    /// fields instead cost a retain and a release of each, on objects every concurrent run shares.
    package final class Settings: Sendable {
        package let configuration: Configuration
        /// The request path for a run without authentications or a download of its own, whose
        /// body ends in memory.
        let sessionPipeline: Pipeline
        /// The same for a run whose body is streamed to its caller: without the stage that
        /// shares identical GETs' exchanges, when the session has it.
        private let streamingPipeline: Pipeline
        /// Boxed, so that a run takes it with one retain (see ``HTTPCall/retryPolicy``).
        let retryPolicy: Boxed<RetryPolicy>
        let parts: Pipeline.Parts
        let completionQueue: DispatchQueue

        /// Whether requests may have to wait for a place: a maximum, or a pause.
        private let queues: Bool

        init(_ configuration: Configuration, parts: Pipeline.Parts, ownCompletionQueue: DispatchQueue) {
            self.configuration = configuration
            self.parts = parts
            completionQueue = configuration.completionQueue ?? ownCompletionQueue
            retryPolicy = Boxed(configuration.retryPolicy)
            queues = configuration.maximumActiveRequests != nil || parts.queue.isPaused
            let authenticates = !configuration.authentications.isEmpty
            let sessionPipeline = Pipeline(
                configuration, parts: parts, authenticates: authenticates, download: nil, bodyInMemory: true, queues: queues)
            self.sessionPipeline = sessionPipeline
            streamingPipeline =
                configuration.coalescesIdenticalGETs
                ? Pipeline(configuration, parts: parts, authenticates: authenticates, download: nil, bodyInMemory: false, queues: queues)
                : sessionPipeline
        }

        /// The request path of a run: the session's, unless the run's authentications, download
        /// or streamed body put stages in or take them out.
        func pipeline(authenticates: Bool, download: DownloadTarget?, bodyInMemory: Bool) -> Pipeline {
            guard download != nil || authenticates != !configuration.authentications.isEmpty else {
                return bodyInMemory ? sessionPipeline : streamingPipeline
            }
            return Pipeline(
                configuration, parts: parts, authenticates: authenticates, download: download, bodyInMemory: bodyInMemory, queues: queues)
        }
    }

    private let current: Mutex<Settings>

    /// The settings a run reads, once per run, so that concurrent calls do not contend on
    /// the session's lock for every stage.
    package func settings() -> Settings {
        current.withLock { $0 }
    }

    /// Creates a session with every setting in `configuration`; change it later with
    /// ``update(_:)``.
    ///
    /// The session connects through the configuration's
    /// ``Configuration-swift.struct/customTransport`` if it has one, else through an
    /// ``AsyncHTTPClientTransport`` it makes from ``Configuration-swift.struct/transport``.
    public init(configuration: Configuration = .init()) {
        makesTransport = configuration.customTransport == nil
        let parts = Pipeline.Parts(
            transport: configuration.customTransport ?? AsyncHTTPClientTransport(configuration: configuration.transport), queue: queue,
            coalescer: SingleFlight())
        current = Mutex(Settings(configuration, parts: parts, ownCompletionQueue: ownCompletionQueue))
        apply(configuration)
    }

    /// The URLs its cycles were last made for, by their strings.
    let parsedURLMemo = ParsedURLMemo()

    /// The session's settings: what its calls use from the next one on.
    public var configuration: Configuration {
        current.withLock { $0.configuration }
    }

    /// Changes the session's settings: calls use the new ones from the next one on.
    ///
    /// ```swift
    /// try session.update { configuration in
    ///     configuration.retryPolicy.retryableStatusCodes.insert(429)
    ///     configuration.middleware.append(HTTPHeaderMiddleware(["X-Client": "example/1.0"]))
    /// }
    /// ```
    ///
    /// `change` runs without a lock held; when two updates race, the later one's `change` runs
    /// again on the earlier one's result, so that neither is lost.
    ///
    /// A change to ``Configuration-swift.struct/transport`` (TLS, proxies, timeouts, pool) makes
    /// a new transport for the requests that start from then on; those already under way finish
    /// on the one they started with, which shuts down once they are done.
    ///
    /// - Throws: ``HTTPError/Code/invalidConfiguration`` when `change` sets another
    ///   ``Configuration-swift.struct/customTransport``, or touches the transport settings of a
    ///   session that has a custom one (it cannot remake that one); nothing changes then. What
    ///   `change` throws, likewise.
    public func update(_ change: (inout Configuration) throws -> Void) throws {
        try replaceSettings(changing: change)
        apply(settings().configuration)
    }

    /// Puts settings made from the current ones, as `change` leaves their configuration, in
    /// their place; `change` runs again when another replacement came first.
    private func replaceSettings(changing change: (inout Configuration) throws -> Void) throws {
        while true {
            let before = settings()
            var configuration = before.configuration
            try change(&configuration)
            var parts = before.parts
            var madeTransport = false
            guard configuration.customTransportRevision == before.configuration.customTransportRevision else {
                throw HTTPError.invalidConfiguration(
                    "a session keeps the transport it was made with; make a new session with the configuration's customTransport")
            }
            if configuration.transportRevision != before.configuration.transportRevision {
                guard makesTransport else {
                    throw HTTPError.invalidConfiguration(
                        "this session has a custom transport, which it cannot remake for new transport settings; make the transport anew and a session with it")
                }
                // A shut-down session keeps its shut transport: requests go on failing.
                if !isShutDown.load(ordering: .acquiring) {
                    parts = Pipeline.Parts(
                        transport: AsyncHTTPClientTransport(configuration: configuration.transport), queue: parts.queue,
                        coalescer: parts.coalescer)
                    madeTransport = true
                }
            }
            let after = Settings(configuration, parts: parts, ownCompletionQueue: ownCompletionQueue)
            let replaced = current.withLock { current in
                // A shutdown that came meanwhile wins over a transport made before it.
                guard current === before, !(madeTransport && isShutDown.load(ordering: .acquiring)) else { return false }
                current = after
                return true
            }
            if replaced { return }
        }
    }

    /// Hands the parts of the configuration that live outside the settings to their owners.
    private func apply(_ configuration: Configuration) {
        queue.maximumActive = configuration.maximumActiveRequests
        activity.handler = configuration.activityHandler
    }

    /// Counts the session's running calls and reports each change (for an activity indicator).
    let activity = NetworkActivity()

    /// Admits requests to the network: the maximum at once, pause and resume, priorities.
    let queue = RequestQueue()

    /// Holds the requests of every run that starts from now on until ``resume()``, before
    /// they go on the wire; requests on the wire continue.
    public func pause() {
        queue.pause()
        // The queue stage joins the pipeline of the runs that start while paused.
        try? replaceSettings { _ in }
    }

    /// Lets held requests go, by priority.
    public func resume() {
        queue.resume()
        try? replaceSettings { _ in }
    }

    /// Whether the session holds new requests.
    public var isPaused: Bool { queue.isPaused }

    /// The calls waiting for a place on the network, in the order they will go; set a call's
    /// ``HTTPCall/priority`` to move it.
    public var pendingCalls: [HTTPCall] { queue.pending }

    /// The names of the stages a request goes through, in order (``HTTPMiddleware/name``):
    /// the session's middleware among the built-in ones that its configuration puts in.
    public var stageNames: [String] { settings().sessionPipeline.names }

    /// Shuts the session down gracefully, as a service does on SIGTERM: new calls fail at once
    /// with ``HTTPError/Code/sessionShutDown``, the calls in progress (queued ones and streamed
    /// bodies still being read included) run to their end for up to `gracePeriod`, those still
    /// running then are cancelled, and the transport shuts down last.
    ///
    /// ```swift
    /// try await session.shutdown(gracePeriod: .seconds(30))
    /// ```
    ///
    /// - Throws: what shutting the transport down throws.
    public func shutdown(gracePeriod: Duration) async throws {
        refusesCalls.store(true, ordering: .releasing)
        let drained = await withTaskGroup(of: Bool.self) { group in
            group.addTask { await self.activity.waitUntilIdle(); return true }
            group.addTask { (try? await Task.sleep(for: gracePeriod)) == nil }
            let first = await group.next() ?? true
            group.cancelAll()
            return first
        }
        if !drained {
            logger.notice("shutting down: \(runningCalls.count) calls still running after \(gracePeriod) are cancelled")
            cancelAllCalls()
            await activity.waitUntilIdle()
        }
        try await shutdown()
    }

    /// Shuts the transport down; later requests fail with ``HTTPError/Code/sessionShutDown``. A
    /// transport an earlier ``update(_:)`` replaced shuts down when its last request ends. Calls
    /// in progress fail; ``shutdown(gracePeriod:)`` lets them finish first.
    public func shutdown() async throws {
        let transport = current.withLock { current in
            isShutDown.store(true, ordering: .releasing)
            return current.parts.transport
        }
        try await transport.shutdown()
    }
}
