/* The SVG writer the figures draw with (figure_internal.h): elements, escaping, axes. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "figure_internal.h"
#include "i18n.h"

void svg_escape(FILE *f, const char *text)
{
	const unsigned char *p = (const unsigned char *)(text != NULL ? text : "");

	for (; *p; p++) {
		switch (*p) {
		case '&': fputs("&amp;", f); break;
		case '<': fputs("&lt;", f); break;
		case '>': fputs("&gt;", f); break;
		case '"': fputs("&quot;", f); break;
		case '\'': fputs("&apos;", f); break;
		default:
			/* XML 1.0 allows tab, newline and return among the control characters */
			if (*p < 0x20 && *p != '\t' && *p != '\n' && *p != '\r')
				break;
			if (*p >= 0x80) {
				/* a whole UTF-8 sequence (RFC 3629: 2 to 4 bytes, no overlong lead) or nothing */
				int len = *p >= 0xc2 && *p <= 0xdf ? 2 : *p >= 0xe0 && *p <= 0xef ? 3 : *p >= 0xf0 && *p <= 0xf4 ? 4 : 0;
				int i;
				for (i = 1; i < len; i++)
					if ((p[i] & 0xc0) != 0x80) {
						len = 0; /* a NUL ends the loop here too */
						break;
					}
				if (len > 0) {
					fwrite(p, 1, (size_t)len, f);
					p += len - 1;
				}
				break;
			}
			fputc(*p, f);
		}
	}
}

void svg_begin(struct svg *s, FILE *f, double w, double h, const char *title)
{
	s->f = f;
	s->w = w;
	s->h = h;
	fputs("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n", f);
	fprintf(f,
		"<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%g\" height=\"%g\" viewBox=\"0 0 %g %g\" "
		"font-family=\"%s\" lang=\"%s\">\n",
		w, h, w, h, FIGURE_FONTS, i18n_get() == I18N_ZH ? "zh-CN" : "en");
	fputs("<title>", f);
	svg_escape(f, title);
	fputs("</title>\n<desc>", f);
	/* TRANSLATORS: the figure's description inside the SVG file; %s is napkin */
	fprintf(f, _("Drawn by %s from the same results as its report."), "napkin");
	fputs("</desc>\n", f);
	fprintf(f, "<rect x=\"0\" y=\"0\" width=\"%g\" height=\"%g\" fill=\"#ffffff\"/>\n", w, h);
}

int svg_end(struct svg *s)
{
	fputs("</svg>\n", s->f);
	return fflush(s->f) != 0 || ferror(s->f) ? NAPKIN_EIO : NAPKIN_OK;
}

void svg_text(struct svg *s, double x, double y, const char *anchor, double size, const char *weight,
	      const char *fill, const char *text)
{
	fprintf(s->f, "<text x=\"%.1f\" y=\"%.1f\" font-size=\"%g\"", x, y, size);
	if (anchor != NULL && strcmp(anchor, "start") != 0)
		fprintf(s->f, " text-anchor=\"%s\"", anchor);
	if (weight != NULL)
		fprintf(s->f, " font-weight=\"%s\"", weight);
	fprintf(s->f, " fill=\"%s\">", fill != NULL ? fill : "#222222");
	svg_escape(s->f, text);
	fputs("</text>\n", s->f);
}

void svg_line(struct svg *s, double x0, double y0, double x1, double y1, const char *stroke, double width,
	      const char *dash)
{
	fprintf(s->f, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"%s\" stroke-width=\"%g\"", x0, y0, x1,
		y1, stroke, width);
	if (dash != NULL)
		fprintf(s->f, " stroke-dasharray=\"%s\"", dash);
	fputs("/>\n", s->f);
}

