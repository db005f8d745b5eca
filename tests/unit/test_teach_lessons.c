/*
 * Lessons: every shipped lesson loads, its knobs apply, its stated answers are the
 * engine's, its solutions answer its questions; the bilingual ones are complete in both
 * languages; the loader refuses broken files with a position; conditions parse and
 * evaluate as docs/lessons.md says.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "engine.h"
#include "lesson.h"
#include "presets.h"
#include "testutil.h"

static struct preset_registry *reg;
static struct engine_catalog cat;

static int setup(void **state)
{
	struct preset_options o = {.no_search = true, .extra_dir = NULL};
	struct napkin_err err;

	(void)state;
	if (preset_registry_new(&reg, &o, &err) != NAPKIN_OK) {
		print_error("registry: %s\n", err.msg);
		return -1;
	}
	cat = preset_catalog(reg);
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	preset_registry_free(reg);
	return 0;
}

/* ------------------------------------------------------------ the shipped lessons */

static void test_shipped_lessons(void **state)
{
	size_t n = teach_lessons_count(), i, j;
	char ids[32][TEACH_KEY_MAX];

	(void)state;
	assert_true(n >= 9 && n <= 32);
	for (i = 1; i <= n; i++) {
		struct teach_lesson *l;
		struct napkin_err err;

		if (teach_lessons_load(i, &l, &err) != NAPKIN_OK)
			fail_msg("lesson %zu: %s:%d:%d: %s", i, err.file, err.line, err.col, err.msg);
		if (teach_lesson_verify(l, &cat, &err) != NAPKIN_OK)
			fail_msg("lesson %zu (%s): %s:%d:%d: %s", i, l->id, err.file, err.line, err.col, err.msg);
		assert_true(l->n_steps >= 2);
		assert_true(l->summary.n > 0);
		assert_true(l->chapter[0] != '\0');
		for (j = 0; j < l->n_steps; j++) {
			const struct teach_step *s = &l->steps[j];
			if (s->title.n == 0 || s->question.n == 0 || s->pane[0] == '\0')
				fail_msg("%s step %zu: every shipped step has a title, a question and a pane", l->id, j + 1);
		}
		util_strlcpy(ids[i - 1], l->id, sizeof ids[i - 1]);
		for (j = 0; j + 1 < i; j++)
			if (strcmp(ids[j], l->id) == 0)
				fail_msg("lesson id %s twice", l->id);
		teach_lesson_free(l);
	}
	assert_null(teach_lessons_file(0));
	assert_null(teach_lessons_file(n + 1));
}

static bool text_complete(const struct teach_text *t, const char *lang)
{
	return t->n == 0 || (teach_text_has(t, lang) && teach_text_get(t, lang)[0] != '\0');
}

/* Every text of a bilingual lesson exists in English and in Chinese. */
static void test_bilingual(void **state)
{
	static const char *const ids[] = {"why-count", "dtypes"};
	size_t k, j;

	(void)state;
	for (k = 0; k < sizeof ids / sizeof ids[0]; k++) {
		struct teach_lesson *l;
		struct napkin_err err;
		size_t number;

		if (teach_lessons_open(ids[k], &l, &number, &err) != NAPKIN_OK)
			fail_msg("%s: %s", ids[k], err.msg);
		assert_true(number >= 1);
		assert_true(text_complete(&l->title, "zh") && text_complete(&l->title, "en"));
		assert_true(text_complete(&l->summary, "zh") && text_complete(&l->summary, "en"));
		for (j = 0; j < l->n_steps; j++) {
			const struct teach_step *s = &l->steps[j];
			if (!text_complete(&s->title, "zh") || !text_complete(&s->text, "zh") ||
			    !text_complete(&s->question, "zh"))
				fail_msg("%s step %zu: missing Chinese text", ids[k], j + 1);
			/* the two languages differ (nothing was left untranslated) */
			assert_string_not_equal(teach_text_get(&s->text, "zh"), teach_text_get(&s->text, "en"));
		}
		/* a language the lesson lacks falls back to English */
		assert_string_equal(teach_text_get(&l->title, "fr"), teach_text_get(&l->title, "en"));
		teach_lesson_free(l);
	}
}

