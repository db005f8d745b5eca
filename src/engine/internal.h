/* engine internals shared between the engine's own files; not a public header. */
#ifndef NAPKIN_ENGINE_INTERNAL_H
#define NAPKIN_ENGINE_INTERNAL_H

#include <stdio.h>
#include <string.h>

#include "engine.h"

/* Marks a text a person reads (a label, a name) as a msgid for xgettext (docs/i18n.md). The
 * engine holds no language and never translates: the front ends print _(label). */
#define N_(s) s
/* N_ with a context (xgettext's NC_): the front end translates it with C_(c, s). */
#define NC_(c, s) s

/* A marked msgid in the language of tr (NULL: the English msgid itself). */
__attribute__((format_arg(2))) static inline const char *eng_tr(const struct engine_tr *tr, const char *msgid)
{
	return tr != NULL && tr->gettext != NULL ? tr->gettext(tr->ctx, msgid) : msgid;
}

/* An NC_(ctx, msgid) in the language of tr: gettext's "ctx\004msgid" key; msgid itself where
 * tr has none (English). */
__attribute__((format_arg(3))) static inline const char *eng_trc(const struct engine_tr *tr, const char *ctx,
								 const char *msgid)
{
	char key[160];
	const char *t;

	if (tr == NULL || tr->gettext == NULL)
		return msgid;
	snprintf(key, sizeof key, "%s\004%s", ctx, msgid);
	t = tr->gettext(tr->ctx, key);
	return t == NULL || t == key || strcmp(t, key) == 0 ? msgid : t;
}

/* ------------------------------------------------------------ the layer as a table of ops */

/* What an op is (layer.c). */
enum eng_op_kind {
	ENG_OP_LINEAR, /* Y[M,N] = X[M,K]·W[K,N] per copy */
	ENG_OP_ATTN,   /* the attention core: softmax(QKᵀ)V over the context (or a window) */
	ENG_OP_LINATTN,/* linear attention: a recurrent state per sequence (gated DeltaNet) */
	ENG_OP_NORM,   /* a norm's weight (and bias) */
	ENG_OP_PARAM,  /* other parameters used element-wise (sinks, a convolution, gates' biases) */
};
/* The part of the layer it belongs to (the breakdowns' parts). */
enum eng_op_part { ENG_PART_ATTN, ENG_PART_MLP, ENG_PART_EXPERT, ENG_PART_ROUTER, ENG_PART_NORM };
/* How tensor parallelism splits a linear (Shoeybi et al. 2019, §3): column-parallel splits
 * the output features, row-parallel the input; KV splits its heads while there are as many
 * heads as ranks (replicated below); NONE is replicated on every rank. */
enum eng_op_split { ENG_SPLIT_NONE, ENG_SPLIT_COL, ENG_SPLIT_ROW, ENG_SPLIT_KV };

struct eng_op {
	const char *name;       /* the module as Hugging Face's modelling code names it ("q_proj") */
	enum eng_op_kind kind;
	enum eng_op_part part;
	enum eng_op_split split;
	int lora;               /* the LoRA target it is (ENGINE_LORA_*), 0 for none */
	double share;           /* the layers that have it ÷ all layers */
	double K, N;            /* a linear's input and output features (the whole layer's) */
	double copies;          /* matrices of this shape in a layer (routed experts: E) */
	double rows;            /* rows per token through each copy (routed: top_k ÷ E) */
	double bias;            /* bias elements per copy */
	double params;          /* copies · (K·N + bias); NORM/PARAM: its elements */
	/* the attention core: query heads, q·k and v widths per head, keys a query sees at
	 * most (0: the whole context), elements cached per token (or of fixed state) */
	double heads, qk_dim, v_dim, window, kv_elems, state_elems;
	double kv_heads;        /* K and V heads it reads (GQA: kv_heads; MLA's decompressed: heads) */
	double dec_dim;         /* decode: FLOPs per key per head ÷ 2 (q·k + v; MLA absorbed: the latent) */
	double elems;           /* a norm: the elements it normalises per token */
};

#define ENG_LAYER_OPS 32
/* The average layer: every op of every kind of layer, each with the share of layers that
 * have it (DeepSeek-V3's first 3 dense MLPs, Gemma 3's 5 local to 1 global attention). */
