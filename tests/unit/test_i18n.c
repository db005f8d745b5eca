/* i18n: language codes and the environment as GNU gettext reads them; the .mo reader
 * against catalogues built here byte by byte from the format's definition (GNU gettext
 * manual, "The Format of GNU MO Files"), in both byte orders, and refusing broken ones;
 * the compiled-in zh_CN catalogue; display widths of CJK text without a locale. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "i18n.h"
#include "i18n_fmt.h"
#include "testutil.h"
#include "util.h"

static void test_codes(void **state)
{
	static const struct {
		const char *code;
		bool known;
		enum i18n_lang lang;
	} cases[] = {
		{"en", true, I18N_EN},          {"en_US.UTF-8", true, I18N_EN}, {"C", true, I18N_EN},
		{"C.UTF-8", true, I18N_EN},     {"POSIX", true, I18N_EN},       {"zh", true, I18N_ZH},
		{"zh_CN", true, I18N_ZH},       {"zh-CN", true, I18N_ZH},       {"zh_CN.UTF-8", true, I18N_ZH},
		{"zh_TW.UTF-8", true, I18N_ZH}, {"ZH_cn", true, I18N_ZH},       {"fr_FR", false, I18N_EN},
		{"pt-BR", false, I18N_EN},      {"", false, I18N_EN},           {"zhongwen", false, I18N_EN},
	};
	size_t i;
	enum i18n_lang l;

	(void)state;
	for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		bool known = i18n_lang_parse(cases[i].code, &l);
		if (known != cases[i].known || l != cases[i].lang)
			fail_msg("'%s': known %d lang %d", cases[i].code, known, (int)l);
	}
	assert_false(i18n_lang_parse(NULL, &l));
	assert_string_equal(i18n_code(I18N_ZH), "zh");
}

static void env(const char *language, const char *lc_all, const char *lc_messages, const char *lang)
{
	const char *v[4] = {language, lc_all, lc_messages, lang}, *names[4] = {"LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG"};
	int i;

	for (i = 0; i < 4; i++)
		if (v[i] != NULL)
			setenv(names[i], v[i], 1);
		else
			unsetenv(names[i]);
}

static void test_environment(void **state)
{
	(void)state;
	env(NULL, NULL, NULL, NULL);
	assert_int_equal(i18n_from_env(), I18N_EN);
	env(NULL, NULL, NULL, "zh_CN.UTF-8");
	assert_int_equal(i18n_from_env(), I18N_ZH);
	/* LC_ALL before LC_MESSAGES before LANG */
	env(NULL, "en_US.UTF-8", "zh_CN.UTF-8", "zh_CN.UTF-8");
	assert_int_equal(i18n_from_env(), I18N_EN);
	env(NULL, NULL, "zh_CN.UTF-8", "en_US.UTF-8");
	assert_int_equal(i18n_from_env(), I18N_ZH);
	/* an empty variable is unset */
	env(NULL, "", NULL, "zh_CN.UTF-8");
	assert_int_equal(i18n_from_env(), I18N_ZH);
	/* LANGUAGE first, its first known entry; ignored under the C locale, as gettext does */
	env("fr:zh_CN:en", NULL, NULL, "en_US.UTF-8");
	assert_int_equal(i18n_from_env(), I18N_ZH);
	env("zh_CN", NULL, NULL, "C.UTF-8");
	assert_int_equal(i18n_from_env(), I18N_EN);
	env("zh_CN", NULL, NULL, NULL);
	assert_int_equal(i18n_from_env(), I18N_EN);
	env(NULL, NULL, NULL, NULL);
}

/* A .mo of the given (msgid, msgstr) pairs, sorted as msgfmt sorts them, in the byte
 * order asked: magic, revision, N, offset of originals, offset of translations, hash
 * size 0, hash offset; then the two tables of (length, offset), then the strings. */
struct pair {
	const char *id;
	size_t id_len; /* with embedded NULs for plurals */
	const char *str;
	size_t str_len;
};

