import AsyncHTTPClient
import BenchmarkFixtures
import Foundation
import Jewzruxin
import NIOCore
import NIOHTTP1
import NIOPosix
import Synchronization

// Our request path and raw AsyncHTTPClient in alternating blocks on the same server, so that
// a machine whose speed drifts (a shared 2-core VM drifts by ±20% within a minute) slows both
// alike: each round's ratio compares neighbours, and the median of the rounds is reported.
// Beside wall-clock time it reports this process's CPU time per request, which is what our
// code adds and what the scheduler's luck does not change.
//
// Usage: HTTPInterleaved BASE_URL [ROUNDS]   (./run passes the server it started)
//   ONLY=c=64                      only the cases whose name contains this
//   BLOCK_SCALE=4                  GET blocks of 4× the requests (a slow last request weighs less)
//   SHOW_ROUNDS=1                  each round's wall time per request, ours and the baseline's
//   PROFILE="GET /hello c=64"      one side alone, ROUNDS blocks, for a profiler (perf record);
//   PROFILE_SIDE=baseline          the baseline's side instead of ours
//   BISECT=1                       where a gap comes from: A/A runs (the noise), AHC's read
//                                  timeout, AHC without the no-op tracer, our transport alone
//                                  vs raw AHC, a client per event loop vs one over the group,
//                                  the cycle vs the transport (without and with the headers a
//                                  cycle adds), what those headers cost the transport, AHC's
//                                  delegate API vs its async API, and a cycle's own Task
//                                  (start()) vs the calling task
//   AUTH=1                         preemptive Digest against preemptive Basic (AuthCases.swift)
//   CACHE=1                        fresh hits of the memory and the disk cache against the network
//                                  GET they spare (CacheCases.swift)
//   IMAGES=1                       ImageCache: memory hit, disk hit, a burst of 100 against a network GET
//   MIDDLEWARE=1                   one no-op middleware against none (MiddlewareCases.swift); with
//                                  CYCLE_ONLY=1, MIDDLEWARE=N puts N no-op middleware in the path
//   RESILIENCE=1                   each resilience stage (breaker, rate limit, bulkhead, hedging,
//                                  all four), set so that none acts, against none
//                                  (ResilienceCases.swift); with CYCLE_ONLY=1, RESILIENCE=NAME
//                                  puts that stage in the path
//   TRACING=1                      an in-memory tracer, and an in-memory metrics backend, each
//                                  against neither (TracingCases.swift)
//   SERVICE=1                      HTTPService.request against HTTPCycle.get of the URL it expands
//                                  to, over an instant transport and on the wire (ServiceCases.swift)
//   RAW_BENCH=1                    what `jewz bench` does, on raw AsyncHTTPClient: REQUESTS GETs
//                                  of /hello/ at CONCURRENCY, one JSON line (Tools/Benchmarks/jewz-bench)
//   CYCLE_ONLY=1                   the cycle over a transport that answers at once: our own
//                                  cost per request, without a network, for a profiler;
//                                  CONCURRENCY=N runs N at a time (contention), YIELD=1 lets
//                                  the others run before each answer (caches as cold as on
//                                  the wire), REQUESTS=N per block (100,000), DISTINCT_URLS=1
//                                  a new URL each request (the session's URL memo never
//                                  answers); then the
//                                  transport alone, for the difference

let arguments = CommandLine.arguments
guard arguments.count >= 2 else {
    print("usage: HTTPInterleaved BASE_URL [ROUNDS]")
    exit(2)
}
let base = arguments[1]
let rounds = arguments.count >= 3 ? Int(arguments[2]) ?? 15 : 15

let session = HTTPSession()
var rawConfiguration = HTTPClient.Configuration()
rawConfiguration.connectionPool.concurrentHTTP1ConnectionsPerHostSoftLimit = 64
let raw = HTTPClient(eventLoopGroup: MultiThreadedEventLoopGroup.singleton, configuration: rawConfiguration)
var shutdowns: [() async throws -> Void] = []

