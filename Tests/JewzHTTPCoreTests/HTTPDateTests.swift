import Foundation
import JewzHTTPCore
import Testing

/// HTTP dates, read in every form servers and cookies use and written as IMF-fixdate.
@Suite struct HTTPDateTests {
    @Test func theThreeFormsAndCookieVariantsReadAlike() throws {
        let date = try #require(HTTPDate.parse("Sun, 06 Nov 1994 08:49:37 GMT"))
        #expect(date.timeIntervalSince1970 == 784_111_777)
        #expect(HTTPDate.parse("Sunday, 06-Nov-94 08:49:37 GMT") == date)
        #expect(HTTPDate.parse("Sun Nov  6 08:49:37 1994") == date)
        #expect(HTTPDate.parse("Sun, 06-Nov-1994 08:49:37 GMT") == date)
        #expect(HTTPDate.parse("6 nov 1994 8:49:37") == date)
        #expect(HTTPDate.string(from: date) == "Sun, 06 Nov 1994 08:49:37 GMT")
        let now = Date(timeIntervalSince1970: 1_795_000_123)
        #expect(HTTPDate.parse(HTTPDate.string(from: now)) == now)
        #expect(HTTPDate.parse("Thu, 01 Jan 1970 00:00:00 GMT")?.timeIntervalSince1970 == 0)
    }

    /// Found by HeaderFuzzer: Foundation's DateFormatter trapped on this `Expires` value.
    @Test func whatIsNoDateIsNilNeverATrap() {
        for text in [" \u{0320}/", "0", "-1", "", "Sun, 30 Feb 2020 00:00:00 GMT", "Sun, 06 Nov 1994 24:00:00 GMT",
                     "Sunday, 06-Nov-1500 08:49:37 GMT", String(repeating: "9", count: 5000), "\u{FFFD}\u{0301}:\u{0301}"] {
            #expect(HTTPDate.parse(text) == nil, "\(text.debugDescription)")
        }
    }

    /// Found by HeaderFuzzer (seeded, 2026-11-25): a fixdate before year 1000 was written with a
    /// three-digit year, which no parser read back.
    @Test func aYearBefore1000IsWrittenWithFourDigits() throws {
        let date = try #require(HTTPDate.parse("Tue, 15 Nov 0994 12:45:26 GMT"))
        let written = HTTPDate.string(from: date)
        #expect(written == "Sat, 15 Nov 0994 12:45:26 GMT")
        #expect(HTTPDate.parse(written) == date)
    }
}
