/*
 * The main screen's frame, drawn from the view-model into the canvas: the header, the
 * footer and the warnings, and the whole screen put together: the panes (draw_knobs.c,
 * draw_memory.c, draw_compute.c, draw_tables.c, roofline.c) and the views on the stack,
 * reached through the view table. The helpers the panes share are in paint.c. Pure.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "draw.h"
#include "i18n.h"

#define DOT "\xc2\xb7"

/* ---------------------------------------------------------------- header, footer, status */

static void draw_header(struct tui_model *m, struct tui_canvas *c)
{
	struct tui_rect r = m->layout.header;
	char sum[256], right[200], a[40], b[40], t[48];
	int rw;

	tui_canvas_fill(c, r, ' ', TUI_S_HEADER);
	engine_scenario_summary(&m->sc, sum, sizeof sum);
	if (m->have_res) {
		tui_draw_bytes(m->res.memory.total, a, sizeof a);
		tui_draw_bytes(m->res.memory.capacity, b, sizeof b);
		if (m->sc.mode == ENGINE_MODE_TRAIN && tui_model_hidden(m, "compute.train_days"))
			snprintf(t, sizeof t, "?"); /* a lesson's quiz asks for it: shown once answered */
		else if (m->sc.mode == ENGINE_MODE_TRAIN)
			engine_fmt_seconds_tr(m->res.compute.train_seconds, m->sc.tr, t, sizeof t);
		else
			/* with an engine, the steady state's output rate (the report's `output` line),
			 * not the bound of one static batch */
			engine_unit_format(ENGINE_UNIT_TOKENS_PER_S,
					   m->sc.serve_engine != ENGINE_SERVE_NONE ? m->res.serving.tokens_per_s_job
										    : m->res.inference.decode_tokens_per_s,
					   t, sizeof t);
		if (r.w >= 110)
			/* TRANSLATORS: the header's right end: [baseline], used / capacity, the verdict, a time or rate */
			snprintf(right, sizeof right, _("%s%s / %s %s \xc2\xb7 %s%s "), m->baseline ? _("[baseline] ") : "", a,
				 b, m->res.memory.fits ? _("fits") : _("OVER"), t,
				 m->sc.mode == ENGINE_MODE_TRAIN ? _(" to train") : _(" decode, job"));
		else {
			/* "54.83/79.65 GiB": the unit once when both share it */
			const char *ua = strchr(a, ' '), *ub = strchr(b, ' ');
			if (ua != NULL && ub != NULL && strcmp(ua, ub) == 0)
				a[ua - a] = '\0';
			/* flush with the right edge: the column it saves keeps the mode in the scenario */
			snprintf(right, sizeof right, "%s%s/%s %s " DOT " %s", m->baseline ? _("[base] ") : "", a, b,
				 m->res.memory.fits ? _("fits") : _("OVER"), t);
		}
	} else {
		snprintf(right, sizeof right, "%s", _("no result "));
	}
	rw = tui_utf8_width(right);
	/* where the scenario is too long (80 columns), it loses its last parts whole ("· adamw",
	 * "· mixed-bf16") before a word is cut: the model, the GPUs and the mode stay */
	tui_draw_fit_summary(sum, r.w - 10 - rw - 1);
	tui_canvas_text(c, 0, r.y, r.w, " napkin \xe2\x94\x82 ", TUI_S_HEADER);
	tui_canvas_text(c, 10, r.y, r.w - 10 - rw - 1, sum, TUI_S_HEADER);
	if (rw < r.w - 20) {
		int x = r.w - rw;
		tui_canvas_text(c, x, r.y, rw, right, TUI_S_HEADER);
		if (m->have_res && !m->res.memory.fits) {
			/* the verdict word in red */
			const char *over = _("OVER"), *p = strstr(right, over);
			if (p != NULL) {
				char pre[200];
				snprintf(pre, sizeof pre, "%.*s", (int)(p - right), right);
				tui_canvas_text(c, x + tui_utf8_width(pre), r.y, tui_utf8_width(over), over, TUI_S_BAD);
			}
		}
	}
}

