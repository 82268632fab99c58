import NIOCore

/// One side of a tunnel: what its channel reads is written to the partner's channel, and a
/// close on either side closes both. Reading pauses while the partner cannot take more, so a
/// tunnel holds at most a channel's write buffer in memory.
public final class ProxyGlue: ChannelDuplexHandler {
    public typealias InboundIn = NIOAny
    public typealias OutboundIn = NIOAny
    public typealias OutboundOut = NIOAny

    private var partner: ProxyGlue?
    private var context: ChannelHandlerContext?
    private var pendingRead = false

    private init() {}

    /// Two glued handlers, one for each channel; both channels must share an event loop.
    public static func pair() -> (ProxyGlue, ProxyGlue) {
        let first = ProxyGlue()
        let second = ProxyGlue()
        first.partner = second
        second.partner = first
        return (first, second)
    }

    public func handlerAdded(context: ChannelHandlerContext) {
        self.context = context
    }

    public func handlerRemoved(context: ChannelHandlerContext) {
        self.context = nil
        partner = nil
    }

    public func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        partner?.context?.write(data, promise: nil)
    }

    public func channelReadComplete(context: ChannelHandlerContext) {
        partner?.context?.flush()
    }

    public func channelInactive(context: ChannelHandlerContext) {
        partner?.context?.close(promise: nil)
    }

    public func errorCaught(context: ChannelHandlerContext, error: any Error) {
        context.close(promise: nil)
    }

    public func channelWritabilityChanged(context: ChannelHandlerContext) {
        if context.channel.isWritable { partner?.resumeReading() }
    }

    public func read(context: ChannelHandlerContext) {
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
