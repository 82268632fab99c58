import CJewzSpawn
import Foundation
import JewzLocking
#if canImport(Glibc)
import Glibc
#endif

/// A program the suite runs, started by `posix_spawn` with its standard streams on pipes.
///
/// Not Foundation's `Process`: on Linux (swift-corelibs-foundation up to 6.3) its `run()` copies
/// every `/proc/self/fd` entry as a whole 256-byte `dirent`, reading past glibc's buffer, and
/// crashes when that buffer ends at an unmapped page (AddressSanitizer shows it as a
/// heap-buffer-overflow; swiftlang/swift-corelibs-foundation#5472 fixes it upstream). Here the
/// child closes every descriptor above 2 with `addclosefrom`, so no launch reads that directory
/// and two children never hold each other's pipes open.
public final class ChildProcess: Sendable {
    /// How a child ended.
    public enum Termination: Sendable, Equatable {
        case exited(Int32)
        case signalled(Int32)

        /// The status the child exited with; nil when a signal ended it.
        public var exitStatus: Int32? {
            if case .exited(let status) = self { status } else { nil }
        }

        /// The signal that ended the child; nil when it exited.
        public var signal: Int32? {
            if case .signalled(let signal) = self { signal } else { nil }
        }
    }

    /// What a child's standard output and error are connected to.
    public enum ErrorStream: Sendable {
        /// A pipe of its own, read through ``standardError``.
        case separate
        /// The same pipe as standard output.
        case mergedIntoOutput
    }

    public let identifier: pid_t
    /// Nil until the child is reaped; the lock also keeps a signal from reaching a reused pid.
    private let termination = Mutex<Termination?>(nil)
    private let reaped = DispatchGroup()
    /// The write end of the child's standard input; nil when `spawn` was given the input.
    public let standardInput: FileHandle?
    /// The read end of the child's standard output.
    public let standardOutput: FileHandle
    /// The read end of the child's standard error, unless it is merged into standard output.
    public let standardError: FileHandle?

    private init(identifier: pid_t, input: FileHandle?, output: FileHandle, error: FileHandle?) {
        self.identifier = identifier
        standardInput = input
        standardOutput = output
        standardError = error
        reaped.enter()
        onOwnThread { [self] in reap() }
    }

    /// Starts `executable` with `arguments`, in `directory` if one is given.
    ///
    /// - Parameters:
    ///   - environment: the whole environment of the child.
    ///   - input: all of the child's standard input, if the caller has it up front. Up to a
    ///     pipe's capacity it is in the pipe before the child starts, so a child that waits
    ///     only a moment for piped input (as `jewz` does) always finds it.
    /// - Throws: `POSIXError` when the pipes cannot be made or the program cannot be started
    ///   (a missing executable).
    public static func spawn(
        _ executable: String, arguments: [String], environment: [String: String], directory: String? = nil,
        errorStream: ErrorStream = .separate, input given: Data? = nil
    ) throws -> ChildProcess {
        let input = try PipeEnds.make()
        let output = try PipeEnds.make()
        let error = errorStream == .separate ? try PipeEnds.make() : nil

        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, input.read, STDIN_FILENO)
        posix_spawn_file_actions_adddup2(&actions, output.write, STDOUT_FILENO)
        posix_spawn_file_actions_adddup2(&actions, error?.write ?? output.write, STDERR_FILENO)
        cjewz_spawn_add_close_from(&actions, STDERR_FILENO + 1)
        if let directory {
            cjewz_spawn_add_change_directory(&actions, directory)
        }

        let prefilled = given.map { $0.count <= pipeCapacity } ?? false
        if prefilled, let given {
            _ = given.withUnsafeBytes { write(input.write, $0.baseAddress, $0.count) }
        }

        var identifier: pid_t = 0
        let argv = [executable] + arguments
        let envp = environment.map { "\($0.key)=\($0.value)" }
        let status = withCStrings(argv) { argv in
            withCStrings(envp) { envp in posix_spawn(&identifier, executable, &actions, nil, argv, envp) }
        }
        // The child has its own copies; the parent keeps only its ends.
        for descriptor in [input.read, output.write, error?.write].compactMap({ $0 }) {
            close(descriptor)
        }
        guard status == 0 else {
            for descriptor in [input.write, output.read, error?.read].compactMap({ $0 }) {
                close(descriptor)
            }
            throw POSIXError(POSIXErrorCode(rawValue: status) ?? .EIO)
        }
        let inputHandle = FileHandle(fileDescriptor: input.write, closeOnDealloc: true)
        if let given {
            // A larger input is written beside the child, which reads it as it goes.
            onOwnThread {
                if !prefilled { try? inputHandle.write(contentsOf: given) }
                try? inputHandle.close()
            }
        }
        return ChildProcess(
            identifier: identifier,
            input: given == nil ? inputHandle : nil,
            output: FileHandle(fileDescriptor: output.read, closeOnDealloc: true),
            error: error.map { FileHandle(fileDescriptor: $0.read, closeOnDealloc: true) })
    }

    /// Sends `signal` to the child, unless it has already been reaped.
    public func send(_ signal: Int32) {
        termination.withLock { termination in
            if termination == nil { kill(identifier, signal) }
        }
    }

    /// Whether the child has ended and been reaped; does not block.
    public var hasExited: Bool {
        termination.withLock { $0 != nil }
    }

    /// Blocks until the child ends, and says how it did.
    public func waitForExit() -> Termination {
        reaped.wait()
        return termination.withLock { $0 } ?? .exited(-1)
    }

    /// Reaps the child as soon as it ends, on a thread of its own: Swift Testing watches every
    /// child of the test process with `waitid(WNOWAIT)` and spins while one is left a zombie.
    private func reap() {
        defer { reaped.leave() }
        // Waiting without reaping first keeps the pid ours until `termination` is set.
        var info = siginfo_t()
        while waitid(P_PID, id_t(identifier), &info, WEXITED | WNOWAIT) == -1 {
            guard errno == EINTR else { return }
        }
        termination.withLock { termination in
            var status: Int32 = 0
            while waitpid(identifier, &status, 0) == -1 {
                guard errno == EINTR else { termination = .exited(-1); return }
            }
            // The <sys/wait.h> macros are not imported into Swift; these are their definitions.
            let signal = status & 0x7F
            termination = signal == 0 ? .exited((status >> 8) & 0xFF) : .signalled(signal)
        }
    }
}

/// How much a Linux pipe holds before a write blocks (its default size).
private let pipeCapacity = 64 << 10

/// A pipe's two descriptors, both closed on exec so that no other child inherits them.
private struct PipeEnds {
    var read: Int32
    var write: Int32

    static func make() throws -> PipeEnds {
        var descriptors: [Int32] = [0, 0]
        guard cjewz_pipe_closed_on_exec(&descriptors) == 0 else {
            throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO)
        }
        return PipeEnds(read: descriptors[0], write: descriptors[1])
    }
}

/// Calls `body` with `strings` as a NULL-terminated array of C strings, valid during the call.
private func withCStrings<R>(_ strings: [String], _ body: ([UnsafeMutablePointer<CChar>?]) -> R) -> R {
    let pointers = strings.map { strdup($0) } + [nil]
    defer { pointers.forEach { free($0) } }
    return body(pointers)
}