struct eng_layer {
	int n;
	struct eng_op op[ENG_LAYER_OPS];
	double q_width, kv_width; /* the softmax attention's Q and K+V features (MLA: decompressed) */
	double mlp_mats;          /* matrices of one MLP: 3 gated, 2 plain */
	double attn_per_key;      /* softmax attention's forward FLOPs per token per key it attends to */
	double lin_flops;         /* linear attention's forward FLOPs per token (no keys) */
};
/* Parameter counts of the average layer (sums of its ops × their shares). */
struct eng_layer_params {
	double attn_w, attn_b_col, attn_b_row; /* column-parallel biases split with TP, row ones do not */
	double dense_w, dense_b_col, dense_b_row; /* the MLPs every token uses: dense layers' and shared experts' */
	double expert_w, expert_b_col, expert_b_row; /* all routed experts */
	double expert_active;    /* routed expert weights one token multiplies */
	double router, norms, other;
	double total, active;
	double mlp_width;        /* intermediate features per token (k routed + shared, or f) */
	double mlp_mats;         /* matrices of one MLP (3 gated, 2 plain) */
	double kv_elems;         /* KV elements cached per token (MLA: the latent; linear layers none) */
	double state_elems;      /* fixed state per sequence (linear attention) */
	double q_width, kv_width;/* the attention's Q and K+V features (MLA: decompressed) */
	double attn_per_key, lin_flops; /* as struct eng_layer's */
	double down_w;           /* the MLPs' down projections (every expert's) */
	/* the parameters by how TP splits them ([enum eng_op_split]), the routed experts' ([1])
	 * apart from the rest ([0]): matrices, and biases with the other vectors */
	double split_w[2][4], split_b[2][4];
};
/* An architecture as real numbers, so solvers can scale it continuously. */
struct eng_dims {
	double V, d, L, nh, nkv, dh, f, E, k, P;
	double W, wfrac; /* sliding window (tokens, 0: none) and the share of layers using it */
	bool gated, layernorm, qkv_bias, o_bias, mlp_bias, tied, learned, dropout;
	/* MoE as built: a routed expert's width, shared experts and theirs, the share of the
	 * layers that are MoE (the others: a dense MLP of width f) */
	double fe, ns, fs, moe_share;
	bool shared_gate, router_bias, expert_bias;
	/* MLA (DeepSeek-V2 §2.1): 0 kv_rank is not MLA */
	double q_rank, kv_rank, d_nope, d_rope, d_v;
	bool qk_norm, sinks, attn_gate;
	double norms;    /* norms per layer */
	double mtp;      /* multi-token prediction modules */
	/* linear attention in lin_share of the layers (gated DeltaNet) */
	double lin_share, lk_heads, lv_heads, lk_dim, lv_dim, l_conv;
	/* the layer table of these dims and its sums (eng_dims_refresh builds them): every
	 * calculation reads them, none builds its own */
	struct eng_layer ly;
	struct eng_layer_params lp;
};

void eng_dims_from_model(const struct engine_model *m, struct eng_dims *dm);
/* Rebuilds dm->ly and dm->lp after a field of dm changed. */
void eng_dims_refresh(struct eng_dims *dm);
/* Scales width (hidden, ffn, heads, kv heads) and depth (layers) by s. */
void eng_dims_scale(struct eng_dims *dm, double s);

void eng_layer_build(const struct eng_dims *dm, struct eng_layer *ly);
/* The attention cores' forward FLOPs per token of the average layer for a context of s
 * tokens, each query against every key or its window less `less` keys (the full-matrix
 * count), and linear attention's per-token work. */
double eng_layer_attn_flops(const struct eng_layer *ly, double s, double less);
/* The same for one decode token at a context of ctx keys (less `less`), MLA in the absorbed
 * form its decode runs (DeepSeek-V2 §2.1.2: W_UK into the query, W_UV into the output, so
 * each head attends over the kv_lora_rank latent and the shared rotary key). */
double eng_layer_decode_flops(const struct eng_layer *ly, double ctx, double less);

void eng_layer_params(const struct eng_dims *dm, struct eng_layer_params *lp);
void eng_layer_params_of(const struct eng_layer *ly, struct eng_layer_params *lp);
void eng_params(const struct eng_dims *dm, struct engine_params *p);
/* Whether op b reads op a's input and runs in one GEMM with it (q, k and v; gate and up):
 * the same input features, rows and copies, both column-parallel. */
bool eng_op_fused(const struct eng_op *a, const struct eng_op *b);
/* One op's parameters (share-weighted) on one rank of TP t holding the E/ep routed experts
 * of its EP rank; *weights (may be NULL) the matrices' part of them, biases apart. */
double eng_op_params_rank(const struct eng_op *op, double t, double ep, double nkv, double *weights);
/* The same summed over the layer, from lp's split sums (O(1): the solvers and the planner
 * call it for every layout). */
