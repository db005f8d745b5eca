/*
 * The quiz's answer parser and judge (src/teach/quiz.c): what a student types, with or
 * without a unit, in English or Chinese, read in the key's unit by the definitions of the
 * units (a day is 86400 s, ISO 80000-3; 1 GB = 10^9 bytes and 1 GiB = 2^30, IEC 80000-13);
 * judged against the reference value of lesson 4 step 1 (CS336 lecture 2: 70B on 15T
 * tokens on 1024 H100s at MFU 0.5 takes 143.93 days); the quiz fields load, and bad ones
 * are refused with their position.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "engine.h"
#include "lesson.h"
#include "testutil.h"

static struct teach_lesson *load(const char *yaml)
{
	struct teach_lesson *l = NULL;
	struct napkin_err err;

	if (teach_lesson_parse("quiz.yaml", yaml, strlen(yaml), &l, &err) != NAPKIN_OK)
		fail_msg("%s:%d:%d: %s", err.file, err.line, err.col, err.msg);
	return l;
}

#define HEAD "lesson: q\ntitle: T\nsteps:\n  - text: a\n    question: how long?\n"

static double typed(const struct teach_answer *a, const char *text)
{
	double v = -1;
	struct napkin_err err;

	if (teach_quiz_parse(a, text, &v, &err) != NAPKIN_OK)
		fail_msg("'%s': %s", text, err.msg);
	return v;
}

static void test_days(void **state)
{
	struct teach_lesson *l = load(HEAD "    answer: {key: compute.train_days, value: 143.93, quiz: true, unit: days,\n"
					   "             hint: {en: seconds over a day, zh: 一天的秒数}}\n");
	const struct teach_answer *a = teach_step_quiz(&l->steps[0]);
	struct teach_judgement j;
	struct napkin_err err;
	double v;
	char buf[64];

	(void)state;
	assert_non_null(a);
	assert_true(a->quiz);
	assert_close(a->quiz_tolerance, 0.01, 1e-12); /* the default: 1% */
	assert_string_equal(teach_text_get(&a->hint, "zh"), "一天的秒数");
	/* a bare number is in the answer's unit; the others convert */
	assert_close(typed(a, "143.9"), 143.9, 1e-12);
	assert_close(typed(a, "144 days"), 144, 1e-12);
	assert_close(typed(a, "143.9 天"), 143.9, 1e-12);
	assert_close(typed(a, "143.9天"), 143.9, 1e-12);
	assert_close(typed(a, "3454 h"), 3454.0 / 24.0, 1e-12);
	assert_close(typed(a, "3454 小时"), 3454.0 / 24.0, 1e-12);
	assert_close(typed(a, "1.2436e7 s"), 1.2436e7 / 86400.0, 1e-12);
	assert_close(typed(a, "20.56 weeks"), 20.56 * 7, 1e-12);
	assert_close(typed(a, "1.4393 x 10^2"), 143.93, 1e-12);
	assert_close(typed(a, "1.4393×10^2 days"), 143.93, 1e-12);
	/* not a number, a unit of another kind */
	assert_int_not_equal(teach_quiz_parse(a, "lots", &v, &err), NAPKIN_OK);
	assert_int_not_equal(teach_quiz_parse(a, "144 GB", &v, &err), NAPKIN_OK);
	assert_non_null(strstr(err.msg, "GB"));
	assert_int_not_equal(teach_quiz_parse(a, "", &v, &err), NAPKIN_OK);
	/* judged: within 1% is right, the rest says which way and how far */
	teach_quiz_judge(a, 143.9, &j);
	assert_int_equal(j.verdict, TEACH_RIGHT);
	teach_quiz_judge(a, 145.3, &j); /* +0.95% */
	assert_int_equal(j.verdict, TEACH_RIGHT);
	teach_quiz_judge(a, 161.2, &j);
	assert_int_equal(j.verdict, TEACH_TOO_HIGH);
	assert_close(j.off, 161.2 / 143.93 - 1, 1e-9);
	assert_int_equal(j.slip, TEACH_SLIP_NONE);
	teach_quiz_judge(a, 3454.3, &j); /* hours typed as days */
	assert_int_equal(j.slip, TEACH_SLIP_TIME);
	assert_close(j.factor, 24, 1e-12);
	teach_quiz_judge(a, 143.93 / 3, &j); /* 2·N·D: the forward only */
	assert_int_equal(j.verdict, TEACH_TOO_LOW);
	assert_int_equal(j.slip, TEACH_SLIP_FACTOR);
	assert_close(j.factor, 1.0 / 3, 1e-12);
	teach_quiz_judge(a, 1.4393, &j);
	assert_int_equal(j.slip, TEACH_SLIP_POW10);
	assert_close(j.factor, 0.01, 1e-12);
	teach_quiz_format(a, 143.93, buf, sizeof buf);
	assert_string_equal(buf, "143.9 days");
	teach_lesson_free(l);
}

