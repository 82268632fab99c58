import Foundation
import JewzHTTPCore

/// Undoes a body's content codings for the traffic view, which shows what the origin meant
/// rather than the compressed bytes the proxy passed on untouched: with the session's own
/// decoder chain, fed a piece at a time so that a bomb is stopped at ``decodedLimit``.
enum TrafficDecoding {
    /// The most bytes a decoded body may grow to: a compression bomb through the proxy must not
    /// fill the memory of the view that shows it.
    static let decodedLimit = 64 << 20

    /// The session's decoders: gzip, deflate, br and zstd where their libraries are.
    private static let codings = HTTPSession.Configuration().contentCodings

    /// `body` decoded from the codings `headers`' `Content-Encoding` names, or as it is with a
    /// note saying why not.
    static func decoded(_ body: Data, headers: HTTPHeaderFields) -> (Data, note: String?) {
        guard !body.isEmpty, let coding = headers["Content-Encoding"] else { return (body, nil) }
        do {
            guard let chain = try ContentDecoderChain(headers: headers, codings: codings) else {
                let unknown = headers.tokens(for: "Content-Encoding").contains { $0 != "identity" }
                return (body, unknown ? "Content-Encoding \(coding): no decoder here; shown as it came" : nil)
            }
            var output = Data()
            try body.withUnsafeBytes { input in
                var offset = 0
                repeat {
                    let end = min(offset + 64 << 10, input.count)
                    output += try chain.decode(UnsafeRawBufferPointer(rebasing: input[offset..<end]), finishing: end == input.count)
                    guard output.count <= decodedLimit else { throw TooLarge() }
                    offset = end
                } while offset < input.count
            }
            return (output, nil)
        } catch is TooLarge {
            return (body, "Content-Encoding \(coding): decodes past \(decodedLimit >> 20) MiB; shown as it came")
        } catch {
            return (body, "\(error); shown as it came")
        }
    }

    private struct TooLarge: Error {}
}
