/*
 * Today's architectures read from their published config.json (tests/data/hf, README.md
 * there: where each file comes from) and counted by the layer table (src/engine/layer.c):
 *  - the total is the published exact count (the Hugging Face safetensors total, Hub API
 *    `safetensors.total`) less what the checkpoint stores beside the language model, each
 *    part as the model's own documents give it: DeepSeek-V3's MTP layer (README_WEIGHTS.md:
 *    "671B main model weights and 14B MTP module") and the FP8 block scales; Qwen3-Next's
 *    MTP module; the vision towers of Gemma 3 (SigLIP), Llama 4 and Mistral 3 (Pixtral);
 *  - the active count per token against the model cards' rounded figures (DeepSeek-V3
 *    "37B activated", Qwen3-30B-A3B "3.3B", gpt-oss-120b "5.1B active"), which leave the
 *    input embedding out (a lookup, not a matmul): napkin's active less the embedding;
 *  - the KV cache per token from the architecture: 2·kv_heads·head_dim elements a layer,
 *    MLA's kv_lora_rank + qk_rope_head_dim (DeepSeek-V2 §2.1.2: 4.5·d_h for V3's 512 + 64),
 *    none for Qwen3-Next's gated DeltaNet layers (a fixed state instead).
 * The parts left out were counted by hand from the modelling code (tests/data/hf/hand_count.py),
 * independently of napkin.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "engine.h"
#include "presets.h"
#include "testutil.h"
#include "testpresets.h"

static struct preset_registry *reg;

static int setup(void **state)
{
	(void)state;
	reg = tp_builtin();
	return reg != NULL ? 0 : -1;
}

static int teardown(void **state)
{
	(void)state;
	preset_registry_free(reg);
	return 0;
}

static void load(const char *file, struct engine_model *m)
{
	char rel[160], path[512], buf[800];
	struct napkin_err err;

	snprintf(rel, sizeof rel, "tests/data/hf/%.100s", file);
	testutil_src(rel, path, sizeof path);
	if (preset_model(reg, path, m, &err) != NAPKIN_OK)
		fail_msg("%s: %s", file, util_err_format(&err, buf, sizeof buf));
}

struct arch_ref {
	const char *file;
	double published;   /* the HF safetensors total (0: none published) */
	double beside;      /* of which not the language model (vision, MTP, FP8 scales) */
	double card_total;  /* the model card's rounded total, and the tolerance of its rounding */
	double card_active, card_round;
};

static const struct arch_ref refs[] = {
	/* DeepSeek-V3: 684,531,386,000 stored = 671,026,419,200 + the MTP layer 13,463,426,304
	 * (with its copies of the embedding and head) + 41,540,496 fp32 weight_scale_inv */
	{"deepseek-v3.json", 684531386000.0, 13463426304.0 + 41540496.0, 671e9, 37e9, 0.5e9},
	{"kimi-k2-instruct.json", 0, 0, 1.0e12, 32e9, 0.5e9},      /* "1T total, 32B activated" */
	{"deepseek-v2-lite-layers.json", 15706484224.0, 0, 15.7e9, 2.4e9, 0.06e9}, /* "15.7B, 2.4B activated" */
	{"qwen3-8b.json", 8190735360.0, 0, 8.2e9, 0, 0},
	{"qwen3-30b-a3b.json", 30532122624.0, 0, 30.5e9, 3.3e9, 0.26e9}, /* "3.3B activated" */
	{"qwen3-235b-a22b.json", 235093634560.0, 0, 235e9, 22e9, 0.5e9},
	/* Qwen3-Next: the MTP module (1,650,471,424) is stored beside the 80B */
	{"qwen3-next-80b-a3b-thinking.json", 81324862720.0, 1650471424.0, 80e9, 3e9, 0.6e9},
	/* Gemma 3: SigLIP 416,866,032 and the projector (27B: 6,194,304; 4B: 2,950,272) */
	{"gemma-3-27b-it.json", 27432406640.0, 416866032.0 + 6194304.0, 27e9, 0, 0},
	{"gemma-3-4b-it-layers.json", 4300079472.0, 416866032.0 + 2950272.0, 4e9, 0, 0},
	{"gemma-3-1b-it.json", 999885952.0, 0, 1e9, 0, 0},
	/* Llama 4 Scout: the vision tower 850,960,896 and projector 20,971,520 */
	{"llama-4-scout-text.json", 108641793536.0, 850960896.0 + 20971520.0, 109e9, 17e9, 1.0e9},
	/* Mistral Small 3.1: Pixtral 403,305,472 and the projector 35,652,608 */
	{"mistral-small-3.1-24b.json", 24011361280.0, 403305472.0 + 35652608.0, 24e9, 0, 0},
	{"gpt-oss-120b.json", 116829156672.0, 0, 117e9, 5.1e9, 0.05e9}, /* "117B, 5.1B active" */
	{"gpt-oss-20b.json", 20914757184.0, 0, 21e9, 3.6e9, 0.05e9},
};

