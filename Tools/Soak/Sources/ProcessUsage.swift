import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// The process's resident memory and open descriptors, read from `/proc/self`.
struct ProcessUsage: Sendable {
    var residentBytes: Int
    var openDescriptors: Int

    /// Resident memory is read after the allocator returns its free pages (`malloc_trim`): what
    /// it keeps cached for reuse depends on the bodies in flight a moment before, and would read
    /// as growth or shrinkage; memory still in use stays resident, so a leak still shows.
    static func now() -> ProcessUsage {
        #if canImport(Glibc)
        // Looked up, as Glibc's Swift module does not show <malloc.h>.
        if let program = dlopen(nil, RTLD_NOW) {
            defer { dlclose(program) }
            if let trim = dlsym(program, "malloc_trim") {
                _ = unsafeBitCast(trim, to: (@convention(c) (Int) -> Int32).self)(0)
            }
        }
        #endif
        let pageSize = Int(sysconf(Int32(_SC_PAGESIZE)))
        let statm = (try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8)) ?? ""
        let resident = statm.split(separator: " ").dropFirst().first.flatMap { Int($0) } ?? 0
        let descriptors = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd"))?.count ?? 0
        return ProcessUsage(residentBytes: resident * pageSize, openDescriptors: descriptors)
    }
}

/// How much a measure grew over a run: the median of the last third of the samples after the
/// warm-up against that of the first third after it (thirds, so that the bodies in flight at
/// one moment do not decide).
struct Growth: Sendable {
    let start: Double
    let end: Double

    /// - Parameter warmUp: how many of the first samples are left out.
    init(_ samples: [Double], warmUp: Int) {
        let warm = Array(samples.dropFirst(warmUp))
        let window = max(1, warm.count / 3)
        start = Self.median(warm.prefix(window))
        end = Self.median(warm.suffix(window))
    }

    /// The end over the start, minus one: 0.05 is 5% more.
    var ratio: Double { start > 0 ? end / start - 1 : 0 }

    private static func median(_ values: some Collection<Double>) -> Double {
        let sorted = values.sorted()
        return sorted.isEmpty ? 0 : sorted[sorted.count / 2]
    }
}
