import Foundation
import Logging
import Synchronization

// One attempt's exchange: the transport (or a flight shared with identical GETs), the
// content decoding and status verdict of the collector, and the answer to a 401/407 challenge.
extension CycleRun {
    /// Sends the request, answering a 401/407 challenge once per authentication, and follows
    /// redirects when the session does.
    func exchange(_ request: HTTPRequest) async throws -> ReceivedResponse {
        let received = try await answeringChallenges(request)
        guard session.configuration.followsRedirects,
            HTTPResponse.isRedirect(statusCode: received.response.statusCode, headers: received.response.headers)
        else { return received }
        return try await followRedirects(from: received, of: request)
    }

    /// Sends the request with the authentications' credentials, answering a 401/407 challenge
    /// once per authentication.
    func answeringChallenges(_ request: HTTPRequest) async throws -> ReceivedResponse {
        guard !snapshot.authentications.isEmpty else { return try await sendOnce(request) }
        return try await authenticated(request)
    }

    /// The exchange of a request with authentications: their credentials before the send,
    /// their answers to a challenge, then the final response for them to read. Not inlined:
    /// most requests have none, and would carry its copies of the request in their async frame.
    @inline(never)
    private func authenticated(_ request: HTTPRequest) async throws -> ReceivedResponse {
        let authentications = snapshot.authentications
        var request = request
        for authentication in authentications {
            try await Self.applying(authentication) { try await authentication.authorize(&request) }
        }
        try request.validateForSending()
        var received = try await sendOnce(request)
        var sent = request
        // A challenge is answered by sending the request again, which a one-shot body cannot be.
        if [401, 407].contains(received.response.statusCode), request.hasReplayableBody {
            for authentication in authentications {
                var retry = request
                let answers = try await Self.applying(authentication) {
                    try await authentication.respond(to: received.response, retrying: &retry)
                }
                guard answers else { continue }
                try retry.validateForSending()
                received = try await sendOnce(retry)
                sent = retry
                if received.response.statusCode != 401, received.response.statusCode != 407 { break }
            }
        }
        for authentication in authentications {
            try Self.applying(authentication) { try authentication.didReceive(received.response, for: sent) }
        }
        return received
    }

    /// One exchange, through the session's cache when it has one (unless the request asks
    /// for a range, which the cache neither stores nor answers).
    func sendOnce(_ request: HTTPRequest) async throws -> ReceivedResponse {
        if let cache = session.configuration.cache {
            if transfer.isInMemory { return try await exchange(request, through: cache) }
            if !request.headers.contains("Range") { return try await streamedExchange(request, through: cache) }
        }
        return try await sendToNetwork(request)
    }

    /// One exchange answered by `cache`, which may send `request` (or it made conditional) on
    /// the network; the status verdict is taken again, as the response may be a stored one.
    @inline(never)
    private func exchange(_ request: HTTPRequest, through cache: any HTTPResponseCache) async throws -> ReceivedResponse {
        let response = try await cache.response(for: request, session: session) { request in
            try await self.sendToNetwork(request).response
        }
        return ReceivedResponse(response: response, statusFailed: snapshot.session.values.shouldTreatStatusCodeAsFailure(response.statusCode))
    }

    /// One exchange of a download or a stream answered by `cache`: the network's body goes
    /// to the file or the reader as usual, copied to the cache as it arrives, and a body the
    /// cache gives back goes there in pieces.
    @inline(never)
    private func streamedExchange(_ request: HTTPRequest, through cache: any HTTPResponseCache) async throws -> ReceivedResponse {
        let statusPolicy = snapshot.session.values.shouldTreatStatusCodeAsFailure
        let answer = try await cache.streamedResponse(for: request, session: session) { request, keeper in
            try await self.sendToNetwork(request, keeper: keeper).response
        }
        var response = answer.response
        let statusFailed = statusPolicy(response.statusCode)
        let keptInMemory = ResponseCollector.setsAside(
            statusFailed: statusFailed, followsRedirects: session.configuration.followsRedirects, statusCode: response.statusCode,
            headers: response.headers)
        // From the store, or a 304 the collector held back for the cache: give it out.
        if response.source != .network || response.statusCode == 304, !keptInMemory {
            try await deliver(answer, to: transfer.destination)
            response.data = Data()
        }
        return ReceivedResponse(response: response, statusFailed: statusFailed)
    }

    /// Gives a body the cache answered with to the download's file or the stream's reader, as
    /// the network's would have gone, 64 KiB at a time.
    private func deliver(_ answer: HTTPFileResponse, to destination: ResponseDestination) async throws {
        var head = answer.response
        head.data = Data()
        switch destination {
        case .memory: return
        case .file(let target): try target.begin(statusCode: head.statusCode, headers: head.headers, url: head.url, isDecoded: true)
        case .stream(let channel): channel.deliverHead(head)
        }
        var chunks = try StoredBodyChunks(answer)
        while let chunk = try chunks.next() {
            switch destination {
            case .memory: return
            case .file(let target): try chunk.withUnsafeBytes { try target.write($0) }
            case .stream(let channel):
                try await channel.waitForDemand()
                try channel.enqueue(chunk)
            }
        }
        if case .file(let target) = destination { try target.finishWriting() }
    }

