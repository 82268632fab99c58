import Foundation
import JewzGzip
import Testing

@Suite struct GzipTests {
    let text = Data(String(repeating: "Jewzruxin streams gzip — ünïcödé. ", count: 2000).utf8)

    @Test(arguments: [GzipDecompressor.Format.gzip, .zlib, .rawDeflate])
    func roundTripsEveryFormatAndDetectsIt(_ format: GzipDecompressor.Format) throws {
        let packed = try Gzip.compress(text, level: 9, format: format)
        #expect(packed.count < text.count / 10)
        #expect(try Gzip.decompress(packed) == text)
    }

    @Test func decodesFedOneByteAtATime() throws {
        let packed = try Gzip.compress(text)
        let decompressor = GzipDecompressor()
        var output = Data()
        for byte in packed {
            try withUnsafeBytes(of: byte) { try decompressor.decode($0, into: &output) }
        }
        try decompressor.finish(into: &output)
        #expect(output == text)
    }

    @Test func truncatedStreamsAreErrorsNotShortData() throws {
        let packed = try Gzip.compress(text)
        #expect(throws: GzipError.truncated) { try Gzip.decompress(packed.dropLast(4)) }
        #expect(throws: GzipError.truncated) { try Gzip.decompress(packed.prefix(packed.count / 2)) }
        #expect(throws: GzipError.truncated) { try Gzip.decompress(packed.prefix(1)) }
    }

    @Test func corruptCRCAndLengthAreCaught() throws {
        var packed = try Gzip.compress(text)
        packed[packed.count - 6] ^= 0xFF  // inside the CRC32
        #expect(throws: GzipError.corrupt("incorrect data check")) { try Gzip.decompress(packed) }
        var wrongLength = try Gzip.compress(text)
        wrongLength[wrongLength.count - 1] ^= 0x01  // ISIZE
        #expect(throws: GzipError.corrupt("incorrect length check")) { try Gzip.decompress(wrongLength) }
        #expect(throws: GzipError.self) { try Gzip.decompress(Data([0x1F, 0x8B, 0x08, 0x00, 0xFF, 0xFF])) }
    }

    @Test func trailingGarbageIsAnErrorButConcatenatedMembersAreNot() throws {
        let first = try Gzip.compress(Data("one ".utf8))
        let second = try Gzip.compress(Data("two".utf8))
        #expect(try Gzip.decompress(first + second) == Data("one two".utf8))
        #expect(throws: GzipError.trailingData) { try Gzip.decompress(first + Data("garbage".utf8)) }
        #expect(throws: GzipError.trailingData) { try Gzip.decompress(try Gzip.compress(text, format: .zlib) + Data([0])) }
    }

    @Test func limitsStopBombsEarly() throws {
        let zeros = try Gzip.compress(Data(count: 64 << 20), level: 9)
        #expect(zeros.count < 100_000)
        #expect(throws: GzipError.expansionRatioExceeded(limit: 200)) { try Gzip.decompress(zeros) }
        #expect(throws: GzipError.sizeLimitExceeded(limit: 1000)) {
            try Gzip.decompress(try Gzip.compress(text), limits: GzipLimits(maximumDecodedSize: 1000))
        }
        #expect(try Gzip.decompress(zeros, limits: .none).count == 64 << 20)
    }

    @Test func emptyInputDecodesToNothing() throws {
        #expect(try Gzip.decompress(Data()).isEmpty)
        #expect(try Gzip.decompress(try Gzip.compress(Data())).isEmpty)
    }
}
