/*
 * The teaching views in the explorer's view-model, without a terminal: a lesson started
 * from tui_options sets each step's knobs, n/p move, a knob turned through the main screen
 * meets the step's check, the panel and the outlined pane are drawn at every size; the
 * tensor inspector applies operations typed into it; the dtype lab stores typed numbers.
 * Also the text wrapping the lessons use (terminal columns, CJK).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "i18n.h"
#include "lesson.h"
#include "model.h"
#include "presets.h"
#include "testutil.h"
#include "view_teach.h"
#include "wrap.h"

static struct preset_registry *reg;

static int setup(void **state)
{
	struct preset_options o = {.no_search = true, .extra_dir = NULL};
	struct napkin_err err;

	(void)state;
	return preset_registry_new(&reg, &o, &err) == NAPKIN_OK ? 0 : -1;
}

static int teardown(void **state)
{
	(void)state;
	preset_registry_free(reg);
	return 0;
}

static unsigned key(struct tui_model *m, int k)
{
	struct tui_event ev;

	memset(&ev, 0, sizeof ev);
	ev.key = k;
	return tui_model_event(m, &ev, 1000);
}

static void type(struct tui_model *m, const char *s)
{
	for (; *s; s++)
		key(m, (unsigned char)*s);
}

static bool screen_has(struct tui_model *m, const char *s)
{
	struct tui_canvas c;
	char row[2048];
	bool found = false;
	int y;

	tui_canvas_init(&c);
	tui_draw(m, &c, 1000);
	for (y = 0; y < c.h && !found; y++) {
		tui_canvas_row(&c, y, row, sizeof row);
		found = strstr(row, s) != NULL;
	}
	tui_canvas_fini(&c);
	return found;
}

static struct tui_model *model_in_lesson(const char *which, struct teach_lesson **l)
{
	struct tui_model *m = calloc(1, sizeof *m);
	struct engine_scenario sc;
	struct tui_options opt = {.theme = "dark"};
	struct napkin_err err;
	size_t number;

	assert_non_null(m);
	assert_int_equal(teach_lessons_open(which, l, &number, &err), 0);
	opt.lesson = *l;
	opt.lesson_number = number;
	opt.lang = "en";
	engine_scenario_default(&sc);
	assert_int_equal(tui_model_init(m, &sc, reg, &opt), 0);
	tui_model_set_size(m, 120, 40);
	return m;
}

static void test_lesson_steps(void **state)
{
	struct teach_lesson *l;
	struct tui_model *m = model_in_lesson("roofline", &l);

	(void)state;
	assert_int_equal(tui_view_top(m), TUI_VIEW_LESSON);
	assert_true(screen_has(m, "Lesson 7: Arithmetic intensity and the roofline"));
	assert_true(screen_has(m, "step 1 of 4"));
	key(m, 'n');
	key(m, 'n');
	assert_true(screen_has(m, "step 3 of 4"));
	assert_int_equal(m->sc.seq, 4096);
	assert_true(screen_has(m, "not yet \xc2\xb7 goal: "));
	assert_false(screen_has(m, "not yet: the training step is memory-bound")); /* the condition stays hidden */
	/* the knobs of the live main screen: set the sequence through the main view */
	m->pane = TUI_PANE_KNOBS;
	m->knob = engine_knob_find("seq");
	assert_int_equal(tui_model_set_knob(m, m->knob, "128", 1000), 0);
	key(m, TUI_KEY_LEFT); /* any key re-checks; 128 -> 64 keeps it memory-bound */
	assert_int_equal(m->sc.seq, 64);
	assert_true(screen_has(m, "answered: the training step is memory-bound"));
	/* back and forth restores the step's own knobs */
	key(m, 'p');
	key(m, 'n');
	assert_int_equal(m->sc.seq, 4096);
	key(m, 'n');
	assert_true(screen_has(m, "step 4 of 4"));
	key(m, 'n'); /* past the last step: stays */
	assert_true(screen_has(m, "step 4 of 4") || strstr(m->msg, "last step") != NULL);
	/* every size draws without crashing */
	{
		static const int sizes[][2] = {{40, 12}, {60, 20}, {80, 24}, {100, 30}, {200, 60}, {20, 5}};
		size_t i;
		for (i = 0; i < sizeof sizes / sizeof sizes[0]; i++) {
			tui_model_set_size(m, sizes[i][0], sizes[i][1]);
			(void)screen_has(m, "Lesson");
		}
		tui_model_set_size(m, 120, 40);
	}
	/* Esc leaves the lesson, the scenario stays */
	key(m, TUI_KEY_ESC);
	assert_int_equal(tui_view_top(m), TUI_VIEW_MAIN);
	tui_model_fini(m);
	free(m);
	teach_lesson_free(l);
}

/* A Chinese lesson in the explorer: its text on screen, every row whole (a wide character
 * takes two columns, none is split), at the sizes a class uses. */
