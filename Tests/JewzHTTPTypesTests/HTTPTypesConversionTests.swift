import Foundation
import HTTPTypes
import JewzHTTPCore
import JewzHTTPTypes
import Testing

/// Requests, responses and header fields go to swift-http-types and back unchanged, and what
/// HTTPTypes cannot hold is a typed error rather than a changed value.
@Suite struct HTTPTypesConversionTests {
    @Test func aRequestRoundTrips() throws {
        let url = try #require(URL(string: "https://api.example.com:8443/v1/items?q=a%20b&tags=x&tags=y"))
        let request = JewzHTTPCore.HTTPRequest(
            url: url, method: .post, headers: ["Accept": "application/json", "X-Trace": "1", "x-trace": "2", "Content-Type": "text/plain"])
        let converted = try HTTPTypes.HTTPRequest(request)
        #expect(converted.method == .post)
        #expect(converted.scheme == "https")
        #expect(converted.authority == "api.example.com:8443")
        #expect(converted.path == "/v1/items?q=a%20b&tags=x&tags=y")
        #expect(converted.headerFields[values: try #require(HTTPField.Name("X-Trace"))] == ["1", "2"])
        let back = try JewzHTTPCore.HTTPRequest(converted)
        #expect(back.url == url)
        #expect(back.method == .post)
        #expect(back.headers == request.headers)
        #expect(Array(back.headers).map(\.name) == ["Accept", "X-Trace", "x-trace", "Content-Type"])
    }

    @Test func aResponseRoundTrips() throws {
        let response = JewzHTTPCore.HTTPResponse(statusCode: 418, headers: ["Content-Type": "text/plain", "Set-Cookie": "a=1", "Set-Cookie": "b=2"])
        let converted = try HTTPTypes.HTTPResponse(response)
        #expect(converted.status.code == 418)
        #expect(converted.status.reasonPhrase == "I'm a teapot")
        #expect(converted.headerFields[values: .setCookie] == ["a=1", "b=2"])
        let back = JewzHTTPCore.HTTPResponse(converted, body: HTTPResponseBody(Data("tea".utf8)))
        #expect(back.statusCode == 418)
        #expect(back.headers == response.headers)
        #expect(back.text == "tea")
    }

    @Test func anExtensionMethodRoundTrips() throws {
        let request = JewzHTTPCore.HTTPRequest(url: try #require(URL(string: "http://h/")), method: HTTPMethod(rawValue: "PURGE"))
        #expect(try JewzHTTPCore.HTTPRequest(HTTPTypes.HTTPRequest(request)).method == HTTPMethod(rawValue: "PURGE"))
    }

    @Test func whatHTTPTypesRefusesIsATypedError() throws {
        let url = try #require(URL(string: "http://h/"))
        let badName = #expect(throws: HTTPTypesConversionError.self) {
            try HTTPTypes.HTTPRequest(JewzHTTPCore.HTTPRequest(url: url, headers: ["Bad Name": "x"]))
        }
        #expect(badName?.code == .invalidFieldName)
        #expect(badName?.offending == "Bad Name")
        let badValue = #expect(throws: HTTPTypesConversionError.self) {
            try HTTPFields(["X-Evil": "a\r\nInjected: yes"] as HTTPHeaderFields)
        }
        #expect(badValue?.code == .invalidFieldValue)
        let badMethod = #expect(throws: HTTPTypesConversionError.self) {
            try HTTPTypes.HTTPRequest(JewzHTTPCore.HTTPRequest(url: url, method: HTTPMethod("GET IT")))
        }
        #expect(badMethod?.code == .invalidMethod)
        let badStatus = #expect(throws: HTTPTypesConversionError.self) {
            try HTTPTypes.HTTPResponse(JewzHTTPCore.HTTPResponse(statusCode: 1000))
        }
        #expect(badStatus?.code == .invalidStatus)
        #expect(badStatus?.description.contains("0...999") == true)
        let relative = HTTPTypes.HTTPRequest(method: .get, scheme: nil, authority: nil, path: "/only/a/path")
        let missing = #expect(throws: HTTPTypesConversionError.self) { try JewzHTTPCore.HTTPRequest(relative) }
        #expect(missing?.code == .missingURL)
    }
}
