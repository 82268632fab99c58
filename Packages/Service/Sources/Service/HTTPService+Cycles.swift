import Foundation
import JewzHTTPCore
import JewzLocking
import JewzURITemplate

// Making cycles for resources, and starting them: the seed's cycleForResource and
// requestResource, with Create, Reuse and Replace.
extension HTTPService {
    /// A cycle for the resource called `name`, not started: its URL the resource's template
    /// expanded with `values` against the base URL, with the profile's method, headers,
    /// timeout and processors.
    ///
    /// - Parameters:
    ///   - identifier: names the cycle within the service, for `option`.
    ///   - option: with an identifier, `.reuse` returns the cycle of that identifier while it
    ///     has not finished, `.replace` cancels it and makes a new one.
    /// - Throws: ``ServiceError``: ``ServiceError/Code/unknownResource``,
    ///   ``ServiceError/Code/invalidURL``, ``ServiceError/Code/processorUnavailable``.
    public func cycle(
        forResource name: String, values: [String: URITemplate.Value] = [:], object: (any Sendable)? = nil,
        identifier: String? = nil, option: CycleOption = .create
    ) throws(ServiceError) -> HTTPCycle {
        guard let identifier, option != .create else { return try makeCycle(name, values: values, object: object) }
        if option == .reuse, let existing = state.withLock({ Self.unfinished($0.identified[identifier]) }) { return existing.cycle }
        let made = try makeCycle(name, values: values, object: object)
        return register(made, as: identifier, option: option, start: false).cycle
    }

    /// Makes the cycle as ``cycle(forResource:values:object:identifier:option:)`` does, starts it
    /// and returns it once it has finished, its response in ``HTTPCycle/response``.
    ///
    /// With `.reuse`, callers asking while a cycle of that identifier runs wait for that one:
    /// a hundred at once make one exchange. With `.replace`, each cancels the one before: the
    /// replaced callers get ``HTTPError/Code/cancelled``.
    ///
    /// - Throws: ``ServiceError``, and what the cycle throws (`HTTPError`).
    @discardableResult
    public func request(
        _ name: String, values: [String: URITemplate.Value] = [:], object: (any Sendable)? = nil,
        identifier: String? = nil, option: CycleOption = .create
    ) async throws -> HTTPCycle {
        guard let identifier, option != .create else {
            let cycle = try makeCycle(name, values: values, object: object)
            try await run(cycle)
            return cycle
        }
        if option == .reuse, let existing = state.withLock({ Self.unfinished($0.identified[identifier]) }), let run = existing.run {
            _ = try await Self.outcome(of: run, cancellingOnLeave: false)
            return existing.cycle
        }
        let made = try makeCycle(name, values: values, object: object)
        let entry = register(made, as: identifier, option: option, start: true)
        guard let run = entry.run else {
            try await entry.cycle.start()
            return entry.cycle
        }
        // A run others may reuse goes on for them when its maker leaves.
        _ = try await Self.outcome(of: run, cancellingOnLeave: option != .reuse)
        return entry.cycle
    }

    /// As ``request(_:values:object:identifier:option:)``, calling `completion` on the
    /// session's completion queue when the cycle ends.
    ///
    /// - Returns: the cycle, started.
    /// - Throws: ``ServiceError`` when the cycle cannot be made (then `completion` is not called).
    @discardableResult
    public func request(
        _ name: String, values: [String: URITemplate.Value] = [:], object: (any Sendable)? = nil,
        identifier: String? = nil, option: CycleOption = .create, completion: @escaping HTTPCycle.Completion
    ) throws(ServiceError) -> HTTPCycle {
        let cycle = try self.cycle(forResource: name, values: values, object: object, identifier: identifier, option: option)
        if !cycle.isRunning { cycle.start(completion: completion) }
        return cycle
    }

    // MARK: Identified cycles

    /// Records `made` under `identifier`, or returns the unfinished cycle already there when
    /// reusing; replacing cancels what was there. When `start`, the recorded cycle runs in a task
    /// of the service's, which forgets it when done.
    private func register(_ made: HTTPCycle, as identifier: String, option: CycleOption, start: Bool) -> Identified {
        let (entry, replaced) = state.withLock { state -> (Identified, Identified?) in
            let existing = state.identified[identifier]
            if option == .reuse, let unfinished = Self.unfinished(existing), !start || unfinished.run != nil { return (unfinished, nil) }
            var entry = Identified(cycle: made, run: nil)
            if start {
                entry.run = Task {
                    defer { self.forget(made, as: identifier) }
                    return try await made.start()
                }
            }
            state.identified[identifier] = entry
            return (entry, option == .replace ? existing : nil)
        }
        if let replaced {
            replaced.run?.cancel()
            replaced.cycle.cancel(explicitly: false)
        }
        return entry
    }

