import Jewzruxin

extension ProcessorRegistry {
    /// A registry holding what `StandardProcessors.install()` registers, apart from the shared
    /// one, so that tests never depend on what another test installed.
    public static func standard() -> ProcessorRegistry {
        let registry = ProcessorRegistry()
        StandardProcessors.install(in: registry, codings: ContentCodingRegistry())
        return registry
    }
}
