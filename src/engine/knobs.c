/*
 * The knob table: every knob declared once (tmux's options-table.c is the model). The
 * command line, YAML loading and saving, the TUI, --help and validation all read it.
 * Adding a knob is one row here and one field in struct engine_scenario.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "internal.h"

#define SC(f) offsetof(struct engine_scenario, f)

_Static_assert(sizeof(enum engine_mode) == sizeof(int), "enum fields are accessed as int");
_Static_assert(sizeof(enum engine_precision) == sizeof(int), "enum fields are accessed as int");

static const struct engine_choice ch_mode[] = {
	{"train", ENGINE_MODE_TRAIN}, {"infer", ENGINE_MODE_INFER},
	{"training", ENGINE_MODE_TRAIN}, {"inference", ENGINE_MODE_INFER}, {NULL, 0},
};
static const struct engine_choice ch_precision[] = {
	{"fp32", ENGINE_PREC_FP32},
	{"amp-bf16", ENGINE_PREC_AMP_BF16},
	{"amp-fp16", ENGINE_PREC_AMP_FP16},
	{"mixed-bf16", ENGINE_PREC_MIXED_BF16},
	{"mixed-fp16", ENGINE_PREC_MIXED_FP16},
	{"bf16", ENGINE_PREC_BF16},
	{"fp8-mixed", ENGINE_PREC_FP8_MIXED},
	{"mixed", ENGINE_PREC_MIXED_BF16},
	{"amp", ENGINE_PREC_AMP_BF16},
	{NULL, 0},
};
static const struct engine_choice ch_optimizer[] = {
	{"adamw", ENGINE_OPT_ADAMW},       {"adam", ENGINE_OPT_ADAM},   {"sgd", ENGINE_OPT_SGD},
	{"sgd-momentum", ENGINE_OPT_SGD_MOMENTUM}, {"adam-8bit", ENGINE_OPT_ADAM_8BIT},
	{"lion", ENGINE_OPT_LION},         {"adafactor", ENGINE_OPT_ADAFACTOR},
	{"adam8bit", ENGINE_OPT_ADAM_8BIT}, {"adamw-8bit", ENGINE_OPT_ADAM_8BIT}, {"momentum", ENGINE_OPT_SGD_MOMENTUM},
	{NULL, 0},
};
static const struct engine_choice ch_recompute[] = {
	{"none", ENGINE_RECOMP_NONE}, {"selective", ENGINE_RECOMP_SELECTIVE}, {"full", ENGINE_RECOMP_FULL},
	{"off", ENGINE_RECOMP_NONE},  {NULL, 0},
};
static const struct engine_choice ch_dtype[] = {
	{"auto", ENGINE_DT_AUTO},         {"fp32", ENGINE_DT_FP32},         {"tf32", ENGINE_DT_TF32},
	{"bf16", ENGINE_DT_BF16},         {"fp16", ENGINE_DT_FP16},         {"fp8-e4m3", ENGINE_DT_FP8_E4M3},
	{"fp8-e5m2", ENGINE_DT_FP8_E5M2}, {"int8", ENGINE_DT_INT8},         {"int4", ENGINE_DT_INT4},
	{"fp4", ENGINE_DT_FP4},           {"fp8", ENGINE_DT_FP8_E4M3},      {"e4m3", ENGINE_DT_FP8_E4M3},
	{"e5m2", ENGINE_DT_FP8_E5M2},     {NULL, 0},
};
static const struct engine_choice ch_mlp[] = {
	{"gated", ENGINE_MLP_GATED}, {"plain", ENGINE_MLP_PLAIN}, {"swiglu", ENGINE_MLP_GATED},
	{"geglu", ENGINE_MLP_GATED}, {"gelu", ENGINE_MLP_PLAIN},  {"relu", ENGINE_MLP_PLAIN}, {NULL, 0},
};
static const struct engine_choice ch_norm[] = {
	{"rmsnorm", ENGINE_NORM_RMS}, {"layernorm", ENGINE_NORM_LAYER}, {"rms", ENGINE_NORM_RMS},
	{"layer", ENGINE_NORM_LAYER}, {NULL, 0},
};
static const struct engine_choice ch_position[] = {
	{"rope", ENGINE_POS_ROPE}, {"learned", ENGINE_POS_LEARNED}, {"none", ENGINE_POS_NONE},
	{"rotary", ENGINE_POS_ROPE}, {"alibi", ENGINE_POS_NONE}, {"absolute", ENGINE_POS_LEARNED}, {NULL, 0},
};
/* bias: which linears carry biases */
enum { BIAS_NONE, BIAS_QKV, BIAS_ATTN, BIAS_ALL };
static const struct engine_choice ch_bias[] = {
	{"none", BIAS_NONE}, {"qkv", BIAS_QKV}, {"attn", BIAS_ATTN}, {"all", BIAS_ALL}, {"off", BIAS_NONE}, {NULL, 0},
};
static const struct engine_choice ch_formula[] = {
	{"exact", ENGINE_FLOPS_EXACT}, {"6n", ENGINE_FLOPS_6N}, {"6nd", ENGINE_FLOPS_6N}, {NULL, 0},
};

#define M_ALL ENGINE_MOVES_ALL
#define M_MEM ENGINE_MOVES_MEMORY
#define M_CMP (ENGINE_MOVES_COMPUTE | ENGINE_MOVES_TIME)
#define M_TIME ENGINE_MOVES_TIME
#define M_RL ENGINE_MOVES_ROOFLINE
#define M_INF ENGINE_MOVES_INFERENCE
#define M_DATA ENGINE_MOVES_DATA
#define F_ARCH ENGINE_KNOB_ARCH
#define F_GPU ENGINE_KNOB_GPUFIELD
#define F_UNSET ENGINE_KNOB_ZERO_UNSET
#define F_TRAIN ENGINE_KNOB_TRAIN
#define F_INFER ENGINE_KNOB_INFER

enum special { SP_NONE, SP_MODEL, SP_PARAMS, SP_GPU, SP_BIAS };

#define G_MODEL ENGINE_GROUP_MODEL
#define G_BATCH ENGINE_GROUP_BATCH
#define G_PREC ENGINE_GROUP_PRECISION
#define G_GPU ENGINE_GROUP_GPU
#define G_TRAIN ENGINE_GROUP_TRAINING
#define G_INFER ENGINE_GROUP_INFERENCE

