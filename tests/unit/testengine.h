/* Shared helpers of the engine's unit tests: set a knob as a user would type it, and
 * evaluate a scenario; either fails the test with the engine's own message. */
#ifndef NAPKIN_TESTENGINE_H
#define NAPKIN_TESTENGINE_H

#include <stdbool.h>

#include "engine.h"

/* engine_knob_set(sc, key, value) with no catalogue; fails on an unknown key or a refusal. */
void te_set(struct engine_scenario *sc, const char *key, const char *value);
/* engine_evaluate (every result: compute, the solves, the techniques); fails on an error. */
void te_evaluate(const struct engine_scenario *sc, struct engine_result *r);
/* Whether one of r's warnings holds `text`. */
bool te_warned(const struct engine_result *r, const char *text);

#endif
