import Jewzruxin

extension ProcessorRegistry {
    /// A registry holding what `StandardProcessors.install(in:codings:)` registers.
    public static func standard() -> ProcessorRegistry {
        var registry = ProcessorRegistry()
        var codings = ContentCodingRegistry()
        StandardProcessors.install(in: &registry, codings: &codings)
        return registry
    }
}
