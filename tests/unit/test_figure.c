/*
 * The SVG writer and the figures (src/figure): well-formed documents (every element closed
 * in order, text escaped, invalid UTF-8 dropped), UTF-8 declared with CJK fonts first, the
 * roofline's ridge from H100 SXM's datasheet (989.5 TFLOP/s dense BF16 over 3.35 TB/s:
 * 295 FLOP/B), Chinese words under zh, axis ticks, and a stream error reported, not hidden.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "figure.h"
#include "figure_internal.h"
#include "i18n.h"
#include "testutil.h"

/* The document's elements nest: each </name> closes the last <name> open, and none is
 * left open; no '<' or '&' stands bare in text. Returns NULL or what is wrong. */
static const char *xml_check(const char *s)
{
	static char stack[64][32];
	int depth = 0;
	const char *p = s;

	if (strncmp(s, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n", 39) != 0)
		return "no UTF-8 declaration";
	p = strchr(s, '\n') + 1;
	while (*p) {
		if (*p == '&') {
			if (strncmp(p, "&amp;", 5) && strncmp(p, "&lt;", 4) && strncmp(p, "&gt;", 4) && strncmp(p, "&quot;", 6) &&
			    strncmp(p, "&apos;", 6))
				return "a bare &";
			p++;
		} else if (*p == '<') {
			const char *end = strchr(p, '>'), *q;
			size_t n;
			if (end == NULL)
				return "a tag never ends";
			for (q = p + 1; q < end; q++)
				if (*q == '<')
					return "a < inside a tag";
			if (p[1] == '/') {
				n = (size_t)(end - p - 2);
				if (depth == 0 || strlen(stack[depth - 1]) != n || strncmp(stack[depth - 1], p + 2, n) != 0)
					return "a close tag that does not match";
				depth--;
			} else if (end[-1] != '/') {
				n = strcspn(p + 1, " >");
				if (depth == 64 || n >= 32)
					return "too deep";
				memcpy(stack[depth], p + 1, n);
				stack[depth++][n] = '\0';
			}
			p = end + 1;
		} else {
			p++;
		}
	}
	return depth == 0 ? NULL : "an element left open";
}

static void h100(struct engine_scenario *sc, struct engine_result *r)
{
	struct napkin_err err;

	engine_scenario_default(sc);
	/* H100 SXM5 datasheet (NVIDIA, 2023): 989.5 TFLOP/s dense BF16, 67 FP32, 3.35 TB/s HBM3 */
	sc->gpu.peak[ENGINE_DT_BF16] = 989.5e12;
	sc->gpu.peak[ENGINE_DT_FP32] = 67e12;
	sc->gpu.bandwidth = 3.35e12;
	snprintf(sc->gpu.name, sizeof sc->gpu.name, "H100 <SXM> & \"co\" \xff\xfe");
	util_err_clear(&err);
	assert_int_equal(engine_evaluate(sc, r, &err), NAPKIN_OK);
}

static char *draw(int (*fn)(FILE *, const struct engine_scenario *, const struct engine_result *),
		  const struct engine_scenario *sc, const struct engine_result *r)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	assert_non_null(f);
	assert_int_equal(fn(f, sc, r), NAPKIN_OK);
	assert_int_equal(fclose(f), 0);
	return buf;
}

static void test_roofline_wellformed(void **state)
{
	struct engine_scenario sc;
	struct engine_result r;
	const char *why;
	char *doc;

	(void)state;
	i18n_set(I18N_EN);
	h100(&sc, &r);
	doc = draw(figure_roofline, &sc, &r);
	why = xml_check(doc);
	if (why != NULL)
		fail_msg("%s", why);
	assert_non_null(strstr(doc, "H100 &lt;SXM&gt; &amp; &quot;co&quot;"));
	assert_null(strchr(doc, '\xff')); /* not UTF-8: dropped */
	assert_non_null(strstr(doc, "font-family=\"'Noto Sans CJK SC'"));
	assert_non_null(strstr(doc, "WenQuanYi Micro Hei"));
	assert_non_null(strstr(doc, "ridge 295 FLOP/B"));
	assert_non_null(strstr(doc, "bf16 peak 989.5 TFLOP/s"));
	assert_non_null(strstr(doc, "fp32 peak 67 TFLOP/s"));
	assert_non_null(strstr(doc, "memory bandwidth 3.35 TB/s"));
	assert_non_null(strstr(doc, "data-name=\"decode\""));
	free(doc);
}

static void test_memory_wellformed_zh(void **state)
{
	struct engine_scenario sc;
	struct engine_result r;
	const char *why;
	char *doc;

	(void)state;
	i18n_set(I18N_ZH);
	h100(&sc, &r);
	doc = draw(figure_memory, &sc, &r);
	why = xml_check(doc);
	if (why != NULL)
		fail_msg("%s", why);
	assert_non_null(strstr(doc, "lang=\"zh-CN\""));
	assert_non_null(strstr(doc, "每张 GPU 的显存"));
	assert_non_null(strstr(doc, "权重"));
	free(doc);
	doc = draw(figure_roofline, &sc, &r);
	assert_non_null(strstr(doc, "算术强度"));
	assert_non_null(strstr(doc, "转折点 295 FLOP/B"));
	free(doc);
	i18n_set(I18N_EN);
}

static void test_escape(void **state)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	(void)state;
	/* 2-, 3- and 4-byte sequences kept; a lone continuation byte, a truncated sequence at
	 * the end and a control character dropped */
	svg_escape(f, "a<b>&'\"\x01 \xc3\xa9 \xe6\x98\xbe \xf0\x9f\x99\x82 \x80 \xe6\x98");
	fclose(f);
	assert_string_equal(buf, "a&lt;b&gt;&amp;&apos;&quot; \xc3\xa9 \xe6\x98\xbe \xf0\x9f\x99\x82  ");
	free(buf);
}

