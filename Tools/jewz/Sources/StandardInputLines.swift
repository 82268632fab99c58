import Foundation

/// Standard input's lines as an async sequence, read on a thread of their own (a blocking read
/// must not hold one of the few threads tasks run on) one line ahead of the reader: a large
/// file piped in is read as fast as its lines are used, not into memory.
struct StandardInputLines: AsyncSequence {
    typealias Element = String

    struct AsyncIterator: AsyncIteratorProtocol {
        private var lines: AsyncStream<String>.AsyncIterator
        /// Signalled as each line is taken: the reading thread reads the next one then.
        private let taken = DispatchSemaphore(value: 0)

        init() {
            let (stream, continuation) = AsyncStream<String>.makeStream()
            lines = stream.makeAsyncIterator()
            let taken = taken
            Thread {
                while let line = readLine(strippingNewline: true) {
                    continuation.yield(line)
                    taken.wait()
                }
                continuation.finish()
            }.start()
        }

        mutating func next() async -> String? {
            let line = await lines.next()
            if line != nil { taken.signal() }
            return line
        }
    }

    func makeAsyncIterator() -> AsyncIterator { AsyncIterator() }
}
