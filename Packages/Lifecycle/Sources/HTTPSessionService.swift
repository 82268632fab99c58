import JewzHTTPCore
import ServiceLifecycle

/// A session as a swift-service-lifecycle `Service`, so that a server's `ServiceGroup` shuts
/// it down with the rest of the program, after the calls it was making.
///
/// `run()` waits for the group's graceful shutdown (SIGTERM, or the app's own), then shuts the
/// session down gracefully (``/JewzHTTPCore/HTTPSession/shutdown(gracePeriod:)``): new calls fail
/// at once with ``/JewzHTTPCore/HTTPError/Code/sessionShutDown``, the calls in flight run for up
/// to `gracePeriod` and are cancelled then, and the transport shuts down last. Cancelled
/// instead (the group tearing down at once), it cancels the calls in flight and shuts down.
///
/// ```swift
/// import JewzLifecycle
/// import ServiceLifecycle
///
/// let logger = Logger(label: "example")
/// let app = ExampleApp()   // your own service: a server, a worker
/// let session = HTTPSession()
/// let group = ServiceGroup(services: [HTTPSessionService(session), app], gracefulShutdownSignals: [.sigterm], logger: logger)
/// try await group.run()
/// ```
///
/// Put it before the services that call through the session: a group shuts its services down
/// in reverse order, one after the other, so the app stops taking requests and answers those it
/// has before the session stops taking calls.
public struct HTTPSessionService: Service {
    /// The session it runs.
    public let session: HTTPSession
    /// How long calls in flight may run once a graceful shutdown begins.
    public let gracePeriod: Duration

    /// A service for `session`, whose calls in flight get `gracePeriod` to finish at shutdown.
    public init(_ session: HTTPSession, gracePeriod: Duration = .seconds(30)) {
        self.session = session
        self.gracePeriod = gracePeriod
    }

    /// Waits for the graceful shutdown, then shuts the session down after its calls.
    ///
    /// - Throws: what shutting the transport down throws.
    public func run() async throws {
        do {
            try await gracefulShutdown()
        } catch {
            // Cancelled rather than asked to shut down: nothing waits any more.
            try await session.shutdown(gracePeriod: .zero)
            return
        }
        try await session.shutdown(gracePeriod: gracePeriod)
    }
}
