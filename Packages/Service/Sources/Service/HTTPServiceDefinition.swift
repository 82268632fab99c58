import JewzHTTPCore

/// A service defined by a type: its name
/// finds its profile (`github` → `github.json`), it makes the service's session, and it may
/// adjust the cycle of a resource that differs from the rest.
///
/// ```swift
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
    /// Called right after the service makes a cycle; nothing unless given.
    func cycleDidCreate(_ cycle: HTTPCycle, resourceName: String)
}

extension HTTPServiceDefinition {
    public func makeSession() -> HTTPSession { .default }
    public func cycleDidCreate(_ cycle: HTTPCycle, resourceName: String) {}
}
