/* The knob table: parsing, canonical text that parses back, stepping, errors that name the
 * knob and what is allowed, and all-or-nothing application in table order. */
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "engine.h"
#include "testutil.h"

static void test_every_knob_round_trips(void **state)
{
	size_t n, i;
	const struct engine_knob *k = engine_knobs(&n);
	struct engine_scenario sc, t;
	struct napkin_err err;
	char a[128], b[128], allowed[400];

	(void)state;
	assert_true(n >= 50);
	engine_scenario_default(&sc);
	assert_int_equal(engine_validate(&sc, &err), 0);
	for (i = 0; i < n; i++) {
		engine_knob_format(&sc, &k[i], a, sizeof a);
		engine_knob_allowed(&k[i], allowed, sizeof allowed);
		assert_true(strlen(allowed) > 0);
		assert_non_null(k[i].help);
		assert_non_null(k[i].label);
		assert_ptr_equal(engine_knob_find(k[i].key), &k[i]);
		if (a[0] == '\0' || (k[i].flags & ENGINE_KNOB_ZERO_UNSET))
			continue;
		t = sc;
		if (engine_knob_set(&t, &k[i], a, NULL, &err) != 0) {
			print_error("%s=%s: %s\n", k[i].key, a, err.msg);
			fail();
		}
		engine_knob_format(&t, &k[i], b, sizeof b);
		assert_string_equal(a, b);
	}
}

/* The range a knob's message shows is the one it enforces: each bound shown parses back to
 * the bound, a closed bound is accepted, an open one refused, and just outside is refused
 * ("--mfu 0" said "allowed: 0.0% to 100.0%" and refused 0). */
static const char *unit_suffix(enum engine_unit u)
{
	switch (u) {
	case ENGINE_UNIT_BYTES: return " B";
	case ENGINE_UNIT_BYTES_PER_S: return " B/s";
	case ENGINE_UNIT_FLOP_PER_S: return " FLOP/s";
	default: return "";
	}
}

static bool shown_bound(const struct engine_knob *k, const char *text, double *v)
{
	return engine_unit_parse(k->unit, text, v, NULL) == 0 || engine_unit_parse(ENGINE_UNIT_COUNT, text, v, NULL) == 0;
}

static void test_ranges_shown_are_enforced(void **state)
{
	size_t n, i;
	const struct engine_knob *k = engine_knobs(&n);
	struct engine_scenario sc;
	struct napkin_err err;
	char allowed[400], lo[120], hi[120], text[80];

	(void)state;
	for (i = 0; i < n; i++) {
		const char *sep, *start = allowed;
		char *paren;
		double v;
		bool open = (k[i].flags & ENGINE_KNOB_MIN_OPEN) != 0;

		if ((k[i].type != ENGINE_KNOB_INT && k[i].type != ENGINE_KNOB_REAL) || strcmp(k[i].key, "params") == 0)
			continue;
		engine_knob_allowed(&k[i], allowed, sizeof allowed);
		if (open) {
			assert_int_equal(strncmp(allowed, "more than ", 10), 0);
			start = allowed + 10;
			sep = strstr(start, ", up to ");
			assert_non_null(sep);
			snprintf(lo, sizeof lo, "%.*s", (int)(sep - start), start);
			snprintf(hi, sizeof hi, "%s", sep + 8);
		} else {
			sep = strstr(allowed, " to ");
			assert_non_null(sep);
			snprintf(lo, sizeof lo, "%.*s", (int)(sep - allowed), allowed);
			snprintf(hi, sizeof hi, "%s", sep + 4);
		}
		if ((paren = strstr(hi, " (")) != NULL)
			*paren = '\0';
		if (shown_bound(&k[i], lo, &v) && !(v == 0 && k[i].min == 0)) {
			if (!(v > 0 && v >= k[i].min * (1 - 1e-3) && v <= k[i].min * (1 + 1e-3))) {
				print_error("%s: shows %s (%g) as its lower bound, enforces %g\n", k[i].key, lo, v, k[i].min);
				fail();
			}
		}
		if (shown_bound(&k[i], hi, &v) && !(v >= k[i].max * (1 - 1e-3) && v <= k[i].max * (1 + 1e-3))) {
			print_error("%s: shows %s (%g) as its upper bound, enforces %g\n", k[i].key, hi, v, k[i].max);
			fail();
		}
		engine_scenario_default(&sc);
		snprintf(text, sizeof text, "%.17g%s", k[i].min, unit_suffix(k[i].unit));
		/* an auto knob (mfu) refuses 0 and says to write auto */
		if ((engine_knob_set(&sc, &k[i], text, NULL, &err) == 0) !=
		    (!open || ((k[i].flags & ENGINE_KNOB_ZERO_UNSET) && !(k[i].flags & ENGINE_KNOB_AUTO)))) {
			print_error("%s=%s: the lower bound is %s, shown as %s\n", k[i].key, text, open ? "open" : "closed",
				    allowed);
			fail();
		}
		snprintf(text, sizeof text, "%.17g%s", k[i].max, unit_suffix(k[i].unit));
		assert_int_equal(engine_knob_set(&sc, &k[i], text, NULL, &err), 0);
		snprintf(text, sizeof text, "%.17g%s", k[i].type == ENGINE_KNOB_INT ? k[i].max + 1 : k[i].max * 1.01,
			 unit_suffix(k[i].unit));
		assert_int_not_equal(engine_knob_set(&sc, &k[i], text, NULL, &err), 0);
		assert_non_null(strstr(err.msg, allowed));
	}
}

