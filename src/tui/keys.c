/* The key table: every key of the main screen once, with the help text `?` lists. */
#include <stddef.h>

#include "i18n.h"
#include "model.h"

static const struct tui_keydef keys[] = {
	{TUI_KEY_UP, TUI_ACT_UP, "\xe2\x86\x91 k", N_("previous knob, or previous row of a result pane")},
	{'k', TUI_ACT_UP, NULL, NULL},
	{TUI_KEY_DOWN, TUI_ACT_DOWN, "\xe2\x86\x93 j", N_("next knob, or next row of a result pane")},
	{'j', TUI_ACT_DOWN, NULL, NULL},
	{TUI_KEY_LEFT, TUI_ACT_LEFT, "\xe2\x86\x90", N_("step the focused knob down (on a result: the pane to the left)")},
	{TUI_KEY_RIGHT, TUI_ACT_RIGHT, "\xe2\x86\x92", N_("step the focused knob up (on a result: the pane to the right)")},
	{'-', TUI_ACT_DEC, "- +", N_("step the focused knob down or up (powers of two, 1-2-5, the next choice)")},
	{'+', TUI_ACT_INC, NULL, NULL},
	{'=', TUI_ACT_INC, NULL, NULL},
	{'h', TUI_ACT_PANE_LEFT, "h l", N_("move to the pane on the left or right")},
	{'l', TUI_ACT_PANE_RIGHT, NULL, NULL},
	{TUI_KEY_TAB, TUI_ACT_NEXT_PANE, "Tab S-Tab", N_("next or previous pane (each knob group is one)")},
	{TUI_KEY_BTAB, TUI_ACT_PREV_PANE, NULL, NULL},
	{TUI_KEY_ENTER, TUI_ACT_EDIT, "Enter", N_("type a value (7B, 4k, 80GiB, 40%), or pick a model or GPU")},
	{'/', TUI_ACT_FILTER, "/",
	 N_("filter the knobs by name, in English or Chinese (Enter keeps the filter, Esc clears it)")},
	{'m', TUI_ACT_PICK_MODEL, "m", N_("pick a model preset (type to filter), or type a path to a model file")},
	{'g', TUI_ACT_PICK_GPU, "g", N_("pick a GPU preset (type to filter), or type a path to a GPU profile")},
	{'t', TUI_ACT_MODE, "t", N_("switch between training and inference")},
	{'e', TUI_ACT_EXPLAIN, "e", N_("explain the focused result: formula, today's values, source")},
	{'c', TUI_ACT_BASELINE, "c", N_("pin the scenario as a baseline (results show their difference); again: unpin")},
	{'u', TUI_ACT_UNDO, "u", N_("undo the last change: a knob, a pick, a lesson started or left, a file opened (32 kept)")},
	{'s', TUI_ACT_SAVE, "s", N_("save the scenario as YAML (atomic write; asks before overwriting a file napkin did not write)")},
	{'o', TUI_ACT_OPEN, "o", N_("open a file (scenario, model YAML, config.json, GPU profile) or a scenario preset")},
	{TUI_KEY_PGUP, TUI_ACT_PAGE_UP, "PgUp PgDn", N_("a page up or down")},
	{TUI_KEY_PGDN, TUI_ACT_PAGE_DOWN, NULL, NULL},
	{TUI_KEY_HOME, TUI_ACT_HOME, "Home End", N_("first or last row")},
	{TUI_KEY_END, TUI_ACT_END, NULL, NULL},
	{'?', TUI_ACT_HELP, "? F1", N_("this help")},
	{TUI_KEY_F1, TUI_ACT_HELP, NULL, NULL},
	{TUI_KEY_CTRL_L, TUI_ACT_REDRAW, "C-l", N_("repaint the screen")},
	{'L', TUI_ACT_LESSON, "L", N_("lessons: the chapter step by step (n/p move, the check confirms your answer)")},
	{'T', TUI_ACT_TENSORS, "T", N_("tensor inspector: the scenario's big tensors; transpose, view, slice, copy")},
	{'D', TUI_ACT_DTYPELAB, "D", N_("dtype lab: how fp32, bf16, fp16, fp8, int8 store a number, bit by bit")},
	{'G', TUI_ACT_PROBE, "G", N_("probe the GPU in this machine: measured ceilings beside the datasheet's")},
	{'M', TUI_ACT_GPULIVE, "M", N_("live GPU panel: memory used vs napkin's prediction, load, clocks, power")},
	{'S', TUI_ACT_SWEEP, "S", N_("sweep: a knob along x, results on y (s stacks their parts; memory with the capacity)")},
	{'H', TUI_ACT_HEAT, "H", N_("heatmap: two knobs (batch x seq, TP x PP, ...) and one result; Enter applies a cell")},
	{'C', TUI_ACT_COMPARE, "C", N_("compare: one knob's values side by side (k K pick the knob, GPUs first; a adds one)")},
	{'P', TUI_ACT_PLAN, "P", N_("plan: the parallel layouts that fit, fastest first (D a deadline); Enter applies one")},
	{'O', TUI_ACT_OPS, "O", N_("ops: each op of one layer on one GPU, its FLOPs, bytes and time on the roofline (Tab: the phase)")},
	{'F', TUI_ACT_FIGURE, "F",
	 N_("figure: the roofline, the memory bar (memory pane focused), the sweep or the heatmap as SVG in the current "
	    "directory (napkin-roofline.svg, ...; never over a file)")},
	{'Z', TUI_ACT_LANG, "Z", N_("language: English or Chinese (中文), switched live; napkin --lang zh or LANG start in it")},
	{'q', TUI_ACT_QUIT, "q", N_("quit (status 0); with unsaved changes it asks first: y quits, s saves, n stays")},
	{'Q', TUI_ACT_QUIT_NOW, "Q", N_("quit at once, unsaved changes and all (status 0)")},
	{TUI_KEY_CTRL_C, TUI_ACT_QUIT_NOW, "C-c",
	 N_("interrupt: quit at once (status 130); unsaved changes go to napkin-unsaved.yaml, as nano's emergency save")},
};

