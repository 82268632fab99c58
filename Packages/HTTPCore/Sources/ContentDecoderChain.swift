import Foundation

/// The decoders for one response's `Content-Encoding`, applied outermost coding first (the
/// reverse of the header's order), fed chunk by chunk.
struct ContentDecoderChain {
    private let decoders: [(token: String, decoding: any HTTPContentDecoding)]

    /// The chain for `headers`, or `nil` when there is nothing to undo or a coding is unknown:
    /// half-decoded bytes help no one, so such a body is kept as it came.
    init?(headers: HTTPHeaderFields, codings: ContentCodingRegistry) {
        let values = headers.values(for: "Content-Encoding")
        // Most responses have none: nothing to split.
        guard !values.isEmpty else { return nil }
        let tokens = values
            .flatMap { $0.split(separator: ",") }
            .map { $0.trimmingHTTPWhitespace().lowercased() }
            .filter { !$0.isEmpty && $0 != "identity" }
        let found = tokens.map { token in codings.decoder(for: token).map { (token, $0) } }
        guard !found.isEmpty, found.allSatisfy({ $0 != nil }) else { return nil }
        decoders = found.compactMap { $0 }.reversed().map { (token: $0.0, decoding: $0.1.makeDecoding()) }
    }

    /// Passes `input` through every decoder in turn and returns what the last one yields;
    /// `finishing` ends each decoder's input.
    ///
    /// - Throws: ``HTTPError/contentDecoding(coding:underlying:)``, or the decoder's
    ///   ``HTTPError`` (a decompression limit) unchanged.
    func decode(_ input: UnsafeRawBufferPointer, finishing: Bool) throws -> Data {
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