static void test_totals_and_active(void **state)
{
	size_t i;

	(void)state;
	for (i = 0; i < sizeof refs / sizeof refs[0]; i++) {
		const struct arch_ref *r = &refs[i];
		struct engine_model m;
		struct engine_params p;
		double active;

		load(r->file, &m);
		engine_model_params(&m, &p);
		active = p.active - (double)m.vocab * (double)m.hidden;
		print_message("%-34s total %.0f (published %.0f less %.0f)  active without the embedding %.4g\n", r->file,
			      p.total, r->published, r->beside, active);
		if (r->published > 0 && p.total != r->published - r->beside)
			fail_msg("%s: %.0f parameters, the published count less what is beside it is %.0f", r->file,
				 p.total, r->published - r->beside);
		/* the card's rounded total: within its last digit */
		if (fabs(p.total - r->card_total) > 0.03 * r->card_total)
			fail_msg("%s: %.4g parameters against the card's %.4g", r->file, p.total, r->card_total);
		if (r->card_active > 0 && fabs(active - r->card_active) > r->card_round)
			fail_msg("%s: %.4g active against the card's %.4g", r->file, active, r->card_active);
		if (m.experts <= 1)
			assert_true(p.active == p.total);
	}
}

/* DeepSeek-V3's MTP module is counted apart: one MoE layer (MLA and 256 + 1 experts), eh_proj
 * 2d × d and three norms, its embedding and head being the main model's: the stored MTP
 * layer 13,463,426,304 less its copies of them (2 × 129,280 × 7,168). */
static void test_mtp_apart(void **state)
{
	struct engine_model m;
	struct engine_params p;

	(void)state;
	load("deepseek-v3.json", &m);
	assert_int_equal(m.mtp_layers, 1);
	engine_model_params(&m, &p);
	assert_true(p.mtp == 13463426304.0 - 2.0 * 129280.0 * 7168.0);
}

static void kv_per_token(const char *file, double want_bytes)
{
	struct engine_model m;
	struct engine_scenario sc;
	struct engine_result r;
	struct napkin_err err;

	load(file, &m);
	engine_scenario_default(&sc);
	sc.model = m;
	sc.mode = ENGINE_MODE_INFER;
	sc.prompt = 1024;
	sc.generate = 128;
	sc.batch = 1;
	sc.gpus = 8;
	sc.tp = 8;
	sc.pp = 1;
	sc.ep = 1;
	util_err_clear(&err);
	if (engine_evaluate(&sc, &r, &err) != NAPKIN_OK)
		fail_msg("%s: %s", file, err.msg);
	if (r.inference.kv_bytes_per_token != want_bytes)
		fail_msg("%s: %.0f KV bytes per token, the architecture's %.0f", file, r.inference.kv_bytes_per_token,
			 want_bytes);
}

