/*
 * The roofline, drawn log-log in braille (2 × 4 dots a cell): the compute roofs (the
 * matmul dtype's peak and fp32's, for contrast), the bandwidth slope, the ridge point and
 * the operating points, labelled; under it the verdict of the focused point. When the GPU
 * was measured (G), its measured roof and slope are the solid line the points sit on and
 * the matching datasheet's are dashed beside them, with a legend. Pure.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "draw.h"
#include "view_gpu.h"
#include "i18n.h"

#define PLOT_MAX_W 300
#define PLOT_MAX_H 100

struct plot {
	int w, h;                     /* cells */
	double lx0, lx1, ly0, ly1;    /* log10 ranges */
	uint8_t dots[PLOT_MAX_H][PLOT_MAX_W];
	uint8_t prio[PLOT_MAX_H][PLOT_MAX_W];
	uint16_t style[PLOT_MAX_H][PLOT_MAX_W];
};

/* braille dot bits by (column 0-1, row 0-3) */
static const uint8_t bit[4][2] = {{0x01, 0x08}, {0x02, 0x10}, {0x04, 0x20}, {0x40, 0x80}};

static void dot(struct plot *p, int dx, int dy, int style, int prio)
{
	int cx = dx / 2, cy = dy / 4;

	if (dx < 0 || dy < 0 || cx >= p->w || cy >= p->h)
		return;
	p->dots[cy][cx] |= bit[dy % 4][dx % 2];
	if (prio >= p->prio[cy][cx]) {
		p->prio[cy][cx] = (uint8_t)prio;
		p->style[cy][cx] = (uint16_t)style;
	}
}

static int xdot(const struct plot *p, double x)
{
	return (int)floor((log10(x) - p->lx0) / (p->lx1 - p->lx0) * (2 * p->w));
}

static int ydot(const struct plot *p, double y)
{
	return (int)floor((p->ly1 - log10(y)) / (p->ly1 - p->ly0) * (4 * p->h));
}

static double xval(const struct plot *p, int dx)
{
	return pow(10.0, p->lx0 + (dx + 0.5) / (2.0 * p->w) * (p->lx1 - p->lx0));
}

static void fmt_short(double v, char *buf, size_t n)
{
	static const char *pre[] = {"", "k", "M", "G", "T", "P", "E"};
	int i = 0;

	if (v < 1.0) {
		snprintf(buf, n, "%.2g", v);
		return;
	}
	while (v >= 1000.0 && i < 6) {
		v /= 1000.0;
		i++;
	}
	snprintf(buf, n, "%.*f%s", v < 10 && v != floor(v) ? 1 : 0, v, pre[i]);
}

static const char point_letter[ENGINE_PT_COUNT] = {'T', 'P', 'D', 'E'};

static int clampi(int v, int lo, int hi)
{
	return v < lo ? lo : v > hi ? hi : v;
}

/* Whether a point's cell (pcx[i] < 0: not drawn) lies on row in columns [from, to). */
static bool points_in(const int *pcx, const int *pcy, int n, int row, int from, int to)
{
	int i;

	for (i = 0; i < n; i++)
		if (pcx[i] >= 0 && pcy[i] == row && pcx[i] >= from && pcx[i] < to)
			return true;
	return false;
}

