/*
 * The sweep figures (figure.h): napkin sweep's points as the explorer's sweep view draws
 * them (src/tui/view_sweep_draw.c: one panel per result, the capacity as a dashed line,
 * the points that do not fit marked, the scenario's own x dotted) and its heatmap
 * (src/tui/view_heat.c: a cell a point, shaded low to high, by the logarithm where the
 * values span more than a decade; the cells that do not fit marked; the scenario's own
 * cell ringed). The values are the caller's: engine_sweep_run's, as napkin sweep prints them.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "figure_internal.h"
#include "i18n.h"

#define W 960.0
#define PL 130.0
#define PR (W - 50.0)
#define PANEL_H 250.0
#define PANEL_GAP 70.0
#define LINE "#1f5fa8"
#define BAD "#c0392b"

static bool point_ok(const struct figure_curve *c, size_t i, const double *y)
{
	return (c->rc == NULL || c->rc[i] == 0) && isfinite(y[i * c->stride]);
}

static bool point_fits(const struct figure_curve *c, size_t i)
{
	return c->fits == NULL || !(c->fits[i * c->stride] < 0.5);
}

static void x_ticks(struct svg *s, const struct figure_curve *c, const struct figure_axis *ax, double y)
{
	double t[32];
	char a[64];
	size_t i;
	int nt;

	if (c->n <= 12) { /* every point's value, as the explorer's axis labels them */
		for (i = 0; i < c->n; i++) {
			figure_knob_value(c->knob, c->x[i], a, sizeof a);
			svg_line(s, figure_axis_pos(ax, c->x[i]), y, figure_axis_pos(ax, c->x[i]), y + 5, "#555555", 1, NULL);
			svg_text(s, figure_axis_pos(ax, c->x[i]), y + 19, "middle", 12, NULL, "#333333", a);
		}
		return;
	}
	nt = figure_axis_ticks(ax, t, 32);
	for (i = 0; i < (size_t)nt; i++) {
		figure_knob_value(c->knob, t[i], a, sizeof a);
		svg_line(s, figure_axis_pos(ax, t[i]), y, figure_axis_pos(ax, t[i]), y + 5, "#555555", 1, NULL);
		svg_text(s, figure_axis_pos(ax, t[i]), y + 19, "middle", 12, NULL, "#333333", a);
	}
}

