import Foundation
import Jewzruxin

/// `--parsed`: the response's `object` as the processor registry made it, printed for a
/// person: JSON formatted, form fields a line each, XML as an outline, multipart parts listed.
enum ParsedPrinter {
    /// The lines for `response.object`; a line saying there is none when no processor ran.
    static func text(for response: HTTPResponse, highlighting: Bool) -> String {
        if let json = response.json { return json.formatted(pretty: true, highlighting: highlighting ? .ansi : nil) }
        if let form = response.form { return form.map { "\($0.name) = \($0.value)" }.joined(separator: "\n") }
        if let xml = response.xml { return outline(xml.root, depth: 0).joined(separator: "\n") }
        if let multipart = response.multipart {
            return multipart.parts.enumerated().map { index, part in
                let name = part.name.map { "\"\($0)\"" } ?? "(no name)"
                let file = part.filename.map { ", file \"\($0)\"" } ?? ""
                let type = part.contentType.map { ", \($0.essence)" } ?? ""
                return "part \(index + 1): \(name)\(file)\(type), \(part.body.count) bytes"
            }.joined(separator: "\n")
        }
        if let object = response.object { return String(describing: object) }
        return "(no processor parsed this body: its Content-Type is \(response.headers["Content-Type"] ?? "not given"))"
    }

    /// `catalog` / `  item id=1: "Hello"`: elements indented by depth, attributes, direct text.
    private static func outline(_ element: XMLTree.Element, depth: Int) -> [String] {
        let attributes = element.attributes.map { " \($0.qualifiedName)=\($0.value)" }.joined()
        let text = element.children.compactMap { node -> String? in
            switch node {
            case .text(let text), .cdata(let text):
                let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
                return trimmed.isEmpty ? nil : trimmed
            default:
                return nil
            }
        }.joined(separator: " ")
        var lines = [String(repeating: "  ", count: depth) + element.qualifiedName + attributes + (text.isEmpty ? "" : ": \"\(text)\"")]
        for case .element(let child) in element.children where depth < 64 {
            lines += outline(child, depth: depth + 1)
        }
        return lines
    }
}
