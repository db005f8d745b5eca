/*
 * engine: napkin's resource accounting, pure C.
 *
 * A const struct engine_scenario in, a struct engine_result out: no files, no terminal,
 * no allocation, no mutable globals. Every front end (cli, tui, presets, lessons) only
 * translates its input into knob changes through the knob table below, and the result
 * into text or pixels.
 *
 * Call order:
 *   engine_scenario_default(&sc);                 a complete, valid scenario
 *   engine_apply(&sc, assigns, n, &catalog, &err) knob changes, all or nothing
 *   engine_evaluate(&sc, &res, &err)              every result (compute + solves + techniques)
 *   engine_explain(&sc, &res, "memory.weights", buf, sizeof buf)
 *
 * Ownership: every struct here is plain data owned by the caller; the engine keeps no
 * pointer to it after a call returns. Strings in the knob and result tables are static.
 */
#ifndef NAPKIN_ENGINE_H
#define NAPKIN_ENGINE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "util.h"

#define ENGINE_ID_MAX 64
#define ENGINE_NAME_MAX 96
#define ENGINE_SOURCE_MAX 320
#define ENGINE_GEMM_POINTS 6 /* measured GEMM sizes a GPU profile keeps */

/* A translator the caller lends the engine for the sentences it writes with numbers in them
 * (explanations, warnings, the roofline verdict, errors, adaptation notes): the engine
 * passes each English format string (its msgid) through gettext before formatting, so the
 * numbers are the same in every language. NULL, or a NULL gettext, is English. The engine
 * never stores it beyond the scenario that carries it (docs/i18n.md, "The engine stays pure"). */
struct engine_tr {
	const char *(*gettext)(void *ctx, const char *msgid);
	void *ctx;
};

/* ---------------------------------------------------------------- data types */

enum engine_dtype {
	ENGINE_DT_FP64,
	ENGINE_DT_FP32,
	ENGINE_DT_TF32,
	ENGINE_DT_BF16,
	ENGINE_DT_FP16,
	ENGINE_DT_FP8_E4M3,
	ENGINE_DT_FP8_E5M2,
	ENGINE_DT_INT8,
	ENGINE_DT_INT4,
	ENGINE_DT_FP4,
	ENGINE_DT_COUNT,
	ENGINE_DT_AUTO = -1, /* a per-tensor override that follows the precision recipe */
};

/* What a data type is, bit by bit (IEEE 754; bf16; OCP FP8 and MX formats). */
struct engine_dtype_info {
	const char *name;      /* "bf16" */
	const char *label;     /* "bfloat16" */
	double bytes;          /* storage per element (tf32 is stored in 4 bytes; int4 0.5) */
	int bits;              /* significant bits: sign + exponent + mantissa, or integer width */
	int exponent_bits;     /* 0 for integers */
	int mantissa_bits;     /* explicit fraction bits; integers: bits - 1 */
	bool is_float;
	double max_finite;     /* largest finite value (integers: largest value) */
	double min_normal;     /* smallest positive normal (integers: 1) */
	double min_subnormal;  /* smallest positive subnormal (0 if none) */
	double epsilon;        /* distance from 1 to the next value */
	const char *note;      /* one line: what it is for */
	const char *source;
};

const struct engine_dtype_info *engine_dtype_info(enum engine_dtype dt);
/* Looks a dtype up by name ("bf16", "fp8", "fp8-e4m3", "e5m2", "int4", ...). Returns
 * ENGINE_DT_AUTO when unknown. */
enum engine_dtype engine_dtype_by_name(const char *name);

/* ---------------------------------------------------------------- model and GPU */

enum engine_mlp { ENGINE_MLP_GATED, ENGINE_MLP_PLAIN };
enum engine_norm { ENGINE_NORM_RMS, ENGINE_NORM_LAYER };
enum engine_position { ENGINE_POS_ROPE, ENGINE_POS_LEARNED, ENGINE_POS_NONE };

/* A decoder-only transformer's architecture. */
struct engine_model {
	char id[ENGINE_ID_MAX];       /* preset id; "" for a shape made from `params` or by hand */
	char name[ENGINE_NAME_MAX];   /* display name */
	char arch[32];                /* Hugging Face model_type ("llama", "gpt2", ...) */
	int64_t vocab, hidden, layers, heads, kv_heads, head_dim, ffn;
	enum engine_mlp mlp;          /* gated (SwiGLU/GeGLU: 3 matrices) or plain (2) */
	enum engine_norm norm;        /* RMSNorm (weight) or LayerNorm (weight and bias) */
	bool qkv_bias, o_bias, mlp_bias;
	bool tied;                    /* LM head shares the embedding matrix */
	enum engine_position position;
	int64_t max_positions;        /* learned positions: their count; otherwise the context limit */
	int64_t experts, top_k;       /* MoE: experts per layer and experts per token (1, 1 if dense) */
	bool dropout;                 /* trained with dropout (its 1-byte masks are activations) */
	double params_published;      /* the published exact count, 0 when unknown */
	/* Sliding-window attention (Mistral's `sliding_window`, Gemma 2's local layers): a layer
	 * that uses it attends to, and caches, at most the last sliding_window tokens. 0: none. */
	int64_t sliding_window;
	int64_t window_layers;        /* layers that use the window (0: all of them when a window is set) */
	int checkpoint_format;        /* the checkpoint's weight format (quantization_config), an
				       * enum engine_weight_format; inference takes it unless weight_format is given */
	char source[ENGINE_SOURCE_MAX];
};

