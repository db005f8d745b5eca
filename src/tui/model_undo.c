/*
 * The explorer's undo (`u`): a bounded history of the scenarios before each change the
 * user made (a knob stepped or typed, a model or GPU picked, a lesson started or left, a
 * file opened). The oldest entry gives way when the history is full. This file only
 * records; bringing an entry back (tui_undo) is an action, in model_actions.c, since it
 * evaluates the scenario again. Pure: no ncurses.
 */
#include <stdio.h>
#include <string.h>

#include "model.h"

void tui_undo_push(struct tui_model *m, const struct engine_scenario *before, const char *what)
{
	struct tui_undo_entry *e;

	if (m->n_undo == TUI_UNDO_MAX) {
		memmove(&m->undo[0], &m->undo[1], sizeof m->undo[0] * (TUI_UNDO_MAX - 1));
		m->n_undo--;
	}
	e = &m->undo[m->n_undo++];
	e->sc = *before;
	snprintf(e->what, sizeof e->what, "%s", what);
}

/* Whether two scenarios hold the same knobs (memcmp would see padding and stale bytes). */
static bool same_scenario(const struct engine_scenario *a, const struct engine_scenario *b)
{
	size_t n, i;
	const struct engine_knob *k = engine_knobs(&n);

	for (i = 0; i < n; i++) {
		char x[256], y[256];
		engine_knob_format(a, &k[i], x, sizeof x);
		engine_knob_format(b, &k[i], y, sizeof y);
		if (strcmp(x, y) != 0)
			return false;
	}
	return strcmp(a->model.name, b->model.name) == 0 && strcmp(a->gpu.name, b->gpu.name) == 0;
}

void tui_undo_note(struct tui_model *m, const struct engine_scenario *before, const char *what)
{
	if (!same_scenario(before, &m->sc))
		tui_undo_push(m, before, what);
}
