import Foundation

/// One run of a download: which bytes to ask for, the file they go into, progress, and what
/// is left behind when the run fails. Lives in the run's task only.
final class DownloadTarget {
    let download: HTTPDownload
    private let report: (_ written: Int64, _ total: Int64, _ expected: Int64?) -> Void
    /// The file of this run: the resume data's partial file, or a new temporary one.
    private let fileURL: URL
    private var file: DownloadFile?
    /// The valid bytes in ``fileURL`` that the next attempt can continue from, with the
    /// validator that makes continuing safe.
    private var resumable: (offset: Int64, validator: String)?
    /// The offset the current attempt asked for (0 when it asked for everything).
    private var requestedOffset: Int64 = 0
    private var total: Int64 = 0
    private var expected: Int64?
    private var canRange = false
    /// Where the body came from (after redirects), for the resume data.
    private var responseURL: URL?
    private var isDecoded = false

    init(_ download: HTTPDownload, report: @escaping (Int64, Int64, Int64?) -> Void) {
        self.download = download
        self.report = report
        if let resume = download.resumeData, let size = Self.size(of: resume.partialFile), size >= resume.bytesWritten {
            fileURL = resume.partialFile
            resumable = (resume.bytesWritten, resume.validator)
            expected = resume.expectedLength
            canRange = true
        } else {
            fileURL = DownloadFile.temporaryURL(in: download.temporaryDirectory)
        }
    }

    /// The request for the next attempt: it continues the valid bytes, if any, with `Range`
    /// and `If-Range`.
    func prepare(_ request: HTTPRequest) -> HTTPRequest {
        var request = request
        requestedOffset = 0
        if let resumable, resumable.offset > 0 {
            request.headers["Range"] = "bytes=\(resumable.offset)-"
            request.headers["If-Range"] = resumable.validator
            requestedOffset = resumable.offset
        }
        return request
    }

    /// Opens the file for a successful response: after what is kept for a 206 answering our
    /// range, from the start otherwise (the resource changed, or the server ignores ranges).
    ///
    /// - Throws: ``HTTPError/downloadNotResumable(reason:)`` for a 206 that does not continue
    ///   where asked; ``HTTPError/downloadFile(path:reason:)``.
    func begin(statusCode: Int, headers: HTTPHeaderFields, url: URL?, isDecoded: Bool) throws {
        self.isDecoded = isDecoded
        responseURL = url
        var offset: Int64 = 0
        let length = isDecoded ? nil : headers["Content-Length"].flatMap { Int64($0) }
        if statusCode == 206, requestedOffset > 0 {
            guard let range = ContentRange(headers["Content-Range"]), range.first == requestedOffset else {
                throw HTTPError.downloadNotResumable(
                    reason: "asked for bytes from \(requestedOffset), got Content-Range '\(headers["Content-Range"] ?? "")'")
            }
            offset = requestedOffset
            expected = range.completeLength ?? length.map { $0 + offset }
            canRange = true
        } else {
            expected = length
            canRange = headers.tokens(for: "Accept-Ranges").contains("bytes")
        }
        let validator = Self.validator(in: headers) ?? (offset > 0 ? resumable?.validator : nil)
        file = nil
        file = try DownloadFile(url: fileURL, keepingFirst: offset)
        total = offset
        resumable = validator.map { (offset, $0) }
    }

    func write(_ bytes: UnsafeRawBufferPointer) throws {
        guard let file, !bytes.isEmpty else { return }
        try file.write(bytes)
        total += Int64(bytes.count)
        if let resumable { self.resumable = (total, resumable.validator) }
        report(Int64(bytes.count), total, expected)
    }

    /// Closes the file once the body is complete.
    ///
    /// - Throws: ``HTTPError/connectionLost(reason:)`` when fewer bytes arrived than the server
    ///   announced; ``HTTPError/downloadFile(path:reason:)``.
    func finishWriting() throws {
        try file?.close()
        file = nil
        if let expected, !isDecoded, total != expected {
            throw HTTPError.connectionLost(reason: "the body ended after \(total) of \(expected) bytes")
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
        try? file?.close()
        file = nil
        if download.isResumable, canRange, !isDecoded, let resumable, resumable.offset > 0 {
            return DownloadResumeData(
                url: responseURL ?? requestURL, partialFile: fileURL, bytesWritten: resumable.offset, validator: resumable.validator,
                expectedLength: expected)
        }
        removeFile()
        return nil
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
