import JewzHTTPCore
import Testing

@Suite struct HTTPHeaderFieldsTests {
    @Test func lookupIgnoresCaseAndCombinesValues() {
        var headers: HTTPHeaderFields = ["Content-Type": "text/plain"]
        headers.add("a=1", for: "Cookie")
        headers.add("b=2", for: "cookie")
        #expect(headers["cOnTeNt-TyPe"] == "text/plain")
        #expect(headers["COOKIE"] == "a=1, b=2")
        #expect(headers.values(for: "Cookie") == ["a=1", "b=2"])
        #expect(headers["Missing"] == nil)
    }

    @Test func settingReplacesEveryFieldOfTheNameInPlace() {
        var headers = HTTPHeaderFields([("A", "1"), ("X-Tag", "a"), ("B", "2"), ("x-tag", "b")])
        headers["X-TAG"] = "c"
        #expect(headers.fields.map(\.name) == ["A", "X-Tag", "B"])
        #expect(headers["x-tag"] == "c")
        headers["x-tag"] = nil
        #expect(!headers.contains("X-Tag"))
        #expect(headers.fields.count == 2)
    }

    @Test func addMissingKeepsExistingValues() {
        var headers: HTTPHeaderFields = ["user-agent": "Mine"]
        headers.addMissing(from: ["User-Agent": "Default", "Accept": "*/*"])
        #expect(headers["User-Agent"] == "Mine")
        #expect(headers["Accept"] == "*/*")
    }

    @Test func mediaTypeParsesParametersAndSuffix() throws {
        let type = try #require(MediaType("Application/VND.API+JSON ; Charset=\"UTF-8\"; q=\"a\\\"b\""))
        #expect(type.essence == "application/vnd.api+json")
        #expect(type.suffix == "json")
        #expect(type.charset == "UTF-8")
        #expect(type.parameter("q") == "a\"b")
        #expect(MediaType("nonsense") == nil)
        #expect(MediaType("/json") == nil)
    }
}
