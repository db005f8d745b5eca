/*
 * view: the view table's row and the view stack (tmux's window modes). The main screen is
 * view 0; overlays and full-screen views are pushed on a stack above it. The top view gets
 * the keys; every view from the top-most full one up is drawn. The table itself is in
 * explorer.c; see tui.h for how to add a view.
 */
#ifndef NAPKIN_TUI_VIEW_H
#define NAPKIN_TUI_VIEW_H

#include <stdint.h>

#include "canvas.h"

struct tui_model;
struct tui_event;

/* In the order `?` help lists the views with a title. */
enum tui_view_id {
	TUI_VIEW_MAIN,    /* the panes */
	TUI_VIEW_PICKER,  /* model or GPU presets with type-to-filter (overlay) */
	TUI_VIEW_PROMPT,  /* a line of input: a value, a path (overlay on the footer) */
	TUI_VIEW_SWEEP, TUI_VIEW_HEAT, TUI_VIEW_COMPARE, TUI_VIEW_PLAN, TUI_VIEW_OPS, /* trade-offs (view_trade.h) */
	TUI_VIEW_LESSON, TUI_VIEW_SLIDE, TUI_VIEW_TENSORS, TUI_VIEW_DTYPELAB, /* teaching (view_teach.h) */
	TUI_VIEW_PROBE, TUI_VIEW_GPULIVE, /* the GPU in this machine (view_gpu.h) */
	TUI_VIEW_HELP,    /* every key (overlay) */
	TUI_VIEW_EXPLAIN, /* a result's formula with today's values (overlay, scrolls) */
	TUI_VIEW_COUNT,
};

enum tui_view_kind { TUI_VIEW_FULL, TUI_VIEW_OVERLAY };

/* What a view needs beyond the scenario. Declared, not enforced: each view says itself what
 * is missing (the probe overlay without the probe module, the picker without presets); the
 * tests read it (a view that needs the probe is not opened there). */
enum tui_view_needs {
	TUI_NEEDS_NOTHING = 0,
	TUI_NEEDS_REGISTRY = 1u << 0, /* the presets (a picker of models and GPUs, saving, opening) */
	TUI_NEEDS_PROBE = 1u << 1,    /* napkin built with the probe module (else it says so) */
	TUI_NEEDS_LESSONS = 1u << 2,  /* the course's lessons (the teach module) */
};

/* One row of the view table (explorer.c), the only list of views: the view stack, the main
 * screen's keys, the footer and the `?` help all read it. */
struct tui_view {
	const char *name;  /* "sweep": for messages and tests */
	const char *title; /* "Sweep": its section in `?` help (NULL: not listed there) */
	/* The main-screen action that opens it (TUI_ACT_NONE: opened by another view); `?`
	 * help names its key from the key table (keys.c) after the title. */
	enum tui_action opened_by;
	enum tui_view_kind kind;
	/* Draws into c: the whole screen (FULL) or a box the view picks (OVERLAY). */
	void (*draw)(struct tui_model *m, struct tui_canvas *c, uint64_t now);
	/* Handles an event; returns TUI_REACT_* flags. */
	unsigned (*key)(struct tui_model *m, const struct tui_event *ev, uint64_t now);
	/* Optional: set up and release the view's state (m->view_state[id]). A state that is one
	 * allocated block needs no close: popping the view frees m->view_state[id] (a close
	 * that frees it itself sets it to NULL). */
	int (*open)(struct tui_model *m);
	void (*close)(struct tui_model *m);
	/* Optional: what its key does instead of opening it (G starts a probe first); returns
	 * TUI_REACT_* flags. */
	unsigned (*start)(struct tui_model *m, uint64_t now);
	const char *footer; /* its keys, for the footer line ("key|what|key|what") */
	const char *help;   /* its lines in `?` help, each "  keys  what\n" (NULL: none) */
	unsigned needs;     /* enum tui_view_needs */
};

/* The view stack (view_stack.c). It reaches the views only through m->view_table (set by
 * tui_model_init, explorer.c), so nothing below the table links against a view. */
const struct tui_view *tui_view_get(const struct tui_model *m, enum tui_view_id id);
/* Opens a view on top; returns 0, or -1 when the stack is full or open() failed. */
int tui_view_push(struct tui_model *m, enum tui_view_id id);
/* Closes the top view (never the main screen). */
void tui_view_pop(struct tui_model *m);
/* The keys every full-screen view shares: Esc, q and the view's own key close it, ? and F1
 * open the help above it. True when key was one of them (the caller redraws). */
bool tui_view_common_key(struct tui_model *m, int key, int own);
enum tui_view_id tui_view_top(const struct tui_model *m);

/* The picker and the prompt (view_input.c). */
void tui_picker_draw(struct tui_model *m, struct tui_canvas *c, uint64_t now);
unsigned tui_picker_key(struct tui_model *m, const struct tui_event *ev, uint64_t now);
void tui_picker_close(struct tui_model *m);
void tui_prompt_draw(struct tui_model *m, struct tui_canvas *c, uint64_t now);
unsigned tui_prompt_key(struct tui_model *m, const struct tui_event *ev, uint64_t now);
/* Help and explain (view_help.c). */
void tui_help_draw(struct tui_model *m, struct tui_canvas *c, uint64_t now);
unsigned tui_help_key(struct tui_model *m, const struct tui_event *ev, uint64_t now);
int tui_help_open(struct tui_model *m);
void tui_explain_draw(struct tui_model *m, struct tui_canvas *c, uint64_t now);
unsigned tui_explain_key(struct tui_model *m, const struct tui_event *ev, uint64_t now);

#endif