/* One accelerator. Rates are dense (no sparsity), per GPU, per direction for links. */
struct engine_gpu {
	char id[ENGINE_ID_MAX];
	char name[ENGINE_NAME_MAX];
	char vendor[24];
	double memory_bytes;          /* one card's capacity, bytes */
	double bandwidth;             /* memory bandwidth, bytes/s */
	double peak[ENGINE_DT_COUNT]; /* dense FLOP/s (OP/s for integers) by dtype; 0 = none */
	double pcie_bw;               /* host link, bytes/s per direction */
	double h2d_pinned_bw;         /* measured host-to-device from pinned memory, bytes/s (0 = from pcie_bw) */
	double h2d_pageable_bw;       /* measured host-to-device from pageable memory (0 = derived) */
	double link_bw;               /* GPU-GPU link (NVLink, Infinity Fabric, ICI), bytes/s per direction */
	char link_name[24];
	double network_bw;            /* scale-out (InfiniBand, RoCE, EFA) per GPU, bytes/s per direction (0 = unknown) */
	double tdp_w;
	int sm_count;                 /* SMs, CUs or TensorCores */
	double overhead_bytes;        /* CUDA context + library workspaces, bytes */
	bool measured;                /* figures come from napkin probe, not a datasheet */
	double peak_gemm_n;           /* measured peaks: the side n of the n×n×n GEMM they were timed on (0: unknown) */
	int gemm_points;              /* measured 16-bit GEMM rates at square sizes (napkin probe), ascending */
	double gemm_n[ENGINE_GEMM_POINTS], gemm_rate[ENGINE_GEMM_POINTS];
	char source[ENGINE_SOURCE_MAX];
};

/* Peak for dtype dt on gpu (fp8-e5m2 shares the fp8 figure). 0 when the GPU has none. */
double engine_gpu_peak(const struct engine_gpu *gpu, enum engine_dtype dt);

/* ---------------------------------------------------------------- weight-only quantisation */

/* How inference weights are stored: a plain dtype (weight_dtype decides) or a weight-only
 * quantisation format with its scales (src/engine/quant.c derives each from its format). */
enum engine_weight_format {
	ENGINE_WF_DTYPE,
	ENGINE_WF_GPTQ_INT4,   /* AutoGPTQ: int4, group 128, fp16 scale + packed 4-bit zero per group */
	ENGINE_WF_AWQ_INT4,    /* AutoAWQ (GEMM): the same layout */
	ENGINE_WF_NF4,         /* bitsandbytes NF4, block 64, fp32 absmax */
	ENGINE_WF_NF4_DQ,      /* NF4 with double quantisation (QLoRA): absmax in 8 bits, block 256 */
	ENGINE_WF_GGUF_Q8_0,   /* llama.cpp: blocks of 32 int8 + one fp16 scale */
	ENGINE_WF_GGUF_Q4_K_M, /* llama.cpp: Q4_K with Q6_K for half the attn_v / ffn_down and the output */
	ENGINE_WF_FP8,         /* fp8 e4m3 with one fp32 scale per tensor (vLLM / TensorRT-LLM) */
	ENGINE_WF_COUNT,
};

struct engine_weight_format_info {
	const char *name;        /* "gptq-int4" */
	const char *label;       /* "GPTQ int4, group 128" */
	double linear_bits;      /* bits per weight of the blocks' linears, scales included */
	double embed_bits;       /* the token embedding's (0: kept in 16 bits) */
	double head_bits;        /* the LM head's (0: kept in 16 bits) */
	bool mixed;              /* linear_bits depends on the layer count (Q4_K_M): see engine_weight_format_bits */
	const char *scales;      /* where the scales live, in words */
	const char *source;
};
const struct engine_weight_format_info *engine_weight_format_info(enum engine_weight_format f);
/* Bits per weight of the blocks' linears for a model of this shape (Q4_K_M mixes types by
 * layer and tensor; the others are constant). */
double engine_weight_format_bits(enum engine_weight_format f, const struct engine_model *m);

/* ---------------------------------------------------------------- scenario */

enum engine_mode { ENGINE_MODE_TRAIN, ENGINE_MODE_INFER };
enum engine_precision {
	ENGINE_PREC_FP32,       /* everything fp32 */
	ENGINE_PREC_AMP_BF16,   /* autocast: fp32 weights, grads, states; bf16 activations, matmuls */
	ENGINE_PREC_AMP_FP16,
	ENGINE_PREC_MIXED_BF16, /* bf16 weights and grads, fp32 master and states (ZeRO's 2+2+12) */
	ENGINE_PREC_MIXED_FP16,
	ENGINE_PREC_BF16,       /* everything bf16 (states too) */
	ENGINE_PREC_FP8_MIXED,  /* as mixed-bf16, with fp8 matmuls */
	ENGINE_PREC_COUNT,
};
enum engine_optimizer {
	ENGINE_OPT_ADAMW,
	ENGINE_OPT_ADAM,
	ENGINE_OPT_SGD,
	ENGINE_OPT_SGD_MOMENTUM,
	ENGINE_OPT_ADAM_8BIT,
	ENGINE_OPT_LION,
	ENGINE_OPT_ADAFACTOR,
	ENGINE_OPT_COUNT,
};
enum engine_recompute { ENGINE_RECOMP_NONE, ENGINE_RECOMP_SELECTIVE, ENGINE_RECOMP_FULL };
enum engine_flops_formula { ENGINE_FLOPS_EXACT, ENGINE_FLOPS_6N };
/* What code runs the model, which decides what autograd keeps for the backward
 * (src/engine/activations.c; measured in tests/torch):
 *   eager  PyTorch modules as Hugging Face's modelling code and most training scripts
 *          write them (Python RMSNorm, softmax in fp32, repeat_kv, F.cross_entropy);
 *   fused  Megatron-LM / Transformer Engine / Apex kernels (fused norms, softmax, SwiGLU,
 *          cross-entropy): Korthikanti et al. 2022's count. */
