/*
 * The engine against published figures (../shared/reference/papers.md), never against
 * its own output: CS336's worked examples, ZeRO's figure 1, Korthikanti's activation
 * formulas on their GPT configuration, Megatron's FLOPs formulas, PaLM's MFU, Chinchilla's
 * 6·N·D, the decode verdict, and the traps other calculators fell into.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "engine.h"
#include "testengine.h"
#include "testutil.h"

static void base(struct engine_scenario *sc)
{
	engine_scenario_default(sc);
}

/* The model of Korthikanti et al. 2022 and Narayanan et al. 2021: GPT with a plain 4h MLP,
 * LayerNorm, biases, learned positions, dropout, 16-bit activations. GPT-3 175B: h = 12288,
 * a = 96, L = 96, s = 2048, V = 51200 (Megatron's padded vocabulary). */
static void gpt3_175b(struct engine_scenario *sc)
{
	base(sc);
	te_set(sc, "layers", "96");
	te_set(sc, "hidden", "12288");
	te_set(sc, "heads", "96");
	te_set(sc, "kv_heads", "96");
	te_set(sc, "head_dim", "128");
	te_set(sc, "ffn", "49152");
	te_set(sc, "vocab", "51200");
	te_set(sc, "mlp", "plain");
	te_set(sc, "norm", "layernorm");
	te_set(sc, "bias", "all");
	te_set(sc, "position", "learned");
	te_set(sc, "max_positions", "2048");
	te_set(sc, "dropout", "on");
	te_set(sc, "tied_embeddings", "on");
	te_set(sc, "seq", "2048");
	te_set(sc, "batch", "1");
	te_set(sc, "precision", "mixed-fp16");
	te_set(sc, "flash_attention", "off");
	te_set(sc, "gpus", "8");
	te_set(sc, "zero", "0");
	te_set(sc, "kernels", "fused"); /* Megatron-LM's kernels: what the paper counts */
}

/* CS336 lecture 2: 70B on 15T tokens on 1024 H100s at MFU 0.5 (dense bf16 989.5 TFLOP/s):
 * 6·70e9·15e12 = 6.3e24 FLOPs, 143.93 days. */
static void test_cs336_training_time(void **state)
{
	struct engine_scenario sc;
	struct engine_result r;

	(void)state;
	base(&sc);
	te_set(&sc, "params", "70B");
	te_set(&sc, "gpus", "1024");
	te_set(&sc, "tokens", "15T");
	te_set(&sc, "mfu", "0.5");
	te_set(&sc, "flops_formula", "6n");
	te_evaluate(&sc, &r);
	/* the 70B shape has real dims (ffn a multiple of 256): 69.98 B, 0.02% under 70e9 */
	assert_close(r.params.total, 70e9, 5e-4);
	assert_close(r.compute.train_flops, 6.3e24, 5e-4);
	assert_close(r.compute.train_days, 143.93, 5e-4);
	/* the exact count is higher: attention and the LM head are not in 6·N */
	te_set(&sc, "flops_formula", "exact");
	te_evaluate(&sc, &r);
	assert_true(r.compute.train_days > 143.93);
}

/* CS336 lecture 2: the largest model trainable on 8 H100s (80e9 bytes each) with fp32 AdamW
 * at 4 + 4 + 4 + 4 = 16 bytes per parameter, ignoring activations: 4.0e10. */
static void test_cs336_largest_model(void **state)
{
	struct engine_scenario sc;
	struct engine_result r;

	(void)state;
	base(&sc);
	te_set(&sc, "precision", "fp32");
	te_set(&sc, "optimizer", "adamw");
	te_set(&sc, "gpus", "8");
	te_set(&sc, "zero", "3");
	te_set(&sc, "activations", "off");
	te_set(&sc, "overhead", "0");
	te_set(&sc, "gpu_memory", "80GB");
	te_evaluate(&sc, &r);
	assert_close(r.memory.bytes_per_param, 16.0, 1e-12);
	assert_close(r.memory.max_params, 4.0e10, 1e-6);
}

/* ZeRO (Rajbhandari et al. 2019), figure 1: Ψ = 7.5B, Nd = 64, K = 12 (mixed-precision
 * Adam): per device 120 GB, 31.4 GB, 16.6 GB, 1.9 GB for stages 0 to 3 (GB = 1e9). */
