import Foundation

/// Collects a response for a call: undoes its content codings as the body arrives and puts
/// the decoded bytes into memory or straight into the channel the stream is read from.
///
/// A response whose status fails the cycle is always kept in memory, so that its body can be
/// read, logged and processed like any other — but only its first ``failureBodyLimit`` bytes:
/// past them the exchange ends (``BodyCut``) and the status error stands with what arrived.
/// A redirect the cycle will follow, and a 304, are set aside the same way: their bodies never
/// reach a file or a stream.
struct ResponseCollector: HTTPResponseReceiver {
    /// The most a failing status's or a followed redirect's body keeps in memory (less when
    /// the session's limit is lower).
    static let failureBodyLimit = 1 << 20

    /// Thrown to end an exchange whose failing status has all the body it keeps: not a
    /// failure, see ``received(afterCut:)``.
    struct BodyCut: Error {}

    private let codings: ContentCodingRegistry
    private let maximumBodySize: Int
    private let statusPolicy: @Sendable (Int) -> Bool
    private let followsRedirects: Bool
    /// Kept in memory, cut at ``failureBodyLimit``: a failing status or a followed redirect.
    private var setAside = false
    /// Where a streamed body goes; `nil` for memory.
    private var bridge: ResponseBodyChannel?
    private var statusCode = 0
    private var headers = HTTPHeaderFields()
    private var url: URL?
    private var body = Data()
    private var decoders: ContentDecoderChain?
    private var receivedBody = false
    private var version: HTTPVersion?
    /// The call that stops the exchange when it is cancelled; `nil` for a shared (coalesced)
    /// exchange, which one waiter's cancel must not stop.
    private let owner: HTTPCall?

    /// A collector for one exchange of `run`: a shared (coalesced) exchange keeps its body in
    /// memory and belongs to no one call; one with a `bridge` puts its body there, for the
    /// stages above to read.
    init(for call: HTTPCall, shared: Bool, bridge: ResponseBodyChannel?) {
        let settings = call.settings
        followsRedirects = settings.configuration.followsRedirects
        owner = shared ? nil : call
        codings = settings.configuration.contentCodings
        maximumBodySize = settings.configuration.maximumResponseBodySize
        self.bridge = shared ? nil : bridge
        statusPolicy = settings.configuration.shouldTreatStatusCodeAsFailure
    }

    /// Whether the response's head arrived: before it, the server said nothing.
    var hasReceivedHead: Bool { statusCode != 0 }

    mutating func receiveVersion(_ version: HTTPVersion) {
        self.version = version
    }

    mutating func exchangeDidStart(_ exchange: any HTTPExchangeCancelling) {
        owner?.attach(exchange)
    }

    /// - Throws: ``HTTPError/Code/responseTooLarge`` when a body bound for memory announces a
    ///   length past the limit; ``HTTPError/Code/contentDecoding`` for codings that cannot be
    ///   undone; the download's errors.
    mutating func receiveHead(statusCode: Int, headers: HTTPHeaderFields, url: URL?) throws {
        guard (100...999).contains(statusCode) else {
            throw HTTPError.invalidResponse(reason: "status code \(statusCode) is not three digits from 100 to 999")
        }
        self.statusCode = statusCode
        self.headers = headers
        self.url = url
        decoders = try ContentDecoderChain(headers: headers, codings: codings)
        let statusFailed = statusPolicy(statusCode)
        setAside = Self.setsAside(statusFailed: statusFailed, followsRedirects: followsRedirects, statusCode: statusCode, headers: headers)
        // A 304 has no body to stream; under a cache it is the cache's to answer.
        if statusCode == 304 { setAside = true }
        if setAside { bridge = nil }
        if let bridge {
            bridge.deliverHead(response(data: Data()), bodyFollows: true)
        } else if !setAside, decoders == nil, let length = headers["Content-Length"].flatMap(Int.init), length > maximumBodySize {
            // A body announced larger than the limit is refused before a byte of it is read.
            throw HTTPError.responseTooLarge(limit: maximumBodySize)
        }
    }

