extension HTTPSession {
    /// `urlString` as the cycles of this session read it: without a scheme and with a
    /// `baseURL`, a path under the base (httpx's rule, not RFC 3986's, which would drop the
    /// base's last segment).
    package func resolvingAgainstBaseURL(_ urlString: String) -> String {
        let settings = settings()
        guard let base = settings.configuration.baseURL, !urlString.contains("://") else { return urlString }
        let prefix = base.absoluteString
        return (prefix.hasSuffix("/") ? prefix : prefix + "/") + urlString.drop { $0 == "/" }
    }
}
