import Foundation

/// The value of one query parameter: a single value or a list, written `key=a&key=b`.
///
/// Literals of strings, numbers, booleans and arrays of those convert directly:
/// `["q": "cats", "page": 2, "tag": ["a", "b"]]`.
public struct QueryValue: Sendable, Hashable, CustomStringConvertible,
    ExpressibleByStringInterpolation, ExpressibleByIntegerLiteral, ExpressibleByFloatLiteral,
    ExpressibleByBooleanLiteral, ExpressibleByArrayLiteral
{
    /// The values in order; one entry for a single value.
    public var values: [String]

    /// A single value, as `value` describes itself.
    public init(_ value: some CustomStringConvertible) {
        values = [value.description]
    }

    /// A list of values, each written `key=value`.
    public init(_ values: [String]) {
        self.values = values
    }

    /// A single value from a string literal.
    public init(stringLiteral value: String) { values = [value] }
    /// A single value from an integer literal.
    public init(integerLiteral value: Int) { values = [String(value)] }
    /// A single value from a floating-point literal.
    public init(floatLiteral value: Double) { values = [String(value)] }
    /// `true` or `false`.
    public init(booleanLiteral value: Bool) { values = [String(value)] }
    /// A list from an array literal; a list inside it adds its values.
    public init(arrayLiteral elements: QueryValue...) { values = elements.flatMap(\.values) }

    /// The values, joined by commas.
    public var description: String { values.joined(separator: ",") }
}

/// Query parameters in a stable order: a literal's order, or a dictionary's keys sorted.
public struct QueryParameters: Sendable, Hashable, ExpressibleByDictionaryLiteral, Sequence {
    /// One parameter: a name and its value or values.
    public struct Parameter: Sendable, Hashable {
        /// The parameter's name, before encoding.
        public var name: String
        /// The parameter's value or values, before encoding.
        public var value: QueryValue
    }

    /// The parameters, in the order they are written.
    public private(set) var parameters: [Parameter]

    /// Parameters in a literal's order: `["q": "cats", "page": 2]`.
    public init(dictionaryLiteral elements: (String, QueryValue)...) {
        parameters = elements.map { Parameter(name: $0.0, value: $0.1) }
    }

    /// Parameters from a dictionary, ordered by key so the URL is the same on every run.
    public init(_ dictionary: [String: QueryValue]) {
        parameters = dictionary.sorted { $0.key < $1.key }.map { Parameter(name: $0.key, value: $0.value) }
    }

    /// Parameters in the order given.
    public init(_ pairs: some Sequence<(String, QueryValue)>) {
        parameters = pairs.map { Parameter(name: $0.0, value: $0.1) }
    }

    /// The parameters in order.
    public func makeIterator() -> IndexingIterator<[Parameter]> { parameters.makeIterator() }

    /// Whether there are no parameters.
    public var isEmpty: Bool { parameters.isEmpty }

    /// Merges these parameters into a query string (without `?`), RFC 3986-encoding names and
    /// values.
    ///
    /// Pairs of the existing query keep their order and exact spelling; a name given here
    /// replaces all of that name's existing pairs at the place of the first one; new names
    /// follow in order. A list value repeats the name (`tag=a&tag=b`).
    package func merged(intoQuery query: some StringProtocol) -> String {
        var pending = parameters
        var output: [String] = []
        for pair in query.split(separator: "&") {
            let rawName = pair.prefix { $0 != "=" }
            let name = PercentEncoding.decode(rawName, plusAsSpace: true) ?? String(rawName)
            if let index = pending.firstIndex(where: { $0.name == name }) {
                output.append(contentsOf: Self.encodedPairs(pending.remove(at: index)))
            } else if !parameters.contains(where: { $0.name == name }) {
                output.append(String(pair))
            }
        }
        for parameter in pending {
            output.append(contentsOf: Self.encodedPairs(parameter))
        }
        return output.joined(separator: "&")
    }

    private static func encodedPairs(_ parameter: Parameter) -> [String] {
        let name = PercentEncoding.encode(parameter.name)
        return parameter.value.values.map { "\(name)=\(PercentEncoding.encode($0))" }
    }
}

extension String {
    /// This URL string with `parameters` merged into its query, before any `#fragment`.
    ///
    /// ```swift
    /// print("/hello/?key2=value2".mergingQueryParameters(["key1": "value1"]))
    /// // "/hello/?key2=value2&key1=value1"
    /// ```
    package func mergingQueryParameters(_ parameters: QueryParameters) -> String {
        guard !parameters.isEmpty else { return self }
        let fragmentStart = firstIndex(of: "#") ?? endIndex
        let beforeFragment = self[..<fragmentStart]
        let fragment = self[fragmentStart...]
        let queryStart = beforeFragment.firstIndex(of: "?")
        let base = queryStart.map { beforeFragment[..<$0] } ?? beforeFragment
        let query = queryStart.map { beforeFragment[beforeFragment.index(after: $0)...] } ?? ""
        return "\(base)?\(parameters.merged(intoQuery: query))\(fragment)"
    }
}

extension URL {
    /// This URL with `parameters` merged into its query; see
    /// `String.mergingQueryParameters(_:)` for the rules.
    package func mergingQueryParameters(_ parameters: QueryParameters) -> URL {
        URL(encodingIfNeeded: absoluteString.mergingQueryParameters(parameters)) ?? self
    }
}