/* The chapter's worked questions, with the published answers (../shared/reference/papers.md). */
static void test_worked_questions(void **state)
{
	static const struct {
		const char *lesson, *key;
		double value, rel;
	} worked[] = {
		/* CS336 lecture 2: 70B, 15T tokens, 1024 H100s, MFU 0.5: 143.93 days */
		{"flops-mfu", "compute.train_days", 143.93, 5e-4}, /* the lesson's tolerance: 70B is 69.98 B of real dims */
		/* CS336 lecture 2: 8 H100s, 16 bytes per parameter: 4.0e10 parameters */
		{"training-memory", "memory.max_params", 4.0e10, 0.01},
		/* a 7B model decoding at batch 1 on an H100: about 1 FLOP per byte, memory-bound */
		{"train-vs-infer", "roofline.decode", 1.0, 0.01},
	};
	size_t k, j, a;

	(void)state;
	for (k = 0; k < sizeof worked / sizeof worked[0]; k++) {
		struct teach_lesson *l;
		struct napkin_err err;
		size_t number;
		bool found = false;

		if (teach_lessons_open(worked[k].lesson, &l, &number, &err) != NAPKIN_OK)
			fail_msg("%s: %s", worked[k].lesson, err.msg);
		for (j = 0; j < l->n_steps && !found; j++) {
			for (a = 0; a < l->steps[j].n_answers; a++) {
				const struct teach_answer *ans = &l->steps[j].answers[a];
				struct engine_scenario sc;
				struct engine_result *r;
				if (strcmp(ans->key, worked[k].key) != 0)
					continue;
				found = true;
				assert_close(ans->value, worked[k].value, worked[k].rel);
				assert_int_equal(teach_lesson_scenario(l, j, &cat, &sc, &err), 0);
				r = malloc(sizeof *r);
				assert_non_null(r);
				assert_int_equal(engine_evaluate(&sc, r, &err), 0);
				assert_close(engine_result_value(r, engine_result_find(worked[k].key)), worked[k].value,
					     worked[k].rel);
				if (strcmp(worked[k].lesson, "train-vs-infer") == 0)
					assert_true(r->roofline.points[ENGINE_PT_DECODE].memory_bound);
				free(r);
				break;
			}
		}
		if (!found)
			fail_msg("%s: no answer for %s", worked[k].lesson, worked[k].key);
		teach_lesson_free(l);
	}
}

/* ------------------------------------------------------------ conditions */

static void test_conditions(void **state)
{
	struct engine_scenario sc;
	struct engine_result *r = malloc(sizeof *r);
	struct teach_cond c;
	struct napkin_err err;
	char buf[80];
	double v;
	static const struct {
		const char *text;
		bool want;
	} good[] = {
		{"memory.fits == true", true},
		{"memory.fits != true", false},
		{"memory.fits == fits", true},
		{"roofline.train_step.bound == compute", true},
		{"roofline.elementwise.bound == memory-bound", true},
		{"compute.train_days < 400", true},
		{"compute.train_days >= 400", false},
		{"memory.total <= 80 GB", true},
		{"memory.total > 75 GB", false},
		{"memory.bytes_per_param == 16", true},
		{"batch == 1", true},
		{"seq >= 4k", true},
		{"precision == mixed-bf16", true},
		{"precision != fp32", true},
		{"flash_attention == on", true},
		{"gpu == h100-sxm", true},
		{"model != llama-2-7b", false},
		{"data_loading.overlapped == true", true},
		{"techniques.mixed_precision.enabled == true", true},
		{"techniques.flash_attention.delta_memory < 0", true},
		{"techniques.zero3.enabled == false", true},
		{"mfu = 0.4", true},
		{"mfu == 40%", true},
	};
	static const char *const bad[] = {
		"memory.fits",                /* no operator */
		"memory.fist == true",        /* unknown result */
		"bacth == 1",                 /* unknown knob (suggests batch) */
		"memory.fits < true",         /* words compare with == and != */
		"memory.fits == maybe",
		"roofline.decode.bound == fast",
		"compute.train_days < soon",
		"precision == fp64",
		"precision < fp32",
		"gpu > h100-sxm",
		"== 3",
		"batch ==",
	};
	size_t i;

	(void)state;
	assert_non_null(r);
	engine_scenario_default(&sc);
	sc.mfu = 0.4; /* an assumed MFU (the default is auto): the percent forms below */
	assert_int_equal(engine_evaluate(&sc, r, &err), 0);
	for (i = 0; i < sizeof good / sizeof good[0]; i++) {
		if (teach_cond_parse(good[i].text, &c, &err) != NAPKIN_OK)
			fail_msg("'%s': %s", good[i].text, err.msg);
		if (teach_cond_eval(&c, &sc, r, &v) != good[i].want)
			fail_msg("'%s' should be %s (left side %g)", good[i].text, good[i].want ? "true" : "false", v);
		teach_cond_lhs_text(&c, &sc, r, buf, sizeof buf);
		assert_true(buf[0] != '\0');
	}
	for (i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		util_err_clear(&err);
		if (teach_cond_parse(bad[i], &c, &err) == NAPKIN_OK)
			fail_msg("'%s' should not parse", bad[i]);
		assert_true(err.msg[0] != '\0');
	}
	assert_int_not_equal(teach_cond_parse("bacth == 1", &c, &err), 0);
	assert_non_null(strstr(err.msg, "batch"));
	teach_cond_parse("roofline.decode.bound == memory", &c, &err);
	teach_cond_lhs_text(&c, &sc, r, buf, sizeof buf);
	assert_string_equal(buf, "memory-bound");
	free(r);
}