static void test_zero_figure1(void **state)
{
	static const double published[4] = {120e9, 31.4e9, 16.6e9, 1.9e9};
	struct engine_scenario sc;
	struct engine_result r;
	int stage;

	(void)state;
	for (stage = 0; stage <= 3; stage++) {
		char z[8];
		double states, want;
		base(&sc);
		te_set(&sc, "params", "7.5B");
		te_set(&sc, "precision", "mixed-bf16");
		te_set(&sc, "optimizer", "adamw");
		te_set(&sc, "gpus", "64");
		te_set(&sc, "activations", "off");
		snprintf(z, sizeof z, "%d", stage);
		te_set(&sc, "zero", z);
		te_evaluate(&sc, &r);
		states = r.memory.weights + r.memory.master + r.memory.gradients + r.memory.optimizer;
		/* the paper's figures are for Ψ = 7.5e9 and scale with Ψ (16Ψ, 4Ψ + 12Ψ/64, ...); the
		 * 7.5B shape has real dims (ffn a multiple of 256), so Ψ is its count, within 1% of
		 * 7.5e9; the paper rounds to 0.1 GB */
		assert_close(r.params.total, 7.5e9, 1e-2);
		want = published[stage] * r.params.total / 7.5e9;
		assert_true(fabs(states - want) <= 0.05e9 + 1e-4 * want);
	}
}

/* Megatron-LM, docs/distrib_optimizer.md: the theoretical bytes per parameter with Adam,
 * "bf16 param, fp32 grads": 18 with the plain optimizer, 6 + 12/d with the distributed one
 * (d the data-parallel size): bf16 weights, the fp32 main_grad buffer (arguments.py turns
 * accumulate_allreduce_grads_in_fp32 on for --bf16), an fp32 master and two fp32 states; the
 * distributed optimizer shards the master and the states, not the grad buffer ("[no]
 * distribute model gradients"). DeepSpeed's mixed precision (kernels eager) keeps ZeRO's 16. */
static void test_megatron_main_grad(void **state)
{
	static const char *const precisions[] = {"mixed-bf16", "fp8-mixed"};
	struct engine_scenario sc;
	struct engine_result r;
	size_t i;
	int zero;

	(void)state;
	for (i = 0; i < 2; i++)
		for (zero = 0; zero <= 1; zero++) {
			double states, per;
			base(&sc);
			te_set(&sc, "params", "7.5B");
			te_set(&sc, "precision", precisions[i]);
			te_set(&sc, "kernels", "fused");
			te_set(&sc, "gpus", "8");
			te_set(&sc, "zero", zero ? "1" : "0");
			te_set(&sc, "activations", "off");
			te_evaluate(&sc, &r);
			states = r.memory.weights + r.memory.master + r.memory.gradients + r.memory.optimizer;
			per = states / r.params.total;
			assert_close(r.memory.bytes_per_param, 18.0, 1e-12);
			assert_close(per, zero ? 6.0 + 12.0 / 8.0 : 18.0, 1e-9);
			assert_int_equal(r.memory.grad_dt, ENGINE_DT_FP32);
		}
	base(&sc);
	te_set(&sc, "precision", "mixed-bf16");
	te_set(&sc, "kernels", "eager");
	te_evaluate(&sc, &r);
	assert_close(r.memory.bytes_per_param, 16.0, 1e-12);
	/* fp16 parameters: the flag stays off, 16-bit gradients */
	te_set(&sc, "precision", "mixed-fp16");
	te_set(&sc, "kernels", "fused");
	te_evaluate(&sc, &r);
	assert_int_equal(r.memory.grad_dt, ENGINE_DT_FP16);
}

/* Korthikanti et al. 2022, table 2, activations per layer in bytes for GPT-3 175B with
 * t = 8: no parallelism s·b·h·(34 + 5as/h); TP s·b·h·(10 + 24/t + 5as/(ht)); TP+SP
 * s·b·h·(34/t + 5as/(ht)); TP + selective s·b·h·(10 + 24/t); TP+SP+selective s·b·h·34/t;
 * full recomputation 2·s·b·h per layer. */
