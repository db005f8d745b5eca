/*
 * Drawing the sweep view (view_sweep_internal.h): a panel per result with its own axis,
 * the curve in braille (view_sweep_plot.c), the capacity line and the first point that does
 * not fit, the scenario's own x, and with s the result's parts as stacked bands (a glyph
 * and a colour each, so they read without colour) with a legend of their values.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "i18n.h"
#include "view_sweep_internal.h"

/* a part's band: its glyph (told apart without colour) and its colour */
struct band {
	uint32_t glyph;
	int style;
	const char *name; /* short, for the legend (a msgid, context "sweep legend") */
};
static const struct band memory_bands[] = {
	/* the parts in engine_metric_parts' order, in the glyphs and colours of the main
	 * screen's memory bar (draw_memory.c) */
	{0x2588, TUI_S_MEM_WEIGHTS, NC_("sweep legend", "weights")}, {0x259c, TUI_S_MEM_MASTER, NC_("sweep legend", "autocast")},
	{0x2593, TUI_S_MEM_MASTER, NC_("sweep legend", "master")},   {0x2592, TUI_S_MEM_GRADS, NC_("sweep legend", "grads")},
	{0x2591, TUI_S_MEM_OPTIM, NC_("sweep legend", "optimizer")}, {0x259a, TUI_S_MEM_ACT, NC_("sweep legend", "activations")},
	{0x2261, TUI_S_MEM_LOGITS, NC_("sweep legend", "logits")},   {0x259f, TUI_S_MEM_KV, NC_("sweep legend", "scratch")},
	{0x259e, TUI_S_MEM_KV, NC_("sweep legend", "KV cache")},     {0x2581, TUI_S_MEM_OVERHEAD, NC_("sweep legend", "overhead")},
};
static const struct band step_bands[NPART] = {
	{0x2588, TUI_S_MEM_WEIGHTS, NC_("sweep legend", "matmul")},   {0x2593, TUI_S_MEM_ACT, NC_("sweep legend", "attention")}, {0x2592, TUI_S_MEM_LOGITS, NC_("sweep legend", "elementwise")},
	{0x2591, TUI_S_MEM_GRADS, NC_("sweep legend", "recompute")},  {0x259a, TUI_S_MEM_OPTIM, NC_("sweep legend", "optimizer")}, {0x259e, TUI_S_ROOF, "TP"},
	{'=', TUI_S_SLOPE, "CP"},                {'+', TUI_S_RIDGE, "EP"},               {':', TUI_S_POINT, "PP"},
	{0x2261, TUI_S_MEM_KV, "DP"},            {0x2581, TUI_S_MEM_OVERHEAD, NC_("sweep legend", "bubble")}, {'#', TUI_S_WARN, NC_("sweep legend", "offload")},
};

static double val(const struct sweep_view *v, size_t p, int col)
{
	return v->rc[p] == 0 ? v->values[p * v->nm + (size_t)col] : NAN;
}

static const struct band *band_of(const struct sweep_view *v, int i, int k)
{
	return v->nparts[i] == NPART ? &step_bands[k] : &memory_bands[k < 10 ? k : 9];
}

/* a part is in the legend when it is not zero somewhere along the range */
static bool part_shown(const struct sweep_view *v, int i, int k)
{
	size_t p;

	for (p = 0; p < v->n; p++)
		if (val(v, p, v->part0[i] + k) > 0.0)
			return true;
	return false;
}

/* The parts of result i as bands, column by column: a cell takes the part that covers its
 * middle, the parts read between the two points either side of the column (linear in the
 * axis' own scale, as the curve is drawn), so the top band follows the curve. */