bool tui_roof_chart(struct tui_canvas *c, struct tui_rect r, struct tui_roof *rf)
{
	static struct plot p;
	double peak = rf->peak, bw = rf->bw, ridge, dridge = 0, xmin = 0.1, xmax, ymin, ymax;
	int lm = TUI_ROOF_MARGIN, i, x, y, dx, n = rf->n < TUI_ROOF_POINTS ? rf->n : TUI_ROOF_POINTS;
	char lab[32];

	for (i = 0; i < TUI_ROOF_POINTS; i++)
		rf->px[i] = rf->py[i] = -1;
	memset(&p, 0, sizeof p);
	p.w = r.w - lm;
	p.h = r.h - 1;
	if (p.w > PLOT_MAX_W)
		p.w = PLOT_MAX_W;
	if (p.h > PLOT_MAX_H)
		p.h = PLOT_MAX_H;
	if (peak <= 0 || bw <= 0 || p.w < 8 || p.h < 2)
		return false;
	ridge = peak / bw;
	if (rf->dpeak > 0 && rf->dbw > 0)
		dridge = rf->dpeak / rf->dbw;

	/* ranges: every point, the ridge, a decade either side */
	xmax = fmax(ridge, dridge) * 4;
	ymin = bw * xmin;
	for (i = 0; i < n; i++)
		if (rf->x[i] > 0 && rf->y[i] > 0) {
			xmin = fmin(xmin, rf->x[i] / 2);
			xmax = fmax(xmax, rf->x[i] * 4);
			ymin = fmin(ymin, rf->y[i] / 2);
		}
	ymax = fmax(peak, dridge > 0 ? rf->dpeak : 0) * 2;
	p.lx0 = floor(log10(xmin));
	p.lx1 = ceil(log10(xmax));
	p.ly0 = floor(log10(ymin));
	p.ly1 = log10(ymax);
	if (p.ly1 - p.ly0 < 2)
		p.ly0 = p.ly1 - 2;

	/* the ridge: a dotted vertical line from the floor to the roof */
	dx = xdot(&p, ridge);
	for (y = ydot(&p, peak); y < 4 * p.h; y += 2)
		dot(&p, dx, y, TUI_S_RIDGE, 1);
	/* fp32's roof, dotted, for contrast */
	if (rf->peak32 > 0 && rf->peak32 < peak * 0.99)
		for (dx = xdot(&p, rf->peak32 / bw); dx < 2 * p.w; dx += 2)
			dot(&p, dx, ydot(&p, rf->peak32), TUI_S_ROOF_FP32, 2);
	/* the datasheet's roof and slope, dashed (3 dots on, 3 off), under the measured ones */
	if (dridge > 0)
		for (dx = 0; dx < 2 * p.w; dx++) {
			double xv = xval(&p, dx);
			if (dx % 6 < 3)
				dot(&p, dx, ydot(&p, fmin(rf->dpeak, xv * rf->dbw)), TUI_S_DIM, 2);
		}
	/* the roof: min(peak, intensity × bandwidth) */
	for (dx = 0; dx < 2 * p.w; dx++) {
		double xv = xval(&p, dx), yv = fmin(peak, xv * bw);
		int y0 = ydot(&p, yv), y1 = dx + 1 < 2 * p.w ? ydot(&p, fmin(peak, xval(&p, dx + 1) * bw)) : y0;
		int style = xv < ridge ? TUI_S_SLOPE : TUI_S_ROOF;
		/* join steep steps so the slope reads as a line */
		for (y = (y1 < y0 ? y1 : y0); y <= (y1 < y0 ? y0 : y1); y++)
			if (y == y0 || y > y1)
				dot(&p, dx, y, style, 3);
		dot(&p, dx, y0, style, 3);
	}
	/* axes: y labels (peaks), the plot cells, x decades */
	for (y = 0; y < p.h; y++)
		tui_canvas_put(c, r.x + lm - 1, r.y + y, 0x2502, TUI_S_AXIS);
	fmt_short(peak, lab, sizeof lab);
	tui_canvas_text_right(c, r.x + lm - 1, r.y + ydot(&p, peak) / 4, lm - 1, lab, TUI_S_ROOF);
	if (rf->peak32 > 0 && ydot(&p, rf->peak32) / 4 != ydot(&p, peak) / 4) {
		fmt_short(rf->peak32, lab, sizeof lab);
		tui_canvas_text_right(c, r.x + lm - 1, r.y + ydot(&p, rf->peak32) / 4, lm - 1, lab, TUI_S_ROOF_FP32);
	}
	if (dridge > 0 && ydot(&p, rf->dpeak) / 4 != ydot(&p, peak) / 4) {
		fmt_short(rf->dpeak, lab, sizeof lab);
		tui_canvas_text_right(c, r.x + lm - 1, r.y + ydot(&p, rf->dpeak) / 4, lm - 1, lab, TUI_S_DIM);
	}
	/* the y axis' unit, at its foot where no roof is labelled */
	if (p.h >= 3 && ydot(&p, peak) / 4 != p.h - 1 && (rf->peak32 <= 0 || ydot(&p, rf->peak32) / 4 != p.h - 1))
		tui_canvas_text(c, r.x, r.y + p.h - 1, lm - 1, "FLOP/s", TUI_S_DIM);
	for (y = 0; y < p.h; y++)
		for (x = 0; x < p.w; x++)
			if (p.dots[y][x])
				tui_canvas_put(c, r.x + lm + x, r.y + y, 0x2800u + p.dots[y][x], p.style[y][x]);
	tui_canvas_put(c, r.x + lm - 1, r.y + p.h, 0x2514, TUI_S_AXIS);
	for (x = 0; x < p.w; x++)
		tui_canvas_put(c, r.x + lm + x, r.y + p.h, 0x2500, TUI_S_AXIS);
	{
		/* the decades, and the x axis' unit at its end: a decade past every point and the
		 * ridge gives way to the unit, one a point reads against (1k under a training step
		 * at 976 FLOP/B) never does */
		int dec, last_end = -1, room = p.w >= 20 ? p.w - 7 : p.w;
		double xneed = ridge;
		for (i = 0; i < n; i++)
			if (rf->x[i] > 0 && rf->y[i] > 0)
				xneed = fmax(xneed, rf->x[i]);
		for (dec = (int)p.lx0; dec <= (int)p.lx1; dec++) {
			int col = (int)floor((dec - p.lx0) / (p.lx1 - p.lx0) * p.w);
			/* the decade at or just above the largest x is the one it is read against */
			int lim = pow(10.0, dec - 1) < xneed ? p.w : room;
			fmt_short(pow(10.0, dec), lab, sizeof lab);
			if (col > last_end && col + (int)strlen(lab) <= lim) {
				tui_canvas_text(c, r.x + lm + col, r.y + p.h, (int)strlen(lab), lab, TUI_S_AXIS);
				last_end = col + (int)strlen(lab);
			}
		}
		if (p.w - last_end > 7)
			tui_canvas_text_right(c, r.x + r.w, r.y + p.h, 6, "FLOP/B", TUI_S_DIM);
	}
	/* the points' cells (in the plot, then on the canvas) */
	for (i = 0; i < n; i++) {
		if (!(rf->x[i] > 0 && rf->y[i] > 0))
			continue;
		rf->px[i] = clampi(xdot(&p, rf->x[i]) / 2, 0, p.w - 1);
		rf->py[i] = clampi(ydot(&p, rf->y[i]) / 4, 0, p.h - 1);
	}
	/* the ridge's label under the roof, right of the ridge line (empty but for the points),
	 * a row or two lower, else left of it: where no point's letter is (a letter drawn over it
	 * read "ridge T 295") */
	{
		char rl_txt[32];
		int rx = xdot(&p, ridge) / 2, row0 = ydot(&p, peak) / 4 + 1, w, k, row, col;
		snprintf(rl_txt, sizeof rl_txt, _("ridge %.0f"), ridge);
		w = tui_utf8_width(rl_txt);
		for (k = 0; k < 6; k++) {
			row = row0 + k % 3;
			col = k < 3 ? rx + 1 : rx - w;
			if (row < p.h && col >= 0 && col + w <= p.w && !points_in(rf->px, rf->py, n, row, col, col + w)) {
				tui_canvas_text(c, r.x + lm + col, r.y + row, w, rl_txt, TUI_S_RIDGE);
				break;
			}
		}
	}
	for (i = 0; i < n; i++)
		if (rf->px[i] >= 0) {
			rf->px[i] += r.x + lm;
			rf->py[i] += r.y;
		}
	return true;
}

