/*
 * presets: every shipped preset loads and matches the published figures; Hugging Face
 * config.json files load as they are; scenarios reproduce the course's worked examples and
 * save and load back to the same knobs; the search path's order.
 *
 * The reference figures below are copied from the project's shared reference data
 * (gpus.yaml, models.yaml: datasheets, papers, HF safetensors totals), so the tests need
 * nothing outside this repository.
 */
#define _XOPEN_SOURCE 700
#include <errno.h>
#include <ftw.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include "presets.h"
#include "testutil.h"
#include "testpresets.h"

#define MIB 1048576.0
#define T 1e12

static void fail_err(const char *what, const struct napkin_err *err)
{
	char buf[800];

	fail_msg("%s: %s", what, util_err_format(err, buf, sizeof buf));
}

/* ------------------------------------------------------------ the shipped GPUs */

struct gpu_ref {
	const char *id;
	double memory, bandwidth;
	double fp64, fp32, tf32, bf16, fp16, fp8, int8;
	double tdp;
	int sm;
	double link; /* per direction: half the reference's total */
};

/* gpus.yaml: memory is nvidia_smi_mib where given (the newer drivers' figure), else the
 * datasheet's capacity; peaks are the dense figures; GeForce bf16 is the fp32-accumulate
 * figure. 0: not in the reference (not checked). */
static const struct gpu_ref gpu_refs[] = {
	{"v100-sxm2-32gb", 32768 * MIB, 0.9 * T, 7.8 * T, 15.7 * T, 0, 0, 125 * T, 0, 0, 300, 80, 150e9},
	{"t4", 15360 * MIB, 0.3 * T, 0, 8.1 * T, 0, 0, 65 * T, 0, 130 * T, 70, 40, 0},
	{"a10", 23028 * MIB, 0.6 * T, 0, 31.2 * T, 62.5 * T, 125 * T, 125 * T, 0, 250 * T, 150, 72, 0},
	{"a100-40gb-sxm", 40960 * MIB, 1.555 * T, 9.7 * T, 19.5 * T, 156 * T, 312 * T, 312 * T, 0, 624 * T, 400, 108, 300e9},
	{"a100-80gb-sxm", 81920 * MIB, 2.039 * T, 9.7 * T, 19.5 * T, 156 * T, 312 * T, 312 * T, 0, 624 * T, 400, 108, 300e9},
	{"a100-80gb-pcie", 81920 * MIB, 1.935 * T, 9.7 * T, 19.5 * T, 156 * T, 312 * T, 312 * T, 0, 624 * T, 300, 108, 300e9},
	{"l4", 23034 * MIB, 0.3 * T, 0, 30.3 * T, 60 * T, 121 * T, 121 * T, 242.5 * T, 242.5 * T, 72, 58, 0},
	{"l40s", 46068 * MIB, 0.864 * T, 0, 91.6 * T, 183 * T, 362.05 * T, 362.05 * T, 733 * T, 733 * T, 350, 142, 0},
	{"h100-sxm", 81559 * MIB, 3.35 * T, 34 * T, 67 * T, 494.5 * T, 989.5 * T, 989.5 * T, 1979 * T, 1979 * T, 700, 132, 450e9},
	{"h100-pcie", 81559 * MIB, 2.0 * T, 26 * T, 51 * T, 378 * T, 756.5 * T, 756.5 * T, 1513 * T, 1513 * T, 350, 114, 300e9},
	{"h100-nvl", 95830 * MIB, 3.9 * T, 30 * T, 60 * T, 417.5 * T, 835.5 * T, 835.5 * T, 1670.5 * T, 1670.5 * T, 400, 132, 300e9},
	{"h200-sxm", 143771 * MIB, 4.8 * T, 34 * T, 67 * T, 494.5 * T, 989.5 * T, 989.5 * T, 1979 * T, 1979 * T, 700, 132, 450e9},
	{"b200", 183359 * MIB, 8.0 * T, 37 * T, 80 * T, 1125 * T, 2250 * T, 2250 * T, 4500 * T, 4500 * T, 1000, 148, 900e9},
	{"rtx-3090", 24576 * MIB, 0.936 * T, 0, 35.6 * T, 35.6 * T, 71 * T, 0, 0, 284 * T, 350, 82, 0},
	{"rtx-4090", 24564 * MIB, 1.008 * T, 0, 82.6 * T, 82.6 * T, 165.2 * T, 0, 330.3 * T, 660.6 * T, 450, 128, 0},
	{"rtx-5090", 32607 * MIB, 1.792 * T, 0, 104.8 * T, 0, 209.5 * T, 0, 419 * T, 0, 575, 170, 0},
	{"mi250x", 128e9, 3.2768 * T, 47.9 * T, 47.9 * T, 0, 383 * T, 383 * T, 0, 383 * T, 500, 220, 400e9},
	/* mi300x: 191.98 GiB as the card reports it (github.com/AUGMXNT/MI300-testing fastfetch,
	 * 8 MI300X in a PowerEdge XE9680), as the NVIDIA rows take nvidia-smi's; datasheet 192 GB */
	{"mi300x", 196587 * MIB, 5.3 * T, 81.7 * T, 163.4 * T, 653.7 * T, 1307.4 * T, 1307.4 * T, 2614.9 * T, 2614.9 * T, 750, 304, 448e9},
	{"mi325x", 256e9, 6.0 * T, 81.7 * T, 163.4 * T, 653.7 * T, 1307.4 * T, 1307.4 * T, 2614.9 * T, 2614.9 * T, 1000, 304, 448e9},
	{"tpu-v4", 32 * 1024 * MIB, 1.2 * T, 0, 0, 0, 275 * T, 0, 0, 275 * T, 0, 2, 0},
	{"tpu-v5e", 16e9, 0.819 * T, 0, 0, 0, 197 * T, 0, 0, 393 * T, 0, 1, 200e9},
	{"tpu-v5p", 95e9, 2.765 * T, 0, 0, 0, 459 * T, 0, 0, 918 * T, 0, 2, 300e9},
};

static void check_peak(const struct engine_gpu *g, enum engine_dtype dt, double want)
{
	if (want > 0)
		assert_close(g->peak[dt], want, 1e-12);
}

