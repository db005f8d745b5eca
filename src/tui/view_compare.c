/*
 * The compare view (view_trade.h): the scenario on several GPUs side by side, one column
 * each, every figure in rows (the report's own, per GPU or for the job as the row says);
 * the best of each row is marked ✓ and every column after the first shows its difference
 * from the first. The first column is the scenario as it is; `a` adds a column through
 * the GPU picker (the pick is taken as a column, and the scenario and undo are left as
 * they were), `d` drops the last. Each column is the scenario with that GPU, adapted and
 * evaluated in full, as `napkin compare --gpu A,B` gives it.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tradeoff.h"
#include "view_trade.h"

#define COLS 6

/* the rows: a result by its report key; better: +1 higher, -1 lower */
static const struct {
	const char *key, *label;
	int better;
} rows[] = {
	{"memory.total", "memory per GPU", -1},     {"memory.headroom", "headroom per GPU", 1},
	{"memory.fits", "fits", 1},                 {"memory.max_batch", "largest micro-batch", 1},
	{"compute.step_seconds", "step time", -1},  {"compute.mfu", "MFU", 1},
	{"compute.tokens_per_s", "tokens/s (job)", 1}, {"compute.train_days", "training days", -1},
	{"compute.gpu_hours", "GPU-hours (job)", -1}, {"compute.cost", "cost (job)", -1},
	{"inference.decode_tokens_per_s", "decode tokens/s (job)", 1},
};
#define NROWS (int)(sizeof rows / sizeof rows[0])

struct compare_view {
	struct engine_gpu gpu[COLS]; /* the added columns (the first is the scenario's own) */
	int n;
	bool picking;
	struct engine_scenario before;
	struct tui_undo_entry undo[TUI_UNDO_MAX];
	int n_undo;
};

static struct compare_view *state(struct tui_model *m)
{
	return m->view_state[TUI_VIEW_COMPARE];
}

int tui_compare_open(struct tui_model *m)
{
	struct compare_view *v = calloc(1, sizeof *v);

	if (v == NULL)
		return -1;
	m->view_state[TUI_VIEW_COMPARE] = v;
	return 0;
}

void tui_compare_close(struct tui_model *m)
{
	free(state(m));
	m->view_state[TUI_VIEW_COMPARE] = NULL;
}

/* After the picker: its pick becomes a column; the scenario and undo are as before. */
static void take_pick(struct tui_model *m, struct compare_view *v, uint64_t now)
{
	if (!v->picking || tui_view_top(m) != TUI_VIEW_COMPARE)
		return;
	v->picking = false;
	{
		char a[256], b[256];
		const struct engine_knob *g = engine_knob_find("gpu");
		engine_knob_format(&m->sc, g, a, sizeof a);
		engine_knob_format(&v->before, g, b, sizeof b);
		if (strcmp(a, b) == 0)
			return; /* nothing picked */
	}
	if (v->n < COLS)
		v->gpu[v->n++] = m->sc.gpu;
	m->sc = v->before;
	memcpy(m->undo, v->undo, sizeof m->undo);
	m->n_undo = v->n_undo;
	tui_model_evaluate(m, now);
	tui_model_message(m, false, "added %s as a column (the scenario is unchanged)", v->gpu[v->n - 1].name);
}

unsigned tui_compare_key(struct tui_model *m, const struct tui_event *ev, uint64_t now)
{
	struct compare_view *v = state(m);

	if (v == NULL)
		return TUI_REACT_NONE;
	take_pick(m, v, now);
	switch (ev->key) {
	case TUI_KEY_ESC: case 'q': case 'C':
		tui_view_pop(m);
		return TUI_REACT_REDRAW;
	case '?': case TUI_KEY_F1:
		m->scroll = 0;
		tui_view_push(m, TUI_VIEW_HELP);
		return TUI_REACT_REDRAW;
	case 'a': case 'g':
		if (v->n >= COLS) {
			tui_model_message(m, true, "at most %d columns besides the scenario's (d drops one)", COLS);
			return TUI_REACT_REDRAW;
		}
		v->before = m->sc;
		memcpy(v->undo, m->undo, sizeof v->undo);
		v->n_undo = m->n_undo;
		v->picking = true;
		tui_model_open_picker(m, engine_knob_find("gpu"));
		return TUI_REACT_REDRAW;
	case 'd':
		if (v->n > 0)
			v->n--;
		return TUI_REACT_REDRAW;
	default:
		return TUI_REACT_NONE;
	}
}