static void draw_status(struct tui_model *m, struct tui_canvas *c)
{
	struct tui_rect r = m->layout.status;
	int i, row = 0;
	char line[700];

	if (r.h <= 0)
		return;
	tui_canvas_fill(c, r, ' ', TUI_S_NORMAL);
	if (m->eval_err[0]) {
		snprintf(line, sizeof line, " \xe2\x9a\xa0 %s", m->eval_err);
		tui_canvas_text(c, 0, r.y + row++, r.w, line, TUI_S_BAD);
	}
	for (i = 0; i < m->res.n_warnings && row < r.h; i++) {
		if (row == r.h - 1 && m->res.n_warnings - i > 1)
			snprintf(line, sizeof line, _(" \xe2\x9a\xa0 %s (+%d more: e on Memory)"), _(m->res.warnings[i]),
				 m->res.n_warnings - i - 1);
		else
			snprintf(line, sizeof line, " \xe2\x9a\xa0 %s", _(m->res.warnings[i]));
		tui_canvas_text(c, 0, r.y + row++, r.w, line, !m->res.memory.fits ? TUI_S_BAD : TUI_S_WARN);
	}
}

const char *tui_main_footer(const struct tui_model *m)
{
	if (m->pane == TUI_PANE_KNOBS && m->knob != NULL) {
		if (m->knob->type == ENGINE_KNOB_NAME)
			return _("Enter|pick|\xe2\x86\x91\xe2\x86\x93|knob|Tab|pane|e|explain|c|baseline|u|undo|s|save|o|open|?|help|q|quit");
		return _("\xe2\x86\x90\xe2\x86\x92|step|Enter|type|\xe2\x86\x91\xe2\x86\x93|knob|Tab|pane|e|explain|c|baseline|u|undo|s|save|o|open|?|help|q|quit");
	}
	return _("\xe2\x86\x91\xe2\x86\x93|row|e|explain|Tab|pane|h l|panes|c|baseline|u|undo|m|model|g|GPU|t|train/infer|?|help|q|quit");
}

static void draw_footer(struct tui_model *m, struct tui_canvas *c)
{
	struct tui_rect r = m->layout.footer;
	const struct tui_view *v = tui_view_get(m, tui_view_top(m));

	tui_canvas_fill(c, r, ' ', TUI_S_FOOTER);
	/* a refused value's message is in the input box itself (view_input.c), whole */
	if (m->msg[0] && !(tui_view_top(m) == TUI_VIEW_PROMPT && m->prompt_purpose == TUI_PROMPT_KNOB && m->msg_error)) {
		tui_canvas_fill(c, r, ' ', m->msg_error ? TUI_S_ERROR_MSG : TUI_S_INFO_MSG);
		tui_canvas_text(c, 1, r.y, r.w - 1, m->msg, m->msg_error ? TUI_S_ERROR_MSG : TUI_S_INFO_MSG);
		return;
	}
	if (m->knob_filter_typing)
		/* TRANSLATORS: the footer while the knob filter's line is open: keep the keys and the | */
		tui_paint_keys(c, 1, r.y, r.w - 1,
			       _("type|filter the knobs|Enter|keep it|Esc|clear it|\xe2\x86\x91\xe2\x86\x93|knob|Backspace|delete"));
	else
		tui_paint_keys(c, 1, r.y, r.w - 1, v != NULL && v->footer != NULL ? _(v->footer) : tui_main_footer(m));
}

/* ---------------------------------------------------------------- the whole screen */

static void draw_too_small(struct tui_model *m, struct tui_canvas *c)
{
	char l1[96], l2[96];
	int y = m->h / 2 - 1;

	snprintf(l1, sizeof l1, _("make the terminal at least %d\xc3\x97%d"), TUI_MIN_W, TUI_MIN_H);
	snprintf(l2, sizeof l2, _("(now %d\xc3\x97%d) \xc2\xb7 q quits"), m->w, m->h);
	tui_canvas_text(c, (m->w - tui_utf8_width(l1)) / 2 > 0 ? (m->w - tui_utf8_width(l1)) / 2 : 0, y, m->w, l1,
			TUI_S_WARN);
	tui_canvas_text(c, (m->w - tui_utf8_width(l2)) / 2 > 0 ? (m->w - tui_utf8_width(l2)) / 2 : 0, y + 1, m->w, l2,
			TUI_S_DIM);
}