static void test_gpu_presets_match_reference(void **state)
{
	struct preset_registry *reg = tp_builtin();
	size_t i;

	(void)state;
	assert_true(preset_count(reg, PRESET_GPU) >= sizeof gpu_refs / sizeof gpu_refs[0]);
	for (i = 0; i < sizeof gpu_refs / sizeof gpu_refs[0]; i++) {
		const struct gpu_ref *r = &gpu_refs[i];
		const struct preset_info *pi = preset_find(reg, PRESET_GPU, r->id);
		struct engine_gpu g;
		struct napkin_err err;

		print_message("%s\n", r->id);
		assert_non_null(pi);
		assert_int_equal(pi->origin, PRESET_BUILTIN);
		if (preset_gpu(reg, r->id, &g, &err) != NAPKIN_OK)
			fail_err(r->id, &err);
		assert_string_equal(g.id, r->id);
		assert_true(g.name[0] != '\0' && g.vendor[0] != '\0');
		assert_non_null(strstr(g.source, "level "));
		assert_close(g.memory_bytes, r->memory, 1e-12);
		assert_close(g.bandwidth, r->bandwidth, 1e-12);
		check_peak(&g, ENGINE_DT_FP64, r->fp64);
		check_peak(&g, ENGINE_DT_FP32, r->fp32);
		check_peak(&g, ENGINE_DT_TF32, r->tf32);
		check_peak(&g, ENGINE_DT_BF16, r->bf16);
		check_peak(&g, ENGINE_DT_FP16, r->fp16);
		check_peak(&g, ENGINE_DT_FP8_E4M3, r->fp8);
		check_peak(&g, ENGINE_DT_INT8, r->int8);
		assert_close(g.tdp_w, r->tdp, 1e-12);
		assert_int_equal(g.sm_count, r->sm);
		assert_close(g.link_bw, r->link, 1e-12);
		/* dense peaks: the bf16 rate never exceeds the fp8 one where both exist */
		if (g.peak[ENGINE_DT_FP8_E4M3] > 0 && g.peak[ENGINE_DT_BF16] > 0)
			assert_true(g.peak[ENGINE_DT_BF16] < g.peak[ENGINE_DT_FP8_E4M3]);
	}
	preset_registry_free(reg);
}

/* The shipped h100-sxm is the engine's built-in one, figure by figure. */
static void test_h100_matches_engine(void **state)
{
	struct preset_registry *reg = tp_builtin();
	struct engine_gpu g, e;
	struct napkin_err err;
	int dt;

	(void)state;
	assert_int_equal(preset_gpu(reg, "h100-sxm", &g, &err), 0);
	engine_gpu_h100_sxm(&e);
	assert_string_equal(g.id, e.id);
	assert_string_equal(g.name, e.name);
	assert_string_equal(g.vendor, e.vendor);
	assert_true(g.memory_bytes == e.memory_bytes);
	assert_true(g.bandwidth == e.bandwidth);
	for (dt = 0; dt < ENGINE_DT_COUNT; dt++)
		assert_true(g.peak[dt] == e.peak[dt]);
	assert_true(g.pcie_bw == e.pcie_bw);
	assert_true(g.link_bw == e.link_bw);
	assert_string_equal(g.link_name, e.link_name);
	assert_true(g.tdp_w == e.tdp_w);
	assert_int_equal(g.sm_count, e.sm_count);
	assert_true(g.overhead_bytes == e.overhead_bytes);
	preset_registry_free(reg);
}

/* ------------------------------------------------------------ the shipped models */

/* Total parameters as the engine counts them. */
static double total_params(const struct engine_model *m)
{
	struct engine_scenario sc;
	struct engine_result r;
	struct napkin_err err;

	engine_scenario_default(&sc);
	sc.model = *m;
	sc.params = 0;
	sc.gpus = 1;
	sc.zero = 0;
	if (sc.seq > m->max_positions)
		sc.seq = m->max_positions;
	if (engine_compute(&sc, &r, &err) != NAPKIN_OK)
		fail_err(m->id[0] ? m->id : m->name, &err);
	return r.params.total;
}

/* models.yaml and the papers (see tests/unit/test_params.c for each source). */
static const struct {
	const char *id;
	double published;
} model_refs[] = {
	{"gpt2", 124439808},           {"gpt2-medium", 354823168},     {"gpt2-large", 774030080},
	{"gpt2-xl", 1557611200},       {"llama-2-7b", 6738415616},     {"llama-2-13b", 13015864320},
	{"llama-2-70b", 68976648192},  {"llama-3-8b", 8030261248},     {"llama-3-70b", 70553706496},
	{"llama-3.1-8b", 8030261248},   {"llama-3.1-70b", 70553706496},
	{"llama-3.1-405b", 405853388800}, {"mistral-7b", 7241732096},  {"mixtral-8x7b", 46702792704},
	{"qwen2.5-7b", 7615616512},    {"gemma-7b", 8537680896},       {"pythia-1.4b", 1414647808},
};

static void test_model_presets_count_exactly(void **state)
{
	struct preset_registry *reg = tp_builtin();
	size_t i;

	(void)state;
	for (i = 0; i < sizeof model_refs / sizeof model_refs[0]; i++) {
		struct engine_model m;
		struct napkin_err err;
		if (preset_model(reg, model_refs[i].id, &m, &err) != NAPKIN_OK)
			fail_err(model_refs[i].id, &err);
		assert_true(m.params_published == model_refs[i].published);
	}
	/* every model preset that states a published count reproduces it exactly */
	for (i = 0; i < preset_count(reg, PRESET_MODEL); i++) {
		const struct preset_info *pi = preset_at(reg, PRESET_MODEL, i);
		struct engine_model m;
		struct napkin_err err;
		double total;
		assert_int_equal(preset_model(reg, pi->id, &m, &err), 0);
		assert_true(m.source[0] != '\0');
		total = total_params(&m);
		print_message("%-16s %.0f (published %.0f)\n", pi->id, total, m.params_published);
		if (m.params_published > 0)
			assert_true(total == m.params_published);
	}
	/* PaLM 540B: only a rounded count is published (540.35B, Chowdhery et al. 2022 table 1) */
	{
		struct engine_model m;
		struct napkin_err err;
		assert_int_equal(preset_model(reg, "palm-540b", &m, &err), 0);
		assert_close(total_params(&m), 540.35e9, 2e-5);
		assert_int_equal(m.kv_heads, 1);
	}
	preset_registry_free(reg);
}

/* ------------------------------------------------------------ Hugging Face config.json */

