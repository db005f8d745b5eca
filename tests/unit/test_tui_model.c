/* The view-model, the key table and the drawing, without a terminal: actions change the
 * scenario through the engine, refuse bad values with its message, highlight what moved,
 * diff against a baseline; every frame draws at every size. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "i18n.h"
#include "lesson.h"
#include "model.h"
#include "testtui.h"
#include "testutil.h"

static unsigned key(struct tui_model *m, int k, uint64_t now)
{
	struct tui_event ev;

	memset(&ev, 0, sizeof ev);
	ev.key = k;
	return tui_model_event(m, &ev, now);
}

static void type(struct tui_model *m, const char *s, uint64_t now)
{
	for (; *s; s++)
		key(m, (unsigned char)*s, now);
}

static void focus_knob(struct tui_model *m, const char *k)
{
	m->pane = TUI_PANE_KNOBS;
	m->knob = engine_knob_find(k);
	assert_non_null(m->knob);
}

static void test_keymap(void **state)
{
	size_t n, i;
	const struct tui_keydef *k = tui_keys(&n);
	bool seen[TUI_ACT_COUNT] = {false};

	(void)state;
	assert_int_equal(tui_key_action(TUI_KEY_RIGHT), TUI_ACT_RIGHT);
	assert_int_equal(tui_key_action('l'), TUI_ACT_PANE_RIGHT);
	assert_int_equal(tui_key_action('+'), TUI_ACT_INC);
	assert_int_equal(tui_key_action('-'), TUI_ACT_DEC);
	assert_int_equal(tui_key_action('q'), TUI_ACT_QUIT);
	assert_int_equal(tui_key_action('e'), TUI_ACT_EXPLAIN);
	assert_int_equal(tui_key_action('c'), TUI_ACT_BASELINE);
	assert_int_equal(tui_key_action(TUI_KEY_F1), TUI_ACT_HELP);
	assert_int_equal(tui_key_action(TUI_KEY_TAB), TUI_ACT_NEXT_PANE);
	assert_int_equal(tui_key_action('Z'), TUI_ACT_LANG);
	assert_int_equal(tui_key_action('Q'), TUI_ACT_QUIT_NOW);
	assert_int_equal(tui_key_action(TUI_KEY_CTRL_C), TUI_ACT_QUIT_NOW);
	assert_int_equal(tui_key_action('Y'), TUI_ACT_NONE);
	for (i = 0; i < n; i++) {
		size_t j;
		seen[k[i].action] = true;
		/* every key once; the help lists every action */
		for (j = i + 1; j < n; j++)
			assert_int_not_equal(k[i].key, k[j].key);
		if (k[i].name != NULL)
			assert_non_null(k[i].help);
		assert_string_not_equal(tui_action_name(k[i].action), "?");
	}
	/* every action has a key, and the first key of the table has a help row */
	for (i = 1; i < TUI_ACT_COUNT; i++)
		if (!seen[i])
			fail_msg("action %s has no key", tui_action_name((enum tui_action)i));
	assert_non_null(k[0].name);
}

static void test_step_batch(void **state)
{
	struct tui_model *m = tt_new_model(120, 40);
	double act0 = m->res.memory.activations;
	unsigned f;

	(void)state;
	focus_knob(m, "batch");
	assert_int_equal(m->sc.batch, 1);
	assert_int_equal(tui_model_timeout(m, 1000), -1); /* idle: block */
	f = key(m, TUI_KEY_RIGHT, 1000);
	assert_true(f & TUI_REACT_EVAL);
	assert_int_equal(m->sc.batch, 2); /* powers of two */
	assert_true(m->res.memory.activations > act0);
	assert_true(tui_model_changed(m, "memory.activations", 1001));
	assert_false(tui_model_changed(m, "memory.weights", 1001));
	assert_true(tui_model_timeout(m, 1001) > 0);
	/* the highlight fades: a redraw, then block again */
	assert_true(tui_model_tick(m, 1000 + TUI_HL_MS) & TUI_REACT_REDRAW);
	assert_false(tui_model_changed(m, "memory.activations", 1000 + TUI_HL_MS));
	assert_int_equal(tui_model_timeout(m, 1000 + TUI_HL_MS), -1);
	key(m, '-', 3000);
	assert_int_equal(m->sc.batch, 1);
	key(m, '-', 3000); /* at its minimum: refused with the engine's words */
	assert_int_equal(m->sc.batch, 1);
	assert_true(m->msg_error);
	assert_non_null(strstr(m->msg, "batch"));
	tt_free_model(m);
}