/* Application order: names first (model, params, gpu), then the fields they fill. */
static const struct engine_knob knobs[] = {
	{"model", G_MODEL, ENGINE_KNOB_NAME, ENGINE_UNIT_NONE, 0, 0, 0, ENGINE_STEP_NONE, NULL, 0, M_ALL, 0,
	 "model", "a model preset id, a model YAML or config.json file, or a size like 7B"},
	{"params", G_MODEL, ENGINE_KNOB_REAL, ENGINE_UNIT_COUNT, 1e7, 1e15, 0, ENGINE_STEP_125, NULL, F_UNSET, M_ALL,
	 SC(params), "params", "a size (7B, 70B): picks a standard dense shape with that many parameters"},
	{"layers", G_MODEL, ENGINE_KNOB_INT, ENGINE_UNIT_LAYERS, 1, 100000, 32, ENGINE_STEP_LINEAR, NULL, F_ARCH, M_ALL,
	 SC(model.layers), "layers", "transformer layers (num_hidden_layers)"},
	{"hidden", G_MODEL, ENGINE_KNOB_INT, ENGINE_UNIT_COUNT, 1, 1e7, 4096, ENGINE_STEP_POW2, NULL, F_ARCH, M_ALL,
	 SC(model.hidden), "hidden", "model width d (hidden_size)"},
	{"heads", G_MODEL, ENGINE_KNOB_INT, ENGINE_UNIT_HEADS, 1, 1e5, 32, ENGINE_STEP_LINEAR, NULL, F_ARCH, M_ALL,
	 SC(model.heads), "heads", "attention heads (num_attention_heads)"},
	{"kv_heads", G_MODEL, ENGINE_KNOB_INT, ENGINE_UNIT_HEADS, 1, 1e5, 32, ENGINE_STEP_POW2, NULL, F_ARCH, M_ALL,
	 SC(model.kv_heads), "kv heads", "key/value heads: = heads for MHA, fewer for GQA, 1 for MQA"},
	{"head_dim", G_MODEL, ENGINE_KNOB_INT, ENGINE_UNIT_COUNT, 1, 1e5, 128, ENGINE_STEP_POW2, NULL, F_ARCH, M_ALL,
	 SC(model.head_dim), "head dim", "size of one head (not always hidden / heads: Gemma-7B uses 256)"},
	{"ffn", G_MODEL, ENGINE_KNOB_INT, ENGINE_UNIT_COUNT, 1, 1e8, 11008, ENGINE_STEP_POW2, NULL, F_ARCH, M_ALL,
	 SC(model.ffn), "ffn", "MLP inner width (intermediate_size)"},
	{"vocab", G_MODEL, ENGINE_KNOB_INT, ENGINE_UNIT_COUNT, 1, 1e8, 32000, ENGINE_STEP_POW2, NULL, F_ARCH, M_ALL,
	 SC(model.vocab), "vocab", "vocabulary size (vocab_size)"},
	{"mlp", G_MODEL, ENGINE_KNOB_ENUM, ENGINE_UNIT_NONE, 0, 0, ENGINE_MLP_GATED, ENGINE_STEP_CHOICE, ch_mlp, F_ARCH,
	 M_ALL, SC(model.mlp), "mlp", "gated (SwiGLU, 3 matrices) or plain (GELU, 2 matrices)"},
	{"norm", G_MODEL, ENGINE_KNOB_ENUM, ENGINE_UNIT_NONE, 0, 0, ENGINE_NORM_RMS, ENGINE_STEP_CHOICE, ch_norm,
	 F_ARCH, ENGINE_MOVES_PARAMS | M_MEM, SC(model.norm), "norm", "rmsnorm (weight) or layernorm (weight and bias)"},
	{"bias", G_MODEL, ENGINE_KNOB_ENUM, ENGINE_UNIT_NONE, 0, 0, BIAS_NONE, ENGINE_STEP_CHOICE, ch_bias, F_ARCH,
	 ENGINE_MOVES_PARAMS | M_MEM, 0, "biases", "linears with biases: none, qkv, attn (qkv and output) or all"},
	{"tied_embeddings", G_MODEL, ENGINE_KNOB_BOOL, ENGINE_UNIT_NONE, 0, 0, 0, ENGINE_STEP_CHOICE, NULL, F_ARCH,
	 ENGINE_MOVES_PARAMS | M_MEM, SC(model.tied), "tied emb.", "the LM head shares the embedding matrix"},
	{"position", G_MODEL, ENGINE_KNOB_ENUM, ENGINE_UNIT_NONE, 0, 0, ENGINE_POS_ROPE, ENGINE_STEP_CHOICE,
	 ch_position, F_ARCH, ENGINE_MOVES_PARAMS | M_MEM, SC(model.position), "positions",
	 "rope, learned (a P×d table) or none"},
	{"max_positions", G_MODEL, ENGINE_KNOB_INT, ENGINE_UNIT_TOKENS, 1, 1e9, 4096, ENGINE_STEP_POW2, NULL, F_ARCH,
	 ENGINE_MOVES_PARAMS | M_MEM, SC(model.max_positions), "context",
	 "the model's context length (learned positions: the table's size)"},
	{"experts", G_MODEL, ENGINE_KNOB_INT, ENGINE_UNIT_COUNT, 1, 1e5, 1, ENGINE_STEP_POW2, NULL, F_ARCH, M_ALL,
	 SC(model.experts), "experts", "MoE experts per layer (1: dense)"},
	{"top_k", G_MODEL, ENGINE_KNOB_INT, ENGINE_UNIT_COUNT, 1, 1e5, 1, ENGINE_STEP_LINEAR, NULL, F_ARCH, M_ALL,
	 SC(model.top_k), "top-k", "experts each token is routed to"},
	{"dropout", G_MODEL, ENGINE_KNOB_BOOL, ENGINE_UNIT_NONE, 0, 0, 0, ENGINE_STEP_CHOICE, NULL, F_ARCH | F_TRAIN,
	 M_MEM, SC(model.dropout), "dropout", "trained with dropout (its 1-byte masks are kept)"},

	{"gpu", G_GPU, ENGINE_KNOB_NAME, ENGINE_UNIT_NONE, 0, 0, 0, ENGINE_STEP_NONE, NULL, 0, M_ALL, 0, "GPU",
	 "a GPU preset id or a GPU profile YAML file"},
	{"gpu_memory", G_GPU, ENGINE_KNOB_REAL, ENGINE_UNIT_BYTES, 1, 1e15, 81559.0 * 1048576.0, ENGINE_STEP_125, NULL,
	 F_GPU, M_MEM, SC(gpu.memory_bytes), "memory", "one GPU's memory capacity"},
	{"gpu_bandwidth", G_GPU, ENGINE_KNOB_REAL, ENGINE_UNIT_BYTES_PER_S, 1e6, 1e15, 3.35e12, ENGINE_STEP_125, NULL,
	 F_GPU, M_RL | M_INF, SC(gpu.bandwidth), "bandwidth", "one GPU's memory bandwidth"},
	{"peak_flops", G_GPU, ENGINE_KNOB_REAL, ENGINE_UNIT_FLOP_PER_S, 0, 1e20, 0, ENGINE_STEP_125, NULL, F_UNSET,
	 M_CMP | M_RL | M_INF, SC(peak_flops), "peak", "override the GPU's dense peak for the matmul dtype"},
	{"overhead", G_GPU, ENGINE_KNOB_REAL, ENGINE_UNIT_BYTES, 0, 1e13, 768.0 * 1048576.0, ENGINE_STEP_125, NULL,
	 F_GPU, M_MEM, SC(gpu.overhead_bytes), "overhead", "CUDA context and library workspaces per GPU"},
	{"gpus", G_GPU, ENGINE_KNOB_INT, ENGINE_UNIT_GPUS, 1, 1048576, 8, ENGINE_STEP_POW2, NULL, 0, M_ALL, SC(gpus),
	 "GPUs", "GPUs in the job (= dp × tp × pp)"},
	{"gpus_per_node", G_GPU, ENGINE_KNOB_INT, ENGINE_UNIT_GPUS, 1, 1024, 8, ENGINE_STEP_POW2, NULL, 0, 0,
	 SC(gpus_per_node), "per node", "GPUs per node (tensor parallelism should stay within one)"},
	{"tp", G_GPU, ENGINE_KNOB_INT, ENGINE_UNIT_NONE, 1, 1024, 1, ENGINE_STEP_LINEAR, NULL, 0, M_ALL, SC(tp), "TP",
	 "tensor-parallel degree (must divide heads)"},
	{"pp", G_GPU, ENGINE_KNOB_INT, ENGINE_UNIT_NONE, 1, 1024, 1, ENGINE_STEP_LINEAR, NULL, 0, M_ALL, SC(pp), "PP",
	 "pipeline-parallel degree (must divide layers)"},
	{"zero", G_GPU, ENGINE_KNOB_INT, ENGINE_UNIT_NONE, 0, 3, 1, ENGINE_STEP_LINEAR, NULL, F_TRAIN, M_MEM, SC(zero),
	 "ZeRO", "ZeRO stage: 1 shards optimizer states, 2 also gradients, 3 also weights"},
	{"sequence_parallel", G_GPU, ENGINE_KNOB_BOOL, ENGINE_UNIT_NONE, 0, 0, 0, ENGINE_STEP_CHOICE, NULL, F_TRAIN,
	 M_MEM, SC(sequence_parallel), "seq. parallel", "shard the norm and dropout activations over TP ranks"},

	{"mode", G_TRAIN, ENGINE_KNOB_ENUM, ENGINE_UNIT_NONE, 0, 0, ENGINE_MODE_TRAIN, ENGINE_STEP_CHOICE, ch_mode, 0,
	 M_ALL, SC(mode), "mode", "train or infer"},
	{"batch", G_BATCH, ENGINE_KNOB_INT, ENGINE_UNIT_COUNT, 1, 1e7, 1, ENGINE_STEP_POW2, NULL, 0,
	 M_MEM | M_CMP | M_RL | M_INF | M_DATA, SC(batch), "micro-batch",
	 "sequences per GPU per micro-batch (inference: concurrent sequences)"},
	{"grad_accum", G_BATCH, ENGINE_KNOB_INT, ENGINE_UNIT_COUNT, 1, 1e7, 16, ENGINE_STEP_POW2, NULL, F_TRAIN,
	 M_CMP | M_DATA | M_MEM, SC(grad_accum), "grad accum", "micro-batches per optimizer step"},
	{"seq", G_BATCH, ENGINE_KNOB_INT, ENGINE_UNIT_TOKENS, 1, 1e8, 4096, ENGINE_STEP_POW2, NULL, F_TRAIN,
	 M_MEM | M_CMP | M_RL | M_DATA, SC(seq), "sequence", "training sequence length in tokens"},
	{"tokens", G_BATCH, ENGINE_KNOB_REAL, ENGINE_UNIT_COUNT, 1, 1e17, 2e12, ENGINE_STEP_125, NULL, F_TRAIN, M_TIME,
	 SC(tokens), "tokens", "training tokens D"},

	{"precision", G_PREC, ENGINE_KNOB_ENUM, ENGINE_UNIT_NONE, 0, 0, ENGINE_PREC_MIXED_BF16, ENGINE_STEP_CHOICE,
	 ch_precision, 0, M_MEM | M_CMP | M_RL | M_INF, SC(precision), "recipe",
	 "fp32, amp-bf16/fp16 (autocast), mixed-bf16/fp16 (16-bit weights + fp32 master), bf16, fp8-mixed"},
	{"weight_dtype", G_PREC, ENGINE_KNOB_ENUM, ENGINE_UNIT_NONE, 0, 0, ENGINE_DT_AUTO, ENGINE_STEP_CHOICE, ch_dtype,
	 0, M_MEM | M_RL | M_INF, SC(weight_dtype), "weights", "weights' dtype (auto: the recipe's; inference: int8, int4)"},
	{"grad_dtype", G_PREC, ENGINE_KNOB_ENUM, ENGINE_UNIT_NONE, 0, 0, ENGINE_DT_AUTO, ENGINE_STEP_CHOICE, ch_dtype,
	 F_TRAIN, M_MEM, SC(grad_dtype), "gradients", "gradients' dtype (auto: the recipe's)"},
	{"optimizer_dtype", G_PREC, ENGINE_KNOB_ENUM, ENGINE_UNIT_NONE, 0, 0, ENGINE_DT_AUTO, ENGINE_STEP_CHOICE,
	 ch_dtype, F_TRAIN, M_MEM, SC(optimizer_dtype), "opt. states", "optimizer states' dtype (auto: the recipe's)"},
	{"activation_dtype", G_PREC, ENGINE_KNOB_ENUM, ENGINE_UNIT_NONE, 0, 0, ENGINE_DT_AUTO, ENGINE_STEP_CHOICE,
	 ch_dtype, 0, M_MEM | M_RL, SC(activation_dtype), "activations", "activations' dtype (auto: the recipe's)"},
	{"kv_dtype", G_PREC, ENGINE_KNOB_ENUM, ENGINE_UNIT_NONE, 0, 0, ENGINE_DT_AUTO, ENGINE_STEP_CHOICE, ch_dtype,
	 F_INFER, M_MEM | M_INF, SC(kv_dtype), "KV cache", "KV cache dtype (auto: the activations')"},
	{"matmul_dtype", G_PREC, ENGINE_KNOB_ENUM, ENGINE_UNIT_NONE, 0, 0, ENGINE_DT_AUTO, ENGINE_STEP_CHOICE, ch_dtype,
	 0, M_CMP | M_RL | M_INF, SC(matmul_dtype), "matmuls", "the dtype matmuls run in, which picks the peak (tf32 for fp32)"},

	{"optimizer", G_TRAIN, ENGINE_KNOB_ENUM, ENGINE_UNIT_NONE, 0, 0, ENGINE_OPT_ADAMW, ENGINE_STEP_CHOICE,
	 ch_optimizer, F_TRAIN, M_MEM, SC(optimizer), "optimizer", "adamw, adam, sgd, sgd-momentum, adam-8bit, lion, adafactor"},
	{"recompute", G_TRAIN, ENGINE_KNOB_ENUM, ENGINE_UNIT_NONE, 0, 0, ENGINE_RECOMP_NONE, ENGINE_STEP_CHOICE,
	 ch_recompute, F_TRAIN, M_MEM | M_CMP | M_RL, SC(recompute), "recompute",
	 "activation recomputation: none, selective (attention) or full"},
	{"flash_attention", G_TRAIN, ENGINE_KNOB_BOOL, ENGINE_UNIT_NONE, 0, 0, 1, ENGINE_STEP_CHOICE, NULL, 0,
	 M_MEM | M_CMP | M_RL, SC(flash_attention), "FlashAttn", "FlashAttention: never store the s×s scores"},
	{"activations", G_TRAIN, ENGINE_KNOB_BOOL, ENGINE_UNIT_NONE, 0, 0, 1, ENGINE_STEP_CHOICE, NULL, 0, M_MEM,
	 SC(activations), "count act.", "count activations (off: the napkin estimate that ignores them)"},
	{"mfu", G_TRAIN, ENGINE_KNOB_REAL, ENGINE_UNIT_FRACTION, 1e-9, 1, 0.4, ENGINE_STEP_LINEAR, NULL, F_TRAIN, M_TIME,
	 SC(mfu), "MFU", "assumed model FLOPs utilisation (when no throughput is measured)"},
	{"tokens_per_s", G_TRAIN, ENGINE_KNOB_REAL, ENGINE_UNIT_TOKENS_PER_S, 0, 1e15, 0, ENGINE_STEP_125, NULL,
	 F_UNSET | F_TRAIN, M_TIME, SC(tokens_per_s), "tokens/s", "measured whole-job throughput (gives MFU and time)"},
	{"step_time", G_TRAIN, ENGINE_KNOB_REAL, ENGINE_UNIT_SECONDS, 0, 1e9, 0, ENGINE_STEP_125, NULL,
	 F_UNSET | F_TRAIN, M_TIME, SC(step_time), "step time", "measured seconds per optimizer step"},
	{"achieved_flops", G_TRAIN, ENGINE_KNOB_REAL, ENGINE_UNIT_FLOP_PER_S, 0, 1e20, 0, ENGINE_STEP_125, NULL,
	 F_UNSET | F_TRAIN, M_TIME, SC(achieved_flops), "achieved", "measured hardware FLOP/s per GPU (Megatron's TFLOPs)"},
	{"flops_formula", G_TRAIN, ENGINE_KNOB_ENUM, ENGINE_UNIT_NONE, 0, 0, ENGINE_FLOPS_EXACT, ENGINE_STEP_CHOICE,
	 ch_formula, F_TRAIN, M_TIME, SC(flops_formula), "FLOPs count", "exact (per-matmul) or 6n (the 6·N·D shorthand)"},
	{"pinned", G_TRAIN, ENGINE_KNOB_BOOL, ENGINE_UNIT_NONE, 0, 0, 1, ENGINE_STEP_CHOICE, NULL, F_TRAIN, M_DATA,
	 SC(pinned), "pinned mem", "load batches from pinned (page-locked) host memory"},

	{"prompt", G_INFER, ENGINE_KNOB_INT, ENGINE_UNIT_TOKENS, 1, 1e8, 512, ENGINE_STEP_POW2, NULL, F_INFER,
	 M_MEM | M_INF | M_RL, SC(prompt), "prompt", "prompt tokens per sequence (prefill)"},
	{"generate", G_INFER, ENGINE_KNOB_INT, ENGINE_UNIT_TOKENS, 1, 1e8, 512, ENGINE_STEP_POW2, NULL, F_INFER,
	 M_MEM | M_INF | M_RL, SC(generate), "generate", "tokens generated per sequence (decode steps)"},
};

