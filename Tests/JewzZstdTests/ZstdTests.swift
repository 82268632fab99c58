import JewzHTTPCore
import JewzSandbox
import JewzTestSupport
import JewzZstd
import Testing

/// `zstd` responses from the Sandbox (encoded by libzstd), decoded as they arrive.
@Suite struct ZstdTests {
    let checks = ContentCodingChecks(coding: "zstd") { HTTPZstdDecoder(limits: $0) }

    @Test func aBodyIsDecodedAndZstdIsAdvertised() async throws { try await checks.decodesAndIsAdvertised() }

    // Frames may follow one another in zstd: bytes after the last are read as a frame, and
    // garbage is no frame.
    @Test(arguments: [("truncate=1", ContentDecodingError.Code.truncated), ("garbage=1", .corrupt)])
    func damagedBodiesAreTypedErrors(_ damage: String, _ code: ContentDecodingError.Code) async throws {
        try await checks.damagedBodyFails(damage, with: code)
    }

    @Test func aBombStopsAtTheRatioAndASizeLimitHolds() async throws { try await checks.limitsHold() }

    @Test func anySplitDecodesAlike() async throws { try await checks.anySplitDecodesAlike() }

    /// RFC 9659: a client may refuse a window past 8 MiB, and this one does, so one response
    /// cannot make it hold more.
    @Test func aWindowPast8MiBIsRefused() async throws {
        var codings = ContentCodingRegistry()
        codings.register(HTTPZstdDecoder(), for: HTTPZstdDecoder.codings)
        try await withSandbox(contentCodings: codings) { sandbox, session in
            let url = sandbox.url("/encoded?coding=zstd&content=abcdefghijklmnopqrstu&repeat=1000000&zstd-window=24")
            let error = await httpError { try await HTTPCycle.get(url, session: session) }
            let underlying = error?.underlying as? ContentDecodingError
            #expect(underlying?.code == .corrupt, "\(String(describing: error))")
            #expect(underlying?.detail.contains("memory") == true, "\(String(describing: underlying))")
            let fits = try await HTTPCycle.get(sandbox.url("/encoded?coding=zstd&content=ab&repeat=1000&zstd-window=23"), session: session)
            #expect(fits.data.count == 2000)
        }
    }

    /// Where libzstd cannot be loaded, `zstd` is not advertised, and a zstd body a server sends
    /// anyway fails with an error that names the library and what to install.
    @Test func withoutLibzstdZstdIsNotAdvertisedAndABodyFailsNamingTheLibrary() async throws {
        let missing = HTTPZstdDecoder(libraryName: "libzstd-not-installed.so.1")
        #expect(!missing.isAvailable)
        #expect(missing.unavailableReason?.contains("libzstd-not-installed.so.1") == true)
        #expect(HTTPZstdDecoder().isAvailable, "the system's \(HTTPZstdDecoder.defaultLibraryName) should load here")
        var codings = ContentCodingRegistry()
        codings.register(missing, for: HTTPZstdDecoder.codings)
        #expect(codings.tokens.isEmpty)
        try await withSandbox(contentCodings: codings) { sandbox, session in
            let inspected = try await HTTPCycle.get(sandbox.url("/inspect"), session: session)
            #expect(try Inspection(inspected).values("Accept-Encoding") == [])
            let error = await httpError { try await HTTPCycle.get(sandbox.url("/encoded?coding=zstd&content=ab&repeat=100"), session: session) }
            #expect(error?.code == .contentDecoding, "\(String(describing: error))")
            let underlying = error?.underlying as? ContentDecodingError
            #expect(underlying?.code == .unavailable, "\(String(describing: underlying))")
            #expect(underlying?.description.contains("libzstd-not-installed.so.1") == true)
            #expect(underlying?.description.contains("libzstd1") == true)
        }
    }
}
