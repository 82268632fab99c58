import ArgumentParser
import Foundation
import JewzSandbox

/// `jewz serve`: runs the Sandbox server until interrupted; with `--tls`, HTTPS (and HTTP/2)
/// with a certificate authority made for the run.
struct ServeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve", abstract: "Run the Sandbox server (the playground endpoints of the tour and the tests).",
        discussion: """
            jewz serve --port 8000                   then: jewz :8000/hello/
            jewz serve --port 0                      a free port, printed on start
            jewz serve --tls --port 8443 --ca-file ca.pem
                then: jewz --verify ca.pem https://127.0.0.1:8443/inspect
            """)

    @Option(help: "The port to listen on; 0 picks a free one.")
    var port: Int = 8000

    @Option(help: "The address to listen on.")
    var host: String = "127.0.0.1"

    @Flag(help: "Serve HTTPS (HTTP/2 by ALPN) with a certificate signed by an authority made now; its PEM is written to --ca-file.")
    var tls = false

    @Option(help: "With --tls, where to write the authority's certificate, for clients to trust (jewz --verify FILE).")
    var caFile: String?

    func run() async throws {
        guard (0...65535).contains(port) else { throw ValidationError("--port must be 0...65535.") }
        if caFile != nil, !tls { throw ValidationError("--ca-file goes with --tls.") }
        let settings = try tls ? SandboxTLS(certificates: SandboxCertificates.generate()) : nil
        if let settings, let caFile {
            do {
                try Data(settings.certificates.authorityPEM.utf8).write(to: URL(fileURLWithPath: caFile), options: .atomic)
            } catch {
                printError("cannot write the authority's certificate to \(caFile): \(error.localizedDescription)")
                throw JewzExit.usage.code
            }
        }
        let sandbox: Sandbox
        do {
            sandbox = try await Sandbox.start(host: host, port: port, tls: settings)
        } catch {
            printError("cannot listen on \(host):\(port): \(error)")
            throw JewzExit.network.code
        }
        // Scripts read the port from this line, often through a pipe: write it unbuffered.
        printLine("Sandbox listening on \(sandbox.baseURL) (try \(sandbox.url("/hello/")))")
        try await sandbox.waitUntilClosed()
    }
}