/* Names as people type them (util_suggest_all) and the one plural rule (util_count). */
static void test_suggestions_and_plurals(void **state)
{
	static const char *const gpus[] = {"a10", "a100-40gb-sxm", "a100-80gb-pcie", "a100-80gb-sxm", "h100-nvl",
					   "h100-pcie", "h100-sxm", "rtx-4090", "t4", NULL};
	const char *out[8];
	enum util_match how;
	char buf[64];

	(void)state;
	assert_int_equal(util_suggest_all("h100", gpus, out, 8, &how), 3);
	assert_int_equal(how, UTIL_MATCH_PART);
	assert_int_equal(util_suggest_all("A100", gpus, out, 8, &how), 3); /* not a10 */
	assert_string_equal(out[0], "a100-40gb-sxm");
	assert_int_equal(util_suggest_all("4090", gpus, out, 8, &how), 1); /* by a part of the name */
	assert_string_equal(out[0], "rtx-4090");
	assert_int_equal(util_suggest_all("H100 SXM", gpus, out, 8, &how), 1);
	assert_int_equal(how, UTIL_MATCH_EXACT);
	assert_string_equal(out[0], "h100-sxm");
	assert_int_equal(util_suggest_all("t5", gpus, out, 8, &how), 1);
	assert_int_equal(how, UTIL_MATCH_SLIP);
	{ /* two slips in four letters: not "norm"; a prefix of the lora_ knobs */
		const char *sg = engine_knob_suggest("lora");
		assert_true(sg == NULL || strncmp(sg, "lora_", 5) == 0);
		assert_null(engine_knob_suggest("zzyq"));
	}
	assert_string_equal(engine_knob_suggest("btach"), "batch"); /* a swap is one slip */
	util_count(buf, sizeof buf, 1, "GPU", "GPUs");
	assert_string_equal(buf, "1 GPU");
	util_count(buf, sizeof buf, 0, "GPU", "GPUs");
	assert_string_equal(buf, "0 GPUs");
	util_count(buf, sizeof buf, 1024, "token", "tokens");
	assert_string_equal(buf, "1,024 tokens");
	util_count(buf, sizeof buf, 1048576, "token", "tokens");
	assert_string_equal(buf, "1,048,576 tokens");
	util_count(buf, sizeof buf, 1.5, "GPU", "GPUs");
	assert_string_equal(buf, "1.5 GPUs");
}

