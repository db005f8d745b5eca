/*
 * The sweep view (view_trade.h): one knob along x over its default range (the engine's,
 * engine_range_default), one result on y, drawn in braille (2 × 4 dots a cell) with axes,
 * units and ticks. Each point is exactly `napkin sweep`'s (engine_sweep_run). For memory
 * the card's capacity is a dashed line and the first point that does not fit is marked
 * ✗; the scenario's own x is a dotted vertical line. ←→ move x itself and -/+ step any
 * other knob, both through the model's knob path (so `u` undoes them); the curve is
 * recomputed when the scenario changes (at most TUI_SWEEP_POINTS points).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tradeoff.h"
#include "view_trade.h"

#define NM 2 /* the result on y, and memory.fits */
#define PW 320
#define PH 80

static const char *const y_keys[] = {
	"memory.total",         "compute.step_seconds", "compute.mfu",          "compute.tokens_per_s",
	"compute.train_days",   "compute.cost",         "inference.decode_tokens_per_s",
};
#define NY (int)(sizeof y_keys / sizeof y_keys[0])
/* what each is, and whose (the report's own words: per GPU, per step, for the job) */
static const char *const y_labels[NY] = {
	"memory per GPU", "step time (one optimizer step)", "MFU", "tokens/s (the job)",
	"training days (the job)", "cost (the job, price x GPU-hours)", "decode tokens/s (all replicas)",
};

struct sweep_view {
	const struct engine_knob *xk; /* the knob along x */
	int ym;                       /* index into y_keys */
	int other;                    /* the knob -/+ steps: index into the on-screen knobs */
	/* the last computation, and what it was of */
	char sc[TUI_TRADE_KEY], now[TUI_TRADE_KEY];
	const struct engine_knob *sc_xk;
	int sc_ym;
	bool valid;
	struct engine_range range;
	struct engine_metric metric[NM];
	double xs[TUI_SWEEP_POINTS], values[TUI_SWEEP_POINTS * NM];
	int rc[TUI_SWEEP_POINTS];
	size_t n;
	char err[256];
	uint8_t dots[PH][PW];
	uint16_t style[PH][PW];
};

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

static struct sweep_view *state(struct tui_model *m)
{
	return m->view_state[TUI_VIEW_SWEEP];
}

int tui_sweep_range(const struct engine_scenario *sc, const struct engine_knob *k, size_t max,
		    struct engine_range *r, struct napkin_err *err)
{
	struct engine_range base;
	int rc = engine_range_default(sc, k, &base, err);
	size_t thin;

	if (rc != NAPKIN_OK)
		return rc;
	*r = base;
	/* one thinning from the count (a huge range, say batch in inference where any number
	 * fits, is counted by its span, not point by point), then a few corrections */
	{
		double span = base.geometric ? log(base.to / base.from) / log(base.step) + 1.0
					     : (base.to - base.from) / base.step + 1.0;
		size_t guard;
		thin = span > (double)max ? (size_t)ceil(span / (double)max) : 1;
		for (guard = 0; guard < 8; guard++, thin++) {
			*r = base;
			if (base.geometric)
				r->step = pow(base.step, (double)thin);
			else
				r->step = base.step * (double)thin;
			if (thin == 1 || engine_range_values(r, NULL, 0) <= max)
				break;
		}
	}
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
	nk = tui_model_knobs(m, ks, TUI_KNOBS_MAX);
	for (i = 0; i < nk; i++) /* -/+ start on the sequence: the other axis of memory */
		if (strcmp(ks[i]->key, "seq") == 0)
			v->other = i;
	m->view_state[TUI_VIEW_SWEEP] = v;
	return 0;
}

void tui_sweep_close(struct tui_model *m)
{
	free(state(m));
	m->view_state[TUI_VIEW_SWEEP] = NULL;
}

