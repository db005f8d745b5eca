/*
 * The view stack: the main screen at the bottom, overlays and full-screen views pushed
 * above it. It reaches each view's open and close through m->view_table (explorer.c sets
 * it), never by name, so the views that push and pop others link against this file alone.
 */
#include <stdlib.h>

#include "model.h"

const struct tui_view *tui_view_get(const struct tui_model *m, enum tui_view_id id)
{
	if (m->view_table == NULL || (int)id < 0 || id >= TUI_VIEW_COUNT)
		return NULL;
	return &m->view_table[id];
}

enum tui_view_id tui_view_top(const struct tui_model *m)
{
	return m->n_views > 0 ? m->views[m->n_views - 1] : TUI_VIEW_MAIN;
}

int tui_view_push(struct tui_model *m, enum tui_view_id id)
{
	const struct tui_view *v = tui_view_get(m, id);

	if (v == NULL || m->n_views >= TUI_VIEW_STACK)
		return -1;
	if (v->open != NULL && v->open(m) != 0)
		return -1;
	m->views[m->n_views++] = id;
	return 0;
}

void tui_view_pop(struct tui_model *m)
{
	enum tui_view_id id;
	const struct tui_view *v;

	if (m->n_views <= 1)
		return;
	id = m->views[m->n_views - 1];
	v = tui_view_get(m, id);
	m->n_views--;
	if (v != NULL && v->close != NULL)
		v->close(m);
	/* a view without a close of its own keeps one calloc'ed block there: freed here */
	free(m->view_state[id]);
	m->view_state[id] = NULL;
}

bool tui_view_common_key(struct tui_model *m, int key, int own)
{
	if (key == TUI_KEY_ESC || key == 'q' || key == own) {
		tui_view_pop(m);
		return true;
	}
	if (key == '?' || key == TUI_KEY_F1) {
		m->scroll = 0;
		tui_view_push(m, TUI_VIEW_HELP);
		return true;
	}
	return false;
}
