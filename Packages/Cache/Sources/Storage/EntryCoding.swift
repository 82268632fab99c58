import Foundation
import JewzHTTPCore

/// The file format of a ``DiskCacheStore`` entry: the body first (so that it can be written as
/// it arrives), then the metadata, then a 24-byte footer — the metadata's and the body's
/// lengths and a magic number. A file that is cut short, overlong or not ours fails the footer
/// check and is never served.
///
/// The metadata is length-prefixed binary: a disk hit decodes it on every read, and a JSON
/// decoder cost more than the read itself.
enum EntryCoding {
    static let magic: UInt64 = 0x4A45_575A_4331_0A00  // "JEWZC1\n\0"
    static let footerSize = 24
    private static let version: UInt8 = 1

    static func metadata(of response: CachedResponse) -> Data {
        var writer = Writer()
        writer.byte(version)
        writer.string(response.key)
        writer.integer(UInt64(response.statusCode))
        writer.string(response.url?.absoluteString ?? "")
        writer.double(response.requestDate.timeIntervalSince1970)
        writer.double(response.responseDate.timeIntervalSince1970)
        writer.byte(response.lifetimeOverride == nil ? 0 : 1)
        writer.double(response.lifetimeOverride ?? 0)
        writer.integer(UInt64(response.headers.fields.count))
        for field in response.headers.fields {
            writer.string(field.name)
            writer.string(field.value)
        }
        writer.integer(UInt64(response.varyingFields.count))
        for (name, value) in response.varyingFields.sorted(by: { $0.key < $1.key }) {
            writer.string(name)
            writer.string(value)
        }
        return writer.data
    }

    static func footer(metadataLength: Int, bodyLength: Int) -> Data {
        var writer = Writer()
        writer.integer(UInt64(metadataLength))
        writer.integer(UInt64(bodyLength))
        writer.integer(magic)
        return writer.data
    }

    /// The entry a whole file holds.
    ///
    /// - Throws: ``CacheError/Code/corruptEntry`` when the file is not a whole entry.
    static func decode(_ file: Data) throws -> CachedResponse {
        try file.withUnsafeBytes { bytes in try decode(bytes, body: { file[file.startIndex..<(file.startIndex + $0)] }) }
    }

    private static func decode(_ bytes: UnsafeRawBufferPointer, body: (Int) -> Data) throws -> CachedResponse {
        guard bytes.count >= footerSize else { throw CacheError.corruptEntry("shorter than its footer") }
        let lengths = try footer(UnsafeRawBufferPointer(rebasing: bytes[(bytes.count - footerSize)...]), fileSize: bytes.count)
        let metadataRange = lengths.body..<(lengths.body + lengths.metadata)
        return try metadata(UnsafeRawBufferPointer(rebasing: bytes[metadataRange]), body: body(lengths.body), bodyLength: lengths.body)
    }

    /// The metadata's and the body's lengths that a file of `fileSize` bytes ends with.
    ///
    /// - Throws: ``CacheError/Code/corruptEntry`` when they do not describe the file.
    static func footer(_ bytes: UnsafeRawBufferPointer, fileSize: Int) throws -> (metadata: Int, body: Int) {
        var footer = Reader(bytes)
        let metadataLength = try footer.integer()
        let bodyLength = try footer.integer()
        guard try footer.integer() == magic else { throw CacheError.corruptEntry("no magic number") }
        guard metadataLength < UInt64(fileSize), bodyLength < UInt64(fileSize),
            Int(metadataLength) + Int(bodyLength) + footerSize == fileSize
        else { throw CacheError.corruptEntry("lengths do not add up") }
        return (Int(metadataLength), Int(bodyLength))
    }

    /// The entry the metadata describes, with `body` (empty when it stays in its file).
    static func metadata(_ bytes: UnsafeRawBufferPointer, body: Data, bodyLength: Int) throws -> CachedResponse {
        var reader = Reader(bytes)
        guard try reader.byte() == version else { throw CacheError.corruptEntry("unknown version") }
        let key = try reader.string()
        let statusCode = Int(try reader.integer())
        let url = try reader.string()
        let requestDate = Date(timeIntervalSince1970: try reader.double())
        let responseDate = Date(timeIntervalSince1970: try reader.double())
        let hasLifetime = try reader.byte() == 1
        let lifetime = try reader.double()
        var headers = HTTPHeaderFields()
        for _ in 0..<(try reader.count()) {
            let name = try reader.string()
            headers.add(try reader.string(), for: name)
        }
        var varying: [String: String] = [:]
        for _ in 0..<(try reader.count()) {
            let name = try reader.string()
            varying[name] = try reader.string()
        }
        // 0 marks the index of a URL's variants (HTTPCache+Variants.swift).
        guard statusCode == 0 || (100...999).contains(statusCode) else { throw CacheError.corruptEntry("status \(statusCode)") }
        var entry = CachedResponse(
            key: key, statusCode: statusCode, headers: headers, body: body,
            url: url.isEmpty ? nil : URL(string: url), requestDate: requestDate, responseDate: responseDate,
            varyingFields: varying, lifetimeOverride: hasLifetime ? lifetime : nil)
        entry.bodyLength = bodyLength
        return entry
    }

    private struct Writer {
        var data = Data()

        mutating func byte(_ value: UInt8) { data.append(value) }

        mutating func integer(_ value: UInt64) {
            withUnsafeBytes(of: value.littleEndian) { data.append(contentsOf: $0) }
        }

        mutating func double(_ value: Double) { integer(value.bitPattern) }

        mutating func string(_ value: String) {
            integer(UInt64(value.utf8.count))
            data.append(contentsOf: value.utf8)
        }
    }

    /// Reads the metadata in place, every length checked against what is left.
    private struct Reader {
        private let bytes: UnsafeRawBufferPointer
        private var offset = 0

        init(_ bytes: UnsafeRawBufferPointer) {
            self.bytes = bytes
        }

        mutating func byte() throws -> UInt8 {
            guard offset < bytes.count else { throw CacheError.corruptEntry("metadata cut short") }
            defer { offset += 1 }
            return bytes[offset]
        }

        mutating func integer() throws -> UInt64 {
            guard bytes.count - offset >= 8 else { throw CacheError.corruptEntry("metadata cut short") }
            defer { offset += 8 }
            return UInt64(littleEndian: bytes.loadUnaligned(fromByteOffset: offset, as: UInt64.self))
        }

        mutating func double() throws -> Double { Double(bitPattern: try integer()) }

        /// A count of items that must each take at least a byte of what is left.
        mutating func count() throws -> Int {
            let value = try integer()
            guard value <= UInt64(bytes.count - offset) else { throw CacheError.corruptEntry("count past the end") }
            return Int(value)
        }

        mutating func string() throws -> String {
            let length = try count()
            defer { offset += length }
            return String(decoding: UnsafeRawBufferPointer(rebasing: bytes[offset..<(offset + length)]), as: UTF8.self)
        }
    }
}