static void draw_stack(struct tui_canvas *c, const struct sweep_view *v, int i, int ox, int oy)
{
	const struct tui_plot *pl = &v->plot;
	int col, row, k;
	size_t p = 0;

	for (col = 0; col < pl->w; col++) {
		double fx = 2.0 * col + 0.5, cum[NPART + 1], fa, fb, t;
		while (p + 2 < v->n && tui_plot_xf(pl, v->xs[p + 1]) < fx)
			p++;
		if (v->n < 2 || v->rc[p] != 0 || v->rc[p + 1] != 0)
			continue;
		fa = tui_plot_xf(pl, v->xs[p]);
		fb = tui_plot_xf(pl, v->xs[p + 1]);
		t = fb > fa ? (fx - fa) / (fb - fa) : 0.0;
		if (t < 0.0 || t > 1.0)
			continue;
		cum[0] = 0.0;
		for (k = 0; k < v->nparts[i]; k++) {
			double ya = val(v, p, v->part0[i] + k), yb = val(v, p + 1, v->part0[i] + k), y = (1.0 - t) * ya + t * yb;
			cum[k + 1] = cum[k] + (isfinite(y) && y > 0.0 ? y : 0.0);
		}
		for (row = 0; row < pl->h; row++) {
			/* the value at the cell's middle */
			double y = pl->y1 - (row + 0.5) / pl->h * (pl->y1 - pl->y0);
			for (k = 0; k < v->nparts[i]; k++)
				if (y >= cum[k] && y < cum[k + 1]) {
					const struct band *b = band_of(v, i, k);
					tui_canvas_put(c, ox + col, oy + row, b->glyph, b->style);
					break;
				}
		}
	}
}

/* The legend of result i's parts: each glyph, name and value at the scenario's own x (the
 * main screen's figures); parts that are zero along the whole range are left out. */
static int draw_legend(struct tui_canvas *c, const struct tui_model *m, const struct sweep_view *v, int i, int x, int y,
		       int w, int rows)
{
	int k, j, col = x, row = 0, order[NPART], n = 0;
	char buf[96], t[40];

	/* the largest parts first at the scenario's x: a short screen cuts the small ones */
	for (k = 0; k < v->nparts[i]; k++) {
		double vk = engine_metric_value(&m->res, &v->metric[v->part0[i] + k]);
		if (!part_shown(v, i, k))
			continue;
		for (j = n; j > 0 && engine_metric_value(&m->res, &v->metric[v->part0[i] + order[j - 1]]) < vk; j--)
			order[j] = order[j - 1];
		order[j] = k;
		n++;
	}
	for (j = 0; j < n && row < rows; j++) {
		const struct engine_metric *mt = &v->metric[v->part0[i] + order[j]];
		const struct band *b = band_of(v, i, order[j]);
		int bw;
		tui_paint_metric_value(mt, engine_metric_value(&m->res, mt), t, sizeof t);
		snprintf(buf, sizeof buf, "%s %s", C_("sweep legend", b->name), t);
		bw = tui_utf8_width(buf) + 2;
		if (col + bw + 1 > x + w && col > x) {
			if (++row >= rows)
				break;
			col = x;
		}
		tui_canvas_put(c, col, y + row, b->glyph, b->style);
		tui_canvas_text(c, col + 2, y + row, x + w - col - 2, buf, TUI_S_LABEL);
		col += bw + 1;
	}
	return row + 1;
}

/* The x axis' labelled points: a point is labelled when its label clears the one before */
static int x_ticks(const struct sweep_view *v, int ox, int w, int *at, char (*label)[32], int max)
{
	int n = 0, next_free = ox - 1;
	size_t p;

	for (p = 0; p < v->n && n < max; p++) {
		int cx = ox + (int)lround(tui_plot_xf(&v->plot, v->xs[p])) / 2, lw, tx;
		tui_paint_knob_value(v->xk, v->xs[p], label[n], sizeof label[n]);
		lw = tui_utf8_width(label[n]);
		tx = cx - lw / 2;
		if (tx + lw > ox + w)
			tx = ox + w - lw;
		if (tx <= next_free && p > 0)
			continue;
		at[n++] = cx;
		next_free = tx + lw + 1;
	}
	return n;
}

