/* The view table (explorer.c), the one list of views: every row can be drawn and takes
 * keys, a view opened from the main screen has its key in the key table and that key
 * opens it (dispatch goes through the table), and `?` help lists each titled view with
 * the key that opens it. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model.h"
#include "testtui.h"
#include "testutil.h"

/* The key table's row for action a (the first with a name, as help shows it), or NULL. */
static const struct tui_keydef *key_of(enum tui_action a)
{
	size_t n, i;
	const struct tui_keydef *k = tui_keys(&n);

	for (i = 0; i < n; i++)
		if (k[i].action == a && k[i].name != NULL)
			return &k[i];
	return NULL;
}

static void test_rows(void **state)
{
	struct tui_model *m = tt_new_model(120, 40);
	int i, j, titled = 0;

	(void)state;
	for (i = 0; i < TUI_VIEW_COUNT; i++) {
		const struct tui_view *v = tui_view_get(m, (enum tui_view_id)i);
		assert_non_null(v);
		assert_non_null(v->name);
		assert_non_null(v->draw);
		assert_non_null(v->key);
		if (i != TUI_VIEW_MAIN)
			assert_non_null(v->footer); /* the footer shows the keys of every view but the main one */
		if (v->title != NULL)
			titled++;
		if (v->opened_by != TUI_ACT_NONE) {
			if (key_of(v->opened_by) == NULL)
				fail_msg("view %s is opened by action %s, which no key has", v->name,
					 tui_action_name(v->opened_by));
		}
		for (j = 0; j < i; j++) {
			const struct tui_view *u = tui_view_get(m, (enum tui_view_id)j);
			assert_string_not_equal(u->name, v->name);
			if (v->opened_by != TUI_ACT_NONE && u->opened_by == v->opened_by)
				fail_msg("views %s and %s are opened by the same action", u->name, v->name);
		}
	}
	assert_true(titled >= 10); /* picker, prompt, 4 trade-offs, 3 teaching, 2 GPU, explain */
	assert_null(tui_view_get(m, TUI_VIEW_COUNT));
	tt_free_model(m);
}

static void test_help_lists_every_view(void **state)
{
	struct tui_model *m = tt_new_model(120, 160); /* tall enough that help needs no scrolling */
	struct tui_canvas c;
	int i;

	(void)state;
	tui_canvas_init(&c);
	assert_int_equal(tui_view_push(m, TUI_VIEW_HELP), 0);
	tui_draw(m, &c, 0);
	for (i = 0; i < TUI_VIEW_COUNT; i++) {
		const struct tui_view *v = tui_view_get(m, (enum tui_view_id)i);
		const struct tui_keydef *k = v->opened_by != TUI_ACT_NONE ? key_of(v->opened_by) : NULL;
		char want[160];
		if (v->title == NULL)
			continue;
		if (k != NULL)
			snprintf(want, sizeof want, "%s (%s)", v->title, k->name);
		else
			snprintf(want, sizeof want, "%s", v->title);
		if (!tt_screen_has(&c, want))
			fail_msg("? help does not list \"%s\"", want);
	}
	/* a view without lines of its own is listed with its footer's keys */
	assert_true(tt_screen_has(&c, "Tensor inspector (T)"));
	assert_true(tt_screen_has(&c, "Enter  inspect"));
	tui_canvas_fini(&c);
	tt_free_model(m);
}

static void test_keys_open_their_view(void **state)
{
	struct tui_model *m = tt_new_model(120, 40);
	int i, opened = 0;

	(void)state;
	for (i = 0; i < TUI_VIEW_COUNT; i++) {
		const struct tui_view *v = tui_view_get(m, (enum tui_view_id)i);
		const struct tui_keydef *k;
		struct tui_event ev;
		/* a probe or the live panel would start a child on this machine's GPU */
		if (v->opened_by == TUI_ACT_NONE || v->start != NULL || (v->needs & TUI_NEEDS_PROBE))
			continue;
		k = key_of(v->opened_by);
		assert_non_null(k);
		memset(&ev, 0, sizeof ev);
		ev.key = k->key;
		tui_model_event(m, &ev, 1000);
		if (tui_view_top(m) != (enum tui_view_id)i)
			fail_msg("key %s did not open view %s", k->name, v->name);
		tui_view_pop(m);
		assert_int_equal(tui_view_top(m), TUI_VIEW_MAIN);
		opened++;
	}
	assert_true(opened >= 8); /* help, 4 trade-offs, lesson, tensors, dtype lab */
	tt_free_model(m);
}

static const struct CMUnitTest tests[] = {
	cmocka_unit_test(test_rows),
	cmocka_unit_test(test_help_lists_every_view),
	cmocka_unit_test(test_keys_open_their_view),
};

TESTUTIL_MAIN("tui_views", tests)