static void test_ticks(void **state)
{
	struct figure_axis a = {0.1, 1e4, 0, 100, true};
	double t[32];
	int n;

	(void)state;
	n = figure_axis_ticks(&a, t, 32);
	assert_int_equal(n, 6);
	assert_close(t[0], 0.1, 1e-12);
	assert_close(t[5], 1e4, 1e-12);
	assert_close(figure_axis_pos(&a, 10), 40, 1e-12); /* 10 is two of the five decades from 0.1 */
	a = (struct figure_axis){0, 2000, 0, 100, false};
	n = figure_axis_ticks(&a, t, 32);
	assert_int_equal(n, 5);
	assert_close(t[1], 500, 1e-12);
	{
		double lo = 53.8, hi = 1610;
		figure_axis_nice(&lo, &hi);
		assert_close(lo, 0, 1e-12);
		assert_close(hi, 2000, 1e-12);
	}
}

static void test_kinds(void **state)
{
	enum figure_kind k;

	(void)state;
	assert_true(figure_kind_parse("heatmap", &k));
	assert_int_equal(k, FIGURE_HEATMAP);
	assert_string_equal(figure_kind_name(FIGURE_MEMORY), "memory");
	assert_false(figure_kind_parse("pie", &k));
	assert_false(figure_kind_parse(NULL, &k));
}

static void test_stream_error(void **state)
{
	struct engine_scenario sc;
	struct engine_result r;
	FILE *f = fopen("/dev/null", "r"); /* every write fails */

	(void)state;
	h100(&sc, &r);
	assert_non_null(f);
	assert_int_equal(figure_roofline(f, &sc, &r), NAPKIN_EIO);
	fclose(f);
}

int main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_roofline_wellformed), cmocka_unit_test(test_memory_wellformed_zh),
		cmocka_unit_test(test_escape),              cmocka_unit_test(test_ticks),
		cmocka_unit_test(test_kinds),               cmocka_unit_test(test_stream_error),
	};
	return testutil_run(argc, argv, "figure", tests, sizeof tests / sizeof tests[0]);
}
