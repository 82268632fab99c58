import Foundation
import JewzForm
import JewzHTTPCore
import JewzSandbox
import JewzTestSupport
import Testing

@Suite struct FormTests {
    @Test func encodesWithWHATWGRulesAndDecodesBack() throws {
        let fields: FormFields = ["q": "swift nio & more", "emoji": "😀", "reserved": "a/b?c=d+e*f~", "empty": "", "tag": ["a", "b"]]
        let body = fields.encoded()
        #expect(body == "q=swift+nio+%26+more&emoji=%F0%9F%98%80&reserved=a%2Fb%3Fc%3Dd%2Be*f%7E&empty=&tag=a&tag=b")
        let decoded = try FormFields(decoding: body)
        #expect(decoded == fields)
        #expect(decoded.values(for: "tag") == ["a", "b"])
        #expect(decoded["q"] == "swift nio & more")
    }

    @Test func theQueryVariantMatchesHTTPCoresQueryMerging() {
        let fields: FormFields = ["q": "a b", "x": "é/~"]
        #expect(fields.encoded(.query) == "q=a%20b&x=%C3%A9%2F~")
        #expect("http://h/".mergingQueryParameters(["q": "a b", "x": "é/~"]) == "http://h/?" + fields.encoded(.query))
    }

    @Test func nestedValuesUseBracketsAndListStylesDiffer() {
        let value: FormValue = ["user": ["name": "Ada", "langs": ["en", "fr"]], "ok": true]
        #expect(FormFields(value).encoded() == "user%5Bname%5D=Ada&user%5Blangs%5D=en&user%5Blangs%5D=fr&ok=true")
        #expect(FormFields(value, listStyle: .brackets).fields.map(\.name) == ["user[name]", "user[langs][]", "user[langs][]", "ok"])
        #expect(FormFields(value, listStyle: .indexed).fields.map(\.name) == ["user[name]", "user[langs][0]", "user[langs][1]", "ok"])
    }

    @Test func decodingIsLenientAboutShapeAndStrictAboutEncoding() throws {
        #expect(try FormFields(decoding: "a&&b=1&=x&c=").fields.map(\.name) == ["a", "b", "", "c"])
        #expect(throws: FormError.invalidEncoding(field: "b", offset: 4)) { try FormFields(decoding: "a=1&b=%zz") }
        #expect(throws: FormError.invalidEncoding(field: "c", offset: 0)) { try FormFields(decoding: "c=%FF") }
    }

    @Test func roundTripThroughTheServerIsParsedByTheRegistry() async throws {
        var registry = ProcessorRegistry()
        try registry.register(HTTPFormProcessor(), for: HTTPFormProcessor.mediaTypePatterns)
        try await withSandbox(registry: registry) { sandbox, session in
            let sent: FormFields = ["name": "Zoë O'Brien", "tag": ["x", "x"], "blank": ""]
            let response = try await HTTPCycle.post(
                sandbox.url("/dumpupload/"), requestObject: sent, options: .init(requestProcessors: [HTTPFormProcessor()]), session: session)
            #expect(response.headers["Content-Type"] == "application/x-www-form-urlencoded")
            #expect(response.form == sent)

            let broken = try HTTPCycle(
                sandbox.url("/echo/"), method: .get,
                parameters: ["content": "a=%E2%82", "header": "Content-Type: application/x-www-form-urlencoded"], session: session)
            do {
                try await broken.start()
                Issue.record("a broken form parsed")
            } catch let error as HTTPError where error.code == .processor {
                #expect(error.description.hasPrefix("HTTPFormProcessor failed"))
                #expect(error.underlying as? FormError == .invalidEncoding(field: "a", offset: 0))
            }
        }
    }

    @Test func dictionariesAreSortedAndOtherObjectsRefused() throws {
        var request = HTTPRequest(url: try #require(URL(string: "http://h/")), object: ["b": "2", "a": "1"])
        try HTTPFormProcessor().prepare(&request)
        #expect(request.data == Data("a=1&b=2".utf8))
        request.object = 42
        let error = #expect(throws: HTTPError.self) { try HTTPFormProcessor().prepare(&request) }
        #expect(error?.code == .unsupportedRequestObject)
        #expect(error?.description.contains("type Int") == true)
    }

    /// #27 defect 6: separators alone once cost ~55× the body in pieces.
    @Test func emptyPiecesAreSkippedWithoutMaterialisingThem() throws {
        let fields = try FormFields(decoding: String(repeating: "&", count: 1 << 20) + "a=1" + String(repeating: "&", count: 1000))
        #expect(fields.fields.map { [$0.name, $0.value] } == [["a", "1"]])
    }
}
