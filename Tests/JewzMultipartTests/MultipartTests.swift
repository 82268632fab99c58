import Foundation
import JewzHTTPCore
import JewzMocking
import JewzMultipart
import JewzSandbox
import JewzTestSupport
import Testing

/// Feeds `data` to a parser in pieces of `size` bytes and collects the parts.
func parse(_ data: Data, boundary: String, pieces size: Int, limits: MultipartLimits = .init()) throws -> [MultipartPart] {
    var parser = try MultipartParser(boundary: boundary, limits: limits)
    var parts: [MultipartPart] = []
    var offset = data.startIndex
    while offset < data.endIndex {
        let end = min(offset + size, data.endIndex)
        for event in try parser.feed(data[offset..<end]) {
            switch event {
            case .partBegan(let headers): parts.append(MultipartPart(headers: headers, body: Data()))
            case .body(let bytes): parts[parts.count - 1].body.append(bytes)
            case .partEnded: break
            }
        }
        offset = end
    }
    try parser.finish()
    return parts
}

func temporaryFile(_ contents: Data, name: String = UUID().uuidString) throws -> URL {
    // The caller removes the directory (`url.deletingLastPathComponent()`).
    let directory = try makeScratchDirectory(prefix: "jewz-multipart")
    let url = directory.appendingPathComponent(name)
    try contents.write(to: url)
    return url
}

@Suite struct MultipartTests {
    static let fileContents = Data((0..<(200 << 10) + 11).map { UInt8(truncatingIfNeeded: $0 &* 37 &+ 5) })

    func sampleForm() throws -> (MultipartFormData, URL) {
        let file = try temporaryFile(Self.fileContents, name: "report.pdf")
        var form = MultipartFormData()
        form.append("Ada Lovelace", name: "author")
        form.append("line one\r\nline two", name: "notes")
        form.append(Data([0, 1, 2, 0x0D, 0x0A, 0x2D, 0x2D]), name: "raw", filename: "raw.bin")
        try form.append(fileAt: file, name: "report")
        form.append(Data("ünïcödé".utf8), name: "greeting", filename: "größe \"quoted\".txt")
        return (form, file)
    }

    @Test(arguments: [1, 7, 1000, 64 << 10, Int.max])
    func aBuiltBodyParsesBackInAnyPieces(size: Int) throws {
        let (form, file) = try sampleForm()
        defer { try? FileManager.default.removeItem(at: file.deletingLastPathComponent()) }
        let encoded = try form.encoded()
        #expect(encoded.count == form.contentLength)
        let parts = try parse(encoded, boundary: form.boundary, pieces: size == Int.max ? encoded.count : size)
        #expect(parts.map(\.name) == ["author", "notes", "raw", "report", "greeting"])
        #expect(parts[0].text == "Ada Lovelace")
        #expect(parts[1].text == "line one\r\nline two")
        #expect(parts[2].body == Data([0, 1, 2, 0x0D, 0x0A, 0x2D, 0x2D]))
        #expect(parts[2].contentType?.essence == "application/octet-stream")
        #expect(parts[3].body == Self.fileContents)
        #expect(parts[3].filename == "report.pdf")
        #expect(parts[3].contentType?.essence == "application/pdf")
        #expect(parts[4].filename == "größe \"quoted\".txt")
        #expect(parts[4].contentType?.essence == "text/plain")
    }

    @Test func nonASCIIFileNamesAreSentInBothForms() throws {
        let (form, file) = try sampleForm()
        defer { try? FileManager.default.removeItem(at: file.deletingLastPathComponent()) }
        let disposition = try #require(form.parts.last?.headers["Content-Disposition"])
        #expect(disposition == "form-data; name=\"greeting\"; filename=\"größe %22quoted%22.txt\"; filename*=UTF-8''gr%C3%B6%C3%9Fe%20%22quoted%22.txt")
    }

    @Test func theBoundaryNeverOccursInAPartInMemory() throws {
        var form = try MultipartFormData(boundary: "fixed")
        form.append("this text contains --fixed inside", name: "a")
        #expect(form.boundary != "fixed")
        #expect(form.contentType == "multipart/form-data; boundary=\(form.boundary)")
        let parts = try MultipartParser.parts(of: try form.encoded(), boundary: form.boundary)
        #expect(parts.first?.text == "this text contains --fixed inside")
        #expect(throws: MultipartError.invalidBoundary("bad boundary ")) { try MultipartFormData(boundary: "bad boundary ") }
        #expect(MultipartFormData().boundary != MultipartFormData().boundary)
    }

