import Configuration
import Foundation

/// Typed reads of one snapshot of a `ConfigReader`: `nil` for a key the providers do not have,
/// the value when it is of the kind asked for, and otherwise ``SessionConfigurationError``
/// naming the key — where `ConfigReader` itself would quietly answer `nil`.
struct SettingsReader {
    let snapshot: ConfigSnapshotReader

    /// Whether any provider has a value for `key`, of whatever kind.
    func has(_ key: String) -> Bool {
        text(key, isSecret: true) != nil
    }

    /// The value of `key` as text, whatever its kind: what a change is told by.
    func text(_ key: String, isSecret: Bool) -> String? {
        let key = ConfigKey(key)
        if let value = snapshot.string(forKey: key, isSecret: isSecret) { return value }
        if let value = snapshot.int(forKey: key, isSecret: isSecret) { return String(value) }
        if let value = snapshot.double(forKey: key, isSecret: isSecret) { return String(value) }
        if let value = snapshot.bool(forKey: key, isSecret: isSecret) { return String(value) }
        if let value = snapshot.stringArray(forKey: key, isSecret: isSecret) { return value.joined(separator: "\u{0}") }
        if let value = snapshot.intArray(forKey: key, isSecret: isSecret) { return value.map { "\($0)" }.joined(separator: ",") }
        if let value = snapshot.doubleArray(forKey: key, isSecret: isSecret) { return value.map { "\($0)" }.joined(separator: ",") }
        return snapshot.boolArray(forKey: key, isSecret: isSecret).map { $0.map { "\($0)" }.joined(separator: ",") }
    }

    func string(_ key: String, isSecret: Bool = false) -> String? {
        snapshot.string(forKey: ConfigKey(key), isSecret: isSecret)
    }

    func bool(_ key: String) throws(SessionConfigurationError) -> Bool? {
        if let value = snapshot.bool(forKey: ConfigKey(key)) { return value }
        return try absent(key, expected: "true or false")
    }

    func int(_ key: String, atLeast minimum: Int) throws(SessionConfigurationError) -> Int? {
        if let value = snapshot.int(forKey: ConfigKey(key)) {
            guard value >= minimum else { throw .invalid(key, expected: "a whole number of \(minimum) or more") }
            return value
        }
        return try absent(key, expected: "a whole number of \(minimum) or more")
    }

    func double(_ key: String, in range: ClosedRange<Double>) throws(SessionConfigurationError) -> Double? {
        let expected = "a number from \(range.lowerBound) to \(range.upperBound)"
        // A whole number is a number too, whichever kind the provider keeps it as.
        if let value = snapshot.double(forKey: ConfigKey(key)) ?? snapshot.int(forKey: ConfigKey(key)).map(Double.init) {
            guard range.contains(value) else { throw .invalid(key, expected: expected) }
            return value
        }
        return try absent(key, expected: expected)
    }

    /// A duration given in seconds, such as `2.5`.
    func seconds(_ key: String) throws(SessionConfigurationError) -> Duration? {
        guard let value = try double(key, in: 0...31_536_000) else { return nil }
        return .milliseconds(Int64((value * 1000).rounded()))
    }

    func strings(_ key: String) throws(SessionConfigurationError) -> [String]? {
        if let value = snapshot.stringArray(forKey: ConfigKey(key)) { return value }
        return try absent(key, expected: "a list of strings")
    }

    func ints(_ key: String) throws(SessionConfigurationError) -> [Int]? {
        if let value = snapshot.intArray(forKey: ConfigKey(key)) { return value }
        return try absent(key, expected: "a list of whole numbers")
    }

    func url(_ key: String) throws(SessionConfigurationError) -> URL? {
        guard let text = string(key) else { return nil }
        guard let url = URL(string: text), url.isSendableHTTP else { throw .invalid(key, expected: "an http or https URL") }
        return url
    }

    /// The contents of the file whose path `key` holds.
    func fileContents(_ key: String) throws(SessionConfigurationError) -> String? {
        guard let path = string(key) else { return nil }
        do {
            return try String(contentsOfFile: path, encoding: .utf8)
        } catch {
            throw .unreadable(key, because: "\(path): \((error as NSError).localizedDescription)")
        }
    }

    /// `nil` for a key no provider has; for one that has a value of another kind, the error.
    private func absent<Value>(_ key: String, expected: String) throws(SessionConfigurationError) -> Value? {
        guard !has(key) else { throw .invalid(key, expected: expected) }
        return nil
    }
}
