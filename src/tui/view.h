/*
 * view: the view table (tmux's window modes). The main screen is view 0; overlays and
 * full-screen views are pushed on a stack above it. The top view gets the keys; every view
 * from the bottom-most full one up is drawn. See tui.h for how to add one.
 */
#ifndef NAPKIN_TUI_VIEW_H
#define NAPKIN_TUI_VIEW_H

#include <stdint.h>

#include "canvas.h"

struct tui_model;
struct tui_event;

enum tui_view_id {
	TUI_VIEW_MAIN,    /* the panes */
	TUI_VIEW_HELP,    /* every key (overlay) */
	TUI_VIEW_EXPLAIN, /* a result's formula with today's values (overlay, scrolls) */
	TUI_VIEW_PICKER,  /* model or GPU presets with type-to-filter (overlay) */
	TUI_VIEW_PROMPT,  /* a line of input: a value, a path (overlay on the footer) */
	TUI_VIEW_LESSON, TUI_VIEW_TENSORS, TUI_VIEW_DTYPELAB, /* teaching (view_teach.h) */
	TUI_VIEW_PROBE, TUI_VIEW_GPULIVE, /* the GPU in this machine (view_gpu.h) */
	TUI_VIEW_SWEEP, TUI_VIEW_PLAN, TUI_VIEW_HEAT, TUI_VIEW_COMPARE, /* trade-offs (view_trade.h) */
	TUI_VIEW_COUNT,
};

enum tui_view_kind { TUI_VIEW_FULL, TUI_VIEW_OVERLAY };

struct tui_view {
	const char *name;
	enum tui_view_kind kind;
	/* Draws into c; area is the screen (FULL) or the box the view asked for. */
	void (*draw)(struct tui_model *m, struct tui_canvas *c, uint64_t now);
	/* Handles an event; returns TUI_REACT_* flags. */
	unsigned (*key)(struct tui_model *m, const struct tui_event *ev, uint64_t now);
	/* Optional: set up and release the view's state (m->view_state[id]). */
	int (*open)(struct tui_model *m);
	void (*close)(struct tui_model *m);
	const char *footer; /* its keys, for the footer line */
};

const struct tui_view *tui_view_get(enum tui_view_id id);
/* The picker and the prompt (view_input.c). */
void tui_picker_draw(struct tui_model *m, struct tui_canvas *c, uint64_t now);
unsigned tui_picker_key(struct tui_model *m, const struct tui_event *ev, uint64_t now);
void tui_picker_close(struct tui_model *m);
void tui_prompt_draw(struct tui_model *m, struct tui_canvas *c, uint64_t now);
unsigned tui_prompt_key(struct tui_model *m, const struct tui_event *ev, uint64_t now);
/* Opens a view on top; returns 0, or -1 when the stack is full or open() failed. */
int tui_view_push(struct tui_model *m, enum tui_view_id id);
/* Closes the top view (never the main screen). */
void tui_view_pop(struct tui_model *m);
enum tui_view_id tui_view_top(const struct tui_model *m);

#endif
