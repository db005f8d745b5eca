/*
 * The slide (view_slide.c): one lesson step full screen, for a projector. For every step of
 * every shipped lesson, in English and in Chinese, at the sizes a class projects (80×24 and
 * 120×40): the slide opens from tui_options (napkin lesson N --step K --slides), its text
 * and question are whole on screen (their last characters are drawn: nothing cut, nothing
 * left to scroll to) and the pane the step names is drawn with them. The keys: → and PgDn
 * move on, ← and PgUp back, Esc goes back to the lesson's panel.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lesson.h"
#include "model.h"
#include "presets.h"
#include "testutil.h"
#include "view_teach.h"

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

static void key(struct tui_model *m, int k)
{
	struct tui_event ev;

	memset(&ev, 0, sizeof ev);
	ev.key = k;
	tui_model_event(m, &ev, 1000);
}

/* s without its blanks (spaces, line breaks) into out. */
static void squeeze(const char *s, char *out, size_t n)
{
	size_t k = 0;

	for (; *s && k + 1 < n; s++)
		if (*s != ' ' && *s != '\n' && *s != '\t')
			out[k++] = *s;
	out[k] = '\0';
}

/* The screen's rows joined without blanks: wrapped text reads as its source does. */
static void screen_squeezed(struct tui_model *m, char *out, size_t n)
{
	struct tui_canvas c;
	char row[4096], sq[4096];
	size_t pos = 0;
	int y;

	tui_canvas_init(&c);
	tui_draw(m, &c, 1000);
	out[0] = '\0';
	for (y = 0; y < c.h; y++) {
		tui_canvas_row(&c, y, row, sizeof row);
		squeeze(row, sq, sizeof sq);
		util_bprintf(out, n, &pos, "%s", sq);
	}
	tui_canvas_fini(&c);
}

/* The last characters of text (at most 15 bytes, whole UTF-8 characters), blanks left out. */
static void tail_of(const char *text, char *out, size_t n)
{
	char sq[8192];
	size_t len, from;

	squeeze(text, sq, sizeof sq);
	len = strlen(sq);
	from = len > 15 ? len - 15 : 0;
	while (from > 0 && ((unsigned char)sq[from] & 0xc0) == 0x80)
		from++;
	util_strlcpy(out, sq + from, n);
}

static struct tui_model *slide_at(const struct teach_lesson *l, size_t number, const char *lang, size_t step, int w,
				  int h)
{
	struct tui_model *m = calloc(1, sizeof *m);
	struct engine_scenario sc;
	struct tui_options opt = {.theme = "dark"};
	assert_non_null(m);
	opt.lesson = l;
	opt.lesson_number = number;
	opt.lesson_step = step;
	opt.lesson_slides = true;
	opt.lang = lang;
	engine_scenario_default(&sc); /* the lesson sets its step's knobs */
	assert_int_equal(tui_model_init(m, &sc, reg, &opt), 0);
	tui_model_set_size(m, w, h);
	return m;
}

