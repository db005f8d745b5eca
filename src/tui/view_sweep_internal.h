/*
 * The sweep view's state, shared by its two files: view_sweep.c (opening, keys, the
 * computation through engine_sweep_run) and view_sweep_draw.c (the panels, bands, legends
 * and axes). Private to the view; view_trade.h is its public face.
 */
#ifndef NAPKIN_TUI_VIEW_SWEEP_H
#define NAPKIN_TUI_VIEW_SWEEP_H

#include "tradeoff.h"
#include "view_trade.h"

#define NYMAX 3                        /* results shown at once, one panel each */
#define NPART 12                       /* the most parts a result has (the step's) */
#define NM (NYMAX * (1 + NPART) + 1)   /* the results, their parts, memory.fits */
#define TUI_SWEEP_NY 10                /* the results y can show (y_keys in view_sweep.c) */
#define TUI_SWEEP_SERVING 7            /* the first of them that is serving's (mode infer only) */
#define NY TUI_SWEEP_NY

/* what each result is, and whose (the report's own words: per GPU, per step, for the job) */
extern const char *const tui_sweep_y_labels[TUI_SWEEP_NY];
struct tui_model;
/* view_sweep.c: the line a result's panel draws across (0: none; the capacity, the
 * serving targets) and its words */
double tui_sweep_line(const struct tui_model *m, const struct engine_metric *mt, char *label, size_t n);

struct sweep_view {
	const struct engine_knob *xk; /* the knob along x */
	int ym[NYMAX];                /* the results: indices into y_keys */
	int ny;
	bool stack;                   /* s: results with parts drawn as stacked bands */
	int other;                    /* the knob -/+ steps: index into the on-screen knobs */
	/* the last computation, and what it was of */
	char sc[TUI_TRADE_KEY], now[TUI_TRADE_KEY];
	const struct engine_knob *sc_xk;
	int sc_ym[NYMAX], sc_ny;
	bool sc_stack, valid;
	struct engine_range range;
	struct engine_metric metric[NM];
	size_t nm;
	int col_fits, part0[NYMAX], nparts[NYMAX]; /* columns: result i is column i */
	double xs[TUI_SWEEP_POINTS], values[TUI_SWEEP_POINTS * NM];
	int rc[TUI_SWEEP_POINTS];
	size_t n;
	char err[256];
	struct tui_plot plot;
};

/* The view's state (NULL before it opens). */
struct sweep_view *tui_sweep_state(struct tui_model *m);
/* Recomputes the curves when the scenario or the request changed since the last time. */
void tui_sweep_compute(struct tui_model *m, struct sweep_view *v);

#endif
