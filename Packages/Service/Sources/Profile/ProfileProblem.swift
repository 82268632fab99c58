/// One thing wrong with a service profile, and where: what ``ServiceProfile/problems(in:)-(Data)``
/// and ``ServiceError/problems`` list.
public struct ProfileProblem: Sendable, Hashable, CustomStringConvertible {
    /// A kind of problem. A struct, so that a new kind does not break a caller's `switch`.
    public struct Kind: Sendable, Hashable, CustomStringConvertible {
        /// The kind's name.
        public let description: String

        /// A required key is absent (`Resources`, or a resource's `Name` or `URITemplate`).
        public static let missingKey = Kind(description: "missingKey")
        /// A value of the wrong type (a number where a string belongs…).
        public static let wrongType = Kind(description: "wrongType")
        /// Two resources share a name.
        public static let duplicateName = Kind(description: "duplicateName")
        /// A URI template that does not parse; the message carries its error and offset.
        public static let invalidTemplate = Kind(description: "invalidTemplate")
        /// A method that is not an HTTP method (they are upper case).
        public static let unknownMethod = Kind(description: "unknownMethod")
        /// A processor that is neither a known name nor a media type.
        public static let unknownProcessor = Kind(description: "unknownProcessor")
        /// A key the profile format does not have: a typo would otherwise pass unnoticed.
        public static let unknownKey = Kind(description: "unknownKey")
        /// A value of the right type that cannot be used: a base URL that is no URL, a
        /// negative timeout, a header that cannot be sent.
        public static let invalidValue = Kind(description: "invalidValue")
        /// An OpenAPI construct a profile cannot express.
        public static let unsupported = Kind(description: "unsupported")
    }

    /// What kind of problem it is.
    public let kind: Kind
    /// Where: `Resources[2].URITemplate`, or an OpenAPI path such as `paths./pets.get`.
    public let path: String
    /// What is wrong, and what would be right.
    public let message: String

    /// A problem of `kind` at `path`, told by `message`.
    public init(_ kind: Kind, at path: String, _ message: String) {
        self.kind = kind
        self.path = path
        self.message = message
    }

    /// `path: message`.
    public var description: String { "\(path): \(message)" }
}
