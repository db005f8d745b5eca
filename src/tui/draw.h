/*
 * draw: what the main screen's drawing files (draw*.c) share: the number formats, the
 * focus test, a result row and a pane's box, and each pane's draw function. Internal to
 * the TUI; everything here is pure (no ncurses).
 */
#ifndef NAPKIN_TUI_DRAW_H
#define NAPKIN_TUI_DRAW_H

#include <stddef.h>
#include <stdint.h>

#include "model.h"

/* engine_fmt_bytes in binary units ("54.83 GiB"). */
void tui_draw_bytes(double v, char *buf, size_t n);
/* A dtype's name, "-" when none. */
const char *tui_draw_dt_name(int dt);
bool tui_pane_focused(const struct tui_model *m, enum tui_pane p);
/* A "label  value" row that is item idx of pane p: highlights, focus, baseline delta. */
void tui_item_row(struct tui_model *m, struct tui_canvas *c, enum tui_pane p, int idx, struct tui_rect row, int lw,
		  const char *label, const char *value, const char *key, uint64_t now);
/* Wraps text at spaces into r.w columns (lines after the first indented by indent) and
 * draws at most r.h lines from r's corner (nothing when c is NULL); the last line drawn
 * is cut with '…' when the text goes on. Returns the lines the whole text takes. */
int tui_draw_wrapped(struct tui_canvas *c, struct tui_rect r, int indent, const char *text, int style);
/* A pane's box and title (with extra after it, and the hint when panes share a slot). */
void tui_pane_box(struct tui_model *m, struct tui_canvas *c, enum tui_pane p, const char *extra);

void tui_draw_knobs(struct tui_model *m, struct tui_canvas *c);
void tui_draw_memory(struct tui_model *m, struct tui_canvas *c, uint64_t now);
void tui_draw_compute(struct tui_model *m, struct tui_canvas *c, uint64_t now);
void tui_draw_techniques(struct tui_model *m, struct tui_canvas *c, uint64_t now);
void tui_draw_dtypes(struct tui_model *m, struct tui_canvas *c, uint64_t now);

#endif
