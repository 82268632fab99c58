import struct Synchronization.Atomic

// What the stages ask of the call they work for.
extension HTTPCall {
    /// How long the next exchange may take: what is left of the call's deadline.
    ///
    /// - Throws: ``HTTPError/timedOut`` when nothing is left.
    func remainingTime() throws -> Duration? {
        guard let deadline else { return nil }
        let remaining = deadline - ClockReading.now
        guard remaining > .zero else { throw HTTPError.timedOut }
        return remaining
    }

    /// Whether the call's body goes up the path as a stream (for a file or a reader) rather
    /// than whole: what the transport stage, which hands the body to its sink, asks; the call's
    /// top then puts it where it goes (`land`).
    var streamsBody: Bool { !destination.isInMemory }

    /// Whether the session's status policy fails the call for `response`.
    func statusFails(_ response: HTTPResponse) -> Bool {
        settings.configuration.shouldTreatStatusCodeAsFailure(response.statusCode)
    }

    /// Reports an attempt going out.
    @inline(never)
    func emitAttempt(_ request: HTTPRequest, number: Int) {
        emit(.requestSent(request, attempt: number, elapsed: ClockReading.now - started))
    }

    /// Reports an attempt's response, and returns the failure it is when its status fails the
    /// call (the response on the error).
    @inline(never)
    func failure(of response: HTTPResponse, attempt: Int) -> HTTPError? {
        emit(.responseReceived(response, attempt: attempt, elapsed: ClockReading.now - started))
        return statusFails(response) ? .statusCode(response) : nil
    }

    /// Adds up the sizes a transport reports into the options' upload progress handler; `nil`
    /// when there is none.
    func uploadProgressReporter(for request: HTTPRequest) -> (@Sendable (Int) -> Void)? {
        guard let handler = didSendBodyData else { return nil }
        let total = Atomic<Int64>(0)
        let expected = request.body?.knownLength.map(Int64.init)
        return { count in
            let sent = total.add(Int64(count), ordering: .relaxed).newValue
            handler(Int64(count), sent, expected)
        }
    }

    /// Tells the session's monitors; the event is built only when someone listens.
    func emit(_ event: @autoclosure () -> HTTPEvent) {
        guard !monitors.isEmpty else { return }
        let event = event()
        for monitor in monitors {
            monitor.call(self, didEmit: event)
        }
    }
}
