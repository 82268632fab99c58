import Foundation

/// HTTP-date parsing and writing (RFC 9110 §5.6.7): IMF-fixdate, and when reading the obsolete
/// RFC 850 and asctime forms — to the letter (``parseStrictly(_:ignoringCase:)``, what a cache reads), or with
/// the variants cookies use (``parse(_:)``, RFC 6265 §5.1.1's algorithm).
///
/// Written by hand rather than with `DateFormatter`: every response brings dates, and
/// swift-corelibs-foundation's formatter traps on some non-ASCII input (found by
/// `Tools/Fuzz`'s HeaderFuzzer: `" \u{0320}/"` in an `Expires` field ended the process).
public enum HTTPDate {
    private static let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
    private static let weekdays = ["Thu", "Fri", "Sat", "Sun", "Mon", "Tue", "Wed"]

    /// The date `text` names, or `nil` when it is not a date, read as leniently as RFC 6265
    /// §5.1.1 reads a cookie's `Expires`: any order, delimiters and two-digit years.
    public static func parse(_ text: String) -> Date? {
        parseFixdate(Array(text.utf8)) ?? parseLeniently(text)
    }

    /// The date `text` names when it is one of the three forms RFC 9110 §5.6.7 defines, to the
    /// letter — IMF-fixdate (`Sun, 06 Nov 1994 08:49:37 GMT`), RFC 850 (`Sunday, 06-Nov-94
    /// 08:49:37 GMT`) or asctime (`Sun Nov  6 08:49:37 1994`) —, else `nil`. What a cache reads
    /// `Expires`, `Date` and `Last-Modified` with: RFC 9111 §5.3 counts an `Expires` that is not
    /// such a date (a missing comma, a two-digit year in the first form, a zone other than GMT,
    /// two fields joined) as already expired.
    ///
    /// - Parameters:
    ///   - text: a header field's value.
    ///   - ignoringCase: read the day and month names and `GMT` in any case
    ///     (`thu, 01 jan 2099 00:00:00 gmt`), the latitude RFC 9111 §5.3 leaves a cache reading
    ///     `Expires`; the forms stay exact.
    public static func parseStrictly(_ text: String, ignoringCase: Bool = false) -> Date? {
        var bytes = Array(text.utf8)
        if ignoringCase { bytes = canonicalCase(bytes) }
        return parseFixdate(bytes) ?? parseRFC850(bytes) ?? parseAsctime(bytes)
    }

    /// `bytes` with each run of letters that names a day, a month or `GMT` in another case
    /// written as the forms write it.
    private static func canonicalCase(_ bytes: [UInt8]) -> [UInt8] {
        var result = bytes
        var start: Int?
        for index in 0...bytes.count {
            let isLetter = index < bytes.count && (bytes[index] | 0x20) >= UInt8(ascii: "a") && (bytes[index] | 0x20) <= UInt8(ascii: "z")
            if isLetter {
                if start == nil { start = index }
                continue
            }
            guard let first = start else { continue }
            start = nil
            let word = bytes[first..<index].map(lowercased)
            if let name = caseNames.first(where: { $0.lowered == word }) { result.replaceSubrange(first..<index, with: name.written) }
        }
        return result
    }

    /// The names the forms write, each with its lowercase bytes.
    private static let caseNames = (months + weekdays + longWeekdays + ["GMT"]).map { name in
        (written: Array(name.utf8), lowered: Array(name.lowercased().utf8))
    }

    /// `Sunday, 06-Nov-94 08:49:37 GMT`: a two-digit year is the latest year ending in those
    /// digits that is not more than 50 years ahead (RFC 9110 §5.6.7).
    private static func parseRFC850(_ bytes: [UInt8]) -> Date? {
        guard let comma = bytes.firstIndex(of: UInt8(ascii: ",")),
            longWeekdays.contains(String(decoding: bytes[..<comma], as: UTF8.self)), bytes.count == comma + 24
        else { return nil }
        let rest = Array(bytes[(comma + 1)...])
        // " 06-Nov-94 08:49:37 GMT"
        guard rest[0] == 0x20, rest[3] == UInt8(ascii: "-"), rest[7] == UInt8(ascii: "-"), rest[10] == 0x20,
            rest[19...] == Array(" GMT".utf8)[...], let day = digits(rest, 1..<3), let twoDigitYear = digits(rest, 8..<10),
            let month = months.firstIndex(of: String(decoding: rest[4..<7], as: UTF8.self)), let time = clock(rest, from: 11)
        else { return nil }
        let thisYear = civilDate(fromDays: Int(Date().timeIntervalSince1970 / 86_400)).year
        var year = thisYear - thisYear % 100 + twoDigitYear
        if year > thisYear + 50 { year -= 100 }
        return date(year: year, month: month + 1, day: day, time: time)
    }