static const struct {
	const char *file;
	double total;        /* published; 0: none */
	double uncounted;    /* parameters napkin says (in a warning) it does not count */
	bool warns;
} hf_refs[] = {
	{"gpt2.json", 124439808, 0, false},
	{"llama-2-7b.json", 6738415616, 0, false},
	{"llama-3.1-8b.json", 8030261248, 0, false},
	{"mistral-7b.json", 7241732096, 0, false}, /* sliding_window: 4096, modelled */
	{"mixtral-8x7b.json", 46702792704, 0, false},
	{"qwen2.5-7b.json", 7615616512, 0, false},
	{"qwen2.5-0.5b.json", 494032768, 0, false},
	{"gemma-7b.json", 8537680896, 0, false},
	{"gemma2-9b.json", 9241705984, 0, false}, /* its four norms a layer (Gemma2DecoderLayer) counted */
	{"pythia-1.4b.json", 1414647808, 0, false},
	{"phi3-mini-4k.json", 3821079552, 0, false}, /* sliding_window: 2047, modelled */
	{"opt-125m.json", 125239296, 0, false},
	{"unknown-type.json", 0, 0, true},
	/* quantised checkpoints: the shape of Llama-2-7B; GPTQ and AWQ int4 in groups of 128
	 * are formats napkin knows (no warning) */
	{"llama-2-7b-gptq.json", 6738415616, 0, false},
	{"llama-2-7b-awq.json", 6738415616, 0, false},
	{"llama-2-7b-gptq-3bit.json", 6738415616, 0, true}, /* 3-bit GPTQ: not a format napkin knows */
	{"llama-2-7b-bnb-nf4.json", 6738415616, 0, false},
	{"models--mistralai--Mistral-7B-v0.1/snapshots/7ad5799710574ba1c0d3b9e0d3a5a4a2c1b0e9f8/config.json", 7241732096,
	 0, false},
};

/* Whether one of the registry's warnings holds want (the names and the "not modelled yet"
 * warnings are in test_presets_hf.c). */
static void hf_warns(struct preset_registry *reg, const char *file, const char *want)
{
	char path[512];
	struct engine_model m;
	struct napkin_err err;
	size_t i;
	bool seen = false;

	testutil_src(file, path, sizeof path);
	preset_warnings_clear(reg);
	assert_int_equal(preset_model(reg, path, &m, &err), 0);
	for (i = 0; i < preset_warning_count(reg); i++)
		seen = seen || strstr(preset_warning(reg, i), want) != NULL;
	if (!seen)
		fail_msg("%s: no warning with '%s'", file, want);
}

static void test_hf_configs_load_as_they_are(void **state)
{
	struct preset_registry *reg = tp_builtin();
	size_t i;

	(void)state;
	for (i = 0; i < sizeof hf_refs / sizeof hf_refs[0]; i++) {
		char rel[160], path[512];
		struct engine_model m;
		struct napkin_err err;
		double total;

		snprintf(rel, sizeof rel, "tests/data/hf/%.100s", hf_refs[i].file);
		testutil_src(rel, path, sizeof path);
		preset_warnings_clear(reg);
		if (preset_model(reg, path, &m, &err) != NAPKIN_OK)
			fail_err(path, &err);
		assert_string_equal(m.id, "");
		total = total_params(&m);
		print_message("%-20s %.0f (published %.0f) %zu warning(s)\n", hf_refs[i].file, total, hf_refs[i].total,
			      preset_warning_count(reg));
		if (hf_refs[i].total > 0)
			assert_true(total + hf_refs[i].uncounted == hf_refs[i].total);
		assert_int_equal(preset_warning_count(reg) > 0, hf_refs[i].warns);
	}
	/* the warnings say what was assumed, where */
	{
		char path[512];
		struct engine_model m;
		struct napkin_err err;
		const char *w;
		preset_warnings_clear(reg);
		testutil_src("tests/data/hf/unknown-type.json", path, sizeof path);
		assert_int_equal(preset_model(reg, path, &m, &err), 0);
		assert_int_equal(preset_warning_count(reg), 1);
		w = preset_warning(reg, 0);
		assert_non_null(strstr(w, "unknown-type.json:2:17: warning: unknown model_type 'napkin_test_decoder'"));
		assert_non_null(strstr(w, "assumed a gated MLP, RMSNorm, no biases, untied embeddings, rotary positions"));
		/* a multimodal config: its text model counted, said so at text_config */
		hf_warns(reg, "tests/data/hf/gemma-3-27b-it.json", "15:18: warning: the text model (text_config) is counted");
	}
	/* names: _name_or_path, else the folder holding config.json */
	{
		char path[512];
		struct engine_model m;
		struct napkin_err err;
		testutil_src("tests/data/hf/llama-2-7b.json", path, sizeof path);
		assert_int_equal(preset_model(reg, path, &m, &err), 0);
		assert_string_equal(m.name, "meta-llama/Llama-2-7b-hf");
		assert_string_equal(m.arch, "llama");
		testutil_src("tests/data/hf/gpt2.json", path, sizeof path);
		assert_int_equal(preset_model(reg, path, &m, &err), 0);
		assert_string_equal(m.name, "gpt2");
		assert_int_equal(m.ffn, 4 * 768); /* n_inner: null */
		assert_true(m.tied && m.dropout && m.position == ENGINE_POS_LEARNED);
		testutil_src("tests/data/hf/opt-125m.json", path, sizeof path);
		assert_int_equal(preset_model(reg, path, &m, &err), 0);
		assert_int_equal(m.max_positions, 2048 + 2);
	}
	preset_registry_free(reg);
}

/* ------------------------------------------------------------ scenarios */

static void load(struct preset_registry *reg, const char *id, struct engine_scenario *sc, struct engine_result *r)
{
	struct napkin_err err;

	engine_scenario_default(sc);
	if (preset_scenario_load(reg, id, sc, &err) != NAPKIN_OK)
		fail_err(id, &err);
	if (engine_evaluate(sc, r, &err) != NAPKIN_OK)
		fail_err(id, &err);
}