static void put32(unsigned char *p, uint32_t v, bool big)
{
	int i;
	for (i = 0; i < 4; i++)
		p[big ? 3 - i : i] = (unsigned char)(v >> (8 * i));
}

static size_t build_mo(unsigned char *out, const struct pair *p, uint32_t n, bool big)
{
	uint32_t i, at = 28 + 16 * n;

	put32(out, 0x950412deu, big);
	put32(out + 4, 0, big);
	put32(out + 8, n, big);
	put32(out + 12, 28, big);
	put32(out + 16, 28 + 8 * n, big);
	put32(out + 20, 0, big);
	put32(out + 24, at, big);
	for (i = 0; i < n; i++) {
		put32(out + 28 + 8 * i, (uint32_t)p[i].id_len, big);
		put32(out + 32 + 8 * i, at, big);
		memcpy(out + at, p[i].id, p[i].id_len + 1);
		at += (uint32_t)p[i].id_len + 1;
	}
	for (i = 0; i < n; i++) {
		put32(out + 28 + 8 * n + 8 * i, (uint32_t)p[i].str_len, big);
		put32(out + 32 + 8 * n + 8 * i, at, big);
		memcpy(out + at, p[i].str, p[i].str_len + 1);
		at += (uint32_t)p[i].str_len + 1;
	}
	return at;
}

static char dir[64];

static void write_mo(const unsigned char *mo, size_t n)
{
	char path[128];
	FILE *f;

	snprintf(path, sizeof path, "%s/zh_CN/LC_MESSAGES/napkin.mo", dir);
	f = fopen(path, "wb");
	assert_non_null(f);
	assert_int_equal(fwrite(mo, 1, n, f), n);
	fclose(f);
	setenv("NAPKIN_LOCALEDIR", dir, 1);
	i18n_reload();
}

static void test_reader(void **state)
{
	static const char header[] = "Content-Type: text/plain; charset=UTF-8\nPlural-Forms: nplurals=1; plural=0;\n";
	const struct pair p[] = {
		{"", 0, header, sizeof header - 1},
		{"%d GPU\0%d GPUs", 14, "%d 张 GPU", strlen("%d 张 GPU")},
		{"Memory per GPU", 14, "每 GPU 显存", strlen("每 GPU 显存")},
		{"untranslated", 12, "", 0},
	};
	unsigned char mo[1024];
	char path[128];
	size_t n;
	int big;

	(void)state;
	snprintf(dir, sizeof dir, "/tmp/napkin-i18n-%d", (int)getpid());
	snprintf(path, sizeof path, "mkdir -p %s/zh_CN/LC_MESSAGES", dir);
	assert_int_equal(system(path), 0);
	for (big = 0; big < 2; big++) {
		n = build_mo(mo, p, 4, big);
		write_mo(mo, n);
		i18n_set(I18N_ZH);
		assert_int_equal(i18n_count(I18N_ZH), 3);
		assert_string_equal(_("Memory per GPU"), "每 GPU 显存");
		assert_string_equal(_("not in it"), "not in it");
		assert_string_equal(_("untranslated"), "untranslated"); /* empty msgstr: the msgid */
		assert_string_equal(_(""), "");
		/* one form in Chinese, for every n */
		assert_string_equal(P_("%d GPU", "%d GPUs", 1), "%d 张 GPU");
		assert_string_equal(P_("%d GPU", "%d GPUs", 8), "%d 张 GPU");
		assert_string_equal(P_("%d layer", "%d layers", 8), "%d layers");
		assert_string_equal(i18n_gettext_in(I18N_EN, "Memory per GPU"), "Memory per GPU");
		i18n_set(I18N_EN);
		assert_string_equal(_("Memory per GPU"), "Memory per GPU");
		assert_string_equal(P_("%d GPU", "%d GPUs", 1), "%d GPU");
		assert_string_equal(P_("%d GPU", "%d GPUs", 2), "%d GPUs");
	}
	/* a string that runs past the end of the file: the catalogue is refused, not read */
	n = build_mo(mo, p, 4, false);
	put32(mo + 28 + 8 * 4 + 8 * 2, 4000, false);
	write_mo(mo, n);
	i18n_set(I18N_ZH);
	assert_string_equal(_("Memory per GPU"), "Memory per GPU");
	assert_int_equal(i18n_count(I18N_ZH), 0);
	/* a wrong magic number, and a file cut short */
	n = build_mo(mo, p, 4, false);
	mo[0] ^= 0xff;
	write_mo(mo, n);
	assert_string_equal(_("Memory per GPU"), "Memory per GPU");
	write_mo(mo, 20);
	assert_string_equal(_("Memory per GPU"), "Memory per GPU");
	snprintf(path, sizeof path, "rm -rf %s", dir);
	assert_int_equal(system(path), 0);
	unsetenv("NAPKIN_LOCALEDIR");
	i18n_reload();
	i18n_set(I18N_EN);
}

