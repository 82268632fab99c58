import Foundation

/// Where a cycle's response body goes once content-decoded.
enum ResponseDestination {
    /// Into ``HTTPResponse/data``, up to the session's size limit.
    case memory
    /// Into a file, for downloads.
    case file(DownloadTarget)
    /// To a consumer reading ``HTTPResponseBody`` as it arrives.
    case stream(ResponseBodyChannel)
}

/// Collects a response for a cycle: undoes its content codings as the body arrives and hands
/// the decoded bytes to the destination. A response whose status fails the cycle is always
/// kept in memory, so that its body can be read, logged and processed like any other.
struct ResponseCollector: HTTPResponseReceiver {
    private let codings: ContentCodingRegistry
    private let maximumBodySize: Int
    private let isFailure: @Sendable (Int) -> Bool
    private var destination: ResponseDestination
    private var statusCode = 0
    private var headers = HTTPHeaderFields()
    private var url: URL?
    private var body = Data()
    private var decoders: ContentDecoderChain?
    private var receivedBody = false

    init(
        codings: ContentCodingRegistry, maximumBodySize: Int, destination: ResponseDestination,
        isFailure: @escaping @Sendable (Int) -> Bool
    ) {
        self.codings = codings
        self.maximumBodySize = maximumBodySize
        self.destination = destination
        self.isFailure = isFailure
    }

    mutating func receiveHead(statusCode: Int, headers: HTTPHeaderFields, url: URL?) throws {
        self.statusCode = statusCode
        self.headers = headers
        self.url = url
        decoders = ContentDecoderChain(headers: headers, codings: codings)
        if isFailure(statusCode) { destination = .memory }
        switch destination {
        case .memory:
            break
        case .file(let target):
            try target.begin(statusCode: statusCode, headers: headers, url: url, isDecoded: decoders != nil)
        case .stream(let channel):
            channel.deliverHead(HTTPResponse(statusCode: statusCode, headers: headers, url: url))
        }
    }

    mutating func receiveBody(_ chunk: UnsafeRawBufferPointer) throws {
        receivedBody = true
        if let decoders {
            let decoded = try decoders.decode(chunk, finishing: false)
            try decoded.withUnsafeBytes { try deliver($0) }
        } else {
            try deliver(chunk)
        }
    }

    mutating func waitForDemand() async throws {
        if case .stream(let channel) = destination {
            try await channel.waitForDemand()
        }
    }

    /// The complete response, after the decoders have seen the end of their input. A body
    /// that went to a file or a stream is not in its ``HTTPResponse/data``.
    mutating func finish() throws -> HTTPResponse {
        if receivedBody, let decoders {
            let decoded = try decoders.decode(UnsafeRawBufferPointer(start: nil, count: 0), finishing: true)
            try decoded.withUnsafeBytes { try deliver($0) }
        }
        if case .file(let target) = destination {
            try target.finishWriting()
        }
        return HTTPResponse(statusCode: statusCode, headers: headers, data: body, url: url)
    }

    private mutating func deliver(_ bytes: UnsafeRawBufferPointer) throws {
        switch destination {
        case .memory:
            body.append(contentsOf: bytes)
            if body.count > maximumBodySize { throw HTTPError.responseTooLarge(limit: maximumBodySize) }
        case .file(let target):
            try target.write(bytes)
        case .stream(let channel):
            if !bytes.isEmpty { try channel.enqueue(Data(bytes)) }
        }
    }
}