#define NKNOBS (sizeof knobs / sizeof knobs[0])

static enum special special_of(const struct engine_knob *k)
{
	if (k == &knobs[0])
		return SP_MODEL;
	if (k == &knobs[1])
		return SP_PARAMS;
	if (k->type == ENGINE_KNOB_NAME)
		return SP_GPU;
	if (strcmp(k->key, "bias") == 0)
		return SP_BIAS;
	return SP_NONE;
}

const struct engine_knob *engine_knobs(size_t *count)
{
	if (count != NULL)
		*count = NKNOBS;
	return knobs;
}

static bool key_eq(const char *a, const char *b)
{
	for (; *a && *b; a++, b++) {
		char x = *a == '-' ? '_' : *a, y = *b == '-' ? '_' : *b;
		if (x != y)
			return false;
	}
	return *a == *b;
}

const struct engine_knob *engine_knob_find(const char *key)
{
	size_t i;

	for (i = 0; i < NKNOBS; i++)
		if (key_eq(key, knobs[i].key))
			return &knobs[i];
	return NULL;
}

const char *engine_knob_suggest(const char *key)
{
	const char *names[NKNOBS + 1];
	char norm[64];
	size_t i;

	for (i = 0; i < NKNOBS; i++)
		names[i] = knobs[i].key;
	names[NKNOBS] = NULL;
	util_strlcpy(norm, key, sizeof norm);
	for (i = 0; norm[i]; i++)
		if (norm[i] == '-')
			norm[i] = '_';
	return util_suggest(norm, names);
}

