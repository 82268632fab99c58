#ifndef CJEWZ_FILES_H
#define CJEWZ_FILES_H

/// Reads up to `count` bytes at `offset` of the file open as `descriptor` if they are in the
/// page cache: the bytes read, or -1 with `errno` EAGAIN when reading them would wait on the
/// disk (Linux's `RWF_NOWAIT`), EOPNOTSUPP where the system cannot tell.
long jewz_pread_cached(int descriptor, void *buffer, unsigned long count, long long offset);

#endif
