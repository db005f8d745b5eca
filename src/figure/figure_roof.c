/*
 * The roofline figure (figure.h): the explorer's roofline pane (src/tui/roofline.c) as an
 * SVG. Williams, Waterman and Patterson, "Roofline: an insightful visual performance model
 * for multicore architectures", CACM 52(4), 2009: attainable = min(peak, intensity ×
 * bandwidth), log-log. The roofs, the ridge and the points are the engine's
 * (struct engine_roofline), exactly as napkin report --format json gives them.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "figure_internal.h"
#include "i18n.h"

#define W 960.0
#define H 660.0
#define PL 110.0 /* the plot's left edge: room for the y ticks and the axis' name */
#define PR (W - 40.0)
#define PT 104.0
#define PB (H - 170.0) /* under it: the x ticks, the axis' name, the legend */

static const char point_letter[ENGINE_PT_COUNT] = {'T', 'P', 'D', 'E'};
static const char *const point_colour[ENGINE_PT_COUNT] = {"#d62728", "#2ca02c", "#9467bd", "#8c564b"};
#define ROOF "#1f5fa8"

/* The y a point is drawn at, as the pane draws it: training at the FLOP/s it achieves
 * when that is below the roof (never above it), the others on the roof. */
static double point_y(const struct engine_scenario *sc, const struct engine_result *r, int i)
{
	const struct engine_roofline_point *pt = &r->roofline.points[i];
	double achieved = sc->mode == ENGINE_MODE_TRAIN ? r->compute.achieved_flops : 0.0;

	return i == ENGINE_PT_TRAIN && achieved > 0 && achieved < pt->attainable ? achieved : pt->attainable;
}

/* Where a label of text goes among candidate places (x, y, anchor): the first whose box
 * (its width at about 0.55 em a column, an em high) keeps clear of every point's circle;
 * the first when none does. */
struct place {
	double x, y;
	const char *anchor;
};
static struct place clear_place(const struct place *c, int nc, const char *text, double size, const double *px,
				const double *py, int np)
{
	double w = (double)util_text_width(text) * size * 0.55, r = 13;
	int i, k;

	for (i = 0; i < nc; i++) {
		double x0 = strcmp(c[i].anchor, "end") == 0 ? c[i].x - w : c[i].x, x1 = x0 + w, y0 = c[i].y - size, y1 = c[i].y + 3;
		bool hit = false;
		for (k = 0; k < np && !hit; k++)
			hit = px[k] + r > x0 && px[k] - r < x1 && py[k] + r > y0 && py[k] - r < y1;
		if (!hit)
			return c[i];
	}
	return c[0];
}

static void tflops(double v, char *buf, size_t n)
{
	/* a tick in TFLOP/s (10^12 FLOP/s): 0.1, 1, 10, 100, 1000 */
	snprintf(buf, n, "%g", v / 1e12);
}

