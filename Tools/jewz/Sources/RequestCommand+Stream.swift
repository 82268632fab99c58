import ArgumentParser
import Foundation
import Jewzruxin

extension RequestCommand {
    /// `--stream`: sends `cycle`, prints the head as it arrives and the body as it comes —
    /// events of an event stream one by one, resumed as ``HTTPEventSource`` resumes them,
    /// anything else byte for byte — then shuts `session` down.
    ///
    /// - Throws: the exit status for a failure (a failing status, the network, a stream too
    ///   large to hold a line or an event).
    func stream(_ cycle: HTTPCycle, session: HTTPSession, parts: String, trace: StageTrace?) async throws {
        defer { Task { try? await session.shutdown() } }
        let opened: HTTPStreamedResponse
        do {
            opened = try await cycle.startStreaming()
        } catch let error as HTTPError {
            if let response = error.response {
                if parts.contains("h") { ExchangePrinter.printResponseHead(response) }
                if parts.contains("b") { ExchangePrinter.printResponseBody(response) }
            }
            throw Self.exitStatus(for: error, response: error.response).code
        }
        if let trace { printError(trace.line) }
        if parts.contains("h") { ExchangePrinter.printResponseHead(opened.head) }
        fflush(nil)
        guard parts.contains("b") else { return }
        do {
            if MediaType(opened.headers["Content-Type"] ?? "")?.essence == "text/event-stream" {
                let configuration = HTTPEventSource.Configuration(reconnects: !streaming.noReconnect)
                for try await event in HTTPEventSource(continuing: opened.body, request: cycle.request, session: session, configuration: configuration) {
                    printLine(StreamOptions.text(of: event))
                    fflush(nil)
                }
            } else {
                for try await chunk in opened.body { StandardOutput.write(chunk) }
            }
        } catch let error as HTTPError {
            throw Self.exitStatus(for: error, response: error.response).code
        } catch let error as EventSourceError {
            printError(error.description)
            throw JewzExit.network.code
        }
    }
}
