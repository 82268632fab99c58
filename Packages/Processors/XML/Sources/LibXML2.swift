import CLibXML2
import Foundation

/// The libxml2 calls: one-time global setup, safe parsing, and turning libxml2 nodes into
/// ``XMLTree`` values.
enum LibXML2 {
    /// libxml2's process-wide state, set once before any parse: the parser's globals, and an
    /// external-entity loader that refuses everything, so no document can make libxml2 read a
    /// file or the network.
    static let ready: Void = {
        xmlInitParser()
        xmlSetExternalEntityLoader { _, _, _ in nil }
    }()

    /// Parse options: no network, no DTD loading or entity substitution (both off by default,
    /// named here for the reader), errors collected on the context rather than printed.
    static let options = Int32(XML_PARSE_NONET.rawValue | XML_PARSE_NOERROR.rawValue | XML_PARSE_NOWARNING.rawValue)

    /// The bit pattern the entity-declaration handler leaves in the context's `_private`.
    private static let entityDeclaredMark = 1

    /// Parses a document.
    ///
    /// - Throws: ``XMLError``.
    static func parse(_ data: Data) throws(XMLError) -> UnsafeMutablePointer<xmlDoc> {
        _ = ready
        guard let context = xmlNewParserCtxt() else { throw .outOfMemory }
        defer { xmlFreeParserCtxt(context) }
        // Refuse entity declarations as they are read, before any could be referenced.
        context.pointee.sax.pointee.entityDecl = { context, _, _, _, _, _ in
            guard let parser = context?.assumingMemoryBound(to: xmlParserCtxt.self) else { return }
            parser.pointee._private = UnsafeMutableRawPointer(bitPattern: LibXML2.entityDeclaredMark)
            xmlStopParser(parser)
        }
        let document = data.withUnsafeBytes { bytes in
            // No URL (nothing relative can be resolved) and no forced encoding (the declaration
            // or a byte-order mark decides, UTF-8 otherwise).
            xmlCtxtReadMemory(context, bytes.bindMemory(to: CChar.self).baseAddress, Int32(clamping: bytes.count), nil, nil, options)
        }
        if Int(bitPattern: context.pointee._private) == entityDeclaredMark {
            if let document { xmlFreeDoc(document) }
            throw .entityDeclarationsNotAllowed
        }
        guard let document, context.pointee.wellFormed != 0 else {
            if let document { xmlFreeDoc(document) }
            throw lastError(of: context)
        }
        return document
    }

    private static func lastError(of context: xmlParserCtxtPtr) -> XMLError {
        guard let error = xmlCtxtGetLastError(context) else {
            return .syntax(message: "not well-formed", line: 0, column: 0)
        }
        let message = error.pointee.message.map { String(cString: $0) }?
            .trimmingCharacters(in: .whitespacesAndNewlines) ?? "not well-formed"
        if error.pointee.code == XML_ERR_INTERNAL_ERROR.rawValue, message.contains("depth") {
            return .tooDeep(line: Int(error.pointee.line))
        }
        return .syntax(message: message, line: Int(error.pointee.line), column: Int(error.pointee.int2))
    }

    // MARK: libxml2 nodes → XMLTree values

    static func string(_ characters: UnsafePointer<xmlChar>?) -> String {
        characters.map { String(cString: $0) } ?? ""
    }

    static func node(_ pointer: xmlNodePtr) -> XMLTree.Node? {
        switch pointer.pointee.type {
        case XML_ELEMENT_NODE:
            return .element(element(pointer))
        case XML_TEXT_NODE:
            return .text(string(pointer.pointee.content))
        case XML_CDATA_SECTION_NODE:
            return .cdata(string(pointer.pointee.content))
        case XML_COMMENT_NODE:
            return .comment(string(pointer.pointee.content))
        case XML_PI_NODE:
            return .processingInstruction(target: string(pointer.pointee.name), data: string(pointer.pointee.content))
        case XML_ATTRIBUTE_NODE:
            return UnsafeMutableRawPointer(pointer).withMemoryRebound(to: xmlAttr.self, capacity: 1) { .attribute(attribute($0)) }
        default:
            return nil
        }
    }

    static func element(_ pointer: xmlNodePtr) -> XMLTree.Element {
        var element = XMLTree.Element(name: string(pointer.pointee.name))
        if let namespace = pointer.pointee.ns {
            element.prefix = namespace.pointee.prefix.map { String(cString: $0) }
            element.namespaceURI = string(namespace.pointee.href)
        }
        var declaration = pointer.pointee.nsDef
        while let current = declaration {
            element.namespaceDeclarations.append(
                XMLTree.Namespace(prefix: current.pointee.prefix.map { String(cString: $0) }, uri: string(current.pointee.href)))
            declaration = current.pointee.next
        }
        var property = pointer.pointee.properties
        while let current = property {
            element.attributes.append(attribute(current))
            property = current.pointee.next
        }
        var child = pointer.pointee.children
        while let current = child {
            if let converted = node(current) { element.children.append(converted) }
            child = current.pointee.next
        }
        return element
    }

    static func attribute(_ pointer: UnsafeMutablePointer<xmlAttr>) -> XMLTree.Attribute {
        var value = ""
        var child = pointer.pointee.children
        while let current = child {
            value += string(current.pointee.content)
            child = current.pointee.next
        }
        var attribute = XMLTree.Attribute(name: string(pointer.pointee.name), value: value)
        if let namespace = pointer.pointee.ns {
            attribute.prefix = namespace.pointee.prefix.map { String(cString: $0) }
            attribute.namespaceURI = string(namespace.pointee.href)
        }
        return attribute
    }
}
