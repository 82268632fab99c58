import JewzLocking

/// One connection kept for a run of exchanges that must share it: the legs of a handshake that
/// authenticates a connection (NTLM) and the request they unlock. A request carrying it
/// (``HTTPRequest/dedicatedConnection``) goes over that connection, HTTP/1.1 and kept alive,
/// opened by its first exchange; ``close()`` ends it.
///
/// Why a connection of its own rather than the pool's: a pool promises no connection, and
/// another request in flight could take the one the handshake authenticated.
package final class DedicatedConnection: Sendable {
    private let lane = Mutex<LaneState>(.unopened)

    private enum LaneState {
        case unopened
        case open(ClientLane)
        case closed
    }

    package init() {}

    /// The lane this connection's exchanges go down, made by `make` for the first.
    ///
    /// - Throws: ``HTTPError/Code/invalidConfiguration`` after ``close()``.
    func lane(making make: () -> ClientLane) throws(HTTPError) -> ClientLane {
        try lane.withLock { state throws(HTTPError) in
            switch state {
            case .open(let lane):
                return lane
            case .unopened:
                let lane = make()
                state = .open(lane)
                return lane
            case .closed:
                throw .invalidConfiguration("a dedicated connection was used after its handshake ended")
            }
        }
    }

    /// Closes the connection, once its last exchange has ended; returns without waiting for
    /// the socket to close.
    package func close() {
        let open = lane.withLock { state -> ClientLane? in
            defer { state = .closed }
            guard case .open(let lane) = state else { return nil }
            return lane
        }
        _ = open?.client.shutdown()
    }

    deinit {
        // A client dropped without shutdown traps in debug builds: a request copied past the
        // handshake (by a middleware) must not take the process down.
        if case .open(let lane) = lane.withLock({ $0 }) { _ = lane.client.shutdown() }
    }
}