/* A message with a context (pgettext): the .mo keys it "context\004msgid", apart from the same
 * msgid without one (GNU gettext manual, "Contexts"). */
static void test_context(void **state)
{
	static const char header[] = "Content-Type: text/plain; charset=UTF-8\nPlural-Forms: nplurals=1; plural=0;\n";
	const struct pair p[] = {
		{"", 0, header, sizeof header - 1},
		{"count\004GPU\0GPUs", 14, "张 GPU", strlen("张 GPU")}, /* a plural in a context */
		{"memory", 6, "Memory-Bound", 12},
		{"pane\004memory", 11, "显存", strlen("显存")},
	};
	unsigned char mo[512];
	char path[128];

	(void)state;
	snprintf(dir, sizeof dir, "/tmp/napkin-i18n-ctx-%d", (int)getpid());
	snprintf(path, sizeof path, "mkdir -p %s/zh_CN/LC_MESSAGES", dir);
	assert_int_equal(system(path), 0);
	write_mo(mo, build_mo(mo, p, 4, false));
	i18n_set(I18N_ZH);
	/* npgettext: the context's plural, not the word alone; English forms where none */
	assert_string_equal(CP_("count", "GPU", "GPUs", 8), "张 GPU");
	assert_string_equal(CP_("count", "GPU", "GPUs", 1), "张 GPU");
	assert_string_equal(CP_("row", "GPU", "GPUs", 8), "GPUs");
	assert_string_equal(_("GPU"), "GPU");
	assert_string_equal(C_("pane", "memory"), "显存");
	assert_string_equal(_("memory"), "Memory-Bound");
	assert_string_equal(C_("row", "memory"), "memory"); /* no such context: the msgid */
	assert_string_equal(NC_("pane", "memory"), "memory");
	i18n_set(I18N_EN);
	assert_string_equal(C_("pane", "memory"), "memory");
	assert_string_equal(CP_("count", "GPU", "GPUs", 1), "GPU");
	assert_string_equal(CP_("count", "GPU", "GPUs", 2), "GPUs");
	snprintf(path, sizeof path, "rm -rf %s", dir);
	assert_int_equal(system(path), 0);
	unsetenv("NAPKIN_LOCALEDIR");
	i18n_reload();
}

/* printf's argument types (C11 7.21.6.1; GNU msgfmt --check's rule for c-format): the
 * translation may move flags, widths and precisions, and number its arguments, but must read
 * the same arguments of the same types as the msgid. */
