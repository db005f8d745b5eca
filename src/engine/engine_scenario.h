/*
 * engine: what a scenario is made of (part of engine.h; include engine.h).
 * Data types, the model and GPU descriptions, weight-only formats, the scenario and the
 * catalogue of presets the knobs resolve names against; plain data owned by the caller.
 */
#ifndef NAPKIN_ENGINE_SCENARIO_H
#define NAPKIN_ENGINE_SCENARIO_H

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
/* dt's name in prose in tr's language (BF16 in Chinese, bf16 in English); "none" below 0 */
const char *engine_dtype_prose(int dt, const struct engine_tr *tr);
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
	/* MoE as it is built (src/engine/layer.c): DeepSeek-V2/V3, Qwen2/3-MoE, Llama 4, gpt-oss */
	int64_t moe_ffn;              /* one routed expert's width (moe_intermediate_size; 0: ffn, as Mixtral) */
	int64_t shared_experts;       /* experts every token also goes through (n_shared_experts) */
	int64_t shared_ffn;           /* one shared expert's width (0: moe_ffn) */
	bool shared_gate;             /* a sigmoid gate d → 1 on the shared expert (Qwen2-MoE, Qwen3-Next) */
	int64_t dense_layers;         /* the first layers keep a dense MLP of width ffn (first_k_dense_replace) */
	int64_t moe_every;            /* after them, every n-th layer is MoE (decoder_sparse_step,
				       * interleave_moe_layer_step; 0 or 1: each) */
	bool router_bias, expert_bias;/* biases on the router and on every expert's linears (gpt-oss) */
	/* Multi-head latent attention (DeepSeek-V2 §2.1): K and V cached as one latent of
	 * kv_lora_rank plus a shared rotary key of qk_rope_dim per token; 0 kv_lora_rank: not MLA.
	 * q_lora_rank 0: the query is a plain projection (DeepSeek-V2-Lite). */
	int64_t q_lora_rank, kv_lora_rank, qk_nope_dim, qk_rope_dim, v_head_dim;
	bool qk_norm;                 /* an RMSNorm over each head's q and k (Qwen3, Gemma 3, OLMo 2) */
	bool sinks;                   /* a learned logit per head in the softmax (gpt-oss's attention sinks) */
	bool attn_gate;               /* a sigmoid gate on the attention output from q_proj (Qwen3-Next) */
	int norms_per_layer;          /* 0: 2 (before attention and MLP); Gemma 2/3 4 (also after each) */
	int64_t mtp_layers;           /* DeepSeek-V3's multi-token prediction modules: counted apart */
	/* Linear attention (Qwen3-Next's gated DeltaNet, Yang et al. 2024) in linear_layers of the
	 * layers: a fixed state of lin_v_heads × lin_k_dim × lin_v_dim per sequence, no KV cache */
	int64_t linear_layers, lin_k_heads, lin_v_heads, lin_k_dim, lin_v_dim, lin_conv;
	bool dropout;                 /* trained with dropout (its 1-byte masks are activations) */
	double params_published;      /* the published exact count, 0 when unknown */
	/* Sliding-window attention (Mistral's `sliding_window`, Gemma 2's local layers): a layer
	 * that uses it attends to, and caches, at most the last sliding_window tokens. 0: none. */
	int64_t sliding_window;
	int64_t window_layers;        /* layers that use the window (0: all of them when a window is set) */
	int checkpoint_format;        /* the checkpoint's weight format (quantization_config), an
				       * enum engine_weight_format; inference takes it unless weight_format is given */
	char source[ENGINE_SOURCE_MAX];
	/* the preset or size a changed shape started from (eng_arch_changed names the shape
	 * against it); "" and 0 until an architecture field changes */
	char base_name[ENGINE_NAME_MAX];
	double base_params;
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
	int nvlink_domain;            /* GPUs in one NVLink domain (GB200 NVL72: 72), the default gpus_per_node (0 = not given) */
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
	ENGINE_WF_NVFP4,       /* NVIDIA NVFP4: e2m1, an e4m3 scale per 16, an fp32 scale per tensor (ModelOpt) */
	ENGINE_WF_MXFP4,       /* OCP MXFP4: e2m1, an e8m0 scale per 32, every linear of the blocks */
	ENGINE_WF_MXFP4_EXPERTS, /* MXFP4 for the MLP (the experts) only, attention and router 16-bit (gpt-oss) */
	ENGINE_WF_COUNT,
};