static void test_names_and_dashes(void **state)
{
	(void)state;
	assert_ptr_equal(engine_knob_find("kv-heads"), engine_knob_find("kv_heads"));
	assert_ptr_equal(engine_knob_find("flash-attention"), engine_knob_find("flash_attention"));
	assert_null(engine_knob_find("kv__heads"));
	assert_string_equal(engine_knob_suggest("bacth"), "batch");
	assert_string_equal(engine_knob_suggest("kv-head"), "kv_heads");
	assert_null(engine_knob_suggest("zzzzzzzzzz"));
	/* the keys the issue names exist */
	{
		static const char *keys[] = {"model", "params", "gpu", "gpus", "gpus_per_node", "tp", "pp", "zero",
					     "sequence_parallel", "mode", "batch", "grad_accum", "seq", "precision",
					     "optimizer", "recompute", "flash_attention", "tokens", "mfu", "tokens_per_s",
					     "step_time", "achieved_flops", "prompt", "generate", "pinned", "layers",
					     "hidden", "heads", "kv_heads", "head_dim", "ffn", "vocab"};
		size_t i;
		for (i = 0; i < sizeof keys / sizeof keys[0]; i++)
			assert_non_null(engine_knob_find(keys[i]));
	}
}

static void expect_error(const char *key, const char *value, const char *needle)
{
	struct engine_scenario sc;
	struct napkin_err err;

	engine_scenario_default(&sc);
	util_err_clear(&err);
	assert_int_not_equal(engine_knob_set(&sc, engine_knob_find(key), value, NULL, &err), 0);
	if (strstr(err.msg, needle) == NULL) {
		print_error("%s=%s: '%s' lacks '%s'\n", key, value, err.msg, needle);
		fail();
	}
}

static void test_bad_values(void **state)
{
	(void)state;
	expect_error("batch", "0", "batch: 0 is out of range; allowed: 1 to");
	expect_error("batch", "-4", "batch");
	expect_error("batch", "4.5", "not a whole number");
	expect_error("batch", "nan", "batch");
	expect_error("seq", "4q", "seq");
	expect_error("flash_attention", "maybe", "on or off");
	expect_error("precision", "fp64", "allowed: fp32, amp-bf16");
	expect_error("optimizer", "adagrad", "adamw");
	expect_error("mfu", "1.5", "mfu");
	expect_error("mfu", "0", "mfu");
	expect_error("zero", "4", "zero");
	expect_error("gpu_bandwidth", "80 PB/s", "out of range");
	expect_error("gpus", "", "no value");
	expect_error("model", "no-such-model", "unknown model");
	expect_error("params", "1", "params");
}

static void test_bools_and_enums(void **state)
{
	struct engine_scenario sc;
	struct napkin_err err;
	const struct engine_knob *fa = engine_knob_find("flash_attention");
	const struct engine_knob *pr = engine_knob_find("precision");
	char buf[32];

	(void)state;
	engine_scenario_default(&sc);
	assert_int_equal(engine_knob_set(&sc, fa, "off", NULL, &err), 0);
	assert_false(sc.flash_attention);
	assert_int_equal(engine_knob_set(&sc, fa, "TRUE", NULL, &err), 0);
	assert_true(sc.flash_attention);
	assert_int_equal(engine_knob_set(&sc, pr, "Mixed", NULL, &err), 0);
	engine_knob_format(&sc, pr, buf, sizeof buf);
	assert_string_equal(buf, "mixed-bf16");
	/* stepping an enum visits canonical names only and wraps */
	assert_int_equal(engine_knob_set(&sc, pr, "fp8-mixed", NULL, &err), 0);
	assert_int_equal(engine_knob_step(&sc, pr, +1, NULL, &err), 0);
	engine_knob_format(&sc, pr, buf, sizeof buf);
	assert_string_equal(buf, "fp32");
}