static void test_format_rule(void **state)
{
	static const struct {
		const char *id, *str;
		enum i18n_fmt_why why;
	} cases[] = {
		{"%s of %s", "%2$s 的 %1$s", I18N_FMT_SAME},
		{"%s then %d", "%2$d 然后 %1$s", I18N_FMT_SAME},
		{"%s then %lld", "%2$d 然后 %1$s", I18N_FMT_TYPE},
		{"%.1f%% done", "完成 %.3f%%", I18N_FMT_SAME},
		{"%d items", "%5i 项", I18N_FMT_SAME},         /* d and i read the same int */
		{"%x bytes", "%u 字节", I18N_FMT_SAME},         /* o u x X: one unsigned int */
		{"%d items", "%u 项", I18N_FMT_TYPE},           /* signed and unsigned are two types */
		{"%g s", "%e 秒", I18N_FMT_SAME},
		{"%.*s cut", "%.*s 截断", I18N_FMT_SAME},
		{"%.*s cut", "%s 截断", I18N_FMT_COUNT},        /* the precision is an int argument */
		{"%.*s cut", "%d%s 截断", I18N_FMT_SAME},       /* an int then a string all the same */
		{"%*s pad", "%-*s 填", I18N_FMT_SAME},
		{"%s here", "%d 这里", I18N_FMT_TYPE},
		{"%zu layers", "%s 层", I18N_FMT_TYPE},
		{"%zu layers", "%lu 层", I18N_FMT_TYPE},        /* size_t is not unsigned long to printf's rule */
		{"%lld tokens", "%ld 词元", I18N_FMT_TYPE},
		{"extra %s", "多 %s %s", I18N_FMT_COUNT},
		{"missing %s and %d", "缺 %s", I18N_FMT_COUNT},
		{"plain", "纯文本 %s", I18N_FMT_COUNT},
		{"plain", "100%% 纯", I18N_FMT_SAME},
		{"write %s", "写 %s%n", I18N_FMT_BAD},
		{"one %s", "一 %y", I18N_FMT_BAD},
		{"one %s", "一 %1$s %s", I18N_FMT_MIXED},
		{"two %s %s", "二 %2$s", I18N_FMT_BAD},         /* argument 1 skipped */
		{"utf8 %s", "坏 %s %\xff", I18N_FMT_UTF8},
		{"utf8 %s", "坏 %\xc3\x28s", I18N_FMT_UTF8},
		{"not a format: 40%)", "不是格式：40%）", I18N_FMT_SAME},
		{"GPU %", "GPU %", I18N_FMT_SAME},
		{"GPU %", "GPU %s", I18N_FMT_COUNT},
		{"GPU %", "GPU %\xfe", I18N_FMT_UTF8},
		{"%1$s%2$s / %3$s %4$s · %5$s%6$s ", "%1$s%2$s / %3$s %4$s · %6$s%5$s ", I18N_FMT_SAME},
	};
	struct i18n_fmt_verdict v;
	size_t i;

	(void)state;
	for (i = 0; i < sizeof cases / sizeof cases[0]; i++)
		if (i18n_fmt_check(cases[i].id, cases[i].str, &v) != (cases[i].why == I18N_FMT_SAME) || v.why != cases[i].why)
			fail_msg("'%s' → '%s': why %d, expected %d", cases[i].id, cases[i].str, (int)v.why, (int)cases[i].why);
	assert_false(i18n_fmt_check("Memory per GPU: %s", "每 GPU 显存：%d", &v));
	assert_int_equal(v.arg, 1);
	assert_string_equal(v.what, "%d");
	assert_string_equal(v.want_text, "%s");
}

static int pair_cmp(const void *a, const void *b)
{
	return strcmp(((const struct pair *)a)->id, ((const struct pair *)b)->id);
}

/* A catalogue whose translations read other arguments than their msgids: each such message
 * is English (printf would read a pointer that is not one), the others are translated, and
 * each refusal is a warning naming the message and why. */