/* The forms of a legend row, longest first: the intensity with its unit and the bound in
 * full ("549 FLOP/B Compute-Bound"), the bound in full without the unit (the verdict below
 * gives it), the unit with the bound in short (the "bound" context), the bound in short. */
#define LEGEND_FORMS 4

/* Point i's legend row in form form: its letter, its name padded to namew display columns
 * (a longer one kept whole), its intensity right-aligned in labw columns. Returns buf. */
static const char *legend_row(const struct engine_roofline *rl, int i, int form, int namew, int labw, char *buf,
			      size_t n)
{
	const struct engine_roofline_point *pt = &rl->points[i];
	char lab[32], name[96];
	const char *bound;

	fmt_short(pt->intensity, lab, sizeof lab);
	util_text_pad(name, sizeof name, pt->label ? _(pt->label) : "", (size_t)namew);
	if (form == 0 || form == 1)
		bound = pt->memory_bound ? _("memory-bound") : _("compute-bound");
	else
		bound = pt->memory_bound ? C_("bound", "memory") : C_("bound", "compute");
	if (form == 0 || form == 2)
		snprintf(buf, n, "%c %s %*s FLOP/B %s", point_letter[i], name, labw, lab, bound);
	else
		snprintf(buf, n, "%c %s %*s %s", point_letter[i], name, labw, lab, bound);
	return buf;
}

