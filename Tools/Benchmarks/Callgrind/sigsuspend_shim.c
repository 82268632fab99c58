// Preloaded under valgrind 3.19 (Debian 12): its rt_sigsuspend wrapper faults reading the mask
// libdispatch's main thread passes (a Swift async main waits there for ever), which kills
// valgrind itself. The main thread only waits, so pausing instead changes nothing measured.
#include <signal.h>
#include <unistd.h>

int sigsuspend(const sigset_t *mask) {
    (void)mask;
    for (;;) pause();
}