double eng_layer_params_rank(const struct eng_layer_params *lp, double t, double ep, double nkv, double *weights);

/* The bytes each kind of tensor takes under the scenario's recipe and overrides. */
struct eng_bytes {
	int weight_dt, grad_dt, master_dt, state_dt, activation_dt, kv_dt, matmul_dt;
	double w, g, master, state, act, kv;
	/* bytes per weight of the blocks' linears, the token embedding and the LM head: w for
	 * all three unless an inference weight format (quant.c) stores them otherwise */
	double w_linear, w_embed, w_head;
	double w_attn, w_mlp;   /* of those linears, the attention's and router's, and the MLPs' (experts') */
	double autocast_copy;   /* AMP: 16-bit copies of the matmul weights kept for backward */
	int autocast_dt;        /* their dtype (-1 without autocast) */
	double states;          /* optimizer states per parameter (count) */
	double state_bytes;     /* bytes of optimizer state per parameter */
};
void eng_bytes(const struct engine_scenario *sc, struct eng_bytes *b);
int eng_recipe_dtype(enum engine_precision p, int which);
double eng_matmul_peak(const struct engine_scenario *sc, const struct eng_bytes *b);

/* Memory of the binding (largest) pipeline stage for dims dm, with a data-parallel
 * degree dp (a real: the solvers pass large values to find what does not shard). */
struct eng_mem {
	double weights, master, gradients, optimizer, activations, logits, kv_cache, overhead, total;
	double scratch;           /* the largest scratch of a moment of the step (peak.c) */
	double peak;              /* the most live at once in a step */
	enum engine_peak_phase peak_phase;
	bool logits_alive;
	double params_gpu;        /* parameters held by this GPU before ZeRO-3 */
	double act_per_layer;     /* one layer, one micro-batch */
	double inflight, layers_per_stage;
	double sharded;           /* the part that divides by dp (ZeRO) */
	double gathered;          /* ZeRO-3: one layer's weights gathered to compute (in weights) */
	double autocast;          /* AMP: autocast's 16-bit copies of the matmul weights (not in weights) */
	double host_bytes;        /* offload: held in host memory for this GPU */
	double nvme_bytes;        /* offload nvme: held on NVMe for this GPU */
	double nvme_states;       /* of which master and optimizer states */
	double dequant_buffer;    /* QLoRA: one linear dequantised to bf16 (in weights) */
	double bits_per_base_weight;
	double trainable_gpu;     /* parameters this GPU trains (before ZeRO sharding) */
	double odiv;              /* the ZeRO divisor of the optimizer states */
	double kv_sequence;       /* inference: the KV one sequence holds on this GPU (in kv_cache per sequence) */
	double kv_token;          /* inference: the KV of one more token of a sequence on this GPU (its drafter's too) */
	double kv_shared;         /* inference: the shared prefix's KV, held once (in kv_cache) */
};

/* LoRA/QLoRA and offload (finetune.c). */
struct eng_ft_in {
	double P;                 /* parameters on this GPU */
	double Pmm;               /* of which matmul weights (what autocast casts) */
	double layer;             /* one layer's parameters on one TP rank */
	double wdiv, odiv, gdiv;  /* ZeRO divisors */
	double state_per_param;   /* optimizer state bytes per trained parameter */
	double head_grads;        /* bytes: the gradients made at once at the backward's start */
	double unit;              /* the larger of the embedding and the LM head on this GPU */
};
/* The adapters' parameters of one layer on one TP rank (t = 1: the whole layer's). */
double eng_lora_layer_adapters(const struct engine_scenario *sc, const struct eng_dims *dm, double t);
/* The adapters of one layer on one GPU: split over TP, the E/ep experts it holds. */
double eng_lora_gpu_layer_adapters(const struct engine_scenario *sc, const struct eng_dims *dm);
/* What one layer keeps for its adapters for sb tokens, bytes. */
double eng_lora_activations(const struct engine_scenario *sc, const struct eng_dims *dm, double e, double sb);
/* Rewrites a stage's model states for LoRA/QLoRA and offload. */
void eng_finetune_memory(const struct engine_scenario *sc, const struct eng_dims *dm, const struct eng_bytes *by,
			 const struct eng_ft_in *in, struct eng_mem *c);
/* Offload's times per step per GPU, seconds: the gradients down, the updated parameters
 * up, the per-layer parameter fetches (params), the CPU's optimizer step. */
