/*
 * The view-model's input: moving the focus between knobs, panes and rows, the mouse, and
 * the main screen's keys turned into actions (see model.h), and each event handed to the
 * top view through the view table (a key that opens a view is found there too). Pure: no
 * ncurses, no clock.
 */
#include <stdlib.h>
#include <string.h>

#include "i18n.h"
#include "model.h"

/* ---------------------------------------------------------------- focus movement */

static void focus_pane(struct tui_model *m, enum tui_pane p)
{
	m->pane = p;
	if (p != TUI_PANE_KNOBS && p != TUI_PANE_MEMORY && m->slot != p) {
		m->slot = p;
		tui_model_set_size(m, m->w, m->h);
	}
	if (p != TUI_PANE_KNOBS) {
		int n = tui_model_n_items(m, p);
		if (m->item[p] >= n)
			m->item[p] = n > 0 ? n - 1 : 0;
	}
}

/* The pane next to the focused one in direction (dx, dy), by geometry; -1 if none. */
static int neighbour(const struct tui_model *m, int dx, int dy)
{
	struct tui_rect a = m->layout.pane[m->pane];
	int best = -1, bestd = 1 << 30, p;

	for (p = 0; p < TUI_PANE_COUNT; p++) {
		struct tui_rect b = m->layout.pane[p];
		int d;
		if (p == (int)m->pane || !m->layout.shown[p])
			continue;
		if (dx > 0 && !(b.x >= a.x + a.w && b.y < a.y + a.h && b.y + b.h > a.y))
			continue;
		if (dx < 0 && !(b.x + b.w <= a.x && b.y < a.y + a.h && b.y + b.h > a.y))
			continue;
		if (dy > 0 && !(b.y >= a.y + a.h && b.x < a.x + a.w && b.x + b.w > a.x))
			continue;
		if (dy < 0 && !(b.y + b.h <= a.y && b.x < a.x + a.w && b.x + b.w > a.x))
			continue;
		d = dx ? abs(b.x - a.x) * 4 + abs(b.y - a.y) : abs(b.y - a.y) * 4 + abs(b.x - a.x);
		if (d < bestd) {
			bestd = d;
			best = p;
		}
	}
	return best;
}

static void move_pane_h(struct tui_model *m, int dir)
{
	int p = neighbour(m, dir, 0);

	if (p < 0 && m->layout.tabbed && m->pane >= TUI_PANE_COMPUTE) {
		p = (int)m->pane + dir;
		if (p < TUI_PANE_COMPUTE)
			p = TUI_PANE_KNOBS;
		if (p >= TUI_PANE_COUNT)
			p = -1;
	}
	if (p >= 0)
		focus_pane(m, (enum tui_pane)p);
}

static void next_pane(struct tui_model *m, int dir)
{
	const struct engine_knob *list[TUI_KNOBS_MAX];
	int n = tui_model_knobs_shown(m, list, TUI_KNOBS_MAX), i, g; /* as the pane lists them (a filter on) */

	if (m->pane == TUI_PANE_KNOBS && n > 0 && m->knob != NULL) {
		i = tui_model_knob_index(m, m->knob, list, n);
		if (i < 0)
			i = 0;
		g = (int)list[i]->group;
		if (dir > 0) {
			for (; i < n; i++)
				if ((int)list[i]->group != g) {
					m->knob = list[i];
					return;
				}
			focus_pane(m, TUI_PANE_MEMORY);
			return;
		}
		/* back: the first knob of the previous group (from the first group: the last pane) */
		while (i > 0 && (int)list[i - 1]->group == g)
			i--;
		if (i == 0) {
			focus_pane(m, TUI_PANE_DTYPES);
			return;
		}
		i--;
		g = (int)list[i]->group;
		while (i > 0 && (int)list[i - 1]->group == g)
			i--;
		m->knob = list[i];
		return;
	}
	if (dir > 0) {
		if (m->pane + 1 >= TUI_PANE_COUNT) {
			m->pane = TUI_PANE_KNOBS;
			if (n > 0)
				m->knob = list[0];
			return;
		}
		focus_pane(m, (enum tui_pane)(m->pane + 1));
		return;
	}
	if (m->pane == TUI_PANE_MEMORY) {
		m->pane = TUI_PANE_KNOBS;
		for (i = n - 1; i > 0 && list[i - 1]->group == list[n - 1]->group; i--)
			;
		if (n > 0)
			m->knob = list[i];
		return;
	}
	focus_pane(m, (enum tui_pane)(m->pane - 1));
}

