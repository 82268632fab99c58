import JewzHTTPCore

/// Fills the registries a new configuration starts with, when HTTPCore makes them: HTTPCore
/// calls this C symbol through a weak reference (`CJewzHooks`) with the two values' addresses,
/// so a program that links the umbrella gets the standard parts without a call, and one that
/// does not, links without it.
@_cdecl("jewz_umbrella_register_standard_parts")
package func registerStandardParts(_ processors: UnsafeMutableRawPointer, _ codings: UnsafeMutableRawPointer) {
    StandardProcessors.install(
        in: &processors.assumingMemoryBound(to: ProcessorRegistry.self).pointee,
        codings: &codings.assumingMemoryBound(to: ContentCodingRegistry.self).pointee)
}
