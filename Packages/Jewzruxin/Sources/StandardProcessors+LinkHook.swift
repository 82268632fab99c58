import JewzHTTPCore

/// Fills the shared registries with the standard processors and decoders when HTTPCore makes
/// them: HTTPCore calls this C symbol through a weak reference (`CJewzHooks`), so a program that
/// links the umbrella gets them without a call, and one that does not, links without it.
@_cdecl("jewz_umbrella_register_standard_parts")
package func registerStandardParts(_ processors: UnsafeMutableRawPointer, _ codings: UnsafeMutableRawPointer) {
    StandardProcessors.install(
        in: Unmanaged<ProcessorRegistry>.fromOpaque(processors).takeUnretainedValue(),
        codings: Unmanaged<ContentCodingRegistry>.fromOpaque(codings).takeUnretainedValue())
}
