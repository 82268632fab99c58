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

    /// One exchange, through the session's cache when it has one and the response is to be
    /// kept in memory.
    func sendOnce(_ request: HTTPRequest) async throws -> ReceivedResponse {
        if let cache = session.configuration.cache {
            if transfer.isInMemory { return try await exchange(request, through: cache) }
            if let target = transfer.download, !request.headers.contains("Range") {
                return try await download(request, through: cache, into: target)
            }
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

    /// One exchange of a download answered by `cache`: the network's body goes to the
    /// download's file as usual, and a body the cache gives back is copied into it.
    @inline(never)
    private func download(
        _ request: HTTPRequest, through cache: any HTTPResponseCache, into target: DownloadTarget
    ) async throws -> ReceivedResponse {
        let statusPolicy = snapshot.session.values.shouldTreatStatusCodeAsFailure
        let answer = try await cache.download(for: request, session: session) { request in
            let received = try await self.sendToNetwork(request)
            // A failing status or a redirect the cycle follows keeps its body in memory.
            guard received.response.data.isEmpty, let file = target.completedFile() else {
                return HTTPFileResponse(response: received.response, bodyFile: nil, length: received.response.data.count)
            }
            let length = (try? FileManager.default.attributesOfItem(atPath: file.path)[.size] as? NSNumber)?.intValue ?? 0
            return HTTPFileResponse(response: received.response, bodyFile: file, length: length)
        }
        var response = answer.response
        let statusFailed = statusPolicy(response.statusCode)
        let keptInMemory = ResponseCollector.setsAside(
            statusFailed: statusFailed, followsRedirects: session.configuration.followsRedirects, statusCode: response.statusCode,
            headers: response.headers)
        // From the store (or revalidated by a 304, whose empty body went to the file): copy it.
        if response.source != .network, !keptInMemory {
            try target.begin(statusCode: response.statusCode, headers: response.headers, url: response.url, isDecoded: true)
            if let file = answer.bodyFile {
                try Self.copy(answer.length, bytesOf: file, into: target)
            } else {
                try response.data.withUnsafeBytes { try target.write($0) }
            }
            try target.finishWriting()
            response.data = Data()
        }
        return ReceivedResponse(response: response, statusFailed: statusFailed)
    }

    /// Copies the first `length` bytes of `file` into a download, 64 KiB at a time.
    private static func copy(_ length: Int, bytesOf file: URL, into target: DownloadTarget) throws {
        guard let handle = try? FileHandle(forReadingFrom: file) else {
            throw HTTPError.downloadFile(path: file.path, reason: "the cached body is gone")
        }
        defer { try? handle.close() }
        var left = length
        while left > 0 {
            guard let chunk = try handle.read(upToCount: min(left, 1 << 16)), !chunk.isEmpty else {
                throw HTTPError.downloadFile(path: file.path, reason: "the cached body ended early")
            }
            try chunk.withUnsafeBytes { try target.write($0) }
            left -= chunk.count
        }
    }

    /// One exchange on the network, with the session's cookies when it keeps them.
    private func sendToNetwork(_ request: HTTPRequest) async throws -> ReceivedResponse {
        guard let jar = session.configuration.cookieJar else { return try await exchangeOnce(request) }
        return try await exchangeOnce(request, cookies: jar)
    }

    /// One exchange that sends the jar's matching cookies after any the request set itself,
    /// and stores the cookies its response sets.
    @inline(never)
    private func exchangeOnce(_ request: HTTPRequest, cookies jar: HTTPCookieJar) async throws -> ReceivedResponse {
        var request = request
        if let field = jar.cookieField(for: request.url) {
            request.headers["Cookie"] = request.headers["Cookie"].map { "\($0); \(field)" } ?? field
        }
        let received = try await exchangeOnce(request)
        jar.store(received.response.headers.values(for: "Set-Cookie"), from: request.url)
        return received
    }

    /// One exchange, shared with identical GETs in flight when the session coalesces them.
    private func exchangeOnce(_ request: HTTPRequest) async throws -> ReceivedResponse {
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
                statusPolicy: statusPolicy, onBodySent: onBodySent, owner: cycle)
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
        statusPolicy: @escaping @Sendable (Int) -> Bool, onBodySent: (@Sendable (Int) -> Void)?, owner: HTTPCycle?
    ) async throws -> ReceivedResponse {
        let started = logStart(of: request, logger: session.logger)
        var collector = ResponseCollector(
            codings: codings, maximumBodySize: session.configuration.maximumResponseBodySize, destination: destination,
            statusPolicy: statusPolicy, followsRedirects: session.configuration.followsRedirects, owner: owner)
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
    /// ``transfer(_:session:timeout:codings:destination:statusPolicy:onBodySent:owner:)``'s async frame.
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