/* Recomputes when the scenario, the x knob or the result changed. */
static void compute(struct tui_model *m, struct sweep_view *v)
{
	struct engine_sweep sw;
	struct napkin_err err;

	tui_trade_key(&m->sc, v->now, sizeof v->now);
	if (v->valid && v->sc_xk == v->xk && v->sc_ym == v->ym && strcmp(v->sc, v->now) == 0)
		return;
	memcpy(v->sc, v->now, sizeof v->sc);
	v->sc_xk = v->xk;
	v->sc_ym = v->ym;
	v->valid = true;
	v->n = 0;
	v->err[0] = '\0';
	util_err_clear(&err);
	if (v->xk == NULL || tui_sweep_range(&m->sc, v->xk, TUI_SWEEP_POINTS, &v->range, &err) != NAPKIN_OK ||
	    engine_metric_find(y_keys[v->ym], &v->metric[0], &err) != NAPKIN_OK ||
	    engine_metric_find("memory.fits", &v->metric[1], &err) != NAPKIN_OK) {
		util_strlcpy(v->err, err.msg[0] ? err.msg : "no knob to sweep", sizeof v->err);
		return;
	}
	memset(&sw, 0, sizeof sw);
	sw.range[0] = v->range;
	sw.nrange = 1;
	sw.metrics = v->metric;
	sw.nmetrics = NM;
	v->n = engine_sweep_run(&m->sc, &sw, v->xs, NULL, v->values, v->rc, TUI_SWEEP_POINTS, &err);
	if (v->n == 0 || err.msg[0])
		util_strlcpy(v->err, err.msg, sizeof v->err);
}

