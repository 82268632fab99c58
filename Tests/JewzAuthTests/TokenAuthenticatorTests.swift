import Foundation
import JewzAuth
import JewzHTTPCore
import JewzSandbox
import JewzTestSupport
import Synchronization
import Testing

/// Token refresh against the Sandbox's token endpoints, which count the tokens they issue.
@Suite struct TokenAuthenticatorTests {
    /// A refresh that asks the Sandbox for a new token and counts its calls.
    final class Refresher: Sendable {
        let sandbox: Sandbox
        let calls = Atomic(0)
        init(_ sandbox: Sandbox) { self.sandbox = sandbox }

        func refresh() async throws -> TokenAuthenticator.Credential {
            calls.add(1, ordering: .relaxed)
            let session = HTTPSession(configuration: .init { $0.logger = quietLogger })
            defer { Task { try? await session.shutdown() } }
            let response = try await HTTPCycle.get(sandbox.url("/token/issue"), session: session)
            let object = try JSONSerialization.jsonObject(with: response.data) as? [String: String]
            return .init(token: try #require(object?["token"]))
        }
    }

    @Test func a401RefreshesOnceAndReplays() async throws {
        try await withSandbox { sandbox, session in
            let refresher = Refresher(sandbox)
            try session.update { $0.authentications = [TokenAuthenticator(credential: .init(token: "stale")) { try await refresher.refresh() }] }
            let response = try await HTTPCycle.get(sandbox.url("/token/protected"), session: session)
            #expect(response.text == "welcome")
            #expect(refresher.calls.load(ordering: .relaxed) == 1)
        }
    }

    @Test func manyConcurrent401sCauseOneRefresh() async throws {
        try await withSandbox { sandbox, session in
            let refresher = Refresher(sandbox)
            let tokens = TokenAuthenticator { try await refresher.refresh() }
            try session.update { $0.authentications = [tokens] }
            _ = try await HTTPCycle.get(sandbox.url("/token/protected"), session: session)
            _ = try await HTTPCycle.get(sandbox.url("/token/expire"), session: session)
            try await withThrowingTaskGroup(of: String?.self) { group in
                for _ in 0..<32 {
                    group.addTask { try await HTTPCycle.get(sandbox.url("/token/protected"), session: session).text }
                }
                for try await text in group { #expect(text == "welcome") }
            }
            // One before the first request (no token yet), one after the expiry.
            #expect(refresher.calls.load(ordering: .relaxed) == 2)
            #expect(sandbox.router.tokensIssued == 2)
        }
    }

    @Test func anExpiredCredentialIsRefreshedBeforeSending() async throws {
        try await withSandbox { sandbox, session in
            let refresher = Refresher(sandbox)
            let expired = TokenAuthenticator.Credential(token: "old", expiresAt: Date(timeIntervalSinceNow: -1))
            try session.update { $0.authentications = [TokenAuthenticator(credential: expired) { try await refresher.refresh() }] }
            let inspection = try Inspection(try await HTTPCycle.get(sandbox.url("/inspect"), session: session))
            #expect(inspection.values("Authorization").first?.hasPrefix("Bearer token-1-") == true)
            #expect(refresher.calls.load(ordering: .relaxed) == 1)
        }
    }

    @Test func aFailedRefreshFailsEveryWaitingRequest() async throws {
        struct LoginDown: Error {}
        try await withSandbox { sandbox, session in
            let calls = Atomic(0)
            let (gate, open) = AsyncStream<Never>.makeStream()
            // The one refresh fails once the gate opens: when all eight requests wait for it.
            let tokens = TokenAuthenticator {
                calls.add(1, ordering: .relaxed)
                for await _ in gate {}
                throw LoginDown()
            }
            try session.update { $0.authentications = [tokens] }
            try await withThrowingTaskGroup(of: HTTPError?.self) { group in
                for _ in 0..<8 {
                    group.addTask { await httpError { _ = try await HTTPCycle.get(sandbox.url("/token/protected"), session: session) } }
                }
                try await waitUntil { tokens.refreshWaiters == 8 }
                open.finish()
                for try await error in group { #expect(error?.underlying is LoginDown) }
            }
            #expect(calls.load(ordering: .relaxed) == 1)
        }
    }

    @Test func aRefreshMaySendItsLoginThroughTheSessionItAuthorizes() async throws {
        try await withSandbox { sandbox, session in
            let tokens = TokenAuthenticator {
                let issued = try await HTTPCycle.get(sandbox.url("/token/issue"), session: session)
                let object = try JSONSerialization.jsonObject(with: issued.data ) as? [String: String]
                return .init(token: try #require(object?["token"]))
            }
            try session.update { $0.authentications = [tokens] }
            let response = try await withTimeLimit(.seconds(60)) {
                try await HTTPCycle.get(sandbox.url("/token/protected"), session: session)
            }
            #expect(response.text == "welcome")
            #expect(sandbox.router.tokensIssued == 1)
        }
    }

    @Test func aServerRefusingEveryTokenHitsTheRefreshLimit() async throws {
        try await withSandbox { sandbox, session in
            let calls = Atomic(0)
            let tokens = TokenAuthenticator(maximumRefreshes: 3) {
                calls.add(1, ordering: .relaxed)
                return .init(token: "never-valid")
            }
            try session.update { $0.authentications = [tokens] }
            for _ in 0..<2 {
                _ = await httpError { _ = try await HTTPCycle.get(sandbox.url("/token/protected"), session: session) }
            }
            let error = await httpError { _ = try await HTTPCycle.get(sandbox.url("/token/protected"), session: session) }
            #expect(error?.code == .authentication, "\(String(describing: error))")
            #expect((error?.underlying as? AuthError)?.code == .refreshLimit)
            #expect(calls.load(ordering: .relaxed) == 3)
        }
    }
}
