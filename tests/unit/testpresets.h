/* Shared helper of the preset tests: the registry of the built-in presets only. */
#ifndef NAPKIN_TESTPRESETS_H
#define NAPKIN_TESTPRESETS_H

#include "presets.h"

/* The built-in presets alone (no ./presets, no user directory); fails the test with the
 * registry's message when it cannot be made. Free with preset_registry_free. */
struct preset_registry *tp_builtin(void);

/* The default scenario with `model` and `gpu` (preset ids) set through the catalogue, as a
 * user names them; fails the test with the engine's message on a refusal. */
void tp_scenario(struct engine_scenario *sc, const struct engine_catalog *cat, const char *model, const char *gpu);

#endif