enum engine_kernels { ENGINE_KERNELS_EAGER, ENGINE_KERNELS_FUSED };
/* What a training run trains (src/engine/finetune.c):
 *   full   every weight (gradients, optimizer states and a master copy for all of them);
 *   lora   the base weights frozen, low-rank adapters A (r × in) and B (out × r) trained
 *          on the targeted linears (Hu et al. 2021; Hugging Face PEFT);
 *   qlora  as lora, with the base linears stored in NF4 with double quantisation
 *          (Dettmers et al. 2023). */
enum engine_finetune { ENGINE_FT_FULL, ENGINE_FT_LORA, ENGINE_FT_QLORA };
/* The linears LoRA adapts (bits of `lora_targets`). */
enum {
	ENGINE_LORA_Q = 1 << 0,
	ENGINE_LORA_K = 1 << 1,
	ENGINE_LORA_V = 1 << 2,
	ENGINE_LORA_O = 1 << 3,
	ENGINE_LORA_GATE = 1 << 4,
	ENGINE_LORA_UP = 1 << 5,
	ENGINE_LORA_DOWN = 1 << 6,
	ENGINE_LORA_ATTENTION = 0x0f,
	ENGINE_LORA_MLP = 0x70,
	ENGINE_LORA_ALL = 0x7f,
};
/* ZeRO-Offload (Ren et al. 2021) and ZeRO-Infinity (Rajbhandari et al. 2021):
 *   optimizer  optimizer states, fp32 master weights and the update on the CPU; 16-bit
 *              gradients stream to the host in the backward, 16-bit parameters come back;
 *   params     also the parameters live on the host, fetched per layer. */
enum engine_offload { ENGINE_OFFLOAD_NONE, ENGINE_OFFLOAD_OPTIMIZER, ENGINE_OFFLOAD_PARAMS };
/* When a training step's memory peaks: at the end of the forward (the loss computing,
 * the logits still alive), at the start of the backward (the forward's activations and
 * the loss's gradient all alive) or at the optimizer step (every gradient, before
 * zero_grad frees them). Inference peaks in the forward. */
enum engine_peak_phase { ENGINE_PEAK_BACKWARD, ENGINE_PEAK_OPTIMIZER, ENGINE_PEAK_FORWARD };
/* "backward", "optimizer", "forward" (the JSON report's memory.peak_phase). */
const char *engine_peak_phase_name(enum engine_peak_phase p);
/* A sentence for a person: "at the start of the backward", ... */
const char *engine_peak_phase_text(enum engine_peak_phase p);

/* Every knob, one field each; the knob table maps keys to these fields. */
struct engine_scenario {
	struct engine_model model;
	struct engine_gpu gpu;
	double params;                /* `params`: the size asked for when the shape came from it, else 0 */
	int64_t gpus, gpus_per_node, tp, pp, zero;
	int64_t cp, ep, vpp;          /* context-, expert-parallel degrees; virtual pipeline stages per GPU */
	bool sequence_parallel;
	bool overlap;                 /* overlap the data-parallel gradient reduction with the backward */
	enum engine_mode mode;
	int64_t batch, grad_accum, seq;
	enum engine_precision precision;
	int weight_dtype, grad_dtype, optimizer_dtype, activation_dtype, kv_dtype, matmul_dtype;
	enum engine_optimizer optimizer;
	enum engine_recompute recompute;
	bool flash_attention;
	enum engine_kernels kernels;  /* eager (PyTorch / Hugging Face) or fused (Megatron / TE) */
	bool activations;             /* count activations (off: the "ignoring activations" napkin) */
	enum engine_flops_formula flops_formula;
	double tokens;                /* training tokens D */
	double mfu;                   /* assumed model FLOPs utilisation (0 = auto: predicted from the step) */
	double tokens_per_s;          /* measured: whole-job throughput (0 = not given) */
	double step_time;             /* measured: seconds per optimizer step (0 = not given) */
	double achieved_flops;        /* measured: hardware FLOP/s per GPU (0 = not given) */
	double peak_flops;            /* override of the matmul peak, FLOP/s (0 = the GPU's) */
	int64_t prompt, generate;
	int64_t prefill_chunk;        /* serving: prompt tokens per prefill step (0: the whole prompt at once) */
	int64_t kv_block;             /* serving: tokens per KV-cache block (vLLM's paged attention) */
	int weight_format;            /* serving: enum engine_weight_format (dtype: weight_dtype decides) */
	bool pinned;
	enum engine_finetune finetune; /* full, lora or qlora */
	int64_t lora_rank;            /* r of every adapter */
	int lora_targets;             /* ENGINE_LORA_* bits */
	double lora_dropout;          /* PEFT's lora_dropout: p of the dropout before each A */
	enum engine_offload offload;  /* none, optimizer or params */
	double host_bandwidth;        /* host memory bandwidth, bytes/s (the CPU optimizer step) */
	double price;                 /* per GPU-hour, in the user's currency (0 = not given) */
	/* Which knobs the user set (command line, scenario file, explorer), one bit per row of
	 * the knob table: engine_knob_set marks them, engine_adapt leaves them alone and fits
	 * the others (still at their defaults) to the chosen model and GPU. */
	uint32_t given[4];
	/* The language of the texts made from this scenario (not a knob: never saved, never in
	 * JSON; engine_scenario_default sets NULL, English). The front ends set it once on the
	 * scenario they build; copies carry it. */
	const struct engine_tr *tr;
};

