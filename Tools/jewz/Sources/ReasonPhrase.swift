import NIOHTTP1

/// The standard reason phrase for a status code (`404` → `Not Found`), as SwiftNIO knows it.
/// Kept apart because NIOHTTP1's `HTTPMethod` and Jewzruxin's share a name.
func reasonPhrase(for statusCode: Int) -> String {
    HTTPResponseStatus(statusCode: statusCode).reasonPhrase
}
