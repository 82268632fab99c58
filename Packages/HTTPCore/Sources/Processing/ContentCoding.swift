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

/// Maps `Content-Encoding` tokens to decoders: a value, held by a session's configuration
/// (``HTTPSession/Configuration-swift.struct/contentCodings``). A session advertises the tokens
/// of the available decoders in `Accept-Encoding` and decodes matching responses.
///
/// A new configuration's registry holds gzip, deflate, br and zstd in a program that links the
/// umbrella module Jewzruxin; in one built from single modules it starts empty (and
/// `Accept-Encoding` is not sent).
public struct ContentCodingRegistry: Sendable {
    /// The entries, never changed once made: a registration makes new ones. An object, so that
    /// a call's copy of the configuration takes the registry with one retain, and so that its
    /// calls share one memo.
    private final class Table: Sendable {
        let decoders: [(token: String, decoder: any HTTPContentDecoder)]
        /// The tokens of the available decoders joined for `Accept-Encoding`, so that a request
        /// reads one string instead of joining the list each time.
        let acceptEncoding: String?
        /// The last ``requestHeaders(adding:)`` answer, with the headers it was asked for.
        let requestHeaders = Mutex<(base: HTTPHeaderFields, headers: DefaultRequestHeaders)?>(nil)

        init(decoders: [(token: String, decoder: any HTTPContentDecoder)] = []) {
            self.decoders = decoders
            let advertised = decoders.filter(\.decoder.isAvailable).map(\.token)
            acceptEncoding = advertised.isEmpty ? nil : advertised.joined(separator: ", ")
        }
    }

    private var table = Table()

    /// Creates an empty registry.
    public init() {}

    /// Registers `decoder` for each coding token of `tokens` (`["gzip", "x-gzip"]`, a decoder's
    /// `codings`), replacing earlier ones.
    public mutating func register(_ decoder: any HTTPContentDecoder, for tokens: [String]) {
        var decoders = table.decoders
        for token in tokens.map({ $0.lowercased() }) {
            decoders.removeAll { $0.token == token }
            decoders.append((token, decoder))
        }
        table = Table(decoders: decoders)
    }

    /// The decoder for a coding token, if registered.
    package func decoder(for token: String) -> (any HTTPContentDecoder)? {
        let token = token.trimmingHTTPWhitespace().lowercased()
        return table.decoders.first { $0.token == token }?.decoder
    }

    /// The tokens of the available decoders in registration order, as `Accept-Encoding` lists them.
    public var tokens: [String] {
        table.decoders.filter(\.decoder.isAvailable).map(\.token)
    }

    /// `base` with an `Accept-Encoding` that advertises the tokens, unless `base` has one or
    /// none is registered: what a request without headers of its own sends. The answer for
    /// the last `base` is kept, so that requests share one copy of it, checked once.
    func requestHeaders(adding base: HTTPHeaderFields) -> DefaultRequestHeaders {
        let table = table
        return table.requestHeaders.withLock { kept in
            if let kept, kept.base == base { return kept.headers }
            var headers = base
            if let acceptEncoding = table.acceptEncoding, !headers.contains("Accept-Encoding") {
                headers.add(acceptEncoding, for: "Accept-Encoding")
            }
            let answer = DefaultRequestHeaders(fields: headers)
            kept = (base, answer)
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