struct eng_offload_t {
	double d2h, h2d_update, h2d_fetch, cpu;
	double bytes;
	/* nvme: the states read and written around the CPU's step, and (nvme-params) the
	 * weights read for each micro-batch's forward and backward */
	double nvme_states, nvme_fetch, nvme_bytes;
};
void eng_offload_parts(const struct engine_scenario *sc, const struct eng_bytes *by, const struct eng_mem *m,
		       struct eng_offload_t *o);
/* PCIe traffic and the CPU optimizer step of offload, per step per GPU. */
void eng_offload_times(const struct engine_scenario *sc, const struct eng_bytes *by, const struct eng_mem *m,
		       struct engine_compute *c);
void eng_memory(const struct engine_scenario *sc, const struct eng_dims *dm, double dp, double batch,
		struct eng_mem *m);

/* One layer's activations for one micro-batch on one GPU, part by part (bytes). */
struct eng_act_parts {
	double norms_inputs, masks, qkv, attn_out, mlp, scores;
	double casts;   /* autocast's 16-bit copies of the norms' outputs, one per linear */
	double stats;   /* the norms' per-row statistics (eager: 1/rms; LayerNorm also the mean) */
	double adapters;/* LoRA: each adapter's rank-r intermediate, its dropout's output and mask */
};
double eng_layer_activations(const struct engine_scenario *sc, const struct eng_dims *dm, double e, double b,
			     bool selective, struct eng_act_parts *parts);
/* What one layer keeps under full recomputation: its input (the residual stream). */
double eng_layer_checkpoint(const struct engine_scenario *sc, const struct eng_dims *dm, double e, double b);
/* torchtitan's selective-op policy: which ops' outputs a block keeps (saved[i]), and what
 * one layer keeps under it (its input, those outputs, attention's). */
void eng_sac_saved_ops(const struct eng_dims *dm, bool saved[ENG_LAYER_OPS]);
double eng_layer_selective_op(const struct engine_scenario *sc, const struct eng_dims *dm, double e, double b);
/* Layers of a stage of `lps` that recompute whole (recompute full, recompute_layers). */
double eng_recompute_layers(const struct engine_scenario *sc, double lps);
/* The last stage's head at the end of the forward: the final norm, the LM head's input,
 * the logits if the loop keeps them and what the loss keeps; and the loss's gradient
 * buffers at the start of the backward. `w`: bytes per weight (a chunked loss makes the
 * head weight's gradient in the forward, in the weights' dtype). */
struct eng_head {
	double kept, loss_grads;
	double forward_extra; /* alive besides `kept` while the loss's forward runs */
	bool logits_alive;
};
void eng_head_activations(const struct engine_scenario *sc, const struct eng_dims *dm, double e, double b, double w,
			  struct eng_head *h);

/* What the step's peak is made of besides the memory's parts (peak.c). */
struct eng_peak_in {
	double e, batch;
	double kept;             /* every layer's activations (full recomputation: their inputs) */
	double working;          /* full recomputation: the recomputed layer's working set */
	double working_mlp;      /* its MLP intermediates (given back before its attention's backward) */
	double emb;              /* the embedding's dropout mask */
	double last_mlp;         /* the last layer's MLP intermediates (given back before its attention) */
	double head_layer_grads; /* gradients made before the last layer's attention backward */
	double opt_buffer;       /* the optimizer step's scratch */
	double tied_sum;         /* tied embeddings: the embedding's gradient and its sum */
	bool head_layer;         /* this stage holds the head */
	bool recomputed;         /* the stage's last layer recomputes (its working set counts) */
	struct eng_head head;
};
void eng_step_peak(const struct engine_scenario *sc, const struct eng_dims *dm, const struct eng_peak_in *in,
		   struct eng_mem *c);

/* Training FLOPs per token. */
struct eng_flops {
	double fwd, bwd, model, hw, six_n, attn_fwd, recompute;
};
void eng_flops(const struct engine_scenario *sc, const struct eng_dims *dm, const struct engine_params *p,
	       struct eng_flops *f);

/* FLOPs and HBM bytes of one micro-batch forward (and backward) on one GPU. */
struct eng_traffic {
	double flops, bytes;
};

/* One layer's forward on one TP rank for M tokens attending to s_attn keys each (compute.c). */
void eng_layer_traffic(const struct engine_scenario *sc, const struct eng_dims *dm, const struct eng_bytes *b,
		       double M, double s_attn, struct eng_traffic *t);