unsigned tui_sweep_key(struct tui_model *m, const struct tui_event *ev, uint64_t now)
{
	struct sweep_view *v = state(m);
	const struct engine_knob *ks[TUI_KNOBS_MAX];
	int nk = tui_model_knobs(m, ks, TUI_KNOBS_MAX);

	if (v == NULL)
		return TUI_REACT_NONE;
	if (v->other >= nk)
		v->other = nk > 0 ? nk - 1 : 0;
	switch (ev->key) {
	case TUI_KEY_ESC: case 'q': case 'S':
		tui_view_pop(m);
		return TUI_REACT_REDRAW;
	case '?': case TUI_KEY_F1:
		m->scroll = 0;
		tui_view_push(m, TUI_VIEW_HELP);
		return TUI_REACT_REDRAW;
	case 'x': case 'X':
		v->xk = next_x(&m->sc, v->xk, ev->key == 'x' ? 1 : -1);
		return TUI_REACT_REDRAW;
	case 'y': v->ym = (v->ym + 1) % NY; return TUI_REACT_REDRAW;
	case 'Y': v->ym = (v->ym + NY - 1) % NY; return TUI_REACT_REDRAW;
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

struct axes {
	int w, h;          /* cells */
	double x0, x1, y0, y1;
	bool logx;
};

static const uint8_t bit[4][2] = {{0x01, 0x08}, {0x02, 0x10}, {0x04, 0x20}, {0x40, 0x80}};

static void dot(struct sweep_view *v, const struct axes *a, int dx, int dy, int style)
{
	int cx = dx / 2, cy = dy / 4;

	if (dx < 0 || dy < 0 || cx >= a->w || cy >= a->h)
		return;
	v->dots[cy][cx] |= bit[dy % 4][dx % 2];
	v->style[cy][cx] = (uint16_t)style;
}

static int xdot(const struct axes *a, double x)
{
	double f = a->logx ? (log(x) - log(a->x0)) / (log(a->x1) - log(a->x0)) : (x - a->x0) / (a->x1 - a->x0);
	return (int)lround(f * (2 * a->w - 1));
}

static int ydot(const struct axes *a, double y)
{
	return (int)lround((a->y1 - y) / (a->y1 - a->y0) * (4 * a->h - 1));
}

static int clampi(int x, int lo, int hi)
{
	return x < lo ? lo : x > hi ? hi : x;
}

static void line(struct sweep_view *v, const struct axes *a, int x0, int y0, int x1, int y1, int style)
{
	int dx, dy, sx, sy, e, guard;

	x0 = clampi(x0, -2, 2 * a->w + 1);
	x1 = clampi(x1, -2, 2 * a->w + 1);
	y0 = clampi(y0, -2, 4 * a->h + 1);
	y1 = clampi(y1, -2, 4 * a->h + 1);
	dx = abs(x1 - x0);
	dy = -abs(y1 - y0);
	sx = x0 < x1 ? 1 : -1;
	sy = y0 < y1 ? 1 : -1;
	e = dx + dy;

	for (guard = 0; guard < 8 * (PW + PH); guard++) { /* at most the plot's diagonal */
		dot(v, a, x0, y0, style);
		if (x0 == x1 && y0 == y1)
			break;
		if (2 * e >= dy) {
			e += dy;
			x0 += sx;
		}
		if (2 * e <= dx) {
			e += dx;
			y0 += sy;
		}
	}
}

void tui_sweep_draw(struct tui_model *m, struct tui_canvas *c, uint64_t now)
{
	struct sweep_view *v = state(m);
	const struct engine_knob *ks[TUI_KNOBS_MAX];
	int nk = tui_model_knobs(m, ks, TUI_KNOBS_MAX), i, row, col, first_bad = -1, last_fit = -1;
	struct axes a;
	struct tui_rect plot;
	char buf[400], t1[64], t2[64], rng[96];
	double ymax = 0.0, cur, capacity = m->res.memory.capacity;
	bool memory;
	size_t p;

	(void)now;
	if (v == NULL)
		return;
	compute(m, v);
	engine_range_format(&v->range, rng, sizeof rng);
	snprintf(buf, sizeof buf, " Sweep: %s along %s (%s, %zu points)", y_labels[v->ym],
		 v->xk ? v->xk->label : "?", rng, v->n);
	tui_paint_view_header(c, m->w, buf);
	if (v->other >= nk)
		v->other = nk > 0 ? nk - 1 : 0;
	engine_knob_display(&m->sc, ks[v->other], t1, sizeof t1);
	snprintf(buf, sizeof buf, " y: %s   other knob (j k, - +): %s = %s", y_keys[v->ym], nk ? ks[v->other]->key : "-",
		 nk ? t1 : "");
	tui_canvas_text(c, 0, 1, m->w, buf, TUI_S_LABEL);
	if (v->n == 0) {
		tui_canvas_text(c, 1, 3, m->w - 2, v->err[0] ? v->err : "nothing to draw", TUI_S_ERROR_MSG);
		return;
	}
	memory = strncmp(y_keys[v->ym], "memory.", 7) == 0;
	for (p = 0; p < v->n; p++) {
		double y = v->values[p * NM];
		if (v->rc[p] == 0 && isfinite(y) && y > ymax)
			ymax = y;
		if (v->rc[p] == 0 && v->values[p * NM + 1] < 0.5 && first_bad < 0)
			first_bad = (int)p;
		if (v->rc[p] == 0 && v->values[p * NM + 1] >= 0.5)
			last_fit = (int)p;
	}
	if (memory && capacity > ymax)
		ymax = capacity;
	if (!(ymax > 0.0)) {
		tui_canvas_text(c, 1, 3, m->w - 2, v->err[0] ? v->err : "no valid point (this result is 0 or not defined here)",
				TUI_S_ERROR_MSG);
		return;
	}
	plot = tui_rect_make(11, 3, m->w - 13, m->h - 1 - 3 - 5);
	if (plot.w > PW)
		plot.w = PW;
	if (plot.h > PH)
		plot.h = PH;
	if (plot.w < 10 || plot.h < 3)
		return;
	a.w = plot.w;
	a.h = plot.h;
	a.x0 = v->xs[0];
	a.x1 = v->xs[v->n - 1] > a.x0 ? v->xs[v->n - 1] : a.x0 + 1.0;
	a.logx = v->range.geometric && a.x0 > 0.0;
	a.y0 = 0.0;
	a.y1 = ymax * 1.08;
	memset(v->dots, 0, sizeof v->dots);
	memset(v->style, 0, sizeof v->style);
	/* capacity: a dashed line */
	if (memory && capacity > 0.0)
		for (i = 0; i < 2 * a.w; i += 3)
			dot(v, &a, i, ydot(&a, capacity), TUI_S_WARN);
	/* the scenario's own x: a dotted vertical line */
	cur = v->xk ? engine_knob_value(&m->sc, v->xk) : NAN;
	if (cur >= a.x0 && cur <= a.x1)
		for (i = 0; i < 4 * a.h; i += 2)
			dot(v, &a, xdot(&a, cur), i, TUI_S_SELECTED);
	/* the curve: green where the point fits, red where it does not */
	for (p = 0; p + 1 < v->n; p++) {
		double y0 = v->values[p * NM], y1 = v->values[(p + 1) * NM];
		if (v->rc[p] != 0 || v->rc[p + 1] != 0 || !isfinite(y0) || !isfinite(y1))
			continue;
		line(v, &a, xdot(&a, v->xs[p]), ydot(&a, y0), xdot(&a, v->xs[p + 1]), ydot(&a, y1),
		     v->values[(p + 1) * NM + 1] >= 0.5 ? TUI_S_GOOD : TUI_S_BAD);
	}
	if (v->n == 1 && v->rc[0] == 0)
		dot(v, &a, xdot(&a, v->xs[0]), ydot(&a, v->values[0]), TUI_S_GOOD);
	for (row = 0; row < a.h; row++)
		for (col = 0; col < a.w; col++)
			if (v->dots[row][col])
				tui_canvas_put(c, plot.x + col, plot.y + row, 0x2800u + v->dots[row][col], v->style[row][col]);
	if (first_bad >= 0 && isfinite(v->values[(size_t)first_bad * NM])) {
		int fx = xdot(&a, v->xs[first_bad]) / 2, fy = ydot(&a, v->values[(size_t)first_bad * NM]) / 4;
		tui_canvas_put(c, plot.x + fx, plot.y + (fy < a.h ? fy : a.h - 1), 0x2717, TUI_S_BAD);
	}
	if (memory && capacity > 0.0) {
		engine_unit_format(ENGINE_UNIT_BYTES, capacity, t1, sizeof t1);
		snprintf(buf, sizeof buf, "capacity %s", t1);
		tui_canvas_text_right(c, plot.x + plot.w, plot.y + ydot(&a, capacity) / 4 - (ydot(&a, capacity) / 4 > 0),
				      plot.w, buf, TUI_S_WARN);
	}
	/* axes and ticks */
	for (row = 0; row < a.h; row++)
		tui_canvas_put(c, plot.x - 1, plot.y + row, 0x2502, TUI_S_AXIS);
	tui_canvas_put(c, plot.x - 1, plot.y + a.h, 0x2514, TUI_S_AXIS);
	for (col = 0; col < a.w; col++)
		tui_canvas_put(c, plot.x + col, plot.y + a.h, 0x2500, TUI_S_AXIS);
	for (i = 0; i <= 4; i++) {
		double y = a.y1 * (4 - i) / 4.0;
		int ry = plot.y + (int)lround((double)(a.h - 1) * i / 4.0);
		tui_paint_metric_value(&v->metric[0], y, t1, sizeof t1);
		tui_canvas_text_right(c, plot.x - 1, ry, 10, t1, TUI_S_AXIS);
	}
	{
		int next_free = plot.x - 1;
		for (p = 0; p < v->n; p++) {
			int tx = plot.x + xdot(&a, v->xs[p]) / 2, w;
			tui_paint_knob_value(v->xk, v->xs[p], t1, sizeof t1);
			w = tui_utf8_width(t1);
			tx -= w / 2;
			if (tx + w > plot.x + plot.w)
				tx = plot.x + plot.w - w;
			if (tx <= next_free && p > 0)
				continue;
			tui_canvas_put(c, plot.x + xdot(&a, v->xs[p]) / 2, plot.y + a.h, 0x252c, TUI_S_AXIS);
			tui_canvas_text(c, tx, plot.y + a.h + 1, w, t1, TUI_S_AXIS);
			next_free = tx + w + 1;
		}
	}
	snprintf(buf, sizeof buf, "%s (%s%s)  x: X", v->xk->label, v->xk->key, a.logx ? ", log scale" : "");
	tui_canvas_text_right(c, plot.x + plot.w, plot.y + a.h + 2, plot.w, buf, TUI_S_LABEL);
	/* the status: the scenario's own point and the first that does not fit */
	row = m->h - 3;
	tui_paint_knob_value(v->xk, cur, t1, sizeof t1);
	tui_paint_metric_value(&v->metric[0], engine_metric_value(&m->res, &v->metric[0]), t2, sizeof t2);
	if (memory) {
		char capt[64];
		engine_unit_format(ENGINE_UNIT_BYTES, capacity, capt, sizeof capt);
		snprintf(buf, sizeof buf, " now (dotted): %s %s: %s of %s per GPU, %s", v->xk->key, t1, t2, capt,
			 m->res.memory.total <= capacity ? "fits" : "does not fit");
	} else {
		snprintf(buf, sizeof buf, " now (dotted): %s %s: %s", v->xk->key, t1, t2);
	}
	tui_canvas_text(c, 0, row, m->w, buf, TUI_S_VALUE);
	if (first_bad >= 0) {
		tui_paint_knob_value(v->xk, v->xs[first_bad], t1, sizeof t1);
		if (last_fit >= 0)
			tui_paint_knob_value(v->xk, v->xs[last_fit], t2, sizeof t2);
		snprintf(buf, sizeof buf, " \xe2\x9c\x97 first point that does not fit: %s %s%s%s", v->xk->key, t1,
			 last_fit >= 0 ? "; last that fits: " : "; none fits", last_fit >= 0 ? t2 : "");
		tui_canvas_text(c, 0, row + 1, m->w, buf, TUI_S_BAD);
	} else {
		tui_canvas_text(c, 0, row + 1, m->w, " every point of the range fits in memory", TUI_S_GOOD);
	}
}
