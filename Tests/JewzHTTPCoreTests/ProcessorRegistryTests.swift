import Foundation
import JewzHTTPCore
import Testing

/// A processor that only says who it is, to see which one the registry picked.
struct TaggingProcessor: HTTPResponseProcessor {
    let tag: String
    func process(_ response: inout HTTPResponse) throws {
        response.object = tag
    }
}

@Suite struct ProcessorRegistryTests {
    private func tag(_ registry: ProcessorRegistry, _ contentType: String) throws -> String? {
        var response = HTTPResponse(statusCode: 200)
        try registry.processor(forContentType: contentType)?.process(&response)
        return response.object as? String
    }

    @Test func theMostSpecificPatternWins() throws {
        var registry = ProcessorRegistry()
        try registry.register(TaggingProcessor(tag: "any"), for: "*/*")
        try registry.register(TaggingProcessor(tag: "application"), for: "application/*")
        try registry.register(TaggingProcessor(tag: "json-suffix"), for: "application/*+json")
        try registry.register(TaggingProcessor(tag: "json"), for: "application/json")
        #expect(try tag(registry, "application/json; charset=utf-8") == "json")
        #expect(try tag(registry, "Application/JSON") == "json")
        #expect(try tag(registry, "application/problem+json") == "json-suffix")
        #expect(try tag(registry, "application/octet-stream") == "application")
        #expect(try tag(registry, "image/png") == "any")
        #expect(try tag(registry, "not a media type") == nil)
    }

    @Test func registeringAgainReplacesAndUnregisterRemoves() throws {
        var registry = ProcessorRegistry()
        try registry.register(TaggingProcessor(tag: "one"), for: "text/csv", "text/tab-separated-values")
        try registry.register(TaggingProcessor(tag: "two"), for: "TEXT/CSV")
        #expect(try tag(registry, "text/csv") == "two")
        #expect(registry.patterns == ["text/csv", "text/tab-separated-values"])
        registry.unregister("text/csv")
        #expect(try tag(registry, "text/csv") == nil)
    }

    @Test func aLookupSeenBeforeFollowsLaterRegistrations() throws {
        // Lookups by Content-Type value are cached; every registration must show through.
        var registry = ProcessorRegistry()
        #expect(try tag(registry, "text/csv; charset=utf-8") == nil)
        try registry.register(TaggingProcessor(tag: "text"), for: "text/*")
        #expect(try tag(registry, "text/csv; charset=utf-8") == "text")
        try registry.register(TaggingProcessor(tag: "csv"), for: "text/csv")
        #expect(try tag(registry, "text/csv; charset=utf-8") == "csv")
        registry.unregister("text/csv")
        #expect(try tag(registry, "text/csv; charset=utf-8") == "text")
        // More distinct values than the cache holds still answer right.
        for index in 0..<200 {
            #expect(try tag(registry, "text/x-\(index)") == "text")
        }
    }

    @Test(arguments: ["json", "*/json", "text/*+", "text/csv; charset=utf-8", "a b/c", "", "te*t/plain", "text/pl*in"])
    func invalidPatternsThrowAndRegisterNothing(_ pattern: String) {
        var registry = ProcessorRegistry()
        let error = #expect(throws: HTTPError.self) {
            try registry.register(TaggingProcessor(tag: "x"), for: "text/plain", pattern)
        }
        #expect(error?.code == .invalidConfiguration)
        #expect(error?.description.contains("'\(pattern)' is not a media-type pattern") == true)
        #expect(registry.patterns.isEmpty)
    }
}
