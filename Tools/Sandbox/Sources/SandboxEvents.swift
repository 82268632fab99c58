import Foundation
import JewzLocking

/// Streams of records sent as they happen: Server-Sent Events that resume where a client left
/// off, and newline-delimited JSON.
///
/// | route | answer |
/// | --- | --- |
/// | `/events/KEY?count=N&per=M&interval=MS&retry=MS&end=complete\|drop\|hold&type=T&auth=token` | events `id: i`, `event: tick`, `data: {"n":i}` for i after the request's `Last-Event-ID`, at most M a connection (all N by default), MS apart, then the connection ends as `end` says; 204 once all N were sent; with `retry`, a `retry:` field first; with `auth=token`, 401 unless the bearer token is one of `/token/issue`'s |
/// | `/ndjson?count=N&interval=MS&end=hold` | N lines `{"index":i,"text":"line i"}`, MS apart, as `application/x-ndjson`; with `end=hold` the body never ends |
final class SandboxEvents: Sendable {
    /// The `Last-Event-ID` of each request per key (empty when absent), in arrival order: the
    /// last ``keptPerKey``, so that a server that runs for hours keeps a bounded record.
    private let resumes = Mutex<[String: [String]]>([:])
    private static let keptPerKey = 64

    /// The `Last-Event-ID` fields the last 64 requests for `/events/KEY` carried, in order; an
    /// empty string for a request without one.
    func lastEventIDs(forKey key: String) -> [String] {
        resumes.withLock { $0[key, default: []] }
    }

    func events(_ request: SandboxRequest, key: String, query: [URLQueryItem], tokens: SandboxTokens) -> SandboxResponse {
        let value = { (name: String) in query.first { $0.name == name }?.value }
        let count = value("count").flatMap { Int($0) } ?? 3
        let per = value("per").flatMap { Int($0) } ?? count
        let interval = value("interval").flatMap { Int($0) } ?? 0
        let retry = value("retry").flatMap { Int($0) }
        guard (0...10_000).contains(count), (1...10_000).contains(per), (0...60_000).contains(interval), (retry ?? 0) >= 0 else {
            return .text("count 0...10000, per 1...10000, interval 0...60000 ms, retry ≥ 0", status: 400)
        }
        let ending: SandboxResponse.Ending
        switch value("end") ?? "complete" {
        case "complete": ending = .complete
        case "drop": ending = .drop
        case "hold": ending = .hold
        default: return .text("end is complete, drop or hold", status: 400)
        }
        let lastID = request.header("Last-Event-ID")
        resumes.withLock { resumes in
            resumes[key, default: []].append(lastID ?? "")
            if let kept = resumes[key], kept.count > Self.keptPerKey { resumes[key] = Array(kept.suffix(Self.keptPerKey)) }
        }
        if value("auth") == "token", !tokens.isValid(request) {
            return SandboxResponse(status: 401, headers: [("WWW-Authenticate", #"Bearer realm="sandbox", error="invalid_token""#)])
        }
        let first = (lastID.flatMap { Int($0) } ?? 0) + 1
        guard first <= count else { return SandboxResponse(status: 204) }
        var pieces = retry.map { [Data("retry: \($0)\n\n".utf8)] } ?? []
        for index in first...min(count, first + per - 1) {
            pieces.append(Data("id: \(index)\nevent: tick\ndata: {\"n\":\(index)}\n\n".utf8))
        }
        var response = SandboxResponse(
            status: 200, headers: [("Content-Type", value("type") ?? "text/event-stream"), ("Cache-Control", "no-cache")])
        response.delivery = .paced(pieces, interval: .milliseconds(interval), ending: ending)
        return response
    }

    static func lines(_ query: [URLQueryItem]) -> SandboxResponse {
        let value = { (name: String) in query.first { $0.name == name }?.value }
        let count = value("count").flatMap { Int($0) } ?? 3
        let interval = value("interval").flatMap { Int($0) } ?? 0
        guard (1...100_000).contains(count), (0...60_000).contains(interval) else {
            return .text("count 1...100000, interval 0...60000 ms", status: 400)
        }
        let ending: SandboxResponse.Ending = value("end") == "hold" ? .hold : .complete
        let lines = (0..<count).map { Data(#"{"index":\#($0),"text":"line \#($0)"}"#.utf8 + [0x0A]) }
        var response = SandboxResponse(status: 200, headers: [("Content-Type", "application/x-ndjson")])
        response.delivery = .paced(lines, interval: .milliseconds(interval), ending: ending)
        return response
    }
}