/* ------------------------------------------------------------ the loader */

static const char good_lesson[] = "lesson: t1\n"
				  "title: {en: Test, zh: 测试}\n"
				  "summary: A test.\n"
				  "chapter: '3.1'\n"
				  "knobs: {gpus: 8}\n"
				  "steps:\n"
				  "  - text: one\n"
				  "    knobs: {batch: 2}\n"
				  "    pane: memory\n"
				  "    answer: {key: memory.bytes_per_param, value: 16}\n"
				  "  - text: two\n"
				  "    knobs: {batch: 64}\n"
				  "    check: [memory.fits == true, batch >= 1]\n"
				  "    solution: {batch: 1}\n"
				  "  - text: three\n"
				  "    reset: true\n"
				  "    knobs: {seq: 2k}\n"
				  "    question: {en: Why?, zh: 为什么？}\n";

static void test_load_and_replay(void **state)
{
	struct teach_lesson *l;
	struct engine_scenario sc;
	struct napkin_err err;

	(void)state;
	if (teach_lesson_parse("t.yaml", good_lesson, strlen(good_lesson), &l, &err) != NAPKIN_OK)
		fail_msg("%s:%d:%d: %s", err.file, err.line, err.col, err.msg);
	assert_string_equal(l->id, "t1");
	assert_int_equal(l->n_steps, 3);
	assert_string_equal(teach_text_get(&l->title, "zh"), "测试");
	assert_int_equal(l->steps[1].n_check, 2);
	assert_int_equal(l->steps[0].answers[0].line, 10);
	assert_close(l->steps[0].answers[0].tolerance, 0.005, 0);
	assert_int_equal(teach_lesson_verify(l, &cat, &err), 0);
	/* steps build on each other; reset starts again from the base */
	assert_int_equal(teach_lesson_scenario(l, 0, &cat, &sc, &err), 0);
	assert_int_equal(sc.batch, 2);
	assert_int_equal(sc.gpus, 8);
	assert_int_equal(teach_lesson_scenario(l, 1, &cat, &sc, &err), 0);
	assert_int_equal(sc.batch, 64);
	assert_int_equal(teach_lesson_scenario(l, 2, &cat, &sc, &err), 0);
	assert_int_equal(sc.batch, 1);
	assert_int_equal(sc.seq, 2048);
	assert_int_equal(sc.gpus, 8);
	assert_int_not_equal(teach_lesson_scenario(l, 3, &cat, &sc, &err), 0);
	teach_lesson_free(l);
	teach_lesson_free(NULL);
}

