import Foundation

/// The decoders for one response's `Content-Encoding`, applied outermost coding first (the
/// reverse of the header's order), fed chunk by chunk.
package struct ContentDecoderChain {
    private let decoders: [(token: String, decoding: any HTTPContentDecoding)]

    /// The most codings a response may stack (curl stops at 5 too): each costs a decoder, and
    /// a header of thousands of `gzip` tokens would otherwise cost gigabytes before a body byte.
    static let maximumCodings = 5

    /// The chain for `headers`, or `nil` when there is nothing to undo or a coding is unknown:
    /// half-decoded bytes help no one, so such a body is kept as it came.
    ///
    /// - Throws: ``HTTPError/Code/contentDecoding`` for more than ``maximumCodings`` codings.
    package init?(headers: HTTPHeaderFields, codings: ContentCodingRegistry) throws {
        // Most responses have none: nothing to split.
        guard headers.contains("Content-Encoding") else { return nil }
        let tokens = headers.tokens(for: "Content-Encoding").filter { $0 != "identity" }
        guard tokens.count <= Self.maximumCodings else {
            throw HTTPError.contentDecoding(
                coding: tokens.prefix(Self.maximumCodings).joined(separator: ", ") + ", …",
                underlying: TooManyCodings(count: tokens.count, limit: Self.maximumCodings))
        }
        let found = tokens.map { token in codings.decoder(for: token).map { (token, $0) } }
        guard !found.isEmpty, found.allSatisfy({ $0 != nil }) else { return nil }
        decoders = found.compactMap { $0 }.reversed().map { (token: $0.0, decoding: $0.1.makeDecoding()) }
    }

    /// A `Content-Encoding` stacks more codings than a response may.
    struct TooManyCodings: Error, CustomStringConvertible {
        let count: Int
        let limit: Int

        var description: String { "\(count) content codings are stacked; at most \(limit) are decoded" }
    }

    /// Passes `input` through every decoder in turn and returns what the last one yields;
    /// `finishing` ends each decoder's input.
    ///
    /// - Throws: ``HTTPError/contentDecoding(coding:underlying:)``, or the decoder's
    ///   ``HTTPError`` (a decompression limit) unchanged.
    package func decode(_ input: UnsafeRawBufferPointer, finishing: Bool) throws -> Data {
        var pending = Data(input)
        for decoder in decoders {
            var output = Data()
            do {
                try pending.withUnsafeBytes { try decoder.decoding.decode($0, into: &output) }
                if finishing { try decoder.decoding.finish(into: &output) }
            } catch let error as HTTPError {
                throw error
            } catch {
                throw HTTPError.contentDecoding(coding: decoder.token, underlying: error)
            }
            pending = output
        }
        return pending
    }
}