static void move_vertical(struct tui_model *m, int delta)
{
	if (m->pane == TUI_PANE_KNOBS) {
		const struct engine_knob *list[TUI_KNOBS_MAX];
		int n = tui_model_knobs_shown(m, list, TUI_KNOBS_MAX), i;
		if (n == 0)
			return;
		i = tui_model_knob_index(m, m->knob, list, n);
		i = i < 0 ? 0 : i + delta;
		if (i < 0)
			i = 0;
		if (i >= n)
			i = n - 1;
		m->knob = list[i];
		return;
	}
	{
		int n = tui_model_n_items(m, m->pane), i = m->item[m->pane] + delta;
		if (i < 0 || i >= n) {
			int p = neighbour(m, 0, delta < 0 ? -1 : 1);
			if (p >= 0 && (delta == 1 || delta == -1)) {
				focus_pane(m, (enum tui_pane)p);
				if (p != TUI_PANE_KNOBS)
					m->item[p] = delta < 0 ? tui_model_n_items(m, (enum tui_pane)p) - 1 : 0;
				return;
			}
			i = i < 0 ? 0 : n - 1;
		}
		m->item[m->pane] = i;
	}
}

/* ---------------------------------------------------------------- the main screen's keys */

static unsigned mouse(struct tui_model *m, const struct tui_event *ev, uint64_t now)
{
	int p, i;

	if (m->layout.too_small)
		return TUI_REACT_NONE;
	if (tui_rect_contains(m->layout.pane[TUI_PANE_KNOBS], ev->x, ev->y)) {
		int row = ev->y - m->hits.knob_y0;
		const struct engine_knob *k = NULL;
		if (row >= 0 && row < m->hits.knob_rows && row < 128)
			k = m->hits.knob_at[row];
		if (k != NULL) {
			m->pane = TUI_PANE_KNOBS;
			m->knob = k;
			if (ev->button == TUI_BTN_WHEEL_UP || ev->button == TUI_BTN_WHEEL_DOWN)
				tui_model_step_knob(m, k, ev->button == TUI_BTN_WHEEL_UP ? 1 : -1, now);
			return TUI_REACT_REDRAW;
		}
		if (ev->button == TUI_BTN_WHEEL_UP || ev->button == TUI_BTN_WHEEL_DOWN) {
			m->pane = TUI_PANE_KNOBS;
			move_vertical(m, ev->button == TUI_BTN_WHEEL_UP ? -1 : 1);
		}
		return TUI_REACT_REDRAW;
	}
	for (p = TUI_PANE_MEMORY; p < TUI_PANE_COUNT; p++) {
		if (!m->layout.shown[p] || !tui_rect_contains(m->layout.pane[p], ev->x, ev->y))
			continue;
		if (ev->button == TUI_BTN_WHEEL_UP || ev->button == TUI_BTN_WHEEL_DOWN) {
			focus_pane(m, (enum tui_pane)p);
			i = m->item[p] + (ev->button == TUI_BTN_WHEEL_UP ? -1 : 1);
			if (i >= 0 && i < tui_model_n_items(m, (enum tui_pane)p))
				m->item[p] = i;
			return TUI_REACT_REDRAW;
		}
		focus_pane(m, (enum tui_pane)p);
		for (i = 0; i < TUI_ITEMS_MAX; i++)
			if (m->hits.item[p][i].w > 0 && tui_rect_contains(m->hits.item[p][i], ev->x, ev->y))
				m->item[p] = i;
		return TUI_REACT_REDRAW;
	}
	return TUI_REACT_NONE;
}

/* The engine's sentences in the result (warnings, the techniques' compared column) again, in
 * the language just chosen: the scenario's translator reads it (docs/i18n.md). Only texts are
 * copied: the numbers are the same, and the previous result keeps its deltas. */
static void retranslate(struct tui_model *m)
{
	struct engine_result r;
	struct napkin_err err;
	int i;

	util_err_clear(&err);
	if (!m->have_res || engine_evaluate(&m->sc, &r, &err) != NAPKIN_OK)
		return;
	memcpy(m->res.warnings, r.warnings, sizeof r.warnings);
	m->res.n_warnings = r.n_warnings;
	for (i = 0; i < ENGINE_TECH_COUNT; i++)
		memcpy(m->res.techniques[i].compare, r.techniques[i].compare, sizeof r.techniques[i].compare);
}

