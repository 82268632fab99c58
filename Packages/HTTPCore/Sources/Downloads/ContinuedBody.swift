import Foundation
import JewzLocking

/// A download's body that goes on where a cut-off connection stopped it: when reading fails
/// and the retry policy asks for another attempt, it asks for the rest (`Range` and `If-Range`
/// against the validator of what was read) through the stages below the resume stage, and
/// reads on from the answer. The stages above see one body, as the call's file receives it.
///
/// It calls its `next` after the resume stage returned, while the call reads the body: the
/// call is still open then, and its stages below still serve it.
final class ContinuedBody: Sendable {
    private let request: HTTPRequest
    private let next: HTTPNext
    private let target: DownloadTarget
    /// The body being read: the first answer's, then each continuation's.
    private let current: Mutex<HTTPResponseBody.Reader>

    init(_ body: HTTPResponseBody, request: HTTPRequest, next: HTTPNext, target: DownloadTarget) {
        self.request = request
        self.next = next
        self.target = target
        current = Mutex(body.reader)
    }

    /// The next chunk, `nil` after the last byte the server announced.
    ///
    /// - Throws: what cut the body off when it cannot be continued or the retry policy lets
    ///   it stand; ``HTTPError/Code/connectionLost`` for a body that ended short;
    ///   ``HTTPError/Code/downloadNotResumable`` when the server answered a continuation with
    ///   anything but the rest.
    func next() async throws -> Data? {
        while true {
            let reader = current.withLock { $0 }
            let failure: HTTPError
            do {
                if let chunk = try await reader.next() {
                    target.advance(by: chunk.count)
                    return chunk
                }
                try target.checkComplete()
                return nil
            } catch {
                failure = HTTPError(transportError: error)
            }
            let rest = try await continuation(after: failure)
            current.withLock { $0 = rest }
        }
    }

    /// The fields the body's wrappers below add once it has been read.
    func trailingFields() -> HTTPHeaderFields {
        current.withLock { $0 }.trailingFields()
    }

    /// The rest of the body, asked for as the retry policy allows after `failure`.
    ///
    /// - Throws: the failure that stands; ``HTTPError/Code/downloadNotResumable``.
    private func continuation(after failure: HTTPError) async throws -> HTTPResponseBody.Reader {
        let call = next.call
        var failure = failure
        while true {
            guard target.canContinue, let delay = try RetryStage.delay(after: failure, of: request, retries: call.retryCount, call: call) else {
                throw failure
            }
            try await call.sleep(for: delay)
            let attempt = call.retryCount + 1
            call.emitAttempt(request, number: attempt)
            let response: HTTPResponse
            do {
                response = try await next(target.prepare(request))
            } catch {
                failure = HTTPError(transportError: error)
                continue
            }
            if let failed = call.failure(of: response, attempt: attempt) {
                failure = failed
                continue
            }
            guard response.statusCode == 206 else {
                throw HTTPError.downloadNotResumable(
                    reason: "asked for the rest of the body, got \(response.statusCode): the resource changed, or the server ignores ranges")
            }
            try target.accept(response)
            return response.body.reader
        }
    }
}
