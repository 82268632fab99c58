import JewzHTTPCore

/// A service defined by a type: its name
/// finds its profile (`github` → `github.json`), it makes the service's session, and it may
/// adjust the cycle of a resource that differs from the rest.
///
/// ```swift
/// let profiles = URL(filePath: "Profiles")
/// struct GitHub: HTTPServiceDefinition {
///     static let serviceName = "github"
///     func makeSession() -> HTTPSession { HTTPSession(configuration: .init()) }
///     func cycleDidCreate(_ cycle: HTTPCycle, resourceName: String) {
///         if resourceName == "upload" { cycle.options.requestProcessors = [HTTPDataProcessor()] }
///     }
/// }
/// let github = try HTTPService(GitHub(), profilesIn: profiles)
/// ```
public protocol HTTPServiceDefinition: Sendable {
    /// The service's name: its profile's file name without the extension.
    static var serviceName: String { get }
    /// The session the service's cycles use; the default session unless given.
    func makeSession() -> HTTPSession
    /// Called right after the service makes a cycle. It has no default, so that a method
    /// of another name (a port's `cycleDidCreateWithResourceName`) does not compile silently
    /// and go uncalled; one with nothing to adjust is empty.
    func cycleDidCreate(_ cycle: HTTPCycle, resourceName: String)
}

extension HTTPServiceDefinition {
    /// The default session.
    public func makeSession() -> HTTPSession { .default }
}