void tui_compare_draw(struct tui_model *m, struct tui_canvas *c, uint64_t now)
{
	struct compare_view *v = state(m);
	struct engine_scenario sc[COLS + 1];
	static struct engine_result res[COLS + 1];
	bool ok[COLS + 1];
	char buf[400], err_col[COLS + 1][120];
	int ncol, i, r, lw = 22, cw, shown;

	if (v == NULL)
		return;
	take_pick(m, v, now);
	ncol = v->n + 1;
	for (i = 0; i < ncol; i++) {
		struct napkin_err err;
		sc[i] = v->picking ? v->before : m->sc;
		if (i > 0) {
			sc[i].gpu = v->gpu[i - 1];
			engine_knob_mark_given(&sc[i], engine_knob_find("gpu"), true);
			engine_adapt(&sc[i], NULL);
		}
		util_err_clear(&err);
		ok[i] = engine_validate(&sc[i], &err) == NAPKIN_OK && engine_evaluate(&sc[i], &res[i], &err) == NAPKIN_OK;
		util_strlcpy(err_col[i], err.msg, sizeof err_col[i]);
	}
	engine_scenario_summary(&sc[0], buf, sizeof buf);
	tui_paint_view_header(c, m->w, " Compare: ");
	tui_canvas_text(c, 10, 0, m->w - 10, buf, TUI_S_HEADER);
	cw = ncol > 0 ? (m->w - lw) / ncol : 0;
	if (cw > 24)
		cw = 24;
	if (cw < 12)
		cw = 12;
	shown = (m->w - lw) / cw;
	if (shown > ncol)
		shown = ncol;
	for (i = 0; i < shown; i++)
		tui_canvas_text_right(c, lw + (i + 1) * cw - 1, 2, cw - 1, sc[i].gpu.name, i == 0 ? TUI_S_TITLE_FOCUS : TUI_S_TITLE);
	tui_canvas_text(c, 1, 2, lw - 1, "per GPU / job", TUI_S_LABEL);
	for (r = 0; r < NROWS && 3 + r < m->h - 4; r++) {
		struct engine_metric mt;
		struct napkin_err err;
		double val[COLS + 1], best = NAN;
		bool differ = false;
		for (i = 0; i <= COLS; i++)
			val[i] = NAN;
		util_err_clear(&err);
		if (engine_metric_find(rows[r].key, &mt, &err) != NAPKIN_OK)
			continue;
		tui_canvas_text(c, 1, 3 + r, lw - 1, rows[r].label, TUI_S_LABEL);
		for (i = 0; i < ncol; i++) {
			val[i] = ok[i] ? engine_metric_value(&res[i], &mt) : NAN;
			if (isfinite(val[i]) && (isnan(best) || (rows[r].better > 0 ? val[i] > best : val[i] < best)))
				best = val[i];
			if (i > 0 && val[i] != val[0])
				differ = true;
		}
		for (i = 0; i < shown; i++) {
			char cell[64], d[32] = "";
			bool is_best = differ && isfinite(val[i]) && val[i] == best; /* none when all agree */
			tui_paint_metric_cell(&mt, val[i], cell, sizeof cell);
			if (i > 0 && isfinite(val[i]) && isfinite(val[0]) && val[0] != 0.0 && mt.kind != ENGINE_METRIC_FITS &&
			    val[i] != val[0])
				snprintf(d, sizeof d, " %+.0f%%", (val[i] - val[0]) / fabs(val[0]) * 100.0);
			snprintf(buf, sizeof buf, "%s%s%s", cell, d, is_best ? " \xe2\x9c\x93" : "  ");
			tui_canvas_text_right(c, lw + (i + 1) * cw - 1, 3 + r, cw - 1, buf,
					      is_best ? TUI_S_GOOD : (mt.kind == ENGINE_METRIC_FITS && val[i] < 0.5) ? TUI_S_BAD
												      : TUI_S_VALUE);
		}
	}
	for (i = 0; i < ncol; i++)
		if (!ok[i]) {
			snprintf(buf, sizeof buf, " %s: %s", sc[i].gpu.name, err_col[i]);
			tui_canvas_text(c, 0, m->h - 4, m->w, buf, TUI_S_ERROR_MSG);
			break;
		}
	snprintf(buf, sizeof buf, " \xe2\x9c\x93 best of the row; %% against the first column (the scenario's GPU)%s",
		 shown < ncol ? "; wider for more columns" : "");
	tui_canvas_text(c, 0, m->h - 3, m->w, buf, TUI_S_DIM);
}
