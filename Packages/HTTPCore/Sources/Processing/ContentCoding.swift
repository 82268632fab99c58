import Foundation
import JewzLocking

/// Decodes one `Content-Encoding`: JewzGzip provides gzip and deflate, JewzBrotli `br`,
/// JewzZstd `zstd`.
public protocol HTTPContentDecoder: Sendable {
    /// A fresh decoder for one body.
    func makeDecoding() -> any HTTPContentDecoding
    /// Whether the decoder can work here: one whose library is missing is not advertised in
    /// `Accept-Encoding`. `true` unless a decoder says otherwise.
    var isAvailable: Bool { get }
}

extension HTTPContentDecoder {
    public var isAvailable: Bool { true }
}

/// The state of decoding one body, fed chunk by chunk as it arrives.
public protocol HTTPContentDecoding: AnyObject {
    /// Decodes the next piece of input, appending what it yields to `output`.
    func decode(_ input: UnsafeRawBufferPointer, into output: inout Data) throws
    /// Ends the input; throws when the encoded stream was cut short.
    func finish(into output: inout Data) throws
}

/// Maps `Content-Encoding` tokens to decoders. A session advertises the tokens of the available
/// decoders in `Accept-Encoding` and decodes matching responses.
public final class ContentCodingRegistry: Sendable {
    /// The registry sessions use unless given another one. In a program that links the umbrella
    /// module Jewzruxin it holds gzip, deflate, br and zstd from its first use; in one built from
    /// single modules it starts empty (and `Accept-Encoding` is not sent).
    public static let shared = SharedRegistries.made.codings

    private struct Entries {
        var decoders: [(token: String, decoder: any HTTPContentDecoder)] = []
        /// The tokens joined for `Accept-Encoding`, kept with them so that a request reads one
        /// string instead of joining the list each time.
        var acceptEncoding: String?
        /// The last ``requestHeaders(adding:)`` answer, with the headers it was asked for.
        var requestHeaders: (base: HTTPHeaderFields, headers: DefaultRequestHeaders)?
    }

    private let entries = Mutex(Entries())

    public init() {}

    /// Registers `decoder` for each coding token of `tokens` (`["gzip", "x-gzip"]`, a decoder's
    /// `codings`), replacing earlier ones.
    public func register(_ decoder: any HTTPContentDecoder, for tokens: [String]) {
        entries.withLock { entries in
            for token in tokens.map({ $0.lowercased() }) {
                entries.decoders.removeAll { $0.token == token }
                entries.decoders.append((token, decoder))
            }
            let advertised = entries.decoders.filter(\.decoder.isAvailable).map(\.token)
            entries.acceptEncoding = advertised.isEmpty ? nil : advertised.joined(separator: ", ")
            entries.requestHeaders = nil
        }
    }

    /// The decoder for a coding token, if registered.
    package func decoder(for token: String) -> (any HTTPContentDecoder)? {
        let token = token.trimmingHTTPWhitespace().lowercased()
        return entries.withLock { $0.decoders.first { $0.token == token }?.decoder }
    }

    /// The tokens of the available decoders in registration order, as `Accept-Encoding` lists them.
    public var tokens: [String] {
        entries.withLock { $0.decoders.filter(\.decoder.isAvailable).map(\.token) }
    }

    /// `base` with an `Accept-Encoding` that advertises the tokens, unless `base` has one or
    /// none is registered: what a request without headers of its own sends. The answer for
    /// the last `base` is kept, so that requests share one copy of it, checked once.
    func requestHeaders(adding base: HTTPHeaderFields) -> DefaultRequestHeaders {
        entries.withLock { entries in
            if let kept = entries.requestHeaders, kept.base == base { return kept.headers }
            var headers = base
            if let acceptEncoding = entries.acceptEncoding, !headers.contains("Accept-Encoding") {
                headers.add(acceptEncoding, for: "Accept-Encoding")
            }
            let answer = DefaultRequestHeaders(fields: headers)
            entries.requestHeaders = (base, answer)
            return answer
        }
    }
}

/// The headers a session adds to each request that lacks them, and whether every one of them
/// may go on the wire: checked once, so that a request sharing them is not checked again.
struct DefaultRequestHeaders: Sendable {
    let fields: HTTPHeaderFields
    /// `fields` when each name is a token and no value breaks a line; `nil` otherwise, and a
    /// request carrying them fails its own check, naming the field.
    let vetted: HTTPHeaderFields?

    init(fields: HTTPHeaderFields) {
        self.fields = fields
        vetted = fields.firstUnsendableField == nil ? fields : nil
    }
}