/* Where `model` and `gpu` names come from: the presets module implements this; the engine
 * only calls it. Each function fills *out and returns 0, or returns an error code with
 * err set. A NULL catalog (or function) means "no names known". */
struct engine_catalog {
	void *ctx;
	int (*model)(void *ctx, const char *name, struct engine_model *out, struct napkin_err *err);
	int (*gpu)(void *ctx, const char *name, struct engine_gpu *out, struct napkin_err *err);
};

/* The built-in default: Llama-2-7B on 8 × H100 SXM, mixed bf16, AdamW, batch 4 × 4096. */
void engine_scenario_default(struct engine_scenario *sc);
/* The built-in model and GPU the default uses (so the engine runs with no presets). */
void engine_model_llama2_7b(struct engine_model *m);
void engine_gpu_h100_sxm(struct engine_gpu *g);
/* A standard dense shape (Llama-style: gated MLP, RMSNorm, RoPE, vocab 32000, untied) whose
 * exact count is as close to `params` as an integer ffn allows. Returns 0, or an error
 * code when params is outside [1e7, 1e15]. */
int engine_model_from_params(double params, struct engine_model *m, struct napkin_err *err);

struct engine_params;
/* The parameter counts of an architecture alone (no scenario, no validation): total,
 * non-embedding, active, per layer, embedding, LM head. per_gpu is the total. */
void engine_model_params(const struct engine_model *m, struct engine_params *out);

/* Checks a scenario as a whole (divisibility, dtype support, ranges). Returns 0 or an
 * error code; the message names the knob and what is allowed. */
int engine_validate(const struct engine_scenario *sc, struct napkin_err *err);

/* ---------------------------------------------------------------- knobs */

enum engine_knob_type { ENGINE_KNOB_INT, ENGINE_KNOB_REAL, ENGINE_KNOB_BOOL, ENGINE_KNOB_ENUM, ENGINE_KNOB_NAME };

enum engine_unit {
	ENGINE_UNIT_NONE,
	ENGINE_UNIT_COUNT,     /* a plain count: k = 10^3, M, B or G = 10^9, T = 10^12 */
	ENGINE_UNIT_TOKENS,    /* a sequence length: k = 1024 ("4k context" is 4096) */
	ENGINE_UNIT_BYTES,     /* GB = 10^9, GiB = 2^30 */
	ENGINE_UNIT_BYTES_PER_S,
	ENGINE_UNIT_FLOP_PER_S,
	ENGINE_UNIT_SECONDS,
	ENGINE_UNIT_FRACTION,  /* 0.4 or 40% */
	ENGINE_UNIT_TOKENS_PER_S,
	ENGINE_UNIT_GPUS,
	ENGINE_UNIT_LAYERS,
	ENGINE_UNIT_HEADS,
	ENGINE_UNIT_FLOP,          /* a FLOP count (results only) */
	ENGINE_UNIT_FLOP_PER_BYTE, /* arithmetic intensity (results only) */
	ENGINE_UNIT_DAYS,          /* results only */
	ENGINE_UNIT_GPU_HOURS,     /* results only */
	ENGINE_UNIT_BYTES_PER_PARAM,
};

enum engine_knob_group {
	ENGINE_GROUP_MODEL,
	ENGINE_GROUP_BATCH,
	ENGINE_GROUP_PRECISION,
	ENGINE_GROUP_GPU,
	ENGINE_GROUP_TRAINING,
	ENGINE_GROUP_INFERENCE,
	ENGINE_GROUP_COUNT,
};

/* How a front end steps a knob by one notch. */
enum engine_step { ENGINE_STEP_NONE, ENGINE_STEP_LINEAR, ENGINE_STEP_POW2, ENGINE_STEP_125, ENGINE_STEP_CHOICE };

/* Which results a knob moves (bitmask). */
enum {
	ENGINE_MOVES_PARAMS = 1u << 0,
	ENGINE_MOVES_MEMORY = 1u << 1,
	ENGINE_MOVES_COMPUTE = 1u << 2,
	ENGINE_MOVES_TIME = 1u << 3,
	ENGINE_MOVES_ROOFLINE = 1u << 4,
	ENGINE_MOVES_INFERENCE = 1u << 5,
	ENGINE_MOVES_DATA = 1u << 6,
	ENGINE_MOVES_ALL = 0x7fu,
};

/* Knob flags. */
enum {
	ENGINE_KNOB_ZERO_UNSET = 1u << 0, /* 0 means "not given" (measurements, overrides) */
	ENGINE_KNOB_ARCH = 1u << 1,       /* an architecture field of the model */
	ENGINE_KNOB_GPUFIELD = 1u << 2,   /* a field of the GPU profile */
	ENGINE_KNOB_HIDDEN = 1u << 3,     /* not shown in the TUI's knob panes */
	ENGINE_KNOB_TRAIN = 1u << 4,      /* matters in training only */
	ENGINE_KNOB_INFER = 1u << 5,      /* matters in inference only */
	ENGINE_KNOB_MIN_OPEN = 1u << 6,   /* min itself is refused: the range is (min, max] (mfu) */
	ENGINE_KNOB_LIST = 1u << 8,       /* ENUM of bits: a comma-separated list ORs its choices (lora_targets) */
	ENGINE_KNOB_AUTO = 1u << 7,       /* REAL with ZERO_UNSET: 0 reads and writes as "auto" */
};

struct engine_choice {
	const char *name;
	int value;
};

