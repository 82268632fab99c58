import ArgumentParser
import Foundation
import JewzSandbox

/// `jewz serve`: runs the Sandbox server until interrupted.
struct ServeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve", abstract: "Run the Sandbox server (the seed's playground endpoints).")

    @Option(help: "The port to listen on; 0 picks a free one.")
    var port: Int = 8000

    @Option(help: "The address to listen on.")
    var host: String = "127.0.0.1"

    func run() async throws {
        guard (0...65535).contains(port) else { throw ValidationError("--port must be 0...65535.") }
        let sandbox: Sandbox
        do {
            sandbox = try await Sandbox.start(host: host, port: port)
        } catch {
            printError("cannot listen on \(host):\(port): \(error)")
            throw JewzExit.network.code
        }
        // Scripts read the port from this line, often through a pipe: write it unbuffered.
        FileHandle.standardOutput.write(Data("Sandbox listening on \(sandbox.baseURL) (try \(sandbox.url("/hello/")))\n".utf8))
        try await sandbox.waitUntilClosed()
    }
}
