/// One event of a `text/event-stream` body (WHATWG HTML §9.2).
public struct ServerSentEvent: Sendable, Hashable {
    /// The event's type: its `event` field, `message` when it had none.
    public var type: String
    /// Its `data` fields, joined by line feeds.
    public var data: String
    /// The last event ID when it was dispatched: its own `id` field, or the last one before it
    /// (IDs carry over from event to event and across reconnections); empty when none was sent.
    public var id: String

    /// An event of `type` with `data` and `id`.
    public init(type: String = "message", data: String, id: String = "") {
        self.type = type
        self.data = data
        self.id = id
    }
}
