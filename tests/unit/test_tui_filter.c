/* The knob filter (`/`, knob_filter.c) without a terminal: what matches in English and in
 * Chinese, and the keys and the mouse on the filtered list. The knob table has six dtype
 * knobs (weight_, grad_, optimizer_, activation_, kv_, matmul_dtype), all in the Precision
 * group; training shows five of them (the KV cache's is inference's). */
#include <stdio.h>
#include <string.h>

#include "i18n.h"
#include "model.h"
#include "testtui.h"
#include "testutil.h"

static unsigned key(struct tui_model *m, int k)
{
	struct tui_event ev;

	memset(&ev, 0, sizeof ev);
	ev.key = k;
	return tui_model_event(m, &ev, 0);
}

static void type(struct tui_model *m, const char *s)
{
	for (; *s; s++)
		key(m, (unsigned char)*s);
}

static void test_matches(void **state)
{
	(void)state;
	i18n_set(I18N_EN);
	assert_true(tui_knob_matches(engine_knob_find("zero"), "zero"));
	assert_true(tui_knob_matches(engine_knob_find("zero"), "ZERO"));     /* ASCII in either case */
	assert_true(tui_knob_matches(engine_knob_find("kv_heads"), "kv-heads")); /* as on the command line */
	assert_true(tui_knob_matches(engine_knob_find("kv_heads"), "kv heads")); /* as the label reads */
	assert_true(tui_knob_matches(engine_knob_find("batch"), "micro"));   /* the label, "micro-batch" */
	assert_false(tui_knob_matches(engine_knob_find("batch"), "zero"));
	assert_true(tui_knob_matches(engine_knob_find("batch"), ""));        /* no filter: every knob */
	/* the Chinese labels on the English screen (po/zh_CN.po: precision 精度, kv_heads KV 头) */
	assert_true(tui_knob_matches(engine_knob_find("precision"), "\xe7\xb2\xbe\xe5\xba\xa6"));
	assert_true(tui_knob_matches(engine_knob_find("kv_heads"), "kv \xe5\xa4\xb4"));
	assert_false(tui_knob_matches(engine_knob_find("batch"), "\xe7\xb2\xbe\xe5\xba\xa6"));
	/* and the English ones on the Chinese screen */
	i18n_set(I18N_ZH);
	assert_true(tui_knob_matches(engine_knob_find("precision"), "precision"));
	assert_true(tui_knob_matches(engine_knob_find("precision"), "\xe7\xb2\xbe\xe5\xba\xa6"));
	i18n_set(I18N_EN);
}

/* The row of knob k on the drawn screen, or -1. */
static int row_of(const struct tui_model *m, const char *k)
{
	int row;

	for (row = 0; row < m->hits.knob_rows && row < 128; row++)
		if (m->hits.knob_at[row] != NULL && strcmp(m->hits.knob_at[row]->key, k) == 0)
			return row;
	return -1;
}

static void test_keys_and_mouse(void **state)
{
	static const int sizes[][2] = {{80, 24}, {120, 40}};
	size_t s;

	(void)state;
	i18n_set(I18N_EN);
	for (s = 0; s < sizeof sizes / sizeof sizes[0]; s++) {
		struct tui_model *m = tt_new_model(sizes[s][0], sizes[s][1]);
		struct tui_canvas c;
		struct tui_event ev;
		int row, n = 0;

		tui_canvas_init(&c);
		key(m, '/');
		assert_true(m->knob_filter_typing);
		type(m, "dtype");
		key(m, TUI_KEY_ENTER);
		assert_false(m->knob_filter_typing);
		assert_string_equal(m->knob->key, "weight_dtype"); /* the first match */
		tui_draw(m, &c, 0);
		assert_true(tt_screen_has(&c, "(filter: 6 of ")); /* six of training, token_dtype last */
		for (row = 0; row < m->hits.knob_rows; row++)
			if (m->hits.knob_at[row] != NULL) {
				assert_non_null(strstr(m->hits.knob_at[row]->key, "dtype"));
				n++;
			}
		assert_int_equal(n, 6);
		/* the arrows stay in the list: End is its last, Down past it stays */
		key(m, TUI_KEY_END);
		assert_string_equal(m->knob->key, "token_dtype");
		key(m, TUI_KEY_DOWN);
		assert_string_equal(m->knob->key, "token_dtype");
		key(m, TUI_KEY_UP);
		assert_string_equal(m->knob->key, "matmul_dtype");
		/* a click lands on the knob drawn there */
		tui_draw(m, &c, 0);
		row = row_of(m, "grad_dtype");
		assert_true(row >= 0);
		memset(&ev, 0, sizeof ev);
		ev.key = TUI_KEY_MOUSE;
		ev.x = m->layout.pane[TUI_PANE_KNOBS].x + 3;
		ev.y = m->hits.knob_y0 + row;
		ev.button = TUI_BTN_CLICK;
		tui_model_event(m, &ev, 0);
		assert_string_equal(m->knob->key, "grad_dtype");
		/* the wheel under the list moves in it */
		ev.y = m->hits.knob_y0 + m->hits.knob_rows;
		ev.button = TUI_BTN_WHEEL_DOWN;
		tui_model_event(m, &ev, 0);
		assert_string_equal(m->knob->key, "optimizer_dtype");
		/* Tab: the list's next group (Training: the dataset's token id dtype), then the
		 * memory pane */
		key(m, TUI_KEY_TAB);
		assert_string_equal(m->knob->key, "token_dtype");
		key(m, TUI_KEY_TAB);
		assert_int_equal(m->pane, TUI_PANE_MEMORY);
		/* Esc on the main screen drops the filter; the focus stays */
		key(m, TUI_KEY_ESC);
		assert_string_equal(m->knob_filter, "");
		tui_draw(m, &c, 0);
		assert_false(tt_screen_has(&c, "(filter:"));
		tui_canvas_fini(&c);
		tt_free_model(m);
	}
}

static const struct CMUnitTest tests[] = {
	cmocka_unit_test(test_matches),
	cmocka_unit_test(test_keys_and_mouse),
};

TESTUTIL_MAIN("tui_filter", tests)
