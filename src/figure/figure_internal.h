/*
 * figure's own parts (not for other modules): the SVG writer (svg.c) the figures draw
 * with, and the frame every figure shares: a title saying whose numbers they are, the
 * scenario's summary, log or linear axes with their ticks and units.
 */
#ifndef NAPKIN_FIGURE_INTERNAL_H
#define NAPKIN_FIGURE_INTERNAL_H

#include <stdbool.h>
#include <stdio.h>

#include "figure.h"

/* Fonts that hold Chinese first, then Latin ones: a browser or rsvg takes the first it has. */
#define FIGURE_FONTS                                                                                          \
	"'Noto Sans CJK SC', 'Noto Sans SC', 'Source Han Sans SC', 'WenQuanYi Micro Hei', 'WenQuanYi Zen Hei', 'PingFang SC', " \
	"'Microsoft YaHei', 'DejaVu Sans', sans-serif"

struct svg {
	FILE *f;
	double w, h;
};

/* The XML declaration (UTF-8), the root element of w × h pixels, a white ground and the
 * document's <title>. */
void svg_begin(struct svg *s, FILE *f, double w, double h, const char *title);
/* Closes the root; NAPKIN_OK, or NAPKIN_EIO when the stream has an error. */
int svg_end(struct svg *s);
/* text with &, <, >, " and ' escaped (invalid bytes and control characters dropped: the
 * document stays well-formed whatever a model's name holds) */
void svg_escape(FILE *f, const char *text);
/* <text> at (x, y): anchor "start", "middle" or "end"; size in pixels; weight "bold" or
 * NULL; fill a colour. */
void svg_text(struct svg *s, double x, double y, const char *anchor, double size, const char *weight,
	      const char *fill, const char *text);
void svg_line(struct svg *s, double x0, double y0, double x1, double y1, const char *stroke, double width,
	      const char *dash);
void svg_rect(struct svg *s, double x, double y, double w, double h, const char *fill, const char *stroke);

/* An axis: a value's position along [p0, p1] pixels, linear or log10 over [lo, hi]. */
struct figure_axis {
	double lo, hi, p0, p1;
	bool log;
};
double figure_axis_pos(const struct figure_axis *a, double v);
/* Decade ticks (log) or 4-6 round ones (linear): fills up to max values, returns how many. */
int figure_axis_ticks(const struct figure_axis *a, double *t, int max);
/* A linear axis' range widened to round ends that hold [lo, hi] (and 0 when the data
 * is all of one sign near it). */
void figure_axis_nice(double *lo, double *hi);

/* The title block: "title" bold, then the scenario's summary under it. Returns the y
 * where the plot may start. */
double figure_header(struct svg *s, const char *title, const struct engine_scenario *sc);
/* "Llama 3.1 8B" / "H100 SXM" as the scenario names them. */
const char *figure_model_name(const struct engine_scenario *sc);
const char *figure_gpu_name(const struct engine_scenario *sc);
/* A value in unit u for a person, in the current language (engine_unit_format_tr). */
void figure_value(enum engine_unit u, double v, char *buf, size_t n);
/* A knob's value as an axis tick (4k, 8, 80 GiB). */
void figure_knob_value(const struct engine_knob *k, double v, char *buf, size_t n);
/* An axis in unit u whose values reach hi: the factor its ticks are divided by and the
 * unit they are then in (GiB, min, TFLOP/s, %), so that ticks are round numbers of it. */
void figure_scale(enum engine_unit u, double hi, double *factor, const char **suffix);
/* A short number: 0.1, 1, 10, 100, 1k, 10k, 1M. */
void figure_short(double v, char *buf, size_t n);

/* The sweep figure's throughput-vs-latency panel (figure_pareto.c), top at y = top, W
 * pixels wide with the plot between pl and pr, ph high. */
void figure_pareto_panel(struct svg *s, const struct figure_curve *c, double top, double pl, double pr, double ph);

#endif