/* Broken lessons: each error names the file, line and column and says what is wrong. */
static void test_load_errors(void **state)
{
	static const struct {
		const char *text;
		int line;
		const char *msg;
	} bad[] = {
		{"lesson: x\ntitle: T\nstep:\n  - text: a\n", 3, "did you mean 'steps'"},
		{"lesson: x\ntitle: T\n", 1, "'steps' is required"},
		{"lesson: x\ntitle: T\nsteps: []\n", 3, "at least one step"},
		{"lesson: x y\ntitle: T\nsteps:\n  - text: a\n", 1, "not an id"},
		{"lesson: x\ntitle: {zh: 只有中文}\nsteps:\n  - text: a\n", 2, "English"},
		{"lesson: x\ntitle: {EN: T}\nsteps:\n  - text: a\n", 2, "language code"},
		{"lesson: x\ntitle: T\nsteps:\n  - text: a\n    knobs: {bacth: 2}\n", 5, "did you mean 'batch'"},
		{"lesson: x\ntitle: T\nsteps:\n  - text: a\n    pane: memroy\n", 5, "did you mean 'memory'"},
		{"lesson: x\ntitle: T\nsteps:\n  - text: a\n    check: memory.fits is true\n", 5, "not a condition"},
		{"lesson: x\ntitle: T\nsteps:\n  - text: a\n    answer: {key: memory.nope, value: 1}\n", 5, "not a result"},
		{"lesson: x\ntitle: T\nsteps:\n  - text: a\n    answer: {key: memory.fits, value: 1}\n", 5, "not a number"},
		{"lesson: x\ntitle: T\nsteps:\n  - text: a\n    answer: {key: batch, value: 1}\n", 5, "not a knob"},
		{"lesson: x\ntitle: T\nsteps:\n  - text: a\n    answer: {key: memory.total, value: lots}\n", 5, "not a number"},
		{"lesson: x\ntitle: T\nsteps:\n  - text: a\n    answer: {key: memory.total, value: 1, tolerance: 2}\n", 5,
		 "tolerance"},
		{"lesson: x\ntitle: T\nsteps:\n  - text: a\n    solution: {batch: 2}\n", 4, "needs a check"},
		{"lesson: x\ntitle: T\nsteps:\n  - text: a\n    reset: maybe\n", 5, "true or false"},
		{"lesson: x\ntitle: T\nsteps:\n  - text: a\n    explain: nothing.here\n", 5, "engine_explain"},
		{"lesson: x\ntitle: T\nsteps:\n  - text: a\n    focus: bacth\n", 5, "did you mean 'batch'"},
		{"lesson: x\ntitle: T\nsteps:\n  - text: a\n    focus: [batch]\n", 5, "knob's key"},
		{"lesson: x\ntitle: T\nsteps:\n  - title: a\n", 4, "'text' is required"},
		{"lesson: x\ntitle: T\nsteps:\n  - text: a\n    minutes: 0\n", 5, "from 1 to 60"},
		{"lesson: x\ntitle: T\nsteps:\n  - text: a\n    minutes: 4.5\n", 5, "from 1 to 60"},
		{"lesson: x\ntitle: T\nsteps:\n  - text: a\n    minutes: [4]\n", 5, "whole number of minutes"},
		{"lesson: x\ntitle: T\ncore: yes\nsteps:\n  - text: a\n", 3, "true or false"},
		{"lesson: x\ntitle: T\nchapter: beyond\ncore: true\nsteps:\n  - text: a\n", 4, "not its main line"},
		{"lesson: x\ntitle: &a T\nsteps:\n  - text: *a\n", 0, ""},
		{"lesson: [x\n", 0, ""},
	};
	size_t i;

	(void)state;
	for (i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		struct teach_lesson *l = (struct teach_lesson *)1;
		struct napkin_err err;

		util_err_clear(&err);
		if (teach_lesson_parse("bad.yaml", bad[i].text, strlen(bad[i].text), &l, &err) == NAPKIN_OK)
			fail_msg("case %zu should fail", i);
		assert_null(l);
		assert_string_equal(err.file, "bad.yaml");
		if (bad[i].line > 0 && err.line != bad[i].line)
			fail_msg("case %zu: line %d, want %d (%s)", i, err.line, bad[i].line, err.msg);
		if (strstr(err.msg, bad[i].msg) == NULL)
			fail_msg("case %zu: '%s' lacks '%s'", i, err.msg, bad[i].msg);
	}
}

/* verify catches wrong answers, solutions that do not answer, and questions that ask
 * nothing; a bad knob value is an error at its line. */
