/// A setting of one call that a module outside HTTPCore declares, read by its middleware from
/// ``HTTPNext/options`` — as a circuit breaker lets one call bypass it, or hedging is turned off
/// for one call. The key is a type, so two modules cannot collide on a name.
///
/// ```swift
/// extension HTTPRequestOptions {
///     /// The tenant a gateway calls for, which its middleware sends as a header.
///     var tenant: String? {
///         get { self[TenantKey.self] }
///         set { self[TenantKey.self] = newValue }
///     }
///
///     private enum TenantKey: HTTPRequestOptionKey {
///         static let defaultValue: String? = nil
///     }
/// }
/// ```
///
/// A middleware reads it as `next.options.tenant`.
public protocol HTTPRequestOptionKey {
    /// What the setting holds.
    associatedtype Value: Sendable
    /// The value of a call whose options do not set it.
    static var defaultValue: Value { get }
}

extension HTTPRequestOptions {
    /// The setting `key` declares: its ``HTTPRequestOptionKey/defaultValue`` until set.
    public subscript<Key: HTTPRequestOptionKey>(key: Key.Type) -> Key.Value {
        get { tuning.wrappedValue?.settings[ObjectIdentifier(key)] as? Key.Value ?? Key.defaultValue }
        set { tune { $0.settings[ObjectIdentifier(key)] = newValue } }
    }
}
