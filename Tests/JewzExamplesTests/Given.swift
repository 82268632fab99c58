import Foundation
import Jewzruxin
import ServiceLifecycle

// What the READMEs' and doc comments' examples take as the reader's own: their model types and
// the functions of their app. Nothing here runs; it lets the examples compile as written.

struct Person: Codable, Sendable {
    var name: String
}

struct User: Codable, Sendable {
    var id: Int
    var name: String
}

struct Item: Codable, Sendable {
    var id: Int
    var title: String
}

struct SearchResults: Decodable, Sendable {
    var totalCount: Int
}

/// A decoded image of the reader's own making.
struct Pixels: Sendable {
    init(decoding data: Data) throws {}
}

/// A streamed token of a completion API.
struct Completion: Decodable, Sendable {
    var text: String
}

/// Reads CSV into rows: a processor of the reader's own, registered by content type.
struct CSVProcessor: HTTPResponseProcessor {
    func process(_ response: inout HTTPResponse) throws {
        response.object = response.text?.split(separator: "\n").map { $0.split(separator: ",").map(String.init) }
    }
}

func login() async throws -> TokenAuthenticator.Credential { .init(token: "t0ken") }
func show(_ value: Any) {}
func consume(_ chunk: Data) {}
func handle(_ value: Any) {}
func showOffline() {}
func retryLater(_ resumeData: DownloadResumeData?) {}
func resumeLater(_ resumeData: DownloadResumeData?) {}
func sign(_ body: Data) -> String { "" }
func signature(of body: Data, with key: some Any) -> String { "" }
func hexDigest(of body: Data) -> String { "" }

/// The reader's server (a Hummingbird application, say), run beside the session in a group.
struct ExampleApp: Service {
    func run() async throws {}
}

/// A value a table cell's expression shows, taken so that the cell compiles as a statement
/// without an unused-result warning, Void or not.
func shown<Value>(_ value: Value) {}
