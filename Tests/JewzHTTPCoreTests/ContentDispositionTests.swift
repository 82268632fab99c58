import Foundation
import JewzHTTPCore
import Testing

/// `Content-Disposition` read, and the file names it suggests made safe to use.
@Suite struct ContentDispositionTests {
    @Test func typeParametersAndTheExtendedFilename() throws {
        let disposition = try #require(ContentDisposition(#"Attachment; FILENAME="report \"v2\".pdf"; filename*=UTF-8''r%C3%A9sum%C3%A9.pdf; size=12"#))
        #expect(disposition.type == "attachment")
        #expect(disposition["Filename"] == #"report "v2".pdf"#)
        #expect(disposition["size"] == "12")
        #expect(disposition.filename == "résumé.pdf")
        #expect(ContentDisposition(#"form-data; name="a;b"; filename="x%22y.txt""#)?.filename == #"x"y.txt"#)
        #expect(ContentDisposition("; filename=x") == nil)
        #expect(ContentDisposition("inline")?.filename == nil)
        // Only UTF-8 is read from filename*: the plain one stands in.
        #expect(ContentDisposition("attachment; filename*=ISO-8859-1''caf%E9.txt; filename=cafe.txt")?.filename == "cafe.txt")
    }

    @Test func aSuggestedNameNeverLeavesTheDirectory() {
        let cases: [(String, String?)] = [
            ("../../etc/passwd", "passwd"),
            (#"..\..\Windows\win.ini"#, "win.ini"),
            (".bashrc", "bashrc"),
            ("...", nil),
            ("a/b/", "b"),
            ("line\r\nbreak\u{7F}.txt", "linebreak.txt"),
            ("  spaced.txt  ", "spaced.txt"),
            ("/", nil),
        ]
        for (name, safe) in cases {
            #expect(ContentDisposition.safeFilename(from: name) == safe, "\(name.debugDescription)")
        }
        let long = ContentDisposition.safeFilename(from: String(repeating: "é", count: 200))
        #expect(long.map { $0.utf8.count <= 255 } == true)
    }

    @Test func responsesSuggestTheirDispositionsNameElseTheURLs() throws {
        let url = try #require(URL(string: "https://files.example/downloads/archive.tar.gz?token=1"))
        let named = HTTPResponse(statusCode: 200, headers: ["Content-Disposition": #"attachment; filename="../secret.tgz""#], url: url)
        #expect(named.suggestedFilename == "secret.tgz")
        #expect(HTTPResponse(statusCode: 200, url: url).suggestedFilename == "archive.tar.gz")
        #expect(HTTPResponse(statusCode: 200, url: URL(string: "https://files.example/")).suggestedFilename == nil)
    }
}
