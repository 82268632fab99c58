import Foundation

extension HTTPArchive {
    /// The archive in `file`. One whose end was cut off — a recorder's process killed while it
    /// wrote an entry — gives the entries before the cut, when it was written a line an entry
    /// as ``HARRecorder`` writes.
    ///
    /// - Throws: ``HARError/Code/unreadableArchive`` when the file cannot be read or holds no
    ///   archive.
    public init(contentsOf file: URL) throws(HARError) {
        let data: Data
        do {
            data = try Data(contentsOf: file)
        } catch {
            throw HARError(.unreadableArchive, "\(file.path): \(error.localizedDescription)")
        }
        do {
            self = try JSONDecoder().decode(HTTPArchive.self, from: data)
        } catch {
            guard let recovered = Self.recovering(data) else {
                throw HARError(.unreadableArchive, "\(file.path) is not HAR (\(error))")
            }
            self = recovered
        }
    }

    /// The log's head line and the whole entry lines that follow it, as an archive; `nil` when
    /// the first line is no head.
    private static func recovering(_ data: Data) -> HTTPArchive? {
        let lines = data.split(separator: 0x0A, omittingEmptySubsequences: true)
        guard let head = lines.first, var archive = try? JSONDecoder().decode(HTTPArchive.self, from: Data(head) + Data("]}}".utf8)) else {
            return nil
        }
        let decoder = JSONDecoder()
        for line in lines.dropFirst() {
            // An entry line ends with the comma before the next one.
            let text = line.last == UInt8(ascii: ",") ? line.dropLast() : line
            guard let entry = try? decoder.decode(Entry.self, from: Data(text)) else { break }
            archive.log.entries.append(entry)
        }
        return archive
    }
}
