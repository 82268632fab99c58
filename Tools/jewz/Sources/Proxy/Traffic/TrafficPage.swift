/// The traffic view's page: static files kept in the binary (`Page/`, embedded at build time),
/// no framework and no build step of their own.
enum TrafficPage {
    /// What the page may load: its own files, images from its bodies as `data:` URLs, nothing
    /// else; so a body that holds markup can never run as the page.
    private static let policy = "default-src 'self'; img-src 'self' data:; style-src 'self'; script-src 'self'; frame-ancestors 'none'"

    /// The file `name`, or a 404.
    static func file(_ name: String) -> TrafficReply {
        let found: ([UInt8], String)? = switch name {
        case "index.html": (PackageResources.index_html, "text/html; charset=utf-8")
        case "traffic.js": (PackageResources.traffic_js, "text/javascript; charset=utf-8")
        case "bodies.js": (PackageResources.bodies_js, "text/javascript; charset=utf-8")
        case "traffic.css": (PackageResources.traffic_css, "text/css; charset=utf-8")
        default: nil
        }
        guard let (bytes, type) = found else { return .text(404, "No such page: /\(name)") }
        return .content(status: 200, headers: [("Content-Type", type), ("Content-Security-Policy", policy)], body: bytes)
    }
}
