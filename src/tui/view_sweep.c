/*
 * The sweep view (view_trade.h): one knob along x over its default range (the engine's,
 * engine_range_default, thinned to TUI_SWEEP_POINTS), one to three results on y, each in
 * its own panel with its own axis, drawn in braille (2 x 4 dots a cell, view_sweep_plot.c).
 * Each point is exactly `napkin sweep`'s (engine_sweep_run). For memory the card's
 * capacity is a dashed line and the first point that does not fit is marked x; the
 * scenario's own x is a dotted vertical line. s stacks a result's parts (memory's ten, the
 * step's twelve: engine_metric_parts) as bands, each its glyph and colour, with a legend
 * of their values at the scenario's own x. <- -> move x itself and -/+ step any other knob,
 * both through the model's knob path (so `u` undoes them); the curves are recomputed when
 * the scenario changes (at most TUI_SWEEP_POINTS points, every result at once). Here: the
 * state, the keys and the computation; view_sweep_draw.c draws it.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "i18n.h"
#include "view_sweep_internal.h"

/* from TUI_SWEEP_SERVING on, the serving steady state's (serve_batch.c), as napkin sweep shows
 * over batch in mode infer: its throughput against its latencies */
static const char *const y_keys[TUI_SWEEP_NY] = {
	"memory.total",         "compute.step_seconds",     "compute.mfu",
	"compute.tokens_per_s", "compute.train_days",       "compute.cost",
	"inference.decode_tokens_per_s", "serving.tokens_per_s_gpu", "serving.itl_seconds",
	"serving.ttft_seconds",
};
/* what each is, and whose (the report's own words: per GPU, per step, for the job) */
const char *const tui_sweep_y_labels[TUI_SWEEP_NY] = {
	N_("memory per GPU"), N_("step time (one optimizer step)"), N_("MFU"), N_("tokens/s (the job)"),
	N_("training days (the job)"), N_("cost (the job, price x GPU-hours)"), N_("decode tokens/s (all replicas)"),
	N_("output tokens/s per GPU (serving)"), N_("ITL: time between a user's tokens (serving)"),
	N_("TTFT: time to first token (serving)"),
};

/* a result y can show in this mode: serving's only in mode infer */
static bool y_allowed(const struct engine_scenario *sc, int k)
{
	return k < TUI_SWEEP_SERVING || sc->mode == ENGINE_MODE_INFER;
}

/* The line a result's panel draws across (0: none) and its words: the card's capacity under
 * memory per GPU, the scenario's TTFT and ITL targets under serving's TTFT and ITL. */
double tui_sweep_line(const struct tui_model *m, const struct engine_metric *mt, char *label, size_t n)
{
	char t[64];
	double y = 0.0;

	label[0] = '\0';
	if (strcmp(mt->key, "memory.total") == 0 && m->res.memory.capacity > 0.0) {
		y = m->res.memory.capacity;
		engine_unit_format(ENGINE_UNIT_BYTES, y, t, sizeof t);
		snprintf(label, n, _("capacity %s"), t);
	} else if (m->sc.mode == ENGINE_MODE_INFER && strcmp(mt->key, "serving.itl_seconds") == 0 && m->sc.tpot_slo > 0) {
		y = m->sc.tpot_slo;
		tui_paint_metric_value(mt, y, t, sizeof t);
		snprintf(label, n, _("ITL target %s"), t);
	} else if (m->sc.mode == ENGINE_MODE_INFER && strcmp(mt->key, "serving.ttft_seconds") == 0 && m->sc.ttft_slo > 0) {
		y = m->sc.ttft_slo;
		tui_paint_metric_value(mt, y, t, sizeof t);
		snprintf(label, n, _("TTFT target %s"), t);
	}
	return y;
}

void tui_trade_key(const struct engine_scenario *sc, char *buf, size_t n)
{
	size_t count, i, pos = 0;
	const struct engine_knob *t = engine_knobs(&count);
	char v[256];

	buf[0] = '\0';
	for (i = 0; i < count; i++) {
		engine_knob_format(sc, &t[i], v, sizeof v);
		util_bprintf(buf, n, &pos, "%s=%s;", t[i].key, v);
	}
}

