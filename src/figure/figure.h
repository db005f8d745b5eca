/*
 * figure: the explorer's charts as SVG documents for slides and handouts (the roofline,
 * the memory bar, a sweep's curves and a heatmap), from the engine's own results, so that
 * a figure's numbers are the report's and the explorer's. Below both front ends: the CLI
 * (--format svg) and the explorer (its export key) call it.
 *
 * Each figure writes one whole document (UTF-8, a font-family list with CJK fallbacks) to
 * the caller's FILE *, its words in i18n's current language, and returns NAPKIN_OK or
 * NAPKIN_EIO when the stream reports an error. It never prints anything else, never exits,
 * keeps no state, and owns nothing it is given. Every mark that stands for a number carries
 * it exactly (%.17g) in a data-* attribute (data-intensity, data-flops, data-bytes, data-x,
 * data-y, data-v), so that scripts and tests can read the figure back.
 */
#ifndef NAPKIN_FIGURE_H
#define NAPKIN_FIGURE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "engine.h"

enum figure_kind { FIGURE_ROOFLINE, FIGURE_MEMORY, FIGURE_SWEEP, FIGURE_HEATMAP, FIGURE_COUNT };

/* "roofline", "memory", "sweep", "heatmap". */
const char *figure_kind_name(enum figure_kind k);
/* The kind named s; false when s names none. */
bool figure_kind_parse(const char *s, enum figure_kind *out);

/* The roofline as the explorer's roofline pane draws it: the matmul dtype's compute roof
 * (and fp32's beneath it), the bandwidth slope, the ridge, and the scenario's operating
 * points (training step at the FLOP/s it achieves, never above the roof; prefill, decode
 * and an element-wise op on the roof; inference without the training step), log-log, per GPU. */
int figure_roofline(FILE *f, const struct engine_scenario *sc, const struct engine_result *r);

/* The memory pane's bar: one GPU's memory by part (weights, master or autocast copies,
 * gradients, optimizer, activations, logits, KV cache or scratch, overhead) against the
 * card's capacity, with each part's size in GiB. */
int figure_memory(FILE *f, const struct engine_scenario *sc, const struct engine_result *r);

/* A sweep along one knob: one panel per result, stacked, sharing the x axis. Values are
 * read at x[i] and y[i * stride] (napkin sweep's row-major points); NAN is a gap. */
#define FIGURE_PANELS_MAX 8
struct figure_series {
	const char *key;      /* the result's key ("memory.total"), shown beside its label */
	const char *label;    /* its words, already translated */
	enum engine_unit unit;
	const double *y;
	double line;          /* a horizontal line (the card's capacity), NAN for none */
	const char *line_label;
};
struct figure_curve {
	const struct engine_scenario *sc; /* the title's model and GPU, the summary line */
	const struct engine_knob *knob;   /* along x */
	const double *x;
	size_t n, stride;
	bool log_x;
	const double *fits;               /* memory.fits at x[i] (i * stride), NULL for none: a point that does not fit is marked */
	const int *rc;                    /* nonzero: point i is not a valid scenario (NULL: all are) */
	struct figure_series s[FIGURE_PANELS_MAX];
	size_t ns;
	/* serving (figure_pareto.c): a last panel of throughput against latency, series
	 * s[pareto_y] over s[pareto_x] (the time between tokens), a point a value of x (its
	 * users), and the latency target as a vertical line at pareto_line (NAN: none);
	 * drawn when pareto is set */
	bool pareto;
	size_t pareto_x, pareto_y;
	double pareto_line;
	const char *pareto_line_label;
};
int figure_curve(FILE *f, const struct figure_curve *c);

/* A heatmap over two knobs: cell (i, j) at x[i], y[j] holds v[(j * nx + i) * stride]
 * (napkin sweep's order), fits[...] likewise (NULL: not shown), rc[j * nx + i] nonzero
 * when it is not a valid scenario. The scenario's own cell is marked. */
struct figure_heat {
	const struct engine_scenario *sc;
	const struct engine_knob *kx, *ky;
	const double *x, *y;
	size_t nx, ny, stride;
	const double *v, *fits;
	const int *rc;
	const char *key, *label;          /* the result, its words already translated */
	enum engine_unit unit;
};
int figure_heatmap(FILE *f, const struct figure_heat *h);

#endif