let hello = base + BenchPath.hello
let items = base + BenchPath.items
let sink = base + BenchPath.sink
let download = base + BenchPath.download
let large = base + BenchPath.large

/// One comparison: `count` requests at `concurrency`, ours against the baseline.
typealias Case = (name: String, concurrency: Int, count: Int, ours: Contender, baseline: Contender)

/// How many times the default number of requests each block sends (`BLOCK_SCALE`).
let blockScale = max(ProcessInfo.processInfo.environment["BLOCK_SCALE"].flatMap { Int($0) } ?? 1, 1)

/// The same comparison at concurrency 1 and 64.
func atBothConcurrencies(_ name: String, _ ours: Contender, _ baseline: Contender) -> [Case] {
    [(name + " c=1", 1, 1_000 * blockScale, ours, baseline), (name + " c=64", 64, 6_400 * blockScale, ours, baseline)]
}

/// A GET of `/hello/` on a raw client, its body collected.
func rawGET(_ client: HTTPClient, name: String = "raw AsyncHTTPClient") -> Contender {
    Contender(name: name) {
        let response = try await client.execute(HTTPClientRequest(url: hello), timeout: .seconds(30))
        _ = try await response.body.collect(upTo: 1 << 20)
    }
}

let cycleGET = Contender(name: "HTTPCycle.get") { try await HTTPCycle.get(hello, session: session) }
let cases: [Case] = atBothConcurrencies("GET /hello", cycleGET, rawGET(raw)) + [
    (
        "upload 64 MiB file c=1", 1, 4,
        Contender(name: "HTTPCycle.upload") { try await HTTPCycle.upload(sink, method: .put, source: .file(UploadFixture.file), session: session) },
        Contender(name: "raw AsyncHTTPClient, file in 64 KiB chunks") {
            var request = HTTPClientRequest(url: sink)
            request.method = .PUT
            request.body = .stream(FileBuffers(url: UploadFixture.file), length: .known(Int64(UploadFixture.size)))
            let response = try await raw.execute(request, timeout: .seconds(60))
            _ = try await response.body.collect(upTo: 1 << 20)
        }
    ),
    (
        "upload 64 MiB file as multipart c=1", 1, 4,
        Contender(name: "HTTPCycle.upload, MultipartFormData") {
            var request = HTTPRequest(url: UploadFixture.sinkURL, method: .put)
            request.setBody(UploadFixture.form)
            try await HTTPCycle(request: request, session: session).start()
        },
        Contender(name: "raw AsyncHTTPClient, part head, file in 64 KiB chunks, close") {
            var request = HTTPClientRequest(url: sink)
            request.method = .PUT
            request.headers.add(name: "Content-Type", value: "multipart/form-data; boundary=\(UploadFixture.boundary)")
            let (head, tail) = UploadFixture.multipartFraming
            let parts = FramedFileBuffers(head: ByteBuffer(string: head), file: UploadFixture.file, tail: ByteBuffer(string: tail))
            request.body = .stream(parts, length: .known(Int64(head.utf8.count + UploadFixture.size + tail.utf8.count)))
            let response = try await raw.execute(request, timeout: .seconds(60))
            _ = try await response.body.collect(upTo: 1 << 20)
        }
    ),
    (
        "download 100 MiB to a file c=1", 1, 2,
        Contender(name: "HTTPCycle.download") { try await HTTPCycle.download(download, session: session) { _, _ in } },
        Contender(name: "raw AsyncHTTPClient + write(2)") { try await rawDownload(download, client: raw) }
    ),
    (
        "GET 1 MiB into memory c=1", 1, 200,
        Contender(name: "HTTPCycle.get") { try await HTTPCycle.get(large, session: session) },
        Contender(name: "raw AsyncHTTPClient, collected") {
            let response = try await raw.execute(HTTPClientRequest(url: large), timeout: .seconds(30))
            _ = try await response.body.collect(upTo: 2 << 20)
        }
    ),
    (
        "GET 1 MiB read as a stream c=1", 1, 200,
        Contender(name: "session.stream") {
            guard let url = URL(string: large) else { return }
            let response = try await session.stream(HTTPRequest(url: url))
            for try await _ in response.body {}
        },
        Contender(name: "raw AsyncHTTPClient, body read as it arrives") {
            let response = try await raw.execute(HTTPClientRequest(url: large), timeout: .seconds(30))
            for try await _ in response.body {}
        }
    ),
    (
        "GET 2 KB JSON → [Item] c=1", 1, 1_000,
        Contender(name: "HTTPCycle.get(decoding:)") {
            _ = try await HTTPCycle.get(items, decoding: [Item].self, session: session)
        },
        Contender(name: "raw AsyncHTTPClient + JSONDecoder") {
            let response = try await raw.execute(HTTPClientRequest(url: items), timeout: .seconds(30))
            let body = try await response.body.collect(upTo: 1 << 20)
            _ = try JSONDecoder().decode([Item].self, from: Data(buffer: body))
        }
    ),
]