/* Z: English <-> Chinese, live; what is on the screen is written again in the new language. */
static unsigned switch_lang(struct tui_model *m)
{
	char w[600];

	i18n_set(i18n_get() == I18N_ZH ? I18N_EN : I18N_ZH);
	util_strlcpy(m->lang, i18n_code(i18n_get()), sizeof m->lang); /* lessons opened from now on */
	retranslate(m);
	tui_model_explain_again(m);
	/* TRANSLATORS: the name of the language of this catalogue, shown when Z switches to it */
	tui_model_message(m, false, "%s", _("Language: English"));
	/* what the catalogue could not use (NAPKIN_LOCALEDIR's file refused, a bad translation) */
	if (i18n_warning(i18n_get(), 0, w, sizeof w) != NULL)
		tui_model_message(m, true, "%s", w);
	return TUI_REACT_REDRAW | TUI_REACT_CLEAR;
}

static unsigned main_key(struct tui_model *m, const struct tui_event *ev, uint64_t now)
{
	enum tui_action a;
	int i;
	bool on_knob = m->pane == TUI_PANE_KNOBS && m->knob != NULL;
	int page = m->layout.pane[m->pane].h > 4 ? m->layout.pane[m->pane].h - 3 : 1;

	if (ev->key == TUI_KEY_MOUSE)
		return mouse(m, ev, now);
	a = tui_key_action(ev->key);
	if (a != TUI_ACT_NONE && a != TUI_ACT_QUIT_NOW)
		m->msg[0] = '\0';
	if (a != TUI_ACT_NONE)
		for (i = 0; i < TUI_VIEW_COUNT; i++) { /* a key that opens a view: the view table says which */
			const struct tui_view *v = tui_view_get(m, (enum tui_view_id)i);
			if (v == NULL || v->opened_by != a)
				continue;
			if (v->start != NULL)
				return v->start(m, now);
			tui_view_push(m, (enum tui_view_id)i);
			return TUI_REACT_REDRAW;
		}
	switch (a) {
	case TUI_ACT_QUIT: return tui_model_quit_ask(m);
	case TUI_ACT_QUIT_NOW: m->quit = true; return TUI_REACT_QUIT;
	case TUI_ACT_UP: move_vertical(m, -1); break;
	case TUI_ACT_DOWN: move_vertical(m, 1); break;
	case TUI_ACT_PAGE_UP: move_vertical(m, -page); break;
	case TUI_ACT_PAGE_DOWN: move_vertical(m, page); break;
	case TUI_ACT_HOME: move_vertical(m, -1000); break;
	case TUI_ACT_END: move_vertical(m, 1000); break;
	case TUI_ACT_LEFT:
	case TUI_ACT_RIGHT:
		if (on_knob) {
			tui_model_step_knob(m, m->knob, a == TUI_ACT_RIGHT ? 1 : -1, now);
			return TUI_REACT_REDRAW | TUI_REACT_EVAL;
		}
		move_pane_h(m, a == TUI_ACT_RIGHT ? 1 : -1);
		break;
	case TUI_ACT_INC:
	case TUI_ACT_DEC:
		if (on_knob) {
			tui_model_step_knob(m, m->knob, a == TUI_ACT_INC ? 1 : -1, now);
			return TUI_REACT_REDRAW | TUI_REACT_EVAL;
		}
		tui_model_message(m, false, "%s", _("focus a knob to step it (Tab to the knobs)"));
		break;
	case TUI_ACT_PANE_LEFT: move_pane_h(m, -1); break;
	case TUI_ACT_PANE_RIGHT: move_pane_h(m, 1); break;
	case TUI_ACT_NEXT_PANE: next_pane(m, 1); break;
	case TUI_ACT_PREV_PANE: next_pane(m, -1); break;
	case TUI_ACT_EDIT:
		if (on_knob) {
			if (m->knob->type == ENGINE_KNOB_NAME)
				tui_model_open_picker(m, m->knob);
			else
				tui_model_open_prompt(m, TUI_PROMPT_KNOB, m->knob);
		} else {
			tui_model_explain(m);
		}
		break;
	case TUI_ACT_EXPLAIN: tui_model_explain(m); break;
	case TUI_ACT_BASELINE: tui_model_toggle_baseline(m); break;
	case TUI_ACT_UNDO: return tui_undo(m, now);
	case TUI_ACT_SAVE: tui_model_open_prompt(m, TUI_PROMPT_SAVE, NULL); break;
	case TUI_ACT_OPEN: tui_model_open_prompt(m, TUI_PROMPT_OPEN, NULL); break;
	case TUI_ACT_PICK_MODEL: tui_model_open_picker(m, engine_knob_find("model")); break;
	case TUI_ACT_PICK_GPU: tui_model_open_picker(m, engine_knob_find("gpu")); break;
	case TUI_ACT_MODE: {
		const struct engine_knob *k = engine_knob_find("mode");
		tui_model_step_knob(m, k, 1, now);
		tui_model_set_size(m, m->w, m->h);
		return TUI_REACT_REDRAW | TUI_REACT_EVAL;
	}
	case TUI_ACT_REDRAW: return TUI_REACT_REDRAW | TUI_REACT_CLEAR;
	case TUI_ACT_LANG: return switch_lang(m);
	case TUI_ACT_FIGURE: return tui_figure_main(m);
	case TUI_ACT_FILTER: return tui_knob_filter_start(m);
	default:
		/* Esc on the main screen drops a kept knob filter (htop's filter, F4 then Esc) */
		if (ev->key == TUI_KEY_ESC && tui_knob_filter_on(m)) {
			tui_knob_filter_clear(m);
			return TUI_REACT_REDRAW;
		}
		return TUI_REACT_NONE;
	}
	return TUI_REACT_REDRAW;
}

