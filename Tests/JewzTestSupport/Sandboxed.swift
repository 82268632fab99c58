import Foundation
import Logging
import JewzHTTPCore
import JewzURLSession
import JewzSandbox
import Testing

/// Runs `body` with a Sandbox on a free loopback port and a fresh session (with its own
/// registries, empty unless given), then stops both.
public func withSandbox(
    configuration: HTTPSession.Configuration = .init(), registry: ProcessorRegistry = ProcessorRegistry(),
    contentCodings: ContentCodingRegistry = ContentCodingRegistry(), transport: TransportKind = .asyncHTTPClient,
    _ body: (Sandbox, HTTPSession) async throws -> Void
) async throws {
    let sandbox = try await Sandbox.start()
    try await withSession(
        configuration: configuration, transport: transport, registry: registry, contentCodings: contentCodings,
        server: sandbox, shutdown: { try await sandbox.shutdown() }, body)
}

/// Runs `body` with `server` and a fresh quiet session, then shuts down both, whether or not
/// `body` throws.
func withSession<Server>(
    configuration: HTTPSession.Configuration, transport: TransportKind, registry: ProcessorRegistry,
    contentCodings: ContentCodingRegistry, server: Server, shutdown: () async throws -> Void,
    _ body: (Server, HTTPSession) async throws -> Void
) async throws {
    var configuration = configuration
    configuration.processorRegistry = registry
    configuration.contentCodings = contentCodings
    configuration.customTransport = try transport.make(configuration)
    configuration.logger = quietLogger
    let session = HTTPSession(configuration: configuration)
    do {
        try await body(server, session)
    } catch {
        try? await session.shutdown()
        try? await shutdown()
        throw error
    }
    try await session.shutdown()
    try await shutdown()
}

/// The transports that must behave alike.
public enum TransportKind: String, CaseIterable, Sendable, CustomTestStringConvertible {
    case asyncHTTPClient
    case urlSession

    public func make(_ configuration: HTTPSession.Configuration) throws -> any HTTPTransport {
        switch self {
        case .asyncHTTPClient: AsyncHTTPClientTransport(configuration: configuration.transport)
        case .urlSession: try URLSessionTransport(configuration: configuration)
        }
    }

    public var testDescription: String { rawValue }
}

/// A logger for test sessions: tests provoke failures on purpose, and the library would log
/// each at error level.
public var quietLogger: Logger {
    var logger = Logger(label: "jewzruxin.tests")
    logger.logLevel = .critical
    return logger
}

/// The HTTPError that `body` throws, or a recorded issue when it throws something else or nothing.
public func httpError(
    sourceLocation: SourceLocation = #_sourceLocation, _ body: () async throws -> Void
) async -> HTTPError? {
    do {
        try await body()
        Issue.record("expected an HTTPError, nothing was thrown", sourceLocation: sourceLocation)
    } catch let error as HTTPError {
        return error
    } catch {
        Issue.record("expected an HTTPError, got \(error)", sourceLocation: sourceLocation)
    }
    return nil
}

/// Decodes the Sandbox's `/inspect` answer.
public struct Inspection: Decodable {
    public var method: String
    public var uri: String
    /// The protocol the server saw: `HTTP/1.1`, `HTTP/2.0`.
    public var version: String
    public var headers: [[String]]
    public var body: String
    public var bodyLength: Int

    public init(_ response: HTTPResponse?) throws {
        try self.init(data: try #require(response?.data))
    }

    /// The inspection in `/inspect`'s body.
    public init(data: Data) throws {
        self = try JSONDecoder().decode(Inspection.self, from: data)
    }

    public func values(_ name: String) -> [String] {
        headers.filter { $0.first?.lowercased() == name.lowercased() }.compactMap { $0.last }
    }
}
