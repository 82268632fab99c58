import JewzHTTPCore

/// Bounds on gzip and deflate decompression: the limits every content coding shares.
public typealias GzipLimits = DecompressionLimits
