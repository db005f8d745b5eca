/* Shared helpers of the explorer's unit tests (no terminal): a model on the default
 * scenario at a given size, its release, and a search of a drawn canvas. */
#ifndef NAPKIN_TESTTUI_H
#define NAPKIN_TESTTUI_H

#include <stdbool.h>

#include "model.h"

/* A model initialised on engine_scenario_default (dark theme, no registry) sized w × h;
 * fails the test when it cannot start. Release with tt_free_model. */
struct tui_model *tt_new_model(int w, int h);
void tt_free_model(struct tui_model *m);
/* Whether any row of c contains s. */
bool tt_screen_has(const struct tui_canvas *c, const char *s);

#endif
