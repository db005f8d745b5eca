/*
 * The sweep's braille plot (view_trade.h): points in data units mapped to dots (2 × 4 a
 * cell), segments clipped to the plot before they are rasterised, then put on the canvas.
 *
 * Why clipping and not a guard: the walk once read its error term after the x step had
 * changed it, so on some slopes a step skipped the end point and the walk never met it
 * (a guard then cut it short); it now reads it once a step, as Bresenham's does. And a
 * point may lie far off the axes (in inference any batch
 * fits, so a range spans 1 .. 10^7, and a result may be huge next to the axis' top). Its
 * dot coordinate, once a double far beyond int, would overflow lround's int and make
 * Bresenham's walk as long as the (wrong) distance. The segment is clipped first, in
 * doubles, to the plot's box (Liang and Barsky, "A new concept and method for line
 * clipping", ACM TOG 3(1), 1984); both ends are then dots inside the box, and the walk
 * takes at most |dx| + |dy| + 1 steps (each step moves x or y or both one dot toward the
 * end), so at most 2w + 4h + 1 for a plot of w × h cells.
 */
#include <math.h>
#include <string.h>

#include "view_trade.h"

void tui_plot_reset(struct tui_plot *p, int w, int h, double x0, double x1, double y0, double y1, bool logx)
{
	memset(p->dots, 0, sizeof p->dots);
	memset(p->style, 0, sizeof p->style);
	p->w = w < 1 ? 1 : w > TUI_PLOT_W ? TUI_PLOT_W : w;
	p->h = h < 1 ? 1 : h > TUI_PLOT_H ? TUI_PLOT_H : h;
	p->logx = logx && x0 > 0.0 && x1 > 0.0;
	p->x0 = x0;
	p->x1 = x1 > x0 ? x1 : x0 + 1.0;
	p->y0 = y0;
	p->y1 = y1 > y0 ? y1 : y0 + 1.0;
}

double tui_plot_xf(const struct tui_plot *p, double x)
{
	double f = p->logx ? (log(x) - log(p->x0)) / (log(p->x1) - log(p->x0)) : (x - p->x0) / (p->x1 - p->x0);
	return f * (2 * p->w - 1);
}

double tui_plot_yf(const struct tui_plot *p, double y)
{
	return (p->y1 - y) / (p->y1 - p->y0) * (4 * p->h - 1);
}

static const uint8_t bit[4][2] = {{0x01, 0x08}, {0x02, 0x10}, {0x04, 0x20}, {0x40, 0x80}};

/* a dot by its dot coordinates; outside the plot it is dropped */
static void dot_at(struct tui_plot *p, int dx, int dy, int style)
{
	int cx = dx / 2, cy = dy / 4;

	if (dx < 0 || dy < 0 || cx >= p->w || cy >= p->h)
		return;
	p->dots[cy][cx] |= bit[dy % 4][dx % 2];
	p->style[cy][cx] = (uint16_t)style;
}

void tui_plot_dot(struct tui_plot *p, double x, double y, int style)
{
	double fx = tui_plot_xf(p, x), fy = tui_plot_yf(p, y);

	if (!(fx >= -0.5 && fx <= 2 * p->w - 0.5 && fy >= -0.5 && fy <= 4 * p->h - 0.5))
		return; /* off the plot (or NaN) */
	dot_at(p, (int)lround(fx), (int)lround(fy), style);
}

/* Liang-Barsky: clips (x0,y0)-(x1,y1) to [0,xmax] × [0,ymax]; false when nothing is left */
static bool clip(double *x0, double *y0, double *x1, double *y1, double xmax, double ymax)
{
	double dx = *x1 - *x0, dy = *y1 - *y0, t0 = 0.0, t1 = 1.0;
	const double pk[4] = {-dx, dx, -dy, dy};
	const double qk[4] = {*x0, xmax - *x0, *y0, ymax - *y0};
	int k;

	if (!isfinite(*x0) || !isfinite(*y0) || !isfinite(*x1) || !isfinite(*y1))
		return false;
	for (k = 0; k < 4; k++) {
		if (pk[k] == 0.0) {
			if (qk[k] < 0.0)
				return false; /* parallel to this edge and outside it */
			continue;
		}
		{
			double t = qk[k] / pk[k];
			if (pk[k] < 0.0) {
				if (t > t1)
					return false;
				if (t > t0)
					t0 = t;
			} else {
				if (t < t0)
					return false;
				if (t < t1)
					t1 = t;
			}
		}
	}
	*x1 = *x0 + t1 * dx;
	*y1 = *y0 + t1 * dy;
	*x0 = *x0 + t0 * dx;
	*y0 = *y0 + t0 * dy;
	return true;
}

struct styled_dot {
	struct tui_plot *p;
	int style;
};

static void styled_dot_at(void *ctx, int x, int y)
{
	const struct styled_dot *sd = ctx;

	dot_at(sd->p, x, y, sd->style);
}

void tui_plot_segment(struct tui_plot *p, double xa, double ya, double xb, double yb, int style)
{
	double fx0 = tui_plot_xf(p, xa), fy0 = tui_plot_yf(p, ya), fx1 = tui_plot_xf(p, xb), fy1 = tui_plot_yf(p, yb);
	int x0, y0, x1, y1;

	if (!clip(&fx0, &fy0, &fx1, &fy1, 2 * p->w - 1, 4 * p->h - 1))
		return;
	/* both ends are in the box now: ints, and the walk below ends (see the top) */
	x0 = (int)lround(fx0);
	y0 = (int)lround(fy0);
	x1 = (int)lround(fx1);
	y1 = (int)lround(fy1);
	{
		struct styled_dot sd = {p, style};
		util_line(x0, y0, x1, y1, styled_dot_at, &sd);
	}
}

void tui_plot_render(const struct tui_plot *p, struct tui_canvas *c, int ox, int oy)
{
	int row, col;

	for (row = 0; row < p->h; row++)
		for (col = 0; col < p->w; col++)
			if (p->dots[row][col])
				tui_canvas_put(c, ox + col, oy + row, 0x2800u + p->dots[row][col], p->style[row][col]);
}

void tui_plot_hline(struct tui_plot *p, double y, int every, int style)
{
	double fy = tui_plot_yf(p, y);
	int x;

	if (!(fy >= -0.5 && fy <= 4 * p->h - 0.5))
		return;
	for (x = 0; x < 2 * p->w; x += every > 0 ? every : 1)
		dot_at(p, x, (int)lround(fy), style);
}

void tui_plot_vline(struct tui_plot *p, double x, int every, int style)
{
	double fx = tui_plot_xf(p, x);
	int y;

	if (!(fx >= -0.5 && fx <= 2 * p->w - 0.5))
		return;
	for (y = 0; y < 4 * p->h; y += every > 0 ? every : 1)
		dot_at(p, (int)lround(fx), y, style);
}
