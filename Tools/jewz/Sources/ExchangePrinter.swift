import ArgumentParser
import Foundation
import Jewzruxin

/// How `jewz` prints an exchange, for the commands that send one (`jewz URL`, `jewz service`):
/// `--print` letters H (request head), B (request body), h (response head), b (response body).
enum ExchangePrinter {
    /// The body as the response's JSON, highlighted, on a terminal; else as it came; as the
    /// registry parsed it when `parsed`.
    static func printResponseBody(_ response: HTTPResponse, parsed: Bool = false) {
        if parsed {
            printLine(ParsedPrinter.text(for: response, highlighting: isatty(STDOUT_FILENO) == 1))
        } else if let json = response.json, isatty(STDOUT_FILENO) == 1 {
            printLine(json.formatted(pretty: true, highlighting: .ansi))
        } else {
            printBody(response.data, text: response.text)
        }
    }

    static func printRequestHead(_ request: HTTPRequest) {
        var target = request.url.path(percentEncoded: true)
        if target.isEmpty { target = "/" }
        if let query = request.url.query(percentEncoded: true) { target += "?" + query }
        printLine("\(request.method) \(target) HTTP/1.1")
        printLine("Host: \(request.url.host(percentEncoded: false) ?? "")\(request.url.port.map { ":\($0)" } ?? "")")
        for field in request.headers { printLine("\(field.name): \(field.value)") }
        // The transport frames the body; the length it sends is part of what goes out.
        if let length = request.body?.knownLength, !request.headers.contains("Content-Length"),
            !request.headers.contains("Transfer-Encoding")
        {
            printLine("Content-Length: \(length)")
        }
        printLine()
    }

    /// The status line and the fields. HTTP/2 has no reason phrase: its code stands alone, as
    /// curl shows it. Over HTTP/1.1 the phrase is the code's standard one: SwiftNIO's parser
    /// keeps no phrase a server sends, and a code without a standard one shows none.
    static func printResponseHead(_ response: HTTPResponse) {
        printResponseHead(HTTPResponse.Head(response))
    }

    /// The status line and header fields of a streamed response's `head`.
    static func printResponseHead(_ response: HTTPResponse.Head) {
        let version = response.version ?? .http1_1
        let phrase = version.major >= 2 ? "" : HTTPResponse.reasonPhrase(for: response.statusCode)
        printLine(phrase.isEmpty ? "\(version) \(response.statusCode)" : "\(version) \(response.statusCode) \(phrase)")
        for field in response.headers { printLine("\(field.name): \(field.value)") }
        printLine()
    }

    /// The body: piped or redirected, its bytes exactly as they came (after content decoding),
    /// for a checksum, `cmp` or a concatenation to see the server's; on a terminal, as text
    /// with a closing line break, or a notice instead of bytes that are not text (they do not
    /// decode, or hold a NUL, as httpie judges) — they would garble it. A request's body
    /// (`asSent`), printed before the response, keeps its line break when it is text.
    static func printBody(_ data: Data, text: String?, asSent: Bool = false) {
        let terminal = isatty(STDOUT_FILENO) == 1
        guard terminal || (asSent && text != nil) else { return StandardOutput.write(data) }
        if let text, !(terminal && data.contains(0)) {
            printLine(text)
        } else {
            printLine("[binary data, \(data.count) bytes: not shown on a terminal]")
        }
    }
}

/// `--print`, `--headers`, `--body`, `--verbose` and `--parsed`, for the commands that print
/// an exchange.
struct PrintOptions: ParsableArguments {
    @Option(name: [.customShort("p"), .customLong("print")], help: "What to print: H request headers, B request body, h response headers, b response body, m metadata (time, sizes, version, source); default hb on a terminal, b when piped.")
    var printed: String?

    @Flag(help: "Print the response's headers only (same as --print h).")
    var headers = false

    @Flag(help: "Print the response's body only (same as --print b).")
    var body = false

    @Flag(name: .shortAndLong, help: "Print the whole exchange (same as --print HBhb).")
    var verbose = false

    @Flag(help: "Print the body as the processor registry parsed it (JSON, form fields, an XML outline, multipart parts) instead of as it came.")
    var parsed = false

    /// The parts to print: `HBhb` when verbose, else what `--print`, `--headers` or `--body`
    /// say, else `hb` on a terminal and `b` when piped.
    ///
    /// - Throws: `ValidationError` for letters other than H, B, h, b and m, or two of the
    ///   options at once.
    func parts() throws -> String {
        let chosen = [printed, headers ? "h" : nil, body ? "b" : nil, verbose ? "HBhb" : nil].compactMap { $0 }
        guard chosen.count <= 1 else { throw ValidationError("Give one of --print, --headers, --body and --verbose.") }
        let parts = chosen.first ?? (isatty(STDOUT_FILENO) == 1 ? "hb" : "b")
        guard !parts.isEmpty, parts.allSatisfy({ "HBhbm".contains($0) }) else {
            throw ValidationError("--print takes the letters H, B, h, b and m.")
        }
        return parts
    }
}

extension ExchangePrinter {
    /// `--print m`: how long the exchange took, its sizes, the HTTP version and where the
    /// response came from.
    static func printMetadata(_ response: HTTPResponse, request: HTTPRequest, elapsed: Duration) {
        printLine(String(format: "Elapsed time: %.3f s", elapsed.inSeconds))
        printLine("HTTP version: \(response.version ?? .http1_1)")
        if let sent = request.data?.count { printLine("Request body: \(sent) bytes") }
        printLine("Response body: \(response.data.count) bytes")
        let source = switch response.source {
        case .network: "the network"
        case .cache: "the cache, fresh"
        case .revalidated: "the cache, confirmed by the server (304)"
        case .stale: "the cache, stale"
        }
        printLine("From: \(source)")
        printLine()
    }
}
