/*
 * model: the TUI's view-model (ncdu's dirlist.c beside browser.c; htop's Action.c).
 * It holds the scenario, the results (current, previous, baseline), the focus, the
 * highlights and the open views, and turns events into changes. Pure: no ncurses, no
 * clock (the time comes in as `now`, in milliseconds), no drawing. Actions return
 * TUI_REACT_* flags; the loop in term.c decides what to repaint.
 *
 * Call order:
 *   tui_model_init(&m, &sc, reg, &opt);       evaluates the scenario
 *   tui_model_set_size(&m, w, h);             and on every resize
 *   flags = tui_model_event(&m, &ev, now);    for each key or mouse event
 *   tui_model_tick(&m, now);                  when tui_model_timeout() has run out
 *   tui_draw(&m, &canvas, now);               (draw.c) composes a frame
 * (init, fini, timeout and tick are in explorer.c, with the view table; the rest of the
 * model's files never call a view or a drawing function: views call the model.)
 *   tui_model_fini(&m);
 */
#ifndef NAPKIN_TUI_MODEL_H
#define NAPKIN_TUI_MODEL_H

#include <stdbool.h>
#include <stdint.h>

#include "canvas.h"
#include "engine.h"
#include "figure.h"
#include "layout.h"
#include "tui.h"

/* ---------------------------------------------------------------- keys and events */

/* Keys: Unicode code points, and these above U+10FFFF (term.c translates ncurses'). */
enum tui_key {
	TUI_KEY_UP = 0x110000,
	TUI_KEY_DOWN,
	TUI_KEY_LEFT,
	TUI_KEY_RIGHT,
	TUI_KEY_PGUP,
	TUI_KEY_PGDN,
	TUI_KEY_HOME,
	TUI_KEY_END,
	TUI_KEY_ENTER,
	TUI_KEY_ESC,
	TUI_KEY_TAB,
	TUI_KEY_BTAB,
	TUI_KEY_BACKSPACE,
	TUI_KEY_DELETE,
	TUI_KEY_F1,
	TUI_KEY_RESIZE,
	TUI_KEY_MOUSE,
	TUI_KEY_CTRL_C,
	TUI_KEY_CTRL_L,
	TUI_KEY_CTRL_U,
};

enum tui_button { TUI_BTN_NONE, TUI_BTN_CLICK, TUI_BTN_WHEEL_UP, TUI_BTN_WHEEL_DOWN };

struct tui_event {
	int key;               /* a code point or an enum tui_key */
	int x, y;              /* TUI_KEY_MOUSE: the cell */
	enum tui_button button;
};

enum tui_action {
	TUI_ACT_NONE,
	TUI_ACT_QUIT,      /* q: asks first when the scenario has unsaved changes */
	TUI_ACT_QUIT_NOW,  /* Q: at once */
	TUI_ACT_UP,
	TUI_ACT_DOWN,
	TUI_ACT_LEFT,
	TUI_ACT_RIGHT,
	TUI_ACT_PANE_LEFT,
	TUI_ACT_PANE_RIGHT,
	TUI_ACT_NEXT_PANE,
	TUI_ACT_PREV_PANE,
	TUI_ACT_INC,
	TUI_ACT_DEC,
	TUI_ACT_EDIT,
	TUI_ACT_EXPLAIN,
	TUI_ACT_HELP,
	TUI_ACT_BASELINE,
	TUI_ACT_SAVE,
	TUI_ACT_OPEN,
	TUI_ACT_PAGE_UP,
	TUI_ACT_PAGE_DOWN,
	TUI_ACT_HOME,
	TUI_ACT_END,
	TUI_ACT_PICK_MODEL,
	TUI_ACT_PICK_GPU,
	TUI_ACT_MODE,
	TUI_ACT_REDRAW,
	TUI_ACT_LESSON, TUI_ACT_TENSORS, TUI_ACT_DTYPELAB, /* teaching views (view_teach.h) */
	TUI_ACT_PROBE, TUI_ACT_GPULIVE, /* the GPU in this machine (view_gpu.h) */
	TUI_ACT_UNDO,
	TUI_ACT_SWEEP, TUI_ACT_PLAN, TUI_ACT_HEAT, TUI_ACT_COMPARE, TUI_ACT_OPS, /* trade-offs (view_trade.h) */
	TUI_ACT_LANG, /* English or Chinese, live (docs/i18n.md) */
	TUI_ACT_FIGURE, /* the chart on screen as SVG (figure_export.c) */
	TUI_ACT_FILTER, /* `/`: filter the knob list by name (knob_filter.c) */
	TUI_ACT_COUNT,
};