static void test_typed_value(void **state)
{
	struct tui_model *m = tt_new_model(120, 40);

	(void)state;
	focus_knob(m, "seq");
	key(m, TUI_KEY_ENTER, 0);
	assert_int_equal(tui_view_top(m), TUI_VIEW_PROMPT);
	assert_string_equal(m->input, "4096");
	key(m, TUI_KEY_CTRL_U, 0);
	type(m, "8k", 0);
	key(m, TUI_KEY_ENTER, 0);
	assert_int_equal(tui_view_top(m), TUI_VIEW_MAIN);
	assert_int_equal(m->sc.seq, 8192); /* the engine's suffixes */
	assert_false(m->msg_error);

	/* a bad value: refused with the engine's message, the old value kept */
	key(m, TUI_KEY_ENTER, 0);
	key(m, TUI_KEY_CTRL_U, 0);
	type(m, "lots", 0);
	key(m, TUI_KEY_ENTER, 0);
	assert_int_equal(m->sc.seq, 8192);
	assert_true(m->msg_error);
	assert_non_null(strstr(m->msg, "seq"));
	/* the box stays open on what was typed, to fix it; Esc leaves it */
	assert_int_equal(tui_view_top(m), TUI_VIEW_PROMPT);
	assert_string_equal(m->input, "lots");
	key(m, TUI_KEY_ESC, 0);
	assert_int_equal(tui_view_top(m), TUI_VIEW_MAIN);

	/* a value the scenario as a whole refuses (tp must divide heads) */
	focus_knob(m, "tp");
	key(m, TUI_KEY_ENTER, 0);
	key(m, TUI_KEY_CTRL_U, 0);
	type(m, "3", 0);
	key(m, TUI_KEY_ENTER, 0);
	assert_int_equal(m->sc.tp, 1);
	assert_true(m->msg_error);
	assert_int_equal(tui_view_top(m), TUI_VIEW_PROMPT);
	key(m, TUI_KEY_ESC, 0);

	/* Esc cancels */
	focus_knob(m, "batch");
	key(m, TUI_KEY_ENTER, 0);
	type(m, "99", 0);
	key(m, TUI_KEY_ESC, 0);
	assert_int_equal(m->sc.batch, 1);
	tt_free_model(m);
}

static void test_baseline(void **state)
{
	struct tui_model *m = tt_new_model(120, 40);
	char d[64];
	int style;

	(void)state;
	tui_model_delta(m, "memory.activations", d, sizeof d, &style);
	assert_string_equal(d, ""); /* nothing pinned */
	key(m, 'c', 0);
	assert_true(m->baseline);
	focus_knob(m, "batch");
	key(m, '+', 0);
	tui_model_delta(m, "memory.activations", d, sizeof d, &style);
	assert_true(d[0] == '+');
	assert_non_null(strstr(d, "GiB"));
	assert_int_equal(style, TUI_S_DELTA_UP);
	tui_model_delta(m, "memory.weights", d, sizeof d, &style);
	assert_string_equal(d, ""); /* unchanged: no difference shown */
	tui_model_delta(m, "compute.step_seconds", d, sizeof d, &style);
	assert_non_null(strstr(d, "%"));
	key(m, 'c', 0);
	assert_false(m->baseline);
	tt_free_model(m);
}

