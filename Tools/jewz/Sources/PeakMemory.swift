import Foundation

/// With `JEWZ_REPORT_PEAK_MEMORY` set, `jewz` ends by printing its peak resident memory as the
/// kernel counted it (`VmHWM`), so large transfers can be shown to stream rather than buffer.
enum PeakMemory {
    static func reportAtExitIfAsked() {
        guard ProcessInfo.processInfo.environment["JEWZ_REPORT_PEAK_MEMORY"] != nil else { return }
        atexit {
            guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8),
                let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmHWM:") }),
                let kibibytes = line.split(separator: " ").dropFirst().first.flatMap({ Int($0) })
            else { return }
            StandardOutput.writeError("jewz: peak resident memory \(kibibytes * 1024) bytes\n")
        }
    }
}
