import Foundation
import JewzHTTPCore

/// Builds a multipart body (`multipart/form-data` by default, or `mixed`, `related`…) that is
/// sent streamed: files are read in chunks as the request goes out, never joined into one
/// buffer, and the whole length is known up front, so `Content-Length` is sent.
///
/// ```swift
/// let cycle = HTTPCycle(requestURL: url)
/// let thumbnail = Data()
/// let reportURL = URL(string: "https://example.com/report.csv")!
/// var form = MultipartFormData()
/// form.append("Ada", name: "author")
/// try form.append(fileAt: reportURL, name: "report")        // type guessed from ".pdf"
/// form.append(thumbnail, name: "thumb", filename: "thumb.png")
/// cycle.request.setBody(form)                                 // Content-Type with boundary
/// ```
public struct MultipartFormData: Sendable {
    /// One part as it is sent.
    public struct Part: Sendable {
        /// The part's header fields (`Content-Disposition`, `Content-Type`).
        public var headers: HTTPHeaderFields
        /// What the part carries.
        public var content: Content
    }

    /// What a part carries.
    public enum Content: Sendable {
        /// Bytes in memory.
        case data(Data)
        /// A file and its size when the part was added.
        case file(URL, size: Int)
    }

    /// The subtype: `form-data`, `mixed`, `related`, `alternative`…
    public let subtype: String
    /// The delimiter between parts; generated at random unless given.
    public private(set) var boundary: String
    /// The parts, in the order they are sent.
    public private(set) var parts: [Part] = []

    /// Creates an empty body.
    ///
    /// - Parameters:
    ///   - subtype: `form-data` (the default), `mixed`, `related`, `alternative`…
    ///   - boundary: a boundary to use instead of a random one; it is checked for syntax now,
    ///     and replaced by a random one if a part added later contains it.
    /// - Throws: ``MultipartError/invalidBoundary(_:)``.
    public init(subtype: String = "form-data", boundary: String? = nil) throws(MultipartError) {
        self.subtype = subtype
        if let boundary {
            guard Self.isValidBoundary(boundary) else { throw .invalidBoundary(boundary) }
            self.boundary = boundary
        } else {
            self.boundary = Self.randomBoundary()
        }
    }

    /// Creates an empty `multipart/form-data` body with a random boundary.
    public init() {
        subtype = "form-data"
        boundary = Self.randomBoundary()
    }

    /// `multipart/<subtype>; boundary=…`, for the request's Content-Type.
    public var contentType: String { "multipart/\(subtype); boundary=\(boundary)" }

    // MARK: Adding parts

    /// Adds a text field.
    ///
    /// - Parameters:
    ///   - value: the field's text, sent as UTF-8.
    ///   - name: the field's name.
    ///   - headers: more fields for the part's head.
    public mutating func append(_ value: String, name: String, headers: HTTPHeaderFields = [:]) {
        var fields = HTTPHeaderFields()
        fields["Content-Disposition"] = Self.disposition(name: name, filename: nil)
        fields.addMissing(from: headers)
        appendChecked(Part(headers: fields, content: .data(Data(value.utf8))))
    }

    /// Adds bytes from memory, as a file when `filename` is given.
    ///
    /// - Parameters:
    ///   - data: the part's bytes.
    ///   - name: the field's name.
    ///   - filename: the name the server sees; `nil` sends the bytes as a plain field.
    ///   - contentType: the part's type; guessed from `filename`'s extension when `nil`, and
    ///     none is sent for a part without a file name.
    ///   - headers: more fields for the part's head.
    public mutating func append(
        _ data: Data, name: String, filename: String? = nil, contentType: String? = nil, headers: HTTPHeaderFields = [:]
    ) {
        var fields = HTTPHeaderFields()
        fields["Content-Disposition"] = Self.disposition(name: name, filename: filename)
        if let type = contentType ?? filename.map(MediaTypeGuess.contentType(forFilename:)) {
            fields["Content-Type"] = type
        }
        fields.addMissing(from: headers)
        appendChecked(Part(headers: fields, content: .data(data)))
    }

    /// Adds a file, read in chunks when the body is sent.
    ///
    /// - Parameters:
    ///   - url: the file to send.
    ///   - name: the field's name.
    ///   - filename: the name the server sees; the file's own name when `nil`.
    ///   - contentType: guessed from the file name's extension when `nil`.
    ///   - headers: more fields for the part's head.
    /// - Throws: ``MultipartError/unreadableFile(path:)``.
    public mutating func append(
        fileAt url: URL, name: String, filename: String? = nil, contentType: String? = nil, headers: HTTPHeaderFields = [:]
    ) throws(MultipartError) {
        guard FileManager.default.isReadableFile(atPath: url.path),
            let size = (try? FileManager.default.attributesOfItem(atPath: url.path)[.size] as? NSNumber)?.intValue
        else { throw .unreadableFile(path: url.path) }
        let shownName = filename ?? url.lastPathComponent
        var fields = HTTPHeaderFields()
        fields["Content-Disposition"] = Self.disposition(name: name, filename: shownName)
        fields["Content-Type"] = contentType ?? MediaTypeGuess.contentType(forFilename: shownName)
        fields.addMissing(from: headers)
        parts.append(Part(headers: fields, content: .file(url, size: size)))
    }

