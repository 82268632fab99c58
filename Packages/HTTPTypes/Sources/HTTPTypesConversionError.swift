/// Why a value of one model cannot be expressed in the other: swift-http-types refuses some
/// header names, values, methods and statuses that Jewzruxin's own types carry as they came.
///
/// A struct with a ``Code``, so that new reasons can be added without breaking a `switch`.
public struct HTTPTypesConversionError: Error, Sendable, Hashable, CustomStringConvertible {
    /// Why a conversion failed. A struct, so that new reasons do not break a caller's `switch`.
    public struct Code: Sendable, Hashable, CustomStringConvertible {
        private let name: String
        private init(_ name: String) { self.name = name }

        /// A header name that is not an RFC 9110 token.
        public static let invalidFieldName = Code("invalidFieldName")
        /// A header value with a byte HTTPTypes would replace (a control character, a line end).
        public static let invalidFieldValue = Code("invalidFieldValue")
        /// A method that is not an RFC 9110 token.
        public static let invalidMethod = Code("invalidMethod")
        /// A status code outside 0...999.
        public static let invalidStatus = Code("invalidStatus")
        /// A request without an absolute URL (no scheme or authority).
        public static let missingURL = Code("missingURL")

        /// The code's name.
        public var description: String { name }
    }

    /// Why the conversion failed.
    public let code: Code
    /// The name, value, method or status that could not be converted.
    public let offending: String

    init(_ code: Code, _ offending: String) {
        (self.code, self.offending) = (code, offending)
    }

    /// What could not be converted, and why.
    public var description: String {
        switch code {
        case .invalidFieldName: "'\(offending)' is not a valid header name in swift-http-types; remove or rename the field"
        case .invalidFieldValue: "the value of '\(offending)' has bytes swift-http-types would replace; send it without control characters"
        case .invalidMethod: "'\(offending)' is not a valid method token in swift-http-types"
        case .invalidStatus: "status \(offending) is outside 0...999, which swift-http-types cannot hold"
        default: "the request has no absolute URL (\(offending)); give it a scheme and a host"
        }
    }
}