static void test_verify_errors(void **state)
{
	static const struct {
		const char *text;
		int line;
		const char *msg;
	} bad[] = {
		{"lesson: x\ntitle: T\nsteps:\n  - text: a\n    answer: {key: memory.bytes_per_param, value: 12}\n", 5,
		 "the engine gives 16"},
		{"lesson: x\ntitle: T\nsteps:\n  - text: a\n    check: batch >= 8\n    solution: {batch: 4}\n", 5,
		 "the solution fails"},
		{"lesson: x\ntitle: T\nsteps:\n  - text: a\n    check: batch >= 1\n    solution: {batch: 4}\n", 5,
		 "already met"},
		/* without a solution too: the step would say answered before the student acts */
		{"lesson: x\ntitle: T\nsteps:\n  - text: a\n    check: batch >= 1\n", 5, "already met"},
		{"lesson: x\ntitle: T\nsteps:\n  - text: a\n    knobs: {batch: many}\n", 5, "batch"},
		/* the knob the cursor goes to must be on screen: the prompt is inference's */
		{"lesson: x\ntitle: T\nsteps:\n  - text: a\n    focus: prompt\n", 4, "'prompt' the step is about is not on screen"},
		{"lesson: x\ntitle: T\nsteps:\n  - text: a\n    knobs: {gpu: no-such-gpu}\n", 0, "no-such-gpu"},
	};
	size_t i;

	(void)state;
	for (i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		struct teach_lesson *l;
		struct napkin_err err;

		if (teach_lesson_parse("v.yaml", bad[i].text, strlen(bad[i].text), &l, &err) != NAPKIN_OK)
			fail_msg("case %zu: %s", i, err.msg);
		util_err_clear(&err);
		if (teach_lesson_verify(l, &cat, &err) == NAPKIN_OK)
			fail_msg("case %zu should fail verification", i);
		if (strstr(err.msg, bad[i].msg) == NULL)
			fail_msg("case %zu: '%s' lacks '%s'", i, err.msg, bad[i].msg);
		if (bad[i].line > 0 && err.line != bad[i].line)
			fail_msg("case %zu: line %d, want %d (%s)", i, err.line, bad[i].line, err.msg);
		teach_lesson_free(l);
	}
}

/* The knob a step is about: its focus:, else the solution's first knob, else the first knob
 * its check compares, else none. */
static void test_step_focus(void **state)
{
	static const char text[] = "lesson: x\ntitle: T\nsteps:\n"
				   "  - text: a\n    focus: seq\n    check: batch >= 8\n    solution: {batch: 8}\n"
				   "  - text: b\n    check: [memory.fits == true, precision == fp32]\n"
				   "    solution: {recompute: full, batch: 1}\n"
				   "  - text: c\n    check: [memory.fits == true, precision == fp32]\n"
				   "  - text: d\n    check: memory.fits == true\n";
	struct teach_lesson *l;
	struct napkin_err err;

	(void)state;
	if (teach_lesson_parse("f.yaml", text, strlen(text), &l, &err) != NAPKIN_OK)
		fail_msg("%s", err.msg);
	assert_ptr_equal(teach_step_focus(&l->steps[0]), engine_knob_find("seq"));
	assert_ptr_equal(teach_step_focus(&l->steps[1]), engine_knob_find("recompute"));
	assert_ptr_equal(teach_step_focus(&l->steps[2]), engine_knob_find("precision"));
	assert_null(teach_step_focus(&l->steps[3]));
	teach_lesson_free(l);
}

static void test_open(void **state)
{
	struct teach_lesson *l;
	struct napkin_err err;
	size_t number;
	char path[512];

	(void)state;
	assert_int_equal(teach_lessons_open("1", &l, &number, &err), 0);
	assert_int_equal(number, 1);
	teach_lesson_free(l);
	assert_int_not_equal(teach_lessons_open("0", &l, &number, &err), 0);
	assert_int_not_equal(teach_lessons_open("999", &l, &number, &err), 0);
	assert_int_not_equal(teach_lessons_open("no-such-lesson", &l, &number, &err), 0);
	assert_non_null(strstr(err.msg, "no lesson"));
	/* a file by path: the shipped file itself */
	testutil_src("presets/lessons/01-why-count.yaml", path, sizeof path);
	assert_int_equal(teach_lessons_open(path, &l, &number, &err), 0);
	assert_int_equal(number, 0);
	assert_string_equal(l->id, "why-count");
	teach_lesson_free(l);
	assert_int_not_equal(teach_lessons_open("/nonexistent/lesson.yaml", &l, &number, &err), 0);
}