static void test_panes_and_explain(void **state)
{
	struct tui_model *m = tt_new_model(120, 40);
	int i, seen[TUI_PANE_COUNT] = {0};

	(void)state;
	/* Tab visits every pane and comes back */
	for (i = 0; i < 20; i++) {
		seen[m->pane]++;
		key(m, TUI_KEY_TAB, 0);
	}
	for (i = 0; i < TUI_PANE_COUNT; i++)
		assert_true(seen[i] > 0);
	/* e explains the focused result with the engine's text */
	m->pane = TUI_PANE_MEMORY;
	m->item[TUI_PANE_MEMORY] = 4;
	assert_string_equal(tui_model_focus_key(m), "memory.activations");
	key(m, 'e', 0);
	assert_int_equal(tui_view_top(m), TUI_VIEW_EXPLAIN);
	assert_true(strlen(m->explain) > 40);
	key(m, TUI_KEY_DOWN, 0);
	key(m, TUI_KEY_ESC, 0);
	assert_int_equal(tui_view_top(m), TUI_VIEW_MAIN);
	/* the help lists the keys */
	key(m, '?', 0);
	assert_int_equal(tui_view_top(m), TUI_VIEW_HELP);
	key(m, '?', 0);
	assert_int_equal(tui_view_top(m), TUI_VIEW_MAIN);
	/* while a lesson's quiz hides the training time, e on the time row does not give it away,
	 * and explains it again once the step is answered */
	m->pane = TUI_PANE_COMPUTE;
	for (i = 0; i < 40; i++) {
		m->item[TUI_PANE_COMPUTE] = i;
		if (tui_model_focus_key(m) != NULL && strcmp(tui_model_focus_key(m), "compute.train_days") == 0)
			break;
	}
	assert_true(i < 40);
	util_strlcpy(m->hide_key, "compute.train_days", sizeof m->hide_key);
	key(m, 'e', 0);
	assert_int_equal(tui_view_top(m), TUI_VIEW_EXPLAIN);
	assert_non_null(strstr(m->explain, "asks for this number"));
	assert_null(strstr(m->explain, "days"));
	key(m, TUI_KEY_ESC, 0);
	m->hide_key[0] = '\0';
	key(m, 'e', 0);
	assert_non_null(strstr(m->explain, "days"));
	key(m, TUI_KEY_ESC, 0);
	/* fp16's row: loss scaling is for gradients that underflow, not for values above 65504 */
	m->pane = TUI_PANE_DTYPES;
	for (i = 0; i < 40; i++) {
		m->item[TUI_PANE_DTYPES] = i;
		if (tui_model_focus_key(m) != NULL && strcmp(tui_model_focus_key(m), "dtype.fp16") == 0)
			break;
	}
	assert_true(i < 40);
	key(m, 'e', 0);
	assert_non_null(strstr(m->explain, "small gradients underflow to 0"));
	assert_null(strstr(m->explain, "65504, so gradients need loss scaling"));
	key(m, TUI_KEY_ESC, 0);
	/* a knob explains itself too */
	focus_knob(m, "zero");
	key(m, 'e', 0);
	assert_non_null(strstr(m->explain, "ZeRO"));
	key(m, 'q', 0);
	assert_false(m->quit);
	key(m, 'q', 0);
	assert_true(m->quit);
	tt_free_model(m);
}

static void test_picker(void **state)
{
	struct tui_model *m = tt_new_model(120, 40);

	(void)state;
	key(m, 'g', 0);
	assert_int_equal(tui_view_top(m), TUI_VIEW_PICKER);
	assert_true(m->n_match >= 1); /* no registry: the built-in GPU */
	type(m, "zzz", 0);
	assert_int_equal(m->n_match, 0);
	key(m, TUI_KEY_BACKSPACE, 0);
	key(m, TUI_KEY_BACKSPACE, 0);
	key(m, TUI_KEY_BACKSPACE, 0);
	type(m, "h100", 0);
	assert_int_equal(m->n_match, 1);
	key(m, TUI_KEY_ENTER, 0);
	assert_int_equal(tui_view_top(m), TUI_VIEW_MAIN);
	assert_string_equal(m->sc.gpu.id, "h100-sxm");
	tt_free_model(m);
}

static void test_mode_hides_knobs(void **state)
{
	struct tui_model *m = tt_new_model(120, 40);
	const struct engine_knob *list[TUI_KNOBS_MAX];
	int n, i;
	bool prompt = false, optimizer = false;

	(void)state;
	focus_knob(m, "optimizer");
	key(m, 't', 0);
	assert_int_equal(m->sc.mode, ENGINE_MODE_INFER);
	n = tui_model_knobs(m, list, TUI_KNOBS_MAX);
	for (i = 0; i < n; i++) {
		prompt = prompt || strcmp(list[i]->key, "prompt") == 0;
		optimizer = optimizer || strcmp(list[i]->key, "optimizer") == 0;
	}
	assert_true(prompt);
	assert_false(optimizer);
	/* the focus moved to a knob that is still there */
	for (i = 0; i < n && list[i] != m->knob; i++)
		;
	assert_true(i < n);
	tt_free_model(m);
}