struct engine_knob {
	const char *key;                  /* YAML/JSON key; on the command line --key with - for _ */
	enum engine_knob_group group;
	enum engine_knob_type type;
	enum engine_unit unit;
	double min, max;                  /* allowed range (INT, REAL), inclusive unless MIN_OPEN */
	double def;                       /* default (INT, REAL, BOOL as 0/1, ENUM value) */
	enum engine_step step;
	const struct engine_choice *choices; /* ENUM: NULL-name-terminated; the first name of a value is canonical */
	unsigned flags;
	unsigned moves;
	size_t offset;                    /* of the field in struct engine_scenario (NAME: unused) */
	const char *label;                /* short label for panes, "micro-batch" */
	const char *help;                 /* one sentence */
};

/* The whole table, in application order (model and gpu first). */
const struct engine_knob *engine_knobs(size_t *count);
/* Finds a knob by key; '-' and '_' are the same. NULL when unknown. */
const struct engine_knob *engine_knob_find(const char *key);
/* The nearest known key, for "unknown knob" messages, or NULL. */
const char *engine_knob_suggest(const char *key);
const char *engine_group_name(enum engine_knob_group g);
const char *engine_unit_name(enum engine_unit u);

/* Parses text for knob k and stores it in sc (NAME knobs resolve through cat). Does not
 * validate the scenario as a whole. Errors name the knob and the allowed values. */
int engine_knob_set(struct engine_scenario *sc, const struct engine_knob *k, const char *text,
		    const struct engine_catalog *cat, struct napkin_err *err);
/* The knob's value as canonical text that engine_knob_set accepts back. */
void engine_knob_format(const struct engine_scenario *sc, const struct engine_knob *k, char *buf, size_t n);
/* The knob's value as a human reads it in a pane ("4,096", "80 GB", "on"). */
void engine_knob_display(const struct engine_scenario *sc, const struct engine_knob *k, char *buf, size_t n);
/* Numeric value (INT, REAL, BOOL, ENUM); 0 for NAME. */
double engine_knob_value(const struct engine_scenario *sc, const struct engine_knob *k);
/* Steps knob k by dir (+1/-1) notches, staying in range; the result is validated and
 * the scenario is left unchanged on error. Returns 0 or an error code. */
int engine_knob_step(struct engine_scenario *sc, const struct engine_knob *k, int dir,
		     const struct engine_catalog *cat, struct napkin_err *err);
/* True when the knob applies in the scenario's mode (e.g. optimizer: train only). */
bool engine_knob_relevant(const struct engine_scenario *sc, const struct engine_knob *k);
/* The default text of a knob (for --help); "(not given)" and "(the model's)" are msgids. */
void engine_knob_default_text(const struct engine_knob *k, char *buf, size_t n);
/* The allowed values in words ("1 to 1048576", "adamw, adam, sgd, ...", "on or off"). */
void engine_knob_allowed(const struct engine_knob *k, char *buf, size_t n);
/* engine_knob_allowed in tr's language (NULL: English). */
void engine_knob_allowed_tr(const struct engine_knob *k, const struct engine_tr *tr, char *buf, size_t n);

/* Whether the user set knob k (engine_knob_set marks it; the default scenario has none). */
bool engine_knob_given(const struct engine_scenario *sc, const struct engine_knob *k);
void engine_knob_mark_given(struct engine_scenario *sc, const struct engine_knob *k, bool given);

/* What engine_adapt changed, one line each: "sequence 4,096 → 1,024, GPT-2's context". */
#define ENGINE_NOTES_MAX 4
struct engine_notes {
	int n;
	char text[ENGINE_NOTES_MAX][240]; /* room for a translation */
};

/* Defaults adapt to what the user chose, explicit choices never change: each knob the
 * user did not set is its default, fitted to the model and GPU (a sequence no longer than
 * the model's context; mixed-fp16 where the GPU has no bf16 peak). Idempotent; notes (may
 * be NULL) get one line for each knob that is not at its plain default. */
void engine_adapt(struct engine_scenario *sc, struct engine_notes *notes);

/* One knob assignment, with where it came from (for error messages). */
struct engine_assign {
	const struct engine_knob *knob;
	const char *text;
	const char *file;  /* NULL for the command line */
	int line, col;     /* 1-based, 0 unknown */
};

/* Applies assignments in knob-table order (model/params/gpu before the fields they set),
 * marks them given, adapts the other knobs (engine_adapt), then validates. All or
 * nothing: on error *sc is unchanged. */
int engine_apply(struct engine_scenario *sc, const struct engine_assign *a, size_t n,
		 const struct engine_catalog *cat, struct napkin_err *err);
/* engine_apply, and the notes of what adapted (notes may be NULL). */
int engine_apply_noted(struct engine_scenario *sc, const struct engine_assign *a, size_t n,
		       const struct engine_catalog *cat, struct engine_notes *notes, struct napkin_err *err);

/* ---------------------------------------------------------------- units */

/* Parses a number with an optional SI/binary suffix and unit for u ("7B", "4k", "80GiB",
 * "3.35 TB/s", "989.5 TFLOP/s", "40%", "2h"). Rejects NaN, infinities, overflow, trailing
 * text, and for sizes and rates (bytes, bytes/s, FLOP/s) a bare number under
 * ENGINE_BARE_MIN other than 0 ("80": did you mean 80 GB?): the one rule for flags, files
 * and the explorer. Returns 0 or NAPKIN_EINVAL with err saying what is accepted. */
#define ENGINE_BARE_MIN 1e6
int engine_unit_parse(enum engine_unit u, const char *text, double *out, struct napkin_err *err);
/* engine_unit_parse with its error in tr's language (NULL: English). */
int engine_unit_parse_tr(enum engine_unit u, const char *text, const struct engine_tr *tr, double *out,
			 struct napkin_err *err);
