import AsyncHTTPClient
import Foundation
import NIOHTTP1
import Testing

@testable import JewzHTTPCore

@Suite struct ClientRequestMemoTests {
    /// What AsyncHTTPClient's own initializer makes, field by field.
    private func expectMade(
        _ request: HTTPClient.Request, like url: URL, _ method: NIOHTTP1.HTTPMethod, headers: HTTPHeaders, bodyLength: Int?,
        hasTLSConfiguration: Bool = false, sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        let fresh = try HTTPClient.Request(url: url, method: method, headers: headers)
        #expect(request.url == url, sourceLocation: sourceLocation)
        #expect(request.method == method, sourceLocation: sourceLocation)
        #expect(request.headers == headers, sourceLocation: sourceLocation)
        #expect(request.body?.contentLength == bodyLength.map(Int64.init), sourceLocation: sourceLocation)
        #expect((request.tlsConfiguration != nil) == hasTLSConfiguration, sourceLocation: sourceLocation)
        #expect(
            [request.scheme, request.host, "\(request.port)", "\(request.useTLS)"]
                == [fresh.scheme, fresh.host, "\(fresh.port)", "\(fresh.useTLS)"], sourceLocation: sourceLocation)
    }

    @Test func aRequestAgainToTheSameURLCarriesOnlyItsOwnHeadersBodyAndTLSConfiguration() throws {
        let recent = ClientRequestMemo()
        let url = try #require(URL(string: "https://api.example.test:8443/v1/items?page=2"))
        let first = try recent.request(
            url: url, method: .POST, headers: ["X-First": "1"], body: .bytes(Data("hello".utf8)),
            tlsConfiguration: .makeClientConfiguration())
        try expectMade(first, like: url, .POST, headers: ["X-First": "1"], bodyLength: 5, hasTLSConfiguration: true)
        let second = try recent.request(url: url, method: .POST, headers: ["X-Second": "2"], body: nil, tlsConfiguration: nil)
        try expectMade(second, like: url, .POST, headers: ["X-Second": "2"], bodyLength: nil)
        // The first is a value: the second's making changed nothing of it.
        try expectMade(first, like: url, .POST, headers: ["X-First": "1"], bodyLength: 5, hasTLSConfiguration: true)
    }

    @Test func anotherMethodOrURLIsMadeAfresh() throws {
        let recent = ClientRequestMemo()
        let items = try #require(URL(string: "http://example.test/items"))
        let users = try #require(URL(string: "http://example.test:8080/users/%C3%A9"))
        for (url, method) in [(items, NIOHTTP1.HTTPMethod.GET), (items, .DELETE), (users, .DELETE), (items, .DELETE), (items, .GET)] {
            let request = try recent.request(url: url, method: method, headers: [:], body: nil, tlsConfiguration: nil)
            try expectMade(request, like: url, method, headers: [:], bodyLength: nil)
        }
    }

    @Test func aURLAsyncHTTPClientCannotSendThrowsEveryTime() throws {
        let recent = ClientRequestMemo()
        let unsendable = try #require(URL(string: "ftp://example.test/file"))
        for _ in 0..<2 {
            #expect(throws: HTTPClientError.self) {
                try recent.request(url: unsendable, method: .GET, headers: [:], body: nil, tlsConfiguration: nil)
            }
        }
    }
}
