/// The protocol version a response came over, as the transport negotiated it.
public struct HTTPVersion: Sendable, Hashable, CustomStringConvertible {
    public var major: Int
    public var minor: Int

    public init(major: Int, minor: Int) {
        (self.major, self.minor) = (major, minor)
    }

    public static let http1_1 = HTTPVersion(major: 1, minor: 1)
    public static let http2 = HTTPVersion(major: 2, minor: 0)

    /// `HTTP/1.1`, `HTTP/2` (a version without minor revisions drops it, as RFC 9113 writes it).
    public var description: String { major >= 2 && minor == 0 ? "HTTP/\(major)" : "HTTP/\(major).\(minor)" }
}
