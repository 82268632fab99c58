/// An optional value held in an object of its own, so that where it is absent it takes a
/// pointer's space, and where it is present a copy costs one retain.
@propertyWrapper
struct OutOfLine<Value: Sendable>: Sendable {
    private var box: Boxed<Value>?

    init(wrappedValue: Value?) {
        box = wrappedValue.map(Boxed.init)
    }

    var wrappedValue: Value? {
        get { box?.value }
        set { box = newValue.map(Boxed.init) }
    }

    /// The object holding the value, to share it without copying the value.
    var projectedValue: Boxed<Value>? { box }
}

/// A value in an object of its own: passed on by reference, copied never.
final class Boxed<Value: Sendable>: Sendable {
    let value: Value

    init(_ value: Value) {
        self.value = value
    }
}
