/// Turns an ``Image``'s bytes into what an application draws with — pixels, a texture, a
/// platform image. This module decodes nothing by itself; plug a decoder in with
/// ``ImageCache/image(for:priority:decoder:)``, which keeps what it made in memory under the
/// decoder's ``identifier``, so that a hit runs no decoder.
///
/// ```swift
/// let images = try ImageCache(configuration: .init())
/// struct PixelsDecoder: ImageDecoder {
///     func decode(_ image: Image) throws -> Pixels { try Pixels(decoding: image.data) }
/// }
/// let pixels = try await images.image(for: url, decoder: PixelsDecoder())
/// ```
public protocol ImageDecoder<Output>: Sendable {
    /// What the decoder makes: pixels, a texture, a platform image.
    associatedtype Output: Sendable
    /// Decodes `image`.
    ///
    /// - Throws: whatever the decoder finds wrong with the data.
    func decode(_ image: Image) async throws -> Output

    /// What tells this decoder's outputs from another's in the cache: its type's name unless
    /// given. Give one that includes the settings when two decoders of a type differ (a
    /// thumbnail's size).
    var identifier: String { get }

    /// What `output` costs in memory, in bytes: four bytes a pixel of `image` unless given.
    func cost(of output: Output, decodedFrom image: Image) -> Int
}

extension ImageDecoder {
    public var identifier: String { String(reflecting: Self.self) }

    public func cost(of output: Output, decodedFrom image: Image) -> Int {
        // A header may state any size: the product is bounded, not trusted to fit.
        image.pixelSize.map { Int(min(Double($0.width) * Double($0.height) * 4, Double(Int.max / 2))) } ?? image.data.count
    }
}