static void test_korthikanti_activations(void **state)
{
	struct engine_scenario sc;
	struct engine_result r;
	const double s = 2048, b = 1, h = 12288, a = 96, t = 8;
	const double sbh = s * b * h;

	(void)state;
	gpt3_175b(&sc);
	te_set(&sc, "tp", "1");
	te_evaluate(&sc, &r);
	assert_close(r.memory.activations_per_layer, sbh * (34 + 5 * a * s / h), 1e-12);

	te_set(&sc, "tp", "8");
	te_evaluate(&sc, &r);
	assert_close(r.memory.activations_per_layer, sbh * (10 + 24 / t + 5 * a * s / (h * t)), 1e-12);

	te_set(&sc, "sequence_parallel", "on");
	te_evaluate(&sc, &r);
	assert_close(r.memory.activations_per_layer, sbh * (34 / t + 5 * a * s / (h * t)), 1e-12);

	te_set(&sc, "recompute", "selective");
	te_evaluate(&sc, &r);
	assert_close(r.memory.activations_per_layer, sbh * (34 / t), 1e-12);

	te_set(&sc, "sequence_parallel", "off");
	te_evaluate(&sc, &r);
	assert_close(r.memory.activations_per_layer, sbh * (10 + 24 / t), 1e-12);

	/* full recomputation: 2·s·b·h kept per layer (plus one layer's working set while it
	 * is recomputed, less its input, which is the kept 2·s·b·h) */
	te_set(&sc, "tp", "1");
	te_set(&sc, "recompute", "full");
	te_set(&sc, "dropout", "off");
	te_evaluate(&sc, &r);
	{
		struct engine_scenario one = sc;
		struct engine_result r1;
		te_set(&one, "recompute", "none");
		te_evaluate(&one, &r1);
		assert_close(r.memory.activations_per_layer, 2 * sbh, 1e-12);
		assert_close(r.memory.activations, 96 * 2 * sbh + r1.memory.activations_per_layer - 2 * sbh, 1e-12);
	}
}

/* 1F1B pipelining: the first stage holds p micro-batches of L/p layers, L layers' worth
 * (Korthikanti et al. 2022, §4.2.3), when there are at least p micro-batches. */
static void test_pipeline_inflight(void **state)
{
	struct engine_scenario sc;
	struct engine_result r1, r8;

	(void)state;
	gpt3_175b(&sc);
	te_set(&sc, "gpus", "64");
	te_set(&sc, "tp", "8");
	te_set(&sc, "grad_accum", "16");
	te_evaluate(&sc, &r1);
	te_set(&sc, "pp", "8");
	te_evaluate(&sc, &r8);
	assert_close(r8.memory.activations_per_layer * 96, r1.memory.activations_per_layer * 96, 1e-12);
	assert_close(r8.memory.inflight_microbatches, 8, 0);
	assert_close(r8.memory.layers_per_stage, 12, 0);
	/* the transformer layers' activations are the same L layers' worth */
	assert_close(r8.memory.inflight_microbatches * r8.memory.layers_per_stage * r8.memory.activations_per_layer,
		     96 * r1.memory.activations_per_layer, 1e-12);
}

/* Korthikanti et al. 2022, appendix A: model FLOPs per iteration
 * 72·B·L·s·h²·(1 + s/(6h) + V/(12·h·L)); with selective recomputation the hardware FLOPs
 * replace s/(6h) by s/(3h). Narayanan et al. 2021 with full recomputation:
 * 96·B·s·L·h²·(1 + s/(6h) + V/(16·L·h)). B is the sequences per iteration. */
static void test_megatron_flops(void **state)
{
	struct engine_scenario sc;
	struct engine_result r;
	const double s = 2048, h = 12288, L = 96, V = 51200;
	const double per_seq_model = 72 * L * s * h * h * (1 + s / (6 * h) + V / (12 * h * L));

	(void)state;
	gpt3_175b(&sc);
	te_evaluate(&sc, &r);
	assert_close(r.compute.flops_per_token_train * s, per_seq_model, 1e-12);

	te_set(&sc, "recompute", "selective");
	te_evaluate(&sc, &r);
	assert_close(r.compute.flops_per_token_hw * s, 72 * L * s * h * h * (1 + s / (3 * h) + V / (12 * h * L)), 1e-12);
	assert_close(r.compute.flops_per_token_train * s, per_seq_model, 1e-12);

	te_set(&sc, "recompute", "full");
	te_evaluate(&sc, &r);
	assert_close(r.compute.flops_per_token_hw * s, 96 * s * L * h * h * (1 + s / (6 * h) + V / (16 * L * h)), 1e-12);

	/* their table 5: GPT-3 175B with selective recomputation, MFU 51.4% ↔ HFU 52.8% */
	te_set(&sc, "recompute", "selective");
	te_evaluate(&sc, &r);
	assert_close(r.compute.hfu / r.compute.mfu, 52.8 / 51.4, 2e-3);
}