const char *engine_group_name(enum engine_knob_group g)
{
	static const char *names[ENGINE_GROUP_COUNT] = {"Model", "Batch & sequence", "Precision", "GPU & cluster",
							"Training", "Inference"};
	return (int)g >= 0 && g < ENGINE_GROUP_COUNT ? names[g] : "";
}

/* ------------------------------------------------------------ field access */

static int64_t *f_int(struct engine_scenario *sc, const struct engine_knob *k)
{
	return (int64_t *)(void *)((char *)sc + k->offset);
}
static double *f_real(struct engine_scenario *sc, const struct engine_knob *k)
{
	return (double *)(void *)((char *)sc + k->offset);
}
static bool *f_bool(struct engine_scenario *sc, const struct engine_knob *k)
{
	return (bool *)(void *)((char *)sc + k->offset);
}
static int *f_enum(struct engine_scenario *sc, const struct engine_knob *k)
{
	return (int *)(void *)((char *)sc + k->offset);
}

static int bias_value(const struct engine_model *m)
{
	if (m->qkv_bias && m->o_bias && m->mlp_bias)
		return BIAS_ALL;
	if (m->qkv_bias && m->o_bias)
		return BIAS_ATTN;
	if (m->qkv_bias)
		return BIAS_QKV;
	return BIAS_NONE;
}

