import Foundation
import Jewzruxin
import JewzSandbox
import Synchronization

/// The tour's steps about authentication: challenges answered, and tokens that refresh.
extension TourStep {
    static func authSteps(_ sandbox: Sandbox) -> [TourStep] {
        let url = sandbox.url
        return [
            TourStep(
                title: "Basic authentication answers the server's 401 challenge with the credentials",
                code: """
                    let session = HTTPSession()
                    try session.update { $0.authentications = [BasicAuthentication(username: "test", password: "12345")] }
                    let cycle = try await HTTPCycle.get(url("/hello_with_basic_auth"), session: session)
                    """
            ) {
                let session = HTTPSession()
                try session.update { $0.authentications = [BasicAuthentication(username: "test", password: "12345")] }
                let cycle = try await HTTPCycle.get(url("/hello_with_basic_auth"), session: session)
                try await session.shutdown()
                return Outcome(
                    "\(cycle.response?.statusCode ?? 0) \"\(cycle.response?.text ?? "")\"", expected: "200 \"Hello World\"")
            },
            TourStep(
                title: "Digest authentication (RFC 7616) answers the server's challenge, then goes preemptively",
                code: """
                    let session = HTTPSession()
                    try session.update { $0.authentications = [DigestAuthentication(username: "Mufasa", password: "Circle of Life")] }
                    let cycle = try await HTTPCycle.get(url("/digest-auth/auth/Mufasa/Circle%20of%20Life/SHA-256"), session: session)
                    """
            ) {
                let session = HTTPSession()
                try session.update { $0.authentications = [DigestAuthentication(username: "Mufasa", password: "Circle of Life")] }
                let cycle = try await HTTPCycle.get(url("/digest-auth/auth/Mufasa/Circle%20of%20Life/SHA-256"), session: session)
                try await session.shutdown()
                return Outcome("status \(cycle.response?.statusCode ?? 0)", expected: "status 200")
            },
            TourStep(
                title: "A token that refreshes: many requests refused at once cause one refresh",
                code: """
                    let tokens = TokenAuthenticator(credential: .init(token: "expired")) {
                        let issued = try await HTTPCycle.get(url("/token/issue")).response?.json?["token"].string
                        return .init(token: issued ?? "")
                    }
                    try session.update { $0.authentications = [tokens] }
                    // 10 requests at once to url("/token/protected"), each refused once, then replayed:
                    """
            ) {
                let refreshes = Atomic(0)
                let tokens = TokenAuthenticator(credential: .init(token: "expired")) {
                    refreshes.add(1, ordering: .relaxed)
                    let issued = try await HTTPCycle.get(url("/token/issue")).response?.json?["token"].string
                    return .init(token: issued ?? "")
                }
                let session = HTTPSession()
                try session.update { $0.authentications = [tokens] }
                let answered = try await withThrowingTaskGroup(of: Bool.self) { group in
                    for _ in 0..<10 {
                        group.addTask { try await HTTPCycle.get(url("/token/protected"), session: session).response?.statusCode == 200 }
                    }
                    return try await group.reduce(0) { $0 + ($1 ? 1 : 0) }
                }
                try await session.shutdown()
                return Outcome(
                    "\(answered) answered, \(refreshes.load(ordering: .relaxed)) refresh",
                    expected: "10 answered, 1 refresh")
            },
        ]
    }
}
