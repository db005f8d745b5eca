/*
 * view_trade: the trade-off views (issue 13), each full-screen on its own key: the sweep
 * (one knob along x, a result on y, view_sweep.c) and the planner (the parallel layouts
 * that fit, ranked, view_plan.c), the heatmap (two knobs, one result, view_heat.c) and the
 * comparison (the values of one knob, GPUs by default, side by side, view_compare.c), and the
 * ops of one layer on the roofline (view_ops.c). They read the scenario and change it only through the
 * model's knob and undo paths, so `u` takes back what they apply. Pure like every view.
 */
#ifndef NAPKIN_TUI_VIEW_TRADE_H
#define NAPKIN_TUI_VIEW_TRADE_H

#include "i18n.h"
#include "paint.h"

#define TUI_SWEEP_POINTS 64 /* the most points a curve recomputes per keystroke */

struct engine_range;

/* A braille plot (view_sweep_plot.c): w × h cells of 2 × 4 dots over [x0,x1] × [y0,y1]
 * (x logarithmic when logx). Segments are clipped to the plot before they are drawn, so a
 * point far off the axes costs no more than one inside. */
#define TUI_PLOT_W 320
#define TUI_PLOT_H 80
struct tui_plot {
	int w, h;
	double x0, x1, y0, y1;
	bool logx;
	uint8_t dots[TUI_PLOT_H][TUI_PLOT_W];
	uint16_t style[TUI_PLOT_H][TUI_PLOT_W];
};
void tui_plot_reset(struct tui_plot *p, int w, int h, double x0, double x1, double y0, double y1, bool logx);
/* x and y as dot coordinates (0 .. 2w-1 from the left, 0 .. 4h-1 from the top; fractional) */
double tui_plot_xf(const struct tui_plot *p, double x);
double tui_plot_yf(const struct tui_plot *p, double y);
void tui_plot_dot(struct tui_plot *p, double x, double y, int style);
void tui_plot_segment(struct tui_plot *p, double xa, double ya, double xb, double yb, int style);
/* a dashed horizontal line at y, a dotted vertical one at x: a dot every `every` dots */
void tui_plot_hline(struct tui_plot *p, double y, int every, int style);
void tui_plot_vline(struct tui_plot *p, double x, int every, int style);
void tui_plot_render(const struct tui_plot *p, struct tui_canvas *c, int ox, int oy);

/* The sweep's pure part, for tests: the default range of knob k for sc, thinned to at most
 * max points (a geometric range takes a larger factor, a linear one a larger step).
 * Returns 0 or an error code. */
int tui_sweep_range(const struct engine_scenario *sc, const struct engine_knob *k, size_t max,
		    struct engine_range *r, struct napkin_err *err);

/* The scenario as text (every knob's canonical value, engine_knob_format), for the views'
 * caches: two scenarios with the same text give the same results. */
#define TUI_TRADE_KEY 4096
void tui_trade_key(const struct engine_scenario *sc, char *buf, size_t n);

void tui_sweep_draw(struct tui_model *m, struct tui_canvas *c, uint64_t now);
unsigned tui_sweep_key(struct tui_model *m, const struct tui_event *ev, uint64_t now);
int tui_sweep_open(struct tui_model *m);
/* TRANSLATORS: a footer, "key|what|key|what...": keep the keys and the | */
#define TUI_SWEEP_FOOTER                                                                                     \
	N_("x X|x knob|y Y|result|a d|add/drop a result|s|stack parts|\xe2\x86\x90\xe2\x86\x92|move x|j k|knob|- +|step it|u|undo|Esc|close")
#define TUI_SWEEP_HELP                                                                                       \
	N_("  x X  the knob along x   y Y  the first result   a d  add a result (three at most), drop the last\n"  \
	"  s  stack the parts (memory's ten, the step's twelve) with a legend at the scenario's x\n"           \
	"  \xe2\x86\x90\xe2\x86\x92  move the scenario's own x   j k  pick another knob   - +  step it   u  undo\n"   \
	"  green: fits in memory; red: does not; \xe2\x9c\x97 the first point that does not fit;\n"             \
	"  dashed: the card's capacity (per GPU); dotted and \xe2\x96\xb2: the scenario's own x\n"           \
	"  F  write the curves as SVG (napkin-sweep.svg in the current directory, never over a file)\n")

