extension HTTPCycle {
    /// What a cycle uses instead of its session's settings: each `nil` (and `solicited` false)
    /// leaves the session's in charge.
    ///
    /// ```swift
    /// let cycle = try await HTTPCycle.post(
    ///     url, requestObject: order, options: .init(requestProcessors: [HTTPJSONProcessor()], retryPolicy: .never))
    /// ```
    public struct Options: Sendable {
        public var requestProcessors: [any HTTPRequestProcessor]?
        /// An empty list turns response processing off.
        public var responseProcessors: [any HTTPResponseProcessor]?
        public var authentications: [any HTTPAuthentication]?
        public var retryPolicy: RetryPolicy? {
            get { retryPolicyStorage.wrappedValue }
            set { retryPolicyStorage.wrappedValue = newValue }
        }
        // Out of line: a one-call form holds its options across the whole exchange, and an
        // inline policy (a set, durations, a closure) was copied and destroyed field by field.
        private(set) var retryPolicyStorage: OutOfLine<RetryPolicy>
        /// Whether a person asked for this request, so that it is retried until data arrives.
        public var solicited: Bool

        public init(
            requestProcessors: [any HTTPRequestProcessor]? = nil, responseProcessors: [any HTTPResponseProcessor]? = nil,
            authentications: [any HTTPAuthentication]? = nil, retryPolicy: RetryPolicy? = nil, solicited: Bool = false
        ) {
            self.requestProcessors = requestProcessors
            self.responseProcessors = responseProcessors
            self.authentications = authentications
            retryPolicyStorage = OutOfLine(wrappedValue: retryPolicy)
            self.solicited = solicited
        }
    }
}