/* Checks read in words, both sides in one unit: Llama-2-7B's 6.738e9 parameters in fp32
 * weigh 4 B each = 26.95 GB against a bound written in GB (never "13.5 GB (now 25.10 GiB)"). */
static void test_condition_words(void **state)
{
	struct engine_scenario sc;
	struct engine_result *r = malloc(sizeof *r);
	struct teach_cond c;
	struct napkin_err err;
	char buf[240];
	static const struct {
		const char *text, *words;
	} cases[] = {
		{"memory.weights <= 13.5 GB", "weights at most 13.50 GB (now 26.95 GB)"},
		{"memory.weights <= 12 GiB", "weights at most 12.00 GiB (now 25.10 GiB)"},
		{"memory.fits == true", "the scenario fits in memory (now it does not)"},
		{"roofline.train_step.bound == memory", "the training step is memory-bound (now compute-bound)"},
		{"techniques.zero3.enabled == true", "ZeRO-3 (+ weights) is on (now off)"},
		{"data_loading.overlapped == true", "the copy overlaps the step (now it does)"},
		{"precision == mixed-bf16", "precision is mixed-bf16 (now fp32)"},
	};
	size_t i;

	(void)state;
	assert_non_null(r);
	engine_scenario_default(&sc);
	assert_int_equal(engine_knob_set(&sc, engine_knob_find("precision"), "fp32", NULL, &err), 0);
	assert_int_equal(engine_evaluate(&sc, r, &err), 0);
	for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		assert_int_equal(teach_cond_parse(cases[i].text, &c, &err), 0);
		teach_cond_words(&c, &sc, r, buf, sizeof buf);
		assert_string_equal(buf, cases[i].words);
	}
	free(r);
}

/* A step is answered by every right answer: lesson 3's "a 16-bit recipe that needs no loss
 * scaling" by all three BF16 recipes (PyTorch autocast, mixed with an FP32 master copy, pure
 * bf16), never an FP16 one; its "FP32 matmuls on Tensor Cores" by TF32 only, not by leaving
 * FP32. A value that rounds to the bound says on which side it is. */
