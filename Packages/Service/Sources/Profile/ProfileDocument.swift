import Foundation
import Yams

/// Parses a profile file's bytes into a tree of dictionaries, arrays and scalars, whatever its
/// syntax: a property list (XML or binary), JSON, or YAML (OpenAPI documents mostly are).
/// A profile may come from a server (``ServiceProfile/fetch(from:session:)``), so the tree is
/// bounded: YAML aliases count as the copies they stand for, and nesting is limited.
enum ProfileDocument {
    /// The deepest nesting a document may have.
    static let maximumDepth = 256

    /// - Throws: ``ServiceError/Code/unreadableProfile`` for bytes in none of those syntaxes,
    ///   or a YAML document past the limits.
    static func tree(of data: Data) throws(ServiceError) -> Any {
        let head = data.prefix(512)
        if head.starts(with: Array("bplist".utf8)) || head.range(of: Data("<plist".utf8)) != nil
            || head.range(of: Data("<!DOCTYPE plist".utf8)) != nil
        {
            do { return try PropertyListTree.parse(data) } catch {
                throw ServiceError.unreadableProfile("property list", reason(error))
            }
        }
        if let json = try? JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed]) { return json }
        guard let text = String(data: data, encoding: .utf8) else {
            throw ServiceError.unreadableProfile("document", "neither UTF-8 text nor a binary property list")
        }
        let node: Node?
        do { node = try Yams.compose(yaml: text) } catch {
            throw ServiceError.unreadableProfile("document", "neither JSON, YAML nor a property list: \(brief(error))")
        }
        guard let node else { throw ServiceError.unreadableProfile("document", "it is empty") }
        // Every value takes a byte of the text at least, unless aliases repeat it: a document
        // of a few lines can alias its way to a billion values (the "billion laughs"), so the
        // walk may visit as many values as the text has bytes, which no document without such
        // aliases reaches, and stays linear in the input.
        var budget = max(text.utf8.count, 64)
        return try value(of: node, budget: &budget, depth: 0, limit: budget, scalars: scalarConstructor())
    }

    /// `node` as dictionaries, arrays and scalars, each value (an alias's too) taken from `budget`.
    private static func value(
        of node: Node, budget: inout Int, depth: Int, limit: Int, scalars: Constructor
    ) throws(ServiceError) -> Any {
        budget -= 1
        guard budget >= 0 else {
            throw ServiceError.unreadableProfile("document", "its aliases expand it past \(limit) values, more than its \(limit) bytes could hold")
        }
        guard depth < maximumDepth else {
            throw ServiceError.unreadableProfile("document", "it nests deeper than \(maximumDepth) levels")
        }
        switch node {
        case .mapping(let mapping):
            var dictionary: [String: Any] = [:]
            for (key, item) in mapping {
                // Only scalar keys: Yams's constructor traps on a key that is a list or a mapping.
                guard let name = key.string else {
                    let line = key.mark.map { " at line \($0.line)" } ?? ""
                    throw ServiceError.unreadableProfile("document", "a mapping key\(line) is a list or a mapping; profiles take names")
                }
                dictionary[name] = try value(of: item, budget: &budget, depth: depth + 1, limit: limit, scalars: scalars)
            }
            return dictionary
        case .sequence(let sequence):
            var array: [Any] = []
            for item in sequence {
                array.append(try value(of: item, budget: &budget, depth: depth + 1, limit: limit, scalars: scalars))
            }
            return array
        case .scalar:
            return scalars.any(from: node)
        case .alias:
            // Yams resolves aliases while composing; one left over names no anchor.
            throw ServiceError.unreadableProfile("document", "an alias names no anchor")
        }
    }

    /// Yams's constructor, but for integers written in YAML 1.1's base 60 (`1:30:00`): Yams
    /// multiplies those without checking for overflow, so `+333333:3:33:3:33:3:3:3:3` trapped
    /// (found by ProfileFuzzer). YAML 1.2, which OpenAPI 3.1 names, has no base 60: such a
    /// value stays text.
    private static func scalarConstructor() -> Constructor {
        var map = Constructor.defaultScalarMap
        map[.int] = { scalar in scalar.string.contains(":") ? nil : Int.construct(from: scalar) }
        return Constructor(map)
    }

    /// What a decoder's error says of the bytes: its own description and its parser's (which
    /// names the line), not the generic "isn't in the correct format".
    private static func reason(_ error: any Error) -> String {
        guard case DecodingError.dataCorrupted(let context) = error else { return brief(error) }
        let underlying = (context.underlyingError as? NSError)?.userInfo[NSDebugDescriptionErrorKey] as? String
        return [context.debugDescription, underlying].compactMap { $0 }.joined(separator: ": ")
    }

    /// A YAML error's first two lines, without the document it quotes (which may be huge).
    private static func brief(_ error: any Error) -> String {
        let text = "\(error)".split(separator: "\n").prefix(2).joined(separator: ": ")
        return text.count > 300 ? text.prefix(300) + "…" : text
    }
}
