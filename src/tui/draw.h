/*
 * draw: the main screen's panes, each drawn by its own file (draw_knobs.c, draw_memory.c,
 * draw_compute.c, draw_tables.c, roofline.c) and put together by draw.c. The helpers they
 * share are in paint.h, below them. Internal to the TUI; pure (no ncurses).
 */
#ifndef NAPKIN_TUI_DRAW_H
#define NAPKIN_TUI_DRAW_H

#include <stddef.h>
#include <stdint.h>

#include "paint.h"

void tui_draw_knobs(struct tui_model *m, struct tui_canvas *c);
void tui_draw_memory(struct tui_model *m, struct tui_canvas *c, uint64_t now);
void tui_draw_compute(struct tui_model *m, struct tui_canvas *c, uint64_t now);
void tui_draw_techniques(struct tui_model *m, struct tui_canvas *c, uint64_t now);
void tui_draw_dtypes(struct tui_model *m, struct tui_canvas *c, uint64_t now);

/* Pane p drawn into r instead of its place on the main screen (the slide, view_slide.c):
 * the pane's own function, the same live numbers. */
void tui_draw_pane_at(struct tui_model *m, struct tui_canvas *c, enum tui_pane p, struct tui_rect r, uint64_t now);

/* A roofline chart, log-log in braille (roofline.c): the roof min(peak, intensity ×
 * bandwidth), the ridge, fp32's roof dotted for contrast, the datasheet's roof and slope
 * dashed beside a measured one, the axes, and where each point falls. The roofline pane
 * and the ops view (view_ops.c) draw theirs with it, and mark the points themselves. */
#define TUI_ROOF_POINTS 48 /* at least ENGINE_OPS_MAX and ENGINE_PT_COUNT */
#define TUI_ROOF_MARGIN 7  /* the y axis' labels, left of the plot */
struct tui_roof {
	double peak, bw;   /* the roof the points sit on: FLOP/s, B/s */
	double peak32;     /* a lower roof, dotted (fp32's); 0: none */
	double dpeak, dbw; /* the datasheet's, dashed; 0: none */
	int n;
	double x[TUI_ROOF_POINTS], y[TUI_ROOF_POINTS]; /* FLOP/B, FLOP/s; not above 0: not drawn */
	int px[TUI_ROOF_POINTS], py[TUI_ROOF_POINTS];  /* out: each point's cell on the canvas; -1: none */
};
/* Draws the chart in r: the plot above, the x axis on r's last row. Returns false, drawing
 * nothing, when there is no roof (no peak or bandwidth) or r is too small. */
bool tui_roof_chart(struct tui_canvas *c, struct tui_rect r, struct tui_roof *rf);

#endif
