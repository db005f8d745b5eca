/*
 * The knobs pane: the knobs grouped as a user thinks, scrolled to the focus; under them,
 * where the pane is tall enough, the focused knob's sentence from the knob table, so a
 * short label ("kv heads", "tied emb.") explains itself. With a knob filter (`/`,
 * knob_filter.c) only the knobs that match, the count in the title and the filter's line
 * at the bottom, as htop shows its filter. Pure.
 */
#include <stdio.h>
#include <string.h>

#include "draw.h"
#include "i18n.h"

/* ---------------------------------------------------------------- knobs */

/* The filter's line: "/zero_" while typed, then "/zero" and how to drop it. */
static void draw_filter_line(const struct tui_model *m, struct tui_canvas *c, struct tui_rect r)
{
	char line[96];
	int w;

	snprintf(line, sizeof line, "/%s%s", m->knob_filter, m->knob_filter_typing ? "_" : "");
	tui_canvas_fill(c, r, ' ', m->knob_filter_typing ? TUI_S_INPUT : TUI_S_NORMAL);
	w = tui_canvas_text(c, r.x + 1, r.y, r.w - 2, line, m->knob_filter_typing ? TUI_S_INPUT : TUI_S_VALUE);
	if (!m->knob_filter_typing) {
		/* TRANSLATORS: the knob filter's line once kept: the key that shows every knob again */
		const char *esc = _("Esc: all");
		if (w + 3 + tui_utf8_width(esc) <= r.w - 1)
			tui_canvas_text_right(c, r.x + r.w - 1, r.y, tui_utf8_width(esc), esc, TUI_S_DIM);
	}
}

