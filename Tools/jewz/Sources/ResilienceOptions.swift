import ArgumentParser
import Jewzruxin

/// `--retries` and `--solicited`: how hard a request tries, inside `--timeout`.
struct ResilienceOptions: ParsableArguments {
    @Option(help: "Retry a failed request up to N times: timeouts, lost connections, 408 and 503 (Retry-After honoured), with backoff; 0 never retries (default 3).")
    var retries: Int?

    @Flag(help: "A person asked for this request: retry failures, however many, until data arrives or --timeout ends it.")
    var solicited = false

    /// Gives `cycle` the retry policy and solicitation asked for.
    ///
    /// - Throws: `ValidationError` for a negative count, or `--solicited` without `--timeout`
    ///   (it would retry a dead server for ever).
    func apply(to cycle: HTTPCycle, timeout: Double?) throws {
        if let retries {
            guard retries >= 0 else { throw ValidationError("--retries takes 0 or more.") }
            var policy = cycle.session.configuration.retryPolicy
            policy.maximumRetryCount = retries
            cycle.options.retryPolicy = policy
        }
        if solicited {
            guard timeout != nil else { throw ValidationError("--solicited retries until data arrives: give --timeout SECONDS to bound it.") }
            cycle.options.solicited = true
        }
    }
}
