import Foundation
import JewzHTTPCore
import JewzLocking
import JewzSandbox
import JewzTestSupport

/// The request heads an origin saw, in order.
final class Heads: Sendable {
    private let list = Mutex<[String]>([])
    func append(_ head: String) { list.withLock { $0.append(head) } }
    var all: [String] { list.withLock { $0 } }
}

/// Scripted origins for partial content: ranges answered under a validator, a body that breaks.
enum PartialContentOrigin {
    /// The origin's body: 100 bytes, `A` to `Z` over and over.
    static let body = Data((0..<100).map { UInt8(65 + $0 % 26) })

    /// An origin that answers `Range: bytes=a-b` (or `a-`) with a 206 under `etag` (the
    /// second one from `changeAt` requests on), and anything else with the whole body; the
    /// request heads it saw are in `heads`.
    static func ranges(etag: String, changedTo changed: String? = nil, changeAt: Int = .max, heads: Heads) -> ScriptedServer.Script {
        { request in
            heads.append(request.head)
            let tag = request.index >= changeAt ? (changed ?? etag) : etag
            let common = ["ETag: \(tag)", "Cache-Control: max-age=60", "Date: \(HTTPDate.string(from: Date()))"]
            let rangeLine = request.head.split(separator: "\r\n").first { $0.lowercased().hasPrefix("range: bytes=") }
            guard let spec = rangeLine?.split(separator: "=", maxSplits: 1).last else {
                return [.send(responseHead("HTTP/1.1 200 OK", common + ["Content-Length: 100"])), .send(Array(body))]
            }
            let bounds = spec.split(separator: "-", maxSplits: 1, omittingEmptySubsequences: false)
            let first = Int(bounds[0]) ?? 0
            let last = bounds.count == 2 ? Int(bounds[1]) ?? 99 : 99
            let part = body.subdata(in: first..<(last + 1))
            return [
                .send(responseHead("HTTP/1.1 206 Partial Content", common + ["Content-Range: bytes \(first)-\(last)/100", "Content-Length: \(part.count)"])),
                .send(Array(part)),
            ]
        }
    }

    /// An origin whose first answer, a whole body under a strong validator, breaks off after
    /// 40 of its 100 bytes; later requests are answered as ``ranges(etag:changedTo:changeAt:heads:)``
    /// does, under `changed` when given.
    static func breaking(changedTo changed: String? = nil, heads: Heads) -> ScriptedServer.Script {
        let later = ranges(etag: "\"p1\"", changedTo: changed, changeAt: 1, heads: heads)
        return { request in
            guard request.index == 0 else { return later(request) }
            heads.append(request.head)
            let common = ["ETag: \"p1\"", "Cache-Control: max-age=60", "Date: \(HTTPDate.string(from: Date()))", "Content-Length: 100"]
            return [.send(responseHead("HTTP/1.1 200 OK", common)), .send(Array(body.prefix(40))), .close]
        }
    }
}
