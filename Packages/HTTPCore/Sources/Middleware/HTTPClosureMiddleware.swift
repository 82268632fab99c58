/// A middleware made of a closure, for one-liners.
///
/// ```swift
/// try session.update { configuration in
///     configuration.networkMiddleware.append(HTTPClosureMiddleware("timing") { request, next in
///         let started = ContinuousClock.now
///         defer { print(request.url, ContinuousClock.now - started) }
///         return try await next(request)
///     })
/// }
/// ```
public struct HTTPClosureMiddleware: HTTPMiddleware {
    typealias Intercept = @Sendable (HTTPRequest, HTTPNext) async throws -> HTTPResponse

    public let name: String
    private let body: Intercept

    /// A middleware that runs `intercept` for every request it sees.
    ///
    /// - Parameters:
    ///   - name: what `jewz -v` and the stage events call it.
    ///   - intercept: the step itself, as ``HTTPMiddleware/intercept(_:next:)``.
    public init(_ name: String = "closure", _ intercept: @escaping @Sendable (HTTPRequest, HTTPNext) async throws -> HTTPResponse) {
        self.name = name
        body = intercept
    }

    public func intercept(_ request: HTTPRequest, next: HTTPNext) async throws -> HTTPResponse {
        try await body(request, next)
    }
}