/* One result's panel: its title, its legend (stacked), the plot and the x axis below. */
static void draw_panel(struct tui_model *m, struct sweep_view *v, struct tui_canvas *c, int i, int top, int ph,
		       int nleg, int ox, int w)
{
	const struct engine_metric *mt = &v->metric[i];
	bool stacked = v->nparts[i] > 0;
	double ymax = 0.0, cur, capacity = 0.0;
	char line_label[96] = "";
	int first_bad = -1, k, oy = top + 1 + nleg, at[TUI_SWEEP_POINTS], nt, col;
	char labels[TUI_SWEEP_POINTS][32], buf[200];
	size_t p;

	for (p = 0; p < v->n; p++) {
		double y = val(v, p, i), tot = 0.0;
		if (isfinite(y) && y > ymax)
			ymax = y;
		for (k = 0; k < v->nparts[i]; k++) { /* the stack may stand above the curve */
			double yk = val(v, p, v->part0[i] + k);
			tot += isfinite(yk) && yk > 0.0 ? yk : 0.0;
		}
		if (tot > ymax)
			ymax = tot;
		if (v->rc[p] == 0 && val(v, p, v->col_fits) < 0.5 && first_bad < 0)
			first_bad = (int)p;
	}
	/* a line across the panel: memory's capacity, the serving targets (--ttft-slo, --tpot-slo)
	 * on TTFT and ITL, as napkin sweep draws them; a panel with no point says so, whatever
	 * its line (a saturated rate leaves serving's times without a value) */
	capacity = ymax > 0.0 ? tui_sweep_line(m, mt, line_label, sizeof line_label) : 0.0;
	if (capacity > ymax)
		ymax = capacity;
	{
		char t[40] = "";
		bool legend = stacked && v->xk != NULL;
		if (legend) {
			tui_paint_knob_value(v->xk, engine_knob_value(&m->sc, v->xk), t, sizeof t);
			snprintf(buf, sizeof buf, _("%s (%s); its parts at %s %s"), _(tui_sweep_y_labels[v->ym[i]]), mt->key, v->xk->key, t);
		} else {
			snprintf(buf, sizeof buf, C_("sweep panel", "%s (%s)"), _(tui_sweep_y_labels[v->ym[i]]), mt->key);
		}
	}
	tui_canvas_text(c, 1, top, m->w - 2, buf, TUI_S_TITLE);
	if (stacked)
		draw_legend(c, m, v, i, 2, top + 1, m->w - 3, nleg);
	if (!(ymax > 0.0)) {
		tui_canvas_text(c, ox, oy, w, _("no valid point (this result is 0 or not defined here)"), TUI_S_ERROR_MSG);
		return;
	}
	tui_plot_reset(&v->plot, w, ph, v->xs[0], v->xs[v->n - 1], 0.0, ymax * 1.08, v->range.geometric);
	if (capacity > 0.0)
		tui_plot_hline(&v->plot, capacity, 3, TUI_S_WARN);
	cur = v->xk ? engine_knob_value(&m->sc, v->xk) : NAN;
	if (cur >= v->plot.x0 && cur <= v->plot.x1)
		tui_plot_vline(&v->plot, cur, 2, TUI_S_RIDGE);
	/* the curve: green where the point fits, red where it does not */
	for (p = 0; p + 1 < v->n; p++)
		if (isfinite(val(v, p, i)) && isfinite(val(v, p + 1, i)))
			tui_plot_segment(&v->plot, v->xs[p], val(v, p, i), v->xs[p + 1], val(v, p + 1, i),
					 val(v, p + 1, v->col_fits) >= 0.5 ? TUI_S_GOOD : TUI_S_BAD);
	if (v->n == 1 && isfinite(val(v, 0, i)))
		tui_plot_dot(&v->plot, v->xs[0], val(v, 0, i), TUI_S_GOOD);
	tui_plot_render(&v->plot, c, ox, oy);
	if (stacked) {
		draw_stack(c, v, i, ox, oy);
		if (capacity > 0.0) { /* the line stays visible across the bands */
			int cy = (int)lround(tui_plot_yf(&v->plot, capacity)) / 4;
			for (col = 0; col < w && cy >= 0 && cy < ph; col++)
				tui_canvas_put(c, ox + col, oy + cy, 0x2504, TUI_S_WARN);
		}
	}
	if (first_bad >= 0 && isfinite(val(v, (size_t)first_bad, i))) {
		int fx = (int)lround(tui_plot_xf(&v->plot, v->xs[first_bad])) / 2;
		int fy = (int)lround(tui_plot_yf(&v->plot, val(v, (size_t)first_bad, i))) / 4 - stacked;
		tui_canvas_put(c, ox + fx, oy + (fy < 0 ? 0 : fy < ph ? fy : ph - 1), 0x2717, TUI_S_BAD);
	}
	if (capacity > 0.0) {
		int cy = (int)lround(tui_plot_yf(&v->plot, capacity)) / 4;
		tui_canvas_text_right(c, ox + w, oy + cy - (cy > 0), w, line_label, TUI_S_WARN);
	}
	/* the y axis with ticks at 0, 1/2 and the top (fewer rows: fewer ticks) */
	for (k = 0; k < ph; k++)
		tui_canvas_put(c, ox - 1, oy + k, 0x2502, TUI_S_AXIS);
	{
		/* "348 tokens/s" is wider than the axis' 10 columns: then every tick the figure alone
		 * (the panel's title names the result, the report's key its unit) */
		bool bare = false;
		int pass;
		for (pass = 0; pass < 2; pass++)
			for (k = 0; k <= 4; k += ph >= 8 ? 1 : ph >= 4 ? 2 : 4) { /* a label a row at most */
				char t[40];
				double y = v->plot.y1 * (4 - k) / 4.0;
				if (bare)
					tui_paint_metric_cell(mt, y, t, sizeof t);
				else
					tui_paint_metric_value(mt, y, t, sizeof t);
				if (pass == 0)
					bare = bare || util_text_width(t) > 10;
				else
					tui_canvas_text_right(c, ox - 1, oy + (int)lround((double)(ph - 1) * k / 4.0), 10, t,
							      TUI_S_AXIS);
			}
	}
	tui_canvas_put(c, ox - 1, oy + ph, 0x2514, TUI_S_AXIS);
	for (col = 0; col < w; col++)
		tui_canvas_put(c, ox + col, oy + ph, 0x2500, TUI_S_AXIS);
	nt = x_ticks(v, ox, w, at, labels, TUI_SWEEP_POINTS);
	for (k = 0; k < nt; k++)
		tui_canvas_put(c, at[k], oy + ph, 0x252c, TUI_S_AXIS);
	if (cur >= v->plot.x0 && cur <= v->plot.x1) /* the scenario's own x, on the axis too */
		tui_canvas_put(c, ox + (int)lround(tui_plot_xf(&v->plot, cur)) / 2, oy + ph, 0x25b2, TUI_S_VALUE);
}

