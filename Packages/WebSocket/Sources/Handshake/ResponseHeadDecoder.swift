import NIOCore
import NIOHTTP1

/// SwiftNIO's HTTP response decoder without its watch on the requests written: wrapped in
/// `ByteToMessageHandler` as it is, it also checks every outbound write for a request, and the
/// frames written while it leaves the upgraded pipeline (a pong, a close) are not requests. The
/// handshake's request is a `GET`: the decoder is told so once, as it would have seen it.
struct ResponseHeadDecoder: ByteToMessageDecoder {
    typealias InboundOut = HTTPClientResponsePart

    private let decoder = HTTPResponseDecoder(leftOverBytesStrategy: .forwardBytes)

    func decoderAdded(context: ChannelHandlerContext) {
        decoder.decoderAdded(context: context)
        decoder.write(data: .head(HTTPRequestHead(version: .http1_1, method: .GET, uri: "/")))
    }

    func decoderRemoved(context: ChannelHandlerContext) {
        decoder.decoderRemoved(context: context)
    }

    func decode(context: ChannelHandlerContext, buffer: inout ByteBuffer) throws -> DecodingState {
        try decoder.decode(context: context, buffer: &buffer)
    }

    func decodeLast(context: ChannelHandlerContext, buffer: inout ByteBuffer, seenEOF: Bool) throws -> DecodingState {
        try decoder.decodeLast(context: context, buffer: &buffer, seenEOF: seenEOF)
    }
}
