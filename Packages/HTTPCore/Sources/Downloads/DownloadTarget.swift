import Foundation
import JewzLocking

/// One run of a download: which bytes to ask for, the file they go into, progress, and what
/// is left behind when the run fails. Its state sits under a lock: the stages of a run may be
/// on several tasks, one after the other.
final class DownloadTarget: Sendable {
    let download: HTTPDownload
    /// The file of this run: the resume data's partial file, or a new temporary one.
    private let fileURL: URL

    private struct State {
        var file: DownloadFile?
        /// The bytes in the file: those kept from before, then those written.
        var written: Int64 = 0
        /// The offset of the next byte of the body to hand up: where asking for the rest starts.
        var position: Int64 = 0
        /// What makes asking for the rest safe (`If-Range`): a strong ETag, or Last-Modified.
        var validator: String?
        /// The offset the current attempt asked for (0 when it asked for everything).
        var requestedOffset: Int64 = 0
        var expected: Int64?
        var canRange = false
        /// Where the body came from (after redirects), for the resume data.
        var responseURL: URL?
        var isDecoded = false
    }

    private let state: Mutex<State>

    init(_ download: HTTPDownload) {
        self.download = download
        var state = State()
        if let resume = download.resumeData, let size = Self.size(of: resume.partialFile), size >= resume.bytesWritten {
            fileURL = resume.partialFile
            state.position = resume.bytesWritten
            state.validator = resume.validator
            state.written = resume.bytesWritten
            state.expected = resume.expectedLength
            state.canRange = true
        } else {
            fileURL = DownloadFile.temporaryURL(in: download.temporaryDirectory)
        }
        self.state = Mutex(state)
    }

    // MARK: The requests (the resume stage)

    /// The request for the next attempt: it continues where the body stopped, if it can, with
    /// `Range` and `If-Range`.
    func prepare(_ request: HTTPRequest) -> HTTPRequest {
        let resumable = state.withLock { state -> (offset: Int64, validator: String)? in
            let resumable = state.validator.flatMap { state.position > 0 ? (offset: state.position, validator: $0) : nil }
            state.requestedOffset = resumable?.offset ?? 0
            return resumable
        }
        guard let resumable else { return request }
        var request = request
        request.headers["Range"] = "bytes=\(resumable.offset)-"
        request.headers["If-Range"] = resumable.validator
        request.goesAroundCache = true
        return request
    }

    /// Takes a successful response's head and returns the offset its body starts at: what was
    /// asked for, for a 206 answering our range; 0 otherwise (the resource changed, or the
    /// server ignores ranges). Records what continuing its body later needs.
    ///
    /// - Throws: ``HTTPError/downloadNotResumable(reason:)`` for a 206 that does not continue
    ///   where asked.
    @discardableResult
    func accept(_ head: HTTPResponse) throws -> Int64 {
        try state.withLock { state in
            let headers = head.headers
            state.isDecoded = headers.namesContentCoding
            state.responseURL = head.url
            var offset: Int64 = 0
            let length = state.isDecoded ? nil : headers["Content-Length"].flatMap { Int64($0) }
            if head.statusCode == 206, state.requestedOffset > 0 {
                guard let range = ContentRange(headers["Content-Range"]), range.first == state.requestedOffset else {
                    throw HTTPError.downloadNotResumable(
                        reason: "asked for bytes from \(state.requestedOffset), got Content-Range '\(headers["Content-Range"] ?? "")'")
                }
                offset = state.requestedOffset
                state.expected = range.completeLength ?? length.map { $0 + offset }
                state.canRange = true
            } else {
                state.expected = length
                state.canRange = headers.tokens(for: "Accept-Ranges").contains("bytes")
            }
            state.validator = Self.validator(in: headers) ?? (offset > 0 ? state.validator : nil)
            state.position = offset
            return offset
        }
    }

    /// Whether a body cut off now can be continued by asking the server for the rest.
    var canContinue: Bool {
        state.withLock { state in state.canRange && !state.isDecoded && state.validator != nil && state.position > 0 }
    }

    /// Counts bytes handed up: the next attempt continues after them.
    func advance(by count: Int) {
        state.withLock { $0.position += Int64(count) }
    }

    /// Whether the body handed up has all the bytes the server announced.
    ///
    /// - Throws: ``HTTPError/connectionLost(reason:)`` when it ended short.
    func checkComplete() throws {
        try state.withLock { state in
            guard let expected = state.expected, !state.isDecoded, state.position != expected else { return }
            throw HTTPError.connectionLost(reason: "the body ended after \(state.position) of \(expected) bytes")
        }
    }

    // MARK: The file (the call, at the top of its path)

    /// Writes a body to the file as it is read, after what is kept of an earlier run when the
    /// body continues it, and returns the fields its wrappers add at its end
    /// (``HTTPResponseBody/withTrailers(_:)``).
    ///
    /// - Throws: what ended the body; ``HTTPError/downloadNotResumable(reason:)`` and
    ///   ``HTTPError/downloadFile(path:reason:)``.
    func write(_ body: HTTPResponseBody, of head: HTTPResponse) async throws -> HTTPHeaderFields {
        let offset = try accept(head)
        try state.withLock { state in
            state.file = nil
            state.file = try DownloadFile(url: fileURL, keepingFirst: offset)
            state.written = offset
        }
        for try await chunk in body {
            try chunk.withUnsafeBytes { try write($0) }
        }
        try state.withLock { state in
            try state.file?.close()
            state.file = nil
        }
        return body.reader.trailingFields()
    }

    private func write(_ bytes: UnsafeRawBufferPointer) throws {
        guard !bytes.isEmpty else { return }
        let progress = try state.withLock { state -> (total: Int64, expected: Int64?)? in
            guard let file = state.file else { return nil }
            try file.write(bytes)
            state.written += Int64(bytes.count)
            return (state.written, state.expected)
        }
        if let progress { download.didWriteData?(Int64(bytes.count), progress.total, progress.expected) }
    }

    /// The complete file, for the download handler; `nil` when no successful body was written
    /// (a failing status keeps its body in memory).
    func completedFile() -> URL? {
        FileManager.default.fileExists(atPath: fileURL.path) ? fileURL : nil
    }

    /// Ends a run that failed: what is needed to continue it when that is possible and was
    /// asked for, else `nil` with the partial file removed. `requestURL` stands in for a
    /// response URL that never arrived.
    func abandon(requestURL: URL) -> DownloadResumeData? {
        let resumeData = state.withLock { state -> DownloadResumeData? in
            try? state.file?.close()
            state.file = nil
            guard download.isResumable, state.canRange, !state.isDecoded, let validator = state.validator, state.written > 0 else {
                return nil
            }
            return DownloadResumeData(
                url: state.responseURL ?? requestURL, partialFile: fileURL, bytesWritten: state.written,
                validator: validator, expectedLength: state.expected)
        }
        if resumeData == nil { removeFile() }
        return resumeData
    }

    func removeFile() {
        try? FileManager.default.removeItem(at: fileURL)
    }

    /// A strong ETag (a weak one cannot be used with If-Range), else Last-Modified.
    private static func validator(in headers: HTTPHeaderFields) -> String? {
        if let etag = headers["ETag"], !etag.hasPrefix("W/"), !etag.isEmpty { return etag }
        return headers["Last-Modified"]
    }

    private static func size(of url: URL) -> Int64? {
        (try? FileManager.default.attributesOfItem(atPath: url.path)[.size] as? NSNumber)?.int64Value
    }
}