static void test_kv_per_token(void **state)
{
	(void)state;
	/* 61 layers × (512 + 64) × 2 bytes (bf16) */
	kv_per_token("deepseek-v3.json", 61.0 * 576.0 * 2.0);
	/* DeepSeek-V2-Lite: 27 layers × (512 + 64) */
	kv_per_token("deepseek-v2-lite-layers.json", 27.0 * 576.0 * 2.0);
	/* Qwen3-Next: 12 of 48 layers full attention, 2 KV heads of 256; 36 gated DeltaNet */
	kv_per_token("qwen3-next-80b-a3b-thinking.json", 12.0 * 2.0 * 2.0 * 256.0 * 2.0);
	/* gpt-oss-120b: 36 layers × 2 × 8 × 64 (the windowed layers cap how many tokens) */
	kv_per_token("gpt-oss-120b.json", 36.0 * 2.0 * 8.0 * 64.0 * 2.0);
	/* Gemma 3 27B: 62 layers × 2 × 16 × 128 */
	kv_per_token("gemma-3-27b-it.json", 62.0 * 2.0 * 16.0 * 128.0 * 2.0);
}

/* The attention pattern: Gemma 3's five local layers to one global (sliding_window_pattern 6
 * of Gemma3TextConfig), Llama 4's three chunked to one NoPE global, gpt-oss's alternation,
 * Qwen3-Next's three linear to one full (full_attention_interval 4). */
static void test_patterns(void **state)
{
	struct engine_model m;

	(void)state;
	load("gemma-3-27b-it.json", &m);
	assert_int_equal(m.sliding_window, 1024);
	assert_int_equal(m.window_layers, 62 - 62 / 6);
	assert_int_equal(m.norms_per_layer, 4);
	assert_true(m.qk_norm);
	load("llama-4-scout-text.json", &m);
	assert_int_equal(m.sliding_window, 8192);
	assert_int_equal(m.window_layers, 48 - 48 / 4);
	assert_int_equal(m.experts, 16);
	assert_int_equal(m.shared_experts, 1);
	load("gpt-oss-120b.json", &m);
	assert_int_equal(m.window_layers, 18);
	assert_true(m.sinks && m.router_bias && m.expert_bias);
	load("qwen3-next-80b-a3b-thinking.json", &m);
	assert_int_equal(m.linear_layers, 36);
	load("deepseek-v3.json", &m);
	assert_int_equal(m.dense_layers, 3);
	assert_int_equal(m.kv_lora_rank, 512);
}

/* A hybrid napkin cannot count is refused by name, not blamed on the file. */
static void test_unsupported_named(void **state)
{
	static const char *const files[] = {"kimi-linear-48b-a3b-layers.json", "nemotron-h-56b.json"};
	static const char *const want[] = {"Kimi Delta Attention layers are not supported by napkin yet",
					   "Mamba2 layers are not supported by napkin yet"};
	size_t i;

	(void)state;
	for (i = 0; i < 2; i++) {
		char rel[160], path[512];
		struct engine_model m;
		struct napkin_err err;
		snprintf(rel, sizeof rel, "tests/data/hf/%s", files[i]);
		testutil_src(rel, path, sizeof path);
		assert_int_not_equal(preset_model(reg, path, &m, &err), NAPKIN_OK);
		if (strstr(err.msg, want[i]) == NULL)
			fail_msg("%s: %s", files[i], err.msg);
	}
}

static const struct engine_op_row *op_row(const struct engine_ops *ops, const char *name)
{
	int i;

	for (i = 0; i < ops->n; i++)
		if (strcmp(ops->row[i].name, name) == 0)
			return &ops->row[i];
	fail_msg("no op %s", name);
	return NULL;
}