/* PaLM (Chowdhery et al. 2022), appendix B: PaLM 540B at 238.3K tokens/s on 6144 TPU v4
 * chips (275 TFLOP/s bf16) has an MFU of 46.2%. Shape: d 18432, 118 layers, 48 heads of
 * 256, multi-query (1 KV head), ffn 4d SwiGLU, vocabulary 256k, shared embeddings. */
static void test_palm_mfu(void **state)
{
	struct engine_scenario sc;
	struct engine_result r;

	(void)state;
	base(&sc);
	te_set(&sc, "layers", "118");
	te_set(&sc, "hidden", "18432");
	te_set(&sc, "heads", "48");
	te_set(&sc, "kv_heads", "1");
	te_set(&sc, "head_dim", "256");
	te_set(&sc, "ffn", "73728");
	te_set(&sc, "vocab", "256000");
	te_set(&sc, "tied_embeddings", "on");
	te_set(&sc, "seq", "2048");
	te_set(&sc, "gpus", "6144");
	te_set(&sc, "peak_flops", "275T");
	te_set(&sc, "tokens_per_s", "238.3k");
	te_set(&sc, "flash_attention", "off");
	te_evaluate(&sc, &r);
	assert_close(r.params.total, 540.35e9, 1e-3);
	assert_close(r.compute.mfu, 0.462, 2e-3);
}

/* Chinchilla (Hoffmann et al. 2022): 70B on 1.4T tokens ≈ 5.88e23 FLOPs by 6·N·D. */
static void test_chinchilla(void **state)
{
	struct engine_scenario sc;
	struct engine_result r;

	(void)state;
	base(&sc);
	te_set(&sc, "params", "70B");
	te_set(&sc, "tokens", "1.4T");
	te_set(&sc, "flops_formula", "6n");
	te_evaluate(&sc, &r);
	assert_close(r.compute.train_flops, 5.88e23, 1e-3);
}

/* Decoding a 7B bf16 model at batch 1 reads all weights (≈13.5 GB) per token: on an H100
 * SXM at 3.35 TB/s about 4 ms per token, 250 tokens/s: memory-bound, intensity ≈ 1 FLOP per
 * byte, far below the ridge 989.5e12 / 3.35e12 ≈ 295. */
static void test_decode_verdict(void **state)
{
	struct engine_scenario sc;
	struct engine_result r, r256;

	(void)state;
	base(&sc);
	te_set(&sc, "mode", "infer");
	te_set(&sc, "gpus", "1");
	te_set(&sc, "batch", "1");
	te_set(&sc, "prompt", "128");
	te_set(&sc, "generate", "128");
	te_evaluate(&sc, &r);
	assert_close(r.inference.decode_seconds_per_token, 4.0e-3, 0.03);
	assert_close(r.inference.decode_tokens_per_s, 250, 0.03);
	assert_true(r.roofline.points[ENGINE_PT_DECODE].memory_bound);
	assert_close(r.roofline.points[ENGINE_PT_DECODE].intensity, 1.0, 0.05);
	assert_close(r.roofline.ridge, 295.4, 1e-3);
	{
		char v[200];
		engine_roofline_verdict(&sc, &r, ENGINE_PT_DECODE, v, sizeof v);
		assert_non_null(strstr(v, "decode at batch 1 is memory-bound"));
		assert_non_null(strstr(v, "ridge 295"));
	}
	/* batch 256 reuses each weight read 256 times: far higher intensity */
	te_set(&sc, "batch", "256");
	te_evaluate(&sc, &r256);
	assert_true(r256.roofline.points[ENGINE_PT_DECODE].intensity > 50.0 * r.roofline.points[ENGINE_PT_DECODE].intensity);
	/* training is matrix × matrix: compute-bound */
	assert_false(r.roofline.points[ENGINE_PT_TRAIN].memory_bound);
	assert_true(r.roofline.points[ENGINE_PT_ELEMENTWISE].memory_bound);
}