    @Test func anUploadIsStreamedWithItsLengthAndProgress() async throws {
        let (form, file) = try sampleForm()
        defer { try? FileManager.default.removeItem(at: file.deletingLastPathComponent()) }
        let progress = ProgressLog()
        try await withSandbox { sandbox, session in
            let cycle = try HTTPCycle(sandbox.url("/dumpupload/"), method: .post, session: session)
            cycle.request.setBody(form)
            cycle.options.didSendBodyData = { bytes, total, expected in progress.record(bytes, total, expected) }
            let response = try await cycle.start()
            #expect(response.data == (try form.encoded()))
            let inspected = try HTTPCycle(sandbox.url("/inspect"), method: .post, session: session)
            inspected.request.setBody(form)
            try await inspected.start()
            let inspection = try Inspection(inspected.response)
            #expect(inspection.values("Content-Length") == ["\(form.contentLength)"])
            #expect(inspection.values("Transfer-Encoding").isEmpty)
        }
        #expect(progress.isConsistent())
        #expect(progress.all.last?.total == Int64(form.contentLength))
        #expect(progress.all.last?.expected == Int64(form.contentLength))
    }

    @Test func theProcessorReadsMultipartResponses() async throws {
        let body = Data(
            "preamble\r\n--XyZ\r\nContent-Type: text/plain\r\nContent-Range: bytes 0-4/20\r\n\r\nHello\r\n--XyZ  \r\nContent-Type: text/plain\r\nContent-Range: bytes 10-14/20\r\n\r\nWorld\r\n--XyZ--\r\nepilogue".utf8)
        let transport = MockTransport()
        transport.stub(.get, path: "/ranges", status: 206, headers: ["Content-Type": "multipart/byteranges; boundary=XyZ"], body: body)
        var registry = ProcessorRegistry()
        try registry.register(HTTPMultipartProcessor(), for: HTTPMultipartProcessor.mediaTypePatterns)
        let session = HTTPSession(configuration: .init { $0.processorRegistry = registry; $0.customTransport = transport; $0.logger = quietLogger })
        let response = try await HTTPCycle.get("http://example.test/ranges", session: session)
        let multipart = try #require(response.multipart)
        #expect(multipart.subtype == "byteranges")
        #expect(multipart.parts.map(\.text) == ["Hello", "World"])
        #expect(multipart.parts.map { $0.headers["Content-Range"] } == ["bytes 0-4/20", "bytes 10-14/20"])
    }

    @Test func aFormGoesThroughTheProcessorAsARequestObject() async throws {
        var form = MultipartFormData()
        form.append("1", name: "one")
        try await withSandbox { sandbox, session in
            let response = try await HTTPCycle.post(
                sandbox.url("/dumpupload/"), requestObject: form, options: .init(requestProcessors: [HTTPMultipartProcessor()], responseProcessors: [HTTPMultipartProcessor()]), session: session)
            #expect(response.multipart?["one"]?.text == "1")
        }
    }

    @Test(arguments: [
        ("text/plain", MultipartError.missingBoundary(contentType: "text/plain")),
        ("multipart/mixed", MultipartError.missingBoundary(contentType: "multipart/mixed")),
    ])
    func aContentTypeWithoutBoundaryIsAClearError(contentType: String, expected: MultipartError) {
        #expect(throws: expected) { try MultipartParser(contentType: contentType) }
    }

    @Test(arguments: [
        ("no boundary here at all", MultipartError.noOpeningBoundary),
        ("--b\r\nA: 1\r\n\r\nbody never closed", MultipartError.truncated(partIndex: 0)),
        ("--b\r\n\r\none\r\n--b\r\nX: y\r\n\r\ntwo\r\n--b", MultipartError.truncated(partIndex: 1)),
        ("--b\r\nnot a header\r\n\r\nx\r\n--b--", MultipartError.malformedHeader(partIndex: 0, line: "not a header")),
        ("--b\r\nBad Name: v\r\n\r\nx\r\n--b--", MultipartError.malformedHeader(partIndex: 0, line: "Bad Name: v")),
        ("--bX\r\n\r\nx\r\n--b--", MultipartError.malformedBoundaryLine(partIndex: 0)),
    ])
    func malformedBodiesGiveClearErrors(body: String, expected: MultipartError) {
        for size in [1, 3, 1000] {
            #expect(throws: expected) { try parse(Data(body.utf8), boundary: "b", pieces: size) }
        }
    }

