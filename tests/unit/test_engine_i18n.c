/* The engine's translator (struct engine_tr, docs/i18n.md "The engine stays pure"): with the
 * zh_CN catalogue lent to it, every explanation, warning, roofline verdict and error changes
 * its words and keeps every number: the digit runs of the English and the Chinese text are
 * the same, in the same order. NULL is English, byte for byte as before. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "engine.h"
#include "i18n.h"
#include "testengine.h"
#include "testutil.h"

static const char *zh_gettext(void *ctx, const char *msgid)
{
	(void)ctx;
	return i18n_gettext_in(I18N_ZH, msgid);
}

static const struct engine_tr zh = {zh_gettext, NULL};

/* The compiled-in catalogue, under the C locale as in CI. */
static void load_zh(void)
{
	unsetenv("NAPKIN_LOCALEDIR");
	setenv("LC_ALL", "C", 1);
	i18n_reload();
	assert_true(i18n_count(I18N_ZH) >= 900);
}

/* The runs of ASCII digits of s, space-separated, into out. */
static void digits(const char *s, char *out, size_t n)
{
	size_t o = 0;
	bool in = false;

	for (; *s != '\0' && o + 2 < n; s++) {
		/* a count's suffix as Chinese writes it, 6.738e9 for 6.738 B (e6 M, e12 T): the
		 * exponent is the English suffix, not a number more */
		if (in && *s == 'e') {
			size_t k = s[1] == '1' && s[2] == '2' ? 3 : (s[1] == '6' || s[1] == '9') ? 2 : 0;
			if (k > 0 && !(s[k] >= '0' && s[k] <= '9')) {
				s += k - 1;
				continue;
			}
		}
		if (*s >= '0' && *s <= '9') {
			out[o++] = *s;
			in = true;
		} else if (in) {
			out[o++] = ' ';
			in = false;
		}
	}
	out[o] = '\0';
}

/* Whether s holds a CJK character (U+4E00..U+9FFF: 3-byte UTF-8 sequences E4..E9). */
static bool has_cjk(const char *s)
{
	for (; *s != '\0'; s++)
		if ((unsigned char)*s >= 0xE4 && (unsigned char)*s <= 0xE9)
			return true;
	return false;
}

/* English and Chinese of one text: the same digits, different words. */
static void same_numbers(const char *what, const char *en, const char *cn)
{
	static char de[32768], dz[32768];

	digits(en, de, sizeof de);
	digits(cn, dz, sizeof dz);
	if (strcmp(de, dz) != 0) {
		print_error("%s: the numbers differ\n  en: %s\n  zh: %s\n", what, en, cn);
		fail();
	}
	if (strcmp(en, cn) == 0 || !has_cjk(cn)) {
		print_error("%s: not translated\n  %s\n", what, cn);
		fail();
	}
	if (has_cjk(en)) {
		print_error("%s: Chinese in the English text\n  %s\n", what, en);
		fail();
	}
}

/* English pieces that were once glued into translated sentences: a Chinese explanation holds none */
static void no_glued_english(const char *what, const char *cn)
{
	static const char *const glued[] = {
		"pageable copies are synchronous", "with pinned memory it overlaps", "routed experts", "experts:",
		"LayerNorms (weight", "RMSNorms", "tied to the embedding", "autocast: fp32 residual", "not even one sequence",
		"nothing counted in memory", "at most the window's blocks", "attn out", "standard dense shape", "none fits",
		"no measurement for this card",
	};
	size_t i;

	for (i = 0; i < sizeof glued / sizeof glued[0]; i++)
		if (strstr(cn, glued[i]) != NULL) {
			print_error("%s: English '%s' in the Chinese text\n  %s\n", what, glued[i], cn);
			fail();
		}
}