/* One row of the key table (keys.c); help lists every row with a description. */
struct tui_keydef {
	int key;
	enum tui_action action;
	const char *name; /* "←/h" as shown in help, NULL for an alias listed on another row */
	const char *help;
};

const struct tui_keydef *tui_keys(size_t *count);
/* The main screen's action for a key (TUI_ACT_NONE if unbound). */
enum tui_action tui_key_action(int key);
const char *tui_action_name(enum tui_action a);

/* Reaction flags, returned by every action. */
enum {
	TUI_REACT_NONE = 0,
	TUI_REACT_REDRAW = 1u << 0,
	TUI_REACT_EVAL = 1u << 1, /* the scenario changed (already evaluated) */
	TUI_REACT_QUIT = 1u << 2,
	TUI_REACT_CLEAR = 1u << 3, /* repaint the terminal from scratch (Ctrl-L) */
};

#include "view.h" /* the view table's row names enum tui_action */

/* ---------------------------------------------------------------- the model */

#define TUI_HL_MAX 128        /* results + technique rows that can be highlighted */
#define TUI_HL_MS 1500        /* how long a changed result stays highlighted */
#define TUI_ITEMS_MAX 16      /* focusable rows per result pane */
#define TUI_KNOBS_MAX 96
#define TUI_VIEW_STACK 6
#define TUI_UNDO_MAX 32       /* changes `u` can undo */
#define TUI_WRITTEN_MAX 16    /* files saved in this session (overwritten without asking while unchanged) */

enum tui_theme_id { TUI_THEME_DARK, TUI_THEME_LIGHT, TUI_THEME_PROJECTOR, TUI_THEME_PROJECTOR_LIGHT };

enum tui_prompt_purpose { TUI_PROMPT_KNOB, TUI_PROMPT_SAVE, TUI_PROMPT_OPEN, TUI_PROMPT_OVERWRITE, TUI_PROMPT_QUIT };

/* A file this session saved, as napkin left it: saved again without asking only while the
 * file on disk is still that (same file, modification time to the nanosecond, size, and
 * the FNV-1a hash of its bytes); anything else means someone else edited or replaced it. */
struct tui_written {
	char path[512]; /* realpath */
	unsigned long long dev, ino, size, hash;
	long long mtime_s, mtime_ns;
};

struct tui_picker_entry {
	char id[ENGINE_ID_MAX];
	char name[ENGINE_NAME_MAX];
	char summary[160];
};

/* One change `u` undoes: the scenario before it, and what it was ("batch 8", "lesson 5"). */
struct tui_undo_entry {
	struct engine_scenario sc;
	char what[96];
};

/* Where draw put things, for mouse hits (written by draw, read by events). */
struct tui_hits {
	int knob_y0, knob_rows;                    /* the knob list's visible rows */
	const struct engine_knob *knob_at[128];    /* by row from knob_y0 (NULL: a heading) */
	struct tui_rect item[TUI_PANE_COUNT][TUI_ITEMS_MAX];
	int picker_y0, picker_rows, picker_first;
};

struct tui_model {
	struct engine_scenario sc;
	struct engine_result res, prev;
	bool have_res;
	char eval_err[512];

	bool baseline;
	struct engine_scenario base_sc;
	struct engine_result base;

	struct preset_registry *reg;
	struct engine_catalog cat;
	bool have_cat;
	char path[512]; /* the default path for save and open */
	/* the files saved in this session: saved again without asking while unchanged on disk */
	struct tui_written written[TUI_WRITTEN_MAX];
	int n_written;
	char confirm_path[512]; /* a save waiting for y (the file exists, napkin did not write it, or it changed) */
	/* the scenario as last saved or opened (or as it started): what "unsaved changes" are
	 * measured against (tui_model_modified) */
	struct engine_scenario saved_sc;
	/* the user's own scenario while a lesson shows its own (the lesson view points it at
	 * the one it gives back when left); NULL: m->sc is the user's */
	const struct engine_scenario *user_sc;
	/* a lesson's quiz: the result whose value the screen hides until the step is answered
	 * ("compute.train_days"), or "" (tui_model_hidden) */
	char hide_key[64];
	/* napkin lesson N: what the student answers in its lesson (tui_options.lesson_progress;
	 * the caller's), or NULL; view_lesson_step.c marks it */
	struct teach_progress *progress;

