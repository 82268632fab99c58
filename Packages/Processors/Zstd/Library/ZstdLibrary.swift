import CZstd

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The libzstd functions the toolkit calls, found at run time in the system's shared library.
///
/// Loading the library instead of linking it means that building needs neither `zstd.h` nor the
/// `libzstd.so` link name (Debian's `libzstd-dev`), which most machines lack although nearly all
/// have the runtime library; a program on a machine without libzstd still runs and does without
/// `zstd`. The library stays loaded for the life of the process.
package struct ZstdLibrary: Sendable {
    /// The file name the dynamic linker finds on Linux (Debian's and most distributions'
    /// `libzstd1` package) and on macOS.
    #if canImport(Darwin)
    package static let defaultName = "libzstd.1.dylib"
    #else
    package static let defaultName = "libzstd.so.1"
    #endif

    /// The library found under ``defaultName``, loaded once, on first use.
    package static let system = load(named: defaultName)

    /// The library the dynamic linker finds under `name`, or why there is none.
    package static func load(named name: String) -> Result<ZstdLibrary, ZstdLibraryUnavailable> {
        do {
            return .success(try ZstdLibrary(named: name))
        } catch {
            return .failure(error)
        }
    }

    /// The name the library was loaded under.
    package let name: String
    package let isError: JewzZstdIsError
    package let errorName: JewzZstdGetErrorName
    package let createDecompressionContext: JewzZstdCreateDCtx
    package let freeDecompressionContext: JewzZstdFreeDCtx
    package let setDecompressionParameter: JewzZstdDCtxSetParameter
    package let decompressStream: JewzZstdDecompressStream
    package let createCompressionContext: JewzZstdCreateCCtx
    package let freeCompressionContext: JewzZstdFreeCCtx
    package let setCompressionParameter: JewzZstdCCtxSetParameter
    package let compressBound: JewzZstdCompressBound
    package let compress: JewzZstdCompress2

    /// Loads the library that the dynamic linker finds under `name` (a file name, searched as
    /// the linker searches, or a path).
    ///
    /// - Throws: ``ZstdLibraryUnavailable`` when no such library loads or it lacks a function
    ///   (versions before 1.4).
    package init(named name: String) throws(ZstdLibraryUnavailable) {
        guard let handle = dlopen(name, RTLD_NOW | RTLD_LOCAL) else {
            throw ZstdLibraryUnavailable(name: name, reason: Self.lastLoaderError())
        }
        func function<Function>(_ symbol: String, as _: Function.Type) throws(ZstdLibraryUnavailable) -> Function {
            guard let address = dlsym(handle, symbol) else {
                dlclose(handle)
                throw ZstdLibraryUnavailable(name: name, reason: "it has no \(symbol): version 1.4 or later is needed")
            }
            return unsafeBitCast(address, to: Function.self)
        }
        self.name = name
        isError = try function("ZSTD_isError", as: JewzZstdIsError.self)
        errorName = try function("ZSTD_getErrorName", as: JewzZstdGetErrorName.self)
        createDecompressionContext = try function("ZSTD_createDCtx", as: JewzZstdCreateDCtx.self)
        freeDecompressionContext = try function("ZSTD_freeDCtx", as: JewzZstdFreeDCtx.self)
        setDecompressionParameter = try function("ZSTD_DCtx_setParameter", as: JewzZstdDCtxSetParameter.self)
        decompressStream = try function("ZSTD_decompressStream", as: JewzZstdDecompressStream.self)
        createCompressionContext = try function("ZSTD_createCCtx", as: JewzZstdCreateCCtx.self)
        freeCompressionContext = try function("ZSTD_freeCCtx", as: JewzZstdFreeCCtx.self)
        setCompressionParameter = try function("ZSTD_CCtx_setParameter", as: JewzZstdCCtxSetParameter.self)
        compressBound = try function("ZSTD_compressBound", as: JewzZstdCompressBound.self)
        compress = try function("ZSTD_compress2", as: JewzZstdCompress2.self)
    }

    /// The library's name for the error `code` returns, when `code` is one.
    package func failure(of code: Int) -> String? {
        guard isError(code) != 0 else { return nil }
        return errorName(code).map { String(cString: $0) } ?? "error \(code)"
    }

    private static func lastLoaderError() -> String {
        dlerror().map { String(cString: $0) } ?? "the dynamic linker gave no reason"
    }
}

/// libzstd could not be loaded: not installed, or too old.
package struct ZstdLibraryUnavailable: Error, Sendable, CustomStringConvertible {
    /// The name it was looked for under.
    package let name: String
    /// The dynamic linker's reason, or the missing function.
    package let reason: String

    package var description: String {
        "libzstd could not be loaded as \(name) (\(reason)); install the zstd runtime library (libzstd1 on Debian and Ubuntu, zstd on Homebrew)"
    }
}