/* Trap: the KV cache uses the KV heads (GQA/MQA), not the attention heads. Llama-2-70B:
 * 80 layers, 8 KV heads of 128: 2·80·8·128·2 bytes = 327,680 bytes per token in bf16. */
static void test_kv_cache_gqa(void **state)
{
	struct engine_scenario sc;
	struct engine_result r;

	(void)state;
	base(&sc);
	te_set(&sc, "layers", "80");
	te_set(&sc, "hidden", "8192");
	te_set(&sc, "heads", "64");
	te_set(&sc, "kv_heads", "8");
	te_set(&sc, "ffn", "28672");
	te_set(&sc, "mode", "infer");
	te_set(&sc, "gpus", "8");
	te_set(&sc, "tp", "8");
	te_set(&sc, "batch", "1");
	te_set(&sc, "prompt", "2048");
	te_set(&sc, "generate", "2048");
	te_evaluate(&sc, &r);
	assert_close(r.inference.kv_bytes_per_token, 327680, 0);
	/* per GPU: split over 8 TP ranks */
	assert_close(r.memory.kv_cache, 327680.0 * 4096 / 8, 1e-12);
}

/* Trap: a GPU's memory is per card: never summed across cards for a fit. */
static void test_capacity_per_card(void **state)
{
	struct engine_scenario sc;
	struct engine_result r;

	(void)state;
	base(&sc);
	te_set(&sc, "gpus", "64");
	te_set(&sc, "gpu_memory", "80GB");
	te_evaluate(&sc, &r);
	assert_close(r.memory.capacity, 80e9, 0);
	assert_true(r.memory.fits == (r.memory.total <= 80e9));
}

/* Trap: the LM head is a matmul (2 FLOPs per multiply-add), tied or not. GPT-2 small:
 * forward FLOPs per token minus attention = 2 × (12 layers × 12·768² + 50257·768). */
static void test_lm_head_flops(void **state)
{
	struct engine_scenario sc;
	struct engine_result r;

	(void)state;
	base(&sc);
	te_set(&sc, "layers", "12");
	te_set(&sc, "hidden", "768");
	te_set(&sc, "heads", "12");
	te_set(&sc, "kv_heads", "12");
	te_set(&sc, "head_dim", "64");
	te_set(&sc, "ffn", "3072");
	te_set(&sc, "vocab", "50257");
	te_set(&sc, "mlp", "plain");
	te_set(&sc, "norm", "layernorm");
	te_set(&sc, "bias", "all");
	te_set(&sc, "tied_embeddings", "on");
	te_set(&sc, "position", "learned");
	te_set(&sc, "max_positions", "1024");
	te_set(&sc, "seq", "1024");
	te_evaluate(&sc, &r);
	assert_close(r.params.total, 124439808, 0);
	assert_close(r.compute.flops_per_token_forward - r.compute.attention_flops_per_token,
		     2.0 * (12.0 * 12.0 * 768 * 768 + 50257.0 * 768), 1e-12);
	/* attention: 4·L·s·heads·head_dim */
	assert_close(r.compute.attention_flops_per_token, 4.0 * 12 * 1024 * 12 * 64, 0);
	/* backward twice the forward */
	assert_close(r.compute.flops_per_token_backward, 2.0 * r.compute.flops_per_token_forward, 0);
}

/* The chapter, 3.4: peak 1000 TFLOP/s and 500 achieved is 50% (achieved hardware FLOP/s
 * per GPU, no recomputation: HFU = MFU). */
static void test_mfu_definition(void **state)
{
	struct engine_scenario sc;
	struct engine_result r;

	(void)state;
	base(&sc);
	te_set(&sc, "peak_flops", "1000T");
	te_set(&sc, "flash_attention", "off");
	te_set(&sc, "achieved_flops", "500T");
	te_evaluate(&sc, &r);
	assert_close(r.compute.mfu, 0.5, 1e-12);
	assert_close(r.compute.hfu, 0.5, 1e-12);
	/* an impossible measurement is refused, naming the knob */
	{
		struct napkin_err err;
		te_set(&sc, "achieved_flops", "1500T");
		assert_int_not_equal(engine_compute(&sc, &r, &err), 0);
		assert_non_null(strstr(err.msg, "achieved_flops"));
	}
}