	/* undo (model_undo.c) */
	struct tui_undo_entry undo[TUI_UNDO_MAX];
	int n_undo;

	/* focus: a knob (pane KNOBS) or an item of a result pane */
	enum tui_pane pane;
	const struct engine_knob *knob;
	int item[TUI_PANE_COUNT];
	enum tui_pane slot; /* the result pane shown when panes share a slot */
	int knob_scroll;
	/* the knob filter (knob_filter.c): what `/` typed ("" none), and whether its line is
	 * open (every key but C-c goes to it) */
	char knob_filter[64];
	bool knob_filter_typing;

	uint64_t hl_until[TUI_HL_MAX];
	size_t n_hl;

	char msg[600];
	bool msg_error;

	/* views: the main screen is the base; overlays stack on it */
	const struct tui_view *view_table; /* TUI_VIEW_COUNT rows (explorer.c) */
	enum tui_view_id views[TUI_VIEW_STACK];
	int n_views;
	void *view_state[TUI_VIEW_COUNT];

	/* help and explain */
	char explain_title[128];
	char explain[12288];
	int scroll;

	/* picker */
	const struct engine_knob *pick_knob;
	struct tui_picker_entry *pick;
	int n_pick, pick_sel;
	int pick_match[256], n_match;
	char filter[512]; /* what was typed: a filter, or a path to a file */

	/* prompt */
	enum tui_prompt_purpose prompt_purpose;
	const struct engine_knob *prompt_knob;
	char input[512];
	int input_len, input_cur;

	/* terminal facts */
	int w, h;
	struct tui_layout layout;
	enum tui_theme_id theme;
	bool ascii;
	bool color;

	struct tui_hits hits;
	uint64_t now; /* the time of the frame being drawn */
	bool quit;
	bool interrupted; /* left with Ctrl-C: tui_run returns TUI_EXIT_INTERRUPT */

	/* the GPU in this machine: probe, measured GPUs, live panel (gpu_state.c, view_probe.c, view_live.c) */
	struct tui_gpu *gpu;
	double probe_timeout; /* seconds; 0: the probe's default */
	char lang[12];        /* the lessons' language (--lang) */
};

/* The explorer's entry points (explorer.c, above every view): init sets up the model with
 * the view table and starts a lesson when opt names one; fini closes the views, stops the
 * GPU probe or monitor and frees the model; timeout is the milliseconds until the next
 * wake-up (a highlight ends, a probe is polled, a sample is due), -1 when none (block);
 * tick does what is due. tui_model_event (model_input.c) hands an event to the top view. */
int tui_model_init(struct tui_model *m, const struct engine_scenario *sc, struct preset_registry *reg,
		   const struct tui_options *opt);
void tui_model_fini(struct tui_model *m);
int tui_model_timeout(const struct tui_model *m, uint64_t now);
unsigned tui_model_tick(struct tui_model *m, uint64_t now);
unsigned tui_model_event(struct tui_model *m, const struct tui_event *ev, uint64_t now);

/* The model alone (model.c), below every view: setup fills m from the scenario and the
 * options and keeps table (TUI_VIEW_COUNT rows) for the view stack; release frees what
 * setup and the actions allocated. The highlights' own wake-up and expiry. */
int tui_model_setup(struct tui_model *m, const struct engine_scenario *sc, struct preset_registry *reg,
		    const struct tui_options *opt, const struct tui_view *table);
void tui_model_release(struct tui_model *m);
int tui_model_hl_timeout(const struct tui_model *m, uint64_t now);
unsigned tui_model_hl_tick(struct tui_model *m, uint64_t now);
void tui_model_set_size(struct tui_model *m, int w, int h);

/* Evaluates the scenario and highlights what moved (now: when the change happened). */
void tui_model_evaluate(struct tui_model *m, uint64_t now);
/* Pins the current results as the baseline, or unpins. */
void tui_model_toggle_baseline(struct tui_model *m);
/* Sets a knob from text, all or nothing: on error the scenario is unchanged and the
 * footer shows the engine's message. Returns 0 or an error code. */
int tui_model_set_knob(struct tui_model *m, const struct engine_knob *k, const char *text, uint64_t now);
/* The notes of the defaults that adapted from before to after ("sequence 4,096 → 1,024, the
 * context of GPT-2 (124M)"), joined with "; ", or "" (engine_adapt). */
void tui_model_adapt_notes(const struct engine_scenario *before, const struct engine_scenario *after, char *buf,
			   size_t n);
