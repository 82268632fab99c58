import Foundation
import JewzHTTPCore
import Testing

@Suite struct TextDecodingTests {
    private func response(_ bytes: [UInt8], contentType: String?) -> HTTPResponse {
        var headers = HTTPHeaderFields()
        if let contentType { headers["Content-Type"] = contentType }
        return HTTPResponse(statusCode: 200, headers: headers, body: HTTPResponseBody(Data(bytes)))
    }

    @Test func charsetFromTheHeaderWins() {
        #expect(response([0xE9], contentType: "text/plain; charset=ISO-8859-1").text == "é")
        #expect(response([0xC3, 0xA9], contentType: "application/json; charset=utf-8").text == "é")
        #expect(response([0x80], contentType: "text/plain; charset=windows-1252").text == "€")
        #expect(response([0xE9], contentType: "text/plain; charset=utf-8").text == nil)
    }

    @Test func textTypesWithoutCharsetAreISO88591() {
        #expect(response([0xC3, 0xA9], contentType: "text/html").text == "Ã©")
    }

    @Test func otherTypesAreDetectedFromBOMThenUTF8() {
        #expect(response([0xFF, 0xFE, 0x68, 0x00, 0x69, 0x00], contentType: "application/octet-stream").text == "hi")
        #expect(response([0xFE, 0xFF, 0x00, 0x68], contentType: nil).text == "h")
        #expect(response([0xEF, 0xBB, 0xBF, 0x6F, 0x6B], contentType: nil).text == "ok")
        #expect(response([0xC3, 0xA9], contentType: "application/json").text == "é")
        #expect(response([0xFF, 0x00, 0xC3], contentType: "application/octet-stream").text == nil)
    }

    @Test func textReadEncodingOverridesEverything() {
        var latin = response([0xC3, 0xA9], contentType: "application/json; charset=utf-8")
        latin.textReadEncoding = .isoLatin1
        #expect(latin.text == "Ã©")
    }

    @Test func unknownCharsetFallsBackToDetection() {
        #expect(response([0xC3, 0xA9], contentType: "application/xml; charset=x-klingon").text == "é")
    }
}
