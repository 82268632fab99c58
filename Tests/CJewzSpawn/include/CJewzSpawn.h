#ifndef CJEWZ_SPAWN_H
#define CJEWZ_SPAWN_H

#include <spawn.h>

// glibc's GNU extensions the suite's process launcher needs; Swift's Glibc module is built
// without _GNU_SOURCE, so it does not declare them.

/// Closes every descriptor from `from` up in the child (glibc 2.34).
int cjewz_spawn_add_close_from(posix_spawn_file_actions_t *actions, int from);

/// Changes the child's working directory before it executes (glibc 2.29).
int cjewz_spawn_add_change_directory(posix_spawn_file_actions_t *actions, const char *path);

/// Makes a pipe whose two ends are closed on exec.
int cjewz_pipe_closed_on_exec(int descriptors[2]);

#endif