    /// Adds a part with exactly these headers (for `multipart/mixed` and friends).
    public mutating func append(part data: Data, headers: HTTPHeaderFields) {
        appendChecked(Part(headers: headers, content: .data(data)))
    }

    // MARK: Encoding

    /// The body as segments: header blocks in memory, files by reference.
    public var body: HTTPRequestBody {
        var segments: [HTTPBodySegment] = []
        var pending = Data()
        for part in parts {
            pending.append(contentsOf: "--\(boundary)\r\n".utf8)
            for field in part.headers {
                pending.append(contentsOf: "\(field.name): \(field.value)\r\n".utf8)
            }
            pending.append(contentsOf: "\r\n".utf8)
            switch part.content {
            case .data(let data):
                pending.append(data)
            case .file(let url, _):
                segments.append(.data(pending))
                segments.append(.file(url))
                pending = Data()
            }
            pending.append(contentsOf: "\r\n".utf8)
        }
        pending.append(contentsOf: "--\(boundary)--\r\n".utf8)
        segments.append(.data(pending))
        return .segments(segments)
    }

    /// The body's length in bytes, with files at the size they had when added.
    public var contentLength: Int {
        let delimiter = boundary.utf8.count + 4  // "--" boundary CRLF
        var length = delimiter + 2  // the closing "--"
        for part in parts {
            length += delimiter + 2 + 2  // CRLF after the headers and after the content
            for field in part.headers { length += field.name.utf8.count + field.value.utf8.count + 4 }
            switch part.content {
            case .data(let data): length += data.count
            case .file(_, let size): length += size
            }
        }
        return length
    }

    /// The whole body in memory, for small bodies and tests.
    ///
    /// - Throws: ``MultipartError/unreadableFile(path:)``.
    public func encoded() throws(MultipartError) -> Data {
        guard case .segments(let segments) = body else { return Data() }
        var data = Data(capacity: contentLength)
        for segment in segments {
            switch segment {
            case .data(let bytes):
                data.append(bytes)
            case .file(let url):
                guard let contents = try? Data(contentsOf: url) else { throw .unreadableFile(path: url.path) }
                data.append(contents)
            }
        }
        return data
    }

    // MARK: Boundaries and headers

    /// Adds a part in memory, making sure the boundary does not occur in it: when it does,
    /// a new random boundary replaces it (also a given one: ``contentType`` always names the
    /// boundary in use) and is checked against every part again.
    private mutating func appendChecked(_ part: Part) {
        parts.append(part)
        while parts.contains(where: { contains($0, boundary) }) {
            boundary = Self.randomBoundary()
        }
    }

    private func contains(_ part: Part, _ boundary: String) -> Bool {
        guard case .data(let data) = part.content else { return false }
        let needle = Data("--\(boundary)".utf8)
        return data.range(of: needle) != nil || part.headers.contains { $0.value.contains(boundary) }
    }

    /// `form-data; name="…"; filename="…"`: quotes, CR and LF percent-encoded as browsers do
    /// (RFC 7578 §4.2, WHATWG), plus RFC 5987's `filename*` for a non-ASCII name, which
    /// servers that predate UTF-8 file names read instead.
    static func disposition(name: String, filename: String?) -> String {
        var value = "form-data; name=\"\(quoted(name))\""
        if let filename {
            value += "; filename=\"\(quoted(filename))\""
            if !filename.utf8.allSatisfy({ $0 < 0x80 }) {
                let encoded = PercentEncoding.encode(filename, allowing: .unreserved)
                value += "; filename*=UTF-8''\(encoded)"
            }
        }
        return value
    }

    private static func quoted(_ text: String) -> String {
        text.replacingOccurrences(of: "\"", with: "%22").replacingOccurrences(of: "\r", with: "%0D")
            .replacingOccurrences(of: "\n", with: "%0A")
    }

    /// RFC 2046 §5.1.1: 1–70 of `bchars`, not ending in a space.
    static func isValidBoundary(_ boundary: String) -> Bool {
        let allowed = Set("0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ'()+_,-./:=? ".utf8)
        return (1...70).contains(boundary.utf8.count) && boundary.utf8.allSatisfy(allowed.contains) && !boundary.hasSuffix(" ")
    }

    /// `jewz-` and 32 random letters and digits (about 190 bits): a file, which is not
    /// searched, contains it by chance with negligible probability.
    static func randomBoundary() -> String {
        let alphabet = Array("0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ")
        var generator = SystemRandomNumberGenerator()
        return "jewz-" + String((0..<32).map { _ in alphabet[Int(generator.next(upperBound: UInt(alphabet.count)))] })
    }
}

/// Sending a multipart form as a request's body.
extension HTTPRequest {
    /// Sends `form` as the body, streamed, with its Content-Type (boundary included).
    public mutating func setBody(_ form: MultipartFormData) {
        body = form.body
        headers["Content-Type"] = form.contentType
    }
}