/* Formats v in u for a person: "80.0 GB", "74.5 GiB", "3.35 TB/s", "989.5 TFLOP/s",
 * "143.9 days". bytes_binary picks GiB over GB for sizes. */
void engine_unit_format(enum engine_unit u, double v, char *buf, size_t n);
void engine_fmt_bytes(double bytes, bool binary, char *buf, size_t n);
void engine_fmt_si(double v, const char *unit, char *buf, size_t n);   /* 989.5 TFLOP/s */
void engine_fmt_count(double v, char *buf, size_t n);                  /* 6.74 B, 4,096 */
void engine_fmt_int(double v, char *buf, size_t n);                    /* 10,000,000 */
void engine_fmt_seconds(double s, char *buf, size_t n);                /* 4.03 ms, 143.9 days */
/* engine_fmt_seconds with "days", "years" and "n/a" in tr's language (the SI units stay). */
void engine_fmt_seconds_tr(double s, const struct engine_tr *tr, char *buf, size_t n);

/* ---------------------------------------------------------------- results */

struct engine_params {
	double total;          /* every parameter */
	double non_embedding;  /* total minus token and position embeddings and an untied LM head */
	double active;         /* used per token (MoE: top-k experts) */
	double per_layer;      /* one transformer layer (all experts) */
	double embedding;      /* token (+ learned position) embeddings */
	double lm_head;        /* untied LM head (0 when tied) */
	double matmul_active;  /* weights multiplied per token, LM head included (for FLOPs) */
	double per_gpu;        /* held by the busiest GPU before ZeRO-3 (TP and PP split) */
	double adapters;       /* LoRA/QLoRA: the adapters' parameters, whole model (0 for full) */
	double trainable;      /* what the optimizer updates: total (full) or the adapters */
};

struct engine_memory {
	double weights, master, gradients, optimizer, activations, logits, kv_cache, overhead;
	double autocast_copies;         /* AMP: autocast's 16-bit copies of the matmul weights (0 otherwise) */
	double scratch;                 /* the most a moment of the step adds besides the parts above:
					 * the loss's gradients, the attention backward's, the tied
					 * embedding's sum, the optimizer's foreach buffer (peak.c) */
	double total, capacity, headroom; /* total: every part above at once (>= peak) */
	double host_bytes;              /* offload: what one GPU's process keeps in host memory */
	double dequant_buffer;          /* QLoRA: one linear dequantised to 16 bits (in weights) */
	double bits_per_base_weight;    /* QLoRA: storage of a base linear's weight, bits (NF4 + constants) */
	double peak;                    /* the most allocated at one moment of a step (<= total) */
	enum engine_peak_phase peak_phase;
	bool logits_alive;              /* the logits tensor is alive at the peak (the loop keeps it) */
	bool fits;
	double zero3_buffer;            /* ZeRO-3: one layer gathered to compute (included in weights) */
	double activations_per_layer;   /* one layer, one micro-batch, bytes */
	double inflight_microbatches;   /* micro-batches whose activations the first stage holds */
	double layers_per_stage;
	double bytes_per_param;         /* weights + autocast copies + master + grads + optimizer per parameter, unsharded */
	double autocast_bytes_per_param;/* the copies per parameter (matmul weights only, so under 2 B) */
	int weight_dt, grad_dt, master_dt, state_dt, activation_dt, kv_dt, autocast_dt;
	double state_bytes_per_param;   /* optimizer states per parameter */
	/* solves (engine_evaluate fills them). max_batch: the largest micro-batch that fits, 0
	 * when not even 1 does, ENGINE_NO_LIMIT when memory sets none (nothing in it grows with
	 * the batch, or more than the knob's 10,000,000 fit), ENGINE_NOT_SOLVED after
	 * engine_compute alone. min_gpus: -1 when nothing fits. Say them with engine_fmt_solve. */
	int64_t max_batch;
	int64_t min_gpus, min_gpus_tp, min_gpus_pp, min_gpus_dp;
	double max_params;
};

enum engine_throughput_source {
	ENGINE_TPUT_MFU,       /* an assumed mfu */
	ENGINE_TPUT_TOKENS,    /* measured tokens_per_s */
	ENGINE_TPUT_STEP,      /* measured step_time */
	ENGINE_TPUT_FLOPS,     /* measured achieved_flops */
	ENGINE_TPUT_PREDICTED, /* the step-time model (mfu auto) */
};

/* The predicted step, part by part: seconds per optimizer step on the binding GPU (the
 * heaviest pipeline stage). The parts add up to step_seconds_predicted; communication
 * counts only its exposed part (docs/step-time.md). */
struct engine_step_breakdown {
	double matmul;      /* the linear layers and the LM head, forward and backward */
	double attention;   /* the attention core (FlashAttention, or QKᵀ, softmax, AV through HBM) */
	double elementwise; /* norms, activations, residual adds, dropout, rotary, the loss */
	double recompute;   /* the forward work recomputed in the backward */
	double optimizer;   /* the update: states, master weights and gradients at bandwidth */
	double tp_comm, cp_comm, ep_comm, pp_comm, dp_comm;
	double bubble;      /* pipeline fill and drain */
	double offload;     /* ZeRO-Offload: the CPU's optimizer step and the PCIe copies not hidden by compute */
};
#define ENGINE_STEP_PARTS 12
/* Part i of the breakdown (0 .. ENGINE_STEP_PARTS-1), in the order above; its name
 * ("matmul", "tp_comm", ...) and label ("TP comm"). */
