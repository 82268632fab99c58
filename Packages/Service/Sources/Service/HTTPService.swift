import Foundation
import JewzHTTPCore
import JewzLocking
import JewzURITemplate

/// Calls an HTTP API by resource name, as its ``ServiceProfile`` describes it, against one of
/// its environments.
///
/// A service makes each request's URL by expanding its resource's template with the values
/// given, against the base URL (switchable at run time, or chosen by environment), and gives it
/// the profile's method, headers, timeout and processors. Cycles with an identifier can be
/// reused while in flight, or replaced (``CycleOption``).
///
/// ```swift
/// let profiles = URL(filePath: "Profiles")
/// let github = try HTTPService(profile: ServiceProfile(named: "github", in: profiles))
/// try github.use(environment: "staging")
/// let cycle = try await github.request("search", values: ["q": "jewzruxin", "sort": "updated"])
/// print(cycle.response?.json?["total_count"].number?.int ?? 0)
/// ```
public final class HTTPService: Sendable {
    /// What to do when a cycle with the same identifier exists.
    public enum CycleOption: Sendable {
        /// A new cycle every time.
        case create
        /// The existing cycle while it has not finished: however many ask at once, one exchange.
        case reuse
        /// Cancel the existing cycle and make a new one: the last to ask wins.
        case replace
    }

    /// Called right after the service makes a cycle, with the resource's name: the place to
    /// adjust the resource that differs from the rest.
    public typealias CycleHook = @Sendable (_ cycle: HTTPCycle, _ resourceName: String) -> Void

    /// The session the service's cycles use: its processors, authentications and policies.
    public let session: HTTPSession
    let state: Mutex<State>

    struct State {
        var profile: ServiceProfile
        var baseURL: String
        var environment: String?
        var hook: CycleHook?
        /// Authentications by environment: a credential for staging is never sent to production.
        var credentials: [String: [any HTTPAuthentication]] = [:]
        /// The service's authentications where its environment has none; `nil`: the session's.
        var authentications: [any HTTPAuthentication]?
        /// The latest cycle made with each identifier.
        var identified: [String: HTTPCycle] = [:]
    }

    /// The runs of identified cycles the service started: `.reuse` callers share one.
    let runs = SingleFlight<String, HTTPCycle>()

    /// A service for `profile`, its requests made with `session`.
    ///
    /// - Parameters:
    ///   - profile: the service's base URL, resources and defaults.
    ///   - session: the session its cycles go through; ``/JewzHTTPCore/HTTPSession/default`` unless given.
    ///   - cycleDidCreate: called right after each cycle is made.
    public init(profile: ServiceProfile, session: HTTPSession = .default, cycleDidCreate: CycleHook? = nil) {
        self.session = session
        state = Mutex(State(profile: profile, baseURL: profile.baseURL, hook: cycleDidCreate))
    }

    /// A service defined by a type: its profile is `name.json` (or
    /// `.plist`, `.yaml`) in `directory`, its session the definition's.
    ///
    /// - Throws: ``ServiceError`` when the profile cannot be read or is not valid.
    public convenience init<Definition: HTTPServiceDefinition>(_ definition: Definition, profilesIn directory: URL) throws(ServiceError) {
        let profile = try ServiceProfile(named: Definition.serviceName, in: directory)
        self.init(profile: profile, session: definition.makeSession()) { cycle, name in
            definition.cycleDidCreate(cycle, resourceName: name)
        }
    }

    /// The profile; setting one (always valid: see ``ServiceProfile``) resets the base URL to
    /// its own and the environment to none.
    public var profile: ServiceProfile {
        get { state.withLock { $0.profile } }
        set {
            state.withLock { state in
                state.profile = newValue
                state.baseURL = newValue.baseURL
                state.environment = nil
            }
        }
    }

    /// The URL templates are expanded against; switch it to run against another server
    /// (`http://127.0.0.1:8000` in development).
    public var baseURL: String {
        get { state.withLock { $0.baseURL } }
        set { state.withLock { $0.baseURL = newValue } }
    }

    /// The environment whose base URL is in use, or `nil` for the profile's own.
    public var environment: String? {
        state.withLock { $0.environment }
    }

    /// Switches to the environment called `name` in the profile's `Environments` (`nil`: the
    /// profile's base URL again).
    ///
    /// - Throws: ``ServiceError/Code/unknownEnvironment``.
    public func use(environment name: String?) throws(ServiceError) {
        try state.withLock { (state: inout State) throws(ServiceError) in
            guard let name else {
                state.environment = nil
                state.baseURL = state.profile.baseURL
                return
            }
            guard let url = state.profile.environments[name] else {
                throw ServiceError.unknownEnvironment(name, known: state.profile.environments.keys.sorted())
            }
            state.environment = name
            state.baseURL = url
        }
    }

    /// Gives the cycles made while `environment` is in use these authentications, in place of
    /// the session's, so that credentials stay with the environment they belong to; `nil` removes them.
    public func setAuthentications(_ authentications: [any HTTPAuthentication]?, for environment: String) {
        state.withLock { $0.credentials[environment] = authentications }
    }

    /// The authentications of the service's cycles, over the session's; those given for the
    /// environment in use (``setAuthentications(_:for:)``) come first. `nil`: the session's.
    public var authentications: [any HTTPAuthentication]? {
        get { state.withLock { $0.authentications } }
        set { state.withLock { $0.authentications = newValue } }
    }

    /// The hook called right after a cycle is made.
    public var cycleDidCreate: CycleHook? {
        get { state.withLock { $0.hook } }
        set { state.withLock { $0.hook = newValue } }
    }
}
