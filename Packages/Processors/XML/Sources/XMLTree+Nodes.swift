extension XMLTree {
    /// One node of the tree.
    public enum Node: Sendable, Equatable {
        /// An element, with its attributes and children.
        case element(Element)
        /// Character data.
        case text(String)
        /// A CDATA section's content.
        case cdata(String)
        /// A comment's content.
        case comment(String)
        /// A processing instruction (`<?target data?>`).
        case processingInstruction(target: String, data: String)
        /// An attribute, as XPath can select them (`//@id`).
        case attribute(Attribute)

        /// The element, if this node is one.
        public var element: Element? { if case .element(let element) = self { element } else { nil } }

        /// The text this node contributes to its parent's text: text, CDATA and elements' text.
        public var text: String {
            switch self {
            case .element(let element): element.text
            case .text(let text), .cdata(let text): text
            case .attribute(let attribute): attribute.value
            case .comment, .processingInstruction: ""
            }
        }
    }

    /// An attribute: its local name, optional namespace, and value.
    public struct Attribute: Sendable, Equatable {
        /// The attribute's local name.
        public var name: String
        /// The namespace prefix it was written with, if any.
        public var prefix: String?
        /// The namespace it belongs to, if any.
        public var namespaceURI: String?
        /// The value, entities resolved.
        public var value: String

        /// An attribute `name` with `value`, in a namespace when `prefix` and `namespaceURI` say
        /// so.
        public init(name: String, value: String, prefix: String? = nil, namespaceURI: String? = nil) {
            self.name = name
            self.value = value
            self.prefix = prefix
            self.namespaceURI = namespaceURI
        }

        /// `prefix:name`, or `name`.
        public var qualifiedName: String { prefix.map { "\($0):\(name)" } ?? name }
    }

    /// A namespace declaration (`xmlns:prefix="uri"`; `prefix` nil for the default namespace).
    public struct Namespace: Sendable, Equatable {
        /// The prefix declared; `nil` for the default namespace.
        public var prefix: String?
        /// The namespace's URI.
        public var uri: String

        /// A declaration of `uri` for `prefix`.
        public init(prefix: String?, uri: String) {
            self.prefix = prefix
            self.uri = uri
        }
    }

    /// An element: name and namespace, attributes, the namespaces it declares, and children.
    public struct Element: Sendable, Equatable {
        /// The element's local name.
        public var name: String
        /// The namespace prefix it was written with, if any.
        public var prefix: String?
        /// The namespace it belongs to, if any.
        public var namespaceURI: String?
        /// The attributes, in document order.
        public var attributes: [Attribute]
        /// The namespaces this element declares.
        public var namespaceDeclarations: [Namespace]
        /// The child nodes, in document order.
        public var children: [Node]

        /// An element with each of its parts.
        public init(
            name: String, prefix: String? = nil, namespaceURI: String? = nil, attributes: [Attribute] = [],
            namespaceDeclarations: [Namespace] = [], children: [Node] = []
        ) {
            self.name = name
            self.prefix = prefix
            self.namespaceURI = namespaceURI
            self.attributes = attributes
            self.namespaceDeclarations = namespaceDeclarations
            self.children = children
        }

        /// `prefix:name`, or `name`.
        public var qualifiedName: String { prefix.map { "\($0):\(name)" } ?? name }

        /// The value of the attribute with this local (or `prefix:local`) name.
        public subscript(attribute name: String) -> String? {
            attributes.first { $0.name == name || $0.qualifiedName == name }?.value
        }

        /// The child elements, optionally only those with this local name.
        public func elements(named name: String? = nil) -> [Element] {
            children.compactMap { node in
                guard case .element(let element) = node, name == nil || element.name == name else { return nil }
                return element
            }
        }

        /// The concatenated text and CDATA of every descendant, in document order.
        public var text: String { children.map(\.text).joined() }
    }
}
