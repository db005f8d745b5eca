/*
 * The compare view (view_trade.h): the scenario at several values of one knob (GPUs by
 * default; k K choose the knob among those on screen) side by side, one column each, every figure in rows (the report's own, per GPU or for the job as the row says);
 * the best of each row is marked ✓ and every column after the first shows its difference
 * from the first. The first column is the scenario as it is; `a` adds a column: for gpu
 * and model through the picker (the pick is taken as a column, and the scenario and undo
 * are left as they were), for any other knob the next notch up from the last column (A:
 * down); `d` drops the last. Each column is the scenario with that value, adapted and
 * evaluated in full, as `napkin compare --KNOB A,B` gives it.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "i18n.h"
#include "tradeoff.h"
#include "view_trade.h"

#define COLS 6

/* the rows: a result by its report key; which way is better is the result table's (the
 * metric's `better`), as napkin compare marks it. Training's, and in mode infer serving's:
 * a training step's time means nothing there, a replica's latencies and throughput do. */
struct compare_row {
	const char *key, *label;
};
static const struct compare_row train_rows[] = {
	{"memory.total", N_("memory per GPU")},     {"memory.headroom", N_("headroom per GPU")},
	{"memory.fits", N_("fits")},                {"memory.max_batch", N_("largest micro-batch")},
	{"compute.step_seconds", N_("step time")},  {"compute.mfu", N_("MFU")},
	{"compute.tokens_per_s", N_("tokens/s (job)")}, {"compute.train_days", N_("training days")},
	{"compute.gpu_hours", N_("GPU-hours (job)")}, {"compute.cost", N_("cost (job)")},
	{"inference.decode_tokens_per_s", N_("decode tokens/s (job)")},
};
static const struct compare_row infer_rows[] = {
	{"memory.total", N_("memory per GPU")},
	{"memory.headroom", N_("headroom per GPU")},
	{"memory.fits", N_("fits")},
	{"inference.max_concurrent", N_("max seqs per replica")},
	{"serving.ttft_seconds", N_("TTFT")},
	{"serving.itl_seconds", N_("ITL")},
	{"serving.e2e_seconds", N_("request time")},
	{"serving.tokens_per_s_gpu", N_("out tokens/s per GPU")},
	{"serving.tokens_per_s_user", N_("tokens/s per user")},
	{"serving.tokens_per_s_job", N_("out tokens/s (job)")},
	{"serving.cost_per_mtok", N_("cost per M tokens")},
};

struct compare_view {
	const struct engine_knob *knob; /* whose values the columns are (gpu by default) */
	char value[COLS][96];           /* the added columns' values, as engine_knob_set text */
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
	v->knob = engine_knob_find("gpu");
	m->view_state[TUI_VIEW_COMPARE] = v;
	return 0;
}

/* gpu and model take their values through the picker; every other knob by its notches */
static bool picked(const struct engine_knob *k)
{
	return strcmp(k->key, "gpu") == 0 || strcmp(k->key, "model") == 0;
}

/* Column i's scenario: the scenario with the knob set to the column's value (marked given,
 * adapted), as `napkin compare --KNOB A,B` builds it from the same flags. Column 0 is the
 * scenario itself. Returns 0 or the error of an invalid column. */
static int column_scenario(const struct tui_model *m, const struct compare_view *v, const struct engine_scenario *base,
			   int i, struct engine_scenario *out, struct napkin_err *err)
{
	int rc;

	*out = *base;
	if (i == 0)
		return NAPKIN_OK;
	rc = engine_knob_set(out, v->knob, v->value[i - 1], m->have_cat ? &m->cat : NULL, err);
	if (rc != NAPKIN_OK)
		return rc;
	engine_adapt(out, NULL);
	return engine_validate(out, err);
}

static void add_value(struct tui_model *m, struct compare_view *v, const char *text)
{
	int i;
	char own[96];

	engine_knob_format(&m->sc, v->knob, own, sizeof own);
	for (i = 0; i < v->n; i++)
		if (strcmp(v->value[i], text) == 0)
			break;
	if (i < v->n || strcmp(own, text) == 0) {
		tui_model_message(m, true, _("%s %s is a column already"), v->knob->key, text);
		return;
	}
	util_strlcpy(v->value[v->n++], text, sizeof v->value[0]);
}

