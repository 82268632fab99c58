import Foundation

/// Makes a cycle write its response body to a file instead of memory: the body streams to a
/// temporary file, and ``downloadFile`` gets the file once the content is complete and valid.
///
/// The file is removed when the handler returns, so move or read it there. A failure removes
/// what was written, unless the download ``isResumable`` and the server can continue it: then
/// the partial file stays and ``HTTPCycle/resumeData`` says how to go on.
///
/// ```swift
/// let cycle = HTTPCycle(requestURL: url)
/// cycle.download = HTTPDownload(resumable: true) { _, location in
///     try FileManager.default.moveItem(at: location, to: destination)
/// }
/// do { try await cycle.start() } catch { retryLater(cycle.resumeData) }
/// ```
public struct HTTPDownload: Sendable {
    /// Called with the cycle and the temporary file holding the complete body.
    public typealias FileHandler = @Sendable (HTTPCycle, URL) throws -> Void

    /// Called after each write: the bytes just written, all bytes of the file so far (a
    /// resumed download counts what it continued from) and the size expected in the end
    /// (`nil` when the server did not say, or the body is content-decoded as it arrives).
    public var didWriteData: HTTPCycle.DidWriteBodyDataHandler?
    /// Receives the complete file; an error it throws fails the cycle.
    public var downloadFile: FileHandler
    /// Whether a failed or cancelled download keeps its partial file and produces
    /// ``HTTPCycle/resumeData`` when the server supports ranges (`Accept-Ranges: bytes` and a
    /// strong ETag or a Last-Modified date). A resumable download asks for an unencoded body,
    /// since ranges of an encoded body cannot be decoded from the middle.
    public var isResumable: Bool
    /// Where to continue from: sent as `Range` with `If-Range`, so a changed resource is
    /// downloaded whole again instead of being spliced.
    public var resumeData: DownloadResumeData?
    /// Where the body is written until it is complete: the system's temporary directory
    /// unless set (one on the destination's volume makes the final move a rename).
    public var temporaryDirectory: URL = FileManager.default.temporaryDirectory

    public init(
        resumable: Bool = false, resumingFrom resumeData: DownloadResumeData? = nil,
        didWriteData: HTTPCycle.DidWriteBodyDataHandler? = nil, downloadFile: @escaping FileHandler
    ) {
        isResumable = resumable || resumeData != nil
        self.resumeData = resumeData
        self.didWriteData = didWriteData
        self.downloadFile = downloadFile
    }

    /// A download that moves the complete file to `destination`, replacing what is there.
    public static func moving(
        to destination: URL, resumable: Bool = false, resumingFrom resumeData: DownloadResumeData? = nil,
        didWriteData: HTTPCycle.DidWriteBodyDataHandler? = nil
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
