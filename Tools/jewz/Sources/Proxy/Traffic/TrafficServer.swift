import Foundation
import JewzJSON
import NIOCore
import NIOHTTP1
import NIOPosix

/// The traffic view's own HTTP server (`jewz proxy --web`): the page, the exchanges as JSON,
/// their changes as Server-Sent Events, a HAR export, and "send again". A connection at a time
/// per task; a page's event stream holds its connection until the page or the proxy goes.
struct TrafficServer: Sendable {
    private let server: NIOAsyncChannel<NIOAsyncChannel<HTTPServerRequestPart, HTTPServerResponsePart>, Never>
    /// The largest request body the server reads (an edited request to send again).
    static let requestBodyLimit = 8 << 20

    /// The port it listens on.
    var port: Int { server.channel.localAddress?.port ?? 0 }

    /// Listens on `host:port` (0: a free port).
    ///
    /// - Throws: SwiftNIO's error when the address cannot be bound.
    static func start(host: String, port: Int) async throws -> TrafficServer {
        let server = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .bind(host: host, port: port) { channel in
                channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.configureHTTPServerPipeline()
                    return try NIOAsyncChannel<HTTPServerRequestPart, HTTPServerResponsePart>(wrappingChannelSynchronously: channel)
                }
            }
        return TrafficServer(server: server)
    }

    /// Serves connections with `routes` until ``close()``.
    func run(_ routes: TrafficRoutes) async {
        try? await withThrowingDiscardingTaskGroup { group in
            try await server.executeThenClose { connections in
                for try await connection in connections {
                    group.addTask { await Self.serve(connection, routes: routes) }
                }
            }
        }
    }

    /// Stops listening; open connections end as their pages go or the process exits.
    func close() async {
        try? await server.channel.close()
    }

    private static func serve(_ connection: NIOAsyncChannel<HTTPServerRequestPart, HTTPServerResponsePart>, routes: TrafficRoutes) async {
        // A failed write is a page gone mid-answer: nothing to tell it.
        try? await connection.executeThenClose { inbound, outbound in
            var head: HTTPRequestHead?
            var body = ByteBuffer()
            var tooLarge = false
            for try await part in inbound {
                switch part {
                case .head(let next):
                    head = next
                    body.clear()
                    tooLarge = false
                case .body(var chunk):
                    if body.readableBytes + chunk.readableBytes > requestBodyLimit { tooLarge = true } else { body.writeBuffer(&chunk) }
                case .end:
                    guard let request = head else { continue }
                    let reply = tooLarge
                        ? TrafficReply.text(413, "The body is larger than \(requestBodyLimit >> 20) MiB.")
                        : await routes.reply(to: request, body: Data(buffer: body))
                    // An event stream holds the connection to its end.
                    guard try await write(reply, to: outbound) else { return }
                }
            }
        }
    }

    /// Writes `reply`; whether the connection may take another request.
    private static func write(_ reply: TrafficReply, to outbound: NIOAsyncChannelOutboundWriter<HTTPServerResponsePart>) async throws -> Bool {
        switch reply {
        case .content(let status, let headers, let bytes):
            var fields = HTTPHeaders(headers)
            fields.add(name: "Content-Length", value: String(bytes.count))
            fields.add(name: "Cache-Control", value: "no-store")
            // Every answer is what its type says: JSON a `<script>` of another site loads does not run.
            fields.add(name: "X-Content-Type-Options", value: "nosniff")
            try await outbound.write(.head(HTTPResponseHead(version: .http1_1, status: .init(statusCode: status), headers: fields)))
            try await outbound.write(.body(.byteBuffer(ByteBuffer(bytes: bytes))))
            try await outbound.write(.end(nil))
            return true
        case .events(let stream):
            let fields: HTTPHeaders = ["Content-Type": "text/event-stream", "Cache-Control": "no-store"]
            try await outbound.write(.head(HTTPResponseHead(version: .http1_1, status: .ok, headers: fields)))
            for await event in stream { try await outbound.write(.body(.byteBuffer(ByteBuffer(string: event)))) }
            try await outbound.write(.end(nil))
            return false
        }
    }
}

/// What the traffic view's server answers.
enum TrafficReply: Sendable {
    /// A whole answer.
    case content(status: Int, headers: [(String, String)], body: [UInt8])
    /// Server-Sent Events, one text per event, until the stream ends.
    case events(AsyncStream<String>)

    static func text(_ status: Int, _ text: String) -> TrafficReply {
        .content(status: status, headers: [("Content-Type", "text/plain; charset=utf-8")], body: Array((text + "\n").utf8))
    }

    static func json(_ value: JSONValue) -> TrafficReply {
        .content(status: 200, headers: [("Content-Type", "application/json")], body: value.encoded())
    }

    static func json(_ value: some Encodable, headers: [(String, String)] = []) -> TrafficReply {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        guard let data = try? encoder.encode(value) else { return text(500, "The answer could not be encoded as JSON.") }
        return .content(status: 200, headers: [("Content-Type", "application/json")] + headers, body: Array(data))
    }
}
