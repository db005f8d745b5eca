/*
 * The memory model against bytes measured in real PyTorch training steps: PyTorch 1.13.1
 * on the CPU, tests/torch/measure.py (saved for backward through saved_tensors_hooks, by
 * storage, dropout masks converted to CUDA's 1 byte; the peak of the second step through
 * the allocator shim), configurations of tests/torch/configs.py. The harness checks every
 * configuration where PyTorch is installed; these figures keep the engine honest where it
 * is not. The Llama's loss is Hugging Face's ForCausalLMLoss (logits upcast to fp32), the
 * GPT-2's nanoGPT's F.cross_entropy. Tolerance: the harness's 5%.
 */
#include <stdio.h>
#include <string.h>

#include "engine.h"
#include "testengine.h"
#include "testutil.h"

struct measured {
	const char *name;
	const char *knobs[32];   /* key, value, ..., NULL */
	double layer, logits, peak; /* bytes */
	enum engine_peak_phase phase; /* where the measured peak fell */
};

#define GPT2 "mlp", "plain", "norm", "layernorm", "bias", "all", "position", "learned", "tied_embeddings", "on"
#define LLAMA "mlp", "gated", "norm", "rmsnorm", "bias", "none", "position", "rope", "tied_embeddings", "off"

static const struct measured cases[] = {
	{"gpt2 fp32 s128 b2 dropout", {GPT2, "precision", "fp32", "seq", "128", "batch", "2", "dropout", "on", NULL},
	 3346440, 4460548, 23425576, ENGINE_PEAK_BACKWARD},
	{"gpt2 amp-bf16 s256 b2 dropout",
	 {GPT2, "precision", "amp-bf16", "seq", "256", "batch", "2", "dropout", "on", NULL},
	 6168584, 6692868, 37783016, ENGINE_PEAK_BACKWARD},
	{"llama amp-bf16 s256 b2 gqa", {LLAMA, "precision", "amp-bf16", "seq", "256", "batch", "2", "kv_heads", "2", NULL},
	 6852632, 6952972, 41018856, ENGINE_PEAK_BACKWARD},
	/* Hugging Face's loss upcasts the logits to fp32 (models.hf_causal_lm_loss) */
	{"llama bf16 s256 b2", {LLAMA, "precision", "bf16", "seq", "256", "batch", "2", NULL}, 6164504, 6821900, 33080120,
	 ENGINE_PEAK_BACKWARD},
	{"llama bf16 s128 b2 v8192", {LLAMA, "precision", "bf16", "seq", "128", "batch", "2", "vocab", "8192", NULL},
	 2295832, 12848140, 49841064, ENGINE_PEAK_BACKWARD},
	/* nanoGPT without autocast: softmax in bf16 */
	{"gpt2 bf16 s256 b2", {GPT2, "precision", "bf16", "seq", "256", "batch", "2", NULL}, 3149832, 4462594, 19071472,
	 ENGINE_PEAK_BACKWARD},
	{"gpt2 bf16 s256 b2 dropout", {GPT2, "precision", "bf16", "seq", "256", "batch", "2", "dropout", "on", NULL},
	 4853768, 4462594, 22545016, ENGINE_PEAK_BACKWARD},
	/* the LM head and the loss a chunk of tokens at a time (models.ChunkedLinearCrossEntropyFn) */
	{"llama bf16 s256 b2 chunked", {LLAMA, "precision", "bf16", "seq", "256", "batch", "2", "loss", "chunked", NULL},
	 6164504, 526344, 19989896, ENGINE_PEAK_BACKWARD},
	{"llama bf16 s128 b2 v8192 chunked",
	 {LLAMA, "precision", "bf16", "seq", "128", "batch", "2", "vocab", "8192", "loss", "chunked", NULL}, 2295832, 263176,
	 25089376, ENGINE_PEAK_OPTIMIZER},
	{"fused llama bf16 s256 b2 gqa chunked",
	 {LLAMA, "precision", "bf16", "seq", "256", "batch", "2", "kv_heads", "2", "kernels", "fused", "loss", "chunked",
	  NULL},
	 3051520, 264192, 13026000, ENGINE_PEAK_BACKWARD},
	{"llama fp32 s16 b1 v8192 (optimizer peak)",
	 {LLAMA, "precision", "fp32", "seq", "16", "batch", "1", "vocab", "8192", NULL}, 176280, 1073356, 50486664,
	 ENGINE_PEAK_OPTIMIZER},
	{"llama fp32 s512 b1 v256 (attention peak)",
	 {LLAMA, "precision", "fp32", "seq", "512", "batch", "1", "vocab", "256", NULL}, 9703448, 1841164, 30982832,
	 ENGINE_PEAK_BACKWARD},
	{"fused llama bf16 s256 b2 gqa",
	 {LLAMA, "precision", "bf16", "seq", "256", "batch", "2", "kv_heads", "2", "kernels", "fused", NULL}, 3051520,
	 4462592, 18010816, ENGINE_PEAK_FORWARD},
	{"fused llama bf16 s128 b4 full",
	 {LLAMA, "precision", "bf16", "seq", "128", "batch", "4", "recompute", "full", "kernels", "fused", NULL}, 131072,
	 4462592, 12384704, ENGINE_PEAK_FORWARD},
	/* torchtitan's recompute flavours (models.SelectiveOpCheckpointFn; a checkpoint on every
	 * k-th block, layers / k of them: recompute_method every, which the stack sets in
	 * engine_adapt, not run here) */
	{"llama bf16 s256 b2 gqa selective-op",
	 {LLAMA, "precision", "bf16", "seq", "256", "batch", "2", "kv_heads", "2", "recompute", "selective-op", "stack",
	  "torchtitan", NULL},
	 1998848, 6821900, 25243152, ENGINE_PEAK_BACKWARD},
	{"llama amp-bf16 s256 b2 selective-op",
	 {LLAMA, "precision", "amp-bf16", "seq", "256", "batch", "2", "recompute", "selective-op", "stack", "torchtitan",
	  NULL},
	 2195456, 6952972, 31431120, ENGINE_PEAK_BACKWARD},
	{"llama fp32 s128 b2 l4 every 2",
	 {LLAMA, "precision", "fp32", "seq", "128", "batch", "2", "layers", "4", "recompute", "full", "recompute_layers",
	  "2", "recompute_method", "every", "stack", "torchtitan", NULL},
	 1704972, 4590604, 31538136, ENGINE_PEAK_BACKWARD},
	{"llama bf16 s256 b2 gqa l4 every 2",
	 {LLAMA, "precision", "bf16", "seq", "256", "batch", "2", "kv_heads", "2", "layers", "4", "recompute", "full",
	  "recompute_layers", "2", "recompute_method", "every", "stack", "torchtitan", NULL},
	 3147788, 6821900, 36047256, ENGINE_PEAK_BACKWARD},
	/* the peak at the last layer's attention backward, that layer recomputed (every k-th
	 * block: the last is a k-th) */
	{"llama fp32 s512 b1 v256 l4 every 2 (attention peak)",
	 {LLAMA, "precision", "fp32", "seq", "512", "batch", "1", "vocab", "256", "layers", "4", "recompute", "full",
	  "recompute_layers", "2", "recompute_method", "every", "stack", "torchtitan", NULL},
	 4982796, 1841172, 46296264, ENGINE_PEAK_BACKWARD},
	{"llama fp32 s512 b1 v256 selective-op (attention peak)",
	 {LLAMA, "precision", "fp32", "seq", "512", "batch", "1", "vocab", "256", "recompute", "selective-op", "stack",
	  "torchtitan", NULL},
	 6225920, 1841172, 33997816, ENGINE_PEAK_BACKWARD},
	/* Megatron's uniform method: a checkpoint at each chunk of 2 layers, recomputed whole */
	{"llama fp32 s512 b1 v256 l4 uniform 2 (attention peak)",
	 {LLAMA, "precision", "fp32", "seq", "512", "batch", "1", "vocab", "256", "layers", "4", "recompute", "full",
	  "recompute_layers", "2", "recompute_method", "uniform", NULL},
	 131072, 1841172, 37940408, ENGINE_PEAK_BACKWARD},
};

