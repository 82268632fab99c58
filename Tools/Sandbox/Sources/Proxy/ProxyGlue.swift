import NIOCore

/// One side of a tunnel: what its channel reads is written to the partner's channel, and a
/// close on either side closes both. Reading pauses while the partner cannot take more, so a
/// tunnel holds at most a channel's write buffer in memory.
final class ProxyGlue: ChannelDuplexHandler {
    typealias InboundIn = NIOAny
    typealias OutboundIn = NIOAny
    typealias OutboundOut = NIOAny

    private var partner: ProxyGlue?
    private var context: ChannelHandlerContext?
    private var pendingRead = false

    private init() {}

    /// Two glued handlers, one for each channel; both channels must share an event loop.
    static func pair() -> (ProxyGlue, ProxyGlue) {
        let first = ProxyGlue()
        let second = ProxyGlue()
        first.partner = second
        second.partner = first
        return (first, second)
    }

    func handlerAdded(context: ChannelHandlerContext) {
        self.context = context
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        self.context = nil
        partner = nil
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        partner?.context?.write(data, promise: nil)
    }

    func channelReadComplete(context: ChannelHandlerContext) {
        partner?.context?.flush()
    }

    func channelInactive(context: ChannelHandlerContext) {
        partner?.context?.close(promise: nil)
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        context.close(promise: nil)
    }

    func channelWritabilityChanged(context: ChannelHandlerContext) {
        if context.channel.isWritable { partner?.resumeReading() }
    }

    func read(context: ChannelHandlerContext) {
        if partner?.context?.channel.isWritable ?? true {
            context.read()
        } else {
            pendingRead = true
        }
    }

    private func resumeReading() {
        guard pendingRead, let context else { return }
        pendingRead = false
        context.read()
    }
}
