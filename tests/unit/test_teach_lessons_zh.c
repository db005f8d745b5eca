/*
 * The lessons in Chinese: every shipped lesson has a Chinese version of every text that
 * has an English one (title, summary, and each step's title, text and question), written
 * in Chinese (not a copy of the English), with the same numbers: the multiset of digit
 * runs in the Chinese text equals the English one's ("6.74e9" is 6, 74, 9; "fp32" is 32),
 * so a figure cannot be changed, dropped or converted (67.4 亿 for 6.74 B) in one language
 * only. The terms follow docs/glossary.md: a few forms it rules out are refused here.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lesson.h"
#include "testutil.h"

/* Fields whose Chinese legitimately states other numbers than the English (none today).
 * An entry names the lesson id, the field as this test names it ("steps[2].text") and why. */
static const struct {
	const char *lesson, *field, *why;
} number_exceptions[] = {
	/* "4× smaller" is 缩小到 1/4 in Chinese (a “4×” for 倍 reads as machine output): a 1 more */
	{"train-vs-infer", "steps[2].text", "4× smaller is 1/4"},
	{NULL, NULL, NULL},
};

/* Forms the Chinese texts do not use, and the one docs/glossary.md prescribes instead (the
 * chapter's own usage: Memory-Bound as it spells it, dtypes in capitals, numbers in ASCII). */
static const struct {
	const char *form, *use;
} wrong_terms[] = {
	{"Activation", "激活值"},
	{"memory-bound", "Memory-Bound"},
	{"compute-bound", "Compute-Bound"},
	{"fp32", "FP32"},
	{"fp16", "FP16"},
	{"bf16", "BF16"},
	{"fp8", "FP8"},
	{"tf32", "TF32"},
	{"张量", "Tensor"},
	{"屋顶", "Roofline"},
	{"两个动量", "一阶矩与二阶矩 (Adam's moments are not momentum)"},
	{"亿", "ASCII numbers as in the English (6.74 B, 6.74e9)"},
	{"万", "ASCII numbers as in the English (965,000)"},
	{"％", "% (ASCII)"},
	{"速记", "估算 (6·N·D is an estimate, not stenography)"},
	{"简写", "估算"},
	{"完全重计算", "完整重计算 (the techniques pane's name)"},
	{"设置设置", "设定各项设置"},
	{"数据面板", "“计算量与时间”面板的“数据加载”一行 (no data pane exists)"},
	{"× 大", "N 倍 (增大到 8 倍)"},
	{"×，", "N 倍"},
	{"× ，", "N 倍, or 缩小到 1/N"},
	{"×。", "N 倍"},
	{"次 FLOPs", "次浮点运算 or FLOPs (FLOPs already counts operations)"},
	{"FLOP/Byte", "FLOP/B (the screen's unit)"},
	{"FLOPs/Byte", "FLOP/B (the screen's unit)"},
	{"有多重", "有多大"},
	{NULL, NULL},
};

#define RUNS_MAX 128

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* The digit runs of s, sorted: "2 × 32 × 8" -> {"2", "32", "8"}. Returns the count. */
static size_t digit_runs(const char *s, char runs[RUNS_MAX][24])
{
	size_t n = 0;
	const char *p = s;
	const char *ptrs[RUNS_MAX] = {NULL};
	char tmp[RUNS_MAX][24];
	size_t i;

	while (*p != '\0') {
		if (*p >= '0' && *p <= '9') {
			size_t len = 0;
			while (p[len] >= '0' && p[len] <= '9')
				len++;
			assert_true(n < RUNS_MAX && len < sizeof tmp[0]);
			memcpy(tmp[n], p, len);
			tmp[n][len] = '\0';
			n++;
			p += len;
		} else {
			p++;
		}
	}
	for (i = 0; i < n; i++)
		ptrs[i] = tmp[i];
	qsort(ptrs, n, sizeof ptrs[0], cmp_str);
	for (i = 0; i < n; i++)
		util_strlcpy(runs[i], ptrs[i], sizeof runs[i]);
	return n;
}

/* The same numbers in a and b; else describes the first difference in why. */
static bool same_numbers(const char *a, const char *b, char *why, size_t n)
{
	static char ra[RUNS_MAX][24], rb[RUNS_MAX][24];
	size_t na = digit_runs(a, ra), nb = digit_runs(b, rb), i = 0, j = 0;

	while (i < na || j < nb) {
		int c = i == na ? 1 : j == nb ? -1 : strcmp(ra[i], rb[j]);
		if (c != 0) {
			snprintf(why, n, "%.23s %s", c < 0 ? ra[i] : rb[j], c < 0 ? "only in English" : "only in Chinese");
			return false;
		}
		i++;
		j++;
	}
	return true;
}

/* Decodes one UTF-8 sequence at s into *cp; returns its length (1 for a stray byte). */
static size_t utf8(const char *s, unsigned *cp)
{
	const unsigned char *u = (const unsigned char *)s;

	if (u[0] >= 0xe0 && u[0] < 0xf0 && u[1] != 0 && u[2] != 0) {
		*cp = ((u[0] & 0x0fu) << 12) | ((u[1] & 0x3fu) << 6) | (u[2] & 0x3fu);
		return 3;
	}
	*cp = u[0];
	return 1;
}