struct engine_weight_format_info {
	const char *name;        /* "gptq-int4" */
	const char *label;       /* "GPTQ int4, group 128" (a msgid: the front ends show _(label)) */
	double linear_bits;      /* bits per weight of the blocks' linears, scales included */
	double embed_bits;       /* the token embedding's (0: kept in 16 bits) */
	double head_bits;        /* the LM head's (0: kept in 16 bits) */
	bool mixed;              /* linear_bits depends on the model's shape (Q4_K_M, mxfp4-experts): see engine_weight_format_bits */
	const char *scales;      /* where the scales live, in words (a msgid) */
	const char *source;      /* as cited: English */
};
const struct engine_weight_format_info *engine_weight_format_info(enum engine_weight_format f);
/* Bits per weight of the blocks' linears for a model of this shape (Q4_K_M mixes types by
 * layer and tensor, mxfp4-experts keeps the attention in 16 bits; the others are constant). */
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
/* none; selective: Megatron's attention core (Korthikanti et al. 2022); full: every layer
 * (or recompute_layers of them) from its input; selective-op: torchtitan's per-op policy,
 * every layer recomputed but the outputs of every second matmul and of attention kept
 * (activations.c) */
enum engine_recompute { ENGINE_RECOMP_NONE, ENGINE_RECOMP_SELECTIVE, ENGINE_RECOMP_FULL, ENGINE_RECOMP_SELECTIVE_OP };
/* recompute full with recompute_layers N: which layers of a stage recompute. block: the
 * first N (Megatron's --recompute-method block); every: every k-th, N = layers ÷ k
 * (torchtitan's selective_ac_option k); uniform: all, in chunks of N layers, one
 * checkpoint at each chunk's input (Megatron's --recompute-method uniform). */
enum engine_recompute_method { ENGINE_RCM_BLOCK, ENGINE_RCM_EVERY, ENGINE_RCM_UNIFORM };
enum engine_flops_formula { ENGINE_FLOPS_EXACT, ENGINE_FLOPS_6N };
/* What code runs the model, which decides what autograd keeps for the backward
 * (src/engine/activations.c; measured in tests/torch):
 *   eager  PyTorch modules as Hugging Face's modelling code and most training scripts
 *          write them (Python RMSNorm, softmax in fp32, repeat_kv, F.cross_entropy);
 *   fused  Megatron-LM / Transformer Engine / Apex kernels (fused norms, softmax, SwiGLU,
 *          cross-entropy): Korthikanti et al. 2022's count. */
/*   compiled  torch.compile (Inductor): the element-wise chains fused into one kernel each, so
 *             the step moves what fused kernels move; memory counted as fused (its
 *             partitioner saves what a fused kernel saves: not measured here). */
enum engine_kernels { ENGINE_KERNELS_EAGER, ENGINE_KERNELS_FUSED, ENGINE_KERNELS_COMPILED };
/* The training framework (docs/step-time.md, "Stacks"): it sets the defaults of what that
 * framework does (kernels, overlaps, sequence parallelism, what ZeRO's stages mean, its FP8
 * recipe); each of those stays a knob of its own, and one the user sets wins.
 *   hf          Hugging Face Trainer / Accelerate and plain PyTorch loops (DDP, FSDP,
 *               DeepSpeed through Accelerate): eager modules;
 *   megatron    Megatron-Core / NeMo: fused kernels (Transformer Engine), the distributed
 *               optimizer, TP and pipeline communication overlapped;
 *   torchtitan  FSDP2 with PyTorch's own TP/PP: eager modules unless compiled, float8
 *               with dynamic scaling;
 *   deepspeed   DeepSpeed's engine: ZeRO-1/2/3, overlap_comm on only for ZeRO-3. */
enum engine_stack { ENGINE_STACK_HF, ENGINE_STACK_MEGATRON, ENGINE_STACK_TORCHTITAN, ENGINE_STACK_DEEPSPEED };
const char *engine_stack_name(enum engine_stack s);
/* How the LM head and the loss run in training (src/engine/activations.c, measured in
 * tests/torch):
 *   full     the full-sequence logits materialised, as the code runs them: Hugging Face's
 *            loss or F.cross_entropy (eager), Megatron's fused cross-entropy (fused);
 *   chunked  the LM head and the loss a chunk of tokens at a time, no full-sequence
 *            logits kept: Liger Kernel's fused linear cross-entropy, Apple's Cut
 *            Cross-Entropy, Unsloth's chunked loss. */
