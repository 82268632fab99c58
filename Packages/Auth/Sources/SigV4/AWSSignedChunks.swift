import Foundation
import JewzHTTPCore

/// A file body as S3's signed chunks (`STREAMING-AWS4-HMAC-SHA256-PAYLOAD`): each chunk of
/// `size` bytes carries a signature chained from the one before, the first from the request's
/// own, so the whole upload is signed as it is read, once, a chunk at a time.
///
/// Each chunk is `hex(length);chunk-signature=SIG\r\n` + bytes + `\r\n`; a last chunk of no
/// bytes ends the body.
actor AWSSignedChunks {
    private var source: FileChunks.AsyncIterator
    private var pending = Data()
    private var previousSignature: String
    private var finished = false
    private let size: Int
    private let sign: @Sendable (_ previous: String, _ chunk: Data) -> String

    /// - Parameters:
    ///   - seedSignature: the signature of the request's head.
    ///   - sign: the signature of a chunk, given the one before it.
    init(file: URL, size: Int, seedSignature: String, sign: @escaping @Sendable (String, Data) -> String) {
        source = FileChunks(url: file, chunkSize: size).makeAsyncIterator()
        self.size = size
        previousSignature = seedSignature
        self.sign = sign
    }

    /// The encoded length of `length` bytes sent in chunks of `size`.
    static func encodedLength(of length: Int, size: Int) -> Int {
        func framed(_ bytes: Int) -> Int { String(bytes, radix: 16).utf8.count + ";chunk-signature=".utf8.count + 64 + 2 + bytes + 2 }
        let whole = length / size
        let rest = length % size
        return whole * framed(size) + (rest > 0 ? framed(rest) : 0) + framed(0)
    }

    /// The next encoded chunk; `nil` after the last.
    func next() async throws -> Data? {
        guard !finished else { return nil }
        while pending.count < size {
            var reader = source
            let read = try await reader.next()
            source = reader
            guard let read else { break }
            pending.append(read)
        }
        let chunk = pending.prefix(size)
        pending = Data(pending.dropFirst(chunk.count))
        if chunk.isEmpty { finished = true }
        let signature = sign(previousSignature, Data(chunk))
        previousSignature = signature
        var framed = Data("\(String(chunk.count, radix: 16));chunk-signature=\(signature)\r\n".utf8)
        framed.reserveCapacity(framed.count + chunk.count + 2)
        framed.append(chunk)
        framed.append(contentsOf: [0x0D, 0x0A])
        return framed
    }
}
