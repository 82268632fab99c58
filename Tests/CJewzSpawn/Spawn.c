#define _GNU_SOURCE
#include <fcntl.h>
#include <spawn.h>
#include <unistd.h>

#include "CJewzSpawn.h"

int cjewz_spawn_add_close_from(posix_spawn_file_actions_t *actions, int from) {
    return posix_spawn_file_actions_addclosefrom_np(actions, from);
}

int cjewz_spawn_add_change_directory(posix_spawn_file_actions_t *actions, const char *path) {
    return posix_spawn_file_actions_addchdir_np(actions, path);
}

int cjewz_pipe_closed_on_exec(int descriptors[2]) {
    return pipe2(descriptors, O_CLOEXEC);
}
