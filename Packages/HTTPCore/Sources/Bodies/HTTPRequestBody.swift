import Foundation

/// What a request sends: bytes in memory, a file streamed from disk, a sequence of both, or a
/// one-shot stream.
///
/// Data and file bodies can be sent again (retries, restarts, challenges, redirects); a stream
/// is produced once as it is sent, so the cycle never resends it: a retry or a challenge is
/// not attempted, and a restart or a 307/308 redirect fails with
/// ``HTTPError/Code/bodyNotReplayable``, never sending it truncated or empty.
public enum HTTPRequestBody: Sendable {
    /// Bytes in memory, sent as they are.
    case data(Data)
    /// A file, read in chunks as it is sent (never whole into memory).
    case file(URL)
    /// Chunks produced once, as they are sent: never sent again.
    case stream(HTTPBodyStream)
    /// Pieces in memory and files, sent one after the other without being joined first (how
    /// multipart bodies stay streamed and replayable, with a known length).
    case segments([HTTPBodySegment])

    /// Whether the body can be sent more than once.
    package var isReplayable: Bool {
        if case .stream = self { false } else { true }
    }
}

/// One piece of a ``HTTPRequestBody/segments(_:)`` body.
public enum HTTPBodySegment: Sendable {
    /// Bytes in memory.
    case data(Data)
    /// A file, read in chunks when sent.
    case file(URL)
}

extension Array where Element == HTTPBodySegment {
    /// The length of the pieces sent one after the other: the bytes in memory and the files' sizes.
    ///
    /// - Throws: ``HTTPError/unreadableBody(_:)`` for a file that cannot be read.
    package func length() throws(HTTPError) -> Int {
        var length = 0
        for segment in self {
            switch segment {
            case .data(let data): length += data.count
            case .file(let url): length += try FileChunks(url: url).size()
            }
        }
        return length
    }
}
