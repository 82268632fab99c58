import Configuration
import Foundation

/// The gateway's own keys (the session's are under `http`, read by JewzConfiguration).
struct GatewaySettings {
    /// `gateway.host`: the address it listens on.
    var host: String
    /// `gateway.port`: 0 picks a free port, printed when the gateway is listening.
    var port: Int
    /// `gateway.gracePeriod`: seconds the calls in flight get at shutdown.
    var gracePeriod: Duration
    /// `upstreams.catalog`: the base URL of the service that knows products' names.
    var catalog: URL
    /// `upstreams.prices`: the base URL of the service that knows their prices.
    var prices: URL

    init(_ config: ConfigReader) throws {
        host = config.string(forKey: "gateway.host", default: "127.0.0.1")
        port = config.int(forKey: "gateway.port", default: 8080)
        gracePeriod = .seconds(config.double(forKey: "gateway.gracePeriod", default: 20))
        catalog = try Self.url(config, "upstreams.catalog")
        prices = try Self.url(config, "upstreams.prices")
    }

    private static func url(_ config: ConfigReader, _ key: ConfigKey) throws -> URL {
        guard let text = config.string(forKey: key), let url = URL(string: text), url.host != nil else {
            throw GatewayError.setting(key.components.joined(separator: "."))
        }
        return url
    }
}

enum GatewayError: Error, CustomStringConvertible {
    case setting(String)

    var description: String {
        switch self {
        case .setting(let key):
            "\(key) needs an absolute http(s) URL: set it in the JSON file GATEWAY_CONFIG names, or as \(key.uppercased().replacingOccurrences(of: ".", with: "_"))."
        }
    }
}
