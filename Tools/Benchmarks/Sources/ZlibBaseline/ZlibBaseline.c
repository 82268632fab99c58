#include <zlib.h>
#include <string.h>
#include "ZlibBaseline.h"

long zlib_baseline_gunzip(const unsigned char *input, size_t input_length, unsigned char *out, size_t out_capacity) {
    z_stream stream;
    memset(&stream, 0, sizeof stream);
    if (inflateInit2(&stream, 15 + 16) != Z_OK) return -1;
    stream.next_in = (Bytef *)input;
    stream.avail_in = (uInt)input_length;
    stream.next_out = out;
    stream.avail_out = (uInt)out_capacity;
    int code = inflate(&stream, Z_FINISH);
    long length = code == Z_STREAM_END ? (long)stream.total_out : -1;
    inflateEnd(&stream);
    return length;
}
