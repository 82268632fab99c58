// The part of libzstd's stable ABI (zstd.h, version 1.4 and later) that the toolkit calls,
// declared here so that building needs neither zstd.h nor the libzstd.so link name: the
// library is loaded at run time (JewzZstdLibrary), and a machine with only the runtime
// package builds and runs everything. Layouts and values are those the library documents
// as stable.
#ifndef JEWZ_ZSTD_ABI_H
#define JEWZ_ZSTD_ABI_H

#include <stddef.h>

typedef struct JewzZstdCompressionContext JewzZstdCompressionContext;
typedef struct JewzZstdDecompressionContext JewzZstdDecompressionContext;

/// ZSTD_inBuffer.
typedef struct {
    const void *source;
    size_t size;
    size_t position;
} JewzZstdInput;

/// ZSTD_outBuffer.
typedef struct {
    void *destination;
    size_t size;
    size_t position;
} JewzZstdOutput;

/// ZSTD_cParameter and ZSTD_dParameter values.
enum {
    JewzZstdCompressionLevel = 100,      // ZSTD_c_compressionLevel
    JewzZstdWindowLog = 101,             // ZSTD_c_windowLog
    JewzZstdDecompressionWindowLogMax = 100, // ZSTD_d_windowLogMax
};

typedef unsigned (*JewzZstdIsError)(size_t code);
typedef const char *(*JewzZstdGetErrorName)(size_t code);

typedef JewzZstdDecompressionContext *(*JewzZstdCreateDCtx)(void);
typedef size_t (*JewzZstdFreeDCtx)(JewzZstdDecompressionContext *context);
typedef size_t (*JewzZstdDCtxSetParameter)(JewzZstdDecompressionContext *context, int parameter, int value);
typedef size_t (*JewzZstdDecompressStream)(JewzZstdDecompressionContext *context, JewzZstdOutput *output, JewzZstdInput *input);

typedef JewzZstdCompressionContext *(*JewzZstdCreateCCtx)(void);
typedef size_t (*JewzZstdFreeCCtx)(JewzZstdCompressionContext *context);
typedef size_t (*JewzZstdCCtxSetParameter)(JewzZstdCompressionContext *context, int parameter, int value);
typedef size_t (*JewzZstdCompressBound)(size_t sourceSize);
typedef size_t (*JewzZstdCompress2)(JewzZstdCompressionContext *context, void *destination, size_t capacity, const void *source, size_t sourceSize);

#endif