struct sweep_view *tui_sweep_state(struct tui_model *m)
{
	return m->view_state[TUI_VIEW_SWEEP];
}

int tui_sweep_range(const struct engine_scenario *sc, const struct engine_knob *k, size_t max,
		    struct engine_range *r, struct napkin_err *err)
{
	struct engine_range base;
	int rc = engine_range_default(sc, k, &base, err);
	double span;
	size_t thin;

	if (rc != NAPKIN_OK)
		return rc;
	*r = base;
	if (max < 2)
		max = 2;
	/* The range has span = (to - from) / step + 1 points (log(to/from) / log(factor) + 1
	 * geometric; rounding to whole values only drops repeats), counted from the span, not
	 * point by point (batch in inference, where any number fits, spans 10^7). Taking every
	 * thin-th point with thin = ceil(span / max) leaves n <= (span - 1) / thin + 1
	 * <= (span - 1) max / span + 1 < max + 1 points: at most max, in one step. */
	span = base.geometric ? log(base.to / base.from) / log(base.step) + 1.0 : (base.to - base.from) / base.step + 1.0;
	if (!(span > (double)max))
		return NAPKIN_OK;
	thin = (size_t)ceil(span / (double)max);
	r->step = base.geometric ? pow(base.step, (double)thin) : base.step * (double)thin;
	/* the bound holds in exact arithmetic; the end point's tolerance (engine_range_values)
	 * may admit one more: then the range ends at its max-th point */
	if (engine_range_values(r, NULL, 0) > max)
		r->to = r->geometric ? r->from * pow(r->step, (double)(max - 1)) : r->from + (double)(max - 1) * r->step;
	return NAPKIN_OK;
}

/* Number knobs with a default range for this scenario, in table order. */
static bool sweepable(const struct engine_scenario *sc, const struct engine_knob *k)
{
	struct engine_range r;
	struct napkin_err err;

	if (k->type != ENGINE_KNOB_INT && k->type != ENGINE_KNOB_REAL)
		return false;
	if (!engine_knob_relevant(sc, k))
		return false;
	util_err_clear(&err);
	return engine_range_default(sc, k, &r, &err) == NAPKIN_OK;
}

static const struct engine_knob *next_x(const struct engine_scenario *sc, const struct engine_knob *cur, int dir)
{
	size_t n, i, at = 0, step;
	const struct engine_knob *t = engine_knobs(&n);

	for (i = 0; i < n; i++)
		if (&t[i] == cur)
			at = i;
	for (step = 1; step <= n; step++) {
		size_t j = dir > 0 ? (at + step) % n : (at + n - step % n) % n;
		if (sweepable(sc, &t[j]))
			return &t[j];
	}
	return cur;
}

int tui_sweep_open(struct tui_model *m)
{
	struct sweep_view *v = calloc(1, sizeof *v);
	const struct engine_knob *ks[TUI_KNOBS_MAX];
	int nk, i;

	if (v == NULL)
		return -1;
	v->xk = engine_knob_find("batch");
	if (v->xk == NULL || !sweepable(&m->sc, v->xk))
		v->xk = next_x(&m->sc, v->xk, 1);
	v->ny = 1;
	if (m->sc.mode == ENGINE_MODE_INFER && NYMAX >= 3) {
		/* serving: output tokens/s per GPU, ITL and TTFT, as napkin sweep's defaults in mode
		 * infer (over the users, batch, its throughput against its latency) */
		v->ym[0] = TUI_SWEEP_SERVING;
		v->ym[1] = TUI_SWEEP_SERVING + 1;
		v->ym[2] = TUI_SWEEP_SERVING + 2;
		v->ny = 3;
	}
	nk = tui_model_knobs(m, ks, TUI_KNOBS_MAX);
	for (i = 0; i < nk; i++) /* -/+ start on the sequence: the other axis of memory */
		if (strcmp(ks[i]->key, "seq") == 0)
			v->other = i;
	m->view_state[TUI_VIEW_SWEEP] = v;
	return 0;
}

