import Foundation

/// Called as a body goes out or is written: the bytes just moved, all bytes so far, and the
/// total expected in the end (`nil` when unknown). For an upload the totals restart with each
/// attempt; for a download they count what a resumed file already held.
public typealias HTTPProgressHandler = @Sendable (_ bytes: Int64, _ totalBytes: Int64, _ totalBytesExpected: Int64?) -> Void

/// How a call writes its response body to a file instead of memory: the body streams to a
/// temporary file, and ``downloadFile`` gets the file once the content is complete and valid.
///
/// The file is removed when the handler returns, so move or read it there. A failure removes
/// what was written, unless the download ``isResumable`` and the server can continue it: then
/// the partial file stays and the error's ``HTTPError/resumeData`` says how to go on. What
/// ``HTTPSession/download(_:to:resumingFrom:options:didWriteData:)`` and the cycle's download
/// forms make.
package struct HTTPDownload: Sendable {
    /// Called with the response (its status, headers and URL) and the temporary file holding
    /// its complete body.
    package typealias FileHandler = @Sendable (HTTPResponse, URL) throws -> Void

    /// Called after each write: the bytes just written, all bytes of the file so far (a
    /// resumed download counts what it continued from) and the size expected in the end
    /// (`nil` when the server did not say, or the body is content-decoded as it arrives).
    package var didWriteData: HTTPProgressHandler?
    /// Receives the complete file; an error it throws fails the call with
    /// ``HTTPError/Code/downloadHandler``.
    package var downloadFile: FileHandler
    /// Whether a failed or cancelled download keeps its partial file and produces
    /// ``HTTPError/resumeData`` when the server supports ranges (`Accept-Ranges: bytes` and a
    /// strong ETag or a Last-Modified date). A resumable download asks for an unencoded body,
    /// since ranges of an encoded body cannot be decoded from the middle.
    package var isResumable: Bool
    /// Where to continue from: sent as `Range` with `If-Range`, so a changed resource is
    /// downloaded whole again instead of being spliced.
    package var resumeData: DownloadResumeData?
    /// Where the body is written until it is complete: the system's temporary directory
    /// unless set (one on the destination's volume makes the final move a rename).
    package var temporaryDirectory: URL = FileManager.default.temporaryDirectory

    /// A download that hands its complete file to `downloadFile`, reporting progress to
    /// `didWriteData`; `resumable` keeps a failed one's partial file, and `resumeData`
    /// continues one that failed before.
    package init(
        resumable: Bool = false, resumingFrom resumeData: DownloadResumeData? = nil,
        didWriteData: HTTPProgressHandler? = nil, downloadFile: @escaping FileHandler
    ) {
        isResumable = resumable || resumeData != nil
        self.resumeData = resumeData
        self.didWriteData = didWriteData
        self.downloadFile = downloadFile
    }

    /// A download that moves the complete file to `destination`, replacing what is there.
    package static func moving(
        to destination: URL, resumable: Bool = false, resumingFrom resumeData: DownloadResumeData? = nil,
        didWriteData: HTTPProgressHandler? = nil
    ) -> HTTPDownload {
        HTTPDownload(resumable: resumable, resumingFrom: resumeData, didWriteData: didWriteData) { _, location in
            // rename(2) replaces the destination in one step on the same volume; elsewhere the
            // file is copied over.
            guard rename(location.path, destination.path) != 0 else { return }
            let files = FileManager.default
            if files.fileExists(atPath: destination.path) { try files.removeItem(at: destination) }
            try files.moveItem(at: location, to: destination)
        }
    }
}