void svg_rect(struct svg *s, double x, double y, double w, double h, const char *fill, const char *stroke)
{
	fprintf(s->f, "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" fill=\"%s\"", x, y, w > 0 ? w : 0,
		h > 0 ? h : 0, fill);
	if (stroke != NULL)
		fprintf(s->f, " stroke=\"%s\"", stroke);
	fputs("/>\n", s->f);
}

double figure_axis_pos(const struct figure_axis *a, double v)
{
	double t;

	if (a->log)
		t = v > 0 && a->lo > 0 && a->hi > a->lo ? (log10(v) - log10(a->lo)) / (log10(a->hi) - log10(a->lo)) : 0.0;
	else
		t = a->hi > a->lo ? (v - a->lo) / (a->hi - a->lo) : 0.5;
	return a->p0 + t * (a->p1 - a->p0);
}

int figure_axis_ticks(const struct figure_axis *a, double *t, int max)
{
	int n = 0;

	if (a->log) {
		int d;
		for (d = (int)ceil(log10(a->lo) - 1e-9); d <= (int)floor(log10(a->hi) + 1e-9) && n < max; d++)
			t[n++] = pow(10.0, d);
	} else if (a->hi > a->lo) {
		/* a step of 1, 2 or 5 times a power of ten giving 4 to 10 ticks */
		double span = a->hi - a->lo, step = pow(10.0, floor(log10(span))), first;
		long j;
		if (span / step < 4)
			step /= 2;
		if (span / step < 4)
			step /= 2.5;
		first = ceil(a->lo / step - 1e-9);
		for (j = 0; (first + (double)j) * step <= a->hi + step * 1e-9 && n < max; j++) {
			double v = (first + (double)j) * step;
			t[n++] = fabs(v) < step * 1e-9 ? 0.0 : v;
		}
	} else if (max > 0) {
		t[n++] = a->lo;
	}
	return n;
}

void figure_axis_nice(double *lo, double *hi)
{
	double span, step;

	if (!(*hi > *lo)) {
		double d = *lo != 0 ? fabs(*lo) * 0.1 : 1.0;
		*lo -= d;
		*hi += d;
	}
	if (*lo > 0 && *lo < (*hi - *lo))
		*lo = 0;
	if (*hi < 0 && -*hi < (*hi - *lo))
		*hi = 0;
	span = *hi - *lo;
	step = pow(10.0, floor(log10(span)));
	if (span / step < 4)
		step /= 2;
	*lo = floor(*lo / step) * step;
	*hi = ceil(*hi / step) * step;
}

const char *figure_model_name(const struct engine_scenario *sc)
{
	return sc->model.name[0] ? sc->model.name : sc->model.id[0] ? sc->model.id : _("custom model");
}

const char *figure_gpu_name(const struct engine_scenario *sc)
{
	return sc->gpu.name[0] ? sc->gpu.name : sc->gpu.id[0] ? sc->gpu.id : "GPU";
}

double figure_header(struct svg *s, const char *title, const struct engine_scenario *sc)
{
	char sum[320];

	svg_text(s, 24, 36, "start", 22, "bold", "#111111", title);
	engine_scenario_summary(sc, sum, sizeof sum);
	svg_text(s, 24, 60, "start", 13, NULL, "#555555", sum);
	return 84;
}

static const struct engine_tr figure_tr = {i18n_gettext_cb, NULL};

void figure_value(enum engine_unit u, double v, char *buf, size_t n)
{
	if (isnan(v))
		snprintf(buf, n, "-");
	else if (u == ENGINE_UNIT_NONE)
		snprintf(buf, n, "%.3g", v);
	else
		engine_unit_format_tr(u, v, &figure_tr, buf, n);
}

