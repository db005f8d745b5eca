/*
 * Fine-tuning and offload times against published measured throughput (docs/step-validation.md
 * prints the same table). No calibration is touched for these runs: each is only its
 * published layout, through the same knobs a person would type, with the shipped GPU and
 * model presets.
 *
 * Sources:
 *  TT   torchtune README, "Memory and training speed" (github.com/pytorch/torchtune, commit
 *       0031bfb): Llama 3.1 8B on 1 × RTX 4090, "batch size 2 (without gradient
 *       accumulation), a dataset packed to sequence length 2048, and torch compile
 *       enabled", tokens/s measured over one epoch. Recipes (recipes/configs/llama3_1):
 *       8B_lora_single_device.yaml: LoRA r 8 on q, v, output_proj and the MLP, dropout 0;
 *       8B_qlora_single_device.yaml: QLoRA r 8 on q, k, v, output_proj and the MLP; both
 *       dtype bf16 (weights and adapters in bf16), activation checkpointing on, fused
 *       AdamW. LoRA 3083 tokens/s, QLoRA 2413 tokens/s. And the full fine-tune beside them
 *       on the same card, 1650 tokens/s (8B_full_single_device.yaml: bf16, bitsandbytes'
 *       PagedAdamW8bit with the step fused into the backward, checkpointing on): the time
 *       only, since napkin does not model the optimizer-in-backward that makes it fit.
 *       Peak memory per GPU in the same table: LoRA 16.2 GiB, QLoRA 7.4 GiB (the allocator's
 *       peak: no CUDA context). The recipes' loss is CEWithChunkedOutputLoss
 *       (torchtune/modules/loss/ce_chunked_output_loss.py: the logits upcast to fp32 one
 *       chunk at a time): napkin's `loss chunked`; with Hugging Face's full loss (fp32
 *       log-probabilities of all 2048 × 2 × 128,256 logits) the LoRA run would not fit.
 *  ZO   Ren et al. 2021, "ZeRO-Offload: Democratizing Billion-Scale Model Training",
 *       abstract: "40 TFlops/GPU on a single NVIDIA V100 GPU for 10B parameter model".
 *       The model as DeepSpeed's ZeRO-Offload tutorial trains it on one V100-32GB
 *       (docs/_tutorials/zero-offload.md): Megatron-LM GPT-2, 50 layers, hidden 4096,
 *       32 heads, micro-batch 10, activation checkpointing, ZeRO-2 with cpu_offload;
 *       Megatron's GPT-2 defaults: sequence 1024, vocabulary 50257 padded to 50304, fp16.
 *       The abstract does not say whether its TFLOPS count the recomputation; both counts
 *       are printed and the model count (72·B·s·l·h²·(1 + s/(6h) + V/(12·l·h))) is held.
 *
 * Tolerance: the same as the training runs' worst case, 35% (test_step_runs.c holds the
 * median of those to 10%). What napkin misses here, and why, is in docs/step-validation.md.
 */
#include <stdio.h>
#include <string.h>

#include "engine.h"
#include "presets.h"
#include "testutil.h"

#define TOL 0.35

struct kv {
	const char *key, *val;
};

static void evaluate(const struct kv *kv, size_t n, struct engine_result *r)
{
	struct preset_registry *reg = NULL;
	struct preset_options o = {true, NULL};
	struct engine_scenario sc;
	struct engine_assign a[32];
	struct engine_catalog cat;
	struct napkin_err err;
	size_t i;

	assert_true(n <= sizeof a / sizeof a[0]);
	if (preset_registry_new(&reg, &o, &err) != NAPKIN_OK)
		fail_msg("registry: %s", err.msg);
	cat = preset_catalog(reg);
	engine_scenario_default(&sc);
	for (i = 0; i < n; i++) {
		memset(&a[i], 0, sizeof a[i]);
		a[i].knob = engine_knob_find(kv[i].key);
		assert_non_null(a[i].knob);
		a[i].text = kv[i].val;
	}
	if (engine_apply(&sc, a, n, &cat, &err) != NAPKIN_OK)
		fail_msg("%s", err.msg);
	if (engine_evaluate(&sc, r, &err) != NAPKIN_OK)
		fail_msg("%s", err.msg);
	preset_registry_free(reg);
}

static void check(const char *name, double published, double predicted)
{
	double e = predicted / published - 1.0;

	print_message("  %-34s published %8.4g  napkin %8.4g  error %+6.1f%%\n", name, published, predicted, 100.0 * e);
	if (e > TOL || e < -TOL)
		fail_msg("%s: napkin %.4g against the published %.4g (%+.1f%%, beyond %.0f%%)", name, predicted, published,
			 100.0 * e, 100.0 * TOL);
}

/* A published peak (GiB, an allocator's: without the CUDA context) against napkin's peak
 * less its overhead, to 10%. */
static void check_memory(const char *name, double published_gib, const struct engine_result *r)
{
	double got = (r->memory.peak - r->memory.overhead) / 1073741824.0, e = got / published_gib - 1.0;

	print_message("  %-34s published %8.4g  napkin %8.4g  error %+6.1f%%\n", name, published_gib, got, 100.0 * e);
	if (e > 0.10 || e < -0.10)
		fail_msg("%s: napkin %.4g GiB against the published %.4g (%+.1f%%, beyond 10%%)", name, got, published_gib,
			 100.0 * e);
}

