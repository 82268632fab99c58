import Foundation
import JewzHTTPCore
import JewzURITemplate

// Making cycles for resources, and starting them, with Create, Reuse and Replace.
extension HTTPService {
    /// A cycle for the resource called `name`, not started: its URL the resource's template
    /// expanded with `values` against the base URL, with the profile's method, headers,
    /// timeout and processors.
    ///
    /// - Parameters:
    ///   - name: the resource's name in the profile.
    ///   - values: what the resource's URI template is expanded with.
    ///   - object: the request's body object, for the request processors.
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
        if option == .reuse, let existing = unfinishedCycle(identifier) { return existing }
        let made = try makeCycle(name, values: values, object: object)
        let replaced = state.withLock { $0.identified.updateValue(made, forKey: identifier) }
        if option == .replace {
            runs.cancel(identifier)
            replaced?.cancel(explicitly: false)
        }
        return made
    }

    /// Makes the cycle as ``cycle(forResource:values:object:identifier:option:)`` does, starts it
    /// and returns it once it has finished, its response in ``/JewzHTTPCore/HTTPCycle/response``.
    ///
    /// With `.reuse`, callers asking while a cycle of that identifier runs wait for that one:
    /// a hundred at once make one exchange, and it is cancelled only when all of them left.
    /// With `.replace`, each cancels the one before: the replaced callers get
    /// ``/JewzHTTPCore/HTTPError/Code/cancelled``.
    ///
    /// - Throws: ``ServiceError``, and what the cycle throws (`HTTPError`).
    @discardableResult
    public func request(
        _ name: String, values: [String: URITemplate.Value] = [:], object: (any Sendable)? = nil,
        identifier: String? = nil, option: CycleOption = .create
    ) async throws -> HTTPCycle {
        guard let identifier, option != .create else {
            let cycle = try makeCycle(name, values: values, object: object)
            try await cycle.start()
            return cycle
        }
        do {
            return try await runs.value(for: identifier, replacing: option == .replace) {
                // A cycle of the identifier made (and maybe started) by hand is shared, not restarted.
                if option == .reuse, let existing = unfinishedCycle(identifier) { return run(existing, as: identifier) }
                let made = try makeCycle(name, values: values, object: object)
                let replaced = state.withLock { $0.identified.updateValue(made, forKey: identifier) }
                if option == .replace, replaced?.isRunning == true { replaced?.cancel(explicitly: false) }
                return run(made, as: identifier)
            }
        } catch is CancellationError {
            // This caller left, or a later `.replace` took the identifier.
            throw HTTPError.cancelled(explicitly: true)
        }
    }

    /// As ``request(_:values:object:identifier:option:)``, calling `completion` on the
    /// session's completion queue when the cycle ends.
    ///
    /// With `.reuse`, a caller asking while a cycle of that identifier runs gets that cycle and
    /// is called back when it ends, as every other caller of it is: each caller hears back
    /// once. With `.replace`, a replaced caller is called back with ``/JewzHTTPCore/HTTPError/Code/cancelled``.
    ///
    /// - Returns: the cycle, started (or running already, for `.reuse`).
    /// - Throws: ``ServiceError`` when the cycle cannot be made (then `completion` is not called).
    @discardableResult
    public func request(
        _ name: String, values: [String: URITemplate.Value] = [:], object: (any Sendable)? = nil,
        identifier: String? = nil, option: CycleOption = .create, completion: @escaping HTTPCycle.Completion
    ) throws(ServiceError) -> HTTPCycle {
        guard let identifier, option != .create else {
            let cycle = try makeCycle(name, values: values, object: object)
            cycle.start(completion: completion)
            return cycle
        }
        let cycle = try self.cycle(forResource: name, values: values, object: object, identifier: identifier, option: option)
        let queue = session.completionQueue
        // Joins the identifier's run before returning, as an awaiting caller would, so that
        // callers of both forms share one exchange, each is answered, and the last `.replace` wins.
        runs.join(identifier, replacing: option == .replace, starting: { run(cycle, as: identifier) }) { result in
            let failure: HTTPError? =
                switch result {
                case .success: nil
                case .failure(let error as HTTPError): error
                case .failure: .cancelled(explicitly: false)
                }
            queue.async { completion(cycle, failure) }
        }
        return cycle
    }

    /// The work of the run of `cycle` under `identifier`, which every caller of that identifier
    /// shares while it lasts: the cycle's run in progress when someone started it already,
    /// else a new one.
    private func run(_ cycle: HTTPCycle, as identifier: String) -> SingleFlight<String, HTTPCycle>.Work {
        .init(prioritize: { cycle.options.priority = $0 }) {
            defer { self.forget(cycle, as: identifier) }
            try await cycle.startOrJoin()
            return cycle
        }
    }

    // MARK: Identified cycles

    /// The cycle made last with `identifier` while it has not finished: it runs, or it was
    /// made and not yet started.
    private func unfinishedCycle(_ identifier: String) -> HTTPCycle? {
        guard let cycle = state.withLock({ $0.identified[identifier] }) else { return nil }
        return cycle.isRunning || cycle.response == nil ? cycle : nil
    }

    private func forget(_ cycle: HTTPCycle, as identifier: String) {
        state.withLock { state in
            if state.identified[identifier] === cycle { state.identified[identifier] = nil }
        }
    }

    // MARK: Making cycles

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
        let text = Self.hasScheme(expanded) ? expanded : baseURL.isEmpty ? session.resolvingAgainstBaseURL(expanded) : baseURL + expanded
        guard let url = URL(encodingIfNeeded: text), url.isSendableHTTP else { throw ServiceError.invalidURL(text, resource: name) }
        var request = HTTPRequest(url: url, method: resource.method, object: object)
        if !profile.headers.fields.isEmpty || !resource.headers.fields.isEmpty {
            var headers = resource.headers
            headers.addMissing(from: profile.headers)
            request.headers = headers
        }
        let options = HTTPRequestOptions(
            requestProcessors: try processors(
                resource.requestProcessor ?? profile.requestProcessor, resource: name, raw: HTTPDataProcessor() as any HTTPRequestProcessor
            ) { $0.requestProcessor(forContentType: $1) },
            responseProcessors: try processors(
                resource.responseProcessor ?? profile.responseProcessor, resource: name, raw: HTTPDataProcessor() as any HTTPResponseProcessor
            ) { $0.processor(forContentType: $1) },
            authentications: authentications, timeoutForResource: resource.timeout ?? profile.timeout)
        let cycle = HTTPCycle(request: request, options: options, session: session, vettedURL: url)
        hook?(cycle, name)
        return cycle
    }

    /// The processor a profile names: the raw one, or the session's registry's for its content type.
    private func processors<Processor>(
        _ choice: ServiceProfile.ProcessorChoice?, resource: String, raw: Processor, lookup: (ProcessorRegistry, String) -> Processor?
    ) throws(ServiceError) -> [Processor]? {
        guard let choice else { return nil }
        guard let contentType = choice.contentType else { return [raw] }
        guard let processor = lookup(session.settings().configuration.processorRegistry, contentType) else {
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