void tui_draw_main(struct tui_model *m, struct tui_canvas *c, uint64_t now)
{
	tui_canvas_clear(c, TUI_S_NORMAL);
	memset(&m->hits, 0, sizeof m->hits);
	if (m->layout.too_small) {
		draw_too_small(m, c);
		return;
	}
	draw_header(m, c);
	tui_draw_knobs(m, c);
	tui_draw_memory(m, c, now);
	if (m->layout.shown[TUI_PANE_COMPUTE])
		tui_draw_compute(m, c, now);
	if (m->layout.shown[TUI_PANE_ROOFLINE]) {
		tui_pane_box(m, c, TUI_PANE_ROOFLINE, _("(log-log)"));
		if (m->have_res)
			tui_draw_roofline(m, c, tui_rect_inner(m->layout.pane[TUI_PANE_ROOFLINE]));
	}
	if (m->layout.shown[TUI_PANE_TECH])
		tui_draw_techniques(m, c, now);
	if (m->layout.shown[TUI_PANE_DTYPES])
		tui_draw_dtypes(m, c, now);
	draw_status(m, c);
	draw_footer(m, c);
}

/* One pane drawn into r by the function that draws it on the main screen, with the same
 * live numbers: the layout's rectangle for it is r while it draws, then given back. A
 * tall memory pane gets a taller bar, as the projector layout gives it. */
void tui_draw_pane_at(struct tui_model *m, struct tui_canvas *c, enum tui_pane p, struct tui_rect r, uint64_t now)
{
	struct tui_layout saved = m->layout;

	if (r.w <= 2 || r.h <= 2 || (int)p < 0 || p >= TUI_PANE_COUNT)
		return;
	m->layout.pane[p] = r;
	m->layout.shown[p] = true;
	m->layout.tabbed = false; /* no "Tab: more panes" on its border: the other panes are not a Tab away */
	if (p == TUI_PANE_MEMORY) /* the rows the pane has beyond its need with a one-row bar, up to 3 */
		m->layout.bar_rows = r.h - TUI_MEM_ROWS(0) < 1 ? 1 : r.h - TUI_MEM_ROWS(0) > 3 ? 3 : r.h - TUI_MEM_ROWS(0);
	switch (p) {
	case TUI_PANE_KNOBS:
		tui_draw_knobs(m, c);
		break;
	case TUI_PANE_MEMORY:
		tui_draw_memory(m, c, now);
		break;
	case TUI_PANE_COMPUTE:
		tui_draw_compute(m, c, now);
		break;
	case TUI_PANE_ROOFLINE:
		tui_pane_box(m, c, TUI_PANE_ROOFLINE, _("(log-log)"));
		if (m->have_res)
			tui_draw_roofline(m, c, tui_rect_inner(r));
		break;
	case TUI_PANE_TECH:
		tui_draw_techniques(m, c, now);
		break;
	case TUI_PANE_DTYPES:
		tui_draw_dtypes(m, c, now);
		break;
	default:
		break;
	}
	tui_canvas_unclip(c);
	m->layout = saved;
}

void tui_draw(struct tui_model *m, struct tui_canvas *c, uint64_t now)
{
	int i, base = 0;

	m->now = now;
	if (c->w != m->w || c->h != m->h)
		tui_canvas_resize(c, m->w, m->h);
	if (m->layout.too_small) {
		/* no room for any view: ask for a bigger terminal */
		tui_draw_main(m, c, now);
		return;
	}
	/* draw from the top-most full-screen view up */
	for (i = 0; i < m->n_views; i++) {
		const struct tui_view *v = tui_view_get(m, m->views[i]);
		if (v != NULL && v->kind == TUI_VIEW_FULL)
			base = i;
	}
	for (i = base; i < m->n_views; i++) {
		const struct tui_view *v = tui_view_get(m, m->views[i]);
		if (v != NULL && v->draw != NULL) {
			tui_canvas_unclip(c);
			v->draw(m, c, now);
		}
	}
	tui_canvas_unclip(c);
	if (!m->layout.too_small && m->n_views > 1)
		draw_footer(m, c);
}
