/*
 * paint: the drawing helpers below every pane and view (paint.c): number formats for the
 * screen, the focus test, a result row with its baseline badge, a pane's box, wrapped
 * text, key hints, an overlay's frame and scrolling text. Depends on the canvas and the
 * model only; no pane or view. Internal to the TUI; pure (no ncurses).
 */
#ifndef NAPKIN_TUI_PAINT_H
#define NAPKIN_TUI_PAINT_H

#include <stddef.h>
#include <stdint.h>

#include "model.h"

/* engine_fmt_bytes in binary units ("54.83 GiB"). */
void tui_draw_bytes(double v, char *buf, size_t n);
/* Cuts the scenario in words (engine_scenario_summary: "model on GPUs · mode · precision ·
 * optimizer") at its last " · " parts, whole, until it fits in cols display columns (an
 * 80-column header keeps the model, the GPUs and the mode); the first part stays. */
void tui_draw_fit_summary(char *sum, int cols);
/* A dtype's name, "-" when none. */
const char *tui_draw_dt_name(int dt);
bool tui_pane_focused(const struct tui_model *m, enum tui_pane p);
/* Where a value's baseline badge goes: right after the figure it compares, marked in the
 * text with TUI_BADGE ("%s" TUI_BADGE " for %s tokens"). Without a mark it goes at the end. */
#define TUI_BADGE "\x1f"
/* The badge's width for key with its space (0 when none): prec as tui_model_delta_prec. */
int tui_badge_width(const struct tui_model *m, const char *key, int prec);
/* The columns text takes with key's badge at its mark (with one decimal fewer where the
 * full form has two: what the row needs at least before the words after it give way). */
int tui_item_width(const struct tui_model *m, const char *text, const char *key);
/* Draws text at (x, y) in w columns with key's badge at its mark (at the end when there is
 * none and at_end); the badge is never cut: it drops decimals, then the words after it
 * give way. Returns the columns drawn. */
int tui_draw_badged(struct tui_model *m, struct tui_canvas *c, int x, int y, int w, const char *text, const char *key,
		    int style, int label_style, bool at_end);
/* A "label  value" row that is item idx of pane p: highlights, focus, baseline delta (at
 * the value's TUI_BADGE mark, or at its end). */
void tui_item_row(struct tui_model *m, struct tui_canvas *c, enum tui_pane p, int idx, struct tui_rect row, int lw,
		  const char *label, const char *value, const char *key, uint64_t now);
/* The same where the badge compares another result than the row's key (NULL: no badge,
 * for a row that shows no figure of its key). */
void tui_item_row_badge(struct tui_model *m, struct tui_canvas *c, enum tui_pane p, int idx, struct tui_rect row,
			int lw, const char *label, const char *value, const char *key, const char *badge, uint64_t now);
/* Wraps text at spaces into r.w columns (lines after the first indented by indent) and
 * draws at most r.h lines from r's corner (nothing when c is NULL); the last line drawn
 * is cut with '…' when the text goes on. Returns the lines the whole text takes. */
int tui_draw_wrapped(struct tui_canvas *c, struct tui_rect r, int indent, const char *text, int style);
/* A pane's box and title (with extra after it, and the hint when panes share a slot). */
void tui_pane_box(struct tui_model *m, struct tui_canvas *c, enum tui_pane p, const char *extra);

/* Footer-style key hints from "key|what|key|what" in w columns at (x, y). Where they do not
 * all fit, hints before the last two give way (from the end), so "? help" and "q quit" show. */
void tui_paint_keys(struct tui_canvas *c, int x, int y, int w, const char *spec);

/* Overlays: a frame (filled box with a title), text of lines ending in '\n' drawn from line
 * first into r, the number of such lines, and the arrows that say more is above or below. */
void tui_paint_frame(struct tui_canvas *c, struct tui_rect r, const char *title);
void tui_paint_lines(struct tui_canvas *c, struct tui_rect r, const char *s, int first, int style);
int tui_paint_count_lines(const char *s);
/* Where an overlay of want_w × want_h goes: centred above the footer, within the screen. */
struct tui_rect tui_paint_overlay_box(const struct tui_model *m, int want_w, int want_h);
/* Text wrapped at spaces (and inside words longer than the width), drawn from line first
 * into r; '\n' ends a line; c may be NULL to measure. Returns the lines the whole text takes. */
int tui_paint_wrapped_from(struct tui_canvas *c, struct tui_rect r, const char *text, int first, int style);
/* A horizontal bar of w cells, frac filled. */
void tui_paint_bar(struct tui_canvas *c, int x, int y, int w, double frac, int style);
void tui_paint_scroll_marks(struct tui_canvas *c, struct tui_rect box, int first, int lines, int page);

/* A full-screen view's first line: clears the canvas and writes text on the header bar. */
void tui_paint_view_header(struct tui_canvas *c, int w, const char *text);
/* A knob's value on an axis or a cell: counts plain ("8"), tokens in k where whole
 * ("4k"), anything with another unit in that unit (engine_unit_format). */
struct engine_knob;
struct engine_metric;
void tui_paint_knob_value(const struct engine_knob *k, double x, char *buf, size_t n);
/* A result's value in its unit (three figures when it has none). */
void tui_paint_metric_value(const struct engine_metric *mt, double y, char *buf, size_t n);
/* The same for a table cell whose row label names the unit: "yes"/"no" for a fit, counts
 * and rates in k and M, "no price" for a cost of 0, "-" for no value. */
void tui_paint_metric_cell(const struct engine_metric *mt, double y, char *buf, size_t n);

#endif
