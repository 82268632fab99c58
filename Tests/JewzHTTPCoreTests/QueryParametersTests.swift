import Foundation
import JewzHTTPCore
import Testing

@Suite struct QueryParametersTests {
    @Test func appendsToAnExistingQueryKeepingItsSpelling() {
        let merged = "/hello/?key2=value%2F2&flag".mergingQueryParameters(["key1": "value1"])
        #expect(merged == "/hello/?key2=value%2F2&flag&key1=value1")
    }

    @Test func arraysRepeatTheNameAndLiteralOrderIsKept() {
        let merged = "http://h/p".mergingQueryParameters(["z": 1, "content": ["dummy", 71], "a": true])
        #expect(merged == "http://h/p?z=1&content=dummy&content=71&a=true")
    }

    @Test func aGivenNameReplacesExistingValuesAtTheirPlace() {
        let merged = "http://h/p?a=1&b=2&a=3#frag".mergingQueryParameters(["a": ["x", "y"], "c": "z"])
        #expect(merged == "http://h/p?a=x&a=y&b=2&c=z#frag")
    }

    @Test func encodesReservedAndUnicodeCharactersPerRFC3986() {
        let merged = "http://h/".mergingQueryParameters(["q": "a b&c=d/é~", "ké y": ""])
        #expect(merged == "http://h/?q=a%20b%26c%3Dd%2F%C3%A9~&k%C3%A9%20y=")
    }

    @Test func dictionariesAreSortedByKey() {
        let parameters = QueryParameters(["b": "2", "a": "1", "c": "3"])
        #expect("http://h".mergingQueryParameters(parameters) == "http://h?a=1&b=2&c=3")
    }

    @Test func urlHelperMatchesTheStringHelper() throws {
        let url = try #require(URL(string: "https://example.com/search?x=1"))
        #expect(url.mergingQueryParameters(["q": "swift nio"]).absoluteString == "https://example.com/search?x=1&q=swift%20nio")
    }

    @Test func percentDecodingRejectsMalformedTriplets() {
        #expect(PercentEncoding.decode("a%2Fb+c", plusAsSpace: true) == "a/b c")
        #expect(PercentEncoding.decode("a%2") == nil)
        #expect(PercentEncoding.decode("%zz") == nil)
        #expect(PercentEncoding.decode("%FF") == nil)
        #expect(PercentEncoding.encode("a b", allowing: .formURLEncoded, spaceAsPlus: true) == "a+b")
    }
}
