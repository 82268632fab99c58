import ArgumentParser
import Jewzruxin

/// `--retries`, `--solicited` and `--rate`: how hard a request tries, inside `--timeout`, and how
/// often a script's requests may go.
struct ResilienceOptions: ParsableArguments {
    @Option(help: "Retry a failed request up to N times: timeouts, lost connections, 408 and 503 (Retry-After honoured), with backoff; 0 never retries (default 3).")
    var retries: Int?

    @Flag(help: "A person asked for this request: retry failures, however many, until data arrives or --timeout ends it.")
    var solicited = false

    @Option(help: "Send at most N requests to the URL's origin a second, or N per window (10, 10/s, 100/60s), counted across every jewz run on this machine: a script's loop waits its turn. A 429 or 503 with Retry-After holds later runs off too. Turns are kept in $XDG_STATE_HOME/jewz/rate (else ~/.local/state/jewz/rate).")
    var rate: String?

    /// The stage `--rate` asks for, nil without it.
    ///
    /// - Throws: `ValidationError` for a rate it cannot read, or with neither `XDG_STATE_HOME`
    ///   nor `HOME` set.
    func sharedRateLimit() throws -> SharedRateLimit? {
        guard let rate else { return nil }
        let limit = try RateLimit(option: rate)
        guard let directory = SharedRateLimit.defaultDirectory() else {
            throw ValidationError("--rate keeps its turns under XDG_STATE_HOME or HOME, and neither is set.")
        }
        return SharedRateLimit(limit: limit, directory: directory)
    }

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
