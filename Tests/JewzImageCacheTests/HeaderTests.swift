import Foundation
@testable import JewzImageCache
import JewzSandbox
import JewzTestSupport
import Testing

/// Formats and pixel sizes read from real files' headers, and headers that are cut or lie.
@Suite struct HeaderTests {
    @Test(arguments: SandboxImages.catalog.map(\.name))
    func eachFixtureHasItsFormatAndSize(name: String) throws {
        let entry = try #require(SandboxImages.catalog.first { $0.name == name })
        let image = try Image(data: try #require(SandboxImages.data(named: name)))
        #expect(image.format.name == entry.format)
        #expect(image.pixelSize == PixelSize(width: entry.width, height: entry.height))
    }

    @Test func everyPrefixOfEveryFixtureIsAnImageOrAnError() throws {
        for entry in SandboxImages.catalog {
            let data = try #require(SandboxImages.data(named: entry.name))
            for length in 0..<data.count {
                do {
                    let image = try Image(data: data.prefix(length))
                    // A prefix may hold the whole header: then it reads the same.
                    #expect(image.format.name == entry.format, "\(entry.name) cut at \(length)")
                    if entry.format != "svg" { #expect(image.pixelSize == PixelSize(width: entry.width, height: entry.height)) }
                } catch {
                    // Any ImageError is right; nothing else may come out, and nothing may trap.
                }
            }
        }
    }

    /// Damaged headers give an ``ImageError`` (the only error `Image(data:)` can throw) or an
    /// image whose size, when it has one, is a real one; nothing traps.
    @Test func randomDamageGivesAnErrorOrAPlausibleSize() throws {
        var generator = SeededGenerator()
        for entry in SandboxImages.catalog {
            let original = try #require(SandboxImages.data(named: entry.name))
            for _ in 0..<300 {
                var data = original.prefix(min(original.count, 96))
                for _ in 0..<Int.random(in: 1...6, using: &generator) {
                    let index = data.startIndex + Int.random(in: 0..<data.count, using: &generator)
                    data[index] = UInt8.random(in: 0...255, using: &generator)
                }
                guard let size = (try? Image(data: data))?.pixelSize else { continue }
                #expect(size.width > 0 && size.height > 0, "\(entry.name) read as \(size), \(generator)")
            }
        }
    }

    @Test func lyingHeadersAreInvalid() throws {
        var png = try #require(SandboxImages.data(named: "plain.png"))
        png.replaceSubrange(16..<20, with: [0, 0, 0, 0])
        #expect(throws: ImageError.self) { try Image(data: png) }
        #expect(code(png) == .invalidHeader)
        var jpeg = try #require(SandboxImages.data(named: "baseline.jpg"))
        jpeg.replaceSubrange(4..<6, with: [0, 1])  // APP0's length: 1
        #expect(code(jpeg) == .invalidHeader)
        var tiff = Data([0x49, 0x49, 0x2A, 0x00, 0xFF, 0xFF, 0xFF, 0x7F])
        #expect(code(tiff) == .truncated)
        tiff = Data([0x49, 0x49, 0x2B, 0x00, 8, 0, 0, 0, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF])
        #expect(code(tiff) == .truncated)
        var avif = try #require(SandboxImages.data(named: "plain.avif"))
        let meta = try #require(avif.range(of: Data("meta".utf8)))
        avif.replaceSubrange((meta.lowerBound - 4)..<meta.lowerBound, with: [0x7F, 0xFF, 0xFF, 0xFF])
        #expect(code(avif) == .invalidHeader)
        #expect(code(Data("GIF89a".utf8)) == .truncated)
    }

    @Test func handWrittenHeadersOfTheRarerKinds() throws {
        // A big-endian TIFF with LONG sizes, and a BigTIFF with LONG8 ones.
        var bigEndian = Data([0x4D, 0x4D, 0x00, 0x2A, 0, 0, 0, 8, 0, 2])
        bigEndian += [0x01, 0x00, 0, 4, 0, 0, 0, 1, 0, 0, 0x01, 0x2C]  // width 300
        bigEndian += [0x01, 0x01, 0, 3, 0, 0, 0, 1, 0x00, 0xC8, 0, 0]  // height 200
        #expect(try Image(data: bigEndian).pixelSize == PixelSize(width: 300, height: 200))
        var bigTIFF = Data([0x49, 0x49, 0x2B, 0x00, 8, 0, 0, 0, 16, 0, 0, 0, 0, 0, 0, 0])
        bigTIFF += [2, 0, 0, 0, 0, 0, 0, 0]
        bigTIFF += [0x00, 0x01, 16, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0x40, 0x1F, 0, 0, 0, 0, 0, 0]  // 8000
        bigTIFF += [0x01, 0x01, 16, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0x88, 0x13, 0, 0, 0, 0, 0, 0]  // 5000
        #expect(try Image(data: bigTIFF).pixelSize == PixelSize(width: 8000, height: 5000))
        // A top-down BMP states a negative height.
        var bmp = Image.blank(width: 3, height: 2).data
        bmp.replaceSubrange(22..<26, with: [0xFE, 0xFF, 0xFF, 0xFF])
        #expect(try Image(data: bmp).pixelSize == PixelSize(width: 3, height: 2))
        let svg = Data(#"<!-- x --><svg viewBox="0 0 300.5 150" xmlns="http://www.w3.org/2000/svg"/>"#.utf8)
        #expect(try Image(data: svg).pixelSize == PixelSize(width: 301, height: 150))
        let relative = Data(#"<svg width="100%" height="50%"></svg>"#.utf8)
        #expect(try Image(data: relative).pixelSize == nil)
    }

    /// ImageFuzzer found a trap: a side of -1e70 passed the `< 1e9` check and trapped the
    /// conversion to `Int`. Sizes no `Int` can hold, or not above zero, are no size.
    @Test(arguments: [
        #"<svg height="-01111111111111111111111111111111111111111111111111111111111111111111111" viewBox="0 0 2 -0" width="48">"#,
        #"<svg width="-1e300" height="2">"#, #"<svg width="nan" height="2">"#, #"<svg width="2" height="-inf">"#,
        #"<svg viewBox="0 0 -1e300 5">"#, #"<svg viewBox="0 0 5 1e300">"#, #"<svg viewBox="0 0 0 5">"#,
    ])
    func anSVGSizeNoIntCanHoldIsNoSize(_ text: String) throws {
        #expect(try Image(data: Data(text.utf8)).pixelSize == nil)
    }

    @Test func aHEICSizeIsItsLargestSpatialExtent() throws {
        func box(_ type: String, _ payload: [UInt8]) -> [UInt8] {
            let size = UInt32(8 + payload.count)
            return withUnsafeBytes(of: size.bigEndian, Array.init) + Array(type.utf8) + payload
        }
        func extent(_ width: UInt32, _ height: UInt32) -> [UInt8] {
            box("ispe", [0, 0, 0, 0] + withUnsafeBytes(of: width.bigEndian, Array.init) + withUnsafeBytes(of: height.bigEndian, Array.init))
        }
        let properties = box("iprp", box("ipco", extent(320, 240) + extent(4032, 3024)))
        let heic = box("ftyp", Array("heic".utf8) + [0, 0, 0, 0] + Array("mif1heic".utf8)) + box("meta", [0, 0, 0, 0] + box("hdlr", []) + properties)
        let image = try Image(data: Data(heic))
        #expect(image.format == .heic)
        #expect(image.pixelSize == PixelSize(width: 4032, height: 3024))
        let movie = box("ftyp", Array("isom".utf8) + [0, 0, 0, 0] + Array("mp41".utf8)) + box("moov", [])
        #expect(lookalike(Data(movie))?.hasPrefix("an ISO media file") == true)
    }

    @Test func dataThatIsNoImageSaysWhatItLooksLike() {
        #expect(lookalike("<!DOCTYPE html><html><body>Not found</body></html>") == "an HTML page")
        #expect(lookalike(#"{"error": "no such image"}"#) == "JSON")
        #expect(lookalike("") == "nothing (the body is empty)")
        #expect(lookalike("hello there")?.hasPrefix("text (\"hello there") == true)
        #expect(lookalike("%PDF-1.7") == "a PDF document")
        #expect(lookalike(Data([0x00, 0x01, 0x02, 0xFE])).map { $0.contains("00 01 02 fe") } == true)
        let error = try? Image(data: Data("<html></html>".utf8))
        #expect(error == nil)
    }

    @Test func aBlankImageIsAValidBMP() throws {
        let blank = Image.blank(width: 5, height: 4)
        let read = try Image(data: blank.data)
        #expect(read == blank)
        #expect(read.format == .bmp)
        #expect(read.pixelSize == PixelSize(width: 5, height: 4))
    }

    private func code(_ data: Data) -> ImageError.Code? {
        do {
            _ = try Image(data: data)
            return nil
        } catch {
            return error.code
        }
    }

    private func lookalike(_ text: String) -> String? {
        lookalike(Data(text.utf8))
    }

    private func lookalike(_ data: Data) -> String? {
        do {
            _ = try Image(data: data)
            return nil
        } catch {
            return error.code == .notAnImage ? error.lookalike : nil
        }
    }
}
