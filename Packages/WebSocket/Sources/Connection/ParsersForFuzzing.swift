import NIOCore
import NIOWebSocket

/// The message assembler and the inflater, which read what a server sends and have no public
/// way in, for the harnesses in `Tools/Fuzz` (`@_spi(Fuzzing) import JewzWebSocket`). Not API.
@_spi(Fuzzing) public enum WebSocketParsers {
    /// Feeds `frames` to a message assembler of `maximumSize`: the sizes of the messages it
    /// gave, until the first frame it refused.
    public static func assemble(_ frames: [WebSocketFrame], maximumSize: Int) -> [Int] {
        var assembler = MessageAssembler(maximumSize: maximumSize)
        var sizes: [Int] = []
        for frame in frames {
            do {
                if let message = try assembler.take(frame) { sizes.append(message.data.readableBytes) }
            } catch {
                break
            }
        }
        return sizes
    }

    /// Inflates `messages` one after another on one connection's inflater, each at most
    /// `limit` bytes: the sizes inflated, `nil` for a message refused.
    public static func inflate(_ messages: [ByteBuffer], limit: Int, noContextTakeover: Bool) -> [Int?] {
        let parameters = PerMessageDeflate.Parameters(
            serverNoContextTakeover: noContextTakeover, clientNoContextTakeover: false, serverMaxWindowBits: 15, clientMaxWindowBits: 15,
            minimumSize: 0)
        guard let codec = DeflateCodec(parameters) else { return [] }
        return messages.map { (try? codec.decompress($0, limit: limit, allocator: ByteBufferAllocator()))?.readableBytes }
    }
}