static void test_draw_every_size(void **state)
{
	struct tui_model *m = tt_new_model(120, 40);
	struct tui_canvas c;
	int w, h, v;
	static const enum tui_view_id overlays[] = {TUI_VIEW_MAIN, TUI_VIEW_HELP, TUI_VIEW_EXPLAIN, TUI_VIEW_PROMPT};

	(void)state;
	tui_canvas_init(&c);
	m->sc.batch = 64; /* over capacity: warnings and the red bar too */
	tui_model_evaluate(m, 0);
	for (w = 40; w <= 300; w += 13)
		for (h = 12; h <= 100; h += 11)
			for (v = 0; v < 4; v++) {
				tui_model_set_size(m, w, h);
				if (overlays[v] == TUI_VIEW_EXPLAIN)
					tui_model_explain(m);
				else if (overlays[v] == TUI_VIEW_PROMPT)
					tui_model_open_prompt(m, TUI_PROMPT_SAVE, NULL);
				else if (overlays[v] != TUI_VIEW_MAIN)
					tui_view_push(m, overlays[v]);
				tui_draw(m, &c, 0);
				assert_int_equal(c.w, w);
				assert_int_equal(c.h, h);
				if (w < TUI_MIN_W || h < TUI_MIN_H) {
					assert_true(tt_screen_has(&c, "make the terminal at least 80"));
				} else if (v == 0) {
					assert_true(tt_screen_has(&c, "napkin"));
					assert_true(tt_screen_has(&c, "Memory per GPU"));
					assert_true(tt_screen_has(&c, "OVER"));
				}
				while (m->n_views > 1)
					tui_view_pop(m);
			}
	tui_canvas_fini(&c);
	tt_free_model(m);
}

static void test_canvas(void **state)
{
	struct tui_canvas c;
	char row[64];

	(void)state;
	tui_canvas_init(&c);
	assert_int_equal(tui_canvas_resize(&c, 10, 2), 0);
	tui_canvas_clear(&c, TUI_S_NORMAL);
	assert_int_equal(tui_canvas_text(&c, 7, 0, -1, "abcdef", TUI_S_VALUE), 3); /* clipped at the edge */
	tui_canvas_row(&c, 0, row, sizeof row);
	assert_string_equal(row, "       ab\xe2\x80\xa6");
	tui_canvas_clip(&c, tui_rect_make(0, 1, 3, 1));
	tui_canvas_text(&c, 0, 1, 10, "xyzw", TUI_S_VALUE);
	tui_canvas_put(&c, 5, 1, 'Q', 0);
	tui_canvas_unclip(&c);
	tui_canvas_row(&c, 1, row, sizeof row);
	assert_string_equal(row, "xyz       ");
	assert_int_equal(tui_ascii_fallback(0x2500), '-');
	assert_int_equal(tui_ascii_fallback(0x2588), '#');
	assert_int_equal(tui_utf8_width("4 \xc3\x97 H100"), 8);
	tui_canvas_fini(&c);
}

static void test_mouse(void **state)
{
	struct tui_model *m = tt_new_model(120, 40);
	struct tui_canvas c;
	struct tui_event ev;
	int row;

	(void)state;
	tui_canvas_init(&c);
	tui_draw(m, &c, 0);
	for (row = 0; row < m->hits.knob_rows; row++)
		if (m->hits.knob_at[row] != NULL && strcmp(m->hits.knob_at[row]->key, "layers") == 0)
			break;
	assert_true(row < m->hits.knob_rows);
	memset(&ev, 0, sizeof ev);
	ev.key = TUI_KEY_MOUSE;
	ev.x = 3;
	ev.y = m->hits.knob_y0 + row;
	ev.button = TUI_BTN_CLICK;
	tui_model_event(m, &ev, 0);
	assert_string_equal(m->knob->key, "layers");
	ev.button = TUI_BTN_WHEEL_UP;
	tui_model_event(m, &ev, 0);
	assert_int_equal(m->sc.model.layers, 33);
	tui_canvas_fini(&c);
	tt_free_model(m);
}

