#include "jewz_hooks.h"
#include <stddef.h>

// Defined by the umbrella module Jewzruxin (`StandardProcessors+LinkHook.swift`). Weak, so that
// a program built from single modules links without it and the reference is null: Swift has no
// module initializers, and finding the umbrella by a type's name would break silently on a rename.
extern void jewz_umbrella_register_standard_parts(void *processors, void *codings) __attribute__((weak));

void jewz_register_linked_standard_parts(void *processors, void *codings) {
    if (jewz_umbrella_register_standard_parts != NULL) {
        jewz_umbrella_register_standard_parts(processors, codings);
    }
}