/* tests/torch/configs.py's shapes and common knobs */
static void scenario(const struct measured *m, struct engine_scenario *sc)
{
	static const char *const common[] = {
		"gpus", "1", "zero", "0", "layers", "2", "hidden", "128", "heads", "4", "kv_heads", "4", "head_dim", "32",
		"vocab", "2048", "flash_attention", "off", "optimizer", "adamw", "grad_accum", "1", "overhead", "0",
		"dropout", "off", "kernels", "eager", "recompute", "none", NULL,
	};
	size_t i;
	bool gpt2 = strcmp(m->knobs[1], "plain") == 0;

	engine_scenario_default(sc);
	for (i = 0; common[i] != NULL; i += 2)
		te_set(sc, common[i], common[i + 1]);
	te_set(sc, "ffn", gpt2 ? "512" : "352");
	for (i = 0; m->knobs[i] != NULL; i += 2)
		te_set(sc, m->knobs[i], m->knobs[i + 1]);
	for (i = 0; m->knobs[i] != NULL; i += 2)
		if (strcmp(m->knobs[i], "seq") == 0)
			te_set(sc, "max_positions", m->knobs[i + 1]);
}

static void test_measured_steps(void **state)
{
	size_t i;

	(void)state;
	for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		struct engine_scenario sc;
		struct engine_result r;
		struct napkin_err err;

		scenario(&cases[i], &sc);
		if (engine_evaluate(&sc, &r, &err) != 0) {
			print_error("%s: %s\n", cases[i].name, err.msg);
			fail();
		}
		print_message("%-42s layer %.3f logits %.3f peak %.3f (napkin / PyTorch)\n", cases[i].name,
			      r.memory.activations_per_layer / cases[i].layer, r.memory.logits / cases[i].logits,
			      r.memory.peak / cases[i].peak);
		assert_close(r.memory.activations_per_layer, cases[i].layer, 0.05);
		assert_close(r.memory.logits, cases[i].logits, 0.05);
		assert_close(r.memory.peak, cases[i].peak, 0.05);
		assert_int_equal(r.memory.peak_phase, cases[i].phase);
		assert_true(r.memory.peak <= r.memory.total);
	}
}