static void test_lesson_chinese(void **state)
{
	struct tui_model *m = calloc(1, sizeof *m);
	struct engine_scenario sc;
	struct tui_options opt = {.theme = "dark"};
	struct napkin_err err;
	struct teach_lesson *l;
	size_t number, i;
	static const int sizes[][2] = {{120, 40}, {80, 24}, {200, 60}};

	(void)state;
	assert_non_null(m);
	assert_int_equal(teach_lessons_open("1", &l, &number, &err), 0);
	opt.lesson = l;
	opt.lesson_number = number;
	opt.lang = "zh";
	engine_scenario_default(&sc);
	assert_int_equal(tui_model_init(m, &sc, reg, &opt), 0);
	assert_null(strstr(m->msg, "English"));
	for (i = 0; i < sizeof sizes / sizeof sizes[0]; i++) {
		struct tui_canvas c;
		char row[4096];
		int y;
		tui_model_set_size(m, sizes[i][0], sizes[i][1]);
		assert_true(screen_has(m, "\xe4\xb8\xba\xe4\xbb\x80\xe4\xb9\x88")); /* 为什么, the title */
		tui_canvas_init(&c);
		tui_draw(m, &c, 1000);
		for (y = 0; y < c.h; y++) {
			tui_canvas_row(&c, y, row, sizeof row);
			if (tui_utf8_width(row) != c.w)
				fail_msg("%dx%d, row %d is %d columns: %s", c.w, c.h, y, tui_utf8_width(row), row);
		}
		tui_canvas_fini(&c);
	}
	tui_model_set_size(m, 120, 40);
	assert_true(screen_has(m, "\xe5\x86\xb3\xe5\xae\x9a")); /* 决定, step 1's title */
	key(m, 'n');
	assert_true(screen_has(m, "step 2 of 3"));
	tui_model_fini(m);
	free(m);
	teach_lesson_free(l);
}

static void test_lesson_list(void **state)
{
	struct tui_model *m = calloc(1, sizeof *m);
	struct engine_scenario sc;
	struct tui_options opt = {.theme = "dark"};

	(void)state;
	engine_scenario_default(&sc);
	assert_int_equal(tui_model_init(m, &sc, reg, &opt), 0);
	tui_model_set_size(m, 120, 40);
	key(m, 'L');
	assert_int_equal(tui_view_top(m), TUI_VIEW_LESSON);
	assert_true(screen_has(m, "Lessons: the chapter, step by step"));
	key(m, TUI_KEY_DOWN);
	key(m, TUI_KEY_DOWN);
	key(m, TUI_KEY_DOWN);
	key(m, TUI_KEY_ENTER);
	assert_true(screen_has(m, "Lesson 4: FLOPs and MFU"));
	assert_int_equal(m->sc.gpus, 1024);
	assert_close(m->res.compute.train_days, 143.93, 5e-4); /* 70B of real dims: 69.98 B */
	/* the explain view opens over the lesson and closes back to it */
	key(m, 'e');
	key(m, TUI_KEY_ESC);
	assert_int_equal(tui_view_top(m), TUI_VIEW_LESSON);
	/* q quits from inside the lesson */
	assert_true(key(m, 'q') & TUI_REACT_QUIT);
	tui_model_fini(m);
	free(m);
}

static void test_tensor_view(void **state)
{
	struct tui_model *m = calloc(1, sizeof *m);
	struct engine_scenario sc;
	struct tui_options opt = {.theme = "dark"};

	(void)state;
	engine_scenario_default(&sc);
	assert_int_equal(tui_model_init(m, &sc, reg, &opt), 0);
	tui_model_set_size(m, 120, 40);
	key(m, 'T');
	assert_int_equal(tui_view_top(m), TUI_VIEW_TENSORS);
	assert_true(screen_has(m, "[batch=1, seq=4096, heads=32, head_dim=128]  bf16"));
	key(m, ':');
	type(m, "transpose(seq, heads)");
	key(m, TUI_KEY_ENTER);
	assert_true(screen_has(m, "strides  (16777216, 128, 4096, 1)"));
	assert_true(screen_has(m, "NOT contiguous"));
	key(m, ':');
	type(m, "view(batch, heads, -1)");
	key(m, TUI_KEY_ENTER);
	assert_true(screen_has(m, "view size is not compatible"));
	key(m, 's');
	type(m, "fp32 a=2 b=3");
	key(m, TUI_KEY_ENTER);
	assert_true(screen_has(m, "[a=2, b=3]  fp32"));
	key(m, 'u');
	key(m, TUI_KEY_ESC);
	assert_int_equal(tui_view_top(m), TUI_VIEW_MAIN);
	tui_model_fini(m);
	free(m);
}

/* the dtype lab in Chinese: the rule under the table is 溢出规则, not 溢出 (70000 in bf16 is
 * 70144, no overflow) */
