import Foundation
import JewzService
import JewzTestSupport
import Testing

/// `verifyProfile`: every kind of problem, each with where it is, all found at once.
@Suite struct ProfileVerificationTests {
    private func problems(_ profile: [String: Any]) -> [ProfileProblem] {
        ServiceProfile.problems(in: profile)
    }

    private func resource(_ fields: [String: Any]) -> [String: Any] {
        ["Resources": [["Name": "r", "URITemplate": "/r"].merging(fields) { $1 }]]
    }

    @Test func aValidProfileHasNoProblems() {
        #expect(problems(githubProfile(local: "http://127.0.0.1:1")).isEmpty)
    }

    @Test func missingKeys() {
        #expect(problems([:]).map(\.kind) == [.missingKey])
        #expect(problems([:]).first?.path == "Resources")
        let found = problems(["Resources": [["Method": "GET"]]])
        #expect(found.map(\.kind) == [.missingKey, .missingKey])
        #expect(found.map(\.path) == ["Resources[0].Name", "Resources[0].URITemplate"])
    }

    @Test func wrongTypes() {
        #expect(problems(["Resources": "search"]).map(\.kind) == [.wrongType])
        let found = problems(resource(["Name": 7, "Timeout": "ten"]))
        #expect(Set(found.map(\.path)) == ["Resources[0].Name", "Resources[0].Timeout"])
        #expect(found.allSatisfy { $0.kind == .wrongType })
        #expect(found.contains { $0.message.contains("a string is expected, not a number") })
    }

    @Test func duplicateNames() {
        let found = problems(["Resources": [["Name": "a", "URITemplate": "/a"], ["Name": "a", "URITemplate": "/b"]]])
        #expect(found.map(\.kind) == [.duplicateName])
        #expect(found.first?.path == "Resources[1].Name")
    }

    @Test func templatesThatDoNotParseSayWhere() {
        let found = problems(resource(["URITemplate": "/search{?q"]))
        #expect(found.map(\.kind) == [.invalidTemplate])
        #expect(found.first?.path == "Resources[0].URITemplate")
        #expect(found.first?.message.contains("at offset 7") == true, "\(found)")
    }

    @Test func unknownMethodsAndProcessors() {
        let found = problems(resource(["Method": "get", "RequestProcessor": "yaml", "ResponseProcessor": "text/csv"]))
        #expect(found.map(\.kind) == [.unknownMethod, .unknownProcessor])
        #expect(found.first?.message.contains("upper case: GET") == true)
        #expect(problems(resource(["Method": "FETCH"])).map(\.kind) == [.unknownMethod])
    }

    @Test func unknownKeysAreTyposToReport() {
        let found = problems(["baseurl": "https://a.example"].merging(resource(["URITemplte": "/x"])) { $1 })
        #expect(Set(found.map(\.path)) == ["baseurl", "Resources[0].URITemplte"])
        #expect(found.allSatisfy { $0.kind == .unknownKey })
        #expect(found.contains { $0.message.contains("did you mean BaseURL?") })
    }

    @Test func valuesThatCannotBeUsed() {
        var profile = resource(["Timeout": -1, "Headers": ["X-Bad": "a\r\nb", "Bad Name": "x"]])
        profile["BaseURL"] = "ftp://files.example"
        profile["Environments"] = ["staging": "not a url"]
        let found = problems(profile)
        #expect(found.allSatisfy { $0.kind == .invalidValue }, "\(found)")
        #expect(Set(found.map(\.path)) == ["BaseURL", "Environments.staging", "Resources[0].Timeout", "Resources[0].Headers.X-Bad", "Resources[0].Headers.Bad Name"])
    }

    @Test func everyProblemIsFoundAtOnceAndNoInvalidProfileIsMade() throws {
        let broken: [String: Any] = [
            "BaseURL": 42,
            "Resources": [["Name": "a", "URITemplate": "{"], ["Name": "a", "URITemplate": "/b", "Method": "YANK"], ["URITemplate": "/c"]],
        ]
        #expect(problems(broken).count == 4, "\(problems(broken))")
        let error = #expect(throws: ServiceError.self) { try ServiceProfile(dictionary: broken) }
        #expect(error?.code == .invalidProfile)
        #expect(error?.problems.count == 4)
        #expect(error?.description.contains("(and 3 more)") == true)
    }

    @Test func profilesLoadFromJSONPropertyListsAndFilesByName() throws {
        let dictionary = githubProfile(local: "http://127.0.0.1:1")
        let json = try JSONSerialization.data(withJSONObject: dictionary)
        let xml = try PropertyListSerialization.data(fromPropertyList: dictionary, format: .xml, options: 0)
        let binary = try PropertyListSerialization.data(fromPropertyList: dictionary, format: .binary, options: 0)
        for data in [json, xml, binary] {
            let profile = try ServiceProfile(data: data)
            #expect(profile.resources.map(\.name) == ["search", "user", "repos", "upload", "secret"])
            #expect(profile.resource(named: "upload")?.method == .post)
            #expect(profile.resource(named: "repos")?.timeout == .seconds(60))
            #expect(profile.environments["local"] == "http://127.0.0.1:1")
        }
        let directory = try makeScratchDirectory(prefix: "jewz-profiles")
        defer { try? FileManager.default.removeItem(at: directory) }
        try binary.write(to: directory.appendingPathComponent("github.plist"))
        #expect(try ServiceProfile(named: "github", in: directory).resources.count == 5)
        let bundle = try #require(Bundle(path: directory.path))
        #expect(try ServiceProfile(named: "github", in: bundle).resources.count == 5)
        #expect(throws: ServiceError.self) { try ServiceProfile(named: "gitlab", in: bundle) }
        let missing = #expect(throws: ServiceError.self) { try ServiceProfile(named: "gitlab", in: directory) }
        #expect(missing?.code == .unreadableProfile)
        #expect(throws: ServiceError.self) { try ServiceProfile(data: Data([0xFF, 0xFE, 0x00])) }
    }
}
