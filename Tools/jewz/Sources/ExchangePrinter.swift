import ArgumentParser
import Foundation
import Jewzruxin

/// How `jewz` prints an exchange, for the commands that send one (`jewz URL`, `jewz service`):
/// `--print` letters H (request head), B (request body), h (response head), b (response body).
enum ExchangePrinter {
    /// The body as the response's JSON, highlighted, on a terminal; else as it came.
    static func printResponseBody(_ response: HTTPResponse) {
        if let json = response.json, isatty(STDOUT_FILENO) == 1 {
            print(json.formatted(pretty: true, highlighting: .ansi))
        } else {
            printBody(response.data, text: response.text)
        }
    }

    static func printRequestHead(_ request: HTTPRequest) {
        var target = request.url.path(percentEncoded: true)
        if target.isEmpty { target = "/" }
        if let query = request.url.query(percentEncoded: true) { target += "?" + query }
        print("\(request.method) \(target) HTTP/1.1")
        print("Host: \(request.url.host(percentEncoded: false) ?? "")\(request.url.port.map { ":\($0)" } ?? "")")
        for field in request.headers { print("\(field.name): \(field.value)") }
        print()
    }

    static func printResponseHead(_ response: HTTPResponse) {
        print("\(response.version ?? .http1_1) \(response.statusCode) \(reasonPhrase(for: response.statusCode))")
        for field in response.headers { print("\(field.name): \(field.value)") }
        print()
    }

    static func printBody(_ data: Data, text: String?) {
        if let text {
            print(text)
        } else if isatty(STDOUT_FILENO) == 1 {
            print("[binary data, \(data.count) bytes: not shown on a terminal]")
        } else {
            FileHandle.standardOutput.write(data)
        }
    }
}

/// `--print` and `--verbose`, for the commands that print an exchange.
struct PrintOptions: ParsableArguments {
    @Option(name: [.customShort("p"), .customLong("print")], help: "What to print: H request headers, B request body, h response headers, b response body (default hb on a terminal, b when piped).")
    var printed: String?

    @Flag(name: .shortAndLong, help: "Print the whole exchange (same as --print HBhb).")
    var verbose = false

    /// The parts to print: `HBhb` when verbose, else `--print`'s, else `hb` on a terminal and
    /// `b` when piped.
    ///
    /// - Throws: `ValidationError` for letters other than H, B, h and b.
    func parts() throws -> String {
        let parts = verbose ? "HBhb" : printed ?? (isatty(STDOUT_FILENO) == 1 ? "hb" : "b")
        guard parts.allSatisfy({ "HBhb".contains($0) }) else {
            throw ValidationError("--print takes the letters H, B, h and b.")
        }
        return parts
    }
}