/* A scenario in both languages: every explanation key, every warning, every verdict. */
static void check_scenario(const char *name, struct engine_scenario *sc)
{
	static struct engine_result ren, rzh;
	static char en[16384], cn[16384];
	struct napkin_err err;
	const char *const *k;
	int i, keys = 0;

	sc->tr = NULL;
	assert_int_equal(engine_evaluate(sc, &ren, &err), NAPKIN_OK);
	sc->tr = &zh;
	assert_int_equal(engine_evaluate(sc, &rzh, &err), NAPKIN_OK);
	/* the translator changes words, never a result */
	assert_true(ren.memory.total == rzh.memory.total && ren.compute.train_seconds == rzh.compute.train_seconds);
	for (k = engine_explain_keys(); *k != NULL; k++, keys++) {
		char what[128];
		sc->tr = NULL;
		assert_true(engine_explain(sc, &ren, *k, en, sizeof en));
		sc->tr = &zh;
		assert_true(engine_explain(sc, &rzh, *k, cn, sizeof cn));
		snprintf(what, sizeof what, "%s: %s", name, *k);
		same_numbers(what, en, cn);
		no_glued_english(what, cn);
		/* the heading's colon is the full-width one in Chinese: "memory.weights：一张 GPU…" */
		{
			char head[96];
			snprintf(head, sizeof head, "%s\xef\xbc\x9a", *k);
			if (strncmp(cn, head, strlen(head)) != 0)
				fail_msg("%s: the Chinese heading is not '%s…': %.60s", what, head, cn);
		}
	}
	assert_true(keys > 40);
	assert_int_equal(ren.n_warnings, rzh.n_warnings);
	for (i = 0; i < ren.n_warnings; i++)
		same_numbers(name, ren.warnings[i], rzh.warnings[i]);
	for (i = 0; i < ENGINE_PT_COUNT; i++) {
		sc->tr = NULL;
		engine_roofline_verdict(sc, &ren, (enum engine_point)i, en, sizeof en);
		sc->tr = &zh;
		engine_roofline_verdict(sc, &rzh, (enum engine_point)i, cn, sizeof cn);
		same_numbers("verdict", en, cn);
	}
}

static void test_explain(void **state)
{
	struct engine_scenario sc;

	(void)state;
	load_zh();
	/* Llama-2-7B on 8 × H100, mixed-bf16, ZeRO-1: the course's scenario */
	engine_scenario_default(&sc);
	check_scenario("default", &sc);
	/* a layout that warns: TP across nodes, a pipeline bubble, sequence parallelism without TP */
	engine_scenario_default(&sc);
	te_set(&sc, "gpus", "64");
	te_set(&sc, "tp", "16");
	te_set(&sc, "pp", "4");
	te_set(&sc, "zero", "3");
	te_set(&sc, "recompute", "full");
	te_set(&sc, "offload", "optimizer");
	check_scenario("tp16 pp4 zero3", &sc);
	/* ZeRO-Infinity: states, master and weights on NVMe */
	engine_scenario_default(&sc);
	te_set(&sc, "zero", "3");
	te_set(&sc, "offload", "nvme-params");
	check_scenario("nvme-params", &sc);
	/* QLoRA fine-tuning, 8-bit Adam, a measured throughput */
	engine_scenario_default(&sc);
	te_set(&sc, "finetune", "qlora");
	te_set(&sc, "optimizer", "adam-8bit");
	te_set(&sc, "tokens_per_s", "20000");
	check_scenario("qlora", &sc);
	/* serving: decode at batch 16, chunked prefill, GQA */
	engine_scenario_default(&sc);
	te_set(&sc, "mode", "infer");
	te_set(&sc, "batch", "16");
	te_set(&sc, "kv_heads", "8");
	te_set(&sc, "prefill_chunk", "512");
	check_scenario("infer", &sc);
	/* the sentences written whole for each case: MoE experts (routed and all), LayerNorms, a tied
	 * LM head, autocast's activations, pageable copies, a model built from its size (its note),
	 * a batch that does not fit at all */
	engine_scenario_default(&sc);
	te_set(&sc, "params", "13B");
	te_set(&sc, "experts", "8");
	te_set(&sc, "top_k", "2");
	te_set(&sc, "norm", "layernorm");
	te_set(&sc, "tied_embeddings", "on");
	te_set(&sc, "precision", "amp-bf16");
	te_set(&sc, "pinned", "off");
	te_set(&sc, "gpus", "1");
	te_set(&sc, "zero", "0");
	check_scenario("moe layernorm tied amp pageable", &sc);
	/* serving with a sliding window: the KV line of the window */
	engine_scenario_default(&sc);
	te_set(&sc, "mode", "infer");
	te_set(&sc, "sliding_window", "1024");
	check_scenario("infer sliding window", &sc);
}