double engine_knob_value(const struct engine_scenario *sc, const struct engine_knob *k)
{
	struct engine_scenario *s = (struct engine_scenario *)sc;

	switch (special_of(k)) {
	case SP_BIAS: return bias_value(&sc->model);
	case SP_MODEL:
	case SP_GPU: return 0.0;
	default: break;
	}
	switch (k->type) {
	case ENGINE_KNOB_INT: return (double)*f_int(s, k);
	case ENGINE_KNOB_REAL: return *f_real(s, k);
	case ENGINE_KNOB_BOOL: return *f_bool(s, k) ? 1.0 : 0.0;
	case ENGINE_KNOB_ENUM: return (double)*f_enum(s, k);
	default: return 0.0;
	}
}

static const char *choice_name(const struct engine_choice *c, int v)
{
	for (; c->name != NULL; c++)
		if (c->value == v)
			return c->name;
	return "?";
}

/* ------------------------------------------------------------ text */

static void fmt_real(double v, char *buf, size_t n)
{
	char tmp[40];
	int prec;

	for (prec = 6; prec <= 17; prec++) {
		snprintf(tmp, sizeof tmp, "%.*g", prec, v);
		if (strtod(tmp, NULL) == v)
			break;
	}
	util_strlcpy(buf, tmp, n);
}

void engine_knob_format(const struct engine_scenario *sc, const struct engine_knob *k, char *buf, size_t n)
{
	struct engine_scenario *s = (struct engine_scenario *)sc;

	switch (special_of(k)) {
	case SP_MODEL: util_strlcpy(buf, sc->model.id, n); return;
	case SP_GPU: util_strlcpy(buf, sc->gpu.id, n); return;
	case SP_BIAS: util_strlcpy(buf, choice_name(k->choices, bias_value(&sc->model)), n); return;
	default: break;
	}
	switch (k->type) {
	case ENGINE_KNOB_INT: snprintf(buf, n, "%lld", (long long)*f_int(s, k)); break;
	case ENGINE_KNOB_REAL: fmt_real(*f_real(s, k), buf, n); break;
	case ENGINE_KNOB_BOOL: util_strlcpy(buf, *f_bool(s, k) ? "on" : "off", n); break;
	case ENGINE_KNOB_ENUM: util_strlcpy(buf, choice_name(k->choices, *f_enum(s, k)), n); break;
	default: buf[0] = '\0'; break;
	}
}

static void display_number(enum engine_unit u, double v, char *buf, size_t n)
{
	switch (u) {
	case ENGINE_UNIT_BYTES:
		engine_fmt_bytes(v, true, buf, n);
		break;
	case ENGINE_UNIT_NONE:
		snprintf(buf, n, "%g", v);
		break;
	default:
		engine_unit_format(u, v, buf, n);
		break;
	}
}

void engine_knob_display(const struct engine_scenario *sc, const struct engine_knob *k, char *buf, size_t n)
{
	struct engine_scenario *s = (struct engine_scenario *)sc;

	switch (special_of(k)) {
	case SP_MODEL: util_strlcpy(buf, sc->model.name[0] ? sc->model.name : "custom", n); return;
	case SP_GPU: util_strlcpy(buf, sc->gpu.name[0] ? sc->gpu.name : "custom", n); return;
	case SP_PARAMS: {
		struct eng_dims dm;
		struct engine_params p;
		eng_dims_from_model(&sc->model, &dm);
		eng_params(&dm, &p);
		engine_fmt_count(p.total, buf, n);
		return;
	}
	default: break;
	}
	if (k->type == ENGINE_KNOB_REAL && (k->flags & ENGINE_KNOB_ZERO_UNSET) && *f_real(s, k) == 0.0) {
		util_strlcpy(buf, "-", n);
		return;
	}
	switch (k->type) {
	case ENGINE_KNOB_INT: display_number(k->unit, (double)*f_int(s, k), buf, n); break;
	case ENGINE_KNOB_REAL: display_number(k->unit, *f_real(s, k), buf, n); break;
	default: engine_knob_format(sc, k, buf, n); break;
	}
}