void figure_knob_value(const struct engine_knob *k, double v, char *buf, size_t n)
{
	/* as the explorer's axes write them (tui_paint_knob_value): 4k for 4096 tokens */
	if (k->unit == ENGINE_UNIT_TOKENS && v >= 1024 && fmod(v, 1024) == 0)
		snprintf(buf, n, "%gk", v / 1024);
	else if (k->unit == ENGINE_UNIT_NONE || k->unit == ENGINE_UNIT_COUNT || k->unit == ENGINE_UNIT_GPUS ||
		 k->unit == ENGINE_UNIT_TOKENS || k->unit == ENGINE_UNIT_LAYERS || k->unit == ENGINE_UNIT_HEADS)
		snprintf(buf, n, "%g", v);
	else
		engine_unit_format_tr(k->unit, v, &figure_tr, buf, n);
}

void figure_scale(enum engine_unit u, double hi, double *factor, const char **suffix)
{
	hi = fabs(hi);
	*factor = 1;
	*suffix = "";
	switch (u) {
	case ENGINE_UNIT_BYTES: /* binary, as the memory pane: 2^20, 2^30, 2^40 */
		*factor = hi >= 10 * 1099511627776.0 ? 1099511627776.0 : hi >= 1073741824.0 ? 1073741824.0 : 1048576.0;
		*suffix = hi >= 10 * 1099511627776.0 ? "TiB" : hi >= 1073741824.0 ? "GiB" : "MiB";
		break;
	case ENGINE_UNIT_SECONDS:
		if (hi < 1e-3) {
			*factor = 1e-6;
			*suffix = "\xc2\xb5s";
		} else if (hi < 1) {
			*factor = 1e-3;
			*suffix = "ms";
		} else if (hi < 600) {
			*suffix = "s";
		} else if (hi < 36000) {
			*factor = 60;
			*suffix = "min";
		} else if (hi < 4 * 86400) {
			*factor = 3600;
			*suffix = "h";
		} else {
			*factor = 86400;
			*suffix = C_("unit", "days");
		}
		break;
	case ENGINE_UNIT_FLOP_PER_S:
		*factor = hi >= 1e12 ? 1e12 : 1e9;
		*suffix = hi >= 1e12 ? "TFLOP/s" : "GFLOP/s";
		break;
	case ENGINE_UNIT_BYTES_PER_S:
		*factor = 1e9;
		*suffix = "GB/s";
		break;
	case ENGINE_UNIT_TOKENS_PER_S:
		*factor = hi >= 1e6 ? 1e6 : hi >= 1e4 ? 1e3 : 1;
		*suffix = hi >= 1e6 ? "M tokens/s" : hi >= 1e4 ? "k tokens/s" : "tokens/s";
		break;
	case ENGINE_UNIT_FRACTION:
		*factor = 0.01;
		*suffix = "%";
		break;
	case ENGINE_UNIT_DAYS: *suffix = C_("unit", "days"); break;
	case ENGINE_UNIT_GPU_HOURS: *suffix = C_("unit", "GPU-hours"); break;
	default: break;
	}
}

void figure_short(double v, char *buf, size_t n)
{
	static const char *const pre[] = {"", "k", "M", "G", "T", "P", "E"};
	int i = 0;

	if (v < 1.0) {
		snprintf(buf, n, "%g", v);
		return;
	}
	while (v >= 1000.0 && i < 6) {
		v /= 1000.0;
		i++;
	}
	snprintf(buf, n, "%g%s", v, pre[i]);
}

static const char *const kind_names[FIGURE_COUNT] = {
	[FIGURE_ROOFLINE] = "roofline", [FIGURE_MEMORY] = "memory", [FIGURE_SWEEP] = "sweep", [FIGURE_HEATMAP] = "heatmap",
};

const char *figure_kind_name(enum figure_kind k)
{
	return (int)k >= 0 && k < FIGURE_COUNT ? kind_names[k] : "?";
}

bool figure_kind_parse(const char *s, enum figure_kind *out)
{
	int i;

	for (i = 0; i < FIGURE_COUNT; i++)
		if (s != NULL && strcmp(s, kind_names[i]) == 0) {
			*out = (enum figure_kind)i;
			return true;
		}
	return false;
}
