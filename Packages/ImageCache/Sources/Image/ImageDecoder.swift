/// Turns an ``Image``'s bytes into what an application draws with — pixels, a texture, a
/// platform image. This module decodes nothing by itself; plug a decoder in with
/// ``ImageCache/image(for:priority:decoder:)``.
///
/// ```swift
/// struct PixelsDecoder: ImageDecoder {
///     func decode(_ image: Image) throws -> Pixels { try Pixels(decoding: image.data) }
/// }
/// let pixels = try await images.image(for: url, decoder: PixelsDecoder())
/// ```
public protocol ImageDecoder<Output>: Sendable {
    associatedtype Output: Sendable
    /// Decodes `image`.
    ///
    /// - Throws: whatever the decoder finds wrong with the data.
    func decode(_ image: Image) async throws -> Output
}
