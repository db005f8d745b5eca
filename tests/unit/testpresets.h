/* Shared helper of the preset tests: the registry of the built-in presets only. */
#ifndef NAPKIN_TESTPRESETS_H
#define NAPKIN_TESTPRESETS_H

#include "presets.h"

/* The built-in presets alone (no ./presets, no user directory); fails the test with the
 * registry's message when it cannot be made. Free with preset_registry_free. */
struct preset_registry *tp_builtin(void);

#endif
