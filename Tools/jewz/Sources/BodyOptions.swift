import ArgumentParser
import Foundation
import Jewzruxin

/// What a request sends: fields (JSON, form or multipart), `--raw` text, a file (`@path` or
/// `--upload`), or standard input when it is piped — one of them.
struct BodyOptions: ParsableArguments {
    @Flag(name: .shortAndLong, help: "Send name=value fields as application/x-www-form-urlencoded instead of JSON.")
    var form = false

    @Flag(help: "Send the fields as multipart/form-data (implied by a name@path item).")
    var multipart = false

    @Option(help: "Send this file as the request body, streamed from disk (the method then defaults to POST); @path does the same. A pipe, a device or <(command) is sent chunked as it comes.")
    var upload: String?

    @Option(help: "Send this text as the body as it is: application/json when it is JSON, else text/plain.")
    var raw: String?

    @Flag(help: "Never read standard input as the body (for scripts whose standard input is a pipe left open).")
    var ignoreStdin = false

    /// The most read from standard input: a larger body belongs in a file (`@path` streams it).
    static let standardInputLimit = 100 << 20

    /// The body the options and `items` ask for, with the headers it implies.
    ///
    /// - Throws: `ValidationError` when two sources are given; `RequestItemError` for a file
    ///   that cannot be read or a field that cannot go where it is asked to.
    func body(for items: [RequestItem], headers: inout HTTPHeaderFields) throws -> OutgoingBody? {
        let items = try RequestItem.readingFieldFiles(items)
        let files = items.compactMap { item -> String? in if case .bodyFile(let path) = item { path } else { nil } }
        let hasFields = items.contains {
            switch $0 {
            case .field, .jsonField, .file: true
            default: false
            }
        }
        let sources = [hasFields, raw != nil, upload != nil] + files.map { _ in true }
        guard sources.filter({ $0 }).count <= 1 else {
            throw ValidationError("Give one body: fields, --raw, --upload or one @file, not several.")
        }
        if let path = upload ?? files.first {
            // A pipe or a device has no length and can be read once: it goes chunked.
            if PipeChunks.isStream(path) { return .stream(try PipeChunks(path: path), contentType: Self.contentType(forFile: path)) }
            return .file(URL(fileURLWithPath: path), contentType: Self.contentType(forFile: path))
        }
        if let raw {
            let isJSON = (try? JSONValue(parsing: raw)) != nil
            return .data(Data(raw.utf8), contentType: isJSON ? "application/json" : "text/plain; charset=utf-8")
        }
        if multipart || items.contains(where: { if case .file = $0 { true } else { false } }) {
            return .multipart(try RequestItem.multipartBody(items))
        }
        if form {
            return try RequestItem.formBody(items).map { .data(Data($0.encoded().utf8), contentType: "application/x-www-form-urlencoded; charset=utf-8") }
        }
        if let json = RequestItem.jsonBody(items) {
            headers.addMissing(from: ["Accept": "application/json, */*;q=0.5"])
            return .data(Data(json.encoded()), contentType: "application/json")
        }
        guard !ignoreStdin, let piped = try Self.pipedInput() else { return nil }
        let isJSON = (try? JSONValue(parsing: piped)) != nil
        return .data(piped, contentType: isJSON ? "application/json" : "application/octet-stream")
    }

    /// Standard input when it is not a terminal and has something to say within a moment: a
    /// pipe or file, read whole; `nil` when it is empty, or is a pipe left open with nothing
    /// in it (a script's, which must not hang the request).
    private static func pipedInput() throws -> Data? {
        guard isatty(STDIN_FILENO) == 0 else { return nil }
        var ready = pollfd(fd: STDIN_FILENO, events: Int16(POLLIN), revents: 0)
        guard poll(&ready, 1, 200) > 0 else { return nil }
        var data = Data()
        var buffer = [UInt8](repeating: 0, count: 64 << 10)
        while true {
            let count = buffer.withUnsafeMutableBytes { read(STDIN_FILENO, $0.baseAddress, $0.count) }
            if count <= 0 { break }
            data.append(contentsOf: buffer[0..<count])
            guard data.count <= standardInputLimit else {
                throw ValidationError("Standard input holds more than \(standardInputLimit >> 20) MiB: send a file with @path, which streams it.")
            }
        }
        return data.isEmpty ? nil : data
    }

    /// A file's Content-Type by its extension, for the common ones; bytes otherwise.
    static func contentType(forFile path: String) -> String {
        switch URL(fileURLWithPath: path).pathExtension.lowercased() {
        case "json": "application/json"
        case "xml": "application/xml"
        case "txt", "text", "md": "text/plain; charset=utf-8"
        case "csv": "text/csv; charset=utf-8"
        case "html", "htm": "text/html; charset=utf-8"
        case "png": "image/png"
        case "jpg", "jpeg": "image/jpeg"
        case "gif": "image/gif"
        case "webp": "image/webp"
        case "pdf": "application/pdf"
        case "zip": "application/zip"
        case "gz": "application/gzip"
        default: "application/octet-stream"
        }
    }
}

/// A request's body, ready to go on its cycle.
enum OutgoingBody {
    case data(Data, contentType: String)
    case multipart(MultipartFormData)
    case file(URL, contentType: String)
    case stream(PipeChunks, contentType: String)

    /// Sets the body on `cycle`'s request and its Content-Type in `headers` unless given.
    func install(on cycle: HTTPCycle, headers: inout HTTPHeaderFields) {
        switch self {
        case .data(let data, let contentType):
            cycle.request.data = data
            headers.addMissing(from: ["Content-Type": contentType])
        case .multipart(let form):
            cycle.request.body = form.body
            headers.addMissing(from: ["Content-Type": form.contentType])
        case .file(let url, let contentType):
            cycle.request.body = .file(url)
            headers.addMissing(from: ["Content-Type": contentType])
        case .stream(let chunks, let contentType):
            cycle.request.body = chunks.body
            headers.addMissing(from: ["Content-Type": contentType])
        }
    }

    /// What `--offline` and `--print B` show of a body that is not in memory.
    var placeholder: String? {
        switch self {
        case .data: nil
        case .multipart(let form): "[a multipart/form-data body of \(form.contentLength) bytes, sent as it streams]"
        case .file(let url, _): "[the file \(url.path) as the body]"
        case .stream(_, _): "[what the pipe or device gives, sent chunked as it comes]"
        }
    }
}
