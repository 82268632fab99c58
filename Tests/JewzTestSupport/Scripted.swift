import Foundation
import JewzHTTPCore
import JewzLocking
import JewzSandbox
import Testing

/// Runs `body` with a ``ScriptedServer`` answering as `script` says and a fresh session on the
/// given transport, then stops both.
public func withScriptedServer(
    configuration: HTTPSession.Configuration = .init(), transport: TransportKind = .asyncHTTPClient,
    contentCodings: ContentCodingRegistry = ContentCodingRegistry(), registry: ProcessorRegistry = ProcessorRegistry(),
    _ script: @escaping ScriptedServer.Script, _ body: (ScriptedServer, HTTPSession) async throws -> Void
) async throws {
    let server = try await ScriptedServer.start(script)
    try await withSession(
        configuration: configuration, transport: transport, registry: registry, contentCodings: contentCodings,
        server: server, shutdown: { try await server.shutdown() }, body)
}

/// Fails the test instead of hanging when `body` takes longer than `limit`: the waits this
/// guards are bugs (a hang), so a guard's timer is the only sleep here. A body that does not
/// end when cancelled is left behind, so that the suite goes on.
public func withTimeLimit<T: Sendable>(
    _ limit: Duration, sourceLocation: SourceLocation = #_sourceLocation, _ body: @escaping @Sendable () async throws -> T
) async throws -> T {
    let outcome = try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<T?, any Error>) in
        let pending = Mutex<CheckedContinuation<T?, any Error>?>(continuation)
        let resume: @Sendable (Result<T?, any Error>) -> Void = { result in
            pending.withLock { waiting in
                waiting?.resume(with: result)
                waiting = nil
            }
        }
        let work = Task {
            do {
                resume(.success(try await body()))
            } catch {
                resume(.failure(error))
            }
        }
        Task {
            try? await Task.sleep(for: limit)
            resume(.success(nil))
            work.cancel()
        }
    }
    guard let outcome else {
        Issue.record("still running after \(limit): it hangs", sourceLocation: sourceLocation)
        throw CancellationError()
    }
    return outcome
}

/// A response head with the given status line and headers, ended by the empty line.
public func responseHead(_ statusLine: String = "HTTP/1.1 200 OK", _ headers: [String] = []) -> String {
    ([statusLine] + headers).joined(separator: "\r\n") + "\r\n\r\n"
}

/// Checks that `session` still completes a normal request, after whatever a test did to it.
public func expectSessionStillWorks(_ session: HTTPSession, sourceLocation: SourceLocation = #_sourceLocation) async throws {
    let sandbox = try await Sandbox.start()
    let response = try await HTTPCycle.get(sandbox.url("/hello/"), session: session)
    #expect(response.text == "Hello World", sourceLocation: sourceLocation)
    try await sandbox.shutdown()
}
