@_exported import JewzHTTPCore