int figure_roofline(FILE *f, const struct engine_scenario *sc, const struct engine_result *r)
{
	const struct engine_roofline *rl = &r->roofline;
	double peak = rl->peak, bw = rl->bandwidth, ridge, peak32 = engine_gpu_peak(&sc->gpu, ENGINE_DT_FP32);
	double xmin = 0.1, xmax, ymin, ymax, t[32], y0, px[ENGINE_PT_COUNT], py[ENGINE_PT_COUNT];
	int first = sc->mode == ENGINE_MODE_INFER ? ENGINE_PT_PREFILL : ENGINE_PT_TRAIN, i, nt, np = 0;
	const char *dtn = rl->dt >= 0 && rl->dt < ENGINE_DT_COUNT ? engine_dtype_info((enum engine_dtype)rl->dt)->name : "?";
	struct figure_axis ax, ay;
	struct svg s;
	char title[400], buf[400], a[64], b[64];

	/* TRANSLATORS: the roofline figure's title: the GPU, the matmul dtype, the model */
	snprintf(title, sizeof title, _("Roofline of one %s (%s), per GPU: %s"), figure_gpu_name(sc), C_("dtype in prose", dtn),
		 figure_model_name(sc));
	svg_begin(&s, f, W, H, title);
	y0 = figure_header(&s, title, sc);
	(void)y0;
	if (!(peak > 0 && bw > 0)) {
		svg_text(&s, W / 2, H / 2, "middle", 18, NULL, "#555555", _("(no roofline: no peak or bandwidth)"));
		return svg_end(&s);
	}
	ridge = peak / bw;
	/* the ranges, as the pane's: every point, the ridge, a decade either side */
	xmax = ridge * 4;
	ymin = bw * xmin;
	for (i = first; i < ENGINE_PT_COUNT; i++) {
		double x = rl->points[i].intensity, y = point_y(sc, r, i);
		if (x > 0 && y > 0) {
			xmin = fmin(xmin, x / 2);
			xmax = fmax(xmax, x * 4);
			ymin = fmin(ymin, y / 2);
		}
	}
	ymax = peak * 2;
	ax = (struct figure_axis){pow(10, floor(log10(xmin))), pow(10, ceil(log10(xmax))), PL, PR, true};
	ay = (struct figure_axis){pow(10, floor(log10(ymin))), pow(10, ceil(log10(ymax))), PB, PT, true};
	if (log10(ay.hi) - log10(ay.lo) < 2)
		ay.lo = ay.hi / 100;
	/* the points' places, which the labels keep clear of */
	for (i = first; i < ENGINE_PT_COUNT; i++) {
		double yv = point_y(sc, r, i);
		if (rl->points[i].intensity > 0 && yv > 0) {
			px[np] = figure_axis_pos(&ax, rl->points[i].intensity);
			py[np++] = figure_axis_pos(&ay, yv);
		}
	}

	/* the frame, the decades' grid and ticks */
	svg_rect(&s, PL, PT, PR - PL, PB - PT, "#fbfbfb", "#999999");
	nt = figure_axis_ticks(&ax, t, 32);
	for (i = 0; i < nt; i++) {
		double x = figure_axis_pos(&ax, t[i]);
		svg_line(&s, x, PT, x, PB, "#e4e4e4", 1, NULL);
		figure_short(t[i], a, sizeof a);
		svg_text(&s, x, PB + 20, "middle", 13, NULL, "#333333", a);
	}
	nt = figure_axis_ticks(&ay, t, 32);
	for (i = 0; i < nt; i++) {
		double y = figure_axis_pos(&ay, t[i]);
		svg_line(&s, PL, y, PR, y, "#e4e4e4", 1, NULL);
		tflops(t[i], a, sizeof a);
		svg_text(&s, PL - 8, y + 4, "end", 13, NULL, "#333333", a);
	}
	svg_text(&s, (PL + PR) / 2, PB + 42, "middle", 14, NULL, "#222222",
		 _("arithmetic intensity (FLOP/B: FLOPs per byte moved to and from memory)"));
	fprintf(f, "<text transform=\"translate(%.1f %.1f) rotate(-90)\" text-anchor=\"middle\" font-size=\"14\" fill=\"#222222\">",
		PL - 64, (PT + PB) / 2);
	svg_escape(f, _("attainable TFLOP/s per GPU"));
	fputs("</text>\n", f);

	/* fp32's roof, dashed, for contrast (the pane draws it where it is below the matmul's) */
	if (peak32 > 0 && peak32 < peak * 0.99) {
		double x = figure_axis_pos(&ax, peak32 / bw), y = figure_axis_pos(&ay, peak32);
		engine_fmt_si(peak32, "FLOP/s", a, sizeof a);
		fprintf(f, "<g class=\"roof-fp32\" data-flops=\"%.17g\">\n", peak32);
		svg_line(&s, x, y, PR, y, "#888888", 1.5, "6 4");
		snprintf(buf, sizeof buf, _("%s peak %s"), C_("dtype in prose", "fp32"), a);
		{
			const struct place c[] = {{PR - 6, y - 6, "end"}, {PR - 6, y + 28, "end"}, {x + 6, y - 6, "start"}, {x + 6, y + 28, "start"}};
			struct place at = clear_place(c, 4, buf, 13, px, py, np);
			svg_text(&s, at.x, at.y, at.anchor, 13, NULL, "#666666", buf);
		}
		fputs("</g>\n", f);
	}
	/* the ridge: dotted, from the floor to the roof */
	{
		double x = figure_axis_pos(&ax, ridge);
		fprintf(f, "<g class=\"ridge\" data-intensity=\"%.17g\">\n", ridge);
		svg_line(&s, x, figure_axis_pos(&ay, peak), x, PB, "#777777", 1.2, "2 4");
		snprintf(buf, sizeof buf, _("ridge %.0f FLOP/B"), ridge);
		svg_text(&s, x + 6, PB - 8, "start", 13, NULL, "#555555", buf);
		fputs("</g>\n", f);
	}
	/* the roof: the bandwidth slope up to the ridge, then the compute roof */
	{
		double x0 = figure_axis_pos(&ax, ax.lo), yb = figure_axis_pos(&ay, ax.lo * bw), xr = figure_axis_pos(&ax, ridge);
		double yr = figure_axis_pos(&ay, peak), ang;
		double cx0 = x0, cy0 = yb;
		/* clip the slope at the plot's floor */
		if (yb > PB) {
			cx0 = figure_axis_pos(&ax, ay.lo / bw);
			cy0 = PB;
		}
		fprintf(f, "<g class=\"roof\" data-flops=\"%.17g\" data-bandwidth=\"%.17g\">\n", peak, bw);
		fprintf(f, "<polyline fill=\"none\" stroke=\"%s\" stroke-width=\"3\" points=\"%.1f,%.1f %.1f,%.1f %.1f,%.1f\"/>\n",
			ROOF, cx0, cy0, xr, yr, PR, yr);
		engine_fmt_si(peak, "FLOP/s", a, sizeof a);
		snprintf(buf, sizeof buf, _("%s peak %s"), C_("dtype in prose", dtn), a);
		{
			const struct place c[] = {{PR - 6, yr - 8, "end"}, {PR - 6, yr + 30, "end"}, {xr + 8, yr - 8, "start"}, {xr + 8, yr + 30, "start"}};
			struct place at = clear_place(c, 4, buf, 14, px, py, np);
			svg_text(&s, at.x, at.y, at.anchor, 14, "bold", ROOF, buf);
		}
		engine_fmt_si(bw, "B/s", b, sizeof b);
		snprintf(buf, sizeof buf, _("memory bandwidth %s"), b);
		ang = atan2(yr - cy0, xr - cx0) * 180.0 / 3.14159265358979323846; /* degrees */
		/* along the slope where it is farthest from every point, just above the line */
		{
			double best = -1, bt = 0.3;
			int j;
			for (j = 0; j <= 12; j++) { /* 0.2 to 0.8 of the slope, in steps of 0.05 */
				double tt = 0.2 + 0.05 * j;
				double sx = cx0 + (xr - cx0) * tt, sy = cy0 + (yr - cy0) * tt, near = 1e9;
				int k;
				for (k = 0; k < np; k++)
					near = fmin(near, hypot(sx - px[k], sy - py[k]));
				if (near > best) {
					best = near;
					bt = tt;
				}
			}
			fprintf(f,
				"<text transform=\"translate(%.1f %.1f) rotate(%.1f)\" x=\"0\" y=\"-8\" text-anchor=\"middle\" "
				"font-size=\"13\" fill=\"%s\">",
				cx0 + (xr - cx0) * bt, cy0 + (yr - cy0) * bt, ang, ROOF);
		}
		svg_escape(f, buf);
		fputs("</text>\n</g>\n", f);
	}
	/* the operating points, each with its letter */
	for (i = first; i < ENGINE_PT_COUNT; i++) {
		const struct engine_roofline_point *pt = &rl->points[i];
		double yv = point_y(sc, r, i), x, y;
		char letter[2] = {point_letter[i], '\0'};
		if (!(pt->intensity > 0 && yv > 0))
			continue;
		x = figure_axis_pos(&ax, pt->intensity);
		y = figure_axis_pos(&ay, yv);
		fprintf(f,
			"<g class=\"point\" data-name=\"%s\" data-intensity=\"%.17g\" data-flops=\"%.17g\" "
			"data-attainable=\"%.17g\" data-bound=\"%s\">\n",
			pt->name, pt->intensity, yv, pt->attainable, pt->memory_bound ? "memory" : "compute");
		fprintf(f, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"11\" fill=\"%s\" stroke=\"#ffffff\" stroke-width=\"1.5\"/>\n", x, y,
			point_colour[i]);
		svg_text(&s, x, y + 4.5, "middle", 13, "bold", "#ffffff", letter);
		fputs("</g>\n", f);
	}
	/* the legend: letter, name, intensity, FLOP/s, bound (the pane's, with the rate) */
	for (i = first; i < ENGINE_PT_COUNT; i++) {
		const struct engine_roofline_point *pt = &rl->points[i];
		double yv = point_y(sc, r, i), ly = PB + 72 + (i - first) * 22;
		char letter[2] = {point_letter[i], '\0'};
		figure_short(pt->intensity, a, sizeof a);
		if (pt->intensity < 10)
			snprintf(a, sizeof a, "%.3g", pt->intensity);
		else if (pt->intensity < 1000)
			snprintf(a, sizeof a, "%.0f", pt->intensity);
		engine_fmt_si(yv, "FLOP/s", b, sizeof b);
		if (i == ENGINE_PT_TRAIN && yv < pt->attainable) {
			char c[64];
			engine_fmt_si(pt->attainable, "FLOP/s", c, sizeof c);
			/* TRANSLATORS: a legend row: name, intensity, achieved and attainable FLOP/s, bound */
			snprintf(buf, sizeof buf, _("%s: %s FLOP/B, achieves %s of %s attainable, %s"), _(pt->label), a, b, c,
				 pt->memory_bound ? _("memory-bound") : _("compute-bound"));
		} else {
			/* TRANSLATORS: a legend row: name, intensity, attainable FLOP/s, bound */
			snprintf(buf, sizeof buf, _("%s: %s FLOP/B, attainable %s, %s"), _(pt->label), a, b,
				 pt->memory_bound ? _("memory-bound") : _("compute-bound"));
		}
		fprintf(f, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"8\" fill=\"%s\"/>\n", PL + 8, ly - 4.5, point_colour[i]);
		svg_text(&s, PL + 8, ly, "middle", 11, "bold", "#ffffff", letter);
		svg_text(&s, PL + 24, ly, "start", 14, NULL, "#222222", buf);
	}
	return svg_end(&s);
}