/* After the picker: its pick becomes a column; the scenario and undo are as before. */
static void take_pick(struct tui_model *m, struct compare_view *v, uint64_t now)
{
	char a[96], b[96];

	if (!v->picking || tui_view_top(m) != TUI_VIEW_COMPARE)
		return;
	v->picking = false;
	engine_knob_format(&m->sc, v->knob, a, sizeof a);
	engine_knob_format(&v->before, v->knob, b, sizeof b);
	m->sc = v->before;
	memcpy(m->undo, v->undo, sizeof m->undo);
	m->n_undo = v->n_undo;
	tui_model_evaluate(m, now);
	if (strcmp(a, b) == 0)
		return; /* nothing picked */
	if (v->n < COLS) {
		add_value(m, v, a);
		tui_model_message(m, false, _("added %s %s as a column (the scenario is unchanged)"), v->knob->key, a);
	}
}

/* a / A: the next notch up (down) from the last column, for a knob without a picker */
static void step_value(struct tui_model *m, struct compare_view *v, int dir)
{
	struct engine_scenario t;
	struct napkin_err err;
	char text[96];

	util_err_clear(&err);
	if (column_scenario(m, v, &m->sc, v->n, &t, &err) != NAPKIN_OK) {
		tui_model_message(m, true, "%s", err.msg);
		return;
	}
	util_err_clear(&err);
	if (engine_knob_step(&t, v->knob, dir, m->have_cat ? &m->cat : NULL, &err) != NAPKIN_OK) {
		tui_model_message(m, true, "%s: %s", v->knob->key, err.msg[0] ? err.msg : _("no further value"));
		return;
	}
	engine_knob_format(&t, v->knob, text, sizeof text);
	add_value(m, v, text);
}

/* k / K: the next (previous) knob for the columns: the knobs on screen that take values */
static void next_knob(struct tui_model *m, struct compare_view *v, int dir)
{
	const struct engine_knob *ks[TUI_KNOBS_MAX];
	int nk = tui_model_knobs(m, ks, TUI_KNOBS_MAX), at = -1, i;

	for (i = 0; i < nk; i++)
		if (ks[i] == v->knob)
			at = i;
	for (i = 1; i <= nk; i++) {
		const struct engine_knob *k = ks[((at < 0 ? 0 : at) + (dir > 0 ? i : nk * 2 - i)) % nk];
		if (k->type != ENGINE_KNOB_NAME || picked(k)) {
			v->knob = k;
			v->n = 0; /* the columns were another knob's values */
			return;
		}
	}
}

