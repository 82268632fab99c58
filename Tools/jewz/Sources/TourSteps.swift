import Foundation
import JewzLocking
import Jewzruxin
import JewzSandbox

/// The tour's steps, from the simplest call to the whole toolkit. Each `code` is the code its
/// `run` executes, with `url(…)` standing for the Sandbox's address.
extension TourStep {
    static func all(_ sandbox: Sandbox) -> [TourStep] {
        let url = sandbox.url
        return [
            TourStep(
                title: "Send a request: a request in, the processed response out",
                code: """
                    var request = HTTPRequest(url: target, method: .post)   // target: URL of /dumpupload/
                    request.object = "Hello"
                    let response = try await HTTPSession.default.send(request, options: .init(retryPolicy: .never))
                    response.text   // cancelling the calling task would have cancelled it
                    """
            ) {
                guard let target = URL(string: url("/dumpupload/")) else { return Outcome("bad URL", expected: "\"Hello\"") }
                var request = HTTPRequest(url: target, method: .post)
                request.object = "Hello"
                let response = try await HTTPSession.default.send(request, options: .init(retryPolicy: .never))
                return Outcome("\"\(response.text ?? "")\"", expected: "\"Hello\"")
            },
            TourStep(
                title: "One call from a URL string: the async form returns the processed response",
                code: """
                    let response = try await HTTPCycle.get(url("/hello/"))
                    response.text
                    """
            ) {
                let response = try await HTTPCycle.get(url("/hello/"))
                return Outcome("\"\(response.text ?? "")\"", expected: "\"Hello World\"")
            },
            TourStep(
                title: "The completion-handler form returns the cycle at once",
                code: """
                    try HTTPCycle.get(url("/hello/")) { cycle, error in
                        // runs on the session's completion queue
                    }
                    """
            ) {
                let text: String? = try await withCheckedThrowingContinuation { continuation in
                    do {
                        try HTTPCycle.get(url("/hello/")) { cycle, error in
                            continuation.resume(returning: error == nil ? cycle.response?.text : nil)
                        }
                    } catch {
                        continuation.resume(throwing: error)
                    }
                }
                return Outcome("completion got \"\(text ?? "nothing")\"", expected: "completion got \"Hello World\"")
            },
            TourStep(
                title: "An invalid URL throws at once, before anything is sent",
                code: """
                    try await HTTPCycle.get("not a url")   // throws HTTPError, code .invalidURL
                    """
            ) {
                do {
                    _ = try await HTTPCycle.get("not a url")
                    return Outcome("no error", expected: "HTTPError.invalidURL")
                } catch HTTPError.Code.invalidURL {
                    return Outcome("HTTPError.invalidURL", expected: "HTTPError.invalidURL")
                }
            },
            TourStep(
                title: "Query parameters merge into the URL's query (arrays repeat the name)",
                code: """
                    let response = try await HTTPCycle.get(url("/inspect?page=2"), parameters: ["tag": ["a", "b"], "q": "swift nio"])
                    // the server saw this request target:
                    """
            ) {
                let response = try await HTTPCycle.get(url("/inspect?page=2"), parameters: ["tag": ["a", "b"], "q": "swift nio"])
                let target = (try? JSONSerialization.jsonObject(with: response.data ) as? [String: Any])?["uri"] as? String
                return Outcome(target ?? "?", expected: "/inspect?page=2&tag=a&tag=b&q=swift%20nio")
            },
            TourStep(
                title: "Custom headers: create the cycle, set them, start it",
                code: """
                    let cycle = HTTPCycle(requestURL: target)   // target: URL of /echo/?content=hi
                    cycle.request.headers["User-Agent"] = "Jewzruxin-Tour/1.0"
                    try await cycle.start()
                    cycle.response?.text
                    """
            ) {
                guard let target = URL(string: url("/echo/?content=hi")) else { return Outcome("bad URL", expected: "\"hi\"") }
                let cycle = HTTPCycle(requestURL: target)
                cycle.request.headers["User-Agent"] = "Jewzruxin-Tour/1.0"
                try await cycle.start()
                return Outcome("\"\(cycle.response?.text ?? "")\"", expected: "\"hi\"")
            },
            TourStep(
                title: "POST raw data: a processor turns the request object into the body",
                code: """
                    let response = try await HTTPCycle.post(url("/dumpupload/"), requestObject: "Hello World",
                                                         options: .init(requestProcessors: [HTTPDataProcessor()]))
                    response.text
                    """
            ) {
                let response = try await HTTPCycle.post(
                    url("/dumpupload/"), requestObject: "Hello World", options: .init(requestProcessors: [HTTPDataProcessor()]))
                return Outcome("\"\(response.text ?? "")\"", expected: "\"Hello World\"")
            },
            TourStep(
                title: "Text decoding follows the Content-Type charset (here ISO-8859-1)",
                code: """
                    let response = try await HTTPCycle.get(url("/echo/"), parameters: ["content": "café", "encoding": "iso-8859-1"])
                    (response.data.count, response.text)
                    """
            ) {
                let response = try await HTTPCycle.get(url("/echo/"), parameters: ["content": "café", "encoding": "iso-8859-1"])
                return Outcome("\(response.data.count ) bytes, \"\(response.text ?? "")\"", expected: "4 bytes, \"café\"")
            },
            TourStep(
                title: "A status >= 400 is an error that carries the response",
                code: """
                    do { try await HTTPCycle.get(url("/echo/"), parameters: ["code": 404, "content": "not here"]) }
                    catch let error as HTTPError where error.code == .statusCode { error.response?.text }
                    """
            ) {
                let expected = "status 404, body \"not here\""
                do {
                    try await HTTPCycle.get(url("/echo/"), parameters: ["code": 404, "content": "not here"])
                    return Outcome("no error", expected: expected)
                } catch let error as HTTPError where error.code == .statusCode {
                    return Outcome("status \(error.statusCode ?? 0), body \"\(error.response?.text ?? "")\"", expected: expected)
                }
            },
            TourStep(
                title: "A session policy can accept any status",
                code: """
                    let session = HTTPSession()
                    try session.update { $0.shouldTreatStatusCodeAsFailure = { _ in false } }
                    let response = try await HTTPCycle.get(url("/status/503"), session: session)
                    """
            ) {
                let session = HTTPSession()
                try session.update { $0.shouldTreatStatusCodeAsFailure = { _ in false } }
                let response = try await HTTPCycle.get(url("/status/503"), session: session)
                try await session.shutdown()
                return Outcome("status \(response.statusCode ), no error", expected: "status 503, no error")
            },
        ] + sessionSteps(sandbox) + middlewareSteps(sandbox) + transportSteps(sandbox) + authSteps(sandbox) + oauthSteps(sandbox) + cacheSteps(sandbox) + imageSteps(sandbox)
            + serviceSteps(sandbox) + ecosystemSteps(sandbox) + processorSteps(sandbox) + streamingSteps(sandbox) + lifecycleSteps(sandbox) + resilienceSteps(sandbox) + proxySteps(sandbox) + [
            TourStep(
                title: "Register your own processor by content type; responses use it automatically",
                code: """
                    struct CSVProcessor: HTTPResponseProcessor {
                        func process(_ response: inout HTTPResponse) throws {
                            response.object = response.text?.split(separator: "\\n").map { $0.split(separator: ",").map(String.init) }
                        }
                    }
                    var configuration = HTTPSession.Configuration()
                    try configuration.processorRegistry.register(CSVProcessor(), for: "text/csv")
                    let session = HTTPSession(configuration: configuration)
                    let rows = try await HTTPCycle.get(url("/csv"), session: session).object as? [[String]]
                    """
            ) {
                var configuration = HTTPSession.Configuration()
                try configuration.processorRegistry.register(CSVProcessor(), for: "text/csv")
                let session = HTTPSession(configuration: configuration)
                let rows = try await HTTPCycle.get(url("/csv"), session: session).object as? [[String]]
                try await session.shutdown()
                return Outcome("\(rows?.count ?? 0) rows, first \(rows?.first ?? [])", expected: "3 rows, first [\"name\", \"language\"]")
            },
            TourStep(
                title: "JSON responses are parsed by Content-Type, with no casts to read them",
                code: """
                    import Jewzruxin   // the umbrella registers JSON, forms, XML… by Content-Type: no call
                    let response = try await HTTPCycle.get(url("/json"))
                    response.json?["items"][1]["title"].string
                    """
            ) {
                let response = try await HTTPCycle.get(url("/json"))
                return Outcome("\"\(response.json?["items"][1]["title"].string ?? "")\"", expected: "\"Wörld\"")
            },
            TourStep(
                title: "Send JSON: a processor turns a JSONValue or any Encodable into the body",
                code: """
                    struct Person: Codable { var name: String; var languages: [String] }
                    let response = try await HTTPCycle.post(url("/dumpupload/"), requestObject: Person(name: "Ada", languages: ["en", "fr"]),
                                                         options: .init(requestProcessors: [HTTPJSONProcessor()]))
                    try response.decode(Person.self).languages
                    """
            ) {
                let response = try await HTTPCycle.post(
                    url("/dumpupload/"), requestObject: TourPerson(name: "Ada", languages: ["en", "fr"]),
                    options: .init(requestProcessors: [HTTPJSONProcessor()]))
                let languages = try response.decode(TourPerson.self).languages 
                return Outcome("\(languages)", expected: "[\"en\", \"fr\"]")
            },
            TourStep(
                title: "Send a form: ordered fields, repeated names, WHATWG encoding",
                code: """
                    let form: FormFields = ["q": "swift nio", "tag": ["a", "b"]]
                    let response = try await HTTPCycle.post(url("/dumpupload/"), requestObject: form, options: .init(requestProcessors: [HTTPFormProcessor()]))
                    (response.text, response.form?.values(for: "tag"))
                    """
            ) {
                let form: FormFields = ["q": "swift nio", "tag": ["a", "b"]]
                let response = try await HTTPCycle.post(url("/dumpupload/"), requestObject: form, options: .init(requestProcessors: [HTTPFormProcessor()]))
                return Outcome("\(response.text ?? "") → tags \(response.form?.values(for: "tag") ?? [])",
                               expected: "q=swift+nio&tag=a&tag=b → tags [\"a\", \"b\"]")
            },
            TourStep(
                title: "URI templates (RFC 6570, level 4): parse once, expand many; match reads values back",
                code: """
                    let search = try URITemplate("/search{/scope}{?q,tags*}")
                    try search.expand(["scope": "repos", "q": "http client", "tags": ["swift", "linux"]])
                    let user = try URITemplate("/users/{id}{?fields}")      // match: levels 1–3
                    user.match("/users/42?fields=name,email")
                    """
            ) {
                let search = try URITemplate("/search{/scope}{?q,tags*}")
                let path = try search.expand(["scope": "repos", "q": "http client", "tags": ["swift", "linux"]])
                let user = try URITemplate("/users/{id}{?fields}")
                let values = user.match("/users/42?fields=name,email")
                let shown = "\(path); id \(values?["id"].map { "\($0)" } ?? "nil"), fields \(values?["fields"].map { "\($0)" } ?? "nil")"
                return Outcome(shown, expected: "/search/repos?q=http%20client&tags=swift&tags=linux; id string(\"42\"), fields list([\"name\", \"email\"])")
            },
            TourStep(
                title: "Cycles run concurrently on one session",
                code: """
                    try await withThrowingTaskGroup(of: String?.self) { group in
                        for n in 1...20 { group.addTask { try await HTTPCycle.get(url("/echo/"), parameters: ["content": "\\(n)"]).text } }
                        …
                    }
                    """
            ) {
                let sum = try await withThrowingTaskGroup(of: String?.self) { group in
                    for n in 1...20 {
                        group.addTask { try await HTTPCycle.get(url("/echo/"), parameters: ["content": "\(n)"]).text }
                    }
                    var sum = 0
                    for try await text in group { sum += Int(text ?? "") ?? 0 }
                    return sum
                }
                return Outcome("20 responses, their numbers add up to \(sum)", expected: "20 responses, their numbers add up to 210")
            },
            TourStep(
                title: "Failed attempts are retried with backoff: here two 503s, then success",
                code: """
                    let cycle = try HTTPCycle(url("/counter"), method: .get, parameters: ["key": "tour", "fail": 2])
                    let response = try await cycle.start()
                    (cycle.retryCount, response.text)
                    """
            ) {
                let cycle = try HTTPCycle(url("/counter"), method: .get, parameters: ["key": "tour", "fail": 2])
                let response = try await cycle.start()
                return Outcome("\(cycle.retryCount) retries, \"\(response.text ?? "")\"", expected: "2 retries, \"attempt 3 succeeds\"")
            },
            TourStep(
                title: "A call's timeout bounds the whole run, retries included: HTTPError.timedOut, not a hang",
                code: """
                    let cycle = try HTTPCycle(url("/echo/"), method: .get, parameters: ["delay": 3], timeout: .milliseconds(300))
                    try await cycle.start()   // throws HTTPError, code .timedOut
                    """
            ) {
                let cycle = try HTTPCycle(url("/echo/"), method: .get, parameters: ["delay": 3], timeout: .milliseconds(300))
                let started = ContinuousClock.now
                let expected = "HTTPError.timedOut within a second, no retry left time for"
                do {
                    try await cycle.start()
                    return Outcome("no error", expected: expected)
                } catch HTTPError.Code.timedOut {
                    let elapsed = ContinuousClock.now - started
                    let seen = elapsed < .seconds(1)
                        ? expected : "HTTPError.timedOut after \(elapsed)"
                    return Outcome(seen + " (\(cycle.retryCount) retries)", expected: expected + " (0 retries)")
                }
            },
            TourStep(
                title: "MockTransport answers from stubs, through the same processors and policies",
                code: """
                    let mock = MockTransport()
                    try mock.fakeGET("/users/42", json: ["name": "Ada"])
                    let response = try await HTTPCycle.get("https://api.example.com/users/42", session: HTTPSession(configuration: .init { $0.customTransport = mock }))
                    response.json?["name"].string
                    """
            ) {
                let mock = MockTransport()
                try mock.fakeGET("/users/42", json: ["name": "Ada"])
                let response = try await HTTPCycle.get("https://api.example.com/users/42", session: HTTPSession(configuration: .init { $0.customTransport = mock }))
                return Outcome("\"\(response.json?["name"].string ?? "")\"", expected: "\"Ada\"")
            },
            TourStep(
                title: "Upload with progress: the body streams, and the totals end at its length",
                code: """
                    try await HTTPCycle.upload(url("/sink"), source: .data(Data(count: 1_000_000)),
                                               didSendBodyData: { _, sent, total in /* 65536 of 1000000… */ })
                    """
            ) {
                let last = TourProgress()
                try await HTTPCycle.upload(
                    url("/sink"), source: .data(Data(count: 1_000_000)), didSendBodyData: { _, sent, total in last.record(sent, total) })
                return Outcome("sent \(last.value)", expected: "sent 1000000 of 1000000")
            },
            TourStep(
                title: "Download to a file: the handler gets it once complete; a drop can be resumed",
                code: """
                    try await HTTPCycle.download(url("/download/3000000"), resumable: true) { cycle, location in
                        try FileManager.default.moveItem(at: location, to: destination)
                    }
                    """
            ) {
                let size = Mutex<Int?>(nil)
                try await HTTPCycle.download(url("/download/3000000"), resumable: true) { _, location in
                    let bytes = try FileManager.default.attributesOfItem(atPath: location.path)[.size] as? NSNumber
                    size.withLock { $0 = bytes?.intValue }
                }
                return Outcome("a file of \(size.withLock { $0 } ?? 0) bytes", expected: "a file of 3000000 bytes")
            },
            TourStep(
                title: "Multipart forms: files stream from disk, the length is known up front",
                code: """
                    var form = MultipartFormData()
                    form.append("Ada", name: "author")
                    form.append(Data("hello".utf8), name: "file", filename: "hello.txt")
                    cycle.request.setBody(form)          // POST url("/dumpupload/"), echoed back
                    cycle.response?.multipart?["file"]?.filename
                    """
            ) {
                var form = MultipartFormData()
                form.append("Ada", name: "author")
                form.append(Data("hello".utf8), name: "file", filename: "hello.txt")
                let cycle = try HTTPCycle(url("/dumpupload/"), method: .post)
                cycle.request.setBody(form)
                try await cycle.start()
                let part = cycle.response?.multipart?["file"]
                return Outcome(
                    "\"\(part?.filename ?? "")\": \"\(part?.text ?? "")\"", expected: "\"hello.txt\": \"hello\"")
            },
        ]
    }
}

/// The tour's model for JSON bodies.
struct TourPerson: Codable, Sendable {
    var name: String
    var languages: [String]
}

/// The tour's example of a user's own processor: CSV rows as arrays of fields.
struct CSVProcessor: HTTPResponseProcessor {
    func process(_ response: inout HTTPResponse) throws {
        response.object = response.text?.split(separator: "\n").map { $0.split(separator: ",").map(String.init) }
    }
}

/// The last upload progress the tour saw.
final class TourProgress: Sendable {
    private let last = Mutex("nothing")

    func record(_ sent: Int64, _ total: Int64?) {
        last.withLock { $0 = "\(sent) of \(total.map(String.init) ?? "?")" }
    }

    var value: String { last.withLock { $0 } }
}
