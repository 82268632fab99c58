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
/// ```swift
/// let tokens = TokenAuthenticator { try await login() }     // returns a TokenAuthenticator.Credential
/// session.authentications = [tokens]
/// ```
public final class TokenAuthenticator: HTTPAuthentication {
    /// A token and when it stops being valid (`nil`: until a server says so).
    public struct Credential: Sendable, Hashable {
        public var token: String
        public var expiresAt: Date?

        public init(token: String, expiresAt: Date? = nil) {
            self.token = token
            self.expiresAt = expiresAt
        }

        func isExpired(at now: Date) -> Bool { expiresAt.map { $0 <= now } ?? false }
    }

    public typealias Refresh = @Sendable () async throws -> Credential

    private struct State {
        var credential: Credential?
        var refreshing: Task<Credential, any Error>?
        var refreshes: [ContinuousClock.Instant] = []
    }

    /// The most refreshes within ``refreshWindow``.
    public let maximumRefreshes: Int
    public let refreshWindow: Duration
    private let refresh: Refresh
    private let state: Mutex<State>

    /// - Parameters:
    ///   - credential: the token to start with; `nil` refreshes before the first request.
    ///   - maximumRefreshes: how many refreshes ``refreshWindow`` allows (3 by default).
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

    public func authorize(_ request: inout HTTPRequest) async throws {
        guard !request.headers.contains("Authorization") else { return }
        let now = Date()
        let current = state.withLock { $0.refreshing == nil ? $0.credential : nil }
        let credential = if let current, !current.isExpired(at: now) { current } else { try await refreshed(replacing: nil) }
        request.headers["Authorization"] = "Bearer " + credential.token
    }

    public func respond(to challenge: HTTPResponse, retrying request: inout HTTPRequest) async throws -> Bool {
        guard challenge.statusCode == 401 else { return false }
        let sent = request.headers["Authorization"].flatMap { $0.hasPrefix("Bearer ") ? String($0.dropFirst(7)) : nil }
        let credential = try await refreshed(replacing: sent)
        guard credential.token != sent else { return false }
        request.headers["Authorization"] = "Bearer " + credential.token
        return true
    }

    /// A credential newer than `stale`: the current one when it already replaced `stale`, the
    /// refresh in flight's, or a new refresh's.
    private func refreshed(replacing stale: String?) async throws -> Credential {
        enum Next {
            case ready(Credential)
            case waiting(Task<Credential, any Error>)
        }
        let next = try state.withLock { state -> Next in
            if let refreshing = state.refreshing { return .waiting(refreshing) }
            if let current = state.credential, let stale, current.token != stale, !current.isExpired(at: Date()) {
                return .ready(current)
            }
            let now = ContinuousClock.now
            state.refreshes.removeAll { now - $0 > refreshWindow }
            guard state.refreshes.count < maximumRefreshes else {
                throw AuthError.refreshLimit(maximumRefreshes, window: refreshWindow)
            }
            state.refreshes.append(now)
            let task = Task { try await self.runRefresh() }
            state.refreshing = task
            return .waiting(task)
        }
        switch next {
        case .ready(let credential): return credential
        case .waiting(let task): return try await task.value
        }
    }

    private func runRefresh() async throws -> Credential {
        do {
            let credential = try await refresh()
            state.withLock { state in
                state.credential = credential
                state.refreshing = nil
            }
            return credential
        } catch {
            state.withLock { $0.refreshing = nil }
            throw error
        }
    }
}