static void range_text(const struct engine_knob *k, double v, char *buf, size_t n)
{
	if (k->unit == ENGINE_UNIT_BYTES)
		engine_fmt_bytes(v, false, buf, n);
	else if (k->unit == ENGINE_UNIT_BYTES_PER_S || k->unit == ENGINE_UNIT_FLOP_PER_S ||
		 k->unit == ENGINE_UNIT_TOKENS_PER_S || k->unit == ENGINE_UNIT_FRACTION || k->unit == ENGINE_UNIT_SECONDS)
		engine_unit_format(k->unit, v, buf, n);
	else if (v >= 1e6)
		snprintf(buf, n, "%g", v);
	else
		engine_fmt_count(v, buf, n);
}

void engine_knob_allowed(const struct engine_knob *k, char *buf, size_t n)
{
	size_t pos = 0;
	char lo[40], hi[40];
	const struct engine_choice *c;
	int seen[64], nseen = 0, i;

	buf[0] = '\0';
	switch (k->type) {
	case ENGINE_KNOB_NAME:
		util_bprintf(buf, n, &pos, "%s", k == &knobs[0] ? "a model preset id (napkin presets list models), a file, or a size like 7B"
							     : "a GPU preset id (napkin presets list gpus) or a file");
		break;
	case ENGINE_KNOB_BOOL: util_bprintf(buf, n, &pos, "on or off"); break;
	case ENGINE_KNOB_ENUM:
		for (c = k->choices; c->name != NULL; c++) {
			bool dup = false;
			for (i = 0; i < nseen; i++)
				dup = dup || seen[i] == c->value;
			if (dup || nseen >= 64)
				continue;
			seen[nseen++] = c->value;
			util_bprintf(buf, n, &pos, "%s%s", pos ? ", " : "", c->name);
		}
		break;
	default:
		range_text(k, k->min, lo, sizeof lo);
		range_text(k, k->max, hi, sizeof hi);
		util_bprintf(buf, n, &pos, "%s to %s", lo, hi);
		if (k->flags & ENGINE_KNOB_ZERO_UNSET)
			util_bprintf(buf, n, &pos, " (0: not given)");
		break;
	}
}

void engine_knob_default_text(const struct engine_knob *k, char *buf, size_t n)
{
	struct engine_scenario sc;

	engine_scenario_default(&sc);
	engine_knob_format(&sc, k, buf, n);
	if (buf[0] == '\0' || (k->type == ENGINE_KNOB_REAL && (k->flags & ENGINE_KNOB_ZERO_UNSET) &&
			       engine_knob_value(&sc, k) == 0.0))
		util_strlcpy(buf, k == &knobs[1] ? "(the model's)" : "(not given)", n);
}

/* ------------------------------------------------------------ setting */

static int knob_err(struct napkin_err *err, const struct engine_knob *k, const char *what)
{
	char allowed[400];

	engine_knob_allowed(k, allowed, sizeof allowed);
	return util_err_set(err, NAPKIN_EINVAL, "%s: %s; allowed: %s", k->key, what, allowed);
}

static int parse_bool(const char *t, bool *out)
{
	static const char *yes[] = {"on", "true", "yes", "1"};
	static const char *no[] = {"off", "false", "no", "0"};
	size_t i;

	for (i = 0; i < 4; i++) {
		if (strcasecmp(t, yes[i]) == 0) {
			*out = true;
			return 0;
		}
		if (strcasecmp(t, no[i]) == 0) {
			*out = false;
			return 0;
		}
	}
	return -1;
}

static int parse_choice(const struct engine_choice *c, const char *t, int *out)
{
	for (; c->name != NULL; c++)
		if (strcasecmp(t, c->name) == 0) {
			*out = c->value;
			return 0;
		}
	return -1;
}

static int set_model(struct engine_scenario *sc, const char *text, const struct engine_catalog *cat,
		     struct napkin_err *err)
{
	struct engine_model m;
	double v;
	struct napkin_err e2;

	/* a size ("7B") picks a standard shape */
	if (engine_unit_parse(ENGINE_UNIT_COUNT, text, &v, &e2) == NAPKIN_OK) {
		if (engine_model_from_params(v, &m, err) != NAPKIN_OK)
			return NAPKIN_EINVAL;
		sc->model = m;
		sc->params = v;
		return NAPKIN_OK;
	}
	if (cat != NULL && cat->model != NULL) {
		int rc = cat->model(cat->ctx, text, &m, err);
		if (rc != NAPKIN_OK)
			return rc;
	} else if (strcmp(text, "llama-2-7b") == 0) {
		engine_model_llama2_7b(&m);
	} else {
		return util_err_set(err, NAPKIN_ENOENT, "model: unknown model '%s' (only llama-2-7b is built in)", text);
	}
	sc->model = m;
	sc->params = 0.0;
	return NAPKIN_OK;
}

static int set_gpu(struct engine_scenario *sc, const char *text, const struct engine_catalog *cat,
		   struct napkin_err *err)
{
	struct engine_gpu g;

	if (cat != NULL && cat->gpu != NULL) {
		int rc = cat->gpu(cat->ctx, text, &g, err);
		if (rc != NAPKIN_OK)
			return rc;
	} else if (strcmp(text, "h100-sxm") == 0) {
		engine_gpu_h100_sxm(&g);
	} else {
		return util_err_set(err, NAPKIN_ENOENT, "gpu: unknown GPU '%s' (only h100-sxm is built in)", text);
	}
	sc->gpu = g;
	sc->peak_flops = 0.0;
	return NAPKIN_OK;
}

/* An architecture field changed: the shape is no longer the one `params` picked nor the
 * published model; the id stays (it names the preset the shape started from, which a
 * saved scenario is written against) and the display name says it was modified. */
static bool same_shape(const struct engine_model *a, const struct engine_model *b)
{
	return a->vocab == b->vocab && a->hidden == b->hidden && a->layers == b->layers && a->heads == b->heads &&
	       a->kv_heads == b->kv_heads && a->head_dim == b->head_dim && a->ffn == b->ffn && a->mlp == b->mlp &&
	       a->norm == b->norm && a->qkv_bias == b->qkv_bias && a->o_bias == b->o_bias && a->mlp_bias == b->mlp_bias &&
	       a->tied == b->tied && a->position == b->position && a->max_positions == b->max_positions &&
	       a->experts == b->experts && a->top_k == b->top_k && a->dropout == b->dropout;
}

