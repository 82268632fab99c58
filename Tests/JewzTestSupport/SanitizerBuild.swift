/// The sanitizer the suite was built for, told by the flag Tools/Sanitizers' commands pass
/// (`-Xswiftc -DJEWZ_TSAN`, `-Xswiftc -DJEWZ_ASAN`).
public enum SanitizerBuild {
    /// How many times its usual memory a process may take: a sanitizer's shadow memory and
    /// allocator grow every process, and the bounds tests hold `jewz` to must grow with them.
    /// Twice still catches a held body, which would be several times the bound.
    #if JEWZ_TSAN || JEWZ_ASAN
    public static let memoryFactor = 2
    #else
    public static let memoryFactor = 1
    #endif
}
