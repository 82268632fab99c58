import Foundation
import JewzLocking

/// The bytes of a stream gathered in memory as it is read, up to a limit: past it nothing is
/// kept. How a store in memory takes a streamed body, and how a streamed `206` is kept as a piece.
final class BoundedGathering: Sendable {
    /// The most gathered from one stream for a store: a body larger than this streams past.
    static let memoryLimit = 8 << 20

    private let limit: Int
    /// The bytes so far; `nil` once past the limit, or taken.
    private let bytes = Mutex<Data?>(Data())

    init(limit: Int = BoundedGathering.memoryLimit) {
        self.limit = limit
    }

    func append(_ chunk: UnsafeRawBufferPointer) {
        bytes.withLock { bytes in
            guard let count = bytes?.count else { return }
            if count + chunk.count > limit { bytes = nil } else { bytes?.append(contentsOf: chunk) }
        }
    }

    /// All that was gathered, once; `nil` when the stream passed the limit.
    func take() -> Data? {
        bytes.withLock { bytes in
            defer { bytes = nil }
            return bytes
        }
    }
}
