/// Sets headers on every request it passes on: fixed ones, or one whose value is computed per
/// request (a request id, a fresh API key, a date for a signature).
///
/// ```swift
/// try session.update { configuration in
///     configuration.middleware.append(HTTPHeaderMiddleware(["X-Client": "example/1.0"]))
///     configuration.networkMiddleware.append(HTTPHeaderMiddleware("X-Request-ID") { _ in UUID().uuidString })
/// }
/// ```
///
/// As application middleware it sets them once per run; as network middleware, on every
/// attempt and redirect hop (a hop to another origin included: give credentials through an
/// ``HTTPAuthentication`` or a ``HTTPCredentialProcessor``, which stay with their origin, or a
/// middleware that asks ``HTTPNext/mayCarryCredentials(to:)``). A request that already has a header
/// keeps its own unless the middleware replaces.
public struct HTTPHeaderMiddleware: HTTPMiddleware {
    /// Computes a header's value for a request; `nil` sets nothing.
    typealias Value = @Sendable (HTTPRequest) async throws -> String?

    private enum Source: Sendable {
        case fixed(HTTPHeaderFields)
        case computed(name: String, Value)
    }

    private let source: Source
    private let replaces: Bool

    public var name: String { "headers" }

    /// Sets `headers` on every request.
    ///
    /// - Parameters:
    ///   - headers: the fields to set.
    ///   - replacing: `true` replaces a header the request has; `false` (the default) leaves it
    ///     as the request set it.
    public init(_ headers: HTTPHeaderFields, replacing: Bool = false) {
        source = .fixed(headers)
        replaces = replacing
    }

    /// Sets the header `name` to what `value` computes for each request.
    public init(_ name: String, replacing: Bool = false, value: @escaping @Sendable (HTTPRequest) async throws -> String?) {
        source = .computed(name: name, value)
        replaces = replacing
    }

    /// Adds the headers to `request` where it has none of that name, then passes it on.
    ///
    /// - Throws: what a computed value throws (the call ends with it, named for this
    ///   middleware), and the errors of the stages after it.
    nonisolated(nonsending) public func intercept(_ request: HTTPRequest, next: HTTPNext) async throws -> HTTPResponse {
        var request = request
        switch source {
        case .fixed(let headers):
            for field in headers where replaces || !request.headers.contains(field.name) {
                request.headers[field.name] = field.value
            }
        case .computed(let name, let value):
            if replaces || !request.headers.contains(name), let computed = try await value(request) {
                request.headers[name] = computed
            }
        }
        return try await next(request)
    }
}
