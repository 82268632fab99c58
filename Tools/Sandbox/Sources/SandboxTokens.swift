import Foundation
import JewzLocking

/// Bearer tokens for refresh tests: `/token/issue` hands out a new one, `/token/protected`
/// answers 200 to a valid one and 401 (`WWW-Authenticate: Bearer error="invalid_token"`) to
/// anything else, `/token/expire` invalidates every token issued so far.
final class SandboxTokens: Sendable {
    private struct State {
        var valid: Set<String> = []
        var issued = 0
    }

    private let state = Mutex(State())

    /// How many tokens `/token/issue` has handed out.
    var issued: Int { state.withLock { $0.issued } }

    func respond(to request: SandboxRequest, action: String) -> SandboxResponse {
        switch action {
        case "issue":
            let token = state.withLock { state in
                state.issued += 1
                let token = "token-\(state.issued)-\(UInt32.random(in: 0...UInt32.max))"
                state.valid.insert(token)
                return token
            }
            return SandboxResponse(
                status: 200, headers: [("Content-Type", "application/json")], body: Data(#"{"token":"\#(token)"}"#.utf8))
        case "expire":
            state.withLock { $0.valid.removeAll() }
            return .text("expired")
        case "protected":
            guard isValid(request) else {
                return SandboxResponse(status: 401, headers: [("WWW-Authenticate", #"Bearer realm="sandbox", error="invalid_token""#)])
            }
            return .text("welcome")
        default:
            return .text("token actions: issue, protected, expire", status: 404)
        }
    }

    /// Whether `request` carries a bearer token that is valid now.
    func isValid(_ request: SandboxRequest) -> Bool {
        let header = request.header("Authorization") ?? ""
        let token = header.hasPrefix("Bearer ") ? String(header.dropFirst(7)) : ""
        return state.withLock { $0.valid.contains(token) }
    }
}
