import JewzHTTPCore
import JewzZstdLibrary

/// Zstandard (`zstd`, RFC 9659) for HTTP responses, decoded chunk by chunk as they arrive
/// within ``limits``. Register it in a `ContentCodingRegistry` (a session's `contentCodings`; in a program that links the umbrella every new configuration has it) and
/// sessions advertise `zstd` in `Accept-Encoding` — when libzstd loads: without it the
/// decoder is ``isAvailable`` `false`, `zstd` is not advertised, and a `zstd` body a server
/// sends anyway fails with ``/JewzHTTPCore/ContentDecodingError/Code/unavailable``.
///
/// ```swift
/// try session.update { $0.contentCodings.register(HTTPZstdDecoder(), for: HTTPZstdDecoder.codings) }
/// ```
public struct HTTPZstdDecoder: HTTPContentDecoder {
    /// The `Content-Encoding` tokens it decodes.
    public static let codings = ["zstd"]

    /// The file name the system's libzstd is loaded under unless another is given:
    /// `libzstd.so.1` on Linux.
    public static var defaultLibraryName: String { ZstdLibrary.defaultName }

    /// How far a response may inflate.
    public var limits: DecompressionLimits
    private let library: Result<ZstdLibrary, ZstdLibraryUnavailable>

    /// A decoder over the system's libzstd, loaded once per process on first use.
    public init(limits: DecompressionLimits = DecompressionLimits()) {
        self.limits = limits
        library = ZstdLibrary.system
    }

    /// A decoder over the libzstd that the dynamic linker finds under `libraryName`: a file
    /// name searched as the linker searches, or a path.
    public init(limits: DecompressionLimits = DecompressionLimits(), libraryName: String) {
        self.limits = limits
        library = libraryName == ZstdLibrary.defaultName ? ZstdLibrary.system : ZstdLibrary.load(named: libraryName)
    }

    /// Whether libzstd loaded; a registry advertises only available decoders.
    public var isAvailable: Bool {
        if case .success = library { true } else { false }
    }

    /// Why libzstd did not load, with what to install; `nil` when it did.
    public var unavailableReason: String? {
        if case .failure(let unavailable) = library { unavailable.description } else { nil }
    }

    /// A decoder for one response's body.
    public func makeDecoding() -> any HTTPContentDecoding {
        ZstdDecompressor(limits: limits, library: library)
    }
}