static void test_bytes_and_percent(void **state)
{
	struct teach_lesson *l = load(HEAD "    answer:\n"
					   "      - {key: memory.total, value: 80 GB}\n"
					   "      - {key: memory.weights, value: 13.5e9, quiz: true, unit: GB, quiz_tolerance: 2%}\n");
	struct teach_lesson *l2 = load(HEAD "    answer: {key: compute.mfu, value: 0.4, quiz: true}\n");
	const struct teach_answer *a = teach_step_quiz(&l->steps[0]), *m = teach_step_quiz(&l2->steps[0]);
	struct teach_judgement j;
	char buf[64];

	(void)state;
	assert_ptr_equal(a, &l->steps[0].answers[1]); /* the marked one, not the first */
	assert_close(a->quiz_tolerance, 0.02, 1e-12);
	assert_close(typed(a, "13.5"), 13.5e9, 1e-12);
	assert_close(typed(a, "13.5 GB"), 13.5e9, 1e-12);
	assert_close(typed(a, "12.57 GiB"), 12.57 * 1073741824.0, 1e-12);
	assert_close(typed(a, "13500 MB"), 13.5e9, 1e-12);
	assert_close(typed(a, "1.35e10 bytes"), 13.5e9, 1e-12);
	assert_close(typed(a, "13,500,000,000 B"), 13.5e9, 1e-12);
	teach_quiz_judge(a, 13.5 * 1073741824.0, &j); /* GiB where GB was asked: 7.4% off */
	assert_int_equal(j.verdict, TEACH_TOO_HIGH);
	assert_int_equal(j.slip, TEACH_SLIP_BINARY);
	teach_quiz_judge(a, 13.5e6, &j);
	assert_int_equal(j.slip, TEACH_SLIP_POW10);
	assert_close(j.factor, 1e-3, 1e-12);
	/* a fraction is shown and typed in % unless the answer names another unit */
	assert_close(typed(m, "40"), 0.40, 1e-12);
	assert_close(typed(m, "40%"), 0.40, 1e-12);
	teach_quiz_format(m, 0.4, buf, sizeof buf);
	assert_string_equal(buf, "40%");
	teach_lesson_free(l);
	teach_lesson_free(l2);
}

static void test_counts_and_rates(void **state)
{
	struct teach_lesson *l = load(HEAD "    answer: {key: model.params_trainable, value: 8030261248, quiz: true}\n");
	struct teach_lesson *l2 = load(HEAD "    answer: {key: compute.peak_flops, value: 989.5e12, quiz: true, unit: TFLOP/s}\n");
	const struct teach_answer *a = teach_step_quiz(&l->steps[0]), *p = teach_step_quiz(&l2->steps[0]);
	char buf[64];

	(void)state;
	assert_close(typed(a, "8.03B"), 8.03e9, 1e-12);
	assert_close(typed(a, "8030 M"), 8.03e9, 1e-12);
	assert_close(typed(a, "80.3 亿"), 8.03e9, 1e-12);
	assert_close(typed(p, "989.5"), 989.5e12, 1e-12);
	assert_close(typed(p, "0.9895 PFLOP/s"), 989.5e12, 1e-12);
	assert_close(typed(p, "9.895e14 FLOP/s"), 989.5e12, 1e-12);
	teach_quiz_format(p, 989.5e12, buf, sizeof buf);
	assert_string_equal(buf, "989.5 TFLOP/s");
	teach_lesson_free(l);
	teach_lesson_free(l2);
}