static void test_course_worked_examples(void **state)
{
	struct preset_registry *reg = tp_builtin();
	struct engine_scenario sc;
	struct engine_result r, r1;

	(void)state;
	assert_true(preset_count(reg, PRESET_SCENARIO) >= 7);

	/* 6 × 70e9 × 15e12 / (1024 × 989.5e12 × 0.5) s = 143.93 days (CS336 lecture 2) */
	load(reg, "course-70b-15t-1024-h100", &sc, &r);
	/* params: 70B is a shape with real dims (ffn a multiple of 256): 69.98 B */
	assert_close(r.compute.train_days, 143.93, 5e-4);
	assert_true(r.memory.fits);

	/* 8 × 80e9 B / 16 B per parameter = 4e10 parameters */
	load(reg, "course-largest-model-8-h100", &sc, &r);
	assert_close(r.memory.max_params, 4e10, 1e-6);

	/* decode at batch 1: ~1 FLOP/byte, memory-bound, ~4 ms per token on an H100 */
	load(reg, "course-decode-7b-batch1", &sc, &r1);
	assert_true(r1.inference.decode_memory_bound);
	assert_close(r1.roofline.points[ENGINE_PT_DECODE].intensity, 1.0, 0.05);
	assert_true(r1.inference.decode_seconds_per_token > 3.5e-3 && r1.inference.decode_seconds_per_token < 4.5e-3);
	assert_true(r1.memory.fits);

	/* batch 256: far more tokens per second from the same weight reads */
	load(reg, "course-decode-7b-batch256", &sc, &r);
	assert_true(r.memory.fits);
	assert_true(r.roofline.points[ENGINE_PT_DECODE].intensity > 20.0 * r1.roofline.points[ENGINE_PT_DECODE].intensity);
	assert_true(r.inference.decode_tokens_per_s > 50.0 * r1.inference.decode_tokens_per_s);

	/* the typical runs fit */
	load(reg, "finetune-7b-1gpu", &sc, &r);
	assert_true(r.memory.fits);
	load(reg, "pretrain-8b-node", &sc, &r);
	assert_true(r.memory.fits);
	load(reg, "serve-70b", &sc, &r);
	assert_true(r.memory.fits);
	assert_int_equal(sc.tp, 8);
	preset_registry_free(reg);
}

static void assert_same_knobs(const struct engine_scenario *a, const struct engine_scenario *b, const char *what)
{
	size_t n, i;
	const struct engine_knob *k = engine_knobs(&n);
	char x[128], y[128];

	for (i = 0; i < n; i++) {
		engine_knob_format(a, &k[i], x, sizeof x);
		engine_knob_format(b, &k[i], y, sizeof y);
		if (strcmp(x, y) != 0)
			fail_msg("%s: knob %s is '%s' after the round trip, was '%s'", what, k[i].key, y, x);
	}
	assert_string_equal(a->model.name, b->model.name);
	assert_string_equal(a->gpu.name, b->gpu.name);
}

/* Saves sc as YAML and loads it back, onto the default and onto a different scenario. */
static void round_trip(struct preset_registry *reg, const struct engine_scenario *sc, const char *what)
{
	char *text = NULL;
	size_t len = 0;
	struct napkin_err err;
	struct engine_scenario back, other;
	struct engine_catalog cat = preset_catalog(reg);
	const struct engine_assign as[] = {
		{engine_knob_find("model"), "gpt2", NULL, 0, 0},   {engine_knob_find("gpu"), "a100-80gb-sxm", NULL, 0, 0},
		{engine_knob_find("batch"), "3", NULL, 0, 0},      {engine_knob_find("mode"), "infer", NULL, 0, 0},
		{engine_knob_find("tokens_per_s"), "1000", NULL, 0, 0}, {engine_knob_find("seq"), "512", NULL, 0, 0},
		{engine_knob_find("gpu_memory"), "40 GB", NULL, 0, 0},
	};

	if (preset_scenario_to_yaml(reg, sc, &text, &len, &err) != NAPKIN_OK)
		fail_err(what, &err);
	assert_int_equal(strlen(text), len);
	engine_scenario_default(&back);
	if (preset_scenario_load_text(reg, what, text, len, &back, &err) != NAPKIN_OK) {
		print_message("%s", text);
		fail_err(what, &err);
	}
	assert_same_knobs(sc, &back, what);
	engine_scenario_default(&other);
	if (engine_apply(&other, as, sizeof as / sizeof as[0], &cat, &err) != NAPKIN_OK)
		fail_err("the other base", &err);
	if (preset_scenario_load_text(reg, what, text, len, &other, &err) != NAPKIN_OK)
		fail_err(what, &err);
	assert_same_knobs(sc, &other, what);
	free(text);
}

static void test_every_scenario_round_trips(void **state)
{
	struct preset_registry *reg = tp_builtin();
	size_t i;

	(void)state;
	for (i = 0; i < preset_count(reg, PRESET_SCENARIO); i++) {
		const struct preset_info *pi = preset_at(reg, PRESET_SCENARIO, i);
		struct engine_scenario sc;
		struct engine_result r;
		load(reg, pi->id, &sc, &r);
		round_trip(reg, &sc, pi->id);
	}
	preset_registry_free(reg);
}

/* The JSON report's "scenario" object (napkin report --format json --scenario serve-70b)
 * loads back as the scenario it came from. */
static void test_report_scenario_loads_back(void **state)
{
	struct preset_registry *reg = tp_builtin();
	struct engine_scenario a, b;
	struct engine_result r;
	struct napkin_err err;
	char path[512];

	(void)state;
	load(reg, "serve-70b", &a, &r);
	engine_scenario_default(&b);
	if (preset_scenario_load(reg, testutil_src("tests/data/presets/good/report-scenario.json", path, sizeof path),
				 &b, &err) != NAPKIN_OK)
		fail_err("report scenario", &err);
	assert_same_knobs(&a, &b, "report scenario");
	preset_registry_free(reg);
}

static void apply(struct preset_registry *reg, struct engine_scenario *sc, const struct engine_assign *as, size_t n)
{
	struct engine_catalog cat = preset_catalog(reg);
	struct napkin_err err;

	if (engine_apply(sc, as, n, &cat, &err) != NAPKIN_OK)
		fail_err("apply", &err);
}

/* A file napkin probe --save wrote: the datasheet figures, then a measured: section whose
 * figures replace them (as the probe's own profile does). */
static void test_probed_gpu_file(void **state)
{
	struct preset_registry *reg = tp_builtin();
	struct engine_gpu g;
	struct napkin_err err;
	struct engine_scenario sc;
	char path[512];

	(void)state;
	testutil_src("tests/data/presets/good/probed-h100.yaml", path, sizeof path);
	if (preset_gpu(reg, path, &g, &err) != NAPKIN_OK)
		fail_err(path, &err);
	assert_true(g.measured);
	assert_string_equal(g.name, "H100 SXM (measured)");
	assert_true(g.bandwidth == 3e12);                      /* measured */
	assert_true(g.peak[ENGINE_DT_BF16] == 700e12);         /* measured */
	assert_true(g.peak[ENGINE_DT_FP8_E4M3] == 1.4e15);     /* measured, "1.4 PFLOP/s" */
	assert_true(g.peak[ENGINE_DT_FP64] == 34e12);          /* not measured: the datasheet's */
	assert_true(g.overhead_bytes == 768.0 * 1048576.0);    /* the larger of the two */
	assert_true(g.h2d_pinned_bw == 50e9 && g.h2d_pageable_bw == 20e9);
	assert_true(g.peak_gemm_n == 8192);                   /* the step model anchors its GEMM curve here */
	assert_true(g.gemm_points == 3 && g.gemm_n[0] == 1024 && g.gemm_rate[2] == 700e12);
	engine_scenario_default(&sc);
	{
		const struct engine_assign as[] = {{engine_knob_find("gpu"), path, NULL, 0, 0}};
		apply(reg, &sc, as, 1);
	}
	round_trip(reg, &sc, "probed GPU");
	preset_registry_free(reg);
}

