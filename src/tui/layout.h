/*
 * layout: the solver that turns a terminal size into pane rectangles. Pure and tested
 * across every size from 40×12 to 300×100 (no overlap, nothing off screen).
 *
 *   ┌ header: the scenario in words and the two headline results ───────────────┐
 *   │ Knobs      │ Memory per GPU (the whole width of the right side)             │
 *   │ (grouped,  ├───────────────────────────────┬─────────────────────────────────┤
 *   │  scrolls)  │ Compute and time              │ Roofline                        │
 *   │            ├───────────────────────────────┼─────────────────────────────────┤
 *   │            │ Techniques                    │ Data types                      │
 *   ├ warnings (0-2 lines) ──────────────────────────────────────────────────────┤
 *   └ footer: the keys that matter now, or a message ────────────────────────────┘
 *
 * When the right side is too short for the three rows, the last two rows share one slot
 * ("tabbed"): the pair (or, when narrow, the single pane) that holds req.slot is shown and
 * Tab moves between them. Below TUI_MIN_W × TUI_MIN_H the layout is `too_small` and the
 * screen asks for a bigger terminal.
 */
#ifndef NAPKIN_TUI_LAYOUT_H
#define NAPKIN_TUI_LAYOUT_H

#include <stdbool.h>

#include "canvas.h"

/* The rows the memory pane needs with a bar of that height, box included. */
#define TUI_MEM_ROWS(bar) (9 + (bar))

#define TUI_MIN_W 80
#define TUI_MIN_H 24

enum tui_pane {
	TUI_PANE_KNOBS,
	TUI_PANE_MEMORY,
	TUI_PANE_COMPUTE,
	TUI_PANE_ROOFLINE,
	TUI_PANE_TECH,
	TUI_PANE_DTYPES,
	TUI_PANE_COUNT,
};

const char *tui_pane_title(enum tui_pane p);

struct tui_layout_req {
	int w, h;
	int warn_lines;    /* warnings to show (at most 2 are given room) */
	bool projector;    /* large bars */
	enum tui_pane slot; /* the result pane to show when they share a slot */
};

struct tui_layout {
	int w, h;
	bool too_small;
	struct tui_rect header, footer, status; /* status: the warnings (h may be 0) */
	struct tui_rect pane[TUI_PANE_COUNT];
	bool shown[TUI_PANE_COUNT];
	bool tabbed;  /* compute/roofline/techniques/dtypes share a slot */
	int bar_rows; /* the memory bar's height */
};

/* Fills out for req; always succeeds (a too-small terminal gives too_small). */
void tui_layout_solve(const struct tui_layout_req *req, struct tui_layout *out);
/* A centred box of at most want_w × want_h that fits the screen with a margin. */
struct tui_rect tui_layout_overlay(int w, int h, int want_w, int want_h);

#endif
