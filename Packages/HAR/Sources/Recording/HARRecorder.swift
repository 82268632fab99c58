import Foundation
import JewzHTTPCore

/// A network middleware that records every exchange as a HAR 1.2 entry, as it ends: method,
/// URL, headers, query, cookies, the request's body, the response's status, headers, cookies
/// and body (content codings undone), and the time to the head and to the end.
///
/// Credentials are redacted unless told otherwise: `Authorization`, `Proxy-Authorization`,
/// `Cookie` and `Set-Cookie` values, and the URL's user info. Bodies longer than
/// ``Configuration-swift.struct/bodyLimit`` are left out with a note; a response body is copied
/// as it arrives, so recording never holds a download or a stream in memory. A one-shot
/// request stream is sent as it is produced and not recorded. Written to a file, the archive
/// stays whole after every entry.
///
/// ```swift
/// let recorder = try HARRecorder(writingTo: URL(fileURLWithPath: "session.har"))
/// try session.update { $0.networkMiddleware.append(recorder) }
/// // … requests …; then replay them offline:
/// let replay = try HARReplayTransport(archive: HTTPArchive(contentsOf: URL(fileURLWithPath: "session.har")))
/// ```
public struct HARRecorder: HTTPMiddleware {
    /// What is recorded.
    public struct Configuration: Sendable {
        /// The longest body kept, request or response; longer ones are counted and noted.
        /// Default: 1 MiB.
        public var bodyLimit: Int
        /// Whether credentials are replaced by `[redacted]`: credential header fields, cookies,
        /// and the secrets and tokens in form and JSON bodies (an OAuth token request and its
        /// answer). Default: `true`.
        public var redactsCredentials: Bool
        /// The archive's `creator`.
        public var creator: HTTPArchive.Creator

        /// Settings with the given values; the defaults suit most recordings.
        public init(bodyLimit: Int = 1 << 20, redactsCredentials: Bool = true, creator: HTTPArchive.Creator = .jewzruxin) {
            self.bodyLimit = bodyLimit
            self.redactsCredentials = redactsCredentials
            self.creator = creator
        }
    }

    /// `har`, as `jewz -v` and the stage events call it.
    public var name: String { "har" }
    /// What is recorded, and how much of each body.
    public let configuration: Configuration
    private let sink: HARSink

    /// A recorder that keeps its entries in memory: read them with ``archive()``.
    public init(configuration: Configuration = Configuration()) {
        self.configuration = configuration
        sink = HARSink(creator: configuration.creator)
    }

    /// A recorder that writes `file` anew (made or emptied now) and adds each entry to it.
    ///
    /// - Throws: ``HARError/Code/unwritableArchive`` when the file cannot be written.
    public init(writingTo file: URL, configuration: Configuration = Configuration()) throws(HARError) {
        self.configuration = configuration
        sink = try HARSink(file: file, creator: configuration.creator)
    }

    /// What has been recorded so far.
    ///
    /// - Throws: ``HARError/Code/unreadableArchive`` when the file cannot be read back.
    public func archive() throws(HARError) -> HTTPArchive {
        try sink.archive()
    }

    /// Records the exchange: the request, then the response once its body has been read (wrapped,
    /// so a streamed body is copied as it goes), or the failure.
    ///
    /// - Throws: what the stages after it threw, unchanged.
    public func intercept(_ request: HTTPRequest, next: HTTPNext) async throws -> HTTPResponse {
        let started = Date()
        let clock = ContinuousClock.now
        let requestBody = await RecordedRequestBody(request.body, limit: configuration.bodyLimit)
        let capture = BodyCapture(limit: configuration.bodyLimit)
        do {
            var response = try await next(request)
            capture.headArrived()
            guard response.body.isStream else {
                sink.append(entry(request, requestBody, response: response, capture: capture, started: started, clock: clock, failure: nil))
                return response
            }
            // A body still arriving is copied as it is read and recorded when it ends.
            var head = response
            head.body = HTTPResponseBody(Data())
            response.body = response.body
                .map { chunk in
                    capture.keep(chunk)
                    return chunk
                }
                .whenFinished { [self, head] error in
                    sink.append(entry(request, requestBody, response: head, capture: capture, started: started, clock: clock, failure: error))
                }
            return response
        } catch {
            sink.append(entry(request, requestBody, response: nil, capture: capture, started: started, clock: clock, failure: error))
            throw error
        }
    }

