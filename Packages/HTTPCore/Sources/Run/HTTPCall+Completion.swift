import Foundation
import Logging

// The end of a call: the response's body where the call wants it, the response processors; or
// the failure, the partial download, the closing events and the log.
extension HTTPCall {
    /// Puts a response's body where the call wants it, the one place that decides: a stream
    /// (still arriving, or a cache's file) is gathered into bytes for a call whose body stays
    /// in memory, and for a response whose body always does (a failing status, a redirect to
    /// follow); a body for the caller's reader leaves as a stream (one made in memory too);
    /// a download's goes to its file as it is read.
    ///
    /// - Throws: what ended the body, ``HTTPError/Code/responseTooLarge``, or the file's errors.
    @inline(never)
    nonisolated(nonsending) func land(_ response: HTTPResponse) async throws -> HTTPResponse {
        var landed = response
        let inMemory = destination.isInMemory
        if inMemory || settings.configuration.keepsBodyInMemory(of: response) {
            let stream = response.body
            guard stream.isStream else { return response }
            let limit = settings.configuration.maximumResponseBodySize
            if inMemory {
                landed.data = try await stream.collect(upTo: limit)
            } else {
                // Set aside as the collector does it: the first bytes, the rest left unread.
                landed.data = try await stream.leadingBytes(upTo: min(limit, ResponseCollector.failureBodyLimit))
            }
            for field in stream.trailingFields { landed.headers.add(field.value, for: field.name) }
            return landed
        }
        // The caller reads it as it is, bytes (a middleware's) or a stream.
        guard let target = destination.download else { return landed }
        let trailers = try await target.write(response.body, of: response)
        for field in trailers { landed.headers.add(field.value, for: field.name) }
        // The body is in the file; what goes on up is the head.
        landed.body = HTTPResponseBody(Data())
        return landed
    }

    /// Processes the final response and hands a finished download its file; a failing status
    /// is processed when it can be, and its error wins.
    ///
    /// - Throws: ``HTTPError/Code/statusCode`` with the processed response, a processor's
    ///   failure with the response it could not read, or the download handler's.
    @inline(never)
    func complete(_ response: consuming HTTPResponse, statusFailed: Bool) throws -> HTTPResponse {
        var processingError: (any Error)?
        if !statusFailed, !destination.isInMemory {
            // The body went to a file or a reader: there is nothing to process.
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
        // A body handed to the reader is not processed, and its call is not over.
        if case .stream = destination, !statusFailed {} else { emit(.processed(copy response, elapsed: ClockReading.now - started)) }
        if statusFailed { throw HTTPError.statusCode(response) }
        if let processingError {
            // The body as it came goes with the error: a caller of `send` has nothing else to ask.
            guard let failure = processingError as? HTTPError, failure.code == .processor, failure.response == nil else {
                throw processingError
            }
            throw failure.about(response)
        }
        if let target = destination.download, let location = target.completedFile() {
            defer { target.removeFile() }
            do {
                try target.download.downloadFile(copy response, location)
            } catch {
                throw HTTPError.downloadHandler(underlying: error)
            }
        }
        return response
    }

    /// Runs the response processors; when neither the options nor the session names any, the
    /// one the registry has for the Content-Type (unless the body is empty).
    private func process(_ response: inout HTTPResponse) throws {
        if processesByContentType {
            guard !response.data.isEmpty else { return }
            // An override that does not parse leaves the response's own type in charge.
            let override = responseContentTypeOverride.flatMap { MediaType($0) == nil ? nil : $0 }
            guard let contentType = override ?? response.headers["Content-Type"],
                let processor = settings.configuration.processorRegistry.processor(forContentType: contentType, warning: settings.configuration.logger)
            else { return }
            try Self.applying(processor) { try processor.process(&response) }
        } else {
            for processor in responseProcessors {
                try Self.applying(processor) { try processor.process(&response) }
            }
        }
    }

    /// Ends a call that failed: a download leaves its partial file only when it can be
    /// continued (the error then carries ``HTTPError/resumeData``), then the call closes.
    ///
    /// - Returns: the error the call ends with: a cancellation as ``cancel(explicitly:)``
    ///   recorded it, never as the network error it may have caused.
    @inline(never)
    func fail(with error: any Error) -> HTTPError {
        var failure: HTTPError
        if let recorded = cancellation {
            failure = recorded
        } else if Task.isCancelled {
            failure = .cancelled(explicitly: false)
        } else {
            failure = HTTPError(transportError: error)
        }
        if let target = destination.download, let resumeData = target.abandon(requestURL: request.url) {
            failure = failure.resuming(from: resumeData)
        }
        close(failure: failure)
        return failure
    }

    /// The body handed to the caller's reader, closing the call when the reader is done with
    /// it: at its end, when it failed, or when the reader let it go (a cancellation, then).
    func closing(after body: HTTPResponseBody) -> HTTPResponseBody {
        body.whenFinished { [self] error in
            guard let error else { return close(failure: nil) }
            let failure = (error as? HTTPError).map { $0.code == .streamAbandoned ? .cancelled(explicitly: false) : $0 }
            close(failure: cancellation ?? failure ?? HTTPError(transportError: error))
        }
    }

    /// Closes a call: the session's activity, the closing events and the log.
    @inline(never)
    func close(failure: HTTPError?) {
        session.activity.end(activitySlot.load(ordering: .relaxed))
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
        var metadata: Logger.Metadata = ["method": "\(request.method)", "url": "\(request.url.redactedString)"]
        if let response = error.response {
            metadata["status"] = "\(response.statusCode)"
            metadata["body"] = "\(String(decoding: response.data.prefix(512), as: UTF8.self))"
        }
        settings.configuration.logger.error("\(error)", metadata: metadata)
    }
}
