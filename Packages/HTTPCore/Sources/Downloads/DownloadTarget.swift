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
        /// The valid bytes in the file that the next attempt can continue from, with the
        /// validator that makes continuing safe.
        var resumable: (offset: Int64, validator: String)?
        /// The offset the current attempt asked for (0 when it asked for everything).
        var requestedOffset: Int64 = 0
        var total: Int64 = 0
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
            state.resumable = (resume.bytesWritten, resume.validator)
            state.expected = resume.expectedLength
            state.canRange = true
        } else {
            fileURL = DownloadFile.temporaryURL(in: download.temporaryDirectory)
        }
        self.state = Mutex(state)
    }

    /// The request for the next attempt: it continues the valid bytes, if any, with `Range`
    /// and `If-Range`.
    func prepare(_ request: HTTPRequest) -> HTTPRequest {
        let resumable = state.withLock { state in
            state.requestedOffset = state.resumable.map { $0.offset > 0 ? $0.offset : 0 } ?? 0
            return state.resumable
        }
        guard let resumable, resumable.offset > 0 else { return request }
        var request = request
        request.headers["Range"] = "bytes=\(resumable.offset)-"
        request.headers["If-Range"] = resumable.validator
        return request
    }

    /// Opens the file for a successful response: after what is kept for a 206 answering our
    /// range, from the start otherwise (the resource changed, or the server ignores ranges).
    ///
    /// - Throws: ``HTTPError/downloadNotResumable(reason:)`` for a 206 that does not continue
    ///   where asked; ``HTTPError/downloadFile(path:reason:)``.
    func begin(statusCode: Int, headers: HTTPHeaderFields, url: URL?, isDecoded: Bool) throws {
        try state.withLock { state in
            state.isDecoded = isDecoded
            state.responseURL = url
            var offset: Int64 = 0
            let length = isDecoded ? nil : headers["Content-Length"].flatMap { Int64($0) }
            if statusCode == 206, state.requestedOffset > 0 {
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
            let validator = Self.validator(in: headers) ?? (offset > 0 ? state.resumable?.validator : nil)
            state.file = nil
            state.file = try DownloadFile(url: fileURL, keepingFirst: offset)
            state.total = offset
            state.resumable = validator.map { (offset, $0) }
        }
    }

    func write(_ bytes: UnsafeRawBufferPointer) throws {
        guard !bytes.isEmpty else { return }
        let progress = try state.withLock { state -> (total: Int64, expected: Int64?)? in
            guard let file = state.file else { return nil }
            try file.write(bytes)
            state.total += Int64(bytes.count)
            if let resumable = state.resumable { state.resumable = (state.total, resumable.validator) }
            return (state.total, state.expected)
        }
        if let progress { download.didWriteData?(Int64(bytes.count), progress.total, progress.expected) }
    }

    /// Writes a body to the file as it is read, after its head, and returns the fields its
    /// wrappers add at its end (``HTTPResponseBody/withTrailers(_:)``).
    ///
    /// - Throws: what ended the body; ``HTTPError/downloadNotResumable(reason:)`` and the
    ///   file's errors, as ``begin(statusCode:headers:url:isDecoded:)`` and
    ///   ``finishWriting()`` throw them.
    func write(_ body: HTTPResponseBody, of head: HTTPResponse) async throws -> HTTPHeaderFields {
        try begin(statusCode: head.statusCode, headers: head.headers, url: head.url, isDecoded: head.headers.namesContentCoding)
        for try await chunk in body {
            try chunk.withUnsafeBytes { try write($0) }
        }
        try finishWriting()
        return body.reader.trailingFields()
    }

    /// Closes the file once the body is complete.
    ///
    /// - Throws: ``HTTPError/connectionLost(reason:)`` when fewer bytes arrived than the server
    ///   announced; ``HTTPError/downloadFile(path:reason:)``.
    func finishWriting() throws {
        try state.withLock { state in
            try state.file?.close()
            state.file = nil
            if let expected = state.expected, !state.isDecoded, state.total != expected {
                throw HTTPError.connectionLost(reason: "the body ended after \(state.total) of \(expected) bytes")
            }
        }
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
            guard download.isResumable, state.canRange, !state.isDecoded, let resumable = state.resumable, resumable.offset > 0 else {
                return nil
            }
            return DownloadResumeData(
                url: state.responseURL ?? requestURL, partialFile: fileURL, bytesWritten: resumable.offset,
                validator: resumable.validator, expectedLength: state.expected)
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