/* rows a stacked panel's legend takes at this width: its entries, packed */
static int legend_rows(const struct sweep_view *v, int i, int w)
{
	int k, width = 0;

	if (v->nparts[i] == 0)
		return 0;
	for (k = 0; k < v->nparts[i]; k++) /* the name, a value of about 10 and the glyph */
		if (part_shown(v, i, k))
			width += tui_utf8_width(C_("sweep legend", band_of(v, i, k)->name)) + 14;
	return width > 2 * (w - 4) ? 3 : width > w - 4 ? 2 : 1;
}

void tui_sweep_draw(struct tui_model *m, struct tui_canvas *c, uint64_t now)
{
	struct sweep_view *v = tui_sweep_state(m);
	const struct engine_knob *ks[TUI_KNOBS_MAX];
	int nk = tui_model_knobs(m, ks, TUI_KNOBS_MAX), i, row, first_bad = -1, last_fit = -1, top, avail, ph, ox, w,
	    mem_panel = -1, lr[NYMAX] = {0}, over = 0;
	char buf[400], t1[64], t2[64], rng[96];
	double cur;
	size_t p, pos = 0;

	(void)now;
	if (v == NULL)
		return;
	tui_sweep_compute(m, v);
	engine_range_format(&v->range, rng, sizeof rng);
	buf[0] = '\0';
	{
		char ys[300];
		size_t yp = 0;
		ys[0] = '\0';
		for (i = 0; i < v->ny; i++)
			util_bprintf(ys, sizeof ys, &yp, "%s%s", i ? " + " : "", _(tui_sweep_y_labels[v->ym[i]]));
		util_bprintf(buf, sizeof buf, &pos, P_(" Sweep: %s along %s (%s, %zu point)", " Sweep: %s along %s (%s, %zu points)", v->n),
			     ys, v->xk ? _(v->xk->label) : "?", rng, v->n);
	}
	tui_paint_view_header(c, m->w, buf);
	if (v->other >= nk)
		v->other = nk > 0 ? nk - 1 : 0;
	engine_knob_display(&m->sc, ks[v->other], t1, sizeof t1);
	snprintf(buf, sizeof buf,
		 v->stack ? _(" results (y, a d): %d of %d   stack (s): on   other knob (j k, - +): %s = %s")
			  : _(" results (y, a d): %d of %d   stack (s): off   other knob (j k, - +): %s = %s"),
		 v->ny, NYMAX, nk ? ks[v->other]->key : "-", nk ? t1 : "");
	tui_canvas_text(c, 0, 1, m->w, buf, TUI_S_LABEL);
	if (v->n == 0 || v->xk == NULL) {
		tui_canvas_text(c, 1, 3, m->w - 2, v->err[0] ? v->err : _("nothing to draw"), TUI_S_ERROR_MSG);
		return;
	}
	/* the panels share rows 2 .. h-6; below them the x labels, the knob, the status */
	ox = 11;
	w = m->w - 13;
	if (w > TUI_PLOT_W)
		w = TUI_PLOT_W;
	avail = m->h - 5 - 2;
	for (i = 0; i < v->ny; i++) {
		lr[i] = legend_rows(v, i, m->w);
		over += 2 + lr[i];
		if (strcmp(v->metric[i].key, "memory.total") == 0)
			mem_panel = i;
	}
	ph = (avail - over) / v->ny;
	/* a short screen: legends give up rows (to one each) before the plots fall under 4 */
	while (ph < 4) {
		int big = -1;
		for (i = 0; i < v->ny; i++)
			if (lr[i] > 1 && (big < 0 || lr[i] > lr[big]))
				big = i;
		if (big < 0)
			break;
		lr[big]--;
		over--;
		ph = (avail - over) / v->ny;
	}
	if (ph > TUI_PLOT_H)
		ph = TUI_PLOT_H;
	if (w < 10 || ph < 2) {
		tui_canvas_text(c, 1, 3, m->w - 2, _("too small for this many results (d drops one)"), TUI_S_ERROR_MSG);
		return;
	}
	top = 2;
	for (i = 0; i < v->ny; i++) {
		draw_panel(m, v, c, i, top, ph, lr[i], ox, w);
		top += 2 + lr[i] + ph;
	}
	{ /* the x labels under the last panel */
		int at[TUI_SWEEP_POINTS], nt, k;
		char labels[TUI_SWEEP_POINTS][32];
		nt = x_ticks(v, ox, w, at, labels, TUI_SWEEP_POINTS);
		for (k = 0; k < nt; k++) {
			int lw = tui_utf8_width(labels[k]), tx = at[k] - lw / 2;
			if (tx + lw > ox + w)
				tx = ox + w - lw;
			tui_canvas_text(c, tx, top, lw, labels[k], TUI_S_AXIS);
		}
	}
	snprintf(buf, sizeof buf, v->plot.logx ? _("%s (%s, log scale)  x: X") : _("%s (%s)  x: X"), _(v->xk->label),
		 v->xk->key);
	tui_canvas_text_right(c, ox + w, top + 1, w, buf, TUI_S_LABEL);
	/* the status: the scenario's own point and the first that does not fit */
	for (p = 0; p < v->n; p++) {
		if (v->rc[p] == 0 && val(v, p, v->col_fits) < 0.5 && first_bad < 0)
			first_bad = (int)p;
		if (v->rc[p] == 0 && val(v, p, v->col_fits) >= 0.5)
			last_fit = (int)p;
	}
	row = m->h - 3;
	cur = engine_knob_value(&m->sc, v->xk);
	tui_paint_knob_value(v->xk, cur, t1, sizeof t1);
	i = mem_panel >= 0 ? mem_panel : 0;
	tui_paint_metric_value(&v->metric[i], engine_metric_value(&m->res, &v->metric[i]), t2, sizeof t2);
	if (mem_panel >= 0) {
		char capt[64];
		engine_unit_format(ENGINE_UNIT_BYTES, m->res.memory.capacity, capt, sizeof capt);
		snprintf(buf, sizeof buf,
			 m->res.memory.fits ? _(" now (dotted): %s %s: %s of %s per GPU, fits")
					    : _(" now (dotted): %s %s: %s of %s per GPU, does not fit"),
			 v->xk->key, t1, t2, capt);
	} else {
		snprintf(buf, sizeof buf, _(" now (dotted): %s %s: %s"), v->xk->key, t1, t2);
	}
	tui_canvas_text(c, 0, row, m->w, buf, TUI_S_VALUE);
	if (first_bad >= 0) {
		tui_paint_knob_value(v->xk, v->xs[first_bad], t1, sizeof t1);
		if (last_fit >= 0) {
			tui_paint_knob_value(v->xk, v->xs[last_fit], t2, sizeof t2);
			snprintf(buf, sizeof buf, _(" \xe2\x9c\x97 first point that does not fit: %s %s; last that fits: %s"),
				 v->xk->key, t1, t2);
		} else
			snprintf(buf, sizeof buf, _(" \xe2\x9c\x97 first point that does not fit: %s %s; none fits"), v->xk->key, t1);
		tui_canvas_text(c, 0, row + 1, m->w, buf, TUI_S_BAD);
	} else {
		tui_canvas_text(c, 0, row + 1, m->w, _(" every point of the range fits in memory"), TUI_S_GOOD);
	}
}