static void test_every_step_whole(void **state)
{
	static const int sizes[][2] = {{80, 24}, {120, 40}};
	static const char *const langs[] = {"en", "zh"};
	static char screen[1 << 16];
	size_t i, k, steps = 0;

	(void)state;
	assert_true(teach_lessons_count() >= 10);
	for (i = 1; i <= teach_lessons_count(); i++) {
		struct teach_lesson *l;
		struct napkin_err err;
		size_t si, li;
		assert_int_equal(teach_lessons_load(i, &l, &err), 0);
		for (k = 0; k < l->n_steps; k++)
			for (si = 0; si < 2; si++)
				for (li = 0; li < 2; li++) {
					const struct teach_step *s = &l->steps[k];
					struct tui_model *m = slide_at(l, i, langs[li], k, sizes[si][0], sizes[si][1]);
					char tail[64];
					assert_int_equal(tui_view_top(m), TUI_VIEW_SLIDE);
					screen_squeezed(m, screen, sizeof screen);
					tail_of(teach_text_get(&s->text, langs[li]), tail, sizeof tail);
					if (strstr(screen, tail) == NULL)
						fail_msg("lesson %zu step %zu (%s, %dx%d): the text's end \"%s\" is not on the slide", i,
							 k + 1, langs[li], sizes[si][0], sizes[si][1], tail);
					if (s->question.n > 0) {
						tail_of(teach_text_get(&s->question, langs[li]), tail, sizeof tail);
						if (strstr(screen, tail) == NULL)
							fail_msg("lesson %zu step %zu (%s, %dx%d): the question's end \"%s\" is not on "
								 "the slide", i, k + 1, langs[li], sizes[si][0], sizes[si][1], tail);
					}
					/* the pane it names, in a box of its own (the interface is in English here) */
					if (s->pane[0] != '\0') {
						char title[128];
						const char *pt = NULL;
						if (!strcmp(s->pane, "memory"))
							pt = "Memory";
						else if (!strcmp(s->pane, "roofline"))
							pt = "Roofline";
						else if (!strcmp(s->pane, "dtypes"))
							pt = "Datatypes";
						else if (!strcmp(s->pane, "techniques"))
							pt = "Techniques";
						else if (!strcmp(s->pane, "compute") || !strcmp(s->pane, "data") ||
							 !strcmp(s->pane, "inference"))
							pt = "Compute";
						else if (!strcmp(s->pane, "tensors"))
							pt = "big tensors"; /* the tensor inspector's table, not the knob list */
						else
							pt = "Knobs";
						squeeze(pt, title, sizeof title);
						if (strstr(screen, title) == NULL)
							fail_msg("lesson %zu step %zu (%dx%d): no %s pane on the slide", i, k + 1,
								 sizes[si][0], sizes[si][1], pt);
					}
					tui_model_fini(m);
					free(m);
					steps++;
				}
		teach_lesson_free(l);
	}
	assert_true(steps >= 4 * 40);
}

static void test_keys(void **state)
{
	struct teach_lesson *l;
	struct napkin_err err;
	struct tui_model *m;
	char screen[1 << 14];

	(void)state;
	assert_int_equal(teach_lessons_load(7, &l, &err), 0);
	m = slide_at(l, 7, "en", 0, 120, 40);
	screen_squeezed(m, screen, sizeof screen);
	assert_non_null(strstr(screen, "step1of4"));
	key(m, TUI_KEY_RIGHT);
	screen_squeezed(m, screen, sizeof screen);
	assert_non_null(strstr(screen, "step2of4"));
	key(m, TUI_KEY_PGDN);
	screen_squeezed(m, screen, sizeof screen);
	assert_non_null(strstr(screen, "step3of4"));
	assert_int_equal(m->sc.seq, 4096); /* step 3's own knobs */
	key(m, TUI_KEY_PGUP);
	key(m, TUI_KEY_LEFT);
	screen_squeezed(m, screen, sizeof screen);
	assert_non_null(strstr(screen, "step1of4"));
	key(m, TUI_KEY_LEFT); /* before the first step: stays */
	assert_int_equal(tui_view_top(m), TUI_VIEW_SLIDE);
	/* Esc: back to the lesson's panel on the explorer, at the same step; B: the slide again */
	key(m, TUI_KEY_ESC);
	assert_int_equal(tui_view_top(m), TUI_VIEW_LESSON);
	key(m, 'n');
	key(m, 'B');
	assert_int_equal(tui_view_top(m), TUI_VIEW_SLIDE);
	screen_squeezed(m, screen, sizeof screen);
	assert_non_null(strstr(screen, "step2of4"));
	key(m, 'B');
	assert_int_equal(tui_view_top(m), TUI_VIEW_LESSON);
	tui_model_fini(m);
	free(m);
	teach_lesson_free(l);
}

static const struct CMUnitTest tests[] = {
	cmocka_unit_test(test_every_step_whole),
	cmocka_unit_test(test_keys),
};

int main(int argc, char **argv)
{
	int i;

	for (i = 1; i + 1 < argc; i++)
		if (strcmp(argv[i], "-t") == 0)
			cmocka_set_test_filter(argv[i + 1]);
	return _cmocka_run_group_tests("slides", tests, sizeof tests / sizeof tests[0], setup, teardown);
}