void eng_inference(const struct engine_scenario *sc, const struct eng_dims *dm, const struct eng_bytes *b,
		   const struct engine_params *p, double peak, struct engine_inference *inf,
		   struct engine_roofline_point *prefill, struct engine_roofline_point *decode);

/* Serving (serving.c): the tokens one sequence's KV cache holds per layer, averaged over
 * layers (paged into kv_block blocks, capped by a sliding window), for a context ctx. */
/* The keys each query of prompt positions [a, b) attends to, as the kernel computes them:
 * the causal span with FlashAttention, every key up to b without (serving.c). */
double eng_attn_span(const struct engine_scenario *sc, const struct eng_dims *dm, double a, double b);
double eng_kv_tokens(const struct engine_scenario *sc, const struct eng_dims *dm, double ctx);
/* The tokens a serving step computes at once: a prefill chunk (the whole prompt when not
 * chunked) and one decode token for each other sequence of the batch. */
double eng_step_tokens(const struct engine_scenario *sc, double batch);
/* A shared prefix's tokens of a sequence's cache (serving.c), held once a replica. */
double eng_prefix_shared(const struct engine_scenario *sc, double kv_tokens);
/* TTFT, TPOT, tokens/s and the prefill FLOPs counts; memory (per GPU) for capacity. */
void eng_serving(const struct engine_scenario *sc, const struct eng_dims *dm, const struct eng_bytes *b,
		 double peak, struct engine_inference *inf);
/* Weight bytes of a stage on one GPU: linears, embedding, head and the rest (norms, biases). */
double eng_weight_bytes(const struct eng_bytes *b, double linear, double embed, double head, double rest);
/* ------------------------------------------------------------ the step-time model */

/* What one GPU family reaches of its datasheet figures, each with its source (gemm.c). */
struct eng_family {
	const char *prefix;      /* matched against the GPU id ("h100" matches "h100-sxm") */
	double gemm_best;        /* fraction of peak of the best-shaped large GEMM (MSMF where measured, else MAMF) */
	double best_m, best_n, best_k; /* that GEMM's shape */
	double flash;            /* FlashAttention's fraction of peak, forward and backward together */
	double link;             /* NCCL bus bandwidth ÷ the GPU-GPU link, large messages */
	double hbm;              /* streaming kernels' fraction of memory bandwidth */
	double fp8_best;         /* the best FP8 (e4m3) GEMM's fraction of the FP8 peak (as gemm_best); 0: not measured */
	double fp8_m, fp8_n, fp8_k; /* that GEMM's shape */
	double sustained;        /* the rate a power-saturated GPU holds ÷ its short-burst rate (gemm.c) */
	bool msmf;               /* gemm_best is a sustained (MSMF) figure: sustained is not applied to it */
	bool fp8_msmf;           /* fp8_best is a sustained figure (MSMF, or measured after a long warm-up) */
	double ar_latency;       /* seconds an NCCL/RCCL all-reduce call adds within a node, measured; 0: ENG_AR_LATENCY */
	const char *source;
};
const struct eng_family *eng_family(const struct engine_gpu *g);
/* The compute clock a power limit leaves, relative to the family's figures (1: not limited):
 * the scenario's power_limit against the card's TDP, and a card on a sibling's figures at fewer
 * watts per SM (power.c). Scales compute rates, not HBM bandwidth. */
double eng_power_clock(const struct engine_scenario *sc, const struct eng_family *fam);
struct eng_power {
	double watts, tdp;      /* what a GPU runs at (power_limit, at most the TDP) and its TDP; 0: no TDP */
	double clock;           /* the compute clock left, ÷ the family figures' (1: not limited) */
	double sibling;         /* > 0: the card runs a sibling's figures at fewer watts per SM, this share of its own */
	double w_sm, ref_w_sm;  /* then its watts per SM and the sibling's */
	double exponent;        /* clock ∝ power^exponent */
};
void eng_power_of(const struct engine_scenario *sc, const struct eng_family *fam, struct eng_power *out);

/* Seconds for a GEMM [M,K]×[K,N] (FLOPs 2MNK) on the roofline at its size-dependent
 * efficiency; *eff (may be NULL) receives the efficiency of the compute roof. */
double eng_gemm_seconds(const struct engine_gpu *g, const struct eng_family *fam, double peak, double M, double N,
			double K, double elem, double *eff);
/* The efficiency alone (a fraction of peak) for a GEMM of that shape. */
double eng_gemm_efficiency(const struct engine_gpu *g, const struct eng_family *fam, double M, double N, double K);
/* The same with the main loop's K step kq times the 16-bit one's (FP8 operands: 2). */
double eng_gemm_efficiency_q(const struct engine_gpu *g, const struct eng_family *fam, double M, double N, double K,
			     double kq);