static void test_dtypelab_zh(void **state)
{
	struct tui_model *m = calloc(1, sizeof *m);
	struct engine_scenario sc;
	struct tui_options opt = {.theme = "dark", .lang = "zh"};

	(void)state;
	i18n_set(I18N_ZH);
	engine_scenario_default(&sc);
	assert_int_equal(tui_model_init(m, &sc, reg, &opt), 0);
	tui_model_set_size(m, 160, 50);
	key(m, 'D');
	assert_int_equal(tui_view_top(m), TUI_VIEW_DTYPELAB);
	assert_true(screen_has(m, "的溢出规则：按 IEEE 754，舍入后超过最大有限值的数变为 ±inf"));
	assert_false(screen_has(m, " 溢出：IEEE 754"));
	tui_model_fini(m);
	free(m);
	i18n_set(I18N_EN);
}

static void test_dtypelab_view(void **state)
{
	struct tui_model *m = calloc(1, sizeof *m);
	struct engine_scenario sc;
	struct tui_options opt = {.theme = "dark"};

	(void)state;
	engine_scenario_default(&sc);
	assert_int_equal(tui_model_init(m, &sc, reg, &opt), 0);
	tui_model_set_size(m, 120, 40);
	key(m, 'D');
	assert_int_equal(tui_view_top(m), TUI_VIEW_DTYPELAB);
	assert_true(screen_has(m, "overflow: |70000| > 65504, fp16 stores +inf"));
	assert_true(screen_has(m, "70144"));
	/* the selected format's overflow rule is said as a rule, not as "bf16 overflow:" under a
	 * bf16 that stored 70144 */
	assert_true(screen_has(m, "overflow rule: by IEEE 754, a value that rounds beyond"));
	assert_false(screen_has(m, " overflow: IEEE 754"));
	type(m, "448");
	key(m, TUI_KEY_ENTER);
	assert_true(screen_has(m, "fp8-e4m3 holds 448 exactly"));
	type(m, "464");
	key(m, TUI_KEY_ENTER);
	assert_true(screen_has(m, "0 1111 110"));
	type(m, "nonsense");
	key(m, TUI_KEY_ENTER);
	assert_true(screen_has(m, "is not a number"));
	key(m, TUI_KEY_ESC);
	assert_int_equal(tui_view_top(m), TUI_VIEW_MAIN);
	tui_model_fini(m);
	free(m);
}

/* ------------------------------------------------------------ wrapping */

static void test_wrap(void **state)
{
	char out[2048];
	int n;

	(void)state;
	assert_int_equal(teach_text_width("abc"), 3);
	assert_int_equal(teach_text_width("训练"), 4);
	assert_int_equal(teach_text_width("BF16 训练"), 9);
	assert_int_equal(teach_cp_width(0x301), 0);
	/* paragraphs: lines joined, a blank line kept between paragraphs */
	n = teach_wrap("one two\nthree\n\nfour", 40, out, sizeof out);
	assert_int_equal(n, 3);
	assert_string_equal(out, "one two three\n\nfour\n");
	/* breaks at spaces; a word longer than the line is cut */
	teach_wrap("aaaa bbbb cccc", 9, out, sizeof out);
	assert_string_equal(out, "aaaa bbbb\ncccc\n");
	teach_wrap("abcdefghijkl", 8, out, sizeof out);
	assert_string_equal(out, "abcdefgh\nijkl\n");
	/* CJK: two columns each, no space when lines join, closing punctuation never starts a line */
	teach_wrap("显存决定能不能\n开训。", 40, out, sizeof out);
	assert_string_equal(out, "显存决定能不能开训。\n");
	teach_wrap("显存决定能不能开训。", 18, out, sizeof out);
	assert_string_equal(out, "显存决定能不能开\n训。\n");
	/* Chinese next to a Latin word or a number joins with a space, beside wide punctuation not */
	teach_wrap("数据从 HBM\n读出", 40, out, sizeof out);
	assert_string_equal(out, "数据从 HBM 读出\n");
	teach_wrap("需要\n80 GB。\nBF16", 40, out, sizeof out);
	assert_string_equal(out, "需要 80 GB。BF16\n");
	teach_wrap("放得下吗？以及", 10, out, sizeof out);
	assert_string_equal(out, "放得下吗？\n以及\n");
	/* a buffer too small stays terminated */
	teach_wrap("one two three four", 8, out, 6);
	assert_true(strlen(out) < 6);
}

static const struct CMUnitTest tests[] = {
	cmocka_unit_test(test_lesson_steps), cmocka_unit_test(test_lesson_chinese), cmocka_unit_test(test_lesson_list), cmocka_unit_test(test_tensor_view),
	cmocka_unit_test(test_dtypelab_view), cmocka_unit_test(test_dtypelab_zh), cmocka_unit_test(test_wrap),
};

int main(int argc, char **argv)
{
	int i;

	for (i = 1; i + 1 < argc; i++)
		if (strcmp(argv[i], "-t") == 0)
			cmocka_set_test_filter(argv[i + 1]);
	return _cmocka_run_group_tests("teach_views", tests, sizeof tests / sizeof tests[0], setup, teardown);
}