/* Units: GB is 10^9 bytes, GiB is 2^30, never confused; B is a billion for counts. */
static void test_units(void **state)
{
	struct napkin_err err;
	double v;
	char buf[64];

	(void)state;
	assert_int_equal(engine_unit_parse(ENGINE_UNIT_BYTES, "80GB", &v, &err), 0);
	assert_close(v, 80e9, 0);
	assert_int_equal(engine_unit_parse(ENGINE_UNIT_BYTES, "80 GiB", &v, &err), 0);
	assert_close(v, 80.0 * 1073741824.0, 0);
	assert_int_equal(engine_unit_parse(ENGINE_UNIT_BYTES_PER_S, "3.35TB/s", &v, &err), 0);
	assert_close(v, 3.35e12, 1e-15);
	assert_int_equal(engine_unit_parse(ENGINE_UNIT_FLOP_PER_S, "989.5T", &v, &err), 0);
	assert_close(v, 989.5e12, 1e-15);
	assert_int_equal(engine_unit_parse(ENGINE_UNIT_FLOP_PER_S, "989.5 TFLOP/s", &v, &err), 0);
	assert_close(v, 989.5e12, 1e-15);
	assert_int_equal(engine_unit_parse(ENGINE_UNIT_COUNT, "7B", &v, &err), 0);
	assert_close(v, 7e9, 0);
	assert_int_equal(engine_unit_parse(ENGINE_UNIT_COUNT, "1.5T", &v, &err), 0);
	assert_close(v, 1.5e12, 0);
	assert_int_equal(engine_unit_parse(ENGINE_UNIT_TOKENS, "4k", &v, &err), 0);
	assert_close(v, 4096, 0);
	assert_int_equal(engine_unit_parse(ENGINE_UNIT_COUNT, "4k", &v, &err), 0);
	assert_close(v, 4000, 0);
	assert_int_equal(engine_unit_parse(ENGINE_UNIT_FRACTION, "40%", &v, &err), 0);
	assert_close(v, 0.4, 1e-15);
	assert_int_equal(engine_unit_parse(ENGINE_UNIT_SECONDS, "300ms", &v, &err), 0);
	assert_close(v, 0.3, 1e-15);
	assert_int_equal(engine_unit_parse(ENGINE_UNIT_COUNT, "1,000,000", &v, &err), 0);
	assert_close(v, 1e6, 0);
	/* refused: NaN, infinity, hex, overflow, trailing text, ambiguous m */
	assert_int_not_equal(engine_unit_parse(ENGINE_UNIT_COUNT, "nan", &v, &err), 0);
	assert_int_not_equal(engine_unit_parse(ENGINE_UNIT_COUNT, "inf", &v, &err), 0);
	assert_int_not_equal(engine_unit_parse(ENGINE_UNIT_COUNT, "0x10", &v, &err), 0);
	assert_int_not_equal(engine_unit_parse(ENGINE_UNIT_COUNT, "1e400", &v, &err), 0);
	assert_int_not_equal(engine_unit_parse(ENGINE_UNIT_COUNT, "7 apples", &v, &err), 0);
	assert_int_not_equal(engine_unit_parse(ENGINE_UNIT_COUNT, "7m", &v, &err), 0);
	assert_non_null(strstr(err.msg, "ambiguous"));
	assert_int_not_equal(engine_unit_parse(ENGINE_UNIT_BYTES, "", &v, &err), 0);
	/* formatting carries the unit */
	engine_fmt_bytes(80e9, false, buf, sizeof buf);
	assert_string_equal(buf, "80.00 GB");
	engine_fmt_bytes(80e9, true, buf, sizeof buf);
	assert_string_equal(buf, "74.51 GiB");
	engine_fmt_si(989.5e12, "FLOP/s", buf, sizeof buf);
	assert_string_equal(buf, "989.5 TFLOP/s");
	engine_fmt_si(6.3e24, "FLOP", buf, sizeof buf);
	assert_string_equal(buf, "6.30e24 FLOP");
	/* a bare count ends at its number: no space left behind for a unit ("1.00e30 is out of range") */
	engine_fmt_count(1e30, buf, sizeof buf);
	assert_string_equal(buf, "1.00e30");
	engine_fmt_si(12.0, "", buf, sizeof buf);
	assert_string_equal(buf, "12");
	engine_fmt_si(1.5e18, "", buf, sizeof buf);
	assert_string_equal(buf, "1.5 E");
}