/* The curve's anchor for that card and K step (0 on a measured profile), and the efficiency
 * with it given: a caller that times many GEMMs on one card computes the anchor once. */
double eng_gemm_anchor(const struct engine_gpu *g, const struct eng_family *fam, double kq);
double eng_gemm_efficiency_a(const struct engine_gpu *g, const struct eng_family *fam, double M, double N, double K,
			     double kq, double anchor);
/* A communication of `comm` seconds overlapped with `compute` seconds of work: what does
 * not fit behind it plus the tax on what it hides (gemm.c, ENG_OVERLAP_TAX). */
double eng_overlapped(double comm, double compute);

/* (plan.c) The scenario every planner candidate starts from: sc with its throughput predicted
 * (an assumed mfu or a measurement describes the user's own layout, not another). */
void eng_plan_neutral(const struct engine_scenario *sc, struct engine_scenario *t);
double eng_gemm_seconds_q(const struct engine_gpu *g, const struct eng_family *fam, double peak, double M, double N,
			  double K, double elem, double kq, double *eff);
/* The same with the curve's anchor given (eng_gemm_anchor at kq): the step model's many
 * GEMMs on one card compute it once. */
double eng_gemm_seconds_a(const struct engine_gpu *g, const struct eng_family *fam, double peak, double M, double N,
			  double K, double elem, double kq, double anchor, double *eff);

enum eng_coll { COLL_ALL_REDUCE, COLL_REDUCE_SCATTER, COLL_ALL_GATHER, COLL_ALL_TO_ALL, COLL_P2P };
/* A group of n ranks, `per_node` of them in each node, over the scenario's links. */
struct eng_group {
	double n, per_node;
	double link_bw, network_bw;  /* raw per-direction figures, bytes/s */
	double link_eff, net_eff;
};
/* The network a GPU reaches other nodes over (bytes/s a direction): its NIC, else PCIe. */
double eng_network_bw(const struct engine_scenario *sc);
/* A collective group of n ranks, per_node of them in a node (at most n): NVLink (or PCIe)
 * inside it, the network net between nodes. */
void eng_group_init(struct eng_group *g, double n, double per_node, const struct engine_scenario *sc, double net,
		    const struct eng_family *fam);
/* Seconds for one collective moving S bytes (the full buffer, nccl-tests' size). */
double eng_coll_seconds(const struct eng_group *g, enum eng_coll kind, double S);
/* The bus bandwidth the group reaches (bytes/s). */
double eng_group_busbw(const struct eng_group *g);

#define ENG_SUSTAINED (1305.0 / 1410.0) /* A100: sustained ÷ boost clock under the power limit (gemm.c) */
#define ENG_FALLBACK_BW 16e9        /* a profile without links: PCIe Gen3 x16 per direction */
#define ENG_KERNEL_GAP 3e-6       /* seconds between back-to-back kernels on a stream (launch and tail) */
#define ENG_NET_EFF 0.90           /* scale-out NCCL bus bandwidth ÷ NIC line rate (gemm.c) */
#define ENG_COLL_LATENCY 20e-6     /* seconds per collective call (nccl-tests small-message time) */
#define ENG_AR_LATENCY 32e-6       /* seconds an inference TP all-reduce adds to a step (serving.c) */
#define ENG_PCIE_EFF 0.80          /* a ring's bus bandwidth over PCIe ÷ the link's rate a direction (serving.c) */
#define ENG_STEP_LATENCY_NET 12e-6  /* seconds per ring step that crosses nodes (gemm.c) */
#define ENG_DDP_BUCKET_BYTES (25.0 * 1024.0 * 1024.0) /* PyTorch DDP bucket_cap_mb default (step_comm.c) */

/* straggler.c: the slowest of N GPUs of one SKU (docs/step-time.md, "Stragglers"). */
#define ENG_STRAGGLER_RANGE8 0.05 /* MAMF's spread over an 8-GPU node (ml-engineering: "5% and higher") */
/* The expected largest of n standard normal draws (0 for n ≤ 1): by integration, and from
 * the integral's table at half octaves (what the step uses). */
double eng_normal_max_mean(double n);
double eng_normal_max_mean_table(double n);
/* σ, the relative spread of one GPU's matmul speed: ENG_STRAGGLER_RANGE8 ÷ (2·e(8)). */
double eng_straggler_sigma(void);
/* 1 ÷ (1 − σ·e(gpus)): how much longer the slowest of `gpus` GPUs takes over the compute. */
double eng_straggler_factor(double gpus);

