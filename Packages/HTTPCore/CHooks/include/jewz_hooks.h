#ifndef JEWZ_HOOKS_H
#define JEWZ_HOOKS_H

/// Fills the shared processor registry and content-coding registry (passed unretained) with the
/// umbrella module's standard parts, when the program links the umbrella; does nothing otherwise.
void jewz_register_linked_standard_parts(void *processors, void *codings);

#endif