const struct tui_keydef *tui_keys(size_t *count)
{
	*count = sizeof keys / sizeof keys[0];
	return keys;
}

enum tui_action tui_key_action(int key)
{
	size_t i;

	for (i = 0; i < sizeof keys / sizeof keys[0]; i++)
		if (keys[i].key == key)
			return keys[i].action;
	return TUI_ACT_NONE;
}

const char *tui_action_name(enum tui_action a)
{
	static const char *const names[TUI_ACT_COUNT] = {
		[TUI_ACT_NONE] = "none",           [TUI_ACT_QUIT] = "quit",
		[TUI_ACT_QUIT_NOW] = "quit-now",
		[TUI_ACT_UP] = "up",               [TUI_ACT_DOWN] = "down",
		[TUI_ACT_LEFT] = "left",           [TUI_ACT_RIGHT] = "right",
		[TUI_ACT_PANE_LEFT] = "pane-left", [TUI_ACT_PANE_RIGHT] = "pane-right",
		[TUI_ACT_NEXT_PANE] = "next-pane", [TUI_ACT_PREV_PANE] = "prev-pane",
		[TUI_ACT_INC] = "inc",             [TUI_ACT_DEC] = "dec",
		[TUI_ACT_EDIT] = "edit",           [TUI_ACT_EXPLAIN] = "explain",
		[TUI_ACT_HELP] = "help",           [TUI_ACT_BASELINE] = "baseline",
		[TUI_ACT_SAVE] = "save",           [TUI_ACT_OPEN] = "open",
		[TUI_ACT_PAGE_UP] = "page-up",     [TUI_ACT_PAGE_DOWN] = "page-down",
		[TUI_ACT_HOME] = "home",           [TUI_ACT_END] = "end",
		[TUI_ACT_PICK_MODEL] = "pick-model", [TUI_ACT_PICK_GPU] = "pick-gpu",
		[TUI_ACT_MODE] = "mode",           [TUI_ACT_REDRAW] = "redraw",
		[TUI_ACT_LESSON] = "lesson",       [TUI_ACT_TENSORS] = "tensors",
		[TUI_ACT_DTYPELAB] = "dtypelab",
		[TUI_ACT_PROBE] = "probe",         [TUI_ACT_GPULIVE] = "gpu-live",
		[TUI_ACT_UNDO] = "undo",
		[TUI_ACT_SWEEP] = "sweep",         [TUI_ACT_PLAN] = "plan",
		[TUI_ACT_HEAT] = "heatmap",       [TUI_ACT_COMPARE] = "compare",
		[TUI_ACT_LANG] = "lang",          [TUI_ACT_OPS] = "ops",
		[TUI_ACT_FIGURE] = "figure",      [TUI_ACT_FILTER] = "filter",
	};
	return (int)a >= 0 && a < TUI_ACT_COUNT && names[a] ? names[a] : "?";
}