enum engine_loss { ENGINE_LOSS_FULL, ENGINE_LOSS_CHUNKED };
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
/* none; optimizer (ZeRO-Offload: states, master and update on the CPU); params (also the
 * 16-bit weights in host memory); nvme (ZeRO-Infinity: master and states on NVMe, the update
 * on the CPU); nvme-params (also the weights on NVMe) */
/* How a tokenised dataset file stores its ids (the `token_dtype` knob): auto takes uint16
 * when every id fits in 16 bits (vocab <= 65536), as nanoGPT's prepare.py writes
 * np.uint16 for GPT-2's 50257, else uint32 */
enum engine_token_dtype {
	ENGINE_TOKEN_DT_AUTO,
	ENGINE_TOKEN_DT_UINT16,
	ENGINE_TOKEN_DT_UINT32,
};
enum engine_offload {
	ENGINE_OFFLOAD_NONE,
	ENGINE_OFFLOAD_OPTIMIZER,
	ENGINE_OFFLOAD_PARAMS,
	ENGINE_OFFLOAD_NVME,
	ENGINE_OFFLOAD_NVME_PARAMS,
};
/* The serving engine whose defaults a serving scenario takes (src/engine/serve_engine.c):
 * its schedule (token budget per step), the memory it reserves and its per-step cost; none
 * is the arithmetic bound (the whole card, no budget, no per-step cost). */
enum engine_serve_engine {
	ENGINE_SERVE_VLLM,
	ENGINE_SERVE_SGLANG,
	ENGINE_SERVE_TRTLLM,
	ENGINE_SERVE_TGI,
	ENGINE_SERVE_NONE,
	ENGINE_SERVE_COUNT,
};
/* The drafter of speculative decoding (serve_spec.c): none; a smaller draft model; EAGLE's
 * head (one decoder layer over the target's features); the model's multi-token prediction
 * module (DeepSeek-V3's MTP, one layer, reused for each drafted token). */
enum engine_spec {
	ENGINE_SPEC_NONE,
	ENGINE_SPEC_DRAFT,
	ENGINE_SPEC_EAGLE,
	ENGINE_SPEC_MTP,
};
/* "vllm", "sglang", "trtllm", "tgi", "none"; and the engine's name for a person ("vLLM"). */
const char *engine_serve_engine_name(int engine);
const char *engine_serve_engine_label(int engine);
/* What the SLA's targets hold (serve_batch.c, serve_pct.c): the mean, or a percentile over
 * an open load (MLPerf Inference's Server limits are 99th percentiles). */
/* Whether prefill chunks share the decode steps (the `mixed_prefill` knob; serve_engine.c):
 * auto takes the engine's default, on mixes them (vLLM's --enable-chunked-prefill, SGLang's
 * --enable-mixed-chunk), off runs each prompt in prefill steps of their own, the decodes paused */
