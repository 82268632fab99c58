// `import Jewzruxin` gives the whole toolkit.
@_exported import JewzAuth
@_exported import JewzBrotli
@_exported import JewzCache
@_exported import JewzEventSource
@_exported import JewzForm
@_exported import JewzGzip
@_exported import JewzHAR
@_exported import JewzHTTPCore
@_exported import JewzImageCache
@_exported import JewzJSON
@_exported import JewzURITemplate
@_exported import JewzXML
@_exported import JewzZstd
@_exported import JewzMultipart
@_exported import JewzService