/* Models and GPUs that are not presets (or differ from one) round-trip too. */
static void test_custom_scenarios_round_trip(void **state)
{
	struct preset_registry *reg = tp_builtin();
	struct engine_scenario sc;
	char hf[512], gpu[512], model[512];

	(void)state;
	testutil_src("tests/data/hf/qwen2.5-0.5b.json", hf, sizeof hf);
	testutil_src("tests/data/presets/good/measured-gpu.yaml", gpu, sizeof gpu);
	testutil_src("tests/data/presets/good/odd-biases.yaml", model, sizeof model);

	{ /* a preset with architecture and GPU fields changed: saved as differences */
		const struct engine_assign as[] = {
			{engine_knob_find("model"), "llama-2-7b", NULL, 0, 0}, {engine_knob_find("layers"), "40", NULL, 0, 0},
			{engine_knob_find("bias"), "qkv", NULL, 0, 0},        {engine_knob_find("gpu"), "h100-pcie", NULL, 0, 0},
			{engine_knob_find("gpu_memory"), "80 GB", NULL, 0, 0}, {engine_knob_find("overhead"), "1 GiB", NULL, 0, 0},
			{engine_knob_find("step_time"), "12.5", NULL, 0, 0},
		};
		char *text;
		size_t len;
		struct napkin_err err;
		engine_scenario_default(&sc);
		apply(reg, &sc, as, sizeof as / sizeof as[0]);
		round_trip(reg, &sc, "preset with changes");
		assert_int_equal(preset_scenario_to_yaml(reg, &sc, &text, &len, &err), 0);
		assert_non_null(strstr(text, "\nmodel: llama-2-7b\nlayers: 40\nbias: qkv\n"));
		assert_non_null(strstr(text, "\ngpu: h100-pcie\ngpu_memory: 80 GB\noverhead: 1 GiB\n"));
		assert_null(strstr(text, "hidden:"));
		free(text);
	}
	{ /* a config.json model (no id: written out in full) on a measured GPU from a file */
		const struct engine_assign as[] = {
			{engine_knob_find("model"), hf, NULL, 0, 0}, {engine_knob_find("gpu"), gpu, NULL, 0, 0},
			{engine_knob_find("mode"), "infer", NULL, 0, 0}, {engine_knob_find("batch"), "16", NULL, 0, 0},
		};
		engine_scenario_default(&sc);
		apply(reg, &sc, as, sizeof as / sizeof as[0]);
		assert_string_equal(sc.model.id, "");
		assert_string_equal(sc.gpu.id, "");
		assert_true(sc.gpu.measured && sc.gpu.h2d_pinned_bw == 24.5e9);
		round_trip(reg, &sc, "config.json on a measured GPU");
	}
	{ /* biases off the none/qkv/attn/all ladder; a size */
		const struct engine_assign as[] = {{engine_knob_find("model"), model, NULL, 0, 0}};
		const struct engine_assign as2[] = {{engine_knob_find("params"), "13B", NULL, 0, 0}};
		engine_scenario_default(&sc);
		apply(reg, &sc, as, 1);
		assert_true(sc.model.qkv_bias && !sc.model.o_bias && sc.model.mlp_bias);
		round_trip(reg, &sc, "odd biases");
		engine_scenario_default(&sc);
		apply(reg, &sc, as2, 1);
		round_trip(reg, &sc, "params 13B");
	}
	preset_registry_free(reg);
}

static int rm_one(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
	(void)st;
	(void)flag;
	(void)ftw;
	return remove(path);
}

static void rm_rf(const char *dir)
{
	chmod(dir, 0755);
	nftw(dir, rm_one, 16, FTW_DEPTH | FTW_PHYS);
}

static void write_file(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");

	assert_non_null(f);
	fputs(text, f);
	fclose(f);
}

/* A save that cannot complete leaves the old file as it was. A read-only directory stops
 * it; as root, whom permissions do not stop, a file size limit does (write() fails). */
static void test_save_failure_keeps_old_file(void **state)
{
	struct preset_registry *reg = tp_builtin();
	struct engine_scenario sc;
	struct napkin_err err;
	char dir[] = "/tmp/napkin-presets-XXXXXX", path[256], *text = NULL;
	size_t len = 0;
	int rc;

	(void)state;
	assert_non_null(mkdtemp(dir));
	snprintf(path, sizeof path, "%s/run.yaml", dir);
	write_file(path, "batch: 2\n");
	engine_scenario_default(&sc);

	/* a good save first, read back */
	assert_int_equal(preset_scenario_save(reg, path, &sc, &err), 0);
	{
		struct engine_scenario back;
		engine_scenario_default(&back);
		back.batch = 77;
		assert_int_equal(preset_scenario_load(reg, path, &back, &err), 0);
		assert_same_knobs(&sc, &back, "saved file");
	}
	write_file(path, "batch: 2\n");

	sc.batch = 64;
	assert_int_equal(chmod(dir, 0555), 0);
	if (access(dir, W_OK) == 0) {
		struct rlimit old, lim;
		void (*prev)(int) = signal(SIGXFSZ, SIG_IGN);
		assert_int_equal(getrlimit(RLIMIT_FSIZE, &old), 0);
		lim = old;
		lim.rlim_cur = 4;
		assert_int_equal(setrlimit(RLIMIT_FSIZE, &lim), 0);
		rc = preset_scenario_save(reg, path, &sc, &err);
		setrlimit(RLIMIT_FSIZE, &old);
		signal(SIGXFSZ, prev);
	} else {
		rc = preset_scenario_save(reg, path, &sc, &err);
	}
	assert_int_not_equal(rc, 0);
	print_message("%s\n", err.msg);
	assert_non_null(strstr(err.msg, path));
	chmod(dir, 0755);
	assert_int_equal(util_read_file(path, 1024, &text, &len, &err), 0);
	assert_string_equal(text, "batch: 2\n");
	free(text);
	rm_rf(dir);
	preset_registry_free(reg);
}