    @Test func headersAndPartCountsAreBounded() {
        var limits = MultipartLimits()
        limits.maximumHeaderBytes = 100
        let longHeader = "--b\r\nX: " + String(repeating: "a", count: 10_000) + "\r\n\r\nx\r\n--b--"
        #expect(throws: MultipartError.headersTooLarge(partIndex: 0, limit: 100)) {
            try parse(Data(longHeader.utf8), boundary: "b", pieces: 64, limits: limits)
        }
        limits = MultipartLimits()
        limits.maximumParts = 3
        let many = String(repeating: "--b\r\n\r\nx\r\n", count: 5) + "--b--"
        #expect(throws: MultipartError.tooManyParts(limit: 3)) { try parse(Data(many.utf8), boundary: "b", pieces: 10, limits: limits) }
    }

    /// #27 defect 5: 9,000 parts and a 20 MiB part took 22 s of CPU when every step removed
    /// the consumed bytes from the front of the buffer.
    @Test func parsingIsLinearInTheBody() throws {
        var body = Data(String(repeating: "--b\r\n\r\nx\r\n", count: 9000).utf8)
        body.append(Data("--b\r\n\r\n".utf8))
        body.append(Data(repeating: UInt8(ascii: "y"), count: 20 << 20))
        body.append(Data("\r\n--b--".utf8))
        var parts: [MultipartPart] = []
        // The thread's CPU time, not the wall clock: a loaded machine's waiting does not count.
        let spent = try threadCPUTime { parts = try parse(body, boundary: "b", pieces: 1 << 20) }
        #expect(parts.count == 9001)
        #expect(parts.last?.body.count == 20 << 20)
        // Linear parsing takes well under a second even in a debug build; quadratic took 22 s.
        #expect(spent < .seconds(8), "took \(spent) of CPU")
    }

    @Test func mangledBodiesNeverCrash() throws {
        var small = MultipartFormData()
        small.append("value", name: "a")
        small.append(Data([1, 2, 3]), name: "b", filename: "b.bin")
        let valid = try small.encoded()
        var generator = SeededGenerator()
        var outcomes = (parsed: 0, refused: 0)
        for _ in 0..<3000 {
            var mangled = valid
            for _ in 0..<Int.random(in: 1...4, using: &generator) {
                let index = Int.random(in: 0..<mangled.count, using: &generator)
                switch Int.random(in: 0..<3, using: &generator) {
                case 0: mangled[index] = UInt8.random(in: 0...255, using: &generator)
                case 1: mangled.remove(at: index)
                default: mangled = mangled.prefix(index)
                }
                if mangled.isEmpty { break }
            }
            do {
                _ = try parse(mangled, boundary: small.boundary, pieces: Int.random(in: 1...64, using: &generator))
                outcomes.parsed += 1
            } catch is MultipartError {
                outcomes.refused += 1
            } catch {
                Issue.record("\(error) is no MultipartError, \(generator)")
            }
        }
        #expect(outcomes.parsed + outcomes.refused == 3000, "\(generator)")
        #expect(outcomes.refused > 0, "\(generator)")
    }

    @Test func fileTypesAreGuessedFromTheExtension() throws {
        let file = try temporaryFile(Data("x".utf8), name: "photo.JPG")
        defer { try? FileManager.default.removeItem(at: file.deletingLastPathComponent()) }
        var form = MultipartFormData()
        try form.append(fileAt: file, name: "photo")
        try form.append(fileAt: file, name: "other", filename: "data.unknownext")
        try form.append(fileAt: file, name: "given", contentType: "image/x-custom")
        #expect(form.parts.map { $0.headers["Content-Type"] } == ["image/jpeg", "application/octet-stream", "image/x-custom"])
        #expect(throws: MultipartError.unreadableFile(path: "/nonexistent/jewz")) {
            try form.append(fileAt: URL(fileURLWithPath: "/nonexistent/jewz"), name: "missing")
        }
    }
}