void tui_draw_roofline(struct tui_model *m, struct tui_canvas *c, struct tui_rect r)
{
	static struct tui_roof rf;
	const struct engine_roofline *rl = &m->res.roofline;
	double achieved = m->sc.mode == ENGINE_MODE_TRAIN ? m->res.compute.achieved_flops : 0.0;
	double peak = rl->peak, bw = rl->bandwidth, dpeak = 0, dbw = 0, dridge = 0; /* the datasheet's, beside a measured GPU */
	struct engine_gpu ds;
	/* the points drawn: inference has no training step (its items start at prefill) */
	int first = m->sc.mode == ENGINE_MODE_INFER ? ENGINE_PT_PREFILL : ENGINE_PT_TRAIN;
	int legend_rows, verdict_rows, plot_h, i, sel = m->item[TUI_PANE_ROOFLINE] + first, namew, labw, form;
	struct tui_rect old = tui_canvas_clip(c, r);
	char buf[300], lab[32], line[300], verdict[300];
	bool focused = m->pane == TUI_PANE_ROOFLINE && tui_view_top(m) == TUI_VIEW_MAIN;

	if (sel < first || sel >= ENGINE_PT_COUNT)
		sel = first;
	/* a measured GPU (G): a line above the plot says which roof is which, and how far the
	 * measured ceilings fall short of the datasheet's */
	if (m->sc.gpu.measured && tui_gpu_datasheet(m, &ds) && rl->dt >= 0 && rl->dt < ENGINE_DT_COUNT) {
		dpeak = engine_gpu_peak(&ds, (enum engine_dtype)rl->dt);
		dbw = ds.bandwidth;
		if (dpeak > 0 && dbw > 0 && peak > 0 && bw > 0)
			dridge = dpeak / dbw;
	}
	if (m->sc.gpu.measured && r.h >= 10) {
		int dash; /* the column of the datasheet's mark: after "━ measured  " */
		if (dridge > 0) {
			snprintf(line, sizeof line, _("\xe2\x94\x81 measured  \xe2\x94\x84 datasheet: peak %.0f%%, bandwidth %.0f%%"),
				 100.0 * peak / dpeak, 100.0 * bw / dbw);
			dash = 2 + tui_utf8_width(_("measured")) + 2;
			if (tui_utf8_width(line) > r.w) {
				snprintf(line, sizeof line, _("\xe2\x94\x81 measured \xe2\x94\x84 datasheet %.0f%% %.0f%%"),
					 100.0 * peak / dpeak, 100.0 * bw / dbw);
				dash = 2 + tui_utf8_width(_("measured")) + 1;
			}
		} else {
			dash = 0;
			snprintf(line, sizeof line, "%s", _("\xe2\x94\x81 measured (no datasheet to compare)"));
		}
		tui_canvas_text(c, r.x, r.y, r.w, line, TUI_S_VALUE);
		tui_canvas_put(c, r.x, r.y, 0x2501, TUI_S_ROOF);
		if (dridge > 0 && dash > 0 && dash < r.w)
			tui_canvas_put(c, r.x + dash, r.y, 0x2504, TUI_S_DIM);
		r.y++;
		r.h--;
	}
	/* the verdict of the focused point, wrapped whole where there is room (under the
	 * plot: its x axis, the legend, then the verdict) */
	engine_roofline_verdict(&m->sc, &m->res, (enum engine_point)sel, verdict, sizeof verdict);
	verdict_rows = tui_draw_wrapped(NULL, r, 2, verdict, TUI_S_VALUE);
	if (verdict_rows > 4)
		verdict_rows = 4;
	legend_rows = r.w >= 76 ? 2 : 4;
	if (r.h < 9)
		legend_rows = 0;
	if (r.h - 1 - legend_rows - verdict_rows < 3)
		verdict_rows = r.h >= 8 ? 2 : 1;
	plot_h = r.h - 1 - legend_rows - verdict_rows;
	/* the chart, with the operating points: training sits at the rate it achieves (never
	 * above the roof), the others on it */
	memset(&rf, 0, sizeof rf);
	rf.peak = peak;
	rf.bw = bw;
	rf.peak32 = engine_gpu_peak(&m->sc.gpu, ENGINE_DT_FP32);
	if (dridge > 0) {
		rf.dpeak = dpeak;
		rf.dbw = dbw;
	}
	rf.n = ENGINE_PT_COUNT;
	for (i = first; i < ENGINE_PT_COUNT; i++) {
		const struct engine_roofline_point *pt = &rl->points[i];
		rf.x[i] = pt->intensity;
		rf.y[i] = i == ENGINE_PT_TRAIN && achieved > 0 && achieved < pt->attainable ? achieved : pt->attainable;
	}
	if (!tui_roof_chart(c, tui_rect_make(r.x, r.y, r.w, plot_h + 1), &rf)) {
		tui_canvas_text(c, r.x, r.y, r.w, _("(no roofline: no peak or bandwidth)"), TUI_S_DIM);
		goto out;
	}
	for (i = ENGINE_PT_COUNT - 1; i >= 0; i--)
		if (rf.px[i] >= 0)
			tui_canvas_put(c, rf.px[i], rf.py[i], (uint32_t)point_letter[i],
				       i == sel ? (focused ? TUI_S_SELECTED : TUI_S_CHANGED) : TUI_S_POINT);
	/* legend: letter, name, intensity, bound; one form for every row, so that the columns
	 * line up (the names padded by display width to the widest, the intensities right-aligned
	 * to the widest): the first of these that fits every row's cell */
	{
		int k, cw = legend_rows == 2 ? r.w / 2 - 1 : r.w;
		namew = 0;
		labw = 0;
		for (i = first; i < ENGINE_PT_COUNT; i++) {
			const struct engine_roofline_point *pt = &rl->points[i];
			int w = pt->label ? tui_utf8_width(_(pt->label)) : 0;
			fmt_short(pt->intensity, lab, sizeof lab);
			namew = w > namew ? w : namew;
			labw = (int)strlen(lab) > labw ? (int)strlen(lab) : labw;
		}
		for (form = 0; form < LEGEND_FORMS - 1; form++) {
			for (k = first; k < ENGINE_PT_COUNT; k++)
				if (tui_utf8_width(legend_row(rl, k, form, namew, labw, buf, sizeof buf)) > cw)
					break;
			if (k == ENGINE_PT_COUNT)
				break;
		}
	}
	for (i = first; i < ENGINE_PT_COUNT && legend_rows > 0; i++) {
		const struct engine_roofline_point *pt = &rl->points[i];
		int j = i - first; /* its row of the legend, and its item */
		int col = legend_rows == 2 ? (j % 2) * (r.w / 2) : 0, row = legend_rows == 2 ? j / 2 : j;
		struct tui_rect cell = tui_rect_make(r.x + col, r.y + plot_h + 1 + row, legend_rows == 2 ? r.w / 2 - 1 : r.w, 1);
		bool s = focused && i == sel;
		char key[48];
		snprintf(key, sizeof key, "roofline.%s", pt->name ? pt->name : "");
		legend_row(rl, i, form, namew, labw, buf, sizeof buf);
		if (j < TUI_ITEMS_MAX)
			m->hits.item[TUI_PANE_ROOFLINE][j] = cell;
		if (s)
			tui_canvas_fill(c, cell, ' ', TUI_S_SELECTED);
		tui_canvas_text(c, cell.x, cell.y, cell.w, buf,
				s ? TUI_S_SELECTED : tui_model_changed(m, key, m->now) ? TUI_S_CHANGED : TUI_S_VALUE);
		if (!s)
			tui_canvas_put(c, cell.x, cell.y, (uint32_t)point_letter[i], TUI_S_POINT);
	}
	/* the verdict of the focused point, in words */
	tui_draw_wrapped(c, tui_rect_make(r.x, r.y + r.h - verdict_rows, r.w, verdict_rows), 2, verdict, TUI_S_VALUE);
out:
	c->clip = old;
}
