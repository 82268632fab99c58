import NIOHTTP1

extension HTTPResponse {
    /// The standard reason phrase for a status code (`404` → `Not Found`), as SwiftNIO knows
    /// it; empty for a code without one.
    public static func reasonPhrase(for statusCode: Int) -> String {
        HTTPResponseStatus(statusCode: statusCode).reasonPhrase
    }
}