static bool ideograph(unsigned cp)
{
	return cp >= 0x4e00 && cp <= 0x9fff;
}

static bool has_ideograph(const char *t)
{
	unsigned cp;

	while (*t != '\0') {
		t += utf8(t, &cp);
		if (ideograph(cp))
			return true;
	}
	return false;
}

static bool excepted(const char *lesson, const char *field)
{
	size_t i;

	for (i = 0; number_exceptions[i].lesson != NULL; i++)
		if (number_exceptions[i].why[0] != '\0' && strcmp(number_exceptions[i].lesson, lesson) == 0 && strcmp(number_exceptions[i].field, field) == 0)
			return true;
	return false;
}

/* One text field: fails the test (with the lesson and the field) when its Chinese is wrong. */
static void check_field(const char *lesson, const char *field, const struct teach_text *t)
{
	const char *en, *zh;
	char why[96];
	size_t k;

	if (t->n == 0)
		return; /* the field is not given at all */
	if (!teach_text_has(t, "en"))
		fail_msg("%s %s: no English", lesson, field);
	if (!teach_text_has(t, "zh"))
		fail_msg("%s %s: has English but no Chinese (zh)", lesson, field);
	en = teach_text_get(t, "en");
	zh = teach_text_get(t, "zh");
	if (zh[0] == '\0' || !has_ideograph(zh))
		fail_msg("%s %s: the Chinese text has no Chinese in it: \"%s\"", lesson, field, zh);
	if (strcmp(en, zh) == 0)
		fail_msg("%s %s: the Chinese text is the English one", lesson, field);
	if (!excepted(lesson, field) && !same_numbers(en, zh, why, sizeof why))
		fail_msg("%s %s: the numbers differ (%s)\n  en: %s\n  zh: %s", lesson, field, why, en, zh);
	for (k = 0; wrong_terms[k].form != NULL; k++)
		if (strstr(zh, wrong_terms[k].form) != NULL)
			fail_msg("%s %s: writes \"%s\"; the glossary has %s", lesson, field, wrong_terms[k].form,
				 wrong_terms[k].use);
}

static void test_every_lesson_in_chinese(void **state)
{
	size_t n = teach_lessons_count(), i, j;

	(void)state;
	assert_true(n >= 10);
	for (i = 1; i <= n; i++) {
		struct teach_lesson *l;
		struct napkin_err err;

		if (teach_lessons_load(i, &l, &err) != NAPKIN_OK)
			fail_msg("lesson %zu: %s:%d:%d: %s", i, err.file, err.line, err.col, err.msg);
		assert_true(l->title.n > 0 && l->summary.n > 0);
		check_field(l->id, "title", &l->title);
		check_field(l->id, "summary", &l->summary);
		for (j = 0; j < l->n_steps; j++) {
			const struct teach_step *s = &l->steps[j];
			char f[48];

			snprintf(f, sizeof f, "steps[%zu].title", j);
			check_field(l->id, f, &s->title);
			snprintf(f, sizeof f, "steps[%zu].text", j);
			assert_true(s->text.n > 0);
			check_field(l->id, f, &s->text);
			snprintf(f, sizeof f, "steps[%zu].question", j);
			check_field(l->id, f, &s->question);
		}
		teach_lesson_free(l);
	}
}

/* The checks above catch what they are meant to catch. */
static void test_the_checks_themselves(void **state)
{
	char why[96];

	(void)state;
	assert_true(same_numbers("6.74 B parameters × 16 B is 108 GB", "6.74 B 个参数 × 16 B = 108 GB", why, sizeof why));
	/* 6.74 B written as 67.4 亿: the digit runs differ */
	assert_false(same_numbers("6.74 B parameters", "67.4 亿参数", why, sizeof why));
	assert_string_equal(why, "4 only in Chinese");
	/* a number dropped, a number added, a dtype changed */
	assert_false(same_numbers("8 × 80e9 B", "80e9 B", why, sizeof why));
	assert_false(same_numbers("halves it", "减半（1/2）", why, sizeof why));
	assert_false(same_numbers("in fp16", "用 FP32", why, sizeof why));
	/* the order does not matter, the count does */
	assert_true(same_numbers("32 layers of 4096", "4096 个 Token，32 层", why, sizeof why));
	assert_false(same_numbers("256× and 256", "256×", why, sizeof why));

	assert_false(has_ideograph("FlashAttention"));
	assert_true(has_ideograph("KV Cache 也是 Tensor"));
}

static const struct CMUnitTest tests[] = {
	cmocka_unit_test(test_the_checks_themselves),
	cmocka_unit_test(test_every_lesson_in_chinese),
};

int main(void)
{
	return cmocka_run_group_tests_name("teach_lessons_zh", tests, NULL, NULL);
}