double engine_step_part(const struct engine_step_breakdown *b, int i);
const char *engine_step_part_name(int i);
const char *engine_step_part_label(int i);
/* "predicted", "assumed" or "measured". */
const char *engine_mfu_source_name(enum engine_throughput_source s);

struct engine_compute {
	double flops_per_token_forward;  /* exact, at this sequence length */
	double flops_per_token_backward;
	double flops_per_token_train;    /* model FLOPs: forward + backward */
	double flops_per_token_hw;       /* hardware FLOPs: + recomputation */
	double flops_per_token_6n;       /* the 6·N shorthand (N = active parameters) */
	double flops_per_token_used;     /* the one that drives time (exact or 6N) */
	double attention_flops_per_token;/* the 4·L·s·heads·head_dim part of the forward */
	double train_flops;              /* tokens × flops_per_token_used */
	double train_flops_6n;
	double peak;                     /* per GPU, for the matmul dtype, FLOP/s */
	int matmul_dt;
	double mfu, hfu;
	double tokens_per_s;             /* whole job */
	double achieved_flops;           /* hardware FLOP/s per GPU */
	double step_seconds;
	double tokens_per_step;
	double global_batch;             /* sequences per optimizer step */
	double steps;
	/* offload, per GPU per optimizer step: PCIe traffic both ways (pinned), its time, and
	 * the CPU optimizer's step at host memory bandwidth (figures beside step_seconds) */
	double offload_pcie_bytes, offload_pcie_seconds, offload_cpu_seconds;
	double train_seconds, train_days, gpu_hours;
	double cost;                     /* price × GPU-hours (0 without a price) */
	enum engine_throughput_source source;
	/* the step-time model (docs/step-time.md), computed whatever the source */
	struct engine_step_breakdown step;
	double step_seconds_predicted;
	double mfu_predicted, hfu_predicted;
	double gemm_efficiency;          /* matmul FLOPs ÷ (their roofline time × peak) */
	double bubble_fraction;          /* bubble ÷ predicted step */
	double dp_exposed_fraction;      /* exposed DP communication ÷ predicted step */
	double network_bw;               /* scale-out bandwidth per GPU used, bytes/s */
};

struct engine_inference {
	double context;                  /* tokens per sequence the KV cache holds: prompt + generate */
	double kv_bytes_per_token;       /* per sequence, all layers (whole model) */
	double prefill_flops, prefill_bytes, prefill_seconds;
	double decode_context;           /* the average context over the generation */
	double decode_flops, decode_bytes; /* one step of one replica (all its GPUs: per GPU ÷ tp·pp) */
	double decode_seconds_per_token; /* one step of the whole batch */
	double decode_tokens_per_s;      /* the whole job: every sequence of every replica */
	double decode_tokens_per_s_replica;  /* one replica (tp × pp GPUs): batch ÷ step */
	double decode_tokens_per_s_sequence; /* one sequence: 1 ÷ step */
	double replicas;                 /* model copies serving in parallel: gpus ÷ (tp × pp) */
	double generate_seconds;         /* prefill + generate steps */
	bool prefill_memory_bound, decode_memory_bound;
	/* serving (src/engine/serving.c) */
	int64_t max_concurrent;          /* per replica: most sequences at this context that fit (as max_batch) */
	double kv_tokens_per_sequence;   /* tokens one sequence's cache holds per layer, averaged over layers
					  * (paged blocks rounded up, sliding windows capped) */
	double kv_bytes_per_sequence;    /* one sequence's KV cache, whole model */
	double prefill_chunk;            /* tokens per prefill step (the whole prompt when not chunked) */
	double prefill_chunks;           /* steps to prefill one prompt */
	double ttft_seconds;             /* one prompt's prefill in chunks + its TP all-reduces + first token */
	double tpot_seconds;             /* one decode step at the batch + its TP all-reduces */
	double tp_comm_seconds_per_step; /* the decode step's TP all-reduces (2 per layer, Megatron) */
	double decode_tokens_per_s_gpu;  /* the job's tokens/s ÷ GPUs */
	double prefill_flops_causal;     /* one prompt's prefill with the causal mask (s²/2 attention) */
	double prefill_flops_palm;       /* one prompt's prefill, PaLM's count (full s² attention; MFU's) */
};

enum engine_point { ENGINE_PT_TRAIN, ENGINE_PT_PREFILL, ENGINE_PT_DECODE, ENGINE_PT_ELEMENTWISE, ENGINE_PT_COUNT };

struct engine_roofline_point {
	const char *name;      /* "train_step", "prefill", "decode", "elementwise" */
	const char *label;     /* "training step" */
	double flops, bytes;   /* per GPU for one instance of the operation */
	double intensity;      /* FLOP/byte */
	double attainable;     /* min(peak, intensity × bandwidth) */
	bool memory_bound;
};

struct engine_roofline {
	double peak, bandwidth, ridge;
	int dt;
	struct engine_roofline_point points[ENGINE_PT_COUNT];
};

struct engine_data_loading {
	double bytes_per_step;    /* per GPU: token ids and labels for grad_accum micro-batches */
	double bytes_per_token;
	double pinned_bw, pageable_bw;
	double pinned_seconds, pageable_seconds;
	double seconds;           /* with the `pinned` setting */
	double step_seconds;
	double fraction;          /* seconds / step_seconds */
	bool overlapped;          /* pinned memory lets the copy overlap compute */
};

