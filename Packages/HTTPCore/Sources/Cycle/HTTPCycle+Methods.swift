// One pair per method (async and completion-handler forms), each forwarding to `send(_:_:…)`.
extension HTTPCycle {
    /// Sends a GET request and returns the finished cycle. See ``send(_:_:parameters:requestObject:requestProcessors:responseProcessors:authentications:solicited:retryPolicy:session:)``.
    @discardableResult
    public static func get(
        _ urlString: String, parameters: QueryParameters = [:], requestObject: (any Sendable)? = nil,
        requestProcessors: [any HTTPProcessor]? = nil, responseProcessors: [any HTTPProcessor]? = nil,
        authentications: [any HTTPAuthentication]? = nil, solicited: Bool = false, retryPolicy: RetryPolicy? = nil,
        session: HTTPSession = .default
    ) async throws -> HTTPCycle {
        try await send(
            .get, urlString, parameters: parameters, requestObject: requestObject,
            requestProcessors: requestProcessors, responseProcessors: responseProcessors,
            authentications: authentications, solicited: solicited, retryPolicy: retryPolicy, session: session)
    }

    /// Sends a GET request, returns the cycle at once and calls `completion` when done.
    @discardableResult
    public static func get(
        _ urlString: String, parameters: QueryParameters = [:], requestObject: (any Sendable)? = nil,
        requestProcessors: [any HTTPProcessor]? = nil, responseProcessors: [any HTTPProcessor]? = nil,
        authentications: [any HTTPAuthentication]? = nil, solicited: Bool = false, retryPolicy: RetryPolicy? = nil,
        session: HTTPSession = .default, completion: @escaping Completion
    ) throws -> HTTPCycle {
        try send(
            .get, urlString, parameters: parameters, requestObject: requestObject,
            requestProcessors: requestProcessors, responseProcessors: responseProcessors,
            authentications: authentications, solicited: solicited, retryPolicy: retryPolicy, session: session,
            completion: completion)
    }

    /// Sends a POST request and returns the finished cycle. See ``send(_:_:parameters:requestObject:requestProcessors:responseProcessors:authentications:solicited:retryPolicy:session:)``.
    @discardableResult
    public static func post(
        _ urlString: String, parameters: QueryParameters = [:], requestObject: (any Sendable)? = nil,
        requestProcessors: [any HTTPProcessor]? = nil, responseProcessors: [any HTTPProcessor]? = nil,
        authentications: [any HTTPAuthentication]? = nil, solicited: Bool = false, retryPolicy: RetryPolicy? = nil,
        session: HTTPSession = .default
    ) async throws -> HTTPCycle {
        try await send(
            .post, urlString, parameters: parameters, requestObject: requestObject,
            requestProcessors: requestProcessors, responseProcessors: responseProcessors,
            authentications: authentications, solicited: solicited, retryPolicy: retryPolicy, session: session)
    }

    /// Sends a POST request, returns the cycle at once and calls `completion` when done.
    @discardableResult
    public static func post(
        _ urlString: String, parameters: QueryParameters = [:], requestObject: (any Sendable)? = nil,
        requestProcessors: [any HTTPProcessor]? = nil, responseProcessors: [any HTTPProcessor]? = nil,
        authentications: [any HTTPAuthentication]? = nil, solicited: Bool = false, retryPolicy: RetryPolicy? = nil,
        session: HTTPSession = .default, completion: @escaping Completion
    ) throws -> HTTPCycle {
        try send(
            .post, urlString, parameters: parameters, requestObject: requestObject,
            requestProcessors: requestProcessors, responseProcessors: responseProcessors,
            authentications: authentications, solicited: solicited, retryPolicy: retryPolicy, session: session,
            completion: completion)
    }

    /// Sends a PUT request and returns the finished cycle. See ``send(_:_:parameters:requestObject:requestProcessors:responseProcessors:authentications:solicited:retryPolicy:session:)``.
    @discardableResult
    public static func put(
        _ urlString: String, parameters: QueryParameters = [:], requestObject: (any Sendable)? = nil,
        requestProcessors: [any HTTPProcessor]? = nil, responseProcessors: [any HTTPProcessor]? = nil,
        authentications: [any HTTPAuthentication]? = nil, solicited: Bool = false, retryPolicy: RetryPolicy? = nil,
        session: HTTPSession = .default
    ) async throws -> HTTPCycle {
        try await send(
            .put, urlString, parameters: parameters, requestObject: requestObject,
            requestProcessors: requestProcessors, responseProcessors: responseProcessors,
            authentications: authentications, solicited: solicited, retryPolicy: retryPolicy, session: session)
    }

    /// Sends a PUT request, returns the cycle at once and calls `completion` when done.
    @discardableResult
    public static func put(
        _ urlString: String, parameters: QueryParameters = [:], requestObject: (any Sendable)? = nil,
        requestProcessors: [any HTTPProcessor]? = nil, responseProcessors: [any HTTPProcessor]? = nil,
        authentications: [any HTTPAuthentication]? = nil, solicited: Bool = false, retryPolicy: RetryPolicy? = nil,
        session: HTTPSession = .default, completion: @escaping Completion
    ) throws -> HTTPCycle {
        try send(
            .put, urlString, parameters: parameters, requestObject: requestObject,
            requestProcessors: requestProcessors, responseProcessors: responseProcessors,
            authentications: authentications, solicited: solicited, retryPolicy: retryPolicy, session: session,
            completion: completion)
    }

