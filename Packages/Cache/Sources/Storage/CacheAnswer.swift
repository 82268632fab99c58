import Foundation
import JewzHTTPCore

/// What the cache answers with while it decides: the response, and the file its body is in
/// when a store left it there (``CacheStore/responseLeavingBody(forKey:)``), so that a range
/// of it is read without the rest and the whole goes up as a stream, never whole in memory.
struct CacheAnswer: Sendable {
    var response: HTTPResponse
    /// The file holding the body from its first byte, `length` bytes long; `nil` when the body
    /// is the response's `data` or `stream`.
    var bodyFile: URL?
    var length: Int

    init(response: HTTPResponse, bodyFile: URL? = nil, length: Int? = nil) {
        self.response = response
        self.bodyFile = bodyFile
        self.length = length ?? response.data.count
    }

    /// The response as the session gets it: a body in a file goes up as a stream read from it.
    ///
    /// - Throws: ``HTTPError/Code/downloadFile`` when the file is gone.
    func sessionResponse() throws -> HTTPResponse {
        guard let bodyFile else { return response }
        var response = response
        response.body = try HTTPResponseBody(contentsOf: bodyFile, length: length)
        return response
    }

    /// `count` bytes of the body from `offset`; `nil` when the file holds fewer.
    func bytes(at offset: Int, count: Int) -> Data? {
        guard let bodyFile else {
            let data = response.data
            guard offset + count <= data.count else { return nil }
            return data.subdata(in: (data.startIndex + offset)..<(data.startIndex + offset + count))
        }
        let descriptor = open(bodyFile.path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        return FileBytes.read(count, from: descriptor, at: offset)
    }
}