static void test_format_refused(void **state)
{
	static const char header[] = "Content-Type: text/plain; charset=UTF-8\nPlural-Forms: nplurals=1; plural=0;\n";
#define PAIR(id, str) {id, sizeof id - 1, str, sizeof str - 1}
	struct pair p[] = {
		{"", 0, header, sizeof header - 1},
		PAIR("%d GPU\0%d GPUs", "%s 张 GPU"),              /* a plural form: %d → %s */
		PAIR("%d layer\0%d layers", "%d 层"),                /* a plural form, right */
		PAIR("Memory per GPU: %s", "每 GPU 显存：%d"),       /* %s → %d */
		PAIR("%zu layers kept", "保留 %s 层"),               /* %zu → %s */
		PAIR("extra %s", "多 %s %s"),                         /* one more conversion */
		PAIR("missing %s and %d", "缺 %s"),                   /* one fewer */
		PAIR("%.*s cut", "%s 截断"),                          /* the precision argument lost */
		PAIR("%.*s kept", "保留 %.*s"),                       /* right */
		PAIR("bad byte %s", "坏字节 %\xff"),                  /* not UTF-8 inside a directive */
		PAIR("%s of %s", "%2$s 的 %1$s"),                     /* numbered: right */
		PAIR("Memory per GPU", "每 GPU 显存"),
	};
	const char *bad[] = {"%d GPU", "Memory per GPU: %s", "%zu layers kept", "extra %s", "missing %s and %d",
			     "%.*s cut", "bad byte %s"};
	unsigned char mo[2048];
	char path[128], w[512];
	size_t i, j, nw;

	(void)state;
	qsort(p + 1, sizeof p / sizeof p[0] - 1, sizeof p[0], pair_cmp);
	snprintf(dir, sizeof dir, "/tmp/napkin-i18n-fmt-%d", (int)getpid());
	snprintf(path, sizeof path, "mkdir -p %s/zh_CN/LC_MESSAGES", dir);
	assert_int_equal(system(path), 0);
	write_mo(mo, build_mo(mo, p, (uint32_t)(sizeof p / sizeof p[0]), false));
	i18n_set(I18N_ZH);
	assert_string_equal(P_("%d GPU", "%d GPUs", 8), "%d GPUs");
	assert_string_equal(P_("%d layer", "%d layers", 8), "%d 层");
	assert_string_equal(_("Memory per GPU: %s"), "Memory per GPU: %s");
	assert_string_equal(_("%zu layers kept"), "%zu layers kept");
	assert_string_equal(_("extra %s"), "extra %s");
	assert_string_equal(_("missing %s and %d"), "missing %s and %d");
	assert_string_equal(_("%.*s cut"), "%.*s cut");
	assert_string_equal(_("%.*s kept"), "保留 %.*s");
	assert_string_equal(_("bad byte %s"), "bad byte %s");
	assert_string_equal(_("%s of %s"), "%2$s 的 %1$s");
	assert_string_equal(_("Memory per GPU"), "每 GPU 显存");
	/* one warning a refused message, each naming it */
	i18n_set(I18N_EN);
	for (nw = 0; i18n_warning(I18N_ZH, nw, w, sizeof w) != NULL; nw++) {
		assert_non_null(strstr(w, "/zh_CN/LC_MESSAGES/napkin.mo: the translation of \""));
		assert_non_null(strstr(w, "is not used (English instead)"));
	}
	assert_int_equal(nw, sizeof bad / sizeof bad[0]);
	for (i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		char want[80];
		snprintf(want, sizeof want, "\"%s\"", bad[i]);
		for (j = 0; j < nw; j++)
			if (strstr(i18n_warning(I18N_ZH, j, w, sizeof w), want) != NULL)
				break;
		if (j == nw)
			fail_msg("no warning names %s", want);
		if (strcmp(bad[i], "Memory per GPU: %s") == 0)
			assert_non_null(strstr(w, ": argument 1 is %d in the translation but %s in the original"));
		if (strcmp(bad[i], "bad byte %s") == 0)
			assert_non_null(strstr(w, ": bytes that are not UTF-8 inside a % conversion"));
		if (strcmp(bad[i], "missing %s and %d") == 0)
			assert_non_null(strstr(w, ": it reads 1 arguments, the original 2"));
	}
	/* a catalogue refused whole says so, and why; none there, the built-in one, saying so */
	write_mo(mo, 20);
	assert_non_null(i18n_warning(I18N_ZH, 0, w, sizeof w));
	assert_non_null(strstr(w, "/zh_CN/LC_MESSAGES/napkin.mo is refused: shorter than a .mo header; English is used"));
	assert_null(i18n_warning(I18N_ZH, 1, w, sizeof w));
	snprintf(path, sizeof path, "rm -rf %s", dir);
	assert_int_equal(system(path), 0);
	i18n_reload();
	assert_non_null(i18n_warning(I18N_ZH, 0, w, sizeof w));
	assert_non_null(strstr(w, "NAPKIN_LOCALEDIR: no catalogue "));
	assert_non_null(strstr(w, "; the built-in one is used"));
	assert_null(i18n_warning(I18N_EN, 0, w, sizeof w)); /* English needs none */
	unsetenv("NAPKIN_LOCALEDIR");
	i18n_reload();
	/* the shipped catalogue passes its own check (msgfmt --check made it) */
	assert_null(i18n_warning(I18N_ZH, 0, w, sizeof w));
	i18n_set(I18N_EN);
#undef PAIR
}

