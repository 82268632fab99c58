import Foundation

/// permessage-deflate (RFC 7692): each message compressed with deflate, offered to the server
/// in the opening handshake. A server that does not take it up gets plain messages.
///
/// ```swift
/// var options = WebSocketOptions()
/// options.compression = PerMessageDeflate(clientNoContextTakeover: true)  // or nil: offer nothing
/// ```
public struct PerMessageDeflate: Sendable, Hashable {
    /// Asks the server to compress each message on its own (`server_no_context_takeover`):
    /// less memory on both sides, larger messages.
    public var serverNoContextTakeover: Bool
    /// Compresses each outgoing message on its own (`client_no_context_takeover`).
    public var clientNoContextTakeover: Bool
    /// The largest window, as a power of two (8–15), the server may compress with
    /// (`server_max_window_bits`); `nil` for the server's choice.
    public var serverMaxWindowBits: Int?
    /// Messages smaller than this go uncompressed: deflate does not pay on a few bytes.
    public var minimumSize: Int

    /// The extension's parameters, as offered (RFC 7692 §7.1); the defaults offer it plainly.
    public init(serverNoContextTakeover: Bool = false, clientNoContextTakeover: Bool = false, serverMaxWindowBits: Int? = nil, minimumSize: Int = 64) {
        self.serverNoContextTakeover = serverNoContextTakeover
        self.clientNoContextTakeover = clientNoContextTakeover
        self.serverMaxWindowBits = serverMaxWindowBits.map { min(max($0, 8), 15) }
        self.minimumSize = minimumSize
    }

    /// The `Sec-WebSocket-Extensions` value offering these settings. `client_max_window_bits`
    /// goes without a value: the server may ask for a smaller window than 15.
    var headerValue: String {
        var parts = ["permessage-deflate", "client_max_window_bits"]
        if serverNoContextTakeover { parts.append("server_no_context_takeover") }
        if clientNoContextTakeover { parts.append("client_no_context_takeover") }
        if let serverMaxWindowBits { parts.append("server_max_window_bits=\(serverMaxWindowBits)") }
        return parts.joined(separator: "; ")
    }

    /// What both sides use once the server agreed.
    struct Parameters: Sendable, Hashable {
        var serverNoContextTakeover: Bool
        var clientNoContextTakeover: Bool
        var serverMaxWindowBits: Int
        var clientMaxWindowBits: Int
        var minimumSize: Int
    }

    /// A refused agreement: what in the server's answer is wrong.
    struct Refusal: Error {
        let detail: String
    }

    /// Reads the server's `Sec-WebSocket-Extensions` answer to this offer (RFC 7692 §5–7).
    ///
    /// - Throws: ``Refusal`` for another extension than permessage-deflate, more than one,
    ///   an unknown, repeated or malformed parameter, or a window larger than offered.
    func accept(_ value: String) throws(Refusal) -> Parameters {
        let offers = value.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        guard offers.count == 1, let offer = offers.first else { throw Refusal(detail: "it agreed to several extensions (\(value))") }
        var items = offer.split(separator: ";").map { $0.trimmingCharacters(in: .whitespaces) }
        guard items.removeFirst().lowercased() == "permessage-deflate" else {
            throw Refusal(detail: "it agreed to an extension that was not offered (\(offer))")
        }
        var parameters = Parameters(
            serverNoContextTakeover: false, clientNoContextTakeover: clientNoContextTakeover, serverMaxWindowBits: 15,
            clientMaxWindowBits: 15, minimumSize: minimumSize)
        var seen = Set<String>()
        for item in items {
            let pair = item.split(separator: "=", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
            let name = pair[0].lowercased()
            let argument = pair.count == 2 ? pair[1].trimmingCharacters(in: CharacterSet(charactersIn: "\"")) : nil
            guard seen.insert(name).inserted else { throw Refusal(detail: "its permessage-deflate repeats \(name)") }
            switch name {
            case "server_no_context_takeover" where argument == nil:
                parameters.serverNoContextTakeover = true
            case "client_no_context_takeover" where argument == nil:
                parameters.clientNoContextTakeover = true
            case "server_max_window_bits":
                guard let bits = argument.flatMap(Int.init), (8...15).contains(bits), bits <= serverMaxWindowBits ?? 15 else {
                    throw Refusal(detail: "its server_max_window_bits (\(argument ?? "none")) is not 8–15 or is above the offer")
                }
                parameters.serverMaxWindowBits = bits
            case "client_max_window_bits":
                guard let bits = argument.flatMap(Int.init), (8...15).contains(bits) else {
                    throw Refusal(detail: "its client_max_window_bits (\(argument ?? "none")) is not 8–15")
                }
                parameters.clientMaxWindowBits = bits
            default:
                throw Refusal(detail: "its permessage-deflate has a parameter that is not RFC 7692's (\(item))")
            }
        }
        return parameters
    }
}