    mutating func receiveBody(_ chunk: UnsafeRawBufferPointer) throws {
        receivedBody = true
        if let decoders {
            let decoded = try decoders.decode(chunk, finishing: false)
            try decoded.withUnsafeBytes { try deliver($0) }
        } else {
            try deliver(chunk)
        }
    }

    /// Hands the parts delivered since the last call to the reader, as one chunk (it wakes
    /// once per batch the transport delivers, not once per part), and waits while the
    /// channel is full.
    nonisolated(nonsending) mutating func waitForDemand() async throws {
        guard let bridge else { return }
        bridge.flush()
        try await bridge.waitForDemand()
    }

    /// Whether a body stays in memory whatever the destination: a failing status's, or a
    /// redirect's the call follows.
    static func setsAside(statusFailed: Bool, followsRedirects: Bool, statusCode: Int, headers: HTTPHeaderFields) -> Bool {
        statusFailed || (followsRedirects && HTTPResponse.isRedirect(statusCode: statusCode, headers: headers))
    }

    /// Ends the body: the decoders see the end of their input. Then ``response()`` holds the
    /// whole response.
    mutating func finish() throws {
        if receivedBody, let decoders {
            let decoded = try decoders.decode(UnsafeRawBufferPointer(start: nil, count: 0), finishing: true)
            try decoded.withUnsafeBytes { try deliver($0) }
        }
        bridge?.flush()
    }

    /// The complete response, its parts moved out of the collector rather than copied. A body
    /// that went into the bridge is not in its ``HTTPResponse/data``.
    consuming func response() -> HTTPResponse {
        response(data: body)
    }

    /// The set-aside response as far as it was kept, when `error` is the ``BodyCut`` that ended
    /// its exchange (as the transport threw it, or wrapped); `nil` for any other error.
    func received(afterCut error: any Error) -> HTTPResponse? {
        guard error is BodyCut || (error as? HTTPError)?.underlying is BodyCut else { return nil }
        return response(data: body)
    }

    /// `error` with the response as far as it arrived, when it broke a body bound for memory
    /// after some of it came (a connection lost, a timeout); else `error` as it is.
    func attachingWhatArrived(to error: any Error) -> any Error {
        guard let failure = error as? HTTPError, failure.code == .connectionLost || failure.code == .timedOut,
            hasReceivedHead, bridge == nil, !setAside, !body.isEmpty
        else { return error }
        return failure.about(response(data: body))
    }

    /// The response as received so far, with `data` as its body.
    private func response(data: Data) -> HTTPResponse {
        var response = HTTPResponse(statusCode: statusCode, headers: headers, body: HTTPResponseBody(data), url: url)
        response.version = version
        return response
    }

    private mutating func deliver(_ bytes: UnsafeRawBufferPointer) throws {
        if let bridge {
            try bridge.append(bytes)
        } else if setAside {
            let room = min(maximumBodySize, Self.failureBodyLimit) - body.count
            body.append(contentsOf: bytes.prefix(room))
            if bytes.count > room { throw BodyCut() }
        } else {
            body.append(contentsOf: bytes)
            if body.count > maximumBodySize { throw HTTPError.responseTooLarge(limit: maximumBodySize) }
        }
    }
}

extension HTTPSession.Configuration {
    /// Whether `response`'s body stays in memory whatever the call asked for: a failing status's,
    /// or a redirect's the session follows. The collector sets such a body aside as it arrives;
    /// one that came up the path as a stream (a cache's file) is gathered at the call's top.
    func keepsBodyInMemory(of response: HTTPResponse) -> Bool {
        ResponseCollector.setsAside(
            statusFailed: shouldTreatStatusCodeAsFailure(response.statusCode), followsRedirects: followsRedirects,
            statusCode: response.statusCode, headers: response.headers)
    }
}