static void arch_changed(struct engine_scenario *sc, const struct engine_model *before)
{
	size_t len;

	if (same_shape(before, &sc->model))
		return;
	sc->params = 0.0;
	sc->model.params_published = 0.0;
	len = strlen(sc->model.name);
	if (len > 0 && sc->model.name[len - 1] != '*' && len + 1 < sizeof sc->model.name) {
		sc->model.name[len] = '*';
		sc->model.name[len + 1] = '\0';
	}
}

int engine_knob_set(struct engine_scenario *sc, const struct engine_knob *k, const char *text,
		    const struct engine_catalog *cat, struct napkin_err *err)
{
	char what[200];
	double v;
	struct napkin_err e2;
	struct engine_model before = sc->model;

	while (*text == ' ' || *text == '\t')
		text++;
	if (*text == '\0')
		return knob_err(err, k, "no value given");
	switch (special_of(k)) {
	case SP_MODEL: return set_model(sc, text, cat, err);
	case SP_GPU: return set_gpu(sc, text, cat, err);
	case SP_PARAMS: {
		struct engine_model m;
		if (engine_unit_parse(ENGINE_UNIT_COUNT, text, &v, &e2) != NAPKIN_OK)
			return knob_err(err, k, e2.msg);
		if (engine_model_from_params(v, &m, &e2) != NAPKIN_OK)
			return util_err_set(err, NAPKIN_EINVAL, "%s", e2.msg);
		sc->model = m;
		sc->params = v;
		return NAPKIN_OK;
	}
	case SP_BIAS: {
		int b;
		if (parse_choice(k->choices, text, &b) != 0) {
			snprintf(what, sizeof what, "'%s' is not a choice", text);
			return knob_err(err, k, what);
		}
		sc->model.qkv_bias = b >= BIAS_QKV;
		sc->model.o_bias = b >= BIAS_ATTN;
		sc->model.mlp_bias = b >= BIAS_ALL;
		arch_changed(sc, &before);
		return NAPKIN_OK;
	}
	default: break;
	}
	switch (k->type) {
	case ENGINE_KNOB_INT:
	case ENGINE_KNOB_REAL:
		if (engine_unit_parse(k->unit, text, &v, &e2) != NAPKIN_OK)
			return util_err_set(err, NAPKIN_EINVAL, "%s: %s", k->key, e2.msg);
		if (k->type == ENGINE_KNOB_INT && v != floor(v)) {
			snprintf(what, sizeof what, "'%s' is not a whole number", text);
			return knob_err(err, k, what);
		}
		if (!(k->flags & ENGINE_KNOB_ZERO_UNSET && v == 0.0) && (v < k->min || v > k->max)) {
			char got[40];
			range_text(k, v, got, sizeof got);
			snprintf(what, sizeof what, "%s is out of range", got);
			return knob_err(err, k, what);
		}
		if (k->type == ENGINE_KNOB_INT)
			*f_int(sc, k) = (int64_t)v;
		else
			*f_real(sc, k) = v == 0.0 ? 0.0 : v; /* -0 is 0 */
		break;
	case ENGINE_KNOB_BOOL: {
		bool b;
		if (parse_bool(text, &b) != 0) {
			snprintf(what, sizeof what, "'%s' is not on or off", text);
			return knob_err(err, k, what);
		}
		*f_bool(sc, k) = b;
		break;
	}
	case ENGINE_KNOB_ENUM: {
		int c;
		if (parse_choice(k->choices, text, &c) != 0) {
			snprintf(what, sizeof what, "'%s' is not a choice", text);
			return knob_err(err, k, what);
		}
		*f_enum(sc, k) = c;
		break;
	}
	default: return knob_err(err, k, "cannot be set");
	}
	if (k->flags & ENGINE_KNOB_ARCH)
		arch_changed(sc, &before);
	return NAPKIN_OK;
}

/* ------------------------------------------------------------ stepping */

static double step_125(double v, int dir)
{
	double e, cand[] = {1, 2, 5, 10};
	int i;

	if (v <= 0)
		return dir > 0 ? 1.0 : 0.0;
	e = pow(10.0, floor(log10(v)));
	if (dir > 0) {
		for (i = 0; i < 4; i++)
			if (cand[i] * e > v * (1 + 1e-9))
				return cand[i] * e;
		return 20.0 * e;
	}
	for (i = 3; i >= 0; i--)
		if (cand[i] * e < v * (1 - 1e-9))
			return cand[i] * e;
	return 0.5 * e;
}

static double step_pow2(double v, int dir)
{
	double p;

	if (v < 1)
		return 1;
	p = pow(2.0, floor(log2(v)));
	if (dir > 0)
		return p * 2.0;
	return p < v ? p : p / 2.0;
}

static double derived_seed(const struct engine_scenario *sc, const struct engine_knob *k)
{
	struct engine_result r;

	eng_compute_core(sc, &r);
	if (strcmp(k->key, "tokens_per_s") == 0)
		return r.compute.tokens_per_s;
	if (strcmp(k->key, "step_time") == 0)
		return r.compute.step_seconds;
	if (strcmp(k->key, "achieved_flops") == 0)
		return r.compute.achieved_flops;
	if (strcmp(k->key, "peak_flops") == 0)
		return r.compute.peak;
	return 1.0;
}

static double nice_125(double v)
{
	double e = pow(10.0, floor(log10(v))), m = v / e;
	return (m < 1.5 ? 1 : m < 3.5 ? 2 : m < 7.5 ? 5 : 10) * e;
}

