#include <stddef.h>

/// Inflates a whole gzip member into `out` with a single zlib call: zlib's best case, the
/// baseline the toolkit's decompression is measured against. Returns the decoded length, or -1.
long zlib_baseline_gunzip(const unsigned char *input, size_t input_length, unsigned char *out, size_t out_capacity);
