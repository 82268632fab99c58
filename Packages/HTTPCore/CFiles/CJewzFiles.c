#define _GNU_SOURCE
#include "CJewzFiles.h"

#include <errno.h>
#include <sys/uio.h>

long jewz_pread_cached(int descriptor, void *buffer, unsigned long count, long long offset) {
#if defined(__linux__) && defined(RWF_NOWAIT)
    struct iovec vector = { buffer, count };
    return preadv2(descriptor, &vector, 1, offset, RWF_NOWAIT);
#else
    (void)descriptor; (void)buffer; (void)count; (void)offset;
    errno = EOPNOTSUPP;
    return -1;
#endif
}