/* The predicted step of one GPU (step.c). */
struct eng_step {
	struct engine_step_breakdown part;
	double seconds;
	double flops, bytes;           /* per GPU per optimizer step, everything timed */
	double gemm_eff;               /* matmul FLOPs ÷ (their roofline time × peak) */
	double network_bw;
	bool tp_spans_nodes;
	double thinnest_eff;           /* the lowest efficiency of a GEMM that matters */
	double straggler;              /* the compute's slowdown to the slowest GPU (straggler.c), ≥ 1 */
	double straggler_seconds;      /* what it adds to the step (matmul, attention, recompute, bubble) */
	struct eng_power power;        /* the watts it ran at and the compute clock they left (power.c) */
};
void eng_step(const struct engine_scenario *sc, const struct eng_dims *dm, const struct eng_bytes *b,
	      const struct eng_mem *mem, double dp, double peak, struct eng_step *out);

/* step_comm.c: how Transformer Engine's userbuffers run one TP linear's GEMMs under
 * tp_overlap: the forward and the data gradient each as `chunks` GEMMs of M/chunks rows, the
 * forward on the SMs the pipelined reduce-scatter leaves it (fslow ≥ 1). */
struct eng_tpov {
	double fchunks, dchunks, fslow;
};
void eng_tp_overlap_shape(const struct engine_scenario *sc, const struct eng_op *op, struct eng_tpov *ov);
/* DeepSpeed's pipeline engine in bf16: its BF16_Optimizer's fp32 gradients (step_comm.c) */
bool eng_ds_bf16_pipe(const struct engine_scenario *sc);
/* DeepSpeed's pipeline engine: what its blocking, unbatched p2p and its partitioned tensors
 * add to one micro-batch of a middle stage (or the last) beyond pp_comm's two sends; S the
 * micro-batch's whole activation (step_comm.c) */
double eng_ds_pipe_p2p(const struct engine_scenario *sc, const struct eng_group *pp, const struct eng_group *tp,
		       double S, bool middle);
#define ENG_DS_BF16_ACC_BYTES 18.0 /* per parameter per micro-batch: bf16 read, fp32 cast, fp32 add */
#define ENG_FP32_ACC_BYTES 10.0 /* per parameter per micro-batch: bf16 read, fp32 read and written (one add_) */
/* bytes a trained parameter costs after each micro-batch's backward where its 16-bit gradient
 * is added into an fp32 buffer by a kernel of its own (step_comm.c); 0 where none is */
double eng_grad_acc_bytes(const struct engine_scenario *sc, const struct eng_bytes *b);
/* stack hf running nanotron's trainer (grad_dtype fp32 on 16-bit weights; step_comm.c) */
bool eng_nanotron(const struct engine_scenario *sc, const struct eng_bytes *b);
/* The data-parallel communication of one step on the binding stage (step_comm.c). */
double eng_dp_seconds(const struct engine_scenario *sc, const struct eng_dims *dm, const struct eng_bytes *b,
		      const struct eng_mem *mem, const struct eng_group *dpg, double heavy, double T_mb, double bwd_mb);

/* Layers on the heaviest pipeline stage: pp need not divide layers. */
static inline double eng_layers_per_stage(double L, int64_t pp)
{
	double q;

	if (pp <= 1)
		return L;
	q = L / (double)pp;
	return (double)(int64_t)q == q ? q : (double)(int64_t)q + 1.0;
}

/* engine_validate in two parts: everything the knobs alone say, and (after computing) a
 * measurement that implies more than the GPUs' peak. */
int eng_validate_inputs(const struct engine_scenario *sc, struct napkin_err *err);
/* ... and warns (in r) where a measurement implies an MFU under 5%: a per-GPU figure given
 * as the job's, most likely. */
int eng_check_measurement(const struct engine_scenario *sc, struct engine_result *r, struct napkin_err *err);

/* The core computation without validation (the caller validated). */
/* serving.band[] for the computed serving figures (serve_band.c) */
void eng_serve_band(const struct engine_scenario *sc, struct engine_serving *sv);
/* compute.step_band for the computed step (step_band.c) */
void eng_step_band(const struct engine_scenario *sc, struct engine_compute *c);
void eng_compute_core(const struct engine_scenario *sc, struct engine_result *r);

