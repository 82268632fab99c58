import Foundation
import JewzHTTPCore

/// Undoes a body's content codings for the traffic view, which shows what the origin meant
/// rather than the compressed bytes the proxy passed on untouched.
enum TrafficDecoding {
    /// The most bytes a decoded body may grow to: a compression bomb through the proxy must not
    /// fill the memory of the view that shows it.
    static let decodedLimit = 64 << 20

    /// The session's decoders: gzip, deflate, br and zstd where their libraries are.
    private static let codings = HTTPSession.Configuration().contentCodings

    /// `body` decoded from `contentEncoding` (the codings in the order applied), or as it is with
    /// a note saying why not.
    static func decoded(_ body: Data, contentEncoding: String?) -> (Data, note: String?) {
        guard let contentEncoding, !body.isEmpty else { return (body, nil) }
        let tokens = contentEncoding.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces).lowercased() }
            .filter { !$0.isEmpty && $0 != "identity" }
        var bytes = body
        for token in tokens.reversed() {
            guard let decoder = codings.decoder(for: token) else {
                return (body, "Content-Encoding \(token): no decoder here; shown as it came")
            }
            let decoding = decoder.makeDecoding()
            var output = Data()
            do {
                try bytes.withUnsafeBytes { input in
                    // In pieces, so that a bomb is stopped at the limit rather than decoded whole.
                    var offset = 0
                    while offset < input.count {
                        let end = min(offset + 64 << 10, input.count)
                        try decoding.decode(UnsafeRawBufferPointer(rebasing: input[offset..<end]), into: &output)
                        guard output.count <= decodedLimit else { throw TooLarge() }
                        offset = end
                    }
                }
                try decoding.finish(into: &output)
            } catch is TooLarge {
                return (body, "Content-Encoding \(token): decodes past \(decodedLimit >> 20) MiB; shown as it came")
            } catch {
                return (body, "Content-Encoding \(token): \(error); shown as it came")
            }
            bytes = output
        }
        return (bytes, nil)
    }

    private struct TooLarge: Error {}
}
