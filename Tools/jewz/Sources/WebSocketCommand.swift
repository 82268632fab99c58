import ArgumentParser
import Foundation
import JewzLocking
import Jewzruxin

/// `jewz ws`: a WebSocket client for a terminal or a pipe, as websocat is. Lines from standard
/// input go out as messages; messages come out on standard output as they arrive.
struct WebSocketCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "ws",
        abstract: "Open a WebSocket: send standard input's lines, print the server's messages.",
        discussion: """
            jewz ws wss://echo.example.com/                  # type lines, see the answers
            echo '{"op":"subscribe"}' | jewz ws --json wss://feed.example.com/ Authorization:'Bearer …'
            jewz ws --binary ws://localhost:9000/ < frames.txt
            When standard input ends, jewz waits until the server has been quiet for --linger
            seconds (its answers to the last lines still arrive), then closes the socket (code
            1000) and waits for the server's close; messages sent before it are still printed. Exit status: 0 after a
            closing handshake, 2 when the connection fails, 4 or 5 when the server refuses
            the WebSocket with a 4xx or 5xx.
            """)

    @Argument(help: "A ws://, wss://, http:// or https:// URL, then any header fields as Name:Value.")
    var items: [String]

    @Flag(help: "Send each line as a binary message rather than text.")
    var binary = false

    @Flag(help: "Print one JSON object per message: {\"text\": …} or {\"binary\": base64}.")
    var json = false

    @Option(help: "Offer this subprotocol (repeat for several, preferred first).")
    var subprotocol: [String] = []

    @Flag(help: "Do not offer permessage-deflate.")
    var noCompression = false

    @Option(help: "Ping the server every SECONDS, and fail when no pong comes back within as long.")
    var ping: Double?

    @Option(help: "The largest message taken, in MiB (default 16).")
    var maxMessage: Int = 16

    @Option(help: "After standard input ends, close once the server has sent nothing for this many seconds (default 1).")
    var linger: Double = 1

    @OptionGroup var connection: ConnectionOptions

    func run() async throws {
        let (request, options) = try prepared()
        var configuration = HTTPSession.Configuration()
        try connection.configure(&configuration)
        let session = HTTPSession(configuration: configuration)
        defer { Task { try? await session.shutdown() } }
        do {
            let closure = try await session.withWebSocket(request, options: options) { socket in
                try await exchange(over: socket)
            }
            guard closure.wasClean else {
                printError("the connection ended without a closing handshake (code \(closure.code))")
                throw JewzExit.network.code
            }
            if closure.code != .normalClosure {
                printError("the server closed with \(closure.code)\(closure.reason.isEmpty ? "" : ": \(closure.reason)")")
            }
        } catch let error as WebSocketError {
            printError(error.description)
            guard error.code == .handshakeRejected, let status = error.response?.statusCode else { throw JewzExit.network.code }
            throw (status >= 500 ? JewzExit.serverError : status >= 400 ? JewzExit.clientError : JewzExit.network).code
        } catch let error as HTTPError {
            printError(error.description)
            throw JewzExit.network.code
        }
    }

    /// Prints the server's messages while standard input's lines go out; closes when input ends.
    private func exchange(over socket: WebSocket) async throws -> WebSocket.Closure {
        let lastHeard = LastHeard()
        return try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask {
                for try await message in socket.messages {
                    printLine(message)
                    lastHeard.touch()
                }
            }
            for await line in StandardInputLines() {
                do {
                    try await socket.send(binary ? .binary(Data(line.utf8)) : .text(line))
                } catch {
                    break  // the server closed: its messages, and why, come from the reader
                }
            }
            try await waitForQuiet(of: socket, lastHeard: lastHeard)
            let closure = await socket.close()
            try await group.waitForAll()
            return closure
        }
    }

    /// Returns once the server has sent nothing for `--linger` seconds, or has closed.
    private func waitForQuiet(of socket: WebSocket, lastHeard: LastHeard) async throws {
        let quiet = Duration.milliseconds(Int(linger * 1000))
        lastHeard.touch()
        while socket.closure == nil {
            let silent = lastHeard.silence
            guard silent < quiet else { return }
            try await Task.sleep(for: min(quiet - silent, .milliseconds(50)))
        }
    }

    private func printLine(_ message: WebSocket.Message) {
        var output: Data
        switch (message, json) {
        case (.text(let text), false):
            output = Data(text.utf8)
        case (.binary(let data), false):
            output = data
        case (.text(let text), true):
            output = (try? JSONSerialization.data(withJSONObject: ["text": text], options: [.sortedKeys, .withoutEscapingSlashes])) ?? Data()
        case (.binary(let data), true):
            output = (try? JSONSerialization.data(withJSONObject: ["binary": data.base64EncodedString()])) ?? Data()
        }
        output.append(0x0A)
        StandardOutput.write(output)
    }

    /// The handshake's request and the socket's options, from the arguments.
    private func prepared() throws -> (HTTPRequest, WebSocketOptions) {
        guard let target = items.first, let url = URL(string: target), url.host?.isEmpty == false else {
            throw ValidationError("Give a ws:// or wss:// URL first.")
        }
        var request = HTTPRequest(url: url)
        for item in items.dropFirst() {
            guard case .header(let name, let value)? = try? RequestItem(item) else {
                throw ValidationError("'\(item)' is not a header field: write Name:Value.")
            }
            request.headers.add(value, for: name)
        }
        guard linger >= 0, linger.isFinite else { throw ValidationError("--linger takes 0 or more seconds.") }
        guard maxMessage > 0 else { throw ValidationError("--max-message takes 1 or more (MiB).") }
        var options = WebSocketOptions(subprotocols: subprotocol, maximumMessageSize: maxMessage << 20)
        if noCompression { options.compression = nil }
        if let ping {
            guard ping > 0, ping.isFinite else { throw ValidationError("--ping takes a positive number of seconds.") }
            options.pingInterval = .milliseconds(Int(ping * 1000))
            options.pingTimeout = .milliseconds(Int(ping * 1000))
        }
        return (request, options)
    }
}

/// When the server last sent a message.
private final class LastHeard: Sendable {
    private let instant = Mutex(ContinuousClock.now)

    func touch() { instant.withLock { $0 = .now } }

    var silence: Duration { .now - instant.withLock { $0 } }
}