static bool same_request(const struct sweep_view *v)
{
	int i;

	if (!v->valid || v->sc_xk != v->xk || v->sc_ny != v->ny || v->sc_stack != v->stack || strcmp(v->sc, v->now) != 0)
		return false;
	for (i = 0; i < v->ny; i++)
		if (v->sc_ym[i] != v->ym[i])
			return false;
	return true;
}

/* The metrics of one sweep: the results (columns 0 .. ny-1), memory.fits, then the parts
 * of each result that has them when stacking. */
static int metrics(struct sweep_view *v, struct napkin_err *err)
{
	int i, rc;

	v->nm = 0;
	for (i = 0; i < v->ny; i++)
		if ((rc = engine_metric_find(y_keys[v->ym[i]], &v->metric[v->nm++], err)) != NAPKIN_OK)
			return rc;
	v->col_fits = (int)v->nm;
	if ((rc = engine_metric_find("memory.fits", &v->metric[v->nm++], err)) != NAPKIN_OK)
		return rc;
	for (i = 0; i < v->ny; i++) {
		size_t np = v->stack ? engine_metric_parts(y_keys[v->ym[i]], &v->metric[v->nm], NPART) : 0;
		v->part0[i] = (int)v->nm;
		v->nparts[i] = (int)(np <= NPART ? np : NPART);
		v->nm += (size_t)v->nparts[i];
	}
	return NAPKIN_OK;
}

/* Recomputes when the scenario, the x knob, the results or the stacking changed. */
void tui_sweep_compute(struct tui_model *m, struct sweep_view *v)
{
	struct engine_sweep sw;
	struct napkin_err err;
	int i;

	tui_trade_key(&m->sc, v->now, sizeof v->now);
	if (same_request(v))
		return;
	memcpy(v->sc, v->now, sizeof v->sc);
	v->sc_xk = v->xk;
	v->sc_ny = v->ny;
	v->sc_stack = v->stack;
	for (i = 0; i < v->ny; i++)
		v->sc_ym[i] = v->ym[i];
	v->valid = true;
	v->n = 0;
	v->err[0] = '\0';
	util_err_clear(&err);
	if (v->xk == NULL || tui_sweep_range(&m->sc, v->xk, TUI_SWEEP_POINTS, &v->range, &err) != NAPKIN_OK ||
	    metrics(v, &err) != NAPKIN_OK) {
		util_strlcpy(v->err, err.msg[0] ? err.msg : _("no knob to sweep"), sizeof v->err);
		return;
	}
	memset(&sw, 0, sizeof sw);
	sw.range[0] = v->range;
	sw.nrange = 1;
	sw.metrics = v->metric;
	sw.nmetrics = v->nm;
	v->n = engine_sweep_run(&m->sc, &sw, v->xs, NULL, v->values, v->rc, TUI_SWEEP_POINTS, &err);
	if (v->n == 0 || err.msg[0])
		util_strlcpy(v->err, err.msg, sizeof v->err);
}

/* y and Y: the first result becomes the next (dir 1) or previous one not shown in
 * another panel (after a, y once made "MFU + MFU") */
static void cycle_first(const struct engine_scenario *sc, struct sweep_view *v, int dir)
{
	int j, i;

	for (j = 1; j < NY; j++) {
		int cand = ((v->ym[0] + dir * j) % NY + NY) % NY;
		bool shown = !y_allowed(sc, cand);
		for (i = 1; i < v->ny; i++)
			shown = shown || v->ym[i] == cand;
		if (!shown) {
			v->ym[0] = cand;
			return;
		}
	}
}

/* a: the next result not shown yet, in y_keys' order */
static void add_result(struct tui_model *m, struct sweep_view *v)
{
	int j, i;

	if (v->ny >= NYMAX) {
		tui_model_message(m, true, _("at most %d results at once (d drops the last)"), NYMAX);
		return;
	}
	for (j = 1; j < NY; j++) {
		int cand = (v->ym[v->ny - 1] + j) % NY;
		bool shown = !y_allowed(&m->sc, cand);
		for (i = 0; i < v->ny; i++)
			shown = shown || v->ym[i] == cand;
		if (!shown) {
			v->ym[v->ny++] = cand;
			return;
		}
	}
}