/* ------------------------------------------------------------ the search path */

static void mkdirs(const char *base, const char *const *subs)
{
	char p[512];

	for (; *subs != NULL; subs++) {
		snprintf(p, sizeof p, "%s/%s", base, *subs);
		assert_int_equal(mkdir(p, 0755), 0);
	}
}

static const char *gpu_text(const char *name, const char *memory)
{
	static char buf[256];

	snprintf(buf, sizeof buf,
		 "name: %s\nmemory: %s\nmemory_bandwidth: 1 TB/s\npeak_flops:\n  bf16: 100 TFLOP/s\n", name, memory);
	return buf;
}

static void test_search_order(void **state)
{
	char tmp[] = "/tmp/napkin-search-XXXXXX", p[512], cwd[1024], sum[300], *old_xdg = NULL;
	static const char *const subs[] = {"xdg", "xdg/napkin", "xdg/napkin/gpus", "work", "work/presets",
					  "work/presets/gpus", "work/presets/scenarios", "extra", "extra/gpus",
					  "extra/models", NULL};
	struct preset_registry *reg = NULL;
	struct preset_options o = {false, NULL};
	struct napkin_err err;
	struct engine_gpu g;
	struct engine_scenario sc;
	const struct preset_info *pi;

	(void)state;
	assert_non_null(mkdtemp(tmp));
	mkdirs(tmp, subs);
	/* user: a new GPU and an h100-sxm that ./presets overrides again */
	snprintf(p, sizeof p, "%s/xdg/napkin/gpus/lab-gpu.yaml", tmp);
	write_file(p, gpu_text("Lab GPU", "10 GB"));
	snprintf(p, sizeof p, "%s/xdg/napkin/gpus/h100-sxm.yaml", tmp);
	write_file(p, gpu_text("User H100", "20 GB"));
	snprintf(p, sizeof p, "%s/work/presets/gpus/h100-sxm.yaml", tmp);
	write_file(p, gpu_text("Local H100", "30 GB"));
	/* a scenario naming a model by a path relative to its own folder */
	snprintf(p, sizeof p, "%s/work/presets/scenarios/tiny.yaml", tmp);
	write_file(p, "name: Tiny\nmodel: ../../../extra/models/tiny.yaml\ngpu: lab-gpu\ngpus: 1\nseq: 128\n");
	/* --presets DIR: wins over all */
	snprintf(p, sizeof p, "%s/extra/gpus/lab-gpu.yaml", tmp);
	write_file(p, gpu_text("Extra Lab GPU", "40 GB"));
	snprintf(p, sizeof p, "%s/extra/models/tiny.yaml", tmp);
	write_file(p, "architecture: gpt2\nvocab_size: 1000\nn_embd: 64\nn_layer: 2\nn_head: 4\nn_positions: 128\n");

	assert_non_null(getcwd(cwd, sizeof cwd));
	if (getenv("XDG_CONFIG_HOME") != NULL)
		old_xdg = strdup(getenv("XDG_CONFIG_HOME"));
	snprintf(p, sizeof p, "%s/xdg", tmp);
	setenv("XDG_CONFIG_HOME", p, 1);
	snprintf(p, sizeof p, "%s/work", tmp);
	assert_int_equal(chdir(p), 0);
	snprintf(p, sizeof p, "%s/extra", tmp);
	o.extra_dir = p;
	if (preset_registry_new(&reg, &o, &err) != NAPKIN_OK)
		fail_err("registry", &err);

	pi = preset_find(reg, PRESET_GPU, "h100-sxm");
	assert_int_equal(pi->origin, PRESET_LOCAL);
	assert_string_equal(pi->name, "Local H100");
	assert_int_equal(preset_gpu(reg, "h100-sxm", &g, &err), 0);
	assert_true(g.memory_bytes == 30e9);
	pi = preset_find(reg, PRESET_GPU, "lab-gpu");
	assert_int_equal(pi->origin, PRESET_PATH);
	assert_non_null(strstr(pi->path, "extra/gpus/lab-gpu.yaml"));
	pi = preset_find(reg, PRESET_MODEL, "tiny");
	assert_int_equal(pi->origin, PRESET_PATH);
	pi = preset_find(reg, PRESET_GPU, "a100-80gb-sxm");
	assert_true(pi->origin == PRESET_BUILTIN || pi->origin == PRESET_SHARE); /* napkin may be installed */
	if (pi->origin == PRESET_BUILTIN)
		assert_string_equal(pi->path, "(built in)");
	/* a built-in scenario that the local h100-sxm (no fp32 peak) no longer suits is still
	 * listed, and says why when loaded */
	pi = preset_find(reg, PRESET_SCENARIO, "course-largest-model-8-h100");
	assert_non_null(
		strstr(preset_summary(reg, pi, sum, sizeof sum), "does not apply with the presets found: Local H100 has no fp32"));
	engine_scenario_default(&sc);
	assert_int_not_equal(preset_scenario_load(reg, "course-largest-model-8-h100", &sc, &err), 0);
	assert_non_null(strstr(err.msg, "Local H100 has no fp32 matmul peak"));
	pi = preset_find(reg, PRESET_SCENARIO, "tiny");
	assert_non_null(pi);
	assert_string_equal(pi->name, "Tiny");
	engine_scenario_default(&sc);
	sc.seq = 128;
	if (preset_scenario_load(reg, "tiny", &sc, &err) != NAPKIN_OK)
		fail_err("tiny", &err);
	assert_int_equal(sc.model.hidden, 64);
	assert_string_equal(sc.gpu.name, "Extra Lab GPU");
	preset_registry_free(reg);

	/* a broken file in a searched directory blocks nothing: it is skipped with a warning
	 * that names it (file:line:col), its error is kept for `presets check`, and naming
	 * its id gives that error; so is a scenario of ./presets that does not apply */
	snprintf(p, sizeof p, "%s/extra/gpus/broken.yaml", tmp);
	write_file(p, "name: Broken\nmemory: 80 GB\nmemory_bandwidth: 1 TB/s\npeak_flops: {bf16: 1 PFLOP/s}\nsm: 3\n");
	snprintf(p, sizeof p, "%s/work/presets/scenarios/stale.yaml", tmp);
	write_file(p, "gpus: 2\nmodel: no-such-model\n");
	snprintf(p, sizeof p, "%s/work/presets/gpus/unreadable.yaml", tmp);
	write_file(p, "name: [unclosed\n");
	snprintf(p, sizeof p, "%s/extra", tmp);
	if (preset_registry_new(&reg, &o, &err) != NAPKIN_OK)
		fail_err("a registry beside broken files", &err);
	assert_non_null(preset_find(reg, PRESET_GPU, "lab-gpu")); /* the rest loaded */
	assert_non_null(preset_find(reg, PRESET_SCENARIO, "tiny"));
	assert_null(preset_find(reg, PRESET_GPU, "broken"));
	assert_null(preset_find(reg, PRESET_SCENARIO, "stale"));
	assert_int_equal(preset_broken_count(reg), 3);
	{
		const struct napkin_err *b = NULL;
		size_t i, found = 0;
		for (i = 0; i < preset_broken_count(reg); i++)
			if (strstr(preset_broken(reg, i)->file, "extra/gpus/broken.yaml") != NULL)
				b = preset_broken(reg, i);
		assert_non_null(b);
		assert_int_equal(b->line, 5);
		assert_int_equal(b->col, 1);
		assert_string_equal(b->msg, "unknown key 'sm' (did you mean 'sm_count'?)");
		for (i = 0; i < preset_warning_count(reg); i++) {
			const char *w = preset_warning(reg, i);
			if (strstr(w, "extra/gpus/broken.yaml:5:1: warning: unknown key 'sm'") != NULL &&
			    strstr(w, "skipped") != NULL)
				found |= 1;
			if (strstr(w, "presets/scenarios/stale.yaml:2:8: warning: unknown model 'no-such-model'") != NULL)
				found |= 2;
			if (strstr(w, "presets/gpus/unreadable.yaml:") != NULL && strstr(w, "skipped") != NULL)
				found |= 4;
		}
		assert_int_equal(found, 7);
		/* the log keeps them after the command line has said and cleared them, for the
		 * explorer, which opens after */
		i = preset_warning_count(reg);
		preset_warnings_clear(reg);
		assert_int_equal(preset_warning_count(reg), 0);
		assert_int_equal(preset_warning_log_count(reg), i);
		assert_non_null(strstr(preset_warning_log(reg, 0), "warning:"));
		assert_null(preset_warning_log(reg, i));
		assert_int_not_equal(preset_gpu(reg, "broken", &g, &err), 0);
		assert_non_null(strstr(err.file, "extra/gpus/broken.yaml"));
		assert_int_equal(err.line, 5);
		assert_string_equal(err.msg, "unknown key 'sm' (did you mean 'sm_count'?)");
	}
	preset_registry_free(reg);

	assert_int_equal(chdir(cwd), 0);
	if (old_xdg != NULL)
		setenv("XDG_CONFIG_HOME", old_xdg, 1);
	else
		unsetenv("XDG_CONFIG_HOME");
	free(old_xdg);
	rm_rf(tmp);
}

