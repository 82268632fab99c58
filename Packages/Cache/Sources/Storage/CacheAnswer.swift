import Foundation
import JewzHTTPCore

/// What the cache answers with while it decides: the response, and the file its body is in
/// when a store left it there (``CacheStore/responseLeavingBody(forKey:)``), so that a range
/// of it is read without the rest and the whole goes up as a stream, never whole in memory.
struct CacheAnswer: Sendable {
    var response: HTTPResponse
    /// The open file holding the body, `length` bytes from `bodyOffset` (a range of a stored
    /// body starts past the first byte); `nil` when the body is the response's `data` or `stream`.
    var bodyFile: FileHandle?
    var bodyOffset: Int
    var length: Int

    init(response: HTTPResponse, bodyFile: FileHandle? = nil, bodyOffset: Int = 0, length: Int? = nil) {
        self.response = response
        self.bodyFile = bodyFile
        self.bodyOffset = bodyOffset
        self.length = length ?? response.data.count
    }

    /// The response as the session gets it: a body in a file goes up as a stream read from it.
    func sessionResponse() -> HTTPResponse {
        guard let bodyFile else { return response }
        var response = response
        response.body = HTTPResponseBody(contentsOf: bodyFile, from: bodyOffset, length: length)
        return response
    }

    /// `count` bytes of the body from `offset`; `nil` when the file holds fewer.
    func bytes(at offset: Int, count: Int) -> Data? {
        guard let bodyFile else {
            let data = response.data
            guard offset + count <= data.count else { return nil }
            return data.subdata(in: (data.startIndex + offset)..<(data.startIndex + offset + count))
        }
        return FileBytes.read(count, from: bodyFile.fileDescriptor, at: bodyOffset + offset)
    }
}
