import JewzLocking

/// What a connection's frame handler and its ``WebSocket`` share: whether a close began, and
/// how the connection ended. The first ending recorded is the one kept.
final class ConnectionState: Sendable {
    private struct Fields {
        var isClosing = false
        var closure: WebSocket.Closure?
    }

    private let fields = Mutex(Fields())
    /// The pings of ``WebSocket/ping(_:)`` waiting for their pongs.
    let pongs = PongWaiters()

    /// Marks the close begun; `false` when it had begun already.
    func beginClosing() -> Bool {
        fields.withLock { fields in
            defer { fields.isClosing = true }
            return !fields.isClosing
        }
    }

    var isClosing: Bool { fields.withLock { $0.isClosing } }

    /// Keeps `closure` unless an ending was recorded before it.
    func record(_ closure: WebSocket.Closure) {
        fields.withLock { fields in
            fields.isClosing = true
            if fields.closure == nil { fields.closure = closure }
        }
        pongs.end(with: WebSocketError(.closed, ""))
    }

    var closure: WebSocket.Closure? { fields.withLock { $0.closure } }
}
