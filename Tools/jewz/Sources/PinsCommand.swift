import ArgumentParser
import Foundation
import Jewzruxin

/// `jewz pins`: the pins (SHA-256 of the public key) of a server's certificates or of a PEM
/// file's, in the form `--pin` takes.
struct PinsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "pins",
        abstract: "Print the public-key pins of a server's certificates or of a PEM file's.",
        discussion: """
            jewz pins https://example.com        # what the server presents, leaf first
            jewz pins ca.pem                     # a root's pin, to give to --pin
            jewz --verify ca.pem --pin example.com=sha256/… https://example.com/
            Servers seldom send their root, and jewz can only pin roots (see `jewz --help`).
            """)

    @Argument(help: "An https URL (its host and port) or a PEM file.")
    var target: String

    @Option(help: "Seconds to wait for the server's certificates.")
    var timeout: Double = 10

    func run() async throws {
        let pins: [AsyncHTTPClientTransport.CertificatePin]
        do {
            pins = try await self.pins()
        } catch let error as HTTPError {
            printError(error.description)
            throw (error.code == .invalidConfiguration ? JewzExit.usage : JewzExit.network).code
        }
        for pin in pins { printLine("\(pin)") }
    }

    private func pins() async throws -> [AsyncHTTPClientTransport.CertificatePin] {
        guard target.contains("://") else {
            let file = try AsyncHTTPClientTransport.Configuration.PEMCertificates(contentsOfFile: target)
            return try file.pins()
        }
        guard let url = URL(string: target), url.scheme?.lowercased() == "https", let host = url.host, !host.isEmpty else {
            throw HTTPError.invalidConfiguration("'\(target)' is neither an https URL nor a PEM file")
        }
        guard timeout > 0, timeout.isFinite else { throw HTTPError.invalidConfiguration("--timeout must be a positive number of seconds") }
        return try await AsyncHTTPClientTransport.pins(
            servedBy: host, port: url.port ?? 443, timeout: .milliseconds(Int(timeout * 1000)))
    }
}