int engine_knob_step(struct engine_scenario *sc, const struct engine_knob *k, int dir,
		     const struct engine_catalog *cat, struct napkin_err *err)
{
	struct engine_scenario t = *sc;
	int tries, rc = NAPKIN_OK;
	char text[64];

	(void)cat;
	if (k->type == ENGINE_KNOB_NAME || k == &knobs[1])
		return util_err_set(err, NAPKIN_EINVAL, "%s: pick it from the list or type a value", k->key);
	for (tries = 0; tries < 64; tries++) {
		switch (k->type) {
		case ENGINE_KNOB_BOOL:
			rc = engine_knob_set(&t, k, *f_bool(&t, k) ? "off" : "on", cat, err);
			if (rc != NAPKIN_OK)
				return rc;
			break;
		case ENGINE_KNOB_ENUM: {
			/* canonical choices only: the first name of each value */
			const struct engine_choice *c = k->choices;
			int vals[32], nv = 0, i, cur, idx = 0;
			for (; c->name != NULL && nv < 32; c++) {
				bool dup = false;
				for (i = 0; i < nv; i++)
					dup = dup || vals[i] == c->value;
				if (!dup)
					vals[nv++] = c->value;
			}
			cur = (int)engine_knob_value(&t, k);
			for (i = 0; i < nv; i++)
				if (vals[i] == cur)
					idx = i;
			idx = (idx + (dir > 0 ? 1 : nv - 1)) % nv;
			snprintf(text, sizeof text, "%s", choice_name(k->choices, vals[idx]));
			rc = engine_knob_set(&t, k, text, cat, err);
			if (rc != NAPKIN_OK)
				return rc;
			break;
		}
		case ENGINE_KNOB_INT: {
			double v = (double)*f_int(&t, k), nv;
			if (k->step == ENGINE_STEP_POW2)
				nv = step_pow2(v, dir);
			else
				nv = v + (dir > 0 ? 1 : -1);
			if (nv < k->min || nv > k->max)
				return util_err_set(err, NAPKIN_EINVAL, "%s: already at its %s (%g)", k->key,
						    dir > 0 ? "maximum" : "minimum", dir > 0 ? k->max : k->min);
			{
				struct engine_model before = t.model;
				*f_int(&t, k) = (int64_t)nv;
				if (k->flags & ENGINE_KNOB_ARCH)
					arch_changed(&t, &before);
			}
			break;
		}
		case ENGINE_KNOB_REAL: {
			double v = *f_real(&t, k), nv;
			if (v == 0.0 && (k->flags & ENGINE_KNOB_ZERO_UNSET)) {
				if (dir < 0)
					return util_err_set(err, NAPKIN_EINVAL, "%s: not given; step up to set it", k->key);
				nv = nice_125(derived_seed(&t, k));
			} else if (k->step == ENGINE_STEP_125) {
				nv = step_125(v, dir);
			} else {
				double st = k->unit == ENGINE_UNIT_FRACTION ? 0.05 : 1.0;
				nv = floor(v / st + 0.5 + (dir > 0 ? 1 : -1)) * st;
				if (k->unit == ENGINE_UNIT_FRACTION && nv < st)
					nv = dir > 0 ? st : 0.01;
			}
			if ((k->flags & ENGINE_KNOB_ZERO_UNSET) && nv < k->min)
				nv = 0.0;
			else if (nv < k->min || nv > k->max)
				return util_err_set(err, NAPKIN_EINVAL, "%s: already at its %s", k->key,
						    dir > 0 ? "maximum" : "minimum");
			*f_real(&t, k) = nv;
			break;
		}
		default:
			return util_err_set(err, NAPKIN_EINVAL, "%s cannot be stepped", k->key);
		}
		rc = engine_validate(&t, err);
		if (rc == NAPKIN_OK) {
			*sc = t;
			return NAPKIN_OK;
		}
		if (k->type != ENGINE_KNOB_INT)
			return rc;
	}
	return rc;
}

bool engine_knob_relevant(const struct engine_scenario *sc, const struct engine_knob *k)
{
	if ((k->flags & ENGINE_KNOB_TRAIN) && sc->mode != ENGINE_MODE_TRAIN)
		return false;
	if ((k->flags & ENGINE_KNOB_INFER) && sc->mode != ENGINE_MODE_INFER)
		return false;
	return true;
}

/* ------------------------------------------------------------ defaults and apply */

void engine_scenario_default(struct engine_scenario *sc)
{
	size_t i;

	memset(sc, 0, sizeof *sc);
	engine_model_llama2_7b(&sc->model);
	engine_gpu_h100_sxm(&sc->gpu);
	for (i = 0; i < NKNOBS; i++) {
		const struct engine_knob *k = &knobs[i];
		if (k->flags & (ENGINE_KNOB_ARCH | ENGINE_KNOB_GPUFIELD) || special_of(k) != SP_NONE)
			continue;
		switch (k->type) {
		case ENGINE_KNOB_INT: *f_int(sc, k) = (int64_t)k->def; break;
		case ENGINE_KNOB_REAL: *f_real(sc, k) = k->def; break;
		case ENGINE_KNOB_BOOL: *f_bool(sc, k) = k->def != 0.0; break;
		case ENGINE_KNOB_ENUM: *f_enum(sc, k) = (int)k->def; break;
		default: break;
		}
	}
}

int engine_apply(struct engine_scenario *sc, const struct engine_assign *a, size_t n,
		 const struct engine_catalog *cat, struct napkin_err *err)
{
	struct engine_scenario t = *sc;
	size_t ki, i;
	int rc;

	util_err_clear(err);
	/* in table order, so `model` lands before the architecture keys it would overwrite;
	 * within one knob, the last assignment wins */
	for (ki = 0; ki < NKNOBS; ki++) {
		for (i = 0; i < n; i++) {
			if (a[i].knob != &knobs[ki])
				continue;
			rc = engine_knob_set(&t, a[i].knob, a[i].text, cat, err);
			if (rc != NAPKIN_OK) {
				if (a[i].file != NULL)
					util_err_at(err, a[i].file, a[i].line, a[i].col);
				return rc;
			}
		}
	}
	for (i = 0; i < n; i++)
		if (a[i].knob < knobs || a[i].knob >= knobs + NKNOBS)
			return util_err_set(err, NAPKIN_EINVAL, "internal: an assignment names no knob of the table");
	rc = engine_validate(&t, err);
	if (rc != NAPKIN_OK) {
		/* point at the assignment the message is about: validation messages begin with
		 * the key of the knob at fault */
		const struct engine_assign *at = NULL;
		for (i = 0; err != NULL && i < n; i++) {
			size_t kl = strlen(a[i].knob->key);
			if (strncmp(err->msg, a[i].knob->key, kl) == 0 && err->msg[kl] != '\0' &&
			    strchr(" :(", err->msg[kl]) != NULL && (at == NULL || kl >= strlen(at->knob->key)))
				at = &a[i];
		}
		if (at != NULL && at->file != NULL)
			util_err_at(err, at->file, at->line, at->col);
		else if (n > 0 && a[0].file != NULL)
			util_err_at(err, a[0].file, 0, 0);
		return rc;
	}
	*sc = t;
	return NAPKIN_OK;
}