static void panel(struct svg *s, const struct figure_curve *c, const struct figure_series *se, double top,
		  const struct figure_axis *axx)
{
	FILE *f = s->f;
	double lo = INFINITY, hi = -INFINITY, t[32], bottom = top + PANEL_H, own = engine_knob_value(c->sc, c->knob), k;
	const char *suffix;
	struct figure_axis ay;
	char a[96], buf[300];
	size_t i;
	int nt;
	bool open = false;

	for (i = 0; i < c->n; i++)
		if (point_ok(c, i, se->y)) {
			lo = fmin(lo, se->y[i * c->stride]);
			hi = fmax(hi, se->y[i * c->stride]);
		}
	if (isfinite(se->line)) {
		lo = fmin(lo, se->line);
		hi = fmax(hi, se->line);
	}
	/* the ticks in one unit the values reach (GiB, min, %), named in the panel's title;
	 * whose the numbers are, as napkin sweep's text chart says it */
	figure_scale(se->unit, fmax(fabs(lo), fabs(hi)), &k, &suffix);
	snprintf(buf, sizeof buf, "%s (%s)%s%s%s", se->label, se->key,
		 se->unit == ENGINE_UNIT_BYTES && strncmp(se->key, "memory.", 7) == 0 ? _(", per GPU")
		 : se->unit == ENGINE_UNIT_SECONDS && strncmp(se->key, "serving.", 8) != 0 ? _(", per step") : "",
		 suffix[0] ? " \xc2\xb7 " : "", suffix);
	svg_text(s, PL, top - 10, "start", 15, "bold", "#222222", buf);
	svg_rect(s, PL, top, PR - PL, PANEL_H, "#fbfbfb", "#999999");
	if (!(hi >= lo)) {
		svg_text(s, (PL + PR) / 2, top + PANEL_H / 2, "middle", 14, NULL, "#777777", _("no valid point"));
		return;
	}
	lo /= k;
	hi /= k;
	figure_axis_nice(&lo, &hi);
	ay = (struct figure_axis){lo, hi, bottom, top, false};
	nt = figure_axis_ticks(&ay, t, 32);
	for (i = 0; i < (size_t)nt; i++) {
		double y = figure_axis_pos(&ay, t[i]);
		svg_line(s, PL, y, PR, y, "#e4e4e4", 1, NULL);
		snprintf(a, sizeof a, "%g", t[i]);
		svg_text(s, PL - 8, y + 4, "end", 12, NULL, "#333333", a);
	}
	x_ticks(s, c, axx, bottom);
	/* the scenario's own x, dotted */
	if (own >= axx->lo && own <= axx->hi) {
		double x = figure_axis_pos(axx, own);
		svg_line(s, x, top, x, bottom, "#555555", 1.2, "2 4");
		svg_text(s, x + 4, top + 14, "start", 12, NULL, "#555555", _("this scenario"));
	}
	/* the capacity, or a serving target, dashed (its value exactly in data-v) */
	if (isfinite(se->line)) {
		double y = figure_axis_pos(&ay, se->line / k);
		fprintf(f, "<g class=\"limit\" data-v=\"%.17g\">\n", se->line);
		svg_line(s, PL, y, PR, y, BAD, 1.8, "7 4");
		if (se->line_label != NULL)
			svg_text(s, PR - 6, y - 6, "end", 13, NULL, BAD, se->line_label);
		fprintf(f, "</g>\n");
	}
	/* the curve: a line through the valid points (a gap at an invalid one), then the points */
	fprintf(f, "<g class=\"series\" data-key=\"%s\">\n", se->key);
	for (i = 0; i < c->n; i++) {
		if (!point_ok(c, i, se->y)) {
			if (open)
				fputs("\"/>\n", f);
			open = false;
			continue;
		}
		if (!open)
			fprintf(f, "<polyline fill=\"none\" stroke=\"%s\" stroke-width=\"2.5\" points=\"", LINE);
		fprintf(f, "%s%.1f,%.1f", open ? " " : "", figure_axis_pos(axx, c->x[i]), figure_axis_pos(&ay, se->y[i * c->stride] / k));
		open = true;
	}
	if (open)
		fputs("\"/>\n", f);
	for (i = 0; i < c->n; i++) {
		double x, y;
		bool fits = point_fits(c, i);
		if (!point_ok(c, i, se->y))
			continue;
		x = figure_axis_pos(axx, c->x[i]);
		y = figure_axis_pos(&ay, se->y[i * c->stride] / k);
		fprintf(f, "<circle class=\"point\" data-x=\"%.17g\" data-y=\"%.17g\" data-fits=\"%s\" cx=\"%.1f\" cy=\"%.1f\" r=\"%s\" fill=\"%s\"/>\n",
			c->x[i], se->y[i * c->stride], fits ? "true" : "false", x, y, fits ? "4" : "5.5", fits ? LINE : BAD);
	}
	fputs("</g>\n", f);
}

int figure_curve(FILE *f, const struct figure_curve *c)
{
	double h, top;
	struct figure_axis axx;
	struct svg s;
	char title[400];
	size_t j;
	bool any_over = false;

	/* TRANSLATORS: a sweep figure's title: the knob along x, the model, the GPU */
	snprintf(title, sizeof title, _("Sweep of %s: %s on %s"), c->knob->key, figure_model_name(c->sc), figure_gpu_name(c->sc));
	h = 100 + (double)(c->ns + (c->pareto ? 1 : 0)) * (PANEL_H + PANEL_GAP) + 50;
	svg_begin(&s, f, W, h, title);
	top = figure_header(&s, title, c->sc) + 40;
	if (c->n == 0 || c->ns == 0) {
		svg_text(&s, W / 2, top + 40, "middle", 16, NULL, "#555555", _("nothing to draw"));
		return svg_end(&s);
	}
	axx = (struct figure_axis){c->x[0], c->x[c->n - 1], PL + 12, PR - 12, c->log_x && c->x[0] > 0};
	if (!(axx.hi > axx.lo))
		axx.hi = axx.lo + 1;
	for (j = 0; j < c->ns; j++) {
		panel(&s, c, &c->s[j], top, &axx);
		top += PANEL_H + PANEL_GAP;
	}
	/* the x axis' name under the last panel, and what red means */
	svg_text(&s, (PL + PR) / 2, top - PANEL_GAP + 40, "middle", 14, NULL, "#222222", c->knob->key);
	for (j = 0; j < c->n; j++)
		any_over = any_over || ((c->rc == NULL || c->rc[j] == 0) && !point_fits(c, j));
	if (any_over)
		svg_text(&s, PL, top - PANEL_GAP + 40, "start", 13, NULL, BAD, _("red: does not fit in one GPU's memory"));
	if (c->pareto && c->pareto_x < c->ns && c->pareto_y < c->ns)
		figure_pareto_panel(&s, c, top + 20, PL, PR, PANEL_H);
	return svg_end(&s);
}