void tui_draw_knobs(struct tui_model *m, struct tui_canvas *c)
{
	struct tui_rect r = m->layout.pane[TUI_PANE_KNOBS], in = tui_rect_inner(r);
	const struct engine_knob *list[TUI_KNOBS_MAX];
	const struct engine_knob *rows_k[TUI_KNOBS_MAX + ENGINE_GROUP_COUNT] = {NULL};
	int rows_g[TUI_KNOBS_MAX + ENGINE_GROUP_COUNT];
	int n = tui_model_knobs_shown(m, list, TUI_KNOBS_MAX), nrows = 0, i, focus_row = 0, g = -1, y, filter_y = -1;
	bool focused = tui_pane_focused(m, TUI_PANE_KNOBS), filtering = tui_knob_filter_on(m);
	struct tui_rect old, help = tui_rect_make(in.x + 1, in.y + in.h, in.w - 1, 0);
	char title[160];

	/* the filter's line: the last row */
	if (filtering && in.h >= 3) {
		filter_y = in.y + in.h - 1;
		in.h--;
	}
	/* the focused knob's sentence: up to three lines under a rule, the list above it */
	if (m->knob != NULL && m->knob->help != NULL && in.h >= 14 && tui_knob_matches(m->knob, m->knob_filter)) {
		help.h = tui_draw_wrapped(NULL, help, 0, _(m->knob->help), TUI_S_DIM);
		if (help.h > 3)
			help.h = 3;
		help.y = in.y + in.h - help.h;
		in.h -= help.h + 1;
	}

	for (i = 0; i < n; i++) {
		if ((int)list[i]->group != g) {
			g = (int)list[i]->group;
			rows_k[nrows] = NULL;
			rows_g[nrows++] = g;
		}
		if (list[i] == m->knob)
			focus_row = nrows;
		rows_k[nrows] = list[i];
		rows_g[nrows++] = g;
	}
	/* keep the focus (and its heading, when it is the first of a group) on screen */
	if (focus_row - 1 < m->knob_scroll)
		m->knob_scroll = focus_row - 1;
	if (focus_row >= m->knob_scroll + in.h)
		m->knob_scroll = focus_row - in.h + 1;
	if (m->knob_scroll > nrows - in.h)
		m->knob_scroll = nrows - in.h;
	if (m->knob_scroll < 0)
		m->knob_scroll = 0;

	if (filtering) {
		const struct engine_knob *all[TUI_KNOBS_MAX];
		/* TRANSLATORS: the knob pane's title with a filter on: the title, matches, all knobs */
		snprintf(title, sizeof title, _("%s (filter: %d of %d)"), _(tui_pane_title(TUI_PANE_KNOBS)), n,
			 tui_model_knobs(m, all, TUI_KNOBS_MAX));
	} else {
		snprintf(title, sizeof title, "%s", _(tui_pane_title(TUI_PANE_KNOBS)));
	}
	tui_canvas_box(c, r, title, focused ? TUI_S_BORDER_FOCUS : TUI_S_BORDER, focused ? TUI_S_TITLE_FOCUS : TUI_S_TITLE);
	if (m->knob_scroll > 0)
		tui_canvas_put(c, r.x + r.w - 1, in.y, 0x2191, TUI_S_BORDER_FOCUS);
	if (m->knob_scroll + in.h < nrows)
		tui_canvas_put(c, r.x + r.w - 1, in.y + in.h - 1, 0x2193, TUI_S_BORDER_FOCUS);
	old = tui_canvas_clip(c, in);
	m->hits.knob_y0 = in.y;
	m->hits.knob_rows = 0;
	for (y = 0; y < in.h && m->knob_scroll + y < nrows; y++) {
		int ri = m->knob_scroll + y;
		const struct engine_knob *k = rows_k[ri];
		if (y < 128)
			m->hits.knob_at[y] = k;
		m->hits.knob_rows = y + 1;
		if (k == NULL) {
			bool here = m->knob != NULL && (int)m->knob->group == rows_g[ri];
			char head[64];
			snprintf(head, sizeof head, "%s", _(engine_group_name((enum engine_knob_group)rows_g[ri])));
			tui_canvas_fill(c, tui_rect_make(in.x, in.y + y, in.w, 1), 0x2500, TUI_S_BORDER);
			tui_canvas_put(c, in.x + 1, in.y + y, ' ', TUI_S_BORDER);
			{
				int tw = tui_canvas_text(c, in.x + 2, in.y + y, in.w - 4, head,
							 here && focused ? TUI_S_TITLE_FOCUS : TUI_S_GROUP);
				tui_canvas_put(c, in.x + 2 + tw, in.y + y, ' ', TUI_S_BORDER);
			}
			continue;
		}
		{
			char val[128];
			int vw, st_l = TUI_S_LABEL, st_v = TUI_S_VALUE;
			bool sel = k == m->knob;
			engine_knob_display(&m->sc, k, val, sizeof val);
			/* the mode in the header's word (训练 in Chinese, as the header says it); typed
			 * and saved it stays train or infer */
			if (strcmp(k->key, "mode") == 0)
				snprintf(val, sizeof val, "%s",
					 m->sc.mode == ENGINE_MODE_INFER ? C_("knob value", "infer") : C_("knob value", "train"));
			if (k->type == ENGINE_KNOB_NAME)
				snprintf(val + strlen(val), sizeof val - strlen(val), " \xe2\x96\xb8");
			vw = tui_utf8_width(val);
			if (vw > in.w - 6)
				vw = in.w - 6;
			if (sel) {
				st_l = st_v = focused ? TUI_S_SELECTED : TUI_S_VALUE;
				tui_canvas_fill(c, tui_rect_make(in.x, in.y + y, in.w, 1), ' ', st_l);
			}
			tui_canvas_text(c, in.x + 1, in.y + y, in.w - vw - 3, tui_knob_label(k), st_l);
			tui_canvas_text_right(c, in.x + in.w - 1, in.y + y, vw, val, st_v);
		}
	}
	if (filtering && n == 0)
		tui_canvas_text(c, in.x + 1, in.y, in.w - 1, _("no knob matches"), TUI_S_DIM);
	c->clip = old;
	if (filter_y >= 0)
		draw_filter_line(m, c, tui_rect_make(in.x, filter_y, in.w, 1));
	if (help.h > 0) {
		tui_canvas_fill(c, tui_rect_make(in.x, help.y - 1, in.w, 1), 0x2504, TUI_S_BORDER);
		tui_draw_wrapped(c, help, 0, _(m->knob->help), TUI_S_DIM);
	}
}