/* Errors of a knob, a unit and the whole scenario, and the adaptation notes. */
static void test_errors(void **state)
{
	static const struct {
		const char *key, *value;
	} bad[] = {
		{"gpu_memory", "80"},      /* has no unit: did you mean 80 GB? */
		{"tp", "0"},               /* out of range */
		{"batch", "2.5"},          /* not a whole number */
		{"precision", "mixd-bf16"}, /* not a choice (did you mean ...) */
		{"flash_attention", "maybe"},
		{"seq", "4m"},             /* m is ambiguous */
	};
	struct engine_scenario sc;
	struct napkin_err en, cn;
	struct engine_notes nen, nzh;
	size_t i;
	int j;

	(void)state;
	load_zh();
	for (i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		engine_scenario_default(&sc);
		assert_int_not_equal(engine_knob_set(&sc, engine_knob_find(bad[i].key), bad[i].value, NULL, &en), NAPKIN_OK);
		engine_scenario_default(&sc);
		sc.tr = &zh;
		assert_int_not_equal(engine_knob_set(&sc, engine_knob_find(bad[i].key), bad[i].value, NULL, &cn), NAPKIN_OK);
		same_numbers(bad[i].key, en.msg, cn.msg);
	}
	/* tp 3 does not divide 32 heads */
	engine_scenario_default(&sc);
	te_set(&sc, "tp", "3");
	te_set(&sc, "gpus", "3");
	assert_int_not_equal(engine_validate(&sc, &en), NAPKIN_OK);
	sc.tr = &zh;
	assert_int_not_equal(engine_validate(&sc, &cn), NAPKIN_OK);
	same_numbers("validate", en.msg, cn.msg);
	/* stepping tp below its minimum, as the explorer's - key does */
	engine_scenario_default(&sc);
	assert_int_not_equal(engine_knob_step(&sc, engine_knob_find("tp"), -1, NULL, &en), NAPKIN_OK);
	sc.tr = &zh;
	assert_int_not_equal(engine_knob_step(&sc, engine_knob_find("tp"), -1, NULL, &cn), NAPKIN_OK);
	same_numbers("step", en.msg, cn.msg);
	/* GPT-2-like context: seq adapts to max_positions 1024 with a note */
	engine_scenario_default(&sc);
	te_set(&sc, "max_positions", "1024");
	engine_adapt(&sc, &nen);
	engine_scenario_default(&sc);
	te_set(&sc, "max_positions", "1024");
	sc.tr = &zh;
	engine_adapt(&sc, &nzh);
	assert_true(nen.n >= 1);
	assert_int_equal(nen.n, nzh.n);
	for (j = 0; j < nen.n; j++)
		same_numbers("note", nen.text[j], nzh.text[j]);
}

/* NULL and a translator with no gettext are English: the msgids themselves. */
static void test_english(void **state)
{
	static const struct engine_tr none = {NULL, NULL};
	static struct engine_result r;
	static char a[16384], b[16384];
	struct engine_scenario sc;
	struct napkin_err err;

	(void)state;
	engine_scenario_default(&sc);
	assert_null(sc.tr);
	assert_int_equal(engine_evaluate(&sc, &r, &err), NAPKIN_OK);
	assert_true(engine_explain(&sc, &r, "memory.weights", a, sizeof a));
	sc.tr = &none;
	assert_true(engine_explain(&sc, &r, "memory.weights", b, sizeof b));
	assert_string_equal(a, b);
	assert_non_null(strstr(a, "memory.weights: the parameters on one GPU\n  formula  params on this GPU"));
}

/* recompute_layers 0 means every layer of a stage: it shows as "all" (全部), and both words
 * are taken back as 0; a count shows as a count */
static void test_zero_all(void **state)
{
	const struct engine_knob *k = engine_knob_find("recompute_layers");
	struct engine_scenario sc;
	struct napkin_err err;
	char buf[64];

	(void)state;
	load_zh();
	assert_non_null(k);
	engine_scenario_default(&sc);
	engine_knob_display(&sc, k, buf, sizeof buf);
	assert_string_equal(buf, "all");
	sc.tr = &zh;
	engine_knob_display(&sc, k, buf, sizeof buf);
	assert_string_equal(buf, "全部");
	assert_int_equal(engine_knob_set(&sc, k, "4", NULL, &err), NAPKIN_OK);
	engine_knob_display(&sc, k, buf, sizeof buf);
	assert_null(strstr(buf, "全部"));
	assert_non_null(strstr(buf, "4"));
	assert_int_equal(engine_knob_set(&sc, k, "全部", NULL, &err), NAPKIN_OK);
	assert_int_equal(sc.recompute_layers, 0);
	sc.tr = NULL;
	assert_int_equal(engine_knob_set(&sc, k, "8", NULL, &err), NAPKIN_OK);
	assert_int_equal(engine_knob_set(&sc, k, "all", NULL, &err), NAPKIN_OK);
	assert_int_equal(sc.recompute_layers, 0);
}

static const struct CMUnitTest tests[] = {
	cmocka_unit_test(test_zero_all),
	cmocka_unit_test(test_explain),
	cmocka_unit_test(test_errors),
	cmocka_unit_test(test_english),
};

TESTUTIL_MAIN("engine_i18n", tests)
