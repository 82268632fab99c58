import Foundation

/// Splits bytes into lines as they arrive, at LF, CR or CRLF — what both newline-delimited JSON
/// and event streams (WHATWG HTML §9.2.6) end lines with. A CR at the end of one chunk and an LF
/// at the start of the next are one line end. Memory is bounded: a line longer than
/// `maximumLength` bytes is an error, found before it is all read.
package struct LineSplitter: Sendable {
    /// The most bytes one line may hold, its end not counted.
    package let maximumLength: Int
    /// The bytes of the line begun but not ended.
    private var partial = Data()
    /// The last chunk ended with CR: an LF that starts the next one ends nothing.
    private var skipsLeadingLF = false

    package init(maximumLength: Int) {
        self.maximumLength = maximumLength
    }

    /// The lines `chunk` ends, in order, without their line ends.
    ///
    /// - Throws: ``HTTPError/Code/lineTooLong`` when a line passes ``maximumLength``.
    package mutating func lines(endedBy chunk: Data) throws(HTTPError) -> [Data] {
        var lines: [Data] = []
        var start = chunk.startIndex
        if skipsLeadingLF, start < chunk.endIndex {
            if chunk[start] == 0x0A { start += 1 }
            skipsLeadingLF = false
        }
        var index = start
        while let end = chunk[index...].firstIndex(where: { $0 == 0x0A || $0 == 0x0D }) {
            let piece = chunk[start..<end]
            guard partial.count + piece.count <= maximumLength else { throw .lineTooLong(limit: maximumLength) }
            if partial.isEmpty {
                lines.append(Data(piece))
            } else {
                partial.append(piece)
                lines.append(partial)
                partial = Data()
            }
            index = end + 1
            if chunk[end] == 0x0D {
                if index == chunk.endIndex {
                    skipsLeadingLF = true
                } else if chunk[index] == 0x0A {
                    index += 1
                }
            }
            start = index
        }
        let rest = chunk[start...]
        guard partial.count + rest.count <= maximumLength else { throw .lineTooLong(limit: maximumLength) }
        partial.append(rest)
        return lines
    }

    /// The last line, when the input ended without a line end after it; nil when it ended
    /// with one.
    package mutating func finish() -> Data? {
        defer { partial = Data() }
        return partial.isEmpty ? nil : partial
    }
}
