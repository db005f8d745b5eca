/*
 * The heatmap view (view_trade.h): two knobs across and down (batch × seq, TP × PP,
 * GPUs × micro-batch; p switches; in mode infer batch × prompt), one result per cell
 * (headroom, step time, MFU; in mode infer headroom, TTFT, ITL, output tokens/s per GPU; y
 * switches), each cell exactly `napkin sweep`'s point (engine_sweep_run). A cell's shade
 * (░ ▒ ▓ █, low to high) gives the result and works without colour; red and ✗ mark the
 * cells that do not fit in memory; ● is the scenario's own cell. Arrows move the cursor;
 * Enter applies its two values to the scenario as one change (`u` undoes it).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "i18n.h"
#include "tradeoff.h"
#include "view_trade.h"

#define HM 24 /* cells per axis at most (the screen holds fewer) */
#define CW 5  /* columns a cell takes */

static const char *const pairs[][2] = {{"batch", "seq"}, {"tp", "pp"}, {"gpus", "batch"}};
/* TP and PP take powers of two (heads and layers divide by them), not the default span */
static const char *const fixed[][2] = {{"tp", "tp=1..64:x2"}, {"pp", "pp=1..64:x2"}};

static int axis_range(const struct engine_scenario *sc, const char *key, size_t max, struct engine_range *r,
		      struct napkin_err *err)
{
	size_t i;

	for (i = 0; i < sizeof fixed / sizeof fixed[0]; i++)
		if (strcmp(fixed[i][0], key) == 0)
			return engine_range_parse(sc, fixed[i][1], r, err);
	return tui_sweep_range(sc, engine_knob_find(key), max, r, err);
}
#define NPAIR (int)(sizeof pairs / sizeof pairs[0])

/* A pair's knob: in mode infer the prompt stands for the sequence (a serving replica's context
 * is its prompt and output; seq is training's), so batch × prompt: users × prompt length */
static const char *axis_key(const struct engine_scenario *sc, int pair, int i)
{
	const char *k = pairs[pair][i];

	return sc->mode == ENGINE_MODE_INFER && strcmp(k, "seq") == 0 ? "prompt" : k;
}
/* per GPU; per step; of the job; then serving's (mode infer only; a replica's TTFT and ITL,
 * output tokens/s per GPU), where a training step's time and MFU mean nothing */
static const char *const r_keys[] = {"memory.headroom",	     "compute.step_seconds", "compute.mfu",
				     "serving.ttft_seconds", "serving.itl_seconds",  "serving.tokens_per_s_gpu"};
static const char *const r_labels[] = {N_("headroom per GPU"), N_("step time"), N_("MFU"),
				       N_("TTFT"),	       N_("ITL"),	N_("out tokens/s per GPU")};
#define NR (int)(sizeof r_keys / sizeof r_keys[0])
#define R_SERVING 3 /* r_keys from here are serving's */

/* a result y offers in this mode: the headroom always, training's in training, serving's in
 * mode infer */
static bool r_allowed(const struct engine_scenario *sc, int k)
{
	bool infer = sc->mode == ENGINE_MODE_INFER;
	return k == 0 || (k >= R_SERVING) == infer;
}

struct heat_view {
	int pair, res, cx, cy;
	char sc[TUI_TRADE_KEY], now[TUI_TRADE_KEY];
	int sc_pair, sc_res, sc_nx, sc_ny;
	bool valid;
	struct engine_sweep sw;
	struct engine_metric metric[2];
	double xs[HM], ys[HM], values[HM * HM * 2];
	int rc[HM * HM];
	size_t nx, ny;
	char err[256];
};

static struct heat_view *state(struct tui_model *m)
{
	return m->view_state[TUI_VIEW_HEAT];
}

int tui_heat_open(struct tui_model *m)
{
	struct heat_view *v = calloc(1, sizeof *v);

	if (v == NULL)
		return -1;
	v->cx = v->cy = -1; /* on the scenario's own cell once computed */
	m->view_state[TUI_VIEW_HEAT] = v;
	return 0;
}

static int fit_x(const struct tui_model *m)
{
	int n = (m->w - 9) / CW;
	return n < 2 ? 2 : n > HM ? HM : n;
}

static int fit_y(const struct tui_model *m)
{
	int n = m->h - 1 - 8;
	return n < 2 ? 2 : n > HM ? HM : n;
}