unsigned tui_compare_key(struct tui_model *m, const struct tui_event *ev, uint64_t now)
{
	struct compare_view *v = state(m);

	if (v == NULL)
		return TUI_REACT_NONE;
	take_pick(m, v, now);
	m->msg[0] = '\0'; /* the last key's message goes with the next key */
	if (tui_view_common_key(m, ev->key, 'C'))
		return TUI_REACT_REDRAW;
	switch (ev->key) {
	case 'k': case 'K':
		next_knob(m, v, ev->key == 'k' ? 1 : -1);
		return TUI_REACT_REDRAW;
	case 'a': case 'A': case 'g':
		if (v->n >= COLS) {
			tui_model_message(m, true, _("at most %d columns besides the scenario's (d drops one)"), COLS);
			return TUI_REACT_REDRAW;
		}
		if (!picked(v->knob)) {
			step_value(m, v, ev->key == 'A' ? -1 : 1);
			return TUI_REACT_REDRAW;
		}
		v->before = m->sc;
		memcpy(v->undo, m->undo, sizeof v->undo);
		v->n_undo = m->n_undo;
		v->picking = true;
		tui_model_open_picker(m, v->knob);
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
	static const struct {
		const struct compare_row *row;
		int n;
	} sets[2] = {
		{train_rows, (int)(sizeof train_rows / sizeof train_rows[0])},
		{infer_rows, (int)(sizeof infer_rows / sizeof infer_rows[0])},
	};
	const struct compare_row *rows = sets[m->sc.mode == ENGINE_MODE_INFER].row;
	int nrows = sets[m->sc.mode == ENGINE_MODE_INFER].n;

	if (v == NULL)
		return;
	take_pick(m, v, now);
	ncol = v->n + 1;
	for (i = 0; i < ncol; i++) {
		struct napkin_err err;
		util_err_clear(&err);
		ok[i] = column_scenario(m, v, v->picking ? &v->before : &m->sc, i, &sc[i], &err) == NAPKIN_OK &&
			engine_validate(&sc[i], &err) == NAPKIN_OK && engine_evaluate(&sc[i], &res[i], &err) == NAPKIN_OK;
		util_strlcpy(err_col[i], err.msg, sizeof err_col[i]);
	}
	engine_scenario_summary(&sc[0], buf, sizeof buf);
	tui_paint_view_header(c, m->w, _(" Compare: "));
	{
		int hx = tui_utf8_width(_(" Compare: "));
		tui_canvas_text(c, hx, 0, m->w - hx, buf, TUI_S_HEADER);
	}
	cw = ncol > 0 ? (m->w - lw) / ncol : 0;
	if (cw > 24)
		cw = 24;
	if (cw < 12)
		cw = 12;
	shown = (m->w - lw) / cw;
	if (shown > ncol)
		shown = ncol;
	snprintf(buf, sizeof buf,
		 picked(v->knob) ? _(" columns (k K): %s (a picks one)   a adds a column, d drops one")
				 : _(" columns (k K): %s   a A (a notch up, down) adds a column, d drops one"),
		 v->knob->key);
	tui_canvas_text(c, 0, 1, m->w, buf, TUI_S_LABEL);
	for (i = 0; i < shown; i++) {
		char head[96];
		if (strcmp(v->knob->key, "gpu") == 0)
			util_strlcpy(head, sc[i].gpu.name, sizeof head);
		else if (strcmp(v->knob->key, "model") == 0)
			util_strlcpy(head, sc[i].model.name, sizeof head);
		else {
			char d[64];
			engine_knob_display(&sc[i], v->knob, d, sizeof d);
			snprintf(head, sizeof head, "%s %s", v->knob->key, d);
		}
		tui_canvas_text_right(c, lw + (i + 1) * cw - 1, 2, cw - 1, head, i == 0 ? TUI_S_TITLE_FOCUS : TUI_S_TITLE);
	}
	tui_canvas_text(c, 1, 2, lw - 1, _("per GPU / job"), TUI_S_LABEL);
	for (r = 0; r < nrows && 3 + r < m->h - 4; r++) {
		struct engine_metric mt;
		struct napkin_err err;
		double val[COLS + 1], best = NAN;
		char text[COLS + 1][64], best_text[64] = "";
		bool can[COLS + 1], run;
		int ncan = 0, nbest = 0;
		for (i = 0; i <= COLS; i++)
			val[i] = NAN;
		util_err_clear(&err);
		if (engine_metric_find(rows[r].key, &mt, &err) != NAPKIN_OK)
			continue;
		tui_canvas_text(c, 1, 3 + r, lw - 1, _(rows[r].label), TUI_S_LABEL);
		/* the best: of the columns that can have it (valid; for a time or a rate, fitting
		 * too: a layout that does not fit does not run), where the figure has a better
		 * side, and not when every such column prints the same */
		run = engine_metric_of_run(&mt);
		for (i = 0; i < ncol; i++) {
			val[i] = ok[i] ? engine_metric_value(&res[i], &mt) : NAN;
			tui_paint_metric_cell(&mt, val[i], text[i], sizeof text[i]);
			can[i] = isfinite(val[i]) && (!run || res[i].memory.fits);
			if (!can[i])
				continue;
			ncan++;
			if (mt.better != ENGINE_BETTER_NEITHER &&
			    (isnan(best) || (mt.better == ENGINE_BETTER_HIGHER ? val[i] > best : val[i] < best))) {
				best = val[i];
				util_strlcpy(best_text, text[i], sizeof best_text);
			}
		}
		for (i = 0; i < ncol; i++)
			nbest += can[i] && strcmp(text[i], best_text) == 0;
		for (i = 0; i < shown; i++) {
			char cell[64], d[32] = "";
			bool is_best = can[i] && mt.better != ENGINE_BETTER_NEITHER && nbest < ncan &&
				       strcmp(text[i], best_text) == 0;
			util_strlcpy(cell, text[i], sizeof cell);
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
			snprintf(buf, sizeof buf, _(" column %d: %s"), i + 1, err_col[i]);
			tui_canvas_text(c, 0, m->h - 4, m->w, buf, TUI_S_ERROR_MSG);
			break;
		}
	snprintf(buf, sizeof buf,
		 shown < ncol ? _(" \xe2\x9c\x93 best of the row; %% against the first column (the scenario's %s); wider for more columns")
			      : _(" \xe2\x9c\x93 best of the row; %% against the first column (the scenario's %s)"),
		 v->knob->key);
	tui_canvas_text(c, 0, m->h - 3, m->w, buf, TUI_S_DIM);
}
