import Foundation
import Yams

/// Parses a profile file's bytes into a tree of dictionaries, arrays and scalars, whatever its
/// syntax: a property list (XML or binary), JSON, or YAML (OpenAPI documents mostly are).
enum ProfileDocument {
    /// - Throws: ``ServiceError/Code/unreadableProfile`` for bytes in none of those syntaxes.
    static func tree(of data: Data) throws(ServiceError) -> Any {
        let head = data.prefix(512)
        if head.starts(with: Array("bplist".utf8)) || head.range(of: Data("<plist".utf8)) != nil
            || head.range(of: Data("<!DOCTYPE plist".utf8)) != nil
        {
            do { return try PropertyListSerialization.propertyList(from: data, format: nil) } catch {
                throw ServiceError.unreadableProfile("property list", error.localizedDescription)
            }
        }
        if let json = try? JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed]) { return json }
        guard let text = String(data: data, encoding: .utf8) else {
            throw ServiceError.unreadableProfile("document", "neither UTF-8 text nor a binary property list")
        }
        do {
            guard let tree = try Yams.load(yaml: text) else { throw ServiceError.unreadableProfile("document", "it is empty") }
            return tree
        } catch let error as ServiceError {
            throw error
        } catch {
            throw ServiceError.unreadableProfile("document", "neither JSON, YAML nor a property list: \(error)")
        }
    }
}
