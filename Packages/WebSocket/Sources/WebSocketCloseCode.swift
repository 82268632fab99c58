extension WebSocket {
    /// The status code of a close frame (RFC 6455 §7.4), its meaning registered by IANA.
    public struct CloseCode: Sendable, Hashable, RawRepresentable, CustomStringConvertible {
        /// The code as it goes on the wire.
        public let rawValue: UInt16

        /// The close code `rawValue`.
        public init(rawValue: UInt16) {
            self.rawValue = rawValue
        }

        /// The purpose of the connection is fulfilled.
        public static let normalClosure = CloseCode(rawValue: 1000)
        /// The endpoint goes away: a server shutting down, a page left.
        public static let goingAway = CloseCode(rawValue: 1001)
        /// The peer broke the protocol.
        public static let protocolError = CloseCode(rawValue: 1002)
        /// A message of a kind the endpoint cannot take (binary where it wants text).
        public static let unsupportedData = CloseCode(rawValue: 1003)
        /// No code was in the close frame. Never sent.
        public static let noStatusReceived = CloseCode(rawValue: 1005)
        /// The connection closed without a close frame. Never sent.
        public static let abnormalClosure = CloseCode(rawValue: 1006)
        /// A text message was not valid UTF-8, or a message's data did not fit its type.
        public static let invalidPayload = CloseCode(rawValue: 1007)
        /// A message broke the endpoint's policy.
        public static let policyViolation = CloseCode(rawValue: 1008)
        /// A message was larger than the endpoint takes.
        public static let messageTooBig = CloseCode(rawValue: 1009)
        /// The client needed an extension the server did not agree to.
        public static let mandatoryExtension = CloseCode(rawValue: 1010)
        /// The server met a condition it did not expect.
        public static let internalError = CloseCode(rawValue: 1011)

        /// Whether a peer may send this code in a close frame: the registered codes that are
        /// not reserved for reports (1005, 1006, 1015), and 3000–4999 for libraries and apps.
        public var isSendable: Bool {
            switch rawValue {
            case 1000...1003, 1007...1014: true
            case 3000...4999: true
            default: false
            }
        }

        /// The code as a number.
        public var description: String { String(rawValue) }
    }
}
