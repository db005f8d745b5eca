/* plot: a braille curve and a shade heatmap, as UTF-8 text (plot.h). */
#include <math.h>
#include <string.h>

#include "cli.h"
#include "i18n.h"
#include "plot.h"

#define MAXW 160
#define MAXH 48

void plot_value(enum engine_unit u, double v, char *buf, size_t n)
{
	if (isnan(v))
		snprintf(buf, n, "-");
	else
		engine_unit_format_tr(u, v, &cli_tr, buf, n); /* 205.6 天 in Chinese text */
}

/* One braille character: dots (0..1, 0..3) → bits (Unicode's braille patterns, U+2800). */
static const unsigned char dot_bit[4][2] = {{0x01, 0x08}, {0x02, 0x10}, {0x04, 0x20}, {0x40, 0x80}};

static void put_braille(FILE *f, unsigned bits)
{
	unsigned cp = 0x2800u + bits;

	fputc((int)(0xE0u | (cp >> 12)), f);
	fputc((int)(0x80u | ((cp >> 6) & 0x3Fu)), f);
	fputc((int)(0x80u | (cp & 0x3Fu)), f);
}

struct grid {
	unsigned char cell[MAXH][MAXW];
	int w, h; /* in characters */
};

static void dot(struct grid *g, int x, int y)
{
	if (x < 0 || y < 0 || x >= 2 * g->w || y >= 4 * g->h)
		return;
	g->cell[y / 4][x / 2] |= dot_bit[y % 4][x % 2];
}

static void grid_dot(void *ctx, int x, int y)
{
	dot(ctx, x, y);
}

static double xpos_of(bool log_x, double x, double lo, double hi)
{
	if (hi <= lo)
		return 0.0;
	if (log_x)
		return (log(x) - log(lo)) / (log(hi) - log(lo));
	return (x - lo) / (hi - lo);
}

static double xpos(const struct plot_curve *c, double x, double lo, double hi)
{
	if (hi <= lo)
		return 0.0;
	if (c->log_x)
		return (log(x) - log(lo)) / (log(hi) - log(lo));
	return (x - lo) / (hi - lo);
}

