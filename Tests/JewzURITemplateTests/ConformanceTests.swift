import Foundation
import JewzJSON
import JewzURITemplate
import Testing

/// One case of the public RFC 6570 suite: a template, its variables, and what it must give.
struct ConformanceCase: CustomTestStringConvertible, Sendable {
    enum Expected: Sendable {
        case oneOf([String])
        case failure
    }

    let file: String
    let group: String
    let template: String
    let variables: [String: URITemplate.Value]
    let expected: Expected

    var testDescription: String { "\(file) › \(group) › \(template)" }
}

/// The suite's files, shipped with this test target as resources (see `Resources/uritemplate-test/SOURCE.md`).
let suiteDirectory = Bundle.module.resourceURL?.appendingPathComponent("uritemplate-test")
    ?? URL(fileURLWithPath: "uritemplate-test")

let suiteFiles = ["spec-examples.json", "spec-examples-by-section.json", "extended-tests.json", "negative-tests.json"]

func loadConformanceCases() -> [ConformanceCase] {
    var cases: [ConformanceCase] = []
    for file in suiteFiles {
        // JSONValue keeps objects in document order: the suite's answers for maps assume it.
        guard let data = try? Data(contentsOf: suiteDirectory.appendingPathComponent(file)),
            let groups = try? JSONValue(parsing: data).object
        else { continue }
        for (group, body) in groups {
            var variables: [String: URITemplate.Value] = [:]
            for (name, value) in body["variables"].object ?? [:] where !value.isNull {
                variables[name] = templateValue(value)
            }
            for testCase in body["testcases"].array ?? [] {
                guard let template = testCase[0].string else { continue }
                let expected: ConformanceCase.Expected
                switch testCase[1] {
                case .string(let answer): expected = .oneOf([answer])
                case .array(let answers): expected = .oneOf(answers.compactMap(\.string))
                default: expected = .failure
                }
                cases.append(ConformanceCase(file: file, group: group, template: template, variables: variables, expected: expected))
            }
        }
    }
    return cases
}

/// A JSON value as a template value: numbers as written in the file.
func templateValue(_ json: JSONValue) -> URITemplate.Value {
    switch json {
    case .array(let items): .list(items.map(scalarText))
    case .object(let object): .associative(object.members.map { (key: $0.key, value: scalarText($0.value)) })
    default: .string(scalarText(json))
    }
}

private func scalarText(_ json: JSONValue) -> String {
    switch json {
    case .string(let text): text
    case .number(let number): number.text
    case .bool(let flag): String(flag)
    default: json.description
    }
}

@Suite struct ConformanceTests {
    @Test func theSuiteIsPresent() throws {
        let present = suiteFiles.filter { FileManager.default.fileExists(atPath: suiteDirectory.appendingPathComponent($0).path) }
        try #require(
            present.count == suiteFiles.count,
            "The RFC 6570 conformance suite is missing from \(suiteDirectory.path); it ships in Tests/JewzURITemplateTests/Resources.")
        #expect(loadConformanceCases().count == 270)
    }

    @Test(arguments: loadConformanceCases())
    func suiteCase(_ testCase: ConformanceCase) {
        switch testCase.expected {
        case .oneOf(let answers):
            do {
                let template = try URITemplate(testCase.template)
                let expansion = try template.expand(testCase.variables)
                #expect(answers.contains(expansion), "got \(expansion), expected one of \(answers)")
            } catch {
                Issue.record("threw \(error)")
            }
        case .failure:
            #expect(throws: URITemplateError.self) {
                _ = try URITemplate(testCase.template).expand(testCase.variables)
            }
        }
    }
}
