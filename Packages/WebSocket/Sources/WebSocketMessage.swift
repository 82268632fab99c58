import Foundation

extension WebSocket {
    /// One whole message, its fragments joined and, with permessage-deflate, inflated.
    public enum Message: Sendable, Hashable {
        /// A text message, valid UTF-8.
        case text(String)
        /// A binary message.
        case binary(Data)

        /// The message's bytes: a text's as UTF-8.
        public var data: Data {
            switch self {
            case .text(let text): Data(text.utf8)
            case .binary(let data): data
            }
        }
    }
}