void tui_heat_draw(struct tui_model *m, struct tui_canvas *c, uint64_t now);
unsigned tui_heat_key(struct tui_model *m, const struct tui_event *ev, uint64_t now);
int tui_heat_open(struct tui_model *m);
#define TUI_HEAT_FOOTER N_("\xe2\x86\x90\xe2\x86\x92\xe2\x86\x91\xe2\x86\x93|cell|Enter|apply|p|knobs|y|result|u|undo|F|SVG|Esc|close")
#define TUI_HEAT_HELP                                                                                        \
	N_("  \xe2\x86\x90\xe2\x86\x92\xe2\x86\x91\xe2\x86\x93  cursor   Enter  apply the cell (u undoes)   p  the knobs   y  the result\n" \
	"  shade \xe2\x96\x91\xe2\x96\x92\xe2\x96\x93\xe2\x96\x88 low to high; red \xe2\x9c\x97 does not fit; \xe2\x97\x8f the scenario's own cell\n" \
	"  F  write the heatmap as SVG (napkin-heatmap.svg in the current directory, never over a file)\n")

void tui_compare_draw(struct tui_model *m, struct tui_canvas *c, uint64_t now);
unsigned tui_compare_key(struct tui_model *m, const struct tui_event *ev, uint64_t now);
int tui_compare_open(struct tui_model *m);
#define TUI_COMPARE_FOOTER N_("k K|columns' knob|a|add a column (picker or next)|A|add one down|d|drop the last|Esc|close")
/* xgettext:no-c-format */
#define TUI_COMPARE_HELP                                                                                     \
	N_("  k K  the knob whose values are the columns (GPUs first; any knob on screen)\n"                      \
	"  a  add a column: gpu and model through the picker (the scenario stays), others a notch up\n"       \
	"  A  a notch down   d  drop the last   Esc  close\n"                                                  \
	"  \xe2\x9c\x93 the best of each row; % the difference from the first column\n")

void tui_plan_draw(struct tui_model *m, struct tui_canvas *c, uint64_t now);
unsigned tui_plan_key(struct tui_model *m, const struct tui_event *ev, uint64_t now);
int tui_plan_open(struct tui_model *m);
#define TUI_PLAN_FOOTER N_("\xe2\x86\x91\xe2\x86\x93|row|Enter|apply|g|goal|D - +|deadline|b|band|u|undo|Esc|close")
#define TUI_PLAN_HELP                                                                                        \
	N_("  \xe2\x86\x91\xe2\x86\x93  pick a layout   Enter  apply it to the scenario (u undoes)   g  goal   Esc  close\n"   \
	"  D  type a deadline in days (Enter sets it, empty: none)   - +  step it along 7 .. 365 days\n"             \
	"  b  hold the deadline at the step band's slow end (napkin plan --sure), or at the prediction\n")

void tui_ops_draw(struct tui_model *m, struct tui_canvas *c, uint64_t now);
unsigned tui_ops_key(struct tui_model *m, const struct tui_event *ev, uint64_t now);
int tui_ops_open(struct tui_model *m);
#define TUI_OPS_FOOTER N_("Tab|phase|\xe2\x86\x91\xe2\x86\x93|op|- +|micro-batch|u|undo|Esc|close")
#define TUI_OPS_HELP                                                                                         \
	N_("  Tab  the other phase (training: forward, backward; inference: prefill, decode)\n"                   \
	"  \xe2\x86\x91\xe2\x86\x93 j k  pick an op (\xe2\x97\x8f on the roofline, named)   - +  step the micro-batch   u  undo\n"    \
	"  a row is one layer's op on one GPU (layers: how many have it); its time is the larger of\n"          \
	"  FLOPs at the peak and bytes at the bandwidth, as napkin report --ops\n")

#endif