static void test_stepping(void **state)
{
	struct engine_scenario sc;
	struct napkin_err err;
	const struct engine_knob *batch = engine_knob_find("batch");
	const struct engine_knob *tp = engine_knob_find("tp");
	const struct engine_knob *tokens = engine_knob_find("tokens");
	const struct engine_knob *tps = engine_knob_find("tokens_per_s");

	(void)state;
	engine_scenario_default(&sc);
	sc.batch = 3;
	assert_int_equal(engine_knob_step(&sc, batch, +1, NULL, &err), 0);
	assert_int_equal(sc.batch, 4);
	assert_int_equal(engine_knob_step(&sc, batch, -1, NULL, &err), 0);
	assert_int_equal(sc.batch, 2);
	sc.batch = 1;
	assert_int_not_equal(engine_knob_step(&sc, batch, -1, NULL, &err), 0);
	assert_int_equal(sc.batch, 1);
	/* tp skips values that do not divide the GPUs: 1 → 2 → 4 → 8, then nothing fits 8 GPUs */
	assert_int_equal(sc.tp, 1);
	assert_int_equal(engine_knob_step(&sc, tp, +1, NULL, &err), 0);
	assert_int_equal(sc.tp, 2);
	assert_int_equal(engine_knob_step(&sc, tp, +1, NULL, &err), 0);
	assert_int_equal(sc.tp, 4);
	assert_int_equal(engine_knob_step(&sc, tp, +1, NULL, &err), 0);
	assert_int_equal(sc.tp, 8);
	assert_int_not_equal(engine_knob_step(&sc, tp, +1, NULL, &err), 0);
	assert_int_equal(sc.tp, 8);
	/* 1-2-5 steps */
	sc.tokens = 2e12;
	assert_int_equal(engine_knob_step(&sc, tokens, +1, NULL, &err), 0);
	assert_close(sc.tokens, 5e12, 0);
	assert_int_equal(engine_knob_step(&sc, tokens, -1, NULL, &err), 0);
	assert_close(sc.tokens, 2e12, 0);
	/* an unset measurement steps up from the derived value, and back down to unset */
	assert_close(sc.tokens_per_s, 0, 0);
	assert_int_equal(engine_knob_step(&sc, tps, +1, NULL, &err), 0);
	assert_true(sc.tokens_per_s > 0);
}

static void test_apply_all_or_nothing(void **state)
{
	struct engine_scenario sc, before;
	struct napkin_err err;
	struct engine_assign a[3];

	(void)state;
	engine_scenario_default(&sc);
	before = sc;
	/* batch is fine, tp 3 does not divide 32 heads: nothing changes */
	a[0] = (struct engine_assign){engine_knob_find("batch"), "8", "x.yaml", 3, 8};
	a[1] = (struct engine_assign){engine_knob_find("tp"), "3", "x.yaml", 4, 5};
	a[2] = (struct engine_assign){engine_knob_find("gpus"), "3", "x.yaml", 5, 7};
	assert_int_not_equal(engine_apply(&sc, a, 3, NULL, &err), 0);
	assert_non_null(strstr(err.msg, "tp (3) must divide heads (32)"));
	/* the error points at the tp line */
	assert_int_equal(err.line, 4);
	assert_int_equal(err.col, 5);
	assert_memory_equal(&sc, &before, sizeof sc);
	/* a bad value reports its position */
	a[0].text = "many";
	assert_int_not_equal(engine_apply(&sc, a, 1, NULL, &err), 0);
	assert_string_equal(err.file, "x.yaml");
	assert_int_equal(err.line, 3);
	assert_int_equal(err.col, 8);
	assert_memory_equal(&sc, &before, sizeof sc);
}

static void test_apply_order(void **state)
{
	struct engine_scenario sc;
	struct napkin_err err;
	struct engine_assign a[2];

	(void)state;
	engine_scenario_default(&sc);
	/* layers given before params in the file: params still applies first */
	a[0] = (struct engine_assign){engine_knob_find("layers"), "40", NULL, 0, 0};
	a[1] = (struct engine_assign){engine_knob_find("params"), "7B", NULL, 0, 0};
	assert_int_equal(engine_apply(&sc, a, 2, NULL, &err), 0);
	assert_int_equal(sc.model.layers, 40);
	/* an architecture change means the shape is no longer the one params picked */
	assert_close(sc.params, 0, 0);
}