    /// One exchange on the network, with the session's cookies when it keeps them.
    /// - Parameter keeper: where a cache wants a copy of a streamed body.
    private func sendToNetwork(_ request: HTTPRequest, keeper: HTTPBodyKeeper? = nil) async throws -> ReceivedResponse {
        guard let jar = session.configuration.cookieJar else { return try await exchangeOnce(request, keeper: keeper) }
        return try await exchangeOnce(request, cookies: jar, keeper: keeper)
    }

    /// One exchange that sends the jar's matching cookies after any the request set itself,
    /// and stores the cookies its response sets.
    @inline(never)
    private func exchangeOnce(_ request: HTTPRequest, cookies jar: HTTPCookieJar, keeper: HTTPBodyKeeper?) async throws -> ReceivedResponse {
        var request = request
        if let field = jar.cookieField(for: request.url) {
            request.headers["Cookie"] = request.headers["Cookie"].map { "\($0); \(field)" } ?? field
        }
        let received = try await exchangeOnce(request, keeper: keeper)
        jar.store(received.response.headers.values(for: "Set-Cookie"), from: request.url)
        return received
    }

    /// One exchange, shared with identical GETs in flight when the session coalesces them.
    private func exchangeOnce(_ request: HTTPRequest, keeper: HTTPBodyKeeper?) async throws -> ReceivedResponse {
        // The fields one by one: a copy of `values` would retain and release each of them, on
        // objects every concurrent run shares.
        let settings = snapshot.session
        let transfer = transfer
        let session = session
        let codings = settings.values.contentCodings
        let statusPolicy = settings.values.shouldTreatStatusCodeAsFailure
        let timeout = try remainingTime()
        let cycle = cycle
        guard request.method == .get, settings.values.coalescesIdenticalGETs, transfer.isInMemory else {
            let onBodySent = transfer.didSendBodyData.map { handler in
                Self.progressReporter(for: cycle, expecting: request.body?.knownLength, handler: handler)
            }
            return try await Self.transfer(
                request, session: session, timeout: timeout, codings: codings, destination: transfer.destination,
                statusPolicy: statusPolicy, onBodySent: onBodySent, owner: cycle, keeper: keeper)
        }
        let monitors = snapshot.eventMonitors
        return try await session.coalescer.response(for: request) {
            cycle.emit(.requestCoalesced(request), to: monitors)
        } exchange: {
            try await Self.transfer(
                request, session: session, timeout: timeout, codings: codings, destination: .memory, statusPolicy: statusPolicy,
                onBodySent: nil, owner: nil)
        }
    }

    /// Adds up the sizes a transport reports into the seed's progress callback.
    private static func progressReporter(
        for cycle: HTTPCycle, expecting length: Int?, handler: @escaping HTTPCycle.DidSendBodyDataHandler
    ) -> @Sendable (Int) -> Void {
        let total = Atomic<Int64>(0)
        let expected = length.map(Int64.init)
        return { count in
            let sent = total.add(Int64(count), ordering: .relaxed).newValue
            handler(cycle, Int64(count), sent, expected)
        }
    }

    /// One exchange on the session's transport, content-decoded, with the status verdict.
    @inline(never)
    private static func transfer(
        _ request: HTTPRequest, session: HTTPSession, timeout: Duration?, codings: ContentCodingRegistry,
        destination: ResponseDestination,
        statusPolicy: @escaping @Sendable (Int) -> Bool, onBodySent: (@Sendable (Int) -> Void)?, owner: HTTPCycle?,
        keeper: HTTPBodyKeeper? = nil
    ) async throws -> ReceivedResponse {
        let started = logStart(of: request, logger: session.logger)
        var collector = ResponseCollector(
            codings: codings, maximumBodySize: session.configuration.maximumResponseBodySize, destination: destination,
            statusPolicy: statusPolicy, followsRedirects: session.configuration.followsRedirects, owner: owner,
            keeper: keeper)
        let received: ReceivedResponse
        do {
            if let transport = session.defaultTransport {
                try await transport.send(request, timeout: timeout, onBodySent: onBodySent, to: &collector)
            } else {
                try await session.transport.send(request, timeout: timeout, onBodySent: onBodySent, to: &collector)
            }
            received = try collector.finish()
        } catch {
            // A failing status's body was cut at its limit: the status is the outcome.
            guard let cut = collector.received(afterCut: error) else { throw error }
            received = cut
        }
        if let started { logEnd(of: request, response: received.response, started: started, logger: session.logger) }
        return received
    }

    /// Logs a request going out at debug level, and returns when it went when that level
    /// prints (the clock is read only then). Not inlined, as the log's temporaries would widen
    /// ``transfer(_:session:timeout:codings:destination:statusPolicy:onBodySent:owner:keeper:)``'s async frame.
    @inline(never)
    private static func logStart(of request: HTTPRequest, logger: Logger) -> ContinuousClock.Instant? {
        guard logger.logLevel <= .debug else { return nil }
        logger.debug("\(request.method) \(request.url.redactedString)")
        return .now
    }

    /// Logs a response and how long its exchange took, at debug level.
    @inline(never)
    private static func logEnd(of request: HTTPRequest, response: HTTPResponse, started: ContinuousClock.Instant, logger: Logger) {
        logger.debug("\(response.statusCode) \(request.method) \(request.url.redactedString) in \(.now - started)")
    }
}