    /// Sends a PATCH request and returns the finished cycle. See ``send(_:_:parameters:requestObject:requestProcessors:responseProcessors:authentications:solicited:retryPolicy:session:)``.
    @discardableResult
    public static func patch(
        _ urlString: String, parameters: QueryParameters = [:], requestObject: (any Sendable)? = nil,
        requestProcessors: [any HTTPProcessor]? = nil, responseProcessors: [any HTTPProcessor]? = nil,
        authentications: [any HTTPAuthentication]? = nil, solicited: Bool = false, retryPolicy: RetryPolicy? = nil,
        session: HTTPSession = .default
    ) async throws -> HTTPCycle {
        try await send(
            .patch, urlString, parameters: parameters, requestObject: requestObject,
            requestProcessors: requestProcessors, responseProcessors: responseProcessors,
            authentications: authentications, solicited: solicited, retryPolicy: retryPolicy, session: session)
    }

    /// Sends a PATCH request, returns the cycle at once and calls `completion` when done.
    @discardableResult
    public static func patch(
        _ urlString: String, parameters: QueryParameters = [:], requestObject: (any Sendable)? = nil,
        requestProcessors: [any HTTPProcessor]? = nil, responseProcessors: [any HTTPProcessor]? = nil,
        authentications: [any HTTPAuthentication]? = nil, solicited: Bool = false, retryPolicy: RetryPolicy? = nil,
        session: HTTPSession = .default, completion: @escaping Completion
    ) throws -> HTTPCycle {
        try send(
            .patch, urlString, parameters: parameters, requestObject: requestObject,
            requestProcessors: requestProcessors, responseProcessors: responseProcessors,
            authentications: authentications, solicited: solicited, retryPolicy: retryPolicy, session: session,
            completion: completion)
    }

    /// Sends a DELETE request and returns the finished cycle. See ``send(_:_:parameters:requestObject:requestProcessors:responseProcessors:authentications:solicited:retryPolicy:session:)``.
    @discardableResult
    public static func delete(
        _ urlString: String, parameters: QueryParameters = [:], requestObject: (any Sendable)? = nil,
        requestProcessors: [any HTTPProcessor]? = nil, responseProcessors: [any HTTPProcessor]? = nil,
        authentications: [any HTTPAuthentication]? = nil, solicited: Bool = false, retryPolicy: RetryPolicy? = nil,
        session: HTTPSession = .default
    ) async throws -> HTTPCycle {
        try await send(
            .delete, urlString, parameters: parameters, requestObject: requestObject,
            requestProcessors: requestProcessors, responseProcessors: responseProcessors,
            authentications: authentications, solicited: solicited, retryPolicy: retryPolicy, session: session)
    }

    /// Sends a DELETE request, returns the cycle at once and calls `completion` when done.
    @discardableResult
    public static func delete(
        _ urlString: String, parameters: QueryParameters = [:], requestObject: (any Sendable)? = nil,
        requestProcessors: [any HTTPProcessor]? = nil, responseProcessors: [any HTTPProcessor]? = nil,
        authentications: [any HTTPAuthentication]? = nil, solicited: Bool = false, retryPolicy: RetryPolicy? = nil,
        session: HTTPSession = .default, completion: @escaping Completion
    ) throws -> HTTPCycle {
        try send(
            .delete, urlString, parameters: parameters, requestObject: requestObject,
            requestProcessors: requestProcessors, responseProcessors: responseProcessors,
            authentications: authentications, solicited: solicited, retryPolicy: retryPolicy, session: session,
            completion: completion)
    }

    /// Sends a HEAD request and returns the finished cycle. See ``send(_:_:parameters:requestObject:requestProcessors:responseProcessors:authentications:solicited:retryPolicy:session:)``.
    @discardableResult
    public static func head(
        _ urlString: String, parameters: QueryParameters = [:], requestObject: (any Sendable)? = nil,
        requestProcessors: [any HTTPProcessor]? = nil, responseProcessors: [any HTTPProcessor]? = nil,
        authentications: [any HTTPAuthentication]? = nil, solicited: Bool = false, retryPolicy: RetryPolicy? = nil,
        session: HTTPSession = .default
    ) async throws -> HTTPCycle {
        try await send(
            .head, urlString, parameters: parameters, requestObject: requestObject,
            requestProcessors: requestProcessors, responseProcessors: responseProcessors,
            authentications: authentications, solicited: solicited, retryPolicy: retryPolicy, session: session)
    }

    /// Sends a HEAD request, returns the cycle at once and calls `completion` when done.
    @discardableResult
    public static func head(
        _ urlString: String, parameters: QueryParameters = [:], requestObject: (any Sendable)? = nil,
        requestProcessors: [any HTTPProcessor]? = nil, responseProcessors: [any HTTPProcessor]? = nil,
        authentications: [any HTTPAuthentication]? = nil, solicited: Bool = false, retryPolicy: RetryPolicy? = nil,
        session: HTTPSession = .default, completion: @escaping Completion
    ) throws -> HTTPCycle {
        try send(
            .head, urlString, parameters: parameters, requestObject: requestObject,
            requestProcessors: requestProcessors, responseProcessors: responseProcessors,
            authentications: authentications, solicited: solicited, retryPolicy: retryPolicy, session: session,
            completion: completion)
    }

}