    /// `Sun Nov  6 08:49:37 1994`: the day of month is two digits, or a space and one.
    private static func parseAsctime(_ bytes: [UInt8]) -> Date? {
        guard bytes.count == 24, weekdays.contains(String(decoding: bytes[0..<3], as: UTF8.self)), bytes[3] == 0x20,
            bytes[7] == 0x20, bytes[10] == 0x20, bytes[19] == 0x20,
            let month = months.firstIndex(of: String(decoding: bytes[4..<7], as: UTF8.self)),
            let day = bytes[8] == 0x20 ? digits(bytes, 9..<10) : digits(bytes, 8..<10),
            let time = clock(bytes, from: 11), let year = digits(bytes, 20..<24)
        else { return nil }
        return date(year: year, month: month + 1, day: day, time: time)
    }

    private static let longWeekdays = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"]

    /// The number the decimal digits at `range` write, or `nil` when one is not a digit.
    private static func digits(_ bytes: [UInt8], _ range: Range<Int>) -> Int? {
        var value = 0
        for byte in bytes[range] {
            guard isDigit(byte) else { return nil }
            value = value * 10 + Int(byte - 0x30)
        }
        return value
    }

    /// `HH:MM:SS` at `start`, two digits each.
    private static func clock(_ bytes: [UInt8], from start: Int) -> (Int, Int, Int)? {
        guard bytes.count >= start + 8, bytes[start + 2] == UInt8(ascii: ":"), bytes[start + 5] == UInt8(ascii: ":"),
            let hour = digits(bytes, start..<start + 2), let minute = digits(bytes, start + 3..<start + 5),
            let second = digits(bytes, start + 6..<start + 8), hour < 24, minute < 60, second < 61
        else { return nil }
        return (hour, minute, second)
    }

    /// The instant of a calendar date and time, or `nil` for a day the month does not have.
    private static func date(year: Int, month: Int, day: Int, time: (Int, Int, Int)) -> Date? {
        let days = daysFromCivil(year: year, month: month, day: day)
        guard (1...31).contains(day), civilDate(fromDays: days) == (year, month, day) else { return nil }
        return Date(timeIntervalSince1970: TimeInterval(days * 86_400 + time.0 * 3600 + time.1 * 60 + time.2))
    }

    /// `date` as an IMF-fixdate (`Sun, 06 Nov 1994 08:49:37 GMT`), to the second.
    public static func string(from date: Date) -> String {
        let seconds = Int(date.timeIntervalSince1970.rounded(.down))
        let days = seconds >= 0 ? seconds / 86_400 : (seconds - 86_399) / 86_400
        let time = seconds - days * 86_400
        let (year, month, day) = civilDate(fromDays: days)
        let weekday = weekdays[((days % 7) + 7) % 7]
        func two(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }
        // IMF-fixdate's year is four digits: year 994 is "0994", or it would not read back.
        let fourDigitYear = String(repeating: "0", count: max(0, 4 - String(year).count)) + String(year)
        return "\(weekday), \(two(day)) \(months[month - 1]) \(fourDigitYear) \(two(time / 3600)):\(two(time / 60 % 60)):\(two(time % 60)) GMT"
    }