/* ---------------------------------------------------------------- heatmap */

/* A colour from low (t = 0) to high (t = 1): viridis' ends and three stops between
 * (van der Walt and Smith, matplotlib's perceptually uniform colormap, 2015). */
static void ramp(double t, char *buf, size_t n)
{
	static const double stop[5][3] = {{68, 1, 84}, {59, 82, 139}, {33, 145, 140}, {94, 201, 98}, {253, 231, 37}};
	double u = fmin(fmax(t, 0.0), 1.0) * 4;
	int k = u >= 4 ? 3 : (int)floor(u), c;
	double frac = u - k, rgb[3];

	for (c = 0; c < 3; c++)
		rgb[c] = stop[k][c] + (stop[k + 1][c] - stop[k][c]) * frac;
	snprintf(buf, n, "#%02x%02x%02x", (int)lround(rgb[0]), (int)lround(rgb[1]), (int)lround(rgb[2]));
}

int figure_heatmap(FILE *f, const struct figure_heat *hm)
{
	double lo = INFINITY, hi = -INFINITY, cw, ch = 32, gx = 130, gy = 150, h, ox, oy;
	size_t i, j, n = hm->nx * hm->ny;
	bool logs, headroom = hm->key != NULL && strcmp(hm->key, "memory.headroom") == 0;
	struct svg s;
	char title[400], buf[300], a[64], b[64], col[16];

	for (i = 0; i < n; i++)
		if ((hm->rc == NULL || hm->rc[i] == 0) && isfinite(hm->v[i * hm->stride])) {
			lo = fmin(lo, hm->v[i * hm->stride]);
			hi = fmax(hi, hm->v[i * hm->stride]);
		}
	if (headroom && lo < 0.0) /* as the explorer: every cell that does not fit is the lowest shade */
		lo = 0.0;
	if (hi < lo)
		hi = lo;
	logs = lo > 0.0 && hi > 10.0 * lo;
	cw = hm->nx > 0 ? fmin(96, (W - gx - 170) / (double)hm->nx) : 40;
	h = gy + (double)hm->ny * ch + 64;
	/* TRANSLATORS: a heatmap figure's title: the result, the two knobs, the model, the GPU */
	/* the result as the sweep's panels name it: its words, its key, whose */
	snprintf(buf, sizeof buf, "%s (%s%s)", hm->label, hm->key != NULL ? hm->key : "",
		 hm->unit == ENGINE_UNIT_BYTES && hm->key != NULL && strncmp(hm->key, "memory.", 7) == 0 ? _(", per GPU")
		 : hm->unit == ENGINE_UNIT_SECONDS && (hm->key == NULL || strncmp(hm->key, "serving.", 8) != 0)
			 ? _(", per step")
			 : "");
	snprintf(title, sizeof title, _("%s over %s \xc3\x97 %s: %s on %s"), buf, hm->kx->key, hm->ky->key,
		 figure_model_name(hm->sc), figure_gpu_name(hm->sc));
	svg_begin(&s, f, W, h, title);
	figure_header(&s, title, hm->sc);
	if (n == 0) {
		svg_text(&s, W / 2, gy + 40, "middle", 16, NULL, "#555555", _("nothing to draw"));
		return svg_end(&s);
	}
	/* the axes' names and values: x across the top, y down the left */
	snprintf(buf, sizeof buf, "%s \xe2\x86\x92", hm->kx->key);
	svg_text(&s, gx, gy - 34, "start", 14, "bold", "#222222", buf);
	snprintf(buf, sizeof buf, "%s \xe2\x86\x93", hm->ky->key);
	svg_text(&s, gx - 10, gy - 34, "end", 14, "bold", "#222222", buf);
	for (i = 0; i < hm->nx; i++) {
		figure_knob_value(hm->kx, hm->x[i], a, sizeof a);
		svg_text(&s, gx + (double)i * cw + cw / 2, gy - 10, "middle", 12, NULL, "#333333", a);
	}
	for (j = 0; j < hm->ny; j++) {
		figure_knob_value(hm->ky, hm->y[j], a, sizeof a);
		svg_text(&s, gx - 10, gy + (double)j * ch + ch / 2 + 4, "end", 12, NULL, "#333333", a);
	}
	ox = engine_knob_value(hm->sc, hm->kx);
	oy = engine_knob_value(hm->sc, hm->ky);
	fprintf(f, "<g class=\"cells\" data-key=\"%s\">\n", hm->key != NULL ? hm->key : "");
	for (j = 0; j < hm->ny; j++)
		for (i = 0; i < hm->nx; i++) {
			size_t p = j * hm->nx + i;
			double x = gx + (double)i * cw, y = gy + (double)j * ch, v = hm->v[p * hm->stride], t = 0;
			bool ok = (hm->rc == NULL || hm->rc[p] == 0) && isfinite(v);
			bool fits = ok && (hm->fits == NULL || !(hm->fits[p * hm->stride] < 0.5));
			if (ok && hi > lo)
				t = logs ? log(fmax(v, lo) / lo) / log(hi / lo) : (fmax(v, lo) - lo) / (hi - lo);
			if (ok)
				ramp(t, col, sizeof col);
			else
				snprintf(col, sizeof col, "#dddddd");
			fprintf(f, "<rect class=\"cell\" data-x=\"%.17g\" data-y=\"%.17g\"", hm->x[i], hm->y[j]);
			if (ok)
				fprintf(f, " data-v=\"%.17g\" data-fits=\"%s\"", v, fits ? "true" : "false");
			/* a cell that does not fit is faded: the ones that do stand out */
			fprintf(f, " x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" fill=\"%s\"%s stroke=\"#ffffff\"/>\n", x, y,
				cw, ch, col, ok && !fits ? " fill-opacity=\"0.35\"" : "");
			if (ok && cw >= 60) {
				figure_value(hm->unit, v, a, sizeof a);
				svg_text(&s, x + cw / 2, y + ch / 2 + 4, "middle", 11, NULL, t > 0.55 || !fits ? "#111111" : "#ffffff", a);
			}
			if (ok && !fits) {
				svg_rect(&s, x + 1.5, y + 1.5, cw - 3, ch - 3, "none", BAD);
				svg_text(&s, x + 9, y + 13, "middle", 12, "bold", BAD, "\xe2\x9c\x97");
			}
			if (!ok)
				svg_text(&s, x + cw / 2, y + ch / 2 + 4, "middle", 12, NULL, "#888888", "\xc2\xb7");
			if (hm->x[i] == ox && hm->y[j] == oy)
				fprintf(f, "<rect class=\"own\" x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" fill=\"none\" stroke=\"#000000\" stroke-width=\"3\"/>\n",
					x + 1, y + 1, cw - 2, ch - 2);
		}
	fputs("</g>\n", f);
	/* the colour scale on the right, low at the bottom */
	{
		double bx = gx + (double)hm->nx * cw + 30, by = gy, bh = fmax((double)hm->ny * ch, 120);
		int k;
		for (k = 0; k < 20; k++) {
			ramp((19 - k) / 19.0, col, sizeof col);
			svg_rect(&s, bx, by + k * bh / 20, 18, bh / 20 + 0.5, col, NULL);
		}
		figure_value(hm->unit, hi, a, sizeof a);
		figure_value(hm->unit, lo, b, sizeof b);
		svg_text(&s, bx + 24, by + 10, "start", 12, NULL, "#333333", a);
		svg_text(&s, bx + 24, by + bh, "start", 12, NULL, "#333333", b);
		if (logs)
			svg_text(&s, bx + 24, by + bh / 2, "start", 12, NULL, "#555555", _("(log scale)"));
	}
	svg_text(&s, gx, gy + (double)hm->ny * ch + 34, "start", 13, NULL, "#333333",
		 _("faded, red \xe2\x9c\x97: does not fit in one GPU's memory \xc2\xb7 grey: not a valid scenario \xc2\xb7 black frame: this scenario"));
	return svg_end(&s);
}