enum engine_technique_id {
	ENGINE_TECH_MIXED,
	ENGINE_TECH_SELECTIVE,
	ENGINE_TECH_FULL,
	ENGINE_TECH_FLASH,
	ENGINE_TECH_KV_CACHE,
	ENGINE_TECH_ZERO1,
	ENGINE_TECH_ZERO2,
	ENGINE_TECH_ZERO3,
	ENGINE_TECH_TP,
	ENGINE_TECH_PP,
	ENGINE_TECH_LORA,
	ENGINE_TECH_QLORA,
	ENGINE_TECH_OFFLOAD,
	ENGINE_TECH_CHUNKED_PREFILL,
	ENGINE_TECH_COUNT,
};

struct engine_technique {
	const char *name;          /* "mixed_precision", "selective_recompute", ... */
	const char *label;         /* "mixed precision" */
	char compare[64];          /* what is compared: "fp32 -> mixed-bf16" */
	bool enabled;              /* on in the current scenario */
	bool applies;              /* meaningful in this mode and layout */
	double delta_memory_bytes; /* per GPU: with minus without */
	double delta_flops;        /* hardware FLOPs per token (train) or per generated token (infer) */
	double delta_bytes_moved;  /* HBM traffic per step per GPU */
	double delta_seconds;      /* training time (train) or generation time (infer), same utilisation */
	double ratio_memory, ratio_seconds; /* with / without */
};

#define ENGINE_WARN_MAX 8
struct engine_result {
	struct engine_params params;
	struct engine_memory memory;
	struct engine_compute compute;
	struct engine_inference inference;
	struct engine_roofline roofline;
	struct engine_data_loading data;
	struct engine_technique techniques[ENGINE_TECH_COUNT];
	int dp;
	int n_warnings;
	char warnings[ENGINE_WARN_MAX][320]; /* room for a translation (CJK: 3 bytes a character) */
};

/* The core results: parameters, memory, compute and time, inference, roofline, data loading.
 * Validates first. Solves and techniques are left at -1 / zero. */
int engine_compute(const struct engine_scenario *sc, struct engine_result *r, struct napkin_err *err);
/* engine_compute plus every solve and the techniques table. */
int engine_evaluate(const struct engine_scenario *sc, struct engine_result *r, struct napkin_err *err);

#define ENGINE_NO_LIMIT (-1)
#define ENGINE_NOT_SOLVED (-2)
/* The largest micro-batch that fits (0 if not even 1 fits, ENGINE_NO_LIMIT if memory sets
 * no limit). */
int64_t engine_solve_max_batch(const struct engine_scenario *sc);
/* A solve's answer in words, never a placeholder: "1,234", "none fits", "no limit from
 * memory", "not solved". */
void engine_fmt_max_batch(int64_t max_batch, char *buf, size_t n);
/* The fewest GPUs at which the scenario fits, keeping the ZeRO stage and searching tensor
 * (within a node) and pipeline degrees; the layout is returned through tp/pp/dp. Returns -1
 * if nothing up to 1,048,576 GPUs fits. */
int64_t engine_solve_min_gpus(const struct engine_scenario *sc, int64_t *tp, int64_t *pp, int64_t *dp);
/* The largest model of this shape family (depth and width scaled together, vocabulary and
 * head size kept) that fits per GPU; returns its parameter count (0 if none). */
double engine_solve_max_params(const struct engine_scenario *sc);
/* Fills r->techniques from r's scenario (r must hold engine_compute's results). */
void engine_techniques(const struct engine_scenario *sc, struct engine_result *r);

/* ---------------------------------------------------------------- result table and explain */

enum engine_result_group {
	ENGINE_RG_MODEL,
	ENGINE_RG_MEMORY,
	ENGINE_RG_COMPUTE,
	ENGINE_RG_INFERENCE,
	ENGINE_RG_ROOFLINE,
	ENGINE_RG_DATA,
};

/* One scalar result: where it lives and how to say it. */
struct engine_result_def {
	const char *key;     /* "memory.weights" (the JSON path) */
	const char *label;   /* "weights" */
	enum engine_result_group group;
	enum engine_unit unit;
	size_t offset;       /* of a double (or an int64_t when is_int) in struct engine_result */
	bool is_int;
	const char *help;    /* one line: what it is */
};

const struct engine_result_def *engine_results(size_t *count);
const struct engine_result_def *engine_result_find(const char *key);
double engine_result_value(const struct engine_result *r, const struct engine_result_def *d);

/* Writes the explanation of result `key` ("memory.activations", "compute.train_days",
 * "roofline.decode", "techniques.flash_attention", ...): what it is, the formula, the
 * formula with today's values, the result, and the source. Lines end in '\n'. Returns
 * false (and writes a one-line note) for an unknown key. */
bool engine_explain(const struct engine_scenario *sc, const struct engine_result *r, const char *key,
		    char *buf, size_t n);
/* One sentence: "decode at batch 1 is memory-bound: intensity 1 FLOP/B, ridge 295". */
void engine_roofline_verdict(const struct engine_scenario *sc, const struct engine_result *r, enum engine_point pt,
			     char *buf, size_t n);
/* The keys engine_explain knows, NULL-terminated. */
const char *const *engine_explain_keys(void);

/* Short descriptions of the scenario for headers: "Llama-2-7B on 8 × H100 SXM, train, mixed-bf16". */
void engine_scenario_summary(const struct engine_scenario *sc, char *buf, size_t n);
const char *engine_precision_name(enum engine_precision p);
const char *engine_optimizer_name(enum engine_optimizer o);
const char *engine_recompute_name(enum engine_recompute r);
const char *engine_mode_name(enum engine_mode m);
const char *engine_finetune_name(enum engine_finetune f);
const char *engine_offload_name(enum engine_offload o);

#endif
