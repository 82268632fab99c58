import Foundation
import Logging

// The end of a run: the response's body where the run wants it, the response processors, the
// response on the cycle; or the failure, the partial download, the closing events and the log.
extension RequestRun {
    /// Puts a response's body where the run wants it, the one place that decides: a stream
    /// (still arriving, or a cache's file) is gathered into `data` for a run whose bodies stay
    /// in memory, and for a response whose body always does (a failing status, a redirect to
    /// follow); otherwise it goes to the run's file or reader as it is read, as does a body a
    /// middleware made in memory.
    ///
    /// - Throws: what ended the body, ``HTTPError/Code/responseTooLarge``, the file's errors,
    ///   or ``HTTPError/Code/streamAbandoned`` when the reader went away.
    @inline(never)
    nonisolated(nonsending) func land(_ response: HTTPResponse) async throws -> HTTPResponse {
        var landed = response
        if bodies.isInMemory || keepsInMemory(response) {
            guard let stream = response.stream else { return response }
            let limit = settings.configuration.maximumResponseBodySize
            landed.stream = nil
            if bodies.isInMemory {
                landed.data = try await stream.collect(upTo: limit)
            } else {
                // Set aside as the collector does it: the first bytes, the rest left unread.
                landed.data = try await stream.leadingBytes(upTo: min(limit, ResponseCollector.failureBodyLimit))
            }
            for field in stream.reader.trailingFields() { landed.headers.add(field.value, for: field.name) }
            return landed
        }
        let trailers = try await bodies.destination.deliver(response, body: response.stream ?? HTTPResponseBody(response.data))
        for field in trailers { landed.headers.add(field.value, for: field.name) }
        landed.data = Data()
        landed.stream = nil
        landed.isBodyDelivered = true
        return landed
    }

    /// Processes the final response, hands it to `keep` (which stores it on the cycle) and
    /// hands a finished download its file; a failing status is processed when it can be, and
    /// its error wins.
    ///
    /// - Returns: what `keep` returns.
    /// - Throws: ``HTTPError/Code/statusCode`` with the processed response, a processor's
    ///   failure with the response it could not read, or the download handler's.
    @inline(never)
    func complete<Outcome>(
        _ response: consuming HTTPResponse, statusFailed: Bool, keep: (consuming HTTPResponse) -> Outcome
    ) throws -> Outcome {
        var processingError: (any Error)?
        if !statusFailed, !bodies.isInMemory {
            // The body went to a file or a stream: there is nothing to process.
        } else if !statusFailed {
            do {
                try process(&response)
            } catch {
                processingError = error
            }
        } else {
            try? process(&response)
        }
        try checkCancellation()
        emit(.processed(copy response, elapsed: ClockReading.now - started))
        if statusFailed {
            let failure = HTTPError.statusCode(copy response)
            _ = keep(response)
            throw failure
        }
        if let processingError {
            // The body as it came goes with the error: a one-call form's caller has no cycle to ask.
            guard let failure = processingError as? HTTPError, failure.code == .processor, failure.response == nil else {
                _ = keep(response)
                throw processingError
            }
            let described = failure.about(copy response)
            _ = keep(response)
            throw described
        }
        // Kept before the download's handler runs: it may read the cycle's response.
        let outcome = keep(response)
        if let target = bodies.download, let cycle, let location = target.completedFile() {
            defer { target.removeFile() }
            do {
                try target.download.downloadFile(cycle, location)
            } catch {
                throw HTTPError.downloadHandler(underlying: error)
            }
        }
        return outcome
    }

    /// Runs the response processors; when neither the cycle nor the session names any, the
    /// one the registry has for the Content-Type (unless the request opts out or the body is
    /// empty).
    private func process(_ response: inout HTTPResponse) throws {
        if processesByContentType {
            guard request.appliesContentTypeProcessing, !response.data.isEmpty else { return }
            // An override that does not parse leaves the response's own type in charge.
            let override = request.responseContentTypeOverride.flatMap { MediaType($0) == nil ? nil : $0 }
            guard let contentType = override ?? response.headers["Content-Type"],
                let processor = settings.configuration.processorRegistry.processor(forContentType: contentType)
            else { return }
            try Self.applying(processor) { try processor.process(&response) }
        } else {
            for processor in responseProcessors {
                try Self.applying(processor) { try processor.process(&response) }
            }
        }
    }

    /// Ends a run that failed: a download leaves its partial file only when it can be
    /// continued (and the cycle keeps where to continue from), then the run closes.
    ///
    /// - Returns: the error the run ends with: a cancellation as ``HTTPCycle/cancel(explicitly:)``
    ///   recorded it, never as the network error it may have caused.
    @inline(never)
    func fail(with error: any Error) -> HTTPError {
        if let target = bodies.download {
            cycle?.record(target.abandon(requestURL: request.url), of: generation)
        }
        let failure: HTTPError
        if let recorded = cycle?.recordedCancellation(of: generation) {
            failure = recorded
        } else if Task.isCancelled {
            failure = .cancelled(explicitly: false)
        } else {
            failure = HTTPError(transportError: error)
        }
        close(failure: failure)
        return failure
    }

    /// Closes a run: its body stream, the session's activity, the closing events and the log.
    @inline(never)
    func close(failure: HTTPError?) {
        bodies.channel?.finish(with: failure)
        session.activity.end(activitySlot)
        if let failure {
            if failure.code == .cancelled {
                emit(.cancelled(explicitly: failure.isExplicitCancellation, elapsed: ClockReading.now - started))
            } else {
                emit(.failed(failure, elapsed: ClockReading.now - started))
                logFailure(failure)
            }
        }
        emit(.finished(elapsed: ClockReading.now - started))
    }

    /// Logs a failure at error level with a bounded preview of the body.
    private func logFailure(_ error: HTTPError) {
        let response = error.response ?? cycle?.response
        var metadata: Logger.Metadata = ["method": "\(request.method)", "url": "\(request.url.redactedString)"]
        if let response {
            metadata["status"] = "\(response.statusCode)"
            metadata["body"] = "\(String(decoding: response.data.prefix(512), as: UTF8.self))"
        }
        session.logger.error("\(error)", metadata: metadata)
    }
}