    /// IMF-fixdate, `Sun, 06 Nov 1994 08:49:37 GMT`, read without a formatter: every response
    /// of a cache carries one or more, and a `DateFormatter` per field costs tens of microseconds.
    private static func parseFixdate(_ bytes: [UInt8]) -> Date? {
        guard bytes.count == 29, weekdays.contains(String(decoding: bytes[0..<3], as: UTF8.self)), bytes[3] == UInt8(ascii: ","),
            bytes[4] == 0x20, bytes[7] == 0x20, bytes[11] == 0x20, bytes[16] == 0x20, bytes[25...] == Array(" GMT".utf8)[...],
            let day = digits(bytes, 5..<7), let month = months.firstIndex(of: String(decoding: bytes[8..<11], as: UTF8.self)),
            let year = digits(bytes, 12..<16), let time = clock(bytes, from: 17)
        else { return nil }
        return date(year: year, month: month + 1, day: day, time: time)
    }

    /// RFC 6265 §5.1.1: the first time (`h:m:s`), day of month, month name and year among the
    /// tokens, whatever the delimiters and order; covers RFC 850 and asctime dates too. Two-digit
    /// years are 1970–2069.
    private static func parseLeniently(_ text: String) -> Date? {
        guard text.utf8.count <= 256 else { return nil }
        var time: (Int, Int, Int)?
        var day: Int?
        var month: Int?
        var year: Int?
        for token in text.utf8.split(whereSeparator: isDelimiter) {
            let token = Array(token)
            if time == nil, let value = timeOfDay(token) {
                time = value
            } else if day == nil, let value = leadingNumber(token, digits: 1...2) {
                day = value
            } else if month == nil, token.count >= 3,
                let index = months.firstIndex(where: { Array($0.lowercased().utf8) == token[0..<3].map(lowercased) })
            {
                month = index + 1
            } else if year == nil, let value = leadingNumber(token, digits: 2...4) {
                year = value
            }
        }
        guard let (hour, minute, second) = time, let day, let month, var year else { return nil }
        if (70...99).contains(year) { year += 1900 } else if (0...69).contains(year) { year += 2000 }
        guard (1...31).contains(day), year >= 1601, hour <= 23, minute <= 59, second <= 59 else { return nil }
        let days = daysFromCivil(year: year, month: month, day: day)
        // February 30th and the like name no day.
        guard civilDate(fromDays: days) == (year, month, day) else { return nil }
        return Date(timeIntervalSince1970: TimeInterval(days * 86_400 + hour * 3600 + minute * 60 + second))
    }

    private static func isDelimiter(_ byte: UInt8) -> Bool {
        byte == 0x09 || (0x20...0x2F).contains(byte) || (0x3B...0x40).contains(byte) || (0x5B...0x60).contains(byte)
            || (0x7B...0x7E).contains(byte)
    }

    private static func lowercased(_ byte: UInt8) -> UInt8 {
        (0x41...0x5A).contains(byte) ? byte + 0x20 : byte
    }

    private static func isDigit(_ byte: UInt8) -> Bool { (0x30...0x39).contains(byte) }

    /// The number a token starts with, when it has `digits` of them and no digit follows.
    private static func leadingNumber(_ token: [UInt8], digits: ClosedRange<Int>) -> Int? {
        let count = token.prefix(while: isDigit).count
        guard digits.contains(count) else { return nil }
        return token.prefix(count).reduce(0) { $0 * 10 + Int($1 - 0x30) }
    }

    /// `1*2DIGIT ":" 1*2DIGIT ":" 1*2DIGIT`, then anything not a digit.
    private static func timeOfDay(_ token: [UInt8]) -> (Int, Int, Int)? {
        var fields: [Int] = []
        var index = 0
        for part in 0..<3 {
            let digits = token[index...].prefix(while: isDigit)
            guard (1...2).contains(digits.count) else { return nil }
            fields.append(digits.reduce(0) { $0 * 10 + Int($1 - 0x30) })
            index += digits.count
            if part < 2 {
                guard index < token.count, token[index] == UInt8(ascii: ":") else { return nil }
                index += 1
            }
        }
        return (fields[0], fields[1], fields[2])
    }

    /// Days since 1970-01-01 of a proleptic Gregorian date (Howard Hinnant's algorithm).
    private static func daysFromCivil(year: Int, month: Int, day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    private static func civilDate(fromDays days: Int) -> (year: Int, month: Int, day: Int) {
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let mp = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * mp + 2) / 5 + 1
        let month = mp < 10 ? mp + 3 : mp - 9
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }
}
