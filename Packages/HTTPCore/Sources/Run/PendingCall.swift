import JewzLocking

/// A call that may not have started yet, for work that must reach it from its first moment (a
/// shared download whose waiters' highest priority changes): a priority set before the call
/// exists is the one it starts with, one set later moves it in the queue.
package final class PendingCall: Sendable {
    private let state: Mutex<(call: HTTPCall?, priority: RequestPriority)>

    package init(priority: RequestPriority = .normal) {
        state = Mutex((nil, priority))
    }

    /// The priority the call starts with, or has.
    package var priority: RequestPriority {
        get { state.withLock { $0.priority } }
        set {
            let started = state.withLock { state in
                state.priority = newValue
                return state.call
            }
            started?.priority = newValue
        }
    }

    /// Options that start the call at the priority set so far.
    package func options(_ options: HTTPRequestOptions = HTTPRequestOptions()) -> HTTPRequestOptions {
        var options = options
        options.priority = priority
        return options
    }

    /// Takes the call as it starts (``HTTPSession/send(_:options:vettedURL:started:)``), moving
    /// it when the priority changed since its options were made.
    package func started(_ call: HTTPCall) {
        let priority = state.withLock { state in
            state.call = call
            return state.priority
        }
        if priority != call.priority { call.priority = priority }
    }
}
