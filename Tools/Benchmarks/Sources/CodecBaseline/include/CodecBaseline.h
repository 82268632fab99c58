#include <stddef.h>

/// Brotli-compresses `input` at quality 5 into `out`; the compressed length, or -1.
long codec_baseline_brotli_compress(const unsigned char *input, size_t length, unsigned char *out, size_t capacity);
/// libbrotli's one-shot decoder into an exact-size buffer: the decoded length, or -1.
long codec_baseline_brotli_decompress(const unsigned char *input, size_t length, unsigned char *out, size_t capacity);
/// zstd-compresses `input` at level 3 into `out`; the compressed length, or -1.
long codec_baseline_zstd_compress(const unsigned char *input, size_t length, unsigned char *out, size_t capacity);
/// libzstd's one-shot ZSTD_decompress into an exact-size buffer: the decoded length, or -1.
long codec_baseline_zstd_decompress(const unsigned char *input, size_t length, unsigned char *out, size_t capacity);