/* TT: Llama 3.1 8B has Llama 3 8B's shape (meta-llama config.json: only rope_scaling and
 * max_position_embeddings differ, neither of which moves a 2048-token step). */
static void test_torchtune_4090(void **state)
{
	static const struct kv lora[] = {
		{"model", "llama-3-8b"}, {"gpu", "rtx-4090"},    {"gpus", "1"},
		{"batch", "2"},          {"grad_accum", "1"},    {"seq", "2048"},
		{"precision", "bf16"},   {"recompute", "full"},  {"finetune", "lora"},
		{"lora_rank", "8"},      {"lora_targets", "q,v,o,mlp"}, {"loss", "chunked"}, {"kernels", "compiled"},
	};
	static const struct kv qlora[] = {
		{"model", "llama-3-8b"}, {"gpu", "rtx-4090"},    {"gpus", "1"},
		{"batch", "2"},          {"grad_accum", "1"},    {"seq", "2048"},
		{"precision", "bf16"},   {"recompute", "full"},  {"finetune", "qlora"},
		{"lora_rank", "8"},      {"lora_targets", "all-linear"}, {"loss", "chunked"}, {"kernels", "compiled"},
	};
	static const struct kv full[] = {
		{"model", "llama-3-8b"}, {"gpu", "rtx-4090"},   {"gpus", "1"},
		{"batch", "2"},          {"grad_accum", "1"},   {"seq", "2048"},
		{"precision", "bf16"},   {"recompute", "full"}, {"optimizer", "adam-8bit"}, {"kernels", "compiled"},
	};
	struct engine_result r;

	(void)state;
	evaluate(full, sizeof full / sizeof full[0], &r);
	check("TT Llama 3.1 8B full, 1 x 4090", 1650, r.compute.tokens_per_s);
	evaluate(lora, sizeof lora / sizeof lora[0], &r);
	assert_true(r.memory.fits);
	check_memory("TT Llama 3.1 8B LoRA, 1 x 4090, peak", 16.2, &r);
	check("TT Llama 3.1 8B LoRA, 1 x 4090", 3083, r.compute.tokens_per_s);
	evaluate(qlora, sizeof qlora / sizeof qlora[0], &r);
	assert_true(r.memory.fits);
	check_memory("TT Llama 3.1 8B QLoRA, 1 x 4090, peak", 7.4, &r);
	check("TT Llama 3.1 8B QLoRA, 1 x 4090", 2413, r.compute.tokens_per_s);
}

/* ZO: the 10B GPT-2 on one V100-32GB with ZeRO-Offload. */
static void test_zero_offload_10b_v100(void **state)
{
	static const struct kv zo[] = {
		{"gpu", "v100-sxm2-32gb"}, {"gpus", "1"},         {"layers", "50"},         {"hidden", "4096"},
		{"heads", "32"},           {"kv_heads", "32"},    {"ffn", "16384"},         {"vocab", "50304"},
		{"mlp", "plain"},          {"norm", "layernorm"}, {"bias", "all"},          {"position", "learned"},
		{"max_positions", "1024"}, {"tied_embeddings", "on"}, {"seq", "1024"},      {"batch", "10"},
		{"grad_accum", "1"},       {"precision", "mixed-fp16"}, {"flash_attention", "off"},
		{"recompute", "full"},     {"zero", "2"},         {"offload", "optimizer"},
	};
	struct engine_result r;
	const double B = 10, s = 1024, l = 50, h = 4096, V = 50304;
	double model, hw;

	(void)state;
	evaluate(zo, sizeof zo / sizeof zo[0], &r);
	assert_true(r.memory.fits);
	/* Megatron's counts per step (Narayanan et al. 2021, §5.1): with the recomputation
	 * 96·B·s·l·h²·(1 + s/(6h) + V/(16·l·h)), without it 72·B·s·l·h²·(1 + s/(6h) + V/(12·l·h)) */
	model = 72.0 * B * s * l * h * h * (1.0 + s / (6.0 * h) + V / (12.0 * l * h));
	hw = 96.0 * B * s * l * h * h * (1.0 + s / (6.0 * h) + V / (16.0 * l * h));
	print_message("  ZO 10B, 1 x V100: hardware count %.4g TFLOP/s (%+.1f%% against 40)\n",
		      hw / r.compute.step_seconds / 1e12, 100.0 * (hw / r.compute.step_seconds / 40e12 - 1.0));
	check("ZO GPT-2 10B offload, 1 x V100 (TF)", 40, model / r.compute.step_seconds / 1e12);
	/* the offload part is there and is not all of the step */
	assert_true(r.compute.step.offload > 0.0);
	assert_true(r.compute.step.offload < r.compute.step.matmul);
}

static const struct CMUnitTest tests[] = {
	cmocka_unit_test(test_torchtune_4090),
	cmocka_unit_test(test_zero_offload_10b_v100),
};

TESTUTIL_MAIN("finetune_runs", tests)