void plot_curve(FILE *f, const struct plot_curve *c, int width, int height)
{
	struct grid g;
	double ylo = 0.0, yhi = 0.0, xlo, xhi;
	size_t i;
	int row, col, prev_x = -1, prev_y = -1, line_row = -1, mark_col = -1, cur_col = -1;
	char lo_s[40], hi_s[40], mid_s[40], buf[64];
	bool any = false;

	if (width > MAXW)
		width = MAXW;
	if (height > MAXH)
		height = MAXH;
	if (c->n == 0)
		return;
	memset(&g, 0, sizeof g);
	g.w = width;
	g.h = height;
	xlo = c->x[0];
	xhi = c->x[c->n - 1];
	for (i = 0; i < c->n; i++)
		if (!isnan(c->y[i])) {
			if (!any || c->y[i] > yhi)
				yhi = c->y[i];
			if (!any || c->y[i] < ylo)
				ylo = c->y[i];
			any = true;
		}
	if (!isnan(c->line) && c->line > yhi)
		yhi = c->line;
	if (ylo > 0)
		ylo = 0.0; /* from zero: sizes and times are read against it */
	if (yhi <= ylo)
		yhi = ylo + 1.0;
	yhi *= 1.05;
	for (i = 0; i < c->n; i++) {
		int px, py;
		if (isnan(c->y[i])) {
			prev_x = -1;
			continue;
		}
		px = (int)lround(xpos(c, c->x[i], xlo, xhi) * (2 * width - 1));
		py = (int)lround((1.0 - (c->y[i] - ylo) / (yhi - ylo)) * (4 * height - 1));
		if (prev_x >= 0)
			util_line(prev_x, prev_y, px, py, grid_dot, &g);
		else
			dot(&g, px, py);
		prev_x = px;
		prev_y = py;
		if ((long)i == c->mark)
			mark_col = px / 2;
		if ((long)i == c->current)
			cur_col = px / 2;
	}
	if (!isnan(c->line)) {
		int py = (int)lround((1.0 - (c->line - ylo) / (yhi - ylo)) * (4 * height - 1)), x;
		line_row = py / 4;
		for (x = 0; x < 2 * width; x += 2)
			dot(&g, x, py);
	}
	fprintf(f, "%s\n", c->title);
	plot_value(c->y_unit, yhi, hi_s, sizeof hi_s);
	plot_value(c->y_unit, (ylo + yhi) / 2, mid_s, sizeof mid_s);
	plot_value(c->y_unit, ylo, lo_s, sizeof lo_s);
	for (row = 0; row < height; row++) {
		const char *tick = row == 0 ? hi_s : row == height / 2 ? mid_s : row == height - 1 ? lo_s : "";
		fprintf(f, "%12s %s", tick, row == 0 || row == height / 2 || row == height - 1 ? "┤" : "│");
		for (col = 0; col < width; col++)
			put_braille(f, g.cell[row][col]);
		if (row == line_row && c->line_label != NULL)
			fprintf(f, " %s", c->line_label);
		fputc('\n', f);
	}
	fprintf(f, "%12s └", "");
	for (col = 0; col < width; col++)
		fputs(col == 0 || col == width / 2 || col == width - 1 ? "┬" : "─", f);
	fputc('\n', f);
	{
		/* ticks: first, middle, last x */
		char t0[40], t1[40], t2[40];
		double xm = c->log_x ? sqrt(xlo * xhi) : (xlo + xhi) / 2;
		int pad;
		plot_value(c->x_unit, xlo, t0, sizeof t0);
		plot_value(c->x_unit, xm, t1, sizeof t1);
		plot_value(c->x_unit, xhi, t2, sizeof t2);
		pad = width / 2 - (int)strlen(t0) - (int)strlen(t1) / 2;
		fprintf(f, "%14s%s%*s%s", "", t0, pad > 1 ? pad : 1, "", t1);
		pad = width - width / 2 - (int)strlen(t1) / 2 - (int)strlen(t1) % 2 - (int)strlen(t2);
		fprintf(f, c->log_x ? _("%*s%s  %s (log scale)\n") : "%*s%s  %s\n", pad > 1 ? pad : 1, "", t2, c->x_name);
	}
	if (mark_col >= 0 || cur_col >= 0) {
		fprintf(f, "%14s", "");
		for (col = 0; col < width; col++)
			fputs(col == mark_col ? "▲" : col == cur_col ? "△" : " ", f);
		fputc('\n', f);
		if (mark_col >= 0 && c->mark_label != NULL)
			fprintf(f, "%14s▲ %s\n", "", c->mark_label);
		if (cur_col >= 0 && cur_col != mark_col) {
			plot_value(c->x_unit, c->x[c->current], buf, sizeof buf);
			fprintf(f, _("%14s△ the scenario's %s (%s)\n"), "", c->x_name, buf);
		}
	}
}

/* the bands' glyphs, bottom first: block shades, then marks that read apart in any font */
static const char *const band_glyph[] = {"█", "▓", "▒", "░", "▚", "≡", "▞", "#", "=", "+", ":", "~"};
#define NGLYPH (sizeof band_glyph / sizeof band_glyph[0])

/* ticks under a chart: first, middle and last x, the knob's name; then the marks */
static void x_axis(FILE *f, const double *x, size_t n, bool log_x, enum engine_unit u, const char *name, int width,
		   int mark_col, int cur_col, const char *mark_label, double cur_x)
{
	char t0[40], t1[40], t2[40], buf[64];
	double xlo = x[0], xhi = x[n - 1], xm = log_x ? sqrt(xlo * xhi) : (xlo + xhi) / 2;
	int pad, col;

	fprintf(f, "%12s └", "");
	for (col = 0; col < width; col++)
		fputs(col == 0 || col == width / 2 || col == width - 1 ? "┬" : "─", f);
	fputc('\n', f);
	plot_value(u, xlo, t0, sizeof t0);
	plot_value(u, xm, t1, sizeof t1);
	plot_value(u, xhi, t2, sizeof t2);
	pad = width / 2 - (int)strlen(t0) - (int)strlen(t1) / 2;
	fprintf(f, "%14s%s%*s%s", "", t0, pad > 1 ? pad : 1, "", t1);
	pad = width - width / 2 - (int)strlen(t1) / 2 - (int)strlen(t1) % 2 - (int)strlen(t2);
	fprintf(f, log_x ? _("%*s%s  %s (log scale)\n") : "%*s%s  %s\n", pad > 1 ? pad : 1, "", t2, name);
	if (mark_col >= 0 || cur_col >= 0) {
		fprintf(f, "%14s", "");
		for (col = 0; col < width; col++)
			fputs(col == mark_col ? "▲" : col == cur_col ? "△" : " ", f);
		fputc('\n', f);
		if (mark_col >= 0 && mark_label != NULL)
			fprintf(f, "%14s▲ %s\n", "", mark_label);
		if (cur_col >= 0 && cur_col != mark_col) {
			plot_value(u, cur_x, buf, sizeof buf);
			fprintf(f, _("%14s△ the scenario's %s (%s)\n"), "", name, buf);
		}
	}
}