/* napkin report --ops against hand counts. Llama-2-7B, one micro-batch of 4096 tokens on one
 * H100 (bf16): q_proj 2·4096·4096·4096 = 137.4 GFLOP, reading 4096×4096 inputs and weights
 * and writing 4096×4096 outputs of 2 bytes: 100,663,296 B; FlashAttention's causal kernel
 * 2·4096·2048·32·(128 + 128) = 137.4 GFLOP, its backward 2.5× that (Dao 2023, §3).
 * DeepSeek-V3 decoding 32 sequences at an average context of 768.5 on tp 8: the absorbed
 * MLA (DeepSeek-V2 §2.1.2) attends over the 512-wide latent and the 64-wide rotary key,
 * 2·(512 + 64 + 512) FLOPs per key per head: 2·32·768.5·16·1088; the cache it reads is the
 * whole latent on each rank, 576 × 2 bytes per key. */
static void test_ops_table(void **state)
{
	struct engine_scenario sc;
	struct engine_ops ops;
	struct napkin_err err;
	const struct engine_op_row *r;

	(void)state;
	engine_scenario_default(&sc);
	sc.gpus = 1;
	sc.batch = 1;
	sc.seq = 4096;
	sc.grad_accum = 1;
	assert_int_equal(engine_ops(&sc, &ops, &err), NAPKIN_OK);
	r = op_row(&ops, "q_proj");
	assert_true(r->layers == 32);
	assert_true(r->flops[ENGINE_PHASE_FORWARD] == 2.0 * 4096.0 * 4096.0 * 4096.0);
	assert_true(r->bytes[ENGINE_PHASE_FORWARD] == 100663296.0);
	assert_false(r->memory_bound[ENGINE_PHASE_FORWARD]);
	r = op_row(&ops, "attention");
	assert_true(r->flops[ENGINE_PHASE_FORWARD] == 2.0 * 4096.0 * 2048.0 * 32.0 * 256.0);
	assert_true(r->flops[ENGINE_PHASE_BACKWARD] == 2.5 * r->flops[ENGINE_PHASE_FORWARD]);
	r = op_row(&ops, "lm_head");
	assert_true(r->flops[ENGINE_PHASE_FORWARD] == 2.0 * 4096.0 * 4096.0 * 32000.0);

	load("deepseek-v3.json", &sc.model);
	sc.mode = ENGINE_MODE_INFER;
	sc.gpus = 8;
	sc.tp = 8;
	sc.batch = 32;
	sc.prompt = 512;
	sc.generate = 512;
	assert_int_equal(engine_ops(&sc, &ops, &err), NAPKIN_OK);
	assert_true(ops.context[ENGINE_PHASE_DECODE] == 768.5);
	r = op_row(&ops, "attention");
	assert_true(r->layers == 61);
	assert_true(fabs(r->flops[ENGINE_PHASE_DECODE] - 2.0 * 32.0 * 768.5 * 16.0 * 1088.0) < 1.0);
	assert_true(r->bytes[ENGINE_PHASE_DECODE] >= 32.0 * 768.5 * 576.0 * 2.0);
	assert_true(r->memory_bound[ENGINE_PHASE_DECODE]);
	r = op_row(&ops, "experts.gate_proj");
	assert_true(r->layers == 58);
	r = op_row(&ops, "gate_proj");
	assert_true(r->layers == 3);
}

/* gpt-oss-20b decoding one sequence (MXFP4 experts, bf16 attention and router): what a
 * step reads is the attention and router of 24 layers at 2 bytes a weight
 * (24 × (2880·4096 + 2·2880·512 + 4096·2880 + 2880·32)), the 4 experts its token routes to
 * at 4.25 bits (24 × 4 × 3 × 2880²), the head at 2 bytes (201088 × 2880); the rest (norms,
 * biases, sinks, the KV cache of ~700 keys) is under 1% of it. One average of 4.63 bits for
 * every linear would read 22% less. */
