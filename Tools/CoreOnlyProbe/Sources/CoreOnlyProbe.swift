import Foundation
import JewzHTTPCore
import Logging

/// A program built from JewzHTTPCore alone, as a user who depends on single modules builds one:
/// it shows that such a program links without the umbrella, that a new configuration's registries start
/// empty, and that a response a standard processor would have read says so in the log, once.
///
/// Usage: CoreOnlyProbe URL [COUNT]   GETs URL COUNT times (2); prints the registered content
/// codings and, per response, whether it was parsed. The log goes to standard error.
@main
struct CoreOnlyProbe {
    static func main() async {
        LoggingSystem.bootstrap(StreamLogHandler.standardError)
        let arguments = CommandLine.arguments
        guard arguments.count >= 2, let url = URL(string: arguments[1]) else {
            FileHandle.standardError.write(Data("usage: CoreOnlyProbe URL [COUNT]\n".utf8))
            exit(2)
        }
        let count = arguments.count >= 3 ? Int(arguments[2]) ?? 2 : 2
        print("codings: \(HTTPSession.Configuration().contentCodings.tokens)")
        let session = HTTPSession()
        do {
            for _ in 0..<count {
                let response = try await session.send(HTTPRequest(url: url))
                print("\(response.statusCode) \(response.headers["Content-Type"] ?? "") parsed: \(response.object != nil)")
            }
            try await session.shutdown()
        } catch {
            print("failed: \(error)")
            exit(1)
        }
    }
}