enum engine_mixed_prefill { ENGINE_MIXED_AUTO, ENGINE_MIXED_ON, ENGINE_MIXED_OFF };
enum engine_slo_pct { ENGINE_SLO_MEAN, ENGINE_SLO_P50, ENGINE_SLO_P90, ENGINE_SLO_P99 };
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
	double power_limit;           /* W each GPU is capped at (nvidia-smi -pl; 0: its TDP): its compute clock (power.c) */
	double params;                /* `params`: the size asked for when the shape came from it, else 0 */
	int64_t gpus, gpus_per_node, tp, pp, zero;
	int64_t cp, ep, vpp;          /* context-, expert-parallel degrees; virtual pipeline stages per GPU */
	bool sequence_parallel;
	bool overlap;                 /* overlap the data-parallel gradient reduction with the backward */
	bool tp_overlap;              /* overlap TP communication with the GEMMs (Megatron-Core tp_comm_overlap) */
	bool pp_overlap;              /* overlap pipeline sends with compute (Megatron-Core overlap_p2p_comm) */
	enum engine_stack stack;      /* the training framework: the defaults above come from it */
	enum engine_mode mode;
	int64_t batch, grad_accum, seq;
	/* the global batch, when given (0: none): sequences, or tokens when global_batch_tokens;
	 * training then derives grad_accum = global_batch ÷ (batch × dp) (adapt.c) */
	double global_batch;
	bool global_batch_tokens;
	enum engine_precision precision;
	int weight_dtype, grad_dtype, optimizer_dtype, activation_dtype, kv_dtype, matmul_dtype;
	enum engine_optimizer optimizer;
	enum engine_recompute recompute;
	int64_t recompute_layers;     /* recompute full: the layers per stage that recompute (0: every one) */
	enum engine_recompute_method recompute_method; /* which ones, or uniform's chunk of layers */
	bool flash_attention;
	enum engine_kernels kernels;  /* eager (PyTorch / Hugging Face) or fused (Megatron / TE) */
	enum engine_loss loss;        /* full logits or a chunked LM head and loss */
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
	/* serving as an engine runs it (serve_engine.c, serve_batch.c); 0: the engine's default */
	int serve_engine;             /* enum engine_serve_engine (the `engine` knob) */
	int64_t max_batched_tokens;   /* tokens one engine step computes at most (vLLM max_num_batched_tokens) */
	int64_t max_num_seqs;         /* sequences one engine step holds at most (vLLM max_num_seqs; 0: the engine's) */
	double gpu_memory_utilization;/* the share of memory the engine takes (vLLM gpu_memory_utilization) */
	double step_overhead;         /* seconds of CPU work per engine step (scheduling, sampling, launch) */
	int64_t scheduler_steps;      /* decode steps a scheduling decision runs (vLLM --num-scheduler-steps; 1) */
	int mixed_prefill;            /* enum engine_mixed_prefill: prefill chunks in the decode steps (auto: the engine's) */
	double ttft_slo, tpot_slo;    /* serving targets, seconds (0: none): the SLA concurrency */
	int slo_percentile;           /* enum engine_slo_pct: what ttft_slo and tpot_slo hold */
	double target_rate;           /* serving: requests/s the whole service must take within the SLA (0: none): sizes replicas */
	double rate;                  /* serving: an open load, requests/s arriving at a replica (Poisson; 0: the closed `batch` users) */
	double dispatch_window;       /* serving: seconds a front end holds arrivals before sending them together (0: off) */
	int64_t dispatch_batch;       /* serving: requests a dispatch holds at most (0: no cap) */
	/* serving: disaggregated prefill and decode (serve_pd.c), xPyD: x replicas that only prefill and y that
	 * only decode, each tp × pp GPUs (0 and 0: aggregated, every replica both); with them `rate` arrives at
	 * the whole group and `batch` users are a decode replica's */
	int64_t prefill_replicas, decode_replicas;
	double kv_transfer_bw;        /* bytes/s a GPU moves its KV shard to a decode replica at (0: auto, serve_pd.c) */
	double prompt_cv;             /* serving: the prompts' lengths' coefficient of variation (0: every prompt `prompt`): the TTFT's spread */
	double prefix_hit;            /* serving: share of a prompt's tokens whose KV a shared prefix cache holds (0..1) */
	int speculative;              /* serving: enum engine_spec, the drafter of speculative decoding */
	int64_t spec_tokens;          /* k: tokens the drafter proposes a verification step */
	double spec_accept;           /* α: the chance the target accepts a drafted token */
	double spec_draft_params;     /* a draft model's parameters (a standard dense shape of that size) */
	struct engine_model spec_draft; /* the draft model by preset or file (layers 0: none, spec_draft_params') */
	bool pinned;
	/* the tokenised dataset on disk (data loading): its tokens (0: the training tokens, one
	 * epoch) and how each id is stored (enum engine_token_dtype) */
	double dataset_tokens;
	int token_dtype;
	enum engine_finetune finetune; /* full, lora or qlora */
	int64_t lora_rank;            /* r of every adapter */
	int lora_targets;             /* ENGINE_LORA_* bits */
	double lora_dropout;          /* PEFT's lora_dropout: p of the dropout before each A */
	enum engine_offload offload;  /* none, optimizer, params, nvme or nvme-params */
	double host_bandwidth;        /* host memory bandwidth, bytes/s (the CPU optimizer step) */
	double nvme_bandwidth;        /* NVMe read bandwidth one GPU's process gets, bytes/s (offload nvme) */
	double nvme_write_bandwidth;  /* NVMe write bandwidth one GPU's process gets, bytes/s */
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
/* engine_model_from_params with its error in the language of tr (NULL: English). */
int engine_model_from_params_tr(double params, const struct engine_tr *tr, struct engine_model *m,
				struct napkin_err *err);

struct engine_params;
/* The parameter counts of an architecture alone (no scenario, no validation): total,
 * non-embedding, active, per layer, embedding, LM head. per_gpu is the total. */
void engine_model_params(const struct engine_model *m, struct engine_params *out);

/* Checks a scenario as a whole (divisibility, dtype support, ranges). Returns 0 or an
 * error code; the message names the knob and what is allowed. */
int engine_validate(const struct engine_scenario *sc, struct napkin_err *err);

#endif