    /// The outcome of `run`, or ``HTTPError/Code/cancelled`` as soon as the calling task is
    /// cancelled: a caller that leaves does not wait for an exchange it shares.
    private static func outcome(of run: Task<HTTPResponse, any Error>, cancellingOnLeave: Bool) async throws -> HTTPResponse {
        let waiter = Waiter()
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                waiter.continuation.withLock { $0 = continuation }
                if Task.isCancelled {
                    if cancellingOnLeave { run.cancel() }
                    waiter.resume(with: .failure(HTTPError.cancelled(explicitly: true)))
                    return
                }
                Task { waiter.resume(with: await run.result) }
            }
        } onCancel: {
            if cancellingOnLeave { run.cancel() }
            waiter.resume(with: .failure(HTTPError.cancelled(explicitly: true)))
        }
    }

    private func forget(_ cycle: HTTPCycle, as identifier: String) {
        state.withLock { state in
            if state.identified[identifier]?.cycle === cycle { state.identified[identifier] = nil }
        }
    }

    /// `entry` while its cycle has not finished: its run goes on, or it was made and not yet
    /// started (or is running, started by its caller).
    private static func unfinished(_ entry: Identified?) -> Identified? {
        guard let entry else { return nil }
        if entry.run != nil || entry.cycle.isRunning || entry.cycle.response == nil { return entry }
        return nil
    }

    // MARK: Making cycles

    /// Runs a cycle only its caller holds: in the calling task, as `HTTPCycle.get` does, unless
    /// the hook may have handed it to others, whose `cancel` needs a task of its own to stop.
    func run(_ cycle: HTTPCycle) async throws {
        if state.withLock({ $0.hook == nil }) { try await cycle.startUnshared() } else { try await cycle.start() }
    }

    /// A new cycle for resource `name`, the hook called on it.
    func makeCycle(_ name: String, values: [String: URITemplate.Value], object: (any Sendable)?) throws(ServiceError) -> HTTPCycle {
        let (profile, baseURL, hook, authentications) = state.withLock { state in
            (state.profile, state.baseURL, state.hook, state.environment.flatMap { state.credentials[$0] } ?? state.authentications)
        }
        guard let resource = profile.resource(named: name) else {
            throw ServiceError.unknownResource(name, known: profile.resources.map(\.name))
        }
        let expanded: String
        do {
            // A name the template spells percent-encoded (an OpenAPI `page-size`) is given as it reads.
            expanded = try resource.template.expand { name in
                values[name] ?? (name.utf8.contains(UInt8(ascii: "%")) ? name.removingPercentEncoding.flatMap { values[$0] } : nil)
            }
        } catch {
            throw ServiceError.invalidURL("\(resource.template) (\(error))", resource: name)
        }
        // Without a base URL of its own, a relative expansion goes under the session's.
        let text = Self.hasScheme(expanded) ? expanded : baseURL.isEmpty ? session.resolve(expanded) : baseURL + expanded
        guard let url = URL(string: text), url.isSendableHTTP else { throw ServiceError.invalidURL(text, resource: name) }
        var request = HTTPRequest(url: url, method: resource.method, object: object)
        if !profile.headers.fields.isEmpty || !resource.headers.fields.isEmpty {
            var headers = resource.headers
            headers.addMissing(from: profile.headers)
            request.headers = headers
        }
        request.timeout = resource.timeout ?? profile.timeout
        let cycle = HTTPCycle(
            request: request, session: session,
            requestProcessors: try processors(resource.requestProcessor ?? profile.requestProcessor, resource: name),
            responseProcessors: try processors(resource.responseProcessor ?? profile.responseProcessor, resource: name),
            authentications: authentications, vettedURL: url)
        hook?(cycle, name)
        return cycle
    }

    private func processors(_ choice: ServiceProfile.ProcessorChoice?, resource: String) throws(ServiceError) -> [any HTTPProcessor]? {
        guard let choice else { return nil }
        guard let contentType = choice.contentType else { return [HTTPDataProcessor()] }
        guard let processor = session.processorRegistry.processor(forContentType: contentType) else {
            throw ServiceError.processorUnavailable(contentType, resource: resource)
        }
        return [processor]
    }

    /// Whether `text` starts with a URI scheme and its `:` (RFC 3986: a letter, then letters,
    /// digits, `+`, `-` or `.`): an absolute URL, which the base URL does not go in front of.
    private static func hasScheme(_ text: String) -> Bool {
        for (index, byte) in text.utf8.enumerated() {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"): continue
            case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "+"), UInt8(ascii: "-"), UInt8(ascii: "."): if index == 0 { return false }
            case UInt8(ascii: ":"): return index > 0
            default: return false
            }
        }
        return false
    }
}

/// A caller waiting for a run's outcome, resumed once: by the outcome or by leaving.
private final class Waiter: Sendable {
    let continuation = Mutex<CheckedContinuation<HTTPResponse, any Error>?>(nil)

    func resume(with result: Result<HTTPResponse, any Error>) {
        continuation.withLock { $0.take() }?.resume(with: result)
    }
}