/* u: a bounded history, newest first; the oldest change gives way when it is full. */
static void test_undo(void **state)
{
	struct tui_model *m = tt_new_model(120, 40);
	int i;

	(void)state;
	focus_knob(m, "batch");
	assert_int_equal(m->sc.batch, 1);
	key(m, 'u', 0);
	assert_non_null(strstr(m->msg, "nothing to undo"));
	for (i = 0; i < TUI_UNDO_MAX + 8; i++) /* batch 1, 2, 4, ... up to the knob's top */
		key(m, TUI_KEY_RIGHT, 0);
	assert_true(m->n_undo > 0 && m->n_undo <= TUI_UNDO_MAX);
	while (m->n_undo > 0)
		key(m, 'u', 0);
	/* back to batch 1: every step was one change */
	assert_true(m->sc.batch == 1 || m->n_undo == 0);
	key(m, TUI_KEY_RIGHT, 0);
	key(m, TUI_KEY_RIGHT, 0);
	assert_int_equal(m->n_undo, 2);
	key(m, 'u', 0);
	assert_non_null(strstr(m->msg, "undid batch"));
	key(m, 'u', 0);
	assert_int_equal(m->n_undo, 0);
	/* a refused value records nothing */
	key(m, TUI_KEY_ENTER, 0);
	key(m, TUI_KEY_CTRL_U, 0);
	type(m, "-5", 0);
	key(m, TUI_KEY_ENTER, 0);
	assert_int_equal(m->n_undo, 0);
	key(m, TUI_KEY_ESC, 0); /* the box stays open on a refused value */
	/* the bound: more changes than the history holds keep the newest TUI_UNDO_MAX */
	for (i = 0; i < TUI_UNDO_MAX + 5; i++) {
		char v[16];
		snprintf(v, sizeof v, "%d", i + 2);
		assert_int_equal(tui_model_set_knob(m, engine_knob_find("batch"), v, 0), 0);
	}
	assert_int_equal(m->n_undo, TUI_UNDO_MAX);
	while (m->n_undo > 0)
		key(m, 'u', 0);
	assert_int_equal(m->sc.batch, 6); /* the scenario before the 6th change: the first 5 gave way */
	tt_free_model(m);
}

/* Badges drop decimals, never the sign or a digit before the point. */
static void test_badge_precision(void **state)
{
	struct tui_model *m = tt_new_model(120, 40);
	char d[64];

	(void)state;
	/* an assumed MFU: the step grows exactly 4× with the batch (the predicted one a little less) */
	assert_int_equal(tui_model_set_knob(m, engine_knob_find("mfu"), "0.4", 0), 0);
	key(m, 'c', 0);
	focus_knob(m, "batch");
	key(m, TUI_KEY_RIGHT, 0); /* 1 -> 2 */
	key(m, TUI_KEY_RIGHT, 0); /* 2 -> 4 */
	tui_model_delta_prec(m, "compute.step_seconds", 0, d, sizeof d, NULL);
	assert_string_equal(d, "+300.0%");
	tui_model_delta_prec(m, "compute.step_seconds", 1, d, sizeof d, NULL);
	assert_string_equal(d, "+300%");
	tui_model_delta_prec(m, "memory.activations", 0, d, sizeof d, NULL);
	assert_true(d[0] == '+' && strstr(d, ".") != NULL && strstr(d, "GiB") != NULL);
	tui_model_delta_prec(m, "memory.activations", 2, d, sizeof d, NULL);
	assert_true(d[0] == '+' && strstr(d, ".") == NULL && strstr(d, " GiB") != NULL);
	tt_free_model(m);
}

/* Z loads the Chinese catalogue: when NAPKIN_LOCALEDIR's is refused (cut short), the
 * message line says why (as an error), instead of English with no word. */
static void test_lang_warning(void **state)
{
	struct tui_model *m;
	char dir[64], path[160];
	FILE *f;

	(void)state;
	snprintf(dir, sizeof dir, "/tmp/napkin-tui-lang-%d", (int)getpid());
	snprintf(path, sizeof path, "mkdir -p %s/zh_CN/LC_MESSAGES", dir);
	assert_int_equal(system(path), 0);
	snprintf(path, sizeof path, "%s/zh_CN/LC_MESSAGES/napkin.mo", dir);
	f = fopen(path, "wb");
	assert_non_null(f);
	fputs("\xde\x12\x04\x95 cut short", f); /* the magic, then nothing of a header */
	fclose(f);
	setenv("NAPKIN_LOCALEDIR", dir, 1);
	i18n_reload();
	i18n_set(I18N_EN);
	m = tt_new_model(120, 40);
	key(m, 'Z', 1000);
	assert_int_equal(i18n_get(), I18N_ZH);
	assert_true(m->msg_error);
	assert_non_null(strstr(m->msg, "/zh_CN/LC_MESSAGES/napkin.mo is refused: shorter than a .mo header"));
	key(m, 'Z', 2000); /* English reads no catalogue: nothing to say */
	assert_int_equal(i18n_get(), I18N_EN);
	assert_false(m->msg_error);
	tt_free_model(m);
	unsetenv("NAPKIN_LOCALEDIR");
	i18n_reload();
	i18n_set(I18N_EN);
	snprintf(path, sizeof path, "rm -rf %s", dir);
	assert_int_equal(system(path), 0);
}

