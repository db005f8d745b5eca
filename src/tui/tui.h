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
 * Inside, the module is layered like htop and tmux:
 *   canvas.c   an in-memory grid of cells; every frame is composed there and flushed once
 *   layout.c   the layout solver: terminal size -> pane rectangles (pure, unit-tested)
 *   keys.c     the key table: key -> action, with the help text the `?` view lists
 *   model*.c   the view-model: scenario, results, focus, baseline, highlights; actions
 *              return reaction flags (redraw, recompute, quit) and never draw;
 *              model_undo.c the bounded history `u` undoes, model_files.c saving (asks
 *              before overwriting), opening a file by what it holds, path completion
 *   draw*.c    panes drawn from the view-model into the canvas (pure)
 *   views.c    the view table (see below); view_input.c the picker and the prompt
 *   theme*.c   the themes; theme_bg.c asks the terminal for its background (OSC 11)
 *   term.c     the only file that includes ncurses: terminal setup, colours, the event
 *              loop, signals; it translates keys and mouse events into struct tui_event
 *
 * Adding a view (a lesson panel, a tensor inspector, a dtype lab, a GPU probe panel):
 * views are rows of a table, like tmux's modes (see view.h).
 *   1. add an id to enum tui_view_id in view.h;
 *   2. write its functions in a file of its own, e.g. view_lesson.c:
 *        draw(m, canvas, area)  draws into the canvas (area is the whole screen for a
 *                               TUI_VIEW_FULL view, a centred box for a TUI_VIEW_OVERLAY);
 *        key(m, event, now)     handles a key and returns TUI_REACT_* flags;
 *        open(m) / close(m)     optional: allocate and free the view's state, kept in
 *                               m->view_state[id];
 *        footer                 the keys that matter in the view, for the footer line;
 *   3. add its row to the table in views.c;
 *   4. open it from a key (a row in keys.c) or from another view with tui_view_push(m, id);
 *      tui_view_pop(m) closes it. An overlay is drawn over the main screen, which stays
 *      live (a lesson can point at a pane with tui_model_pane_rect); a full view replaces it.
 */
#ifndef NAPKIN_TUI_H
#define NAPKIN_TUI_H

#include <stdbool.h>

#include "engine.h"
#include "util.h"

struct preset_registry;
struct teach_lesson;

struct tui_options {
	const char *theme;         /* "dark", "light" or "projector"; NULL: light or dark by the
	                              terminal's background (OSC 11), dark when it does not say */
	bool no_color;             /* monochrome (also when NO_COLOR is set in the environment) */
	bool no_mouse;             /* leave the mouse to the terminal */
	const char *scenario_path; /* the default path for `s` (save) and `o` (open); may be NULL */
	const struct teach_lesson *lesson; /* start in this lesson (napkin lesson N), or NULL */
	size_t lesson_number;              /* its number (0 for a file) */
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
