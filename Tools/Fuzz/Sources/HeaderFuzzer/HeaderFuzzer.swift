import Foundation
import FuzzDriver
import JewzCache
import JewzCookies
import JewzHTTPCore

/// Feeds arbitrary bytes, split at 0x00 into fields, to the header parsers a server's bytes
/// reach: media types, HTTP dates (Date, Expires; lenient and strict), Retry-After, Content-Disposition, Set-Cookie,
/// and a cache's reading of Cache-Control, Expires, Age, Date, Last-Modified and Vary. A trap
/// anywhere is a finding; so is a date that does not survive writing and reading back, a
/// negative Retry-After, a suggested file name that could leave its directory or hide, and a
/// cookie jar that keeps a cookie with a control character other than a tab.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    let bytes = UnsafeBufferPointer(start: data, count: count)
    let fields = bytes.split(separator: 0, omittingEmptySubsequences: false).map { String(decoding: $0, as: UTF8.self) }
    for field in fields {
        if let type = MediaType(field), type.type.isEmpty || type.subtype.isEmpty {
            fatalError("empty media type from \(field.debugDescription)")
        }
        if let date = HTTPDate.parse(field), abs(date.timeIntervalSince1970) < 1e11 {
            let written = HTTPDate.string(from: date)
            guard let again = HTTPDate.parse(written), Int(again.timeIntervalSince1970) == Int(date.timeIntervalSince1970.rounded(.down))
            else { fatalError("\(field.debugDescription) → \(written) does not read back") }
        }
        // A date the cache's strict reader takes survives its writing, read strictly again.
        if let strict = HTTPDate.parseStrictly(field), abs(strict.timeIntervalSince1970) < 1e11 {
            let written = HTTPDate.string(from: strict)
            guard let again = HTTPDate.parseStrictly(written), Int(again.timeIntervalSince1970) == Int(strict.timeIntervalSince1970.rounded(.down))
            else { fatalError("\(field.debugDescription) → \(written) does not read back strictly") }
        }
    }
    for field in fields {
        if let disposition = ContentDisposition(field), let name = disposition.safeFilename {
            let unsafe = name.contains("/") || name.contains("\\") || name.hasPrefix(".") || name.utf8.count > 255
                || name.unicodeScalars.contains { $0.value < 0x20 || $0.value == 0x7F }
            if unsafe { fatalError("unsafe file name \(name.debugDescription) from \(field.debugDescription)") }
        }
        if let delay = RetryPolicy.retryAfter(field, now: Date(timeIntervalSince1970: 1_700_000_000)), delay < .zero {
            fatalError("negative Retry-After \(delay) from \(field.debugDescription)")
        }
    }
    let jar = HTTPCookieJar(restoring: [])
    if let url = URL(string: "https://fuzz.example.com/a/b") {
        jar.store(fields, from: url)
        for cookie in jar.all where (cookie.name + cookie.value).unicodeScalars.contains(where: { ($0.value < 0x20 && $0 != "\t") || $0.value == 0x7F }) {
            fatalError("kept a control character from \(fields.debugDescription)")
        }
    }
    var headers = HTTPHeaderFields()
    for (name, value) in zip(["Cache-Control", "Expires", "Age", "Date", "Last-Modified", "Vary", "ETag"], fields) {
        headers.add(value, for: name)
    }
    let entry = CachedResponse(
        key: "GET https://fuzz.example.com/", statusCode: 200, headers: headers, body: Data(), url: nil,
        requestDate: Date(timeIntervalSince1970: 1_700_000_000), responseDate: Date(timeIntervalSince1970: 1_700_000_001),
        varyingFields: [:])
    _ = entry.bodyLength
    return 0
}

/// SwiftPM links an executable's entry point as `<target>_main`; hand control to libFuzzer.
@_cdecl("HeaderFuzzer_main")
public func fuzzerMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    runFuzzer(argc, argv) { data, count in fuzz(data, count) }
}
