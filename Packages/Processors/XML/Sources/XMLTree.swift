import CLibXML2
import Foundation
import JewzLocking

/// A parsed XML document: an immutable tree of ``Element`` and ``Node`` values, and XPath
/// queries over it.
///
/// Parsing never touches the network or the file system, refuses documents that declare
/// entities (XXE, "billion laughs"), and bounds nesting depth.
///
/// ```swift
/// let tree = try XMLTree(data: Data(#"<feed xmlns:a="urn:a"><a:item id="1">Hi</a:item></feed>"#.utf8))
/// let id = tree.root.elements(named: "item").first?[attribute: "id"]   // "1"
/// print(try tree.nodes(forXPath: "//a:item/@id").map(\.text))     // ["1"]
/// ```
public final class XMLTree: Sendable {
    /// The document element.
    public let root: Element
    /// libxml2's document, kept for XPath. XPath may intern strings in the document's
    /// dictionary, so queries on one document run one at a time.
    private let document: Mutex<UnsafeMutablePointer<xmlDoc>>

    /// Parses a document.
    ///
    /// - Throws: ``XMLError`` with libxml2's line and column for malformed input.
    public init(data: Data) throws(XMLError) {
        let document = try LibXML2.parse(data)
        guard let rootNode = xmlDocGetRootElement(document) else {
            xmlFreeDoc(document)
            throw .syntax(message: "the document has no root element", line: 1, column: 1)
        }
        root = LibXML2.element(rootNode)
        self.document = Mutex(document)
    }

    /// Parses a document from a string.
    public convenience init(string: String) throws(XMLError) {
        try self.init(data: Data(string.utf8))
    }

    /// Builds a document around an element, for sending.
    public init(root: Element) throws(XMLError) {
        self.root = root
        let document = try LibXML2.parse(Data(root.xmlString().utf8))
        self.document = Mutex(document)
    }

    deinit {
        document.withLock { xmlFreeDoc($0) }
    }

    /// The nodes an XPath 1.0 expression selects, in document order. Expressions that yield a
    /// string, number or boolean give one text node.
    ///
    /// - Parameters:
    ///   - expression: the XPath 1.0 expression.
    ///   - namespaces: prefix → URI pairs for the expression, added to the namespace
    ///     declarations of the root element (which are available without being passed).
    /// - Throws: ``XMLError/invalidXPath(expression:message:)``.
    public func nodes(forXPath expression: String, namespaces: [String: String] = [:]) throws(XMLError) -> [Node] {
        var declared: [(String, String)] = root.namespaceDeclarations.compactMap { declaration in
            declaration.prefix.map { ($0, declaration.uri) }
        }
        declared += namespaces.sorted { $0.key < $1.key }.map { ($0.key, $0.value) }
        let result: Result<[Node], XMLError> = document.withLock { document in
            guard let context = xmlXPathNewContext(document) else { return .failure(.outOfMemory) }
            defer { xmlXPathFreeContext(context) }
            context.pointee.error = { _, _ in }  // keep libxml2 from printing; read lastError instead
            for (prefix, uri) in declared {
                xmlXPathRegisterNs(context, prefix, uri)
            }
            guard let object = xmlXPathEvalExpression(expression, context) else {
                let message = context.pointee.lastError.message.map { String(cString: $0) }?
                    .trimmingCharacters(in: .whitespacesAndNewlines) ?? "cannot be evaluated"
                return .failure(.invalidXPath(expression: expression, message: message))
            }
            defer { xmlXPathFreeObject(object) }
            switch object.pointee.type {
            case XPATH_NODESET:
                guard let set = object.pointee.nodesetval, let nodes = set.pointee.nodeTab else { return .success([]) }
                return .success((0..<Int(set.pointee.nodeNr)).compactMap { nodes[$0].flatMap(LibXML2.node) })
            case XPATH_STRING:
                return .success([.text(LibXML2.string(object.pointee.stringval))])
            case XPATH_NUMBER:
                let number = object.pointee.floatval
                return .success([.text(number == number.rounded() && abs(number) < 1e15 ? String(Int64(number)) : String(number))])
            case XPATH_BOOLEAN:
                return .success([.text(object.pointee.boolval != 0 ? "true" : "false")])
            default:
                return .success([])
            }
        }
        return try result.get()
    }

    /// The document as UTF-8 XML with an XML declaration.
    public func xmlData() -> Data {
        Data(("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n" + root.xmlString()).utf8)
    }
}
