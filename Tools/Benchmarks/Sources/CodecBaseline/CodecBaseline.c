#include <brotli/decode.h>
#include <brotli/encode.h>
#include <zstd.h>
#include "CodecBaseline.h"

long codec_baseline_brotli_compress(const unsigned char *input, size_t length, unsigned char *out, size_t capacity) {
    size_t size = capacity;
    if (!BrotliEncoderCompress(5, BROTLI_DEFAULT_WINDOW, BROTLI_MODE_GENERIC, length, input, &size, out)) return -1;
    return (long)size;
}

long codec_baseline_brotli_decompress(const unsigned char *input, size_t length, unsigned char *out, size_t capacity) {
    size_t size = capacity;
    return BrotliDecoderDecompress(length, input, &size, out) == BROTLI_DECODER_RESULT_SUCCESS ? (long)size : -1;
}

long codec_baseline_zstd_compress(const unsigned char *input, size_t length, unsigned char *out, size_t capacity) {
    size_t size = ZSTD_compress(out, capacity, input, length, 3);
    return ZSTD_isError(size) ? -1 : (long)size;
}

long codec_baseline_zstd_decompress(const unsigned char *input, size_t length, unsigned char *out, size_t capacity) {
    size_t size = ZSTD_decompress(out, capacity, input, length);
    return ZSTD_isError(size) ? -1 : (long)size;
}
