import Foundation
import JewzHTTPCore
import JewzLocking

/// A bearer token that refreshes itself: before a send when it has expired, and on a 401 (then
/// the request is sent again with the new token).
///
/// However many requests find the token stale at once, one refresh runs; the others wait for
/// it and use its token. A 401 for a request sent with a token already replaced is answered
/// with the current one, without another refresh. A failed refresh fails every request waiting
/// for it with the refresh's error. More than ``maximumRefreshes`` refreshes within
/// ``refreshWindow`` end in ``AuthError/Code/refreshLimit``: a server that refuses every token
/// cannot make a session refresh without end.
///
/// The refresh may send its login request through the session it authorizes: that request is
/// sent without a token and is not answered with another refresh (which would wait for itself).
///
/// ```swift
/// let tokens = TokenAuthenticator { try await login() }     // returns a TokenAuthenticator.Credential
/// try session.update { $0.authentications = [tokens] }
/// ```
public final class TokenAuthenticator: HTTPAuthentication {
    /// The authenticators whose refresh the current task runs, so that requests the refresh
    /// sends skip them.
    @TaskLocal private static var refreshesRunning: Set<ObjectIdentifier> = []

    /// A token and when it stops being valid (`nil`: until a server says so).
    public struct Credential: Sendable, Hashable, CustomStringConvertible, CustomReflectable {
        /// The bearer token, sent as `Authorization: Bearer …`.
        public var token: String
        /// When the token stops being valid; `nil` until a server refuses it.
        public var expiresAt: Date?

        /// A token, and when it expires if known.
        public init(token: String, expiresAt: Date? = nil) {
            self.token = token
            self.expiresAt = expiresAt
        }

        func isExpired(at now: Date) -> Bool { expiresAt.map { $0 <= now } ?? false }

        /// The credential with its token redacted, for logs and messages.
        public var description: String {
            "Credential(token redacted\(expiresAt.map { ", expires \($0.formatted(.iso8601))" } ?? ""))"
        }

        /// The fields `dump` and the debugger show, the token redacted.
        public var customMirror: Mirror {
            Mirror(self, children: ["token": "<redacted>", "expiresAt": expiresAt as Any], displayStyle: .struct)
        }
    }

    /// Fetches a new credential: a login, a token endpoint; what it throws fails the requests waiting.
    public typealias Refresh = @Sendable () async throws -> Credential

    private struct State {
        var credential: Credential?
        /// When the refreshes within the window started.
        var refreshes: [ContinuousClock.Instant] = []
    }

    /// The most refreshes within ``refreshWindow``.
    public let maximumRefreshes: Int
    /// The span over which ``maximumRefreshes`` is counted.
    public let refreshWindow: Duration
    private let refresh: Refresh
    private let state: Mutex<State>
    /// The refresh in flight, shared by every request that finds the token stale meanwhile.
    private let refreshing = SingleFlight<Int, Credential>()

    /// An authentication that sends `credential` and renews it with `refresh`, at most
    /// `maximumRefreshes` times per `refreshWindow`.
    ///
    /// - Parameters:
    ///   - credential: the token to start with; `nil` refreshes before the first request.
    ///   - maximumRefreshes: how many refreshes ``refreshWindow`` allows (3 by default).
    ///   - refreshWindow: the span over which refreshes are counted (a minute by default).
    ///   - refresh: fetches a new credential; its error fails the requests that waited for it.
    public init(
        credential: Credential? = nil, maximumRefreshes: Int = 3, refreshWindow: Duration = .seconds(60),
        refresh: @escaping Refresh
    ) {
        state = Mutex(State(credential: credential))
        self.maximumRefreshes = maximumRefreshes
        self.refreshWindow = refreshWindow
        self.refresh = refresh
    }

    /// The token requests are sent with now.
    public var credential: Credential? { state.withLock { $0.credential } }

    /// Sends `credential` from now on, without a refresh (a sign-in or sign-out made elsewhere).
    func replace(with credential: Credential?) {
        state.withLock { $0.credential = credential }
    }

    /// How many requests wait for the refresh in flight (for tests: a refresh shared by all).
    package var refreshWaiters: Int { refreshing.waiterCount(for: 0) }

    /// Sends the credential, waiting for the refresh in flight or starting one when there is none
    /// yet.
    ///
    /// - Throws: what the refresh threw; ``AuthError/Code/refreshLimit`` past the limit.
    public func authorize(_ request: inout HTTPRequest) async throws {
        guard !request.headers.contains("Authorization"), !isRefreshingHere else { return }
        let current = refreshing.count == 0 ? state.withLock({ $0.credential }) : nil
        let credential = if let current, !current.isExpired(at: Date()) { current } else { try await refreshed(replacing: nil) }
        request.headers["Authorization"] = "Bearer " + credential.token
    }

    /// Answers a 401 with a refreshed credential, once per request; `false` for a 407 or a second
    /// 401.
    ///
    /// - Throws: what the refresh threw; ``AuthError/Code/refreshLimit`` past the limit.
    public func respond(to challenge: HTTPResponse, retrying request: inout HTTPRequest) async throws -> Bool {
        guard challenge.statusCode == 401, !isRefreshingHere else { return false }
        let sent = request.headers["Authorization"].flatMap { $0.hasPrefix("Bearer ") ? String($0.dropFirst(7)) : nil }
        let credential = try await refreshed(replacing: sent)
        guard credential.token != sent else { return false }
        request.headers["Authorization"] = "Bearer " + credential.token
        return true
    }

    /// A bearer token's answers carry nothing to check.
    public func didReceive(_ response: HTTPResponse, for request: HTTPRequest) throws {}

    /// Whether the current task is this authenticator's refresh (or a task it started).
    private var isRefreshingHere: Bool { Self.refreshesRunning.contains(ObjectIdentifier(self)) }

    /// A credential newer than `stale`: the current one when it already replaced `stale`, the
    /// refresh in flight's, or a new refresh's.
    ///
    /// - Throws: what the refresh threw, or ``AuthError/Code/refreshLimit``.
    private func refreshed(replacing stale: String?) async throws -> Credential {
        try await refreshing.value(for: 0) {
            let ready = try state.withLock { state -> Credential? in
                if let current = state.credential, let stale, current.token != stale, !current.isExpired(at: Date()) {
                    return current
                }
                let now = ContinuousClock.now
                state.refreshes.removeAll { now - $0 > refreshWindow }
                guard state.refreshes.count < maximumRefreshes else {
                    throw AuthError.refreshLimit(maximumRefreshes, window: refreshWindow)
                }
                state.refreshes.append(now)
                return nil
            }
            if let ready { return .init { ready } }
            return .init { [self] in
                let credential = try await Self.$refreshesRunning.withValue(Self.refreshesRunning.union([ObjectIdentifier(self)])) {
                    try await refresh()
                }
                state.withLock { $0.credential = credential }
                return credential
            }
        }
    }
}