/* The cell nearest the scenario's own values. */
static void own_cell(const struct tui_model *m, const struct heat_view *v, int *ox, int *oy)
{
	double x = engine_knob_value(&m->sc, v->sw.range[0].knob), y = engine_knob_value(&m->sc, v->sw.range[1].knob);
	size_t i;

	*ox = *oy = -1;
	for (i = 0; i < v->nx; i++)
		if (v->xs[i] == x)
			*ox = (int)i;
	for (i = 0; i < v->ny; i++)
		if (v->ys[i] == y)
			*oy = (int)i;
}

static void compute(struct tui_model *m, struct heat_view *v)
{
	struct napkin_err err;
	size_t total;
	int nx = fit_x(m), ny = fit_y(m);

	if (!r_allowed(&m->sc, v->res)) /* the mode changed under the view: back to the headroom */
		v->res = 0;
	tui_trade_key(&m->sc, v->now, sizeof v->now);
	if (v->valid && v->sc_pair == v->pair && v->sc_res == v->res && v->sc_nx == nx && v->sc_ny == ny &&
	    strcmp(v->sc, v->now) == 0)
		return;
	memcpy(v->sc, v->now, sizeof v->sc);
	v->sc_pair = v->pair;
	v->sc_res = v->res;
	v->sc_nx = nx;
	v->sc_ny = ny;
	v->valid = true;
	v->nx = v->ny = 0;
	v->err[0] = '\0';
	memset(&v->sw, 0, sizeof v->sw);
	util_err_clear(&err);
	if (axis_range(&m->sc, axis_key(&m->sc, v->pair, 0), (size_t)nx, &v->sw.range[0], &err) != 0 ||
	    axis_range(&m->sc, axis_key(&m->sc, v->pair, 1), (size_t)ny, &v->sw.range[1], &err) != 0 ||
	    engine_metric_find(r_keys[v->res], &v->metric[0], &err) != 0 ||
	    engine_metric_find("memory.fits", &v->metric[1], &err) != 0) {
		util_strlcpy(v->err, err.msg, sizeof v->err);
		return;
	}
	v->sw.nrange = 2;
	v->sw.metrics = v->metric;
	v->sw.nmetrics = 2;
	total = engine_sweep_run(&m->sc, &v->sw, v->xs, v->ys, v->values, v->rc, HM * HM, &err);
	if (total == 0) {
		util_strlcpy(v->err, err.msg, sizeof v->err);
		return;
	}
	v->nx = engine_range_values(&v->sw.range[0], NULL, 0);
	v->ny = engine_range_values(&v->sw.range[1], NULL, 0);
	if (v->cx < 0 || v->cy < 0 || (size_t)v->cx >= v->nx || (size_t)v->cy >= v->ny) {
		own_cell(m, v, &v->cx, &v->cy);
		if (v->cx < 0)
			v->cx = 0;
		if (v->cy < 0)
			v->cy = 0;
	}
}

/* F: the heatmap on screen as SVG (figure_export.c) */
static unsigned write_figure(struct tui_model *m, struct heat_view *v)
{
	struct figure_heat h;

	if (v->nx == 0 || v->ny == 0) {
		tui_model_message(m, true, "%s", v->err[0] ? v->err : _("nothing to draw"));
		return TUI_REACT_REDRAW;
	}
	memset(&h, 0, sizeof h);
	h.sc = &m->sc;
	h.kx = v->sw.range[0].knob;
	h.ky = v->sw.range[1].knob;
	h.x = v->xs;
	h.y = v->ys;
	h.nx = v->nx;
	h.ny = v->ny;
	h.stride = 2;
	h.v = v->values;
	h.fits = v->values + 1;
	h.rc = v->rc;
	h.key = r_keys[v->res];
	h.label = _(r_labels[v->res]);
	h.unit = v->metric[0].unit;
	return tui_figure_write(m, FIGURE_HEATMAP, NULL, &h);
}