/* ------------------------------------------------------------ inline and by text */

static void test_inline_model_and_gpu(void **state)
{
	struct preset_registry *reg = tp_builtin();
	struct engine_scenario sc;
	struct napkin_err err;
	static const char text[] = "model:\n"
				   "  name: Toy\n"
				   "  architecture: llama\n"
				   "  vocab_size: 32k\n"
				   "  hidden_size: 1024\n"
				   "  num_hidden_layers: 8\n"
				   "  num_attention_heads: 8\n"
				   "  intermediate_size: 2816\n"
				   "gpu:\n"
				   "  name: Toy GPU\n"
				   "  memory: 24 GiB\n"
				   "  memory_bandwidth: 1 TB/s\n"
				   "  peak_flops: {bf16: 100 TFLOP/s, fp16: 1e14}\n"
				   "  tdp: 0.3 kW\n"
				   "gpus: 2\n"
				   "batch: \"4\"\n";

	(void)state;
	engine_scenario_default(&sc);
	if (preset_scenario_load_text(reg, "inline.yaml", text, sizeof text - 1, &sc, &err) != NAPKIN_OK)
		fail_err("inline", &err);
	assert_string_equal(sc.model.name, "Toy");
	assert_string_equal(sc.model.id, "");
	assert_int_equal(sc.model.vocab, 32000);
	assert_int_equal(sc.model.head_dim, 128);
	assert_string_equal(sc.gpu.name, "Toy GPU");
	assert_true(sc.gpu.memory_bytes == 24.0 * 1073741824.0);
	assert_true(sc.gpu.peak[ENGINE_DT_FP16] == 1e14);
	assert_true(sc.gpu.tdp_w == 300);
	assert_int_equal(sc.batch, 4);
	round_trip(reg, &sc, "inline");

	/* an error inside the inline model names its path */
	{
		static const char bad[] = "gpus: 2\nmodel:\n  architecture: llama\n  vocab_size: 32000\n";
		engine_scenario_default(&sc);
		assert_int_not_equal(preset_scenario_load_text(reg, "bad.yaml", bad, sizeof bad - 1, &sc, &err), 0);
		assert_int_equal(err.line, 3);
		assert_int_equal(err.col, 3);
		assert_string_equal(err.msg, "missing required field 'hidden_size' (in model)");
		assert_int_equal(sc.gpus, 8); /* all or nothing */
	}
	/* GPU and model from text */
	{
		struct engine_gpu g;
		struct engine_model m;
		static const char gt[] = "name: G\nmemory: 1 GB\nmemory_bandwidth: 1e12\npeak_flops: {fp32: 1e13}\n";
		static const char mt[] = "{\"model_type\": \"gpt2\", \"n_embd\": 64, \"n_layer\": 2, \"n_head\": 2, "
					 "\"vocab_size\": 100, \"n_positions\": 32}";
		assert_int_equal(preset_gpu_from_text(reg, "g.yaml", gt, sizeof gt - 1, &g, &err), 0);
		assert_true(g.bandwidth == 1e12);
		assert_int_equal(preset_model_from_text(reg, "m.json", mt, sizeof mt - 1, &m, &err), 0);
		assert_int_equal(m.ffn, 256);
	}
	preset_registry_free(reg);
}

