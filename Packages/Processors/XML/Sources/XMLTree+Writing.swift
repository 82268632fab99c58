extension XMLTree.Element {
    /// The element as XML text: names, namespace declarations, attributes and children,
    /// with `&`, `<`, `>` and quotes escaped (and CR, LF, tab in attributes, so they survive
    /// attribute-value normalization).
    public func xmlString() -> String {
        var output = ""
        write(to: &output)
        return output
    }

    private func write(to output: inout String) {
        output += "<" + qualifiedName
        for declaration in namespaceDeclarations {
            output += declaration.prefix.map { " xmlns:\($0)=\"" } ?? " xmlns=\""
            output += Self.escaped(declaration.uri, inAttribute: true) + "\""
        }
        for attribute in attributes {
            output += " \(attribute.qualifiedName)=\"\(Self.escaped(attribute.value, inAttribute: true))\""
        }
        guard !children.isEmpty else {
            output += "/>"
            return
        }
        output += ">"
        for child in children {
            switch child {
            case .element(let element): element.write(to: &output)
            case .text(let text): output += Self.escaped(text, inAttribute: false)
            case .cdata(let text):
                // "]]>" cannot appear inside CDATA: split it across two sections.
                output += "<![CDATA[" + text.replacingOccurrences(of: "]]>", with: "]]]]><![CDATA[>") + "]]>"
            case .comment(let text): output += "<!--" + text.replacingOccurrences(of: "--", with: "- -") + "-->"
            case .processingInstruction(let target, let data): output += "<?\(target) \(data)?>"
            case .attribute: break
            }
        }
        output += "</" + qualifiedName + ">"
    }

    static func escaped(_ text: String, inAttribute: Bool) -> String {
        guard text.contains(where: { "&<>\"\r\n\t".contains($0) }) else { return text }
        var result = ""
        result.reserveCapacity(text.utf8.count + 16)
        for character in text {
            switch character {
            case "&": result += "&amp;"
            case "<": result += "&lt;"
            case ">": result += "&gt;"
            case "\"" where inAttribute: result += "&quot;"
            case "\r": result += "&#13;"
            case "\n" where inAttribute: result += "&#10;"
            case "\t" where inAttribute: result += "&#9;"
            default: result.append(character)
            }
        }
        return result
    }
}
