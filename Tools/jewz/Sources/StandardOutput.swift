import Foundation

/// Writes to standard output and standard error with every error handled, as a Unix tool must:
/// a reader that went away (`jewz … | head -c 1`) ends jewz at once and quietly, as SIGPIPE
/// ends curl's and cat's neighbours; any other failure (a full disk) says so and exits with
/// ``JewzExit/outputFailed``. Nothing here traps, as Foundation's `FileHandle.write(_:)` does.
enum StandardOutput {
    /// Writes `data` whole to standard output.
    static func write(_ data: Data) {
        data.withUnsafeBytes { write($0, to: STDOUT_FILENO) }
    }

    /// Writes `text` as UTF-8 to standard output, as it is.
    static func write(_ text: String) {
        var text = text
        text.withUTF8 { write(UnsafeRawBufferPointer($0), to: STDOUT_FILENO) }
    }

    /// Writes `text` to standard error; a failure there has nowhere to be told, and is ignored.
    static func writeError(_ text: String) {
        var text = text
        text.withUTF8 { bytes in
            var rest = UnsafeRawBufferPointer(bytes)
            while !rest.isEmpty {
                let written = Foundation.write(STDERR_FILENO, rest.baseAddress, rest.count)
                if written < 0, errno == EINTR { continue }
                guard written > 0 else { return }
                rest = UnsafeRawBufferPointer(rebasing: rest[written...])
            }
        }
    }

    private static func write(_ bytes: UnsafeRawBufferPointer, to descriptor: Int32) {
        var rest = bytes
        while !rest.isEmpty {
            let written = Foundation.write(descriptor, rest.baseAddress, rest.count)
            if written >= 0 {
                rest = UnsafeRawBufferPointer(rebasing: rest[written...])
            } else if errno != EINTR {
                fail(errno: errno)
            }
        }
    }

    /// Ends the process for a write that failed with `errno`.
    private static func fail(errno failure: Int32) -> Never {
        if failure == EPIPE {
            // As if the signal had not been ignored (SwiftNIO ignores it): the shell sees 141
            // and says nothing, as for any tool whose reader has gone.
            signal(SIGPIPE, SIG_DFL)
            raise(SIGPIPE)
        }
        writeError("jewz: cannot write the output: \(String(cString: strerror(failure))); check the disk or where the output goes.\n")
        exit(JewzExit.outputFailed.rawValue)
    }
}

/// Writes `text` and a line break to standard output (``StandardOutput``).
func printLine(_ text: String = "") {
    StandardOutput.write(text + "\n")
}