void plot_stack(FILE *f, const struct plot_stack *s, int width, int height)
{
	double yhi = 0.0, xlo, xhi;
	size_t i, k, p = 0;
	int row, col, line_row = -1, mark_col = -1, cur_col = -1;
	char hi_s[40], mid_s[40], lo_s[40];
	static int cell[MAXH][MAXW]; /* the band of each cell, -1: none (the caller is single-threaded) */

	if (width > MAXW)
		width = MAXW;
	if (height > MAXH)
		height = MAXH;
	if (s->n == 0 || s->np == 0)
		return;
	xlo = s->x[0];
	xhi = s->x[s->n - 1];
	for (i = 0; i < s->n; i++) {
		double tot = 0.0;
		for (k = 0; k < s->np; k++)
			tot += isnan(s->v[i * s->np + k]) ? 0.0 : s->v[i * s->np + k];
		if (tot > yhi)
			yhi = tot;
	}
	if (!isnan(s->line) && s->line > yhi)
		yhi = s->line;
	if (yhi <= 0)
		yhi = 1.0;
	yhi *= 1.05;
	for (col = 0; col < width; col++) {
		/* the column's middle in x, and the two points either side */
		double fc = (col + 0.5) / width, cum = 0.0, t, fa, fb;
		for (row = 0; row < height; row++)
			cell[row][col] = -1;
		while (p + 2 < s->n && xpos_of(s->log_x, s->x[p + 1], xlo, xhi) < fc)
			p++;
		if (s->n < 2)
			continue;
		fa = xpos_of(s->log_x, s->x[p], xlo, xhi);
		fb = xpos_of(s->log_x, s->x[p + 1], xlo, xhi);
		t = fb > fa ? (fc - fa) / (fb - fa) : 0.0;
		t = t < 0.0 ? 0.0 : t > 1.0 ? 1.0 : t;
		for (k = 0; k < s->np; k++) {
			double a = s->v[p * s->np + k], b = s->v[(p + 1) * s->np + k], y = (1.0 - t) * a + t * b, lo = cum;
			if (isnan(y) || y <= 0.0)
				continue;
			cum += y;
			for (row = 0; row < height; row++) {
				double mid = yhi * (height - row - 0.5) / height;
				if (mid >= lo && mid < cum)
					cell[row][col] = (int)k;
			}
		}
	}
	if (!isnan(s->line))
		line_row = (int)floor((1.0 - s->line / yhi) * height);
	for (i = 0; i < s->n; i++) {
		int c = (int)floor(xpos_of(s->log_x, s->x[i], xlo, xhi) * (width - 1) + 0.5);
		if ((long)i == s->mark)
			mark_col = c;
		if ((long)i == s->current)
			cur_col = c;
	}
	fprintf(f, "%s\n", s->title);
	plot_value(s->y_unit, yhi, hi_s, sizeof hi_s);
	plot_value(s->y_unit, yhi / 2, mid_s, sizeof mid_s);
	plot_value(s->y_unit, 0.0, lo_s, sizeof lo_s);
	for (row = 0; row < height; row++) {
		const char *tick = row == 0 ? hi_s : row == height / 2 ? mid_s : row == height - 1 ? lo_s : "";
		fprintf(f, "%12s %s", tick, row == 0 || row == height / 2 || row == height - 1 ? "┤" : "│");
		for (col = 0; col < width; col++)
			fputs(row == line_row ? "┄" : cell[row][col] < 0 ? " " : band_glyph[(size_t)cell[row][col] % NGLYPH], f);
		if (row == line_row && s->line_label != NULL)
			fprintf(f, " %s", s->line_label);
		fputc('\n', f);
	}
	x_axis(f, s->x, s->n, s->log_x, s->x_unit, s->x_name, width, mark_col, cur_col, NULL,
	       s->current >= 0 ? s->x[s->current] : NAN);
	if (s->at >= 0 && (size_t)s->at < s->n) {
		char xv[40], yv[40];
		int col_used = 0;
		plot_value(s->x_unit, s->x[s->at], xv, sizeof xv);
		fprintf(f, "%14sat %s %s:", "", s->x_name, xv);
		col_used = 14 + 4 + (int)strlen(s->x_name) + (int)strlen(xv) + 1;
		for (k = s->np; k-- > 0;) { /* top band first, as the chart reads */
			double y = s->v[(size_t)s->at * s->np + k];
			int w;
			if (isnan(y) || y <= 0.0)
				continue;
			plot_value(s->y_unit, y, yv, sizeof yv);
			w = 3 + (int)strlen(s->names[k]) + 1 + (int)strlen(yv);
			if (col_used + w > 14 + width + 8) {
				fprintf(f, "\n%14s", "");
				col_used = 14;
			}
			fprintf(f, "  %s %s %s", band_glyph[k % NGLYPH], s->names[k], yv);
			col_used += w;
		}
		fputc('\n', f);
	}
}