    /// The entry for one exchange: `response` and the body `capture` copied, or the `failure`.
    private func entry(
        _ request: HTTPRequest, _ body: RecordedRequestBody, response: HTTPResponse?, capture: BodyCapture, started: Date,
        clock: ContinuousClock.Instant, failure: (any Error)?
    ) -> HTTPArchive.Entry {
        let redacting = configuration.redactsCredentials
        let limit = configuration.bodyLimit
        let (kept, count, headArrived) = capture.captured
        let end = ContinuousClock.now
        let wait = Self.milliseconds((headArrived ?? end) - clock)
        let receive = Self.milliseconds(end - (headArrived ?? end))
        let version = response?.version?.description ?? "HTTP/1.1"
        var recorded = HTTPArchive.Request(
            method: request.method.rawValue, url: HTTPArchive.recordedURL(request.url), httpVersion: version,
            cookies: HTTPArchive.requestCookies(request.headers, redacting: redacting),
            headers: HTTPArchive.fields(request.headers, redacting: redacting), queryString: HTTPArchive.query(of: request.url),
            bodySize: body.count)
        if request.body != nil {
            let (text, encoding, comment) = body.kept.map { HTTPArchive.text(of: $0, count: body.count, limit: limit) } ?? (nil, nil, body.note)
            let type = request.headers["Content-Type"] ?? ""
            recorded.postData = HTTPArchive.PostData(
                mimeType: type, text: recordedText(text, type: type, encoding: encoding), encoding: encoding, comment: comment)
        }
        // A body in memory is the response's own; a stream's is what was copied of it.
        let bodyBytes = count > 0 || response == nil ? kept : response?.data ?? Data()
        let bodyCount = count > 0 ? count : bodyBytes.count
        let (text, encoding, comment) = HTTPArchive.text(of: bodyBytes, count: bodyCount, limit: limit)
        let headers = response?.headers ?? HTTPHeaderFields()
        let answered = HTTPArchive.Response(
            status: response?.statusCode ?? 0, statusText: response.map { HTTPResponse.reasonPhrase(for: $0.statusCode) } ?? "",
            httpVersion: version, cookies: HTTPArchive.responseCookies(headers, redacting: redacting),
            headers: HTTPArchive.fields(headers, redacting: redacting),
            content: HTTPArchive.Content(
                size: bodyCount, mimeType: headers["Content-Type"] ?? "",
                text: response == nil ? nil : recordedText(text, type: headers["Content-Type"] ?? "", encoding: encoding), encoding: encoding,
                comment: comment),
            redirectURL: headers["Location"] ?? "", bodySize: headers["Content-Length"].flatMap(Int.init) ?? -1,
            comment: failure.map { "failed: \($0)" })
        return HTTPArchive.Entry(
            startedDateTime: HTTPArchive.timestamp(started), time: wait + receive, request: recorded, response: answered,
            timings: HTTPArchive.Timings(send: 0, wait: wait, receive: receive))
    }

    /// A body's recorded text with its credentials redacted, when the recorder redacts.
    private func recordedText(_ text: String?, type: String, encoding: String?) -> String? {
        guard configuration.redactsCredentials, encoding == nil, let text else { return text }
        return HTTPArchive.redactingCredentials(in: text, mimeType: type)
    }

    private static func milliseconds(_ duration: Duration) -> Double {
        let (seconds, attoseconds) = duration.components
        return max(0, Double(seconds) * 1000 + Double(attoseconds) / 1e15)
    }
}

/// What is recorded of a request's body: its first bytes (up to the limit and one more, to
/// know it was longer) and its length, or a note for a stream that is sent as it is made.
struct RecordedRequestBody: Sendable {
    var kept: Data?
    var count: Int
    var note: String?

    init(_ body: HTTPRequestBody?, limit: Int) async {
        switch body {
        case nil:
            count = 0
        case .data(let data)?:
            kept = data.count <= limit ? data : Data()
            count = data.count
        case .stream(let stream)?:
            count = stream.length ?? -1
            note = "a one-shot stream, sent as it was produced: not recorded"
        case let body?:
            // A file or segments can be read again: read what the limit keeps.
            var bytes = Data()
            if let chunks = try? body.chunks() {
                do {
                    for try await chunk in chunks {
                        bytes.append(chunk)
                        if bytes.count > limit { break }
                    }
                } catch {
                    note = "could not be read: \(error)"
                }
            }
            count = body.knownLength ?? bytes.count
            kept = bytes.count <= limit ? bytes : Data()
        }
    }
}
