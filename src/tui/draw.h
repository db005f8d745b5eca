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

#endif