/* GPU-hours keep their digits when few and take the singular at one: a 66.9-minute run on one
 * GPU is 1.115 GPU-hours (66.9 / 60), which the report once rounded to "1 GPU-hours". */
static void test_gpu_hours_text(void **state)
{
	char buf[64];

	(void)state;
	engine_unit_format(ENGINE_UNIT_GPU_HOURS, 66.9 / 60.0, buf, sizeof buf);
	assert_string_equal(buf, "1.11 GPU-hours");
	engine_unit_format(ENGINE_UNIT_GPU_HOURS, 1.0, buf, sizeof buf);
	assert_string_equal(buf, "1 GPU-hour");
	engine_unit_format(ENGINE_UNIT_GPU_HOURS, 0.25, buf, sizeof buf);
	assert_string_equal(buf, "0.25 GPU-hours");
	engine_unit_format(ENGINE_UNIT_GPU_HOURS, 38832.6, buf, sizeof buf);
	assert_string_equal(buf, "38,833 GPU-hours");
}

static void set(struct engine_scenario *sc, const char *key, const char *value)
{
	struct napkin_err err;

	if (engine_knob_set(sc, engine_knob_find(key), value, NULL, &err) != 0)
		fail_msg("%s %s: %s", key, value, err.msg);
}

/* A changed shape's name (knobs.c, eng_arch_changed): still the preset's, marked, within 5%
 * of its count; past that named for what it is. Counts by hand from Llama-2-7B (6,738,415,616):
 * 80 layers of d 8192 on its other dims: 80 × (4·8192·4096 + 3·8192·11008 + 2·8192)
 * + 2 × 32000 × 8192 + 8192 = 32,905,633,792; GQA with 8 KV heads saves
 * 32 × 2 × 4096 × 3072 = 805,306,368 (-12%); 33 layers add one layer, 202,383,360 (+3%). */
static void test_changed_shape_names(void **state)
{
	struct engine_scenario sc;

	(void)state;
	engine_scenario_default(&sc);
	assert_string_equal(sc.model.name, "Llama-2-7B");
	set(&sc, "layers", "80");
	set(&sc, "hidden", "8192");
	assert_string_equal(sc.model.name, "custom 32.91 B: 80 layers, d 8192");
	/* back to the preset's shape: its name again, marked */
	set(&sc, "layers", "32");
	set(&sc, "hidden", "4096");
	assert_string_equal(sc.model.name, "Llama-2-7B*");

	engine_scenario_default(&sc);
	set(&sc, "max_positions", "8192");
	assert_string_equal(sc.model.name, "Llama-2-7B*");
	set(&sc, "layers", "33");
	assert_string_equal(sc.model.name, "Llama-2-7B*");

	engine_scenario_default(&sc);
	set(&sc, "kv_heads", "8");
	assert_string_equal(sc.model.name, "custom 5.933 B: 32 layers, d 4096");

	/* a shape from a size is named against that size */
	engine_scenario_default(&sc);
	set(&sc, "params", "70B");
	assert_string_equal(sc.model.name, "70B dense"); /* the size as model names write it (Llama-2-70B), not "70 B" (bytes to a Chinese reader, M11) */
	set(&sc, "layers", "40");
	assert_non_null(strstr(sc.model.name, "custom "));
	assert_non_null(strstr(sc.model.name, ": 40 layers, d 8192"));
}

static const struct CMUnitTest tests[] = {
	cmocka_unit_test(test_changed_shape_names),
	cmocka_unit_test(test_gpu_hours_text),
	cmocka_unit_test(test_every_knob_round_trips),
	cmocka_unit_test(test_names_and_dashes),
	cmocka_unit_test(test_ranges_shown_are_enforced),
	cmocka_unit_test(test_suggestions_and_plurals),
	cmocka_unit_test(test_bad_values),
	cmocka_unit_test(test_bools_and_enums),
	cmocka_unit_test(test_stepping),
	cmocka_unit_test(test_apply_all_or_nothing),
	cmocka_unit_test(test_apply_order),
};

TESTUTIL_MAIN("knobs", tests)