/// Keeps the head and the body on the event loop, for the delegate API. Unchecked: AsyncHTTPClient
/// calls a delegate on one event loop only, one call at a time.
final class LeanDelegate: HTTPClientResponseDelegate, @unchecked Sendable {
    struct Response: Sendable {
        var head: HTTPResponseHead?
        var body: ByteBuffer?
    }
    var head: HTTPResponseHead?
    var body: ByteBuffer?
    func didReceiveHead(task: HTTPClient.Task<Response>, _ head: HTTPResponseHead) -> EventLoopFuture<Void> {
        self.head = head
        return task.eventLoop.makeSucceededVoidFuture()
    }
    func didReceiveBodyPart(task: HTTPClient.Task<Response>, _ buffer: ByteBuffer) -> EventLoopFuture<Void> {
        if body == nil { body = buffer } else { body?.writeImmutableBuffer(buffer) }
        return task.eventLoop.makeSucceededVoidFuture()
    }
    func didFinishRequest(task: HTTPClient.Task<Response>) throws -> Response { Response(head: head, body: body) }
}

// BISECT=1 checks the harness and splits the gap: each side against a second copy of itself
// (A/A, the noise); raw AHC with a read timeout like our session default's against raw AHC
// without (what that timer costs, and why the transport keeps the timeout itself); raw AHC
// without a tracer against raw AHC with the no-op one it picks by default (the span work our
// transport leaves out); our transport alone against raw AHC; the full cycle against our
// transport alone (the same connections), which is what HTTPCycle itself costs, and again with
// the transport sending the headers a cycle adds (User-Agent, Accept-Encoding), whose own cost
// is the next pair; AHC's delegate API against its async API; and a cycle in a Task of its own
// (`start()`) against one in the calling task.
var allCases = cases
if getenv("BISECT") != nil {
    guard let helloURL = URL(string: hello) else {
        print("not a URL: \(hello)")
        exit(2)
    }
    var timedConfiguration = rawConfiguration
    timedConfiguration.timeout.read = .seconds(60)
    let timedRaw = HTTPClient(eventLoopGroup: MultiThreadedEventLoopGroup.singleton, configuration: timedConfiguration)
    // AsyncHTTPClient traces every request with the bootstrapped tracer, the no-op one included;
    // our transport leaves that tracer out.
    var untracedConfiguration = rawConfiguration
    untracedConfiguration.tracing.tracer = nil
    let untracedRaw = HTTPClient(eventLoopGroup: MultiThreadedEventLoopGroup.singleton, configuration: untracedConfiguration)
    let transportAlone = Contender(name: "transport.send") {
        var collector = BodyCollector()
        try await session.transport.send(HTTPRequest(url: helloURL), timeout: nil, onBodySent: nil, to: &collector)
    }
    // The headers a cycle adds to a request that has none: the session's, and an
    // Accept-Encoding naming the session's decoders. Raw AHC sends neither.
    var sessionHeaders = session.configuration.additionalHeaders
    sessionHeaders.add(session.configuration.contentCodings.tokens.joined(separator: ", "), for: "Accept-Encoding")
    let headedRequest = HTTPRequest(url: helloURL, headers: sessionHeaders)
    let headedTransportAlone = Contender(name: "transport.send with the cycle's headers") {
        var collector = BodyCollector()
        try await session.transport.send(headedRequest, timeout: nil, onBodySent: nil, to: &collector)
    }
    // A/A: each side against a second copy of itself, which reads ×1.00 up to the harness's noise.
    let secondSession = HTTPSession()
    let secondRaw = HTTPClient(eventLoopGroup: MultiThreadedEventLoopGroup.singleton, configuration: rawConfiguration)
    let delegateGET = Contender(name: "raw AHC delegate API") {
        let request = try HTTPClient.Request(url: hello)
        _ = try await raw.execute(request: request, delegate: LeanDelegate()).futureResult.get()
    }
    // One client over the whole group, as the transport was before it kept a client per
    // event loop: AsyncHTTPClient then hops a delegate's events between loops.
    let groupClient = HTTPClient(eventLoopGroup: MultiThreadedEventLoopGroup.singleton, configuration: rawConfiguration)
    let groupTransport = AsyncHTTPClientTransport(client: groupClient)
    let groupTransportAlone = Contender(name: "transport.send, one client over the group") {
        var collector = BodyCollector()
        try await groupTransport.send(HTTPRequest(url: helloURL), timeout: nil, onBodySent: nil, to: &collector)
    }
    shutdowns.append { try await groupClient.shutdown() }
    let ownTaskGET = Contender(name: "HTTPCycle.start()") { try await HTTPCycle(hello, method: .get, session: session).start() }
    allCases =
        [
            ("A/A cycle c=64", 64, 6_400, cycleGET, Contender(name: "HTTPCycle.get, second session") {
                try await HTTPCycle.get(hello, session: secondSession)
            }),
            ("A/A raw c=64", 64, 6_400, rawGET(raw), rawGET(secondRaw, name: "raw AsyncHTTPClient, second client")),
        ]
        + atBothConcurrencies("read timeout", rawGET(timedRaw, name: "raw AsyncHTTPClient, read timeout"), rawGET(raw))
        + atBothConcurrencies("no-op tracer left out", rawGET(untracedRaw, name: "raw AsyncHTTPClient, no tracer"), rawGET(raw))
        + atBothConcurrencies("transport", transportAlone, rawGET(raw))
        + atBothConcurrencies("client per event loop", transportAlone, groupTransportAlone)
        + atBothConcurrencies("cycle", cycleGET, transportAlone)
        + atBothConcurrencies("headers", headedTransportAlone, transportAlone)
        + atBothConcurrencies("headed cycle", cycleGET, headedTransportAlone)
        + atBothConcurrencies("delegate", delegateGET, rawGET(raw))
        + atBothConcurrencies("own task", ownTaskGET, cycleGET)
    shutdowns.append { try await timedRaw.shutdown().get() }
    shutdowns.append { try await untracedRaw.shutdown().get() }
    shutdowns.append { try await secondRaw.shutdown().get() }
    shutdowns.append { try await secondSession.shutdown() }
}
if getenv("AUTH") != nil {
    let (authCases, authSessions) = try await authCases(hello: hello)
    allCases = authCases
    for authSession in authSessions { shutdowns.append { try await authSession.shutdown() } }
}
if getenv("CACHE") != nil {
    let (cacheCases, cacheSessions, cacheDirectory) = try await cacheCases(cached: base + BenchPath.cached, large: base + BenchPath.cachedLarge)
    allCases = cacheCases
    for cacheSession in cacheSessions { shutdowns.append { try await cacheSession.shutdown() } }
    shutdowns.append { try? FileManager.default.removeItem(at: cacheDirectory) }
}
if getenv("IMAGES") != nil {
    let (imageCases, imageCaches, imageSessions, imageDirectory) = try await imageCases(image: base + BenchPath.image)
    allCases = imageCases
    for cache in imageCaches { shutdowns.append { try await cache.session.shutdown() } }
    for imageSession in imageSessions { shutdowns.append { try await imageSession.shutdown() } }
    shutdowns.append { try? FileManager.default.removeItem(at: imageDirectory) }
}
if getenv("MIDDLEWARE") != nil, getenv("CYCLE_ONLY") == nil {
    let (middlewareCases, middlewareSessions) = middlewareCases(hello: hello)
    allCases = middlewareCases
    for middlewareSession in middlewareSessions { shutdowns.append { try await middlewareSession.shutdown() } }
}
if getenv("RESILIENCE") != nil, getenv("CYCLE_ONLY") == nil {
    let (resilienceCases, resilienceSessions) = resilienceCases(hello: hello)
    allCases = resilienceCases
    for resilienceSession in resilienceSessions { shutdowns.append { try await resilienceSession.shutdown() } }
}
if getenv("TRACING") != nil {
    let (tracingCases, tracingSessions) = tracingCases(hello: hello)
    allCases = tracingCases
    for tracingSession in tracingSessions { shutdowns.append { try await tracingSession.shutdown() } }
}
if getenv("SERVICE") != nil {
    let (serviceCases, serviceSessions) = try serviceCases(hello: hello)
    allCases = serviceCases
    for serviceSession in serviceSessions { shutdowns.append { try await serviceSession.shutdown() } }
}
if getenv("RAW_BENCH") != nil {
    try await rawBench(hello)
    exit(0)
}
if getenv("CYCLE_ONLY") != nil {
    // The cycle alone, over a transport that answers at once: what our pipeline costs per
    // request without a network, for a profiler (ROUNDS × REQUESTS requests at c=1). Beside
    // it, the transport alone, so that the difference is the cycle's own cost.
    let transport = InstantTransport(yields: getenv("YIELD") != nil)
    let steps = ProcessInfo.processInfo.environment["MIDDLEWARE"].flatMap { Int($0) } ?? 0
    let instant = HTTPSession(configuration: .init { $0.middleware = Array(repeating: NoOpMiddleware(), count: steps)
        $0.networkMiddleware = ResilienceStage.stages(named: ProcessInfo.processInfo.environment["RESILIENCE"])
        $0.customTransport = transport })
    // DISTINCT_URLS=1: a URL no request used before (a query of its own), so that the session's
    // memo of recent URLs never answers and each request pays Foundation's parse.
    // The strings are made before the blocks, so that only their parse is measured.
    let distinctURLs = getenv("DISTINCT_URLS") != nil ? (0..<(rounds + 1) * 100_000).map { hello + "?n=\($0)" } : []
    let requestNumber = Atomic(0)
    let cycleContender = Contender(name: "HTTPCycle.get, instant transport") {
        let number = requestNumber.add(1, ordering: .relaxed).newValue
        try await HTTPCycle.get(distinctURLs.isEmpty ? hello : distinctURLs[number % distinctURLs.count], session: instant)
    }
    guard let helloURL = URL(string: hello) else {
        print("not a URL: \(hello)")
        exit(2)
    }
    let transportContender = Contender(name: "instant transport alone") {
        var collector = BodyCollector()
        try await transport.send(HTTPRequest(url: helloURL), timeout: nil, onBodySent: nil, to: &collector)
    }
    let concurrency = ProcessInfo.processInfo.environment["CONCURRENCY"].flatMap { Int($0) } ?? 1
    let perBlock = max(ProcessInfo.processInfo.environment["REQUESTS"].flatMap { Int($0) } ?? 100_000, 1)
    for contender in [cycleContender, transportContender] {
        var samples: [Sample] = []
        for _ in 0..<rounds { samples.append(try await measure(contender, count: perBlock, concurrency: concurrency)) }
        print(String(format: "%@: %.0f ns/request, CPU %.0f ns (median block)", contender.name,
                     median(samples.map(\.seconds)) / Double(perBlock) * 1e9, median(samples.map(\.cpuSeconds)) / Double(perBlock) * 1e9))
    }
    exit(0)
}
if let profiled = ProcessInfo.processInfo.environment["PROFILE"], let entry = allCases.first(where: { $0.name == profiled }) {
    // One side alone, for a profiler: PROFILE="GET /hello c=64" PROFILE_SIDE=baseline
    let contender = ProcessInfo.processInfo.environment["PROFILE_SIDE"] == "baseline" ? entry.baseline : entry.ours
    var samples: [Sample] = []
    for _ in 0..<rounds { samples.append(try await measure(contender, count: entry.count, concurrency: entry.concurrency)) }
    print(String(format: "%@: CPU %.1f µs/request (median block)", contender.name, median(samples.map(\.cpuSeconds)) / Double(entry.count) * 1e6))
    exit(0)
}
print("## Interleaved (\(rounds) rounds; median of each round's ratio, ours / baseline)\n")
let only = ProcessInfo.processInfo.environment["ONLY"]
let showsRounds = ProcessInfo.processInfo.environment["SHOW_ROUNDS"] != nil
for entry in allCases where only.map({ entry.name.contains($0) }) ?? true {
    // Warm both: connections open, caches filled.
    _ = try await measure(entry.ours, count: entry.count / 4, concurrency: entry.concurrency)
    _ = try await measure(entry.baseline, count: entry.count / 4, concurrency: entry.concurrency)
    let count = Double(entry.count)
    var ratios: [Double] = []
    var cpuRatios: [Double] = []
    var ours: [Sample] = []
    var theirs: [Sample] = []
    for round in 0..<rounds {
        // Alternate who goes first, so that neither always follows the other's garbage.
        let order = round % 2 == 0 ? [entry.ours, entry.baseline] : [entry.baseline, entry.ours]
        var samples: [String: Sample] = [:]
        for contender in order {
            samples[contender.name] = try await measure(contender, count: entry.count, concurrency: entry.concurrency)
        }
        guard let mine = samples[entry.ours.name], let other = samples[entry.baseline.name] else { continue }
        ours.append(mine)
        theirs.append(other)
        ratios.append(other.seconds / mine.seconds)
        cpuRatios.append(other.cpuSeconds / mine.cpuSeconds)
        if showsRounds {
            print(String(
                format: "  round %2d: ours %6.1f µs, baseline %6.1f µs a request (×%.2f)",
                round + 1, mine.seconds / count * 1e6, other.seconds / count * 1e6, other.seconds / mine.seconds))
        }
    }
    let ourRate = count / median(ours.map(\.seconds))
    let theirRate = count / median(theirs.map(\.seconds))
    let ourCPU = median(ours.map(\.cpuSeconds)) / count * 1e6
    let theirCPU = median(theirs.map(\.cpuSeconds)) / count * 1e6
    print(
        String(
            format: "%-28@ %10.0f/s vs %10.0f/s  throughput ×%.2f (rounds %.2f…%.2f)  CPU %5.1f vs %5.1f µs/request ×%.2f",
            entry.name as NSString, ourRate, theirRate, median(ratios), ratios.min() ?? 0, ratios.max() ?? 0,
            ourCPU, theirCPU, median(cpuRatios)))
}
try await session.shutdown()
try await raw.shutdown().get()
for shutdown in shutdowns { try await shutdown() }