unsigned tui_model_event(struct tui_model *m, const struct tui_event *ev, uint64_t now)
{
	const struct tui_view *v;
	unsigned flags;
	int warn = m->res.n_warnings;

	if (ev->key == TUI_KEY_RESIZE) {
		/* a resized terminal may hold what ncurses no longer knows (tmux reflows or clears
		 * its grid): repaint every cell, not the difference from the last frame, so a storm
		 * of resizes cannot leave a stale or blank region */
		tui_model_set_size(m, m->w, m->h);
		return TUI_REACT_REDRAW | TUI_REACT_CLEAR;
	}
	if (ev->key == TUI_KEY_CTRL_C) {
		m->quit = true;
		m->interrupted = true;
		return TUI_REACT_QUIT;
	}
	/* the knob filter's line takes every key while it is open; the arrows move in the list it
	 * leaves, a click ends the typing and lands where it would */
	if (m->knob_filter_typing) {
		switch (ev->key) {
		case TUI_KEY_UP: move_vertical(m, -1); return TUI_REACT_REDRAW;
		case TUI_KEY_DOWN: move_vertical(m, 1); return TUI_REACT_REDRAW;
		case TUI_KEY_PGUP: move_vertical(m, -(m->layout.pane[TUI_PANE_KNOBS].h - 3)); return TUI_REACT_REDRAW;
		case TUI_KEY_PGDN: move_vertical(m, m->layout.pane[TUI_PANE_KNOBS].h - 3); return TUI_REACT_REDRAW;
		case TUI_KEY_HOME: move_vertical(m, -1000); return TUI_REACT_REDRAW;
		case TUI_KEY_END: move_vertical(m, 1000); return TUI_REACT_REDRAW;
		case TUI_KEY_MOUSE: m->knob_filter_typing = false; break;
		default: return tui_knob_filter_key(m, ev->key);
		}
	}
	/* Z also over an explanation or the help (they hold no typing): both are read in the new
	 * language at once */
	if ((tui_view_top(m) == TUI_VIEW_EXPLAIN || tui_view_top(m) == TUI_VIEW_HELP) &&
	    tui_key_action(ev->key) == TUI_ACT_LANG)
		return switch_lang(m);
	v = tui_view_get(m, tui_view_top(m));
	flags = v != NULL && v->key != NULL ? v->key(m, ev, now) : main_key(m, ev, now);
	if (m->res.n_warnings != warn || (flags & TUI_REACT_EVAL))
		tui_model_set_size(m, m->w, m->h);
	return flags;
}

/* the main view's key function, for the view table */
unsigned tui_main_view_key(struct tui_model *m, const struct tui_event *ev, uint64_t now)
{
	return main_key(m, ev, now);
}