/* q with unsaved changes asks (y quits, anything else stays); a change undone is none; Q
 * quits at once. */
static void test_quit_unsaved(void **state)
{
	struct tui_model *m = tt_new_model(120, 40);
	char what[100];
	unsigned f;

	(void)state;
	focus_knob(m, "batch");
	assert_false(tui_model_modified(m, what, sizeof what));
	key(m, TUI_KEY_RIGHT, 0);
	assert_true(tui_model_modified(m, what, sizeof what));
	assert_string_equal(what, "batch");
	f = key(m, 'q', 0);
	assert_false(f & TUI_REACT_QUIT);
	assert_false(m->quit);
	assert_int_equal(tui_view_top(m), TUI_VIEW_PROMPT);
	assert_int_equal(m->prompt_purpose, TUI_PROMPT_QUIT);
	key(m, 'n', 0);
	assert_false(m->quit);
	assert_int_equal(tui_view_top(m), TUI_VIEW_MAIN);
	assert_int_equal(m->sc.batch, 2);
	key(m, 'q', 0);
	f = key(m, 'y', 0);
	assert_true((f & TUI_REACT_QUIT) && m->quit);
	m->quit = false;
	/* undone: the scenario as it started, nothing unsaved */
	key(m, 'u', 0);
	assert_int_equal(m->sc.batch, 1);
	assert_false(tui_model_modified(m, NULL, 0));
	f = key(m, 'q', 0);
	assert_true((f & TUI_REACT_QUIT) && m->quit);
	m->quit = false;
	key(m, TUI_KEY_RIGHT, 0);
	f = key(m, 'Q', 0);
	assert_true((f & TUI_REACT_QUIT) && m->quit);
	tt_free_model(m);
}

/* Every lesson's quiz asks for a number the explorer can hide (else the screen shows the
 * answer beside its question); the five quizzes of lessons 4, 6 and 12 at least. */
static void test_quiz_keys_hideable(void **state)
{
	size_t l, i, quizzes = 0;

	(void)state;
	for (l = 1; l <= teach_lessons_count(); l++) {
		struct teach_lesson *les = NULL;
		struct napkin_err err;
		assert_int_equal(teach_lessons_load(l, &les, &err), NAPKIN_OK);
		for (i = 0; i < les->n_steps; i++) {
			const struct teach_answer *a = teach_step_quiz(&les->steps[i]);
			if (a == NULL)
				continue;
			quizzes++;
			if (!tui_model_hideable(a->key))
				fail_msg("lesson %zu step %zu: the quiz asks for %s, which the screen cannot hide", l, i + 1,
					 a->key);
		}
		teach_lesson_free(les);
	}
	assert_true(quizzes >= 5);
}

static const struct CMUnitTest tests[] = {
	cmocka_unit_test(test_quiz_keys_hideable),
	cmocka_unit_test(test_quit_unsaved),
	cmocka_unit_test(test_undo), cmocka_unit_test(test_badge_precision),
	cmocka_unit_test(test_keymap),        cmocka_unit_test(test_step_batch),
	cmocka_unit_test(test_typed_value),   cmocka_unit_test(test_baseline),
	cmocka_unit_test(test_panes_and_explain), cmocka_unit_test(test_picker),
	cmocka_unit_test(test_mode_hides_knobs), cmocka_unit_test(test_draw_every_size),
	cmocka_unit_test(test_canvas),        cmocka_unit_test(test_mouse),
	cmocka_unit_test(test_lang_warning),
};

TESTUTIL_MAIN("tui_model", tests)
