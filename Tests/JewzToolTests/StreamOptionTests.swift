import Foundation
import JewzSandbox
import JewzTestSupport
import Testing

/// `jewz --stream`, `--no-reconnect`, `--unix-socket`, and br/zstd bodies, as a user runs them.
@Suite struct StreamOptionTests {
    @Test func anEventIsPrintedWhileTheServerHoldsTheStreamOpen() async throws {
        let sandbox = try await Sandbox.start()
        // One event, then the server says nothing more and keeps the connection.
        let url = sandbox.url("/events/held?count=2&per=1&end=hold")
        let printed = try await runBlocking {
            let process = try ChildProcess.spawn(jewzExecutable.path, arguments: ["-S", url], environment: childEnvironment, input: Data())
            onOwnThread { _ = process.standardError?.readDataToEndOfFile() }
            defer {
                process.send(SIGKILL)
                _ = process.waitForExit()
            }
            var output = Data()
            let deadline = ContinuousClock.now + .seconds(60)
            while !String(decoding: output, as: UTF8.self).contains("data: {\"n\":1}\n"), ContinuousClock.now < deadline {
                let chunk = process.standardOutput.availableData
                if chunk.isEmpty { break }
                output.append(chunk)
            }
            // Printed, and the process still runs: the event came before the stream's end.
            return (String(decoding: output, as: UTF8.self), process.hasExited)
        }
        #expect(printed.0 == "event: tick\nid: 1\ndata: {\"n\":1}\n\n")
        #expect(!printed.1)
        #expect(sandbox.router.lastEventIDs(forKey: "held") == [""])
        try await sandbox.shutdown()
    }

    @Test func aStreamIsResumedUntilThe204OrNotAtAll() async throws {
        let sandbox = try await Sandbox.start()
        let resumed = try await runJewz(["-S", sandbox.url("/events/cli?count=4&per=2&retry=10")])
        #expect(resumed.status == 0, "\(resumed.error)")
        #expect(resumed.output.components(separatedBy: "\n\n").filter { !$0.isEmpty }.count == 4)
        #expect(resumed.output.hasSuffix("event: tick\nid: 4\ndata: {\"n\":4}\n\n"))
        #expect(sandbox.router.lastEventIDs(forKey: "cli") == ["", "2", "4"])
        let once = try await runJewz(["-S", "--no-reconnect", "--print", "hb", sandbox.url("/events/once?count=4&per=2")])
        #expect(once.status == 0, "\(once.error)")
        #expect(once.output.hasPrefix("HTTP/1.1 200 OK\n"))
        #expect(once.output.hasSuffix("id: 2\ndata: {\"n\":2}\n\n"))
        #expect(sandbox.router.lastEventIDs(forKey: "once") == [""])
        let lines = try await runJewz(["-S", sandbox.url("/ndjson?count=3")])
        #expect(lines.output == (0..<3).map { #"{"index":\#($0),"text":"line \#($0)"}"# + "\n" }.joined())
        let misused = try await runJewz(["--no-reconnect", sandbox.url("/hello/")])
        #expect(misused.status == 1)
        #expect(misused.error.contains("--no-reconnect goes with --stream"))
        try await sandbox.shutdown()
    }

    @Test(arguments: ["br", "zstd", "gzip,br", "zstd,gzip"])
    func compressedBodiesArePrintedDecoded(_ codings: String) async throws {
        let sandbox = try await Sandbox.start()
        let run = try await runJewz(["--print", "hb", sandbox.url("/encoded?coding=\(codings)&content=jewz%20&repeat=3")])
        #expect(run.status == 0, "\(run.error)")
        #expect(run.output.contains("Content-Encoding: \(codings.replacingOccurrences(of: ",", with: ", "))"))
        #expect(run.output.hasSuffix("\n\njewz jewz jewz "), "\(run.output)")
        try await sandbox.shutdown()
    }

    @Test func aServerOnAUnixSocketIsReached() async throws {
        let directory = try makeScratchDirectory(prefix: "jewz-socket")
        defer { try? FileManager.default.removeItem(at: directory) }
        let socket = directory.appendingPathComponent("app.sock").path
        let sandbox = try await Sandbox.start(unixSocketPath: socket)
        let run = try await runJewz(["--unix-socket", socket, "http://app.local/hello/"])
        #expect(run.status == 0, "\(run.error)")
        #expect(run.output == "Hello World")
        let direct = try await runJewz(["--print", "b", sandbox.socketURL("/inspect")])
        #expect(direct.output.contains(#"["host","localhost"]"#) || direct.output.contains(#"["Host","localhost"]"#), "\(direct.output)")
        try await sandbox.shutdown()
    }
}
