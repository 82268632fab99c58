import Foundation
import JewzHTTPCore
import JewzJSON
import Testing

/// nst's JSONTestSuite (`Resources/JSONTestSuite/SOURCE.md`), every file through the parser the
/// response processor uses: `y_` accepted, `n_` refused with a `JSONError`, `i_` either — none
/// crashing or taking long (the deep-nesting files included). (The processor itself leaves an
/// empty body alone, as HTTP's "no content", where the parser refuses empty text.)
@Suite struct JSONTestSuiteTests {
    static let directory = Bundle.module.resourceURL?.appendingPathComponent("JSONTestSuite")
        ?? URL(fileURLWithPath: "JSONTestSuite")

    static let files: [String] = ((try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? [])
        .filter { $0.hasSuffix(".json") }.sorted()

    @Test func theSuiteIsPresentWhole() {
        #expect(Self.files.count == 318)
        #expect(Self.files.allSatisfy { $0.hasPrefix("y_") || $0.hasPrefix("n_") || $0.hasPrefix("i_") })
    }

    @Test(arguments: files)
    func suiteFile(_ name: String) throws {
        let data = try Data(contentsOf: Self.directory.appendingPathComponent(name))
        let started = ContinuousClock.now
        let outcome: Result<JSONValue, JSONError>
        do {
            outcome = .success(try JSONValue(parsing: data))
        } catch {
            outcome = .failure(error)
        }
        #expect(ContinuousClock.now - started < .seconds(5), "\(name) took too long")
        switch (name.prefix(2), outcome) {
        case ("y_", .failure(let error)):
            Issue.record("\(name) is JSON and was refused: \(error)")
        case ("y_", .success(let value)):
            var response = HTTPResponse(statusCode: 200, headers: ["Content-Type": "application/json"], body: HTTPResponseBody(data))
            try HTTPJSONProcessor().process(&response)
            #expect(response.object as? JSONValue == value, "the processor reads it as the parser does")
        case ("n_", .success(let value)):
            Issue.record("\(name) is not JSON and was accepted as \(value)")
        default:
            break
        }
    }
}
