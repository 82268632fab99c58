import Foundation
import Logging

/// Logs each request it passes on and its outcome with swift-log, one line each way,
/// credentials redacted: user info in URLs, and the values of `Authorization`,
/// `Proxy-Authorization`, `Cookie` and `Set-Cookie` when headers are logged.
///
/// ```swift
/// var logger = Logger(label: "api")
/// logger.logLevel = .debug
/// try session.update { $0.networkMiddleware.append(HTTPLoggingMiddleware(logger: logger, logsHeaders: true)) }
/// // → GET https://api.example.com/items   [headers: Authorization: <redacted>, Accept: application/json]
/// // ← 200 GET https://api.example.com/items in 12.3 ms
/// ```
///
/// As network middleware it logs every attempt and redirect hop as it goes on the wire; as
/// application middleware, each run once, with the final outcome.
public struct HTTPLoggingMiddleware: HTTPMiddleware {
    /// The headers whose values are never logged.
    static let redactedHeaders: Set<String> = ["authorization", "proxy-authorization", "cookie", "set-cookie"]

    let logger: Logger
    let level: Logger.Level
    let logsHeaders: Bool

    public var name: String { "logging" }

    /// A middleware that logs each request and its outcome to `logger`.
    ///
    /// - Parameters:
    ///   - logger: where the lines go.
    ///   - level: the level of the lines; a failure is logged one level higher (at most `.error`).
    ///   - logsHeaders: whether the headers go in the lines' metadata.
    public init(logger: Logger, level: Logger.Level = .info, logsHeaders: Bool = false) {
        self.logger = logger
        self.level = level
        self.logsHeaders = logsHeaders
    }

    /// Logs the request, passes it on, and logs the response or the failure with its time.
    ///
    /// - Throws: what the stages after it threw, unchanged.
    nonisolated(nonsending) public func intercept(_ request: HTTPRequest, next: HTTPNext) async throws -> HTTPResponse {
        guard logger.logLevel <= level else { return try await next(request) }
        let target = "\(request.method) \(request.url.redactedString)"
        logger.log(level: level, "→ \(target)", metadata: metadata(request.headers))
        let started = ClockReading.now
        do {
            let response = try await next(request)
            logger.log(level: level, "← \(response.statusCode) \(target) in \(Self.milliseconds(since: started))", metadata: metadata(response.headers))
            return response
        } catch {
            let failed = Logger.Level.allCases.first { $0 > level && $0 <= .error } ?? level
            logger.log(level: failed, "✗ \(target) after \(Self.milliseconds(since: started)): \(error)")
            throw error
        }
    }

    /// The time since `start`, as a person reads it: `12.3 ms`.
    private static func milliseconds(since start: ClockReading) -> String {
        String(format: "%.1f ms", (ClockReading.now - start).inSeconds * 1000)
    }

    /// The headers as metadata, sensitive values redacted; `nil` when headers are not logged.
    private func metadata(_ headers: HTTPHeaderFields) -> Logger.Metadata? {
        guard logsHeaders else { return nil }
        let lines = headers.map { field in
            "\(field.name): \(Self.redactedHeaders.contains(field.name.lowercased()) ? "<redacted>" : field.value)"
        }
        return ["headers": .array(lines.map { .string($0) })]
    }
}
