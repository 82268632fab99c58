import JewzLocking

extension HTTPSession {
    /// What the default session is made from, and whether it has been.
    private struct DefaultSetup: Sendable {
        var configuration = Configuration()
        var isMade = false
    }

    private static let defaultSetup = Mutex(DefaultSetup())

    /// Sets the configuration of ``default`` (timeouts, headers, redirect policy, cookie jar,
    /// transport…), before its first use.
    ///
    /// - Throws: ``HTTPError/Code/invalidConfiguration`` once ``default`` has been made: a
    ///   session's configuration does not change under the requests already using it.
    public static func configureDefault(_ configuration: Configuration) throws(HTTPError) {
        try defaultSetup.withLock { (setup) throws(HTTPError) in
            guard !setup.isMade else {
                throw .invalidConfiguration(
                    "the default session is already in use; call HTTPSession.configureDefault before the first request, or create a session of your own")
            }
            setup.configuration = configuration
        }
    }

    /// The default session, from what was configured. Called once, by `default`'s initializer,
    /// so that reading `default` stays a plain load on every request.
    static func makeDefault() -> HTTPSession {
        let setup = defaultSetup.withLock { setup in
            setup.isMade = true
            return setup
        }
        return HTTPSession(configuration: setup.configuration)
    }
}