static void test_mxfp4_decode_bytes(void **state)
{
	struct engine_scenario sc;
	struct engine_result r;
	struct napkin_err err;
	double attn = 24.0 * (2880.0 * 4096.0 * 2.0 + 2.0 * 2880.0 * 512.0 + 2880.0 * 32.0) * 2.0;
	double experts = 24.0 * 4.0 * 3.0 * 2880.0 * 2880.0 * 4.25 / 8.0, head = 201088.0 * 2880.0 * 2.0;

	(void)state;
	engine_scenario_default(&sc);
	load("gpt-oss-20b.json", &sc.model);
	sc.mode = ENGINE_MODE_INFER;
	sc.weight_format = sc.model.checkpoint_format;
	sc.gpus = 1;
	sc.tp = 1;
	sc.batch = 1;
	assert_int_equal(sc.weight_format, ENGINE_WF_MXFP4_EXPERTS);
	util_err_clear(&err);
	if (engine_evaluate(&sc, &r, &err) != NAPKIN_OK)
		fail_msg("%s", err.msg);
	print_message("decode bytes %.0f, by hand %.0f\n", r.inference.decode_bytes, attn + experts + head);
	assert_true(r.inference.decode_bytes >= attn + experts + head);
	assert_true(r.inference.decode_bytes <= 1.01 * (attn + experts + head));
}

/* The presets of these models (presets/models) count what their config.json files count. */
static void test_presets_agree(void **state)
{
	static const char *const pairs[][2] = {
		{"deepseek-v3", "deepseek-v3.json"},	     {"kimi-k2", "kimi-k2-instruct.json"},
		{"qwen3-8b", "qwen3-8b.json"},		     {"qwen3-30b-a3b", "qwen3-30b-a3b.json"},
		{"qwen3-235b-a22b", "qwen3-235b-a22b.json"}, {"qwen3-next-80b-a3b", "qwen3-next-80b-a3b-thinking.json"},
		{"gemma-3-27b", "gemma-3-27b-it.json"},	     {"llama-4-scout", "llama-4-scout-text.json"},
		{"gpt-oss-120b", "gpt-oss-120b.json"},	     {"gpt-oss-20b", "gpt-oss-20b.json"},
		{"mistral-small-3.1-24b", "mistral-small-3.1-24b.json"},
	};
	size_t i;

	(void)state;
	for (i = 0; i < sizeof pairs / sizeof pairs[0]; i++) {
		struct engine_model a, b;
		struct engine_params pa, pb;
		struct engine_scenario sa, sb;
		struct engine_result ra, rb;
		struct napkin_err err;
		if (preset_model(reg, pairs[i][0], &a, &err) != NAPKIN_OK)
			fail_msg("%s: %s", pairs[i][0], err.msg);
		load(pairs[i][1], &b);
		engine_model_params(&a, &pa);
		engine_model_params(&b, &pb);
		assert_int_equal(a.checkpoint_format, b.checkpoint_format); /* gpt-oss: mxfp4-experts; DeepSeek: fp8 */
		if (pa.total != pb.total || pa.active != pb.active || pa.mtp != pb.mtp)
			fail_msg("%s: %.0f / %.0f against %s's %.0f / %.0f", pairs[i][0], pa.total, pa.active, pairs[i][1],
				 pb.total, pb.active);
		/* and the same KV cache and step */
		engine_scenario_default(&sa);
		sa.model = a;
		sa.mode = ENGINE_MODE_INFER;
		sa.tp = 8;
		sb = sa;
		sb.model = b;
		assert_int_equal(engine_evaluate(&sa, &ra, &err), NAPKIN_OK);
		assert_int_equal(engine_evaluate(&sb, &rb, &err), NAPKIN_OK);
		assert_true(ra.memory.kv_cache == rb.memory.kv_cache);
		assert_true(ra.inference.tpot_seconds == rb.inference.tpot_seconds);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_totals_and_active),
		cmocka_unit_test(test_mtp_apart),
		cmocka_unit_test(test_kv_per_token),
		cmocka_unit_test(test_patterns),
		cmocka_unit_test(test_unsupported_named),
		cmocka_unit_test(test_ops_table),
		cmocka_unit_test(test_mxfp4_decode_bytes),
		cmocka_unit_test(test_presets_agree),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