/* Steps a knob by dir (model_actions.c); a preset name (model, GPU) opens the picker instead.
 * tui_model_step_value (model.c) only steps. Return 0 or an error code. */
int tui_model_step_knob(struct tui_model *m, const struct engine_knob *k, int dir, uint64_t now);
int tui_model_step_value(struct tui_model *m, const struct engine_knob *k, int dir, uint64_t now);
void tui_model_message(struct tui_model *m, bool error, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
/* F (figure_export.c): writes a figure (src/figure) to a new file in the current directory,
 * napkin-KIND.svg or napkin-KIND-N.svg (never over a file), and says where in the status
 * line; c is the sweep's, h the heatmap's (NULL for the others). tui_figure_main writes the
 * main screen's: the memory bar when the memory pane is focused, else the roofline. */
unsigned tui_figure_write(struct tui_model *m, enum figure_kind kind, const struct figure_curve *c,
			  const struct figure_heat *h);
unsigned tui_figure_main(struct tui_model *m);

/* The knobs on screen, in group order, without the hidden and irrelevant ones. */
int tui_model_knobs(const struct tui_model *m, const struct engine_knob **out, int max);
/* The knob filter (knob_filter.c). tui_model_knobs_shown: the knobs the knob pane lists,
 * those of tui_model_knobs that match m->knob_filter (all of them when it is ""). matches:
 * whether k's key, English label or Chinese label holds text (ASCII in either case, '-' '_'
 * and ' ' alike). on: the line is open or a filter is kept. start opens the line (`/`),
 * key takes a key typed into it (Enter keeps the filter and focuses the first match, Esc
 * clears it), clear drops the filter. */
int tui_model_knobs_shown(const struct tui_model *m, const struct engine_knob **out, int max);
bool tui_knob_matches(const struct engine_knob *k, const char *text);
bool tui_knob_filter_on(const struct tui_model *m);
unsigned tui_knob_filter_start(struct tui_model *m);
unsigned tui_knob_filter_key(struct tui_model *m, int key);
void tui_knob_filter_clear(struct tui_model *m);
/* Puts the cursor on knob k, the knob list scrolled to show it in its top rows (where an
 * overlay over the bottom half leaves it in sight); a filter that hides k is dropped. False
 * (nothing changed) when k is NULL or not among the scenario's knobs. */
bool tui_model_focus_knob(struct tui_model *m, const struct engine_knob *k);
/* The focusable rows of a result pane: their explain keys. */
int tui_pane_items(const struct tui_model *m, enum tui_pane p, const char **keys, int max);
/* The focused item's explain key, or NULL on a knob. */
const char *tui_model_focus_key(const struct tui_model *m);
/* A knob's label as shown: its translation in the "knob" context where it has one (a label
 * whose English is another message too: "GPU" a plural's singular, "memory" the bound),
 * else its plain translation. */
const char *tui_knob_label(const struct engine_knob *k);
/* Whether a result (by key) is highlighted at now; its highlight slot, -1 if none. */
/* Whether the screen hides the value of result key (a lesson's quiz asks for it): the key
 * itself, or the training time in days or seconds for either. */
bool tui_model_hidden(const struct tui_model *m, const char *key);
/* Whether the explorer's panes can hide key's value for a quiz (the draw code asks
 * tui_model_hidden for it); a lesson's `quiz: true` answer must be one of these. */
bool tui_model_hideable(const char *key);
/* Whether the explanation of key would give away the value the screen hides: the hidden key's
 * own (the training time's either way) and every data_loading one while the dataset's size is. */
bool tui_model_explain_hidden(const struct tui_model *m, const char *key);
bool tui_model_changed(const struct tui_model *m, const char *key, uint64_t now);
int tui_model_hl_index(const char *key);
/* (model_items.c) The techniques pane's item i ("techniques.zero1"), NULL past the last. */
const char *tui_model_tech_item(int i);
/* The rectangle of a pane on screen (for views that point at one); w = 0 when hidden. */
struct tui_rect tui_model_pane_rect(const struct tui_model *m, enum tui_pane p);
/* The baseline's difference in words ("+3.10 GiB", "-12.0%"), "" when equal or unpinned. */
void tui_model_delta(const struct tui_model *m, const char *key, char *buf, size_t n, int *style);
/* The same in fewer characters: prec 0 is the full form, 1 and 2 drop decimals ("-46.3%",
 * "-46%"; "+58.68 GiB", "+58.7 GiB", "+59 GiB"), never the sign or a whole digit. */
void tui_model_delta_prec(const struct tui_model *m, const char *key, int prec, char *buf, size_t n, int *style);

/* Saves the scenario (preset_scenario_save, atomic) or opens one; the footer says how it
 * went. Return 0 or an error code. */
int tui_model_save(struct tui_model *m, const char *path);
int tui_model_open(struct tui_model *m, const char *path, uint64_t now);
/* The main screen's key handler (the main view's row in the view table). */
unsigned tui_main_view_key(struct tui_model *m, const struct tui_event *ev, uint64_t now);

/* Undo (model_undo.c): tui_undo_note records the scenario before a change when the change
 * moved a knob (what names it in the footer); tui_undo_push records it always; tui_undo
 * (model_actions.c) brings the last one back. */
void tui_undo_note(struct tui_model *m, const struct engine_scenario *before, const char *what);
void tui_undo_push(struct tui_model *m, const struct engine_scenario *before, const char *what);
unsigned tui_undo(struct tui_model *m, uint64_t now);

/* Files (model_files.c). tui_model_save_ask saves, or first asks (a TUI_PROMPT_OVERWRITE
 * prompt) when the file exists and this session did not write it. tui_model_open_file
 * loads a model (YAML or a Hugging Face config.json), a GPU profile or a scenario, told
 * apart by what the file holds; a name that is no file is a scenario preset id. Both
 * return 0 or an error code, and the footer says how it went. tui_path_complete
 * completes the file name at the end of text in place (Tab): the longest unambiguous
 * part; the footer lists the candidates when there are several. */
int tui_model_save_ask(struct tui_model *m, const char *path);
/* The answer to the overwrite question: yes saves to m->confirm_path, no keeps the file. */
int tui_model_save_confirmed(struct tui_model *m, bool yes);
int tui_model_open_file(struct tui_model *m, const char *path, uint64_t now);
/* Whether the user's scenario (m->sc, or m->user_sc during a lesson) differs from the one
 * last saved or opened (or the one it started with), knob by knob in canonical text:
 * undoing back to it is no change. what (may be NULL) gets the keys of the first knobs
 * that differ ("seq, batch"). */
bool tui_model_modified(const struct tui_model *m, char *what, size_t n);
/* q: quits, or first asks (a TUI_PROMPT_QUIT prompt) when there are unsaved changes. */
unsigned tui_model_quit_ask(struct tui_model *m);
/* The unsaved scenario written to a new file (napkin-unsaved.yaml in the current directory,
 * else in $HOME; never over an existing one) when the explorer leaves at once with C-c, as
 * nano's emergency save does. true with its path in out; false when nothing was unsaved. */
bool tui_model_rescue(struct tui_model *m, char *out, size_t n);
bool tui_path_complete(struct tui_model *m, char *text, size_t size);
/* Whether text names a file rather than a preset id (a '/', '~', or a .yaml/.yml/.json end). */
bool tui_looks_like_path(const char *text);

/* Opens the explain view for the focused knob or result. */
void tui_model_explain(struct tui_model *m);
/* The open explanation written again (in the language now set), its scroll kept. */
void tui_model_explain_again(struct tui_model *m);
void tui_model_open_picker(struct tui_model *m, const struct engine_knob *k);
void tui_model_open_prompt(struct tui_model *m, enum tui_prompt_purpose p, const struct engine_knob *k);
/* Filters the picker's entries by m->filter. */
void tui_picker_refilter(struct tui_model *m);

/* Between the model's files (model.c, model_input.c, model_actions.c). */
/* The index of knob k in list (of n), or -1. */
int tui_model_knob_index(const struct tui_model *m, const struct engine_knob *k, const struct engine_knob **list,
			 int n);
/* Keeps the focused knob on screen after a mode change hid it. */
void tui_model_fix_knob_focus(struct tui_model *m);
/* The number of focusable rows of a result pane. */
int tui_model_n_items(const struct tui_model *m, enum tui_pane p);

/* ---------------------------------------------------------------- drawing (draw*.c) */

/* Composes the whole frame into c (resized to m->w × m->h by the caller). */
void tui_draw(struct tui_model *m, struct tui_canvas *c, uint64_t now);
void tui_draw_main(struct tui_model *m, struct tui_canvas *c, uint64_t now);
void tui_draw_roofline(struct tui_model *m, struct tui_canvas *c, struct tui_rect r);
const char *tui_main_footer(const struct tui_model *m);

#endif