/* F: the curves on screen as SVG, every point the view computed (figure_export.c) */
static unsigned write_figure(struct tui_model *m, struct sweep_view *v)
{
	struct figure_curve c;
	char lines[NYMAX][96];
	int i;

	tui_sweep_compute(m, v);
	if (v->n == 0) {
		tui_model_message(m, true, "%s", v->err[0] ? v->err : _("nothing to draw"));
		return TUI_REACT_REDRAW;
	}
	memset(&c, 0, sizeof c);
	c.sc = &m->sc;
	c.knob = v->xk;
	c.x = v->xs;
	c.n = v->n;
	c.stride = v->nm;
	c.log_x = v->range.geometric;
	c.fits = v->values + v->col_fits;
	c.rc = v->rc;
	for (i = 0; i < v->ny && i < NYMAX && i < FIGURE_PANELS_MAX; i++) {
		struct figure_series *se = &c.s[c.ns++];
		double y = tui_sweep_line(m, &v->metric[i], lines[i], sizeof lines[i]);
		se->key = v->metric[i].key;
		se->label = _(tui_sweep_y_labels[v->ym[i]]);
		se->unit = v->metric[i].unit;
		se->y = v->values + i;
		/* the panel's line as on screen: the capacity, a serving target */
		se->line = y > 0.0 ? y : NAN;
		se->line_label = lines[i];
	}
	return tui_figure_write(m, FIGURE_SWEEP, &c, NULL);
}

unsigned tui_sweep_key(struct tui_model *m, const struct tui_event *ev, uint64_t now)
{
	struct sweep_view *v = tui_sweep_state(m);
	const struct engine_knob *ks[TUI_KNOBS_MAX];
	int nk = tui_model_knobs(m, ks, TUI_KNOBS_MAX);

	if (v == NULL)
		return TUI_REACT_NONE;
	if (v->other >= nk)
		v->other = nk > 0 ? nk - 1 : 0;
	if (tui_view_common_key(m, ev->key, 'S'))
		return TUI_REACT_REDRAW;
	switch (ev->key) {
	case 'x': case 'X':
		v->xk = next_x(&m->sc, v->xk, ev->key == 'x' ? 1 : -1);
		return TUI_REACT_REDRAW;
	case 'y': cycle_first(&m->sc, v, 1); return TUI_REACT_REDRAW;
	case 'Y': cycle_first(&m->sc, v, -1); return TUI_REACT_REDRAW;
	case 'a': add_result(m, v); return TUI_REACT_REDRAW;
	case 'd':
		if (v->ny > 1)
			v->ny--;
		return TUI_REACT_REDRAW;
	case 's': v->stack = !v->stack; return TUI_REACT_REDRAW;
	case 'F': return write_figure(m, v);
	case TUI_KEY_LEFT: case TUI_KEY_RIGHT:
		if (v->xk != NULL)
			tui_model_step_knob(m, v->xk, ev->key == TUI_KEY_RIGHT ? 1 : -1, now);
		return TUI_REACT_REDRAW | TUI_REACT_EVAL;
	case TUI_KEY_UP: case 'k':
		if (v->other > 0)
			v->other--;
		return TUI_REACT_REDRAW;
	case TUI_KEY_DOWN: case 'j':
		if (v->other + 1 < nk)
			v->other++;
		return TUI_REACT_REDRAW;
	case '-': case '+': case '=':
		if (nk > 0)
			tui_model_step_knob(m, ks[v->other], ev->key == '-' ? -1 : 1, now);
		return TUI_REACT_REDRAW | TUI_REACT_EVAL;
	case 'u':
		return tui_undo(m, now) | TUI_REACT_REDRAW;
	default:
		return TUI_REACT_NONE;
	}
}

/* ---------------------------------------------------------------- drawing */
