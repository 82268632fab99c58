/// The protocol version a response came over, as the transport negotiated it.
public struct HTTPVersion: Sendable, Hashable, CustomStringConvertible {
    // A byte each: every response carries a version, and a response past 128 bytes is moved
    // through each stage's async frame by a call to memcpy rather than inline.
    private var majorByte: UInt8
    private var minorByte: UInt8

    /// The major version, 0 to 255.
    public var major: Int {
        get { Int(majorByte) }
        set { majorByte = UInt8(clamping: newValue) }
    }

    /// The minor version, 0 to 255.
    public var minor: Int {
        get { Int(minorByte) }
        set { minorByte = UInt8(clamping: newValue) }
    }

    /// A version; numbers outside 0...255, which no protocol uses, are clamped to that range.
    public init(major: Int, minor: Int) {
        majorByte = UInt8(clamping: major)
        minorByte = UInt8(clamping: minor)
    }

    /// HTTP/1.1 (RFC 9112).
    public static let http1_1 = HTTPVersion(major: 1, minor: 1)
    /// HTTP/2 (RFC 9113).
    public static let http2 = HTTPVersion(major: 2, minor: 0)

    /// `HTTP/1.1`, `HTTP/2` (a version without minor revisions drops it, as RFC 9113 writes it).
    public var description: String { major >= 2 && minor == 0 ? "HTTP/\(major)" : "HTTP/\(major).\(minor)" }
}