/* The catalogue compiled in: Chinese with no file and under the C locale. */
static void test_builtin(void **state)
{
	(void)state;
	unsetenv("NAPKIN_LOCALEDIR");
	setenv("LC_ALL", "C", 1);
	i18n_reload();
	assert_true(i18n_count(I18N_ZH) >= 100);
	i18n_set(I18N_ZH);
	assert_string_equal(_("this help"), "本帮助");
	/* a context keeps two meanings of one English word apart (msgctxt) */
	assert_string_equal(C_("moves", "memory"), "显存");
	assert_string_equal(_("memory"), "Memory-Bound");
	assert_string_equal(C_("no such context", "this help"), "this help");
	i18n_set(I18N_EN);
	assert_string_equal(_("this help"), "this help");
	assert_string_equal(C_("moves", "memory"), "memory");
	unsetenv("LC_ALL");
}

static void test_width(void **state)
{
	char buf[32];

	(void)state;
	assert_int_equal(util_text_width("GPU"), 3);
	assert_int_equal(util_text_width("显存"), 4);            /* two CJK characters, two columns each */
	assert_int_equal(util_text_width("每 GPU 显存："), 13); /* 2+1+3+1+4, and the fullwidth colon 2 */
	assert_int_equal(util_text_width("e\xcc\x81"), 1);       /* e + combining acute */
	assert_int_equal(util_text_width("\xe6\x98"), 2);         /* a cut sequence: two U+FFFD */
	/* never mid-character: 3 columns of 显存 hold one character (3 bytes) */
	assert_int_equal(util_text_fit("显存abc", 3, NULL), 3);
	assert_int_equal(util_text_fit("显存abc", 5, NULL), 7);
	assert_string_equal(util_text_pad(buf, sizeof buf, "显存", 6), "显存  ");
	assert_string_equal(util_text_pad(buf, sizeof buf, "显存", 3), "显 ");
	assert_string_equal(util_text_pad(buf, sizeof buf, "ab", 4), "ab  ");
	/* a buffer too small: cut at a character boundary, never half of one */
	assert_string_equal(util_text_pad(buf, 5, "显存", 8), "显 ");
}

/* Where a line breaks (util_text_break): at a space, between Chinese characters but never
 * before a closing mark, a word too long cut at a character, always some progress. */
static void test_break(void **state)
{
	size_t w = 99;

	(void)state;
	assert_int_equal(util_text_break("weights 14.96 GiB", 80, &w), 17); /* it fits: all of it */
	assert_int_equal(w, 17);
	assert_int_equal(util_text_break("fp32 to bf16 weights", 13, &w), 12); /* "fp32 to bf16" */
	assert_int_equal(w, 12);
	assert_int_equal(util_text_break("weights 14.96 GiB", 12, &w), 7); /* "weights": the space trimmed */
	assert_int_equal(w, 7);
	assert_int_equal(util_text_break("weights 14.96 GiB", 16, &w), 7); /* a number keeps its unit */
	assert_int_equal(util_text_break("246 · per GPU", 7, &w), 6); /* "246 ·": never before the · */
	assert_int_equal(w, 5);
	assert_int_equal(util_text_break("  indent kept", 8, &w), 8); /* the leading spaces are no break */
	assert_int_equal(util_text_break("abcdefghij", 4, &w), 4);    /* one long word: cut */
	assert_int_equal(util_text_break("显存显存", 5, &w), 6);        /* between two characters: 显存 */
	assert_int_equal(w, 4);
	assert_int_equal(util_text_break("显存，余量", 5, &w), 3);      /* not before the comma: 显 */
	assert_int_equal(w, 2);
	assert_int_equal(util_text_break("显", 1, &w), 3); /* wider than the line: one character anyway */
	assert_int_equal(util_text_break("", 10, &w), 0);
	assert_int_equal(w, 0);
}

