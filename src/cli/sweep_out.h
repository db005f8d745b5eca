/*
 * napkin sweep's output (sweep_out.c): the points cmd_sweep.c computed, as CSV, JSON or text
 * (a table in column groups at the width, the curve or stacked bands, or the heatmap).
 * Everything in a struct sweep_out is the caller's and outlives the call.
 */
#ifndef NAPKIN_SWEEP_OUT_H
#define NAPKIN_SWEEP_OUT_H

#include <stdio.h>

#include "cli.h"
#include "tradeoff.h"

#define SWEEP_MAX_Y 16

struct sweep_out {
	const struct cli_setup *s;
	const struct engine_sweep *sw;
	const double *xs, *ys, *values;
	const int *rc;
	size_t nx, ny, nm, shown; /* nm metrics computed, the first `shown` asked for */
	long fits;                /* index of memory.fits among the metrics */
	size_t part0[SWEEP_MAX_Y], nparts[SWEEP_MAX_Y]; /* --stack: result j's parts are metrics part0 .. */
};

void sweep_out_csv(const struct sweep_out *o);
void sweep_out_json(const struct sweep_out *o);
/* one knob: the table and its chart, fitted to width */
void sweep_out_text_curve(const struct sweep_out *o, FILE *f, int width);
/* --format svg: one knob's curves (a panel per result) or two knobs' heatmap (the first
 * result), to stdout or path (cli_figure_out's rules; png: through rsvg-convert); returns a
 * CLI_EXIT_ status */
int sweep_out_svg(const struct sweep_out *o, const char *path, bool force, bool png);
/* serving (sweep_serve.c): the SLA target a result's chart draws as a line (NAN: none), its
 * label in label; and, sweeping batch in mode infer, the throughput-vs-latency table and
 * the SLA concurrency */
double sweep_slo_line(const struct sweep_out *o, const char *key, char *label, size_t n);
void sweep_out_text_serving(const struct sweep_out *o, FILE *f);
/* the figure's throughput-vs-latency panel when the sweep walks a replica's users and has
 * both series (label: the ITL target's words) */
struct figure_curve;
void sweep_pareto(const struct sweep_out *o, struct figure_curve *c, char *label, size_t n);
/* two knobs: the heatmap of each result */
void sweep_out_text_grid(const struct sweep_out *o, FILE *f);

#endif
