import Foundation

/// This process's peak resident set size as the kernel counts it (`VmHWM` in
/// `/proc/self/status`), in bytes; `nil` where there is no such file.
public func peakResidentSize() -> Int? {
    guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8),
        let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmHWM:") }),
        let kibibytes = line.split(separator: " ").dropFirst().first.flatMap({ Int($0) })
    else { return nil }
    return kibibytes << 10
}

/// Starts the peak over from the current resident size (Linux: `5` to `/proc/self/clear_refs`),
/// so that a test measures what its own work takes.
public func resetPeakResidentSize() throws {
    try Data("5".utf8).write(to: URL(fileURLWithPath: "/proc/self/clear_refs"))
}
