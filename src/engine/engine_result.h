/*
 * engine: the results and the calls that compute them (part of engine.h; include engine.h).
 * struct engine_result is plain data owned by the caller; engine_compute fills it,
 * engine_evaluate adds the solves and the techniques table.
 */
#ifndef NAPKIN_ENGINE_RESULT_H
#define NAPKIN_ENGINE_RESULT_H

#include "engine_scenario.h"

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
	double mtp;            /* multi-token prediction modules (DeepSeek-V3): not in total */
};

struct engine_memory {
	double weights, master, gradients, optimizer, activations, logits, kv_cache, overhead;
	double kv_sequences;            /* inference: the sequences kv_cache holds: batch, or under an open
					 * load (rate) the mean the engine holds (serving.in_engine) */
	double autocast_copies;         /* AMP: autocast's 16-bit copies of the matmul weights (0 otherwise) */
	double scratch;                 /* the most a moment of the step adds besides the parts above:
					 * the loss's gradients, the attention backward's, the tied
					 * embedding's sum, the optimizer's foreach buffer (peak.c) */
	double total, capacity, headroom; /* total: every part above at once (>= peak) */
	double host_bytes;              /* offload: what one GPU's process keeps in host memory */
	double nvme_bytes;              /* offload nvme: what one GPU's process keeps on NVMe */
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

/* The error band validation measured for runs like this one (src/engine/step_band.c;
 * docs/step-time.md, "Error bands"): the runs of tests/unit/test_step_runs.c grouped by
 * stack, GPU family and precision. */
enum engine_band_level {
	ENGINE_BAND_NONE,      /* no validation for the scenario's GPU family or precision */
	ENGINE_BAND_GROUP,     /* its own group: stack × GPU family × precision */
	ENGINE_BAND_PRECISION, /* the GPU family and precision, any stack (its group: < 5 runs) */
	ENGINE_BAND_FAMILY,    /* the GPU family, any stack and precision */
	ENGINE_BAND_ALL,       /* every validation run */
};
/* AMD: CDNA 3 is the MI300X and MI325X, CDNA 4 the MI350X and MI355X */
enum engine_band_family { ENGINE_FAM_OTHER, ENGINE_FAM_A100, ENGINE_FAM_HOPPER, ENGINE_FAM_BLACKWELL, ENGINE_FAM_CDNA3, ENGINE_FAM_CDNA4 };
enum engine_band_precision { ENGINE_BPREC_OTHER, ENGINE_BPREC_16, ENGINE_BPREC_FP8 };
struct engine_step_band {
	double low, high;      /* seconds: step ÷ (1 + q) to step ÷ (1 − q); 0 without a band */
	double relative;       /* q, the ± half-width: the 80th percentile of |error| in the runs */
	double bias;           /* their signed median error, predicted ÷ published − 1 */
	int64_t count;         /* runs behind the band (0: none) */
	int level;             /* enum engine_band_level */
	int stack, family, precision; /* the scenario's group (engine_stack, _band_family, _band_precision) */
	char gpu[48];          /* the scenario's GPU, named where it has no validation */
};
/* One row of the band table: stack, family or precision -1 for any. */
struct engine_band_row {
	int stack, family, precision;
	int count;
	double q80;            /* 80th percentile of |error| (nearest rank) */
	double median;         /* median |error| */
	double within20;       /* share of runs within 20% */
	double bias;           /* signed median error */
};
#define ENGINE_BAND_MIN_RUNS 5

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
	/* offload nvme, per GPU per optimizer step: bytes read and written on NVMe, their time */
	double offload_nvme_bytes, offload_nvme_seconds;
	double train_seconds, train_days, gpu_hours;
	double cost;                     /* price × GPU-hours (0 without a price) */
	enum engine_throughput_source source;
	/* the step-time model (docs/step-time.md), computed whatever the source */
	struct engine_step_breakdown step;
	double step_seconds_predicted;
	double mfu_predicted, hfu_predicted;
	double gemm_efficiency;          /* matmul FLOPs ÷ (their roofline time × peak) */
	double power_w;                  /* the watts a GPU runs at: the power_limit, else its TDP (0: unknown) */
	double power_clock;              /* the compute clock that leaves, ÷ the family figures' (1: not limited; power.c) */
	double straggler;                /* the tensor-core work's slowdown to the job's slowest GPU (≥ 1) */
	double straggler_seconds;        /* what that adds to the step (in matmul, attention, recompute, bubble) */
	double bubble_fraction;          /* bubble ÷ predicted step */
	double dp_exposed_fraction;      /* exposed DP communication ÷ predicted step */
	double network_bw;               /* scale-out bandwidth per GPU used, bytes/s */
	struct engine_step_band band;    /* compute.step_band: the validated error of step_seconds */
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

/* Serving's error bands (src/engine/serve_band.c; docs/serving-validation.md, "Error bands"):
 * the modelled cases of tests/unit/test_serving_validation.c grouped by metric and engine,
 * and TTFT and ITL under an open load also by the load (enum engine_serve_load). A band's
 * level is ENGINE_BAND_GROUP (the scenario's engine's cases), ENGINE_BAND_ALL (the metric's
 * cases on every engine, where its engine has fewer than ENGINE_BAND_MIN_RUNS) or
 * ENGINE_BAND_NONE. */
enum engine_serve_metric {
	ENGINE_SM_TTFT, /* serving.ttft_seconds */
	ENGINE_SM_ITL,  /* serving.itl_seconds (the validation's ITL/TPOT) */
	ENGINE_SM_TPUT, /* serving.tokens_per_s_replica (and so per GPU, per user, the job's) */
	ENGINE_SM_CAP,  /* serving.max_concurrent (validated as the KV tokens the engine holds) */
	ENGINE_SM_COUNT,
};
/* The load a TTFT or ITL case ran at: the arrival rate ÷ the most requests/s the replica
 * completes (serving.rate ÷ serving.rate_max), below or at least ENGINE_SERVE_LOAD_SPLIT */
enum engine_serve_load {
	ENGINE_SLOAD_ANY = -1, /* every load: closed loops, throughput and capacity */
	ENGINE_SLOAD_LIGHT,    /* an open load under half the replica's most */
	ENGINE_SLOAD_HEAVY,    /* half of it or more */
};
#define ENGINE_SERVE_LOAD_SPLIT 0.5
struct engine_serve_band {
	double low, high;      /* the figure ÷ (1 + q) to ÷ (1 − q), in its unit; 0 without a band */
	double utilization;    /* an open load's rate ÷ rate_max, which picks the load's cases; 0 otherwise */
	int load;              /* enum engine_serve_load of the cases behind the band */
	double relative;       /* q: the 80th percentile of |error| in the cases */
	double median;         /* their median |error| */
	double bias;           /* their signed median error, predicted ÷ published − 1 */
	int64_t count;         /* cases behind the band (0: none) */
	int level;             /* enum engine_band_level: GROUP, ALL or NONE */
	int metric;            /* enum engine_serve_metric */
	int engine;            /* the scenario's (enum engine_serve_engine) */
	int why;               /* without a band: enum engine_serve_band_why */
};
/* why a serving figure has no band */
enum engine_serve_band_why {
	ENGINE_SBW_NONE,      /* it has one */
	ENGINE_SBW_NO_ENGINE, /* engine none: the validation's cases all ran an engine */
	ENGINE_SBW_SATURATED, /* an open load beyond what the replica completes: no steady state */
	ENGINE_SBW_NO_CASES,  /* no validated case for the metric */
	ENGINE_SBW_RATE_SET,  /* an open load's output tokens/s: the arrival rate × the tokens a request, not a prediction */
	ENGINE_SBW_PD,        /* disaggregated prefill and decode (xPyD): no validated case splits the replicas */
};
/* One row of the serving band table: engine -1 for any; load an enum engine_serve_load. */
struct engine_serve_band_row {
	int metric, engine, load;
	int count;
	double q80;            /* 80th percentile of |error| (nearest rank: the ceil(0.8 n)-th smallest) */
	double median;         /* median |error| */
	double bias;           /* signed median error */
};

/* What decided whether prefill runs in steps of its own (serve_engine.c) */
enum engine_prefill_from {
	ENGINE_PREFILL_ENGINE,    /* the engine's default (SGLang apart; vLLM V1, TensorRT-LLM, TGI mixed) */
	ENGINE_PREFILL_KNOB,      /* the mixed_prefill knob */
	ENGINE_PREFILL_MULTISTEP, /* vLLM V0 under multi-step scheduling: no chunked prefill */
};
/* Serving as an engine runs it (serve_batch.c): the steady state of continuous batching at a
 * concurrency of `batch` users per replica, each sending its next request when the last
 * one ends; one replica's figures unless said. */
struct engine_serving {
	int engine;                      /* enum engine_serve_engine in effect */
	double budget;                   /* tokens a step computes at most (max_batched_tokens) */
	double mem_fraction;             /* the engine's share of memory (gpu_memory_utilization) */
	double step_overhead;            /* seconds of CPU work a step (scheduling, sampling, launches) */
	double max_seqs;                 /* sequences a step holds at most (vLLM max_num_seqs) */
	/* capacity per GPU, as the engine admits it */
	double kv_budget_bytes;          /* memory left for the KV cache after the engine's reserve */
	double activation_peak;          /* the profiled forward of budget tokens (and the sampler) */
	double kv_tokens;                /* tokens of KV the budget holds (one replica) */
	int64_t max_concurrent;          /* sequences at this context the KV cache holds, as the engine logs it */
	double running_max;              /* the most sequences the engine runs at once: the KV cache over what a
					  * sequence holds on average (its filled blocks and those booked
					  * ahead), at most max_seqs; max_concurrent where blocks are booked whole */
	double held_tokens;              /* the KV tokens a running sequence holds on average */
	/* the steady state */
	double running;                  /* sequences in the engine (admitted): min(batch, capacity) */
	double decoding;                 /* of them decoding in an average step */
	double prefill_tokens_step;      /* prefill tokens an average step carries */
	double chunk;                    /* prefill tokens of a step that carries prefill */
	double mixed_fraction;           /* steps that carry prefill */
	bool saturated;                  /* the token budget binds: prompts wait for room */
	double decode_step_seconds;      /* a step of decode tokens only */
	double mixed_step_seconds;       /* a step with a prefill chunk (prefill_apart: a prefill step) */
	double ttft_step_seconds;        /* the step that carries a prompt's last chunk: 1 + r prompts where an
					  * average step carries r (size-biased, serve_steady.c) */
	bool prefill_apart;              /* the engine prefills in steps of their own, the decodes paused (SGLang,
					  * vLLM V0 multi-step, mixed_prefill off) */
	int prefill_from;                /* enum engine_prefill_from: what decided prefill_apart */
	double straggler;                /* the matmuls' slowdown to the slowest of the replica's GPUs (1: one GPU) */
	double matmul_seconds, weight_seconds, attention_seconds, comm_seconds; /* the mixed step's parts */
	double ep_comm_seconds;          /* the mixed step's expert-parallel dispatch and combine (0: ep 1) */
	double bubble_seconds;           /* the mixed step's idle time at kernel boundaries (serve_step.c) */
	double other_seconds;            /* the mixed step's norms, residuals and activation at bandwidth */
	double moe_seconds;              /* the mixed step's MoE permutation, combine and routing kernels (0: dense) */
	double ttft_seconds;             /* arrival to first token: waiting, queueing and the chunks */
	double queue_seconds;            /* of it, waiting for the budget or for KV room */
	double itl_seconds;              /* between tokens: the average step a decoding sequence sees (TPOT) */
	double itl_median_seconds;       /* the median gap between tokens (benchmarks' "median ITL"): the decode
					  * step alone while fewer than half the gaps hold a prefill */
	double e2e_seconds;              /* arrival to last token: TTFT + (generate − 1) × ITL */
	double requests_per_s;           /* one replica: users ÷ request time (Little's law) */
	double tokens_per_s_replica;     /* output tokens: requests/s × generate */
	double tokens_per_s_gpu;         /* ÷ the replica's GPUs */
	double tokens_per_s_user;        /* generate ÷ request time */
	double tokens_per_s_job;         /* every replica */
	double sla_concurrency;          /* most users a replica serves within ttft_slo and tpot_slo (0: no SLO or none) */
	double sla_tokens_per_s_gpu;     /* output tokens/s per GPU there */
	double cost_per_mtok;            /* price × GPU-hours per million output tokens (0 without a price) */
	/* sizing (target_rate > 0): the replicas that take target_rate requests/s, each at the most
	 * requests/s it takes within the SLA (without one: the most it completes at all) */
	double sizing_rate_replica;      /* requests/s a replica takes: within the SLA, or its most (0: no target) */
	double sizing_replicas;          /* ⌈target_rate ÷ sizing_rate_replica⌉ (0: no target, or no replica meets the SLA) */
	double sizing_gpus;              /* the replicas × tp × pp */
	bool sizing_sla;                 /* whether an SLA set sizing_rate_replica (else the replica's most) */
	/* prefix caching (serve_batch.c): a prefix shared by every request, held once a replica */
	double prefix_tokens;            /* a prompt's tokens found in the cache (not prefilled) */
	double prefill_tokens_request;   /* a prompt's tokens prefilled: prompt − cached, at least 1 */
	/* speculative decoding (serve_spec.c); with none, 1 token a step and no drafter */
	int speculative;                 /* enum engine_spec in effect */
	double spec_tokens_per_step;     /* expected tokens a sequence gains a verification step: (1 − α^(k+1)) ÷ (1 − α) */
	double spec_verify_tokens;       /* tokens a decoding sequence puts through the target a step: k + 1 */
	double spec_draft_seconds;       /* the drafter's k forwards in the decode-only step */
	double spec_weight_bytes;        /* per GPU: the drafter's weights */
	double spec_kv_bytes_per_token;  /* per GPU: the drafter's KV cache a token of context */
	double spec_speedup;             /* ITL without speculation ÷ ITL with it, at this concurrency */
	/* an open load (serve_open.c; rate 0: all 0, the closed loop above) */
	double rate;                     /* λ: requests/s arriving at a replica (Poisson) */
	bool rate_saturated;             /* λ ≥ the most the replica completes: no steady state */
	double rate_max;                 /* the most requests/s the replica completes (its admission limit full) */
	double rate_limit;               /* requests the engine admits at most: min(capacity, max_num_seqs) */
	double in_system;                /* mean requests in the replica, waiting or admitted (L) */
	double in_engine;                /* of them admitted */
	double busy;                     /* the share of the time the replica holds a request (1 − p(0)) */
	double wait_seconds;             /* mean wait before admission (W_q = L_q ÷ λ) */
	/* a front end's dispatch batching (serve_dispatch.c; 0 without: dispatch_window 0, a closed
	 * loop, xPyD or no steady state): TTFT = wait_seconds + hold + step + prefill */
	double dispatch_window;          /* W_eff: seconds a dispatch gathers, min(W, cap ÷ (λ R)) */
	double dispatch_replicas;        /* R: the data-parallel replicas it sends to in turn */
	double dispatch_burst;           /* requests a dispatch brings a replica: min(λ R W, cap) */
	double dispatch_hold_seconds;    /* a request's mean hold in the front end, W_eff ÷ 2 */
	double dispatch_step_seconds;    /* the mean wait for the engine's step under way when a burst arrives */
	double dispatch_prefill_seconds; /* the burst's prefill to a request's first token, over the requests */
	double dispatch_prefill_request_seconds; /* the bursts' prefill seconds a request: prefill apart, what
						  * replaces the engine's own in the gap between tokens */
	/* latency percentiles (serve_pct.c): p50, p90, p99. An open load (rate > 0): over the
	 * stationary distribution's arrivals, tokens and requests; a closed one: the one state
	 * every request sees, so the TTFT's spread is the step under way and a request's TPOT
	 * its mean gap; 0 where the open load has no steady state */
	double ttft_p50_seconds, ttft_p90_seconds, ttft_p99_seconds; /* arrival to first token, over requests */
	double itl_p50_seconds, itl_p90_seconds, itl_p99_seconds;    /* a gap between tokens, over tokens */
	double tpot_p50_seconds, tpot_p90_seconds, tpot_p99_seconds; /* a request's mean gap, over requests */
	int slo_percentile;              /* enum engine_slo_pct the SLA held */
	double sla_rate;                 /* a percentile SLA: the most requests/s a replica takes within it (open load) */
	/* disaggregated prefill and decode, xPyD (serve_pd.c; 0 without): the figures above are then the
	 * group's (x + y replicas: rate, requests/s, tokens/s "per replica", SLA rate and concurrency), a
	 * decode replica's where the KV is held (running, decoding, in_engine, busy, rate_limit) */
	double pd_prefill_replicas, pd_decode_replicas; /* x and y */
	double pd_prefill_util;          /* the load on a prefill replica ÷ the most it completes (≥ 1: saturated) */
	double pd_decode_util;           /* the load on a decode replica ÷ the most it completes */
	double pd_prefill_seconds;       /* of TTFT, the prefill replica's queue and prefill */
	double pd_kv_transfer_seconds;   /* a request's KV hand-off: bytes ÷ rate + latency */
	double pd_kv_transfer_bytes;     /* what one GPU sends a request: prompt × its KV bytes a token */
	double pd_kv_transfer_bw;        /* the rate it sends at, bytes/s */
	double pd_prefill_rate_max, pd_decode_rate_max; /* requests/s one replica of each pool completes at most
							 * (the prefill's: its token budget full; the decode's: its limit) */
	double pd_sizing_prefill, pd_sizing_decode;     /* target_rate: the prefill and decode replicas it needs */
	/* error bands (serve_band.c): what validation measured for each figure, by
	 * enum engine_serve_metric */
	struct engine_serve_band band[ENGINE_SM_COUNT];
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

/* Where the decode point's sequences come from: the batch knob, or under an open load with an
 * engine the mean it holds (serving.in_engine), its limit when saturated (serving.rate_limit) */
enum engine_decode_at { ENGINE_DECODE_AT_BATCH, ENGINE_DECODE_AT_OPEN_MEAN, ENGINE_DECODE_AT_OPEN_LIMIT };

struct engine_roofline {
	double peak, bandwidth, ridge;
	int dt;
	double decode_sequences; /* the sequences the decode point decodes at once (a mean under an open load) */
	int decode_at;           /* enum engine_decode_at */
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
	/* the tokenised dataset file (np.memmap, chapter 3.5): its tokens, bytes per stored id,
	 * size on disk; what one step reads of it per GPU (each sequence seq + 1 ids, nanoGPT's
	 * get_batch), the pages that read touches (what the memmap keeps in RAM for a step, at
	 * most), and the time to read the whole file into RAM instead (np.fromfile) and one
	 * step's share of it, at the NVMe read bandwidth */
	double dataset_tokens;
	double token_file_bytes;
	double dataset_bytes;
	double file_bytes_per_step;
	double resident_bytes;
	double read_all_seconds;
	double file_step_seconds;
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
	char compare[96];          /* what is compared: "fp32 -> mixed-bf16" */
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
	struct engine_serving serving;
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
 * memory", "not solved" (these three are msgids: a front end prints _(buf)). */
void engine_fmt_max_batch(int64_t max_batch, char *buf, size_t n);
/* engine_fmt_max_batch with "none fits" and the like in tr's language (NULL: English). */
void engine_fmt_max_batch_tr(int64_t max_batch, const struct engine_tr *tr, char *buf, size_t n);
/* The fewest GPUs at which the scenario fits, keeping the ZeRO stage and searching tensor
 * (within a node) and pipeline degrees; the layout is returned through tp/pp/dp. Returns -1
 * if nothing up to 1,048,576 GPUs fits. */
int64_t engine_solve_min_gpus(const struct engine_scenario *sc, int64_t *tp, int64_t *pp, int64_t *dp);
/* The largest model of this shape family (depth and width scaled together, vocabulary and
 * head size kept) that fits per GPU; returns its parameter count (0 if none). */
double engine_solve_max_params(const struct engine_scenario *sc);
/* Fills r->techniques from r's scenario (r must hold engine_compute's results). */
void engine_techniques(const struct engine_scenario *sc, struct engine_result *r);

#endif
