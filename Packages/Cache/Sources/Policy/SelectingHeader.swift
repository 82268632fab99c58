import Foundation

/// The values of the request fields a `Vary` names, in a form where values that cannot change
/// the answer compare equal (RFC 9111 §4.1 lets a cache normalise them): white space anywhere
/// but inside a value; for `Accept`, `Accept-Charset`, `Accept-Encoding` and `Accept-Language`
/// also the case of their items, the order of items of equal preference, and an explicit
/// `q=1`. Items are listed by preference, highest first.
enum SelectingHeader {
    /// `value` of the field `name`, normalised; `nil` stays `nil` (the field was not sent).
    static func normalized(_ value: String?, for name: String) -> String? {
        guard let value else { return nil }
        switch name.lowercased() {
        case "accept", "accept-charset", "accept-encoding", "accept-language":
            return preferences(in: value).map(\.text).joined(separator: ",")
        default:
            return value.split(whereSeparator: \.isWhitespace).joined(separator: " ")
                .replacingOccurrences(of: " ,", with: ",").replacingOccurrences(of: ", ", with: ",")
        }
    }

    /// One item of a preference list: its name (`en-us`, `gzip`, `text/html`), its other
    /// parameters and its weight.
    struct Preference: Equatable {
        let item: String
        let parameters: [String]
        let weight: Double

        /// The item as the normalised value writes it.
        var text: String {
            let weightText = weight == 1 ? [] : ["q=" + String(format: "%.3g", weight)]
            return ([item] + parameters + weightText).joined(separator: ";")
        }
    }

    /// The items of a preference list, by weight (highest first), then by name. At most 64
    /// are read: a longer list is a request's own business, not a cache key's.
    static func preferences(in value: String) -> [Preference] {
        let items = value.split(separator: ",").prefix(64).compactMap { member -> Preference? in
            // Empty parts kept: `;q=1` is an item without a name, not an item named `q=1`.
            let parts = member.split(separator: ";", omittingEmptySubsequences: false).map { $0.trimmingCharacters(in: .whitespaces) }
            guard let first = parts.first, !first.isEmpty else { return nil }
            var weight = 1.0
            var parameters: [String] = []
            for parameter in parts.dropFirst() where !parameter.isEmpty {
                let pair = parameter.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
                    .map { $0.trimmingCharacters(in: .whitespaces) }
                let name = pair[0].lowercased()
                if name == "q", pair.count == 2, let q = Double(pair[1]), (0...1).contains(q) {
                    weight = q
                } else {
                    parameters.append(pair.count == 2 ? name + "=" + pair[1] : name)
                }
            }
            return Preference(item: first.lowercased(), parameters: parameters, weight: weight)
        }
        return items.sorted { $0.weight != $1.weight ? $0.weight > $1.weight : $0.item < $1.item }
    }

    /// Whether a response in the language `tag` (its `Content-Language`) is what a request
    /// with `Accept-Language: acceptLanguage` prefers most: one of its ranges of the highest
    /// weight matches the tag (RFC 4647 basic filtering: equal, a prefix ending at a `-`, or `*`).
    static func satisfies(contentLanguage tag: String, acceptLanguage: String) -> Bool {
        let tag = tag.trimmingCharacters(in: .whitespaces).lowercased()
        let ranked = preferences(in: acceptLanguage)
        guard !tag.isEmpty, !tag.contains(","), let top = ranked.first, top.weight > 0 else { return false }
        return ranked.prefix { $0.weight == top.weight }.contains { range in
            range.item == "*" || range.item == tag || tag.hasPrefix(range.item + "-")
        }
    }
}