/* The eager profile keeps more than the fused one for the same Llama-style step, and GQA
 * saves nothing in eager attention (repeat_kv), something in fused. */
static void test_profiles_differ(void **state)
{
	struct engine_scenario sc;
	struct engine_result eager, fused, eager_gqa, fused_gqa;
	struct napkin_err err;

	(void)state;
	scenario(&cases[3], &sc);
	assert_int_equal(engine_evaluate(&sc, &eager, &err), 0);
	te_set(&sc, "kernels", "fused");
	assert_int_equal(engine_evaluate(&sc, &fused, &err), 0);
	te_set(&sc, "kv_heads", "2");
	assert_int_equal(engine_evaluate(&sc, &fused_gqa, &err), 0);
	te_set(&sc, "kernels", "eager");
	assert_int_equal(engine_evaluate(&sc, &eager_gqa, &err), 0);
	assert_true(eager.memory.activations_per_layer > 1.5 * fused.memory.activations_per_layer);
	assert_close(eager_gqa.memory.activations_per_layer, eager.memory.activations_per_layer, 1e-12);
	assert_true(fused_gqa.memory.activations_per_layer < fused.memory.activations_per_layer);
	assert_true(eager.memory.logits_alive && !fused.memory.logits_alive);
}

static const struct CMUnitTest tests[] = {
	cmocka_unit_test(test_measured_steps),
	cmocka_unit_test(test_profiles_differ),
};

TESTUTIL_MAIN("memory_measured", tests)
