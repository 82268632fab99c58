import Foundation

/// Collects a response for a cycle: undoes its content codings as the body arrives and enforces
/// the session's body size limit on the decoded bytes.
struct ResponseCollector: HTTPResponseReceiver {
    private let codings: ContentCodingRegistry
    private let maximumBodySize: Int
    private var statusCode = 0
    private var headers = HTTPHeaderFields()
    private var url: URL?
    private var body = Data()
    /// The decoders, outermost coding first (the reverse of the header's order).
    private var decoders: [(token: String, decoding: any HTTPContentDecoding)] = []
    private var receivedBody = false

    init(codings: ContentCodingRegistry, maximumBodySize: Int) {
        self.codings = codings
        self.maximumBodySize = maximumBodySize
    }

    mutating func receiveHead(statusCode: Int, headers: HTTPHeaderFields, url: URL?) throws {
        self.statusCode = statusCode
        self.headers = headers
        self.url = url
        let tokens = headers.values(for: "Content-Encoding")
            .flatMap { $0.split(separator: ",") }
            .map { $0.trimmingHTTPWhitespace().lowercased() }
            .filter { !$0.isEmpty && $0 != "identity" }
        // Decode only when every coding is known: half-decoded bytes help no one.
        let found = tokens.map { token in codings.decoder(for: token).map { (token, $0) } }
        if !found.isEmpty, found.allSatisfy({ $0 != nil }) {
            decoders = found.compactMap { $0 }.reversed().map { (token: $0.0, decoding: $0.1.makeDecoding()) }
        }
    }

    mutating func receiveBody(_ chunk: UnsafeRawBufferPointer) throws {
        receivedBody = true
        if decoders.isEmpty {
            body.append(contentsOf: chunk)
        } else {
            try decodeThroughChain(Data(chunk), finishing: false)
        }
        if body.count > maximumBodySize { throw HTTPError.responseTooLarge(limit: maximumBodySize) }
    }

    /// The complete response, after the decoders have seen the end of their input.
    mutating func finish() throws -> HTTPResponse {
        if receivedBody, !decoders.isEmpty {
            try decodeThroughChain(Data(), finishing: true)
            if body.count > maximumBodySize { throw HTTPError.responseTooLarge(limit: maximumBodySize) }
        }
        return HTTPResponse(statusCode: statusCode, headers: headers, data: body, url: url)
    }

    /// Passes `input` through every decoder in turn (outermost coding first), appending what
    /// the last one yields to the body; `finishing` ends each decoder's input.
    private mutating func decodeThroughChain(_ input: Data, finishing: Bool) throws {
        var pending = input
        for decoder in decoders {
            var output = Data()
            try decoding(decoder.token) {
                try pending.withUnsafeBytes { try decoder.decoding.decode($0, into: &output) }
                if finishing { try decoder.decoding.finish(into: &output) }
            }
            pending = output
        }
        body.append(pending)
    }

    private func decoding(_ token: String, _ body: () throws -> Void) throws {
        do {
            try body()
        } catch let error as HTTPError {
            throw error
        } catch {
            throw HTTPError.contentDecoding(coding: token, underlying: error)
        }
    }
}