unsigned tui_heat_key(struct tui_model *m, const struct tui_event *ev, uint64_t now)
{
	struct heat_view *v = state(m);

	if (v == NULL)
		return TUI_REACT_NONE;
	compute(m, v);
	if (tui_view_common_key(m, ev->key, 'H'))
		return TUI_REACT_REDRAW;
	switch (ev->key) {
	case 'p':
		v->pair = (v->pair + 1) % NPAIR;
		v->cx = v->cy = -1;
		return TUI_REACT_REDRAW;
	case 'y':
		do
			v->res = (v->res + 1) % NR;
		while (!r_allowed(&m->sc, v->res));
		return TUI_REACT_REDRAW;
	case 'F': return write_figure(m, v);
	case TUI_KEY_LEFT: case 'h': if (v->cx > 0) v->cx--; return TUI_REACT_REDRAW;
	case TUI_KEY_RIGHT: case 'l': if ((size_t)v->cx + 1 < v->nx) v->cx++; return TUI_REACT_REDRAW;
	case TUI_KEY_UP: case 'k': if (v->cy > 0) v->cy--; return TUI_REACT_REDRAW;
	case TUI_KEY_DOWN: case 'j': if ((size_t)v->cy + 1 < v->ny) v->cy++; return TUI_REACT_REDRAW;
	case 'u': return tui_undo(m, now) | TUI_REACT_REDRAW;
	case TUI_KEY_ENTER: {
		const struct engine_knob *ks[2] = {v->sw.range[0].knob, v->sw.range[1].knob};
		double vals[2];
		struct engine_scenario out, before = m->sc;
		struct engine_result r;
		struct napkin_err err;
		char what[96], a[32], b[32];
		if (v->nx == 0 || v->ny == 0)
			return TUI_REACT_NONE;
		vals[0] = v->xs[v->cx];
		vals[1] = v->ys[v->cy];
		util_err_clear(&err);
		if (engine_sweep_point(&m->sc, ks, vals, 2, false, &out, &r, &err) != NAPKIN_OK) {
			tui_model_message(m, true, "%s", err.msg);
			return TUI_REACT_REDRAW;
		}
		engine_knob_display(&out, ks[0], a, sizeof a);
		engine_knob_display(&out, ks[1], b, sizeof b);
		snprintf(what, sizeof what, "%s %s, %s %s", ks[0]->key, a, ks[1]->key, b);
		tui_undo_push(m, &before, what);
		m->sc = out;
		tui_model_evaluate(m, now);
		tui_model_message(m, false, _("applied %s (u undoes)"), what);
		return TUI_REACT_REDRAW | TUI_REACT_EVAL;
	}
	default:
		return TUI_REACT_NONE;
	}
}