/* GPU and model YAML read back as the same struct. */
static void test_yaml_writers_read_back(void **state)
{
	struct preset_registry *reg = tp_builtin();
	size_t i;

	(void)state;
	for (i = 0; i < preset_count(reg, PRESET_GPU); i++) {
		struct engine_gpu g, back;
		struct napkin_err err;
		char *text;
		size_t len;
		const char *id = preset_at(reg, PRESET_GPU, i)->id;
		int k;
		assert_int_equal(preset_gpu(reg, id, &g, &err), 0);
		/* as given, then with a size that no larger unit writes whole and that is under 1e6
		 * as a bare number (refused when read): written in the base unit,
		 * "overhead: 786432 B" (fuzz_gpu found "overhead: 786432", which did not load back) */
		for (k = 0; k < 2; k++) {
			if (k == 1)
				g.overhead_bytes = 786432.0;
			assert_int_equal(preset_gpu_to_yaml(&g, &text, &len, &err), 0);
			if (preset_gpu_from_text(reg, id, text, len, &back, &err) != NAPKIN_OK)
				fail_err(text, &err);
			util_strlcpy(back.id, g.id, sizeof back.id);
			assert_memory_equal(&g, &back, sizeof g);
			free(text);
		}
	}
	for (i = 0; i < preset_count(reg, PRESET_MODEL); i++) {
		struct engine_model m, back;
		struct napkin_err err;
		char *text;
		size_t len;
		const char *id = preset_at(reg, PRESET_MODEL, i)->id;
		assert_int_equal(preset_model(reg, id, &m, &err), 0);
		assert_int_equal(preset_model_to_yaml(&m, &text, &len, &err), 0);
		if (preset_model_from_text(reg, id, text, len, &back, &err) != NAPKIN_OK)
			fail_err(text, &err);
		util_strlcpy(back.id, m.id, sizeof back.id);
		assert_memory_equal(&m, &back, sizeof m);
		free(text);
	}
	preset_registry_free(reg);
}

/* What a file holds, by its content (or its directory): the explorer's o and pickers open
 * each by that. */
static void test_file_kind(void **state)
{
	static const struct {
		const char *path;
		enum preset_kind kind;
		bool hf;
	} cases[] = {
		{"tests/data/hf/mistral-7b.json", PRESET_MODEL, true},
		{"tests/data/hf/gpt2.json", PRESET_MODEL, true},
		{"tests/data/presets/good/measured-gpu.yaml", PRESET_GPU, false},
		{"tests/data/presets/good/odd-biases.yaml", PRESET_MODEL, false},
		{"presets/models/qwen2.5-7b.yaml", PRESET_MODEL, false},
		{"presets/gpus/h100-sxm.yaml", PRESET_GPU, false},
		{"presets/scenarios/serve-70b.yaml", PRESET_SCENARIO, false},
	};
	char path[4096];
	struct napkin_err err;
	enum preset_kind kind;
	bool hf;
	size_t i;

	(void)state;
	for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		testutil_src(cases[i].path, path, sizeof path);
		assert_int_equal(preset_file_kind(path, &kind, &hf, &err), 0);
		assert_int_equal(kind, cases[i].kind);
		assert_int_equal(hf, cases[i].hf);
	}
	assert_int_not_equal(preset_file_kind("/nonexistent/file.yaml", &kind, NULL, &err), 0);
	assert_non_null(strstr(err.file[0] ? err.file : err.msg, "nonexistent"));
}

/* A path longer than struct napkin_err's file (256 bytes) keeps its end, so "file:line:col"
 * still names the file: a 400-character directory, an error at 2:1. */
static void test_long_path_keeps_position(void **state)
{
	struct preset_registry *reg = tp_builtin();
	struct engine_scenario sc;
	struct napkin_err err;
	char dir[600], path[700], cmd[800], line[1200], name[460];
	const char *f;
	size_t n, i;

	(void)state;
	n = (size_t)snprintf(dir, sizeof dir, "/tmp/napkin-long-%d", (int)getpid());
	while (n < 400) /* 400 characters: components of 24 */
		n += (size_t)snprintf(dir + n, sizeof dir - n, "/component_of_the_path_%02zu", n / 24);
	dir[400] = '\0';
	assert_int_equal(strlen(dir), 400);
	snprintf(cmd, sizeof cmd, "mkdir -p '%s'", dir);
	assert_int_equal(system(cmd), 0);
	snprintf(path, sizeof path, "%s/run.yaml", dir);
	write_file(path, "batch: 2\nbogus: 1\n");
	engine_scenario_default(&sc);
	util_err_clear(&err);
	assert_int_not_equal(preset_scenario_load(reg, path, &sc, &err), 0);
	assert_int_equal(err.line, 2);
	assert_int_equal(err.col, 1);
	/* "…" then the path's end from a '/', all of it the path's own end */
	assert_true(strlen(err.file) < sizeof err.file);
	assert_memory_equal(err.file, "…/", 4);
	f = err.file + 3;
	assert_string_equal(path + strlen(path) - strlen(f), f);
	util_err_format(&err, line, sizeof line);
	print_message("%s\n", line);
	assert_non_null(strstr(line, "/run.yaml:2:1: unknown knob 'bogus'"));
	snprintf(cmd, sizeof cmd, "rm -rf /tmp/napkin-long-%d", (int)getpid());
	assert_int_equal(system(cmd), 0);
	/* a name with no '/' in its last 252 bytes: cut before a character, never inside one */
	for (i = 0; i < 150; i++)
		memcpy(name + 3 * i, "显", 3);
	memcpy(name + 450, ".yaml", 6);
	util_err_at(&err, name, 3, 4);
	assert_memory_equal(err.file, "…显", 6);
	n = strlen(err.file);
	assert_true(n < sizeof err.file && (n - 3 - 5) % 3 == 0);
	assert_string_equal(err.file + n - 8, "显.yaml");
	/* a path that fits is kept whole */
	util_err_at(&err, "presets/gpus/x.yaml", 1, 1);
	assert_string_equal(err.file, "presets/gpus/x.yaml");
	preset_registry_free(reg);
}

static const struct CMUnitTest tests[] = {
	cmocka_unit_test(test_file_kind),
	cmocka_unit_test(test_gpu_presets_match_reference),
	cmocka_unit_test(test_h100_matches_engine),
	cmocka_unit_test(test_model_presets_count_exactly),
	cmocka_unit_test(test_hf_configs_load_as_they_are),
	cmocka_unit_test(test_course_worked_examples),
	cmocka_unit_test(test_every_scenario_round_trips),
	cmocka_unit_test(test_custom_scenarios_round_trip),
	cmocka_unit_test(test_report_scenario_loads_back),
	cmocka_unit_test(test_probed_gpu_file),
	cmocka_unit_test(test_save_failure_keeps_old_file),
	cmocka_unit_test(test_search_order),
	cmocka_unit_test(test_inline_model_and_gpu),
	cmocka_unit_test(test_yaml_writers_read_back),
	cmocka_unit_test(test_long_path_keeps_position),
};

TESTUTIL_MAIN("presets", tests)