/* Data types against IEEE 754 and the published bf16/fp8 formats. */
static void test_dtypes(void **state)
{
	const struct engine_dtype_info *d;

	(void)state;
	d = engine_dtype_info(ENGINE_DT_FP16);
	assert_close(d->max_finite, 65504.0, 0);
	assert_close(d->epsilon, ldexp(1.0, -10), 0);
	assert_close(d->min_normal, ldexp(1.0, -14), 0);
	d = engine_dtype_info(ENGINE_DT_BF16);
	assert_close(d->max_finite, ldexp(2.0 - ldexp(1.0, -7), 127), 0);
	assert_close(d->epsilon, ldexp(1.0, -7), 0);
	assert_int_equal(d->exponent_bits, 8);
	d = engine_dtype_info(ENGINE_DT_FP32);
	assert_close(d->max_finite, ldexp(2.0 - ldexp(1.0, -23), 127), 0);
	d = engine_dtype_info(ENGINE_DT_FP8_E4M3);
	assert_close(d->max_finite, 448.0, 0);
	assert_close(d->min_normal, ldexp(1.0, -6), 0);
	d = engine_dtype_info(ENGINE_DT_FP8_E5M2);
	assert_close(d->max_finite, 57344.0, 0);
	d = engine_dtype_info(ENGINE_DT_TF32);
	assert_int_equal(d->mantissa_bits, 10);
	assert_close(d->bytes, 4, 0);
	assert_int_equal(engine_dtype_by_name("fp8"), ENGINE_DT_FP8_E4M3);
	assert_int_equal(engine_dtype_by_name("bfloat16"), ENGINE_DT_BF16);
	assert_int_equal(engine_dtype_by_name("nonsense"), ENGINE_DT_AUTO);
}

/* Every result explains itself with its values and a source. */
static void test_explain(void **state)
{
	struct engine_scenario sc;
	struct engine_result r;
	const char *const *k;
	char buf[8192];

	(void)state;
	base(&sc);
	te_evaluate(&sc, &r);
	for (k = engine_explain_keys(); *k != NULL; k++) {
		const char *const *j;
		assert_true(engine_explain(&sc, &r, *k, buf, sizeof buf));
		assert_true(strlen(buf) > 40);
		/* no empty parentheses (a comparison with nothing to say) */
		assert_null(strstr(buf, "()"));
		/* each block once in --explain: no later key explains to the same text */
		for (j = k + 1; *j != NULL; j++) {
			char other[8192];
			assert_true(engine_explain(&sc, &r, *j, other, sizeof other));
			if (strcmp(buf, other) == 0)
				fail_msg("--explain prints %s and %s as the same block", *k, *j);
		}
	}
	/* a key left out of the list for that reason is still answered by name */
	assert_true(engine_explain(&sc, &r, "memory.nvme_bytes", buf, sizeof buf));
	engine_explain(&sc, &r, "compute.train_seconds", buf, sizeof buf);
	assert_non_null(strstr(buf, "989.5 TFLOP/s"));
	assert_non_null(strstr(buf, "source"));
	assert_false(engine_explain(&sc, &r, "no.such.key", buf, sizeof buf));
}

static const struct CMUnitTest tests[] = {
	cmocka_unit_test(test_cs336_training_time),
	cmocka_unit_test(test_cs336_largest_model),
	cmocka_unit_test(test_zero_figure1),
	cmocka_unit_test(test_megatron_main_grad),
	cmocka_unit_test(test_korthikanti_activations),
	cmocka_unit_test(test_pipeline_inflight),
	cmocka_unit_test(test_megatron_flops),
	cmocka_unit_test(test_palm_mfu),
	cmocka_unit_test(test_chinchilla),
	cmocka_unit_test(test_decode_verdict),
	cmocka_unit_test(test_kv_cache_gqa),
	cmocka_unit_test(test_capacity_per_card),
	cmocka_unit_test(test_lm_head_flops),
	cmocka_unit_test(test_mfu_definition),
	cmocka_unit_test(test_units),
	cmocka_unit_test(test_dtypes),
	cmocka_unit_test(test_explain),
};

TESTUTIL_MAIN("engine", tests)
