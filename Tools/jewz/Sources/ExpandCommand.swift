import ArgumentParser
import Foundation
import Jewzruxin

/// `jewz expand`: expands an RFC 6570 URI template, once or for each line of standard input.
struct ExpandCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "expand",
        abstract: "Expand an RFC 6570 URI template.",
        discussion: """
            jewz expand '{/path*}{?q,page}' path:='["repos","jewz"]' q=swift page:=2
            printf '%s\\n' '{"template": "{?q}", "variables": {"q": "a b"}}' | jewz expand --jsonl
            """)

    @Flag(help: "Read lines {\"template\": …, \"variables\": {…}} from standard input; print {\"expansion\": …} or {\"error\": …} for each.")
    var jsonl = false

    @Argument(help: "TEMPLATE [name=value | name:=json ...]")
    var words: [String] = []

    func run() throws {
        if jsonl {
            guard words.isEmpty else { throw ValidationError("--jsonl reads templates from standard input; give no arguments.") }
            while let line = readLine(strippingNewline: true) {
                guard !line.allSatisfy(\.isWhitespace) else { continue }
                printLine(Self.expandLine(line).formatted())
            }
            return
        }
        guard let text = words.first else { throw ValidationError("Give a template: jewz expand TEMPLATE [name=value | name:=json ...].") }
        var variables: [String: URITemplate.Value] = [:]
        for word in words.dropFirst() {
            switch try? RequestItem(word) {
            case .field(let name, let value)?: variables[name] = .string(value)
            case .jsonField(let name, let value)?: variables[name] = URITemplate.Value(json: value)
            default: throw ValidationError("'\(word)' is not a variable: use name=value or name:=json.")
            }
        }
        do {
            printLine(try URITemplate(text).expand(variables))
        } catch {
            printError(error.description)
            throw JewzExit.usage.code
        }
    }

    /// One `--jsonl` line's answer, as an object so it prints as one line of JSON.
    static func expandLine(_ line: String) -> JSONValue {
        do {
            let request = try JSONValue(parsing: line)
            guard let template = request["template"].string else {
                return ["error": "each line needs a \"template\" string and an optional \"variables\" object"]
            }
            var variables: [String: URITemplate.Value] = [:]
            for (name, value) in request["variables"].object ?? [:] {
                variables[name] = URITemplate.Value(json: value)
            }
            return ["expansion": .string(try URITemplate(template).expand(variables))]
        } catch let error as URITemplateError {
            return ["error": .string(error.description)]
        } catch {
            return ["error": .string("\(error)")]
        }
    }
}

extension URITemplate.Value {
    /// A template value from JSON: arrays are lists, objects associative arrays in document order,
    /// numbers as written, `null` undefined.
    init?(json: JSONValue) {
        switch json {
        case .null: return nil
        case .array(let items): self = .list(items.map(Self.text))
        case .object(let object): self = .associative(object.members.map { (key: $0.key, value: Self.text($0.value)) })
        default: self = .string(Self.text(json))
        }
    }

    private static func text(_ json: JSONValue) -> String {
        switch json {
        case .string(let text): text
        case .number(let number): number.text
        case .bool(let flag): String(flag)
        case .null: ""
        default: json.formatted()
        }
    }
}
