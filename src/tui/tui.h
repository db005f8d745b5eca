/*
 * tui: napkin's explorer, an ncurses front end over the engine. The only module that
 * includes ncurses; this header names no ncurses type.
 *
 * Call order:
 *   struct tui_options opt = {.theme = "dark"};
 *   tui_run(&sc, reg, &opt, &err);   blocks until the user quits; the terminal is restored
 *
 * Ownership: sc is the caller's; tui_run edits it in place (the scenario on screen when
 * the user quits is left there). reg may be NULL (the pickers then offer only the built-in
 * model and GPU; saving and opening need it). Nothing is kept after tui_run returns.
 *
 * Inside, the module is layered like htop and tmux. Each file calls only files below it
 * (a ctest, tui_file_circles, fails on any circle: scripts/file-circles.py), top first:
 *   term.c       the only file that includes ncurses: terminal setup, colours, the event
 *                loop, signals; it translates keys and mouse events into struct tui_event
 *   explorer.c   the view table, the one list of views, and the entry points that tie the
 *                model to it (tui_model_init, _fini, _timeout, _tick)
 *   views        view_*.c: the main screen's key handler (model_input.c), the picker and
 *                the prompt (view_input.c), help and explain (view_help.c), the trade-offs
 *                (view_sweep.c, view_heat.c, view_compare.c, view_plan.c), the teaching
 *                views (view_lesson.c, view_tensor.c, view_dtype.c), the GPU in this
 *                machine (view_gpu_loop.c above view_live.c above view_probe.c); a view
 *                opens or closes another only through the view stack
 *   draw*.c      the main screen's panes (draw_knobs.c, draw_memory.c, draw_compute.c,
 *                draw_tables.c, roofline.c), put together by draw.c
 *   paint.c      the drawing helpers every pane and view uses: screen number formats,
 *                boxes, result rows with badges, wrapped text, key hints, bars, frames
 *   model*.c     the view-model: scenario, results, focus, baseline, highlights; actions
 *                return reaction flags (redraw, recompute, quit) and never draw or name a
 *                view's functions: model_files.c (saving that asks before overwriting,
 *                opening a file by what it holds, path completion) above model_actions.c
 *                (stepping, undo, explain, picker, prompt, save, open) above model.c above
 *                model_undo.c (the bounded history `u` undoes); gpu_state.c holds the GPU
 *                state (m->gpu) and the GPUs measured in this session, which the picker
 *                lists
 *   view_stack.c the stack of open views; it reaches each view's open and close through
 *                m->view_table, the table's function pointers, never by name
 *   canvas.c, layout.c, keys.c, theme*.c   the in-memory grid every frame is composed in
 *                and flushed once; the layout solver (pure, unit-tested); the key table
 *                (key -> action, with the help text `?` lists); the themes (theme_bg.c
 *                asks the terminal for its background, OSC 11)
 *
 * Adding a view (a lesson panel, a sweep, a probe panel): views are rows of one table, like
 * tmux's modes and napkin's knobs (view.h has the row, explorer.c the table).
 *   1. add an id to enum tui_view_id in view.h;
 *   2. write its functions in a file of its own, e.g. view_lesson.c, drawing with paint.h:
 *        draw(m, canvas, now)   draws into the canvas (the whole screen for a
 *                               TUI_VIEW_FULL view, a box it picks for a TUI_VIEW_OVERLAY);
 *        key(m, event, now)     handles a key and returns TUI_REACT_* flags;
 *        open(m) / close(m)     optional: allocate and free the view's state, kept in
 *                               m->view_state[id];
 *        start(m, now)          optional: what its key does instead of opening it;
 *   3. add its row to the table in explorer.c: name, title (its section in `?` help),
 *      opened_by (the main-screen action that opens it: add the action and its key to
 *      keys.c), kind, the functions, footer (its keys, for the footer line), help (its
 *      lines in `?` help; without them help lists the footer's keys), needs;
 *   4. or open it from another view with tui_view_push(m, id); tui_view_pop(m) closes it.
 *      An overlay is drawn over the main screen, which stays live (a lesson can point at a
 *      pane with tui_model_pane_rect); a full view replaces it.
 */
#ifndef NAPKIN_TUI_H
#define NAPKIN_TUI_H

#include <stdbool.h>

#include "engine.h"
#include "util.h"

struct preset_registry;
struct teach_lesson;
struct teach_progress;

struct tui_options {
	const char *theme;         /* "dark", "light", "projector" or "projector-light"; NULL: light or dark by the
	                              terminal's background (OSC 11), dark when it does not say */
	bool no_color;             /* monochrome (also when NO_COLOR is set in the environment) */
	bool no_mouse;             /* leave the mouse to the terminal */
	const char *scenario_path; /* the default path for `s` (save) and `o` (open); may be NULL */
	const struct teach_lesson *lesson; /* start in this lesson (napkin lesson N), or NULL */
	size_t lesson_number;              /* its number (0 for a file) */
	size_t lesson_step;                /* the step it opens at (0-based; napkin lesson N --step K) */
	bool lesson_slides;                /* on the step's slide, full screen (napkin lesson N --slides) */
	struct teach_progress *lesson_progress; /* out (may be NULL): what the student answered in `lesson`,
	                                           initialised by the caller (teach_progress_init) */
	const char *lang;                  /* the lessons' language (here and from L); NULL for English */
	double probe_timeout;              /* seconds a GPU probe (G) may take; 0: 60 */
};

/* Checks a theme name; returns true for dark, light and projector. */
bool tui_theme_valid(const char *name);

/* What tui_run returns when the user left with Ctrl-C (raw mode reads it as a key, not a
 * signal); the command exits with 130 then, as shells expect of an interrupt. */
#define TUI_EXIT_INTERRUPT 130

/* Runs the explorer on the terminal until the user quits. Returns 0 (q), TUI_EXIT_INTERRUPT
 * (Ctrl-C), or an error code with err set (no terminal, no terminfo for $TERM, a terminal
 * that cannot address the cursor); the terminal is restored in every case, also after
 * SIGINT or SIGTERM (which are raised again once it is). */
int tui_run(struct engine_scenario *sc, struct preset_registry *reg, const struct tui_options *opt,
	    struct napkin_err *err);

#endif