/* Lessons without the quiz's fields load as before; bad fields give their position. */
static void test_load_errors(void **state)
{
	static const struct {
		const char *text;
		int line;
		const char *msg;
	} bad[] = {
		{HEAD "    answer: {key: compute.train_days, value: 1, quiz: yes}\n", 6, "true or false"},
		{HEAD "    answer: {key: compute.train_days, value: 1, unit: GB}\n", 6, "does not measure"},
		{HEAD "    answer: {key: compute.train_days, value: 1, quiz: true, unit: parsecs}\n", 6, "does not measure"},
		{HEAD "    answer: {key: compute.train_days, value: 1, quiz_tolerance: 3}\n", 6, "quiz_tolerance"},
		{HEAD "    answer: {key: compute.train_days, value: 1, hint: {zh: 只有中文}}\n", 6, "English"},
		{HEAD "    answer: {key: compute.train_days, value: 1, quizz: true}\n", 6, "did you mean 'quiz'"},
		{HEAD "    answer:\n      - {key: compute.train_days, value: 1, quiz: true}\n"
		      "      - {key: compute.train_seconds, value: 1, quiz: true}\n", 8, "at most one quiz answer"},
		{"lesson: q\ntitle: T\nsteps:\n  - text: a\n    answer: {key: compute.train_days, value: 1, quiz: true}\n", 5,
		 "needs the step's question"},
	};
	size_t i;
	struct teach_lesson *l;

	(void)state;
	for (i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		struct napkin_err err;
		util_err_clear(&err);
		if (teach_lesson_parse("bad.yaml", bad[i].text, strlen(bad[i].text), &l, &err) == NAPKIN_OK)
			fail_msg("case %zu should fail", i);
		assert_string_equal(err.file, "bad.yaml");
		if (err.line != bad[i].line)
			fail_msg("case %zu: line %d, want %d (%s)", i, err.line, bad[i].line, err.msg);
		if (err.col <= 0)
			fail_msg("case %zu: no column (%s)", i, err.msg);
		if (strstr(err.msg, bad[i].msg) == NULL)
			fail_msg("case %zu: '%s' lacks '%s'", i, err.msg, bad[i].msg);
	}
	/* an answer without the fields is no quiz */
	l = load(HEAD "    answer: {key: compute.train_days, value: 1}\n");
	assert_null(teach_step_quiz(&l->steps[0]));
	teach_lesson_free(l);
}

/* Lesson 4 step 1 asks for the days, and takes 143.9 */
static void test_lesson4(void **state)
{
	struct teach_lesson *l;
	struct napkin_err err;
	const struct teach_answer *a;
	struct teach_judgement j;

	(void)state;
	if (teach_lessons_load(4, &l, &err) != NAPKIN_OK)
		fail_msg("%s", err.msg);
	a = teach_step_quiz(&l->steps[0]);
	assert_non_null(a);
	assert_string_equal(a->key, "compute.train_days");
	teach_quiz_judge(a, typed(a, "143.9"), &j);
	assert_int_equal(j.verdict, TEACH_RIGHT);
	assert_true(a->hint.n > 0);
	teach_lesson_free(l);
}

static const struct CMUnitTest tests[] = {
	cmocka_unit_test(test_days), cmocka_unit_test(test_bytes_and_percent), cmocka_unit_test(test_counts_and_rates),
	cmocka_unit_test(test_load_errors), cmocka_unit_test(test_lesson4),
};

TESTUTIL_MAIN("teach_quiz", tests)
