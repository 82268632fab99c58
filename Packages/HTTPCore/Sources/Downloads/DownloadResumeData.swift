import Foundation

/// What a resumable download needs to continue: the partial file, how much of it is valid,
/// and the validator that proves the resource has not changed. Codable, so it can be kept
/// across launches.
public struct DownloadResumeData: Sendable, Codable, Equatable {
    /// The URL that was downloaded (after redirects).
    package var url: URL
    /// The partial file; it belongs to the caller until a resumed download takes it over.
    public var partialFile: URL
    /// How many bytes of the file are valid.
    public var bytesWritten: Int64
    /// The strong ETag, or else the Last-Modified date, sent back as `If-Range`.
    package var validator: String
    /// The full size, when the server said.
    public var expectedLength: Int64?

    package init(url: URL, partialFile: URL, bytesWritten: Int64, validator: String, expectedLength: Int64?) {
        self.url = url
        self.partialFile = partialFile
        self.bytesWritten = bytesWritten
        self.validator = validator
        self.expectedLength = expectedLength
    }

    /// Reads resume data that its encoding wrote, from a file kept across launches.
    ///
    /// - Throws: `DecodingError` when a field is missing or of the wrong type.
    public init(from decoder: any Decoder) throws {
        let fields = try decoder.container(keyedBy: CodingKeys.self)
        url = try fields.decode(URL.self, forKey: .url)
        partialFile = try fields.decode(URL.self, forKey: .partialFile)
        bytesWritten = try fields.decode(Int64.self, forKey: .bytesWritten)
        validator = try fields.decode(String.self, forKey: .validator)
        expectedLength = try fields.decodeIfPresent(Int64.self, forKey: .expectedLength)
    }
}
