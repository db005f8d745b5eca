/*
 * plot: charts as text for napkin sweep: a curve in braille (2 × 4 dots a character) with
 * axes, units and ticks, and a heatmap in shade characters with a legend. UTF-8 out.
 */
#ifndef NAPKIN_CLI_PLOT_H
#define NAPKIN_CLI_PLOT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "engine.h"

struct plot_curve {
	const char *title;        /* "memory.total (per GPU)" */
	const double *x, *y;      /* n points; a NaN y is a point without a value */
	size_t n;
	bool log_x;
	enum engine_unit x_unit, y_unit;
	const char *x_name;       /* the knob */
	double line;              /* a horizontal line (the capacity), or NaN */
	const char *line_label;   /* "capacity 80.0 GB" */
	long mark;                /* index of a point to mark below the axis (the first that does not fit), or -1 */
	const char *mark_label;
	long current;             /* index of the point at the scenario's own value, or -1 */
};

/* Draws c, width × height characters of plot area plus axes. */
void plot_curve(FILE *f, const struct plot_curve *c, int width, int height);

/* A result's parts stacked, bottom first (values v[i * np + k] of part k at point i; NaN:
 * an invalid point), each band its glyph (told apart without colour), read between points
 * linearly in the axis' scale; a legend names each glyph with its value at point `at`.
 * line, mark and current as in plot_curve. */
struct plot_stack {
	const char *title;
	const double *x, *v;
	size_t n, np;
	const char *const *names; /* np names */
	bool log_x;
	enum engine_unit x_unit, y_unit;
	const char *x_name;
	double line;
	const char *line_label;
	long mark, current, at;
};
void plot_stack(FILE *f, const struct plot_stack *s, int width, int height);

/* A heatmap: v[iy * nx + ix] (NaN: invalid, drawn ·), rows y from the top as given;
 * fits[iy * nx + ix] is memory.fits at each cell (1 or 0; NULL: every valid cell fits).
 * A cell that does not fit is drawn ✗ and left out of the shading, whose four steps
 * (░ ▒ ▓ █) span the cells that fit. fits_only: v is memory.fits itself, drawn █ and ✗. */
void plot_heatmap(FILE *f, const char *title, const double *xs, size_t nx, const double *ys, size_t ny,
		  const double *v, const double *fits, enum engine_unit x_unit, enum engine_unit y_unit,
		  enum engine_unit v_unit, const char *x_name, const char *y_name, bool fits_only);

/* A value in its unit for a person ("79.6 GB", "1.23 s", "4,096"). */
void plot_value(enum engine_unit u, double v, char *buf, size_t n);

#endif