void eng_warn(struct engine_result *r, const struct engine_tr *tr, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* util_err_set with fmt (a msgid marked N_() at the call site) in tr's language. */
int eng_err(struct napkin_err *err, const struct engine_tr *tr, enum napkin_errcode code, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
#ifdef __clang_analyzer__
/* as util_err_set's stand-in (util.h): the call returns its non-zero code */
#define eng_err(err, tr, code, ...)                                                         \
	((void)eng_err((err), (tr), (code), __VA_ARGS__),                                    \
	 (int)(code) != (int)NAPKIN_OK ? (int)(code) : (int)NAPKIN_EINVAL)
#endif

static inline double eng_max(double a, double b) { return a > b ? a : b; }
static inline double eng_min(double a, double b) { return a < b ? a : b; }

/* Knob internals shared by knobs.c and knob_step.c. */
/* The stack's defaults (adapt.c, docs/step-time.md "Stacks"), for a layout: which of the
 * knobs they set were given (found once), and the defaults applied to sc's layout, each
 * knob unless given; said (may be NULL) lists those that differ from the knob table's. */
struct eng_stack_given {
	bool kernels, sequence_parallel, overlap, tp_overlap, pp_overlap, recompute_method;
	enum engine_kernels kernels_def;
	bool sp_def, overlap_def, tp_overlap_def, pp_overlap_def;
};
void eng_stack_given_of(const struct engine_scenario *sc, struct eng_stack_given *g);
void eng_stack_defaults(struct engine_scenario *sc, const struct eng_stack_given *g, char *said, size_t n);
/* The given global batch in sequences (tokens ÷ seq: maybe not whole, which validate.c
 * refuses); 0 when none was given (knob_lookup.c). */
double eng_global_batch_sequences(const struct engine_scenario *sc);
enum eng_special { SP_NONE, SP_MODEL, SP_PARAMS, SP_GPU, SP_BIAS, SP_GLOBAL_BATCH, SP_DRAFT };
enum eng_special eng_knob_special(const struct engine_knob *k);
const char *eng_choice_name(const struct engine_choice *c, int v);
void eng_choice_text(const struct engine_knob *k, int v, char *buf, size_t n);
/* The `bias` knob's value for a model (knobs.c), and a knob's bound or value in the words
 * of its range ("1 B", "40%": knob_text.c). */
int eng_bias_value(const struct engine_model *m);
void eng_knob_range_text(const struct engine_knob *k, double v, const struct engine_tr *tr, char *buf, size_t n);
/* Called after an architecture field was set: clears params and the published count and
 * marks the name modified when the shape really changed. */
void eng_arch_changed(struct engine_scenario *sc, const struct engine_model *before);
static inline int64_t *eng_f_int(struct engine_scenario *sc, const struct engine_knob *k)
{
	return (int64_t *)(void *)((char *)sc + k->offset);
}
static inline double *eng_f_real(struct engine_scenario *sc, const struct engine_knob *k)
{
	return (double *)(void *)((char *)sc + k->offset);
}
static inline bool *eng_f_bool(struct engine_scenario *sc, const struct engine_knob *k)
{
	return (bool *)(void *)((char *)sc + k->offset);
}
static inline int *eng_f_enum(struct engine_scenario *sc, const struct engine_knob *k)
{
	return (int *)(void *)((char *)sc + k->offset);
}

/* The `bias` knob's values: which linears carry biases. */
enum eng_bias { BIAS_NONE, BIAS_QKV, BIAS_ATTN, BIAS_ALL };

/* Constants with their sources. */
#define ENG_TOKEN_BYTES 16.0       /* int64 input ids + int64 labels per token (PyTorch LongTensor) */
#define ENG_PAGE_BYTES 4096.0      /* the page an mmap'd file is read in (x86-64 Linux base page) */
#define ENG_PAGEABLE_FACTOR 0.5    /* pageable H2D ≈ half the pinned rate: staged through a pinned
				      bounce buffer (NVIDIA, "How to Optimize Data Transfers in CUDA
				      C/C++", M. Harris, 2012); napkin probe measures the real figure */
/* QLoRA's NF4 with double quantisation (Dettmers et al. 2023, §3): 4 bits per weight, an
 * 8-bit absmax per block of 64 (8/64), and one fp32 constant per 256 of those (32/(64·256)):
 * 4 + 0.125 + 0.001953 = 4.127 bits per weight */
#define ENG_NF4_BITS (4.0 + 8.0 / 64.0 + 32.0 / (64.0 * 256.0))
#define ENG_ADAM8_BLOCK 2048.0     /* bitsandbytes blockwise 8-bit states: one fp32 absmax per 2048 */

#endif
