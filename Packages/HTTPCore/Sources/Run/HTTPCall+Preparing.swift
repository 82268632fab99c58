import Foundation

// The request as it goes into the pipeline.
extension HTTPCall {
    /// Prepares `request`: the session's headers and the decoders' Accept-Encoding where it has
    /// none, an idempotency key when the session adds them, the request processors (the fields
    /// the credential processors set go in `credentialFields`), and the checks that keep
    /// malformed requests off the wire.
    @inline(never)
    static func prepare(
        _ request: inout HTTPRequest, credentialFields: inout [String], processors: [any HTTPRequestProcessor], sessionWide: Bool,
        settings: HTTPSession.Settings, resumable: Bool, vettedURL: URL?
    ) throws {
        if resumable, !request.headers.contains("Accept-Encoding") {
            // Ranges of an encoded body cannot be decoded from the middle.
            request.headers["Accept-Encoding"] = "identity"
        }
        let defaults = settings.configuration.contentCodings.requestHeaders(adding: settings.configuration.additionalHeaders)
        request.headers.addMissing(from: defaults.fields)
        if settings.configuration.addsIdempotencyKeys { addIdempotencyKey(to: &request) }
        for processor in processors {
            guard processor is any HTTPCredentialProcessor else {
                try applying(processor) { try processor.prepare(&request) }
                continue
            }
            // The session's credentials stay with the origins it lets them go to.
            if sessionWide, !settings.configuration.sendsSessionCredentials(to: request.url) { continue }
            let before = request.headers
            try applying(processor) { try processor.prepare(&request) }
            credentialFields += request.headers.fields.lazy.filter { !before.fields.contains($0) }.map(\.name)
        }
        if request.object != nil, request.body == nil {
            try encodeWithoutProcessor(&request, registry: settings.configuration.processorRegistry)
        }
        try request.validateForSending(vettedURL: vettedURL, vettedHeaders: defaults.vetted)
    }

    /// A fresh `Idempotency-Key` for a POST or PATCH that has none.
    private static func addIdempotencyKey(to request: inout HTTPRequest) {
        guard request.method == .post || request.method == .patch, !request.headers.contains("Idempotency-Key") else { return }
        request.headers["Idempotency-Key"] = UUID().uuidString.lowercased()
    }

    /// A request object no processor turned into a body: bytes go as they are, a `String` as
    /// UTF-8 text, anything else through the registry's object processor (JSON, with the
    /// umbrella) — or it is an error rather than a request sent without its body.
    private static func encodeWithoutProcessor(_ request: inout HTTPRequest, registry: ProcessorRegistry) throws {
        switch request.object {
        case is Data, is [UInt8], is String:
            try HTTPDataProcessor().prepare(&request)
            if request.object is String { request.headers.addMissing(from: ["Content-Type": "text/plain; charset=utf-8"]) }
        case let object?:
            guard let processor = registry.objectProcessor else {
                throw HTTPError.unsupportedRequestObject(type: String(describing: type(of: object)), processor: nil)
            }
            try applying(processor) { try processor.prepare(&request) }
        case nil:
            return
        }
    }

    /// Runs a processor's step, naming it in the error it throws.
    static func applying<T>(_ processor: Any, _ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch {
            throw (error as? HTTPError) ?? HTTPError.processor(name: name(of: processor), underlying: error)
        }
    }

    /// Runs an authentication's step, naming it in the error it throws.
    static func authenticating<T>(_ authentication: any HTTPAuthentication, _ body: () async throws -> T) async throws -> T {
        do {
            return try await body()
        } catch {
            throw (error as? HTTPError) ?? HTTPError.authentication(name: name(of: authentication), underlying: error)
        }
    }

    private static func name(of part: Any) -> String {
        String(describing: type(of: part))
    }
}