void plot_heatmap(FILE *f, const char *title, const double *xs, size_t nx, const double *ys, size_t ny,
		  const double *v, const double *fits, enum engine_unit x_unit, enum engine_unit y_unit,
		  enum engine_unit v_unit, const char *x_name, const char *y_name, bool fits_only)
{
	static const char *const shade[] = {"░", "▒", "▓", "█"};
	double lo = NAN, hi = NAN;
	size_t ix, iy, i, nfit = 0, nover = 0;
	char a[40], b[40];

	/* the scale spans the cells that fit: a layout that does not fit has no MFU or
	 * headroom worth a shade (it is drawn ✗) */
	for (i = 0; i < nx * ny; i++) {
		if (isnan(v[i]))
			continue;
		if (fits != NULL && !(fits[i] > 0.5)) {
			nover++;
			continue;
		}
		nfit++;
		if (isnan(lo) || v[i] < lo)
			lo = v[i];
		if (isnan(hi) || v[i] > hi)
			hi = v[i];
	}
	fprintf(f, _("%s (rows: %s, columns: %s)\n"), title, y_name, x_name);
	for (iy = 0; iy < ny; iy++) {
		plot_value(y_unit, ys[iy], a, sizeof a);
		fprintf(f, "%12s │", a);
		for (ix = 0; ix < nx; ix++) {
			double c = v[iy * nx + ix];
			const char *s;
			if (isnan(c))
				s = "·";
			else if (fits_only ? !(c > 0.5) : fits != NULL && !(fits[iy * nx + ix] > 0.5))
				s = "✗";
			else if (fits_only)
				s = "█";
			else {
				int k = hi > lo ? (int)floor((c - lo) / (hi - lo) * 4.0) : 3;
				s = shade[k < 0 ? 0 : k > 3 ? 3 : k];
			}
			fputs(s, f);
		}
		fputc('\n', f);
	}
	fprintf(f, "%12s └", "");
	for (ix = 0; ix < nx; ix++)
		fputs("─", f);
	fputc('\n', f);
	plot_value(x_unit, xs[0], a, sizeof a);
	plot_value(x_unit, xs[nx - 1], b, sizeof b);
	fprintf(f, _("%14s%s … %s (%s, %zu columns)\n"), "", a, b, x_name, nx);
	if (fits_only) {
		fprintf(f, _("%14s█ fits   ✗ does not fit   · invalid\n"), "");
	} else if (nfit == 0) {
		fprintf(f, _("%14sno cell fits: ✗ does not fit   · invalid\n"), "");
	} else {
		plot_value(v_unit, lo, a, sizeof a);
		plot_value(v_unit, hi, b, sizeof b);
		if (hi > lo)
			fprintf(f, _("%14s░ %s … █ %s (four equal steps, over the cells that fit)\n"), "", a, b);
		else
			fprintf(f, _("%14s█ %s (every cell that fits)\n"), "", b);
		fprintf(f, nover > 0 ? _("%14s✗ does not fit (not shaded)   · invalid\n") : _("%14s· invalid\n"), "");
	}
}