static void test_right_answers(void **state)
{
	struct engine_scenario sc;
	struct engine_result *r = malloc(sizeof *r);
	struct teach_lesson *l;
	struct napkin_err err;
	size_t number, i;
	char buf[240];
	static const struct {
		const char *precision, *matmul;
		bool step2, step3;
	} cases[] = {
		{"amp-bf16", "auto", true, false},   {"mixed-bf16", "auto", true, false}, {"bf16", "auto", true, false},
		{"mixed-fp16", "auto", false, false}, {"amp-fp16", "auto", false, false}, {"fp8-mixed", "auto", false, false},
		{"fp32", "auto", false, false},       {"fp32", "tf32", false, true},
	};

	(void)state;
	assert_non_null(r);
	assert_int_equal(teach_lessons_open("dtypes", &l, &number, &err), 0);
	assert_true(l->n_steps >= 3);
	for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		engine_scenario_default(&sc);
		if (engine_knob_set(&sc, engine_knob_find("precision"), cases[i].precision, NULL, &err) != 0 ||
		    engine_knob_set(&sc, engine_knob_find("matmul_dtype"), cases[i].matmul, NULL, &err) != 0)
			fail_msg("%s/%s: %s", cases[i].precision, cases[i].matmul, err.msg);
		assert_int_equal(engine_evaluate(&sc, r, &err), 0);
		if (teach_step_met(&l->steps[1], &sc, r) != cases[i].step2)
			fail_msg("lesson 3 step 2 with %s: answered %d, expected %d", cases[i].precision,
				 !cases[i].step2, cases[i].step2);
		if (teach_step_met(&l->steps[2], &sc, r) != cases[i].step3)
			fail_msg("lesson 3 step 3 with %s, matmuls %s: answered %d, expected %d", cases[i].precision,
				 cases[i].matmul, !cases[i].step3, cases[i].step3);
	}
	teach_cond_words(&l->steps[1].check[0], &sc, r, buf, sizeof buf);
	assert_string_equal(buf, "precision is one of amp-bf16, mixed-bf16, bf16 (now fp32)");
	teach_lesson_free(l);

	/* alternatives are for words only, and every one must be a value */
	{
		struct teach_cond c;
		assert_int_not_equal(teach_cond_parse("precision == bf16 | bf32", &c, &err), 0);
		assert_int_not_equal(teach_cond_parse("precision == bf16 | ", &c, &err), 0);
		assert_int_not_equal(teach_cond_parse("precision < bf16 | amp-fp16", &c, &err), 0);
		assert_int_equal(teach_cond_parse("precision != amp-fp16 | mixed-fp16", &c, &err), 0);
		assert_true(teach_cond_eval(&c, &sc, r, NULL)); /* fp32 is neither */
	}

	/* lesson 4's last step: 1474 H100s are the exact minimum (99.988 days < 100), which
	 * both sides read as "100.0 days" */
	assert_int_equal(teach_lessons_open("flops-mfu", &l, &number, &err), 0);
	assert_int_equal(teach_lesson_scenario(l, l->n_steps - 1, &cat, &sc, &err), 0);
	assert_int_equal(engine_knob_set(&sc, engine_knob_find("gpus"), "1474", NULL, &err), 0);
	assert_int_equal(engine_evaluate(&sc, r, &err), 0);
	assert_true(r->compute.train_days < 100.0);
	assert_true(teach_step_met(&l->steps[l->n_steps - 1], &sc, r));
	teach_cond_words(&l->steps[l->n_steps - 1].check[0], &sc, r, buf, sizeof buf);
	assert_string_equal(buf, "training days below 100.0 days (now 100.0 days, just below)");
	/* 1473 GPUs take 100.06 days ("100.1"); at MFU 49.98% 1474 take 100.03, read "100.0" */
	assert_int_equal(engine_knob_set(&sc, engine_knob_find("mfu"), "0.4998", NULL, &err), 0);
	assert_int_equal(engine_evaluate(&sc, r, &err), 0);
	assert_false(teach_step_met(&l->steps[l->n_steps - 1], &sc, r));
	teach_cond_words(&l->steps[l->n_steps - 1].check[0], &sc, r, buf, sizeof buf);
	assert_string_equal(buf, "training days below 100.0 days (now 100.0 days, just above)");
	teach_lesson_free(l);
	free(r);
}

/* Where a lesson sits: the sections, the chapter's summary, or beyond the chapter (LoRA
 * and QLoRA are not in it); anything else is refused. */
static void test_chapter_words(void **state)
{
	static const struct {
		const char *lesson, *words;
	} cases[] = {
		{"dtypes", "Chapter 3.3"},
		{"tensors", "Chapter 3.2, 3.3"},
		{"techniques", "Chapter 3.6 and its summary"},
		{"finetune-one-gpu", "Beyond the chapter"},
	};
	size_t i, number;
	char buf[96];

	(void)state;
	for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		struct teach_lesson *l;
		struct napkin_err err;
		assert_int_equal(teach_lessons_open(cases[i].lesson, &l, &number, &err), 0);
		teach_chapter_words(l, buf, sizeof buf);
		assert_string_equal(buf, cases[i].words);
		teach_lesson_free(l);
	}
	assert_true(teach_chapter_valid("3.3"));
	assert_true(teach_chapter_valid("3.1, 3.5"));
	assert_true(teach_chapter_valid("summary"));
	assert_false(teach_chapter_valid("3.6 and after"));
	assert_false(teach_chapter_valid("beyond, 3.5"));
	assert_false(teach_chapter_valid(""));
	assert_false(teach_chapter_valid("3..5x"));
}

/* Time in class (docs/lessons.md): a step's `minutes:`, else 2 to read and look, +3 for a
 * number worked by hand (a quiz answer), +2 for knobs to turn (a check), +1 for a number read
 * off the screen (a question alone); the trial of the course measured 3 to 5 a step. A
 * lecture plan takes the main line in order while it fits, then the rest of the chapter, never
 * a lesson beyond it, and passes over (never cuts) a lesson that does not fit. */