void tui_heat_draw(struct tui_model *m, struct tui_canvas *c, uint64_t now)
{
	static const uint32_t shade[4] = {0x2591, 0x2592, 0x2593, 0x2588};
	struct heat_view *v = state(m);
	char buf[400], t1[48], t2[48];
	double lo = INFINITY, hi = -INFINITY;
	int ox, oy, x0 = 8, y0 = 4;
	bool logs;
	size_t i, j;

	(void)now;
	if (v == NULL)
		return;
	compute(m, v);
	snprintf(buf, sizeof buf, _(" Heatmap: %s, %s \xc3\x97 %s (p knobs, y result)"), _(r_labels[v->res]),
		 axis_key(&m->sc, v->pair, 0), axis_key(&m->sc, v->pair, 1));
	tui_paint_view_header(c, m->w, buf);
	if (v->nx == 0 || v->ny == 0) {
		tui_canvas_text(c, 1, 2, m->w - 2, v->err[0] ? v->err : _("nothing to draw"), TUI_S_ERROR_MSG);
		return;
	}
	for (i = 0; i < v->nx * v->ny; i++)
		if (v->rc[i] == 0 && isfinite(v->values[i * 2])) {
			if (v->values[i * 2] < lo)
				lo = v->values[i * 2];
			if (v->values[i * 2] > hi)
				hi = v->values[i * 2];
		}
	if (v->res == 0 && lo < 0.0) /* headroom: every cell that does not fit is the lowest shade */
		lo = 0.0;
	if (hi < lo)
		hi = lo;
	logs = lo > 0.0 && hi > 10.0 * lo; /* a span of decades: shade by the logarithm */
	own_cell(m, v, &ox, &oy);
	/* the column heads: the first knob's values */
	tui_canvas_text(c, 0, y0 - 2, x0 - 1, axis_key(&m->sc, v->pair, 1), TUI_S_LABEL);
	tui_canvas_text(c, x0, y0 - 2, m->w - x0, axis_key(&m->sc, v->pair, 0), TUI_S_LABEL);
	tui_canvas_put(c, x0 + (int)strlen(axis_key(&m->sc, v->pair, 0)) + 1, y0 - 2, 0x2192, TUI_S_LABEL);
	for (i = 0; i < v->nx; i++) {
		tui_paint_knob_value(v->sw.range[0].knob, v->xs[i], t1, sizeof t1);
		tui_canvas_text(c, x0 + (int)i * CW, y0 - 1, CW - 1, t1, (int)i == v->cx ? TUI_S_SELECTED : TUI_S_AXIS);
	}
	for (j = 0; j < v->ny; j++) {
		tui_paint_knob_value(v->sw.range[1].knob, v->ys[j], t1, sizeof t1);
		tui_canvas_text_right(c, x0 - 1, y0 + (int)j, x0 - 1, t1, (int)j == v->cy ? TUI_S_SELECTED : TUI_S_AXIS);
		for (i = 0; i < v->nx; i++) {
			size_t p = j * v->nx + i;
			int cx = x0 + (int)i * CW, k, style, lvl = 0;
			bool ok = v->rc[p] == 0 && isfinite(v->values[p * 2]), fits = ok && v->values[p * 2 + 1] >= 0.5;
			if (ok && hi > lo && logs)
				lvl = (int)floor(log(v->values[p * 2] / lo) / log(hi / lo) * 3.999);
			else if (ok && hi > lo)
				lvl = (int)floor((fmax(v->values[p * 2], lo) - lo) / (hi - lo) * 3.999);
			style = !ok ? TUI_S_DIM : fits ? TUI_S_GOOD : TUI_S_BAD;
			for (k = 0; k < CW - 1; k++)
				tui_canvas_put(c, cx + k, y0 + (int)j, ok ? shade[lvl] : 0x00b7, style);
			if (ok && !fits)
				tui_canvas_put(c, cx + 1, y0 + (int)j, 0x2717, TUI_S_BAD);
			if ((int)i == ox && (int)j == oy)
				tui_canvas_put(c, cx + 2, y0 + (int)j, 0x25cf, TUI_S_VALUE);
			if ((int)i == v->cx && (int)j == v->cy) {
				tui_canvas_put(c, cx - 1 >= x0 - 1 ? cx - 1 : cx, y0 + (int)j, '[', TUI_S_SELECTED);
				tui_canvas_put(c, cx + CW - 1, y0 + (int)j, ']', TUI_S_SELECTED);
			}
		}
	}
	/* the legend and the cursor's cell */
	{
		int y = y0 + (int)v->ny + 1;
		size_t p = (size_t)v->cy * v->nx + (size_t)v->cx;
		tui_paint_metric_value(&v->metric[0], lo, t1, sizeof t1);
		tui_paint_metric_value(&v->metric[0], hi, t2, sizeof t2);
		snprintf(buf, sizeof buf,
			 logs ? _(" \xe2\x96\x91 %s  \xe2\x96\x92  \xe2\x96\x93  \xe2\x96\x88 %s (log)  \xe2\x9c\x97 red: does not fit  \xc2\xb7 invalid  \xe2\x97\x8f yours  [ ] cursor")
			      : _(" \xe2\x96\x91 %s  \xe2\x96\x92  \xe2\x96\x93  \xe2\x96\x88 %s  \xe2\x9c\x97 red: does not fit  \xc2\xb7 invalid  \xe2\x97\x8f yours  [ ] cursor"),
			 t1, t2);
		if (y < m->h - 1)
			tui_canvas_text(c, 0, y++, m->w, buf, TUI_S_LABEL);
		tui_paint_knob_value(v->sw.range[0].knob, v->xs[v->cx], t1, sizeof t1);
		tui_paint_knob_value(v->sw.range[1].knob, v->ys[v->cy], t2, sizeof t2);
		if (v->rc[p] == 0) {
			char val[48];
			tui_paint_metric_value(&v->metric[0], v->values[p * 2], val, sizeof val);
			snprintf(buf, sizeof buf,
				 v->values[p * 2 + 1] >= 0.5 ? _(" %s %s \xc3\x97 %s %s: %s, fits (Enter applies)")
							     : _(" %s %s \xc3\x97 %s %s: %s, does not fit (Enter applies)"),
				 axis_key(&m->sc, v->pair, 0), t1, axis_key(&m->sc, v->pair, 1), t2, val);
		} else {
			snprintf(buf, sizeof buf, _(" %s %s \xc3\x97 %s %s: not a valid scenario"), axis_key(&m->sc, v->pair, 0), t1,
				 axis_key(&m->sc, v->pair, 1), t2);
		}
		if (y < m->h - 1)
			tui_canvas_text(c, 0, y, m->w, buf, v->rc[p] == 0 && v->values[p * 2 + 1] >= 0.5 ? TUI_S_VALUE : TUI_S_BAD);
	}
}