/* The width of text output (util_term_width): COLUMNS when it is a number of columns, else a
 * terminal's (none here: a file), else 80. */
static void test_term_width(void **state)
{
	FILE *f = tmpfile();

	(void)state;
	assert_non_null(f);
	setenv("COLUMNS", "132", 1);
	assert_int_equal(util_term_width(fileno(f)), 132);
	setenv("COLUMNS", "80x", 1);
	assert_int_equal(util_term_width(fileno(f)), 80);
	setenv("COLUMNS", "0", 1);
	assert_int_equal(util_term_width(fileno(f)), 80);
	setenv("COLUMNS", "-60", 1);
	assert_int_equal(util_term_width(fileno(f)), 80);
	setenv("COLUMNS", "45", 1);
	assert_int_equal(util_term_width(fileno(f)), 45);
	unsetenv("COLUMNS");
	assert_int_equal(util_term_width(fileno(f)), 80); /* a file: git's and ls's 80 */
	fclose(f);
}

/* The file errors (fileio.c) speak the language: a write beside a missing directory, a directory
 * read as a file, a file over the limit; the path and the system's reason stay as they are. */
static void test_fileio(void **state)
{
	struct napkin_err err;
	char *text = NULL;
	char tdir[] = "/tmp/napkin-i18n-XXXXXX", path[256];
	FILE *f;

	(void)state;
	assert_non_null(mkdtemp(tdir));
	unsetenv("NAPKIN_LOCALEDIR");
	i18n_reload();
	snprintf(path, sizeof path, "%s/no-such-dir/s.yaml", tdir);
	i18n_set(I18N_EN);
	util_err_clear(&err);
	assert_int_equal(util_atomic_write(path, "x", 1, &err), NAPKIN_EIO);
	assert_non_null(strstr(err.msg, "s.yaml: cannot create a temporary file beside it: "));
	i18n_set(I18N_ZH);
	util_err_clear(&err);
	assert_int_equal(util_atomic_write(path, "x", 1, &err), NAPKIN_EIO);
	assert_non_null(strstr(err.msg, "/no-such-dir/s.yaml：无法在它旁边创建临时文件："));
	assert_null(strstr(err.msg, "cannot create"));
	util_err_clear(&err);
	assert_int_not_equal(util_read_file(tdir, 1024, &text, NULL, &err), NAPKIN_OK);
	assert_string_equal(err.msg, "这是目录，不是文件");
	snprintf(path, sizeof path, "%s/big", tdir);
	f = fopen(path, "w");
	assert_non_null(f);
	fputs("0123456789", f);
	fclose(f);
	util_err_clear(&err);
	assert_int_equal(util_read_file(path, 4, &text, NULL, &err), NAPKIN_ELIMIT);
	assert_string_equal(err.msg, "文件超过 4 字节");
	i18n_set(I18N_EN);
	util_err_clear(&err);
	assert_int_equal(util_read_file(path, 4, &text, NULL, &err), NAPKIN_ELIMIT);
	assert_string_equal(err.msg, "file is larger than 4 bytes");
	assert_null(text);
	unlink(path);
	rmdir(tdir);
}

static const struct CMUnitTest tests[] = {
	cmocka_unit_test(test_codes),   cmocka_unit_test(test_environment), cmocka_unit_test(test_reader),
	cmocka_unit_test(test_context), cmocka_unit_test(test_format_rule), cmocka_unit_test(test_format_refused),
	cmocka_unit_test(test_builtin), cmocka_unit_test(test_width),   cmocka_unit_test(test_break),
	cmocka_unit_test(test_term_width),   cmocka_unit_test(test_fileio),
};

TESTUTIL_MAIN("i18n", tests)