static void test_minutes_and_plan(void **state)
{
	static const char text[] = "lesson: x\ntitle: T\ncore: true\nchapter: \"3.4\"\nsteps:\n"
				   "  - text: read\n"
				   "  - text: read a number\n    question: how many?\n"
				   "  - text: turn\n    question: make it fit\n    check: memory.fits == true\n"
				   "  - text: work it\n    question: how many days?\n"
				   "    answer: {key: compute.train_days, value: 1, quiz: true}\n"
				   "  - text: long\n    minutes: 9\n";
	struct teach_lesson *l = NULL;
	struct napkin_err err;
	struct teach_plan_item it[5] = {
		{10, true, false, false}, {30, false, false, false}, {50, true, false, false},
		{5, false, true, false},  {20, false, false, false},
	};
	int used;
	size_t i, n_lessons = teach_lessons_count();

	(void)state;
	util_err_clear(&err);
	if (teach_lesson_parse("m.yaml", text, strlen(text), &l, &err) != NAPKIN_OK)
		fail_msg("%s", err.msg);
	assert_true(l->core);
	assert_int_equal(teach_step_minutes(&l->steps[0]), 2);
	assert_int_equal(teach_step_minutes(&l->steps[1]), 3);
	assert_int_equal(teach_step_minutes(&l->steps[2]), 4);
	assert_int_equal(teach_step_minutes(&l->steps[3]), 5);
	assert_int_equal(teach_step_minutes(&l->steps[4]), 9);
	assert_int_equal(teach_lesson_minutes(l), 23);
	teach_lesson_free(l);

	/* 70 minutes: the core lessons (10, 50) first, then the 30 does not fit but the 20 does
	 * after it is passed over: never the 5 beyond the chapter */
	used = teach_plan_choose(it, 5, 70);
	assert_int_equal(used, 60);
	assert_true(it[0].chosen && it[2].chosen);
	assert_false(it[1].chosen || it[3].chosen || it[4].chosen);
	used = teach_plan_choose(it, 5, 80);
	assert_int_equal(used, 80);
	assert_true(it[0].chosen && it[2].chosen && it[4].chosen);
	assert_false(it[1].chosen || it[3].chosen);
	used = teach_plan_choose(it, 5, 45);
	assert_int_equal(used, 40); /* 50 does not fit: the 10, then the 30 */
	assert_true(it[0].chosen && it[1].chosen);
	assert_false(it[2].chosen);
	assert_int_equal(teach_plan_choose(it, 5, 4), 0);

	/* every shipped step within the pace the trial measured (3 to 5 a step), and the chapter's
	 * main line marked in the shipped lessons */
	{
		bool any_core = false;
		for (i = 1; i <= n_lessons; i++) {
			size_t k;
			if (teach_lessons_load(i, &l, &err) != NAPKIN_OK)
				fail_msg("%s", err.msg);
			for (k = 0; k < l->n_steps; k++) {
				int m = teach_step_minutes(&l->steps[k]);
				if (m < 2 || m > 8)
					fail_msg("lesson %zu step %zu: %d minutes", i, k + 1, m);
			}
			any_core = any_core || l->core;
			teach_lesson_free(l);
		}
		assert_true(any_core);
	}
}

static const struct CMUnitTest tests[] = {
	cmocka_unit_test(test_minutes_and_plan),
	cmocka_unit_test(test_condition_words),
	cmocka_unit_test(test_right_answers),
	cmocka_unit_test(test_chapter_words),
	cmocka_unit_test(test_shipped_lessons),  cmocka_unit_test(test_bilingual),
	cmocka_unit_test(test_worked_questions), cmocka_unit_test(test_conditions),
	cmocka_unit_test(test_load_and_replay),  cmocka_unit_test(test_load_errors),
	cmocka_unit_test(test_verify_errors),    cmocka_unit_test(test_open), cmocka_unit_test(test_step_focus),
};

int main(int argc, char **argv)
{
	int i;

	for (i = 1; i + 1 < argc; i++)
		if (strcmp(argv[i], "-t") == 0)
			cmocka_set_test_filter(argv[i + 1]);
	return _cmocka_run_group_tests("teach_lessons", tests, sizeof tests / sizeof tests[0], setup, teardown);
}
