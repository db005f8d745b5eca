/*
 * The sweep figure's last panel when napkin sweep walks the users of a serving replica:
 * output tokens/s per GPU against the time between tokens, one point a concurrency, in
 * the order of the users (the throughput-latency front serving benchmarks plot, e.g.
 * vLLM's and SGLang's published benchmark charts), and the ITL target as a vertical
 * line. The values are the sweep's own (napkin sweep's rows).
 */
#include <math.h>
#include <stdio.h>

#include "figure_internal.h"
#include "i18n.h"

#define LINE "#1f5fa8"
#define BAD "#c0392b"

static bool ok(const struct figure_curve *c, size_t i, const double *x, const double *y)
{
	return (c->rc == NULL || c->rc[i] == 0) && isfinite(x[i * c->stride]) && isfinite(y[i * c->stride]);
}

void figure_pareto_panel(struct svg *s, const struct figure_curve *c, double top, double pl, double pr, double ph)
{
	const struct figure_series *sx = &c->s[c->pareto_x], *sy = &c->s[c->pareto_y];
	double xlo = INFINITY, xhi = -INFINITY, ylo = INFINITY, yhi = -INFINITY, kx, ky, t[32], bottom = top + ph;
	double lx = -1e9, ly = -1e9;
	const char *ux, *uy;
	struct figure_axis ax, ay;
	char a[64], buf[300];
	size_t i;
	int nt;
	bool open = false;

	for (i = 0; i < c->n; i++)
		if (ok(c, i, sx->y, sy->y)) {
			xlo = fmin(xlo, sx->y[i * c->stride]);
			xhi = fmax(xhi, sx->y[i * c->stride]);
			ylo = fmin(ylo, sy->y[i * c->stride]);
			yhi = fmax(yhi, sy->y[i * c->stride]);
		}
	if (isfinite(c->pareto_line)) {
		xlo = fmin(xlo, c->pareto_line);
		xhi = fmax(xhi, c->pareto_line);
	}
	figure_scale(sx->unit, fmax(fabs(xlo), fabs(xhi)), &kx, &ux);
	figure_scale(sy->unit, fmax(fabs(ylo), fabs(yhi)), &ky, &uy);
	/* TRANSLATORS: the sweep figure's serving panel: throughput (its label) against latency (its label) */
	snprintf(buf, sizeof buf, _("%s against %s, a point a number of users"), sy->label, sx->label);
	svg_text(s, pl, top - 10, "start", 15, "bold", "#222222", buf);
	svg_rect(s, pl, top, pr - pl, ph, "#fbfbfb", "#999999");
	if (!(xhi >= xlo && yhi >= ylo)) {
		svg_text(s, (pl + pr) / 2, top + ph / 2, "middle", 14, NULL, "#777777", _("no valid point"));
		return;
	}
	xlo /= kx;
	xhi /= kx;
	ylo /= ky;
	yhi /= ky;
	figure_axis_nice(&xlo, &xhi);
	figure_axis_nice(&ylo, &yhi);
	ax = (struct figure_axis){xlo, xhi, pl + 12, pr - 12, false};
	ay = (struct figure_axis){ylo, yhi, bottom, top, false};
	nt = figure_axis_ticks(&ay, t, 32);
	for (i = 0; i < (size_t)nt; i++) {
		double y = figure_axis_pos(&ay, t[i]);
		svg_line(s, pl, y, pr, y, "#e4e4e4", 1, NULL);
		snprintf(a, sizeof a, "%g", t[i]);
		svg_text(s, pl - 8, y + 4, "end", 12, NULL, "#333333", a);
	}
	nt = figure_axis_ticks(&ax, t, 32);
	for (i = 0; i < (size_t)nt; i++) {
		double x = figure_axis_pos(&ax, t[i]);
		svg_line(s, x, bottom, x, bottom + 5, "#555555", 1, NULL);
		snprintf(a, sizeof a, "%g", t[i]);
		svg_text(s, x, bottom + 19, "middle", 12, NULL, "#333333", a);
	}
	snprintf(buf, sizeof buf, "%s (%s)%s%s", sx->label, sx->key, ux[0] ? " \xc2\xb7 " : "", ux);
	svg_text(s, (pl + pr) / 2, bottom + 40, "middle", 14, NULL, "#222222", buf);
	snprintf(buf, sizeof buf, "%s", uy);
	svg_text(s, pl - 8, top - 10, "end", 12, NULL, "#333333", buf);
	/* the latency target, dashed (its value exactly in data-v) */
	if (isfinite(c->pareto_line)) {
		double x = figure_axis_pos(&ax, c->pareto_line / kx);
		fprintf(s->f, "<g class=\"limit\" data-v=\"%.17g\">\n", c->pareto_line);
		svg_line(s, x, top, x, bottom, BAD, 1.8, "7 4");
		if (c->pareto_line_label != NULL)
			svg_text(s, x - 6, top + 16, "end", 13, NULL, BAD, c->pareto_line_label);
		fputs("</g>\n", s->f);
	}
	fprintf(s->f, "<g class=\"pareto\" data-x-key=\"%s\" data-y-key=\"%s\">\n", sx->key, sy->key);
	for (i = 0; i < c->n; i++) {
		if (!ok(c, i, sx->y, sy->y))
			continue;
		if (!open)
			fprintf(s->f, "<polyline fill=\"none\" stroke=\"%s\" stroke-width=\"2.5\" points=\"", LINE);
		fprintf(s->f, "%s%.1f,%.1f", open ? " " : "", figure_axis_pos(&ax, sx->y[i * c->stride] / kx),
			figure_axis_pos(&ay, sy->y[i * c->stride] / ky));
		open = true;
	}
	if (open)
		fputs("\"/>\n", s->f);
	for (i = 0; i < c->n; i++) {
		double x, y;
		if (!ok(c, i, sx->y, sy->y))
			continue;
		x = figure_axis_pos(&ax, sx->y[i * c->stride] / kx);
		y = figure_axis_pos(&ay, sy->y[i * c->stride] / ky);
		fprintf(s->f,
			"<circle class=\"point\" data-users=\"%.17g\" data-x=\"%.17g\" data-y=\"%.17g\" cx=\"%.1f\" cy=\"%.1f\" "
			"r=\"4\" fill=\"%s\"/>\n",
			c->x[i], sx->y[i * c->stride], sy->y[i * c->stride], x, y, LINE);
		/* the users beside each point, once where saturated points fall on one another */
		if (!(fabs(x - lx) < 10 && fabs(y - ly) < 10)) {
			figure_short(c->x[i], a, sizeof a);
			svg_text(s, x + 6, y - 6, "start", 11, NULL, "#555555", a);
			lx = x;
			ly = y;
		}
	}
	fputs("</g>\n", s->f);
}
