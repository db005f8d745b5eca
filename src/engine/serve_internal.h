/*
 * Serving as the engines run it (serve_engine.c, serve_step.c, serve_spec.c, serve_draft.c,
 * serve_open.c, serve_pct.c, serve_steady.c, serve_batch.c, serve_pd.c, serve_dispatch.c): the engines' defaults,
 * one engine step, speculative decoding, the open load, its percentiles, the steady state and a front end's
 * dispatch batching. Internal to the engine library, below internal.h.
 */
#ifndef NAPKIN_ENGINE_SERVE_INTERNAL_H
#define NAPKIN_ENGINE_SERVE_INTERNAL_H

#include "internal.h"

/* One serving engine's defaults (serve_engine.c, each with its source). */
struct eng_serve_engine_def {
	const char *name, *label;
	int budget_large, budget_small;  /* max_batched_tokens: cards of 70 GiB or more (not A100), others */
	int seqs_large, seqs_small;      /* the most sequences a step holds */
	double mem_fraction;             /* its share of memory */
	bool of_free;                    /* the share is of the memory left after weights and activations */
	double step_overhead;            /* seconds of fixed cost a step */
	bool profiles;                   /* the KV budget leaves room for a profiled forward of `budget` tokens */
	double reserve;                  /* the share of a running sequence's remaining output whose KV blocks it
					  * holds booked ahead (1: the whole context from admission; 0: as they fill) */
	bool apart;                      /* prefill runs in steps of its own, the decodes paused (SGLang without
					  * --enable-mixed-chunk), not in the decode steps' budget */
};
const struct eng_serve_engine_def *eng_serve_engine_def(int engine);
/* The settings in effect: the engine's defaults, the knobs the user set over them. */
struct eng_serve_set {
	int engine;
	const struct eng_serve_engine_def *def;
	double budget, max_seqs, mem_fraction, step_overhead;
	bool of_free, profiles;
	bool apart;     /* prefill steps apart from decode steps (the engine's def, vLLM V0 multi-step, the knob) */
	int apart_from; /* enum engine_prefill_from: what decided `apart` */
};
void eng_serve_settings(const struct engine_scenario *sc, struct eng_serve_set *set);

/* One engine step on one TP rank (serve_step.c): `pre` prefill tokens whose queries see
 * `pre_keys` keys on average, `dec` decode tokens at an average context of `dec_ctx`. */
struct eng_serve_step {
	double seconds;
	double matmul, weights, attention, comm, other, overhead; /* the parts (seconds) */
	double ep_comm;        /* expert parallelism's dispatch and combine (0 without) */
	double moe;            /* MoE layers' permutation, combine and routing kernels (0 dense) */
	double bubbles;        /* the kernel boundaries' idle time (serve_step.c, LAYER_BUBBLE) */
};
struct eng_dec_attn_fig; /* serve_step.c: a card's measured decode attention kernels */
struct eng_serve_ctx {
	const struct engine_scenario *sc;
	const struct eng_dims *dm;
	const struct eng_bytes *b;
	const struct eng_family *fam;
	double peak_mm;        /* the matmuls' peak: FP8 tensor cores for W8A8, 16-bit otherwise */
	double peak_attn;      /* attention's (16-bit) */
	double kq;             /* the linears' main-loop K step (gemm.c): 2 when they run on FP8 operands */
	double gemm_anchor;    /* eng_gemm_anchor at kq, once for the context */
	double straggler;      /* the matmuls' slowdown to the slowest of the replica's GPUs (straggler.c), ≥ 1 */
	const struct eng_dec_attn_fig *dec_attn; /* the card's decode attention figures, NULL: none measured */
	double hbm;            /* bandwidth the weight and KV reads reach, bytes/s */
	double w_bytes;        /* bytes a step reads per weight of the blocks' linears */
	double deq_bytes;      /* extra bytes per weight a step that dequantises moves (NF4: to 16 bits and back) */
	double act_q;          /* bytes a linear's input element is quantised to first (W8A8 1, W4A4 ½ + its scale's share; 0: none) */
	double kv_rank;        /* KV bytes a token per GPU */
	double ep;             /* expert-parallel replicas sharing the routed experts (1: none) */
	double step_overhead;
	double dec_q;          /* tokens a decoding sequence puts through a step: 1, or k + 1 verifying a draft */
	double bubble;         /* seconds a layer idles at kernel boundaries (0 without an engine) */
	/* the layer's GEMMs, ops that read one input as one (q, k, v; gate, up): the first op,
	 * K and N on a TP rank, the bytes a weight; from the layer once for the context */
	struct eng_serve_lin {
		int op;
		double K, N, wb;
		/* a dense GEMM's parts that do not change with its rows (serve_step.c matmul_lin):
		 * its weights' bytes K·N·wb, K + N, and its time below FEW_ROWS rows on the FLOPs */
		double kn_wb, k_plus_n, few_tc;
	} lin[ENG_LAYER_OPS];
	int nlin;
	/* the layer's attention ops, from the layer once for the context (the step reads them
	 * for every token count): the op, its heads on a TP rank, a key's FLOPs a prefill token
	 * (2 × heads × (qk + v)), and the engine's decode kernel's rates (eng_dec_attn_rates) */
	struct eng_serve_attn {
		int op;
		double heads, per_key, dec_bw, dec_flops;
	} attn[ENG_LAYER_OPS];
	int nattn;
	double flash;          /* the prefill's attention rate: peak_attn × the family's FlashAttention share */
	double kv_layer;       /* KV bytes a token a layer on this GPU: kv_rank ÷ max(1, L) */
	double stream;         /* the bytes a second a matmul's weight stream reaches (STREAM_BW of the datasheet's) */
	double few_eff;        /* a decode GEMM's efficiency (under FEW_ROWS rows a group): the family's best */
};
/* One TP all-reduce of `bytes` at inference sizes (serve_step.c): vLLM's custom all-reduce
 * dispatch within a node (one-shot or two-shot), NCCL's ring above its buffer or across nodes. */
double eng_infer_allreduce_seconds(const struct engine_scenario *sc, double bytes);
/* The same with the card's family looked up already (eng_family). */
double eng_infer_allreduce_fam(const struct engine_scenario *sc, const struct eng_family *fam, double bytes);
void eng_serve_ctx_init(const struct engine_scenario *sc, const struct eng_dims *dm, const struct eng_bytes *b,
			double kv_rank, double step_overhead, struct eng_serve_ctx *c);
/* The bandwidth (bytes/s) and FLOP rate the engine's decode attention kernel reaches on the
 * attention op `op` (serve_step.c, DEC_ATTN): the streaming fraction and FlashAttention's rate
 * where no measurement covers the kernel. */
void eng_dec_attn_rates(const struct eng_serve_ctx *c, const struct eng_op *op, double *bw, double *flops);
void eng_serve_step_time(const struct eng_serve_ctx *c, double pre, double pre_keys, double dec, double dec_ctx,
			 struct eng_serve_step *out);
/* Speculative decoding (serve_spec.c): the drafter, its step and what it holds. The
 * struct points into itself (dctx.dm is &ddm): initialise it where it stays. */
struct eng_spec {
	bool on;
	int method;            /* enum engine_spec */
	double k, alpha;
	double tokens;         /* E = (1 − α^(k+1)) ÷ (1 − α): tokens a sequence gains a step (1 without) */
	double verify;         /* k + 1: tokens a sequence puts through the target a step (1 without) */
	double weight_bytes;   /* per GPU: the drafter's weights */
	double fc_bytes;       /* EAGLE's / MTP's 2d → d projection (bytes, every rank) */
	double kv_per_token;   /* per GPU: the drafter's KV bytes a token of context */
	struct eng_dims ddm;
	struct eng_serve_ctx dctx;
};
double eng_spec_tokens_per_step(double alpha, double k);
/* The drafter's shape, weights and KV (serve_draft.c); eng_spec_ctx readies its step
 * (serve_spec.c) before eng_spec_draft_seconds times it. */
void eng_spec_init(const struct engine_scenario *sc, const struct eng_dims *dm, const struct eng_bytes *b,
		   struct eng_spec *sp);
void eng_spec_ctx(const struct engine_scenario *sc, const struct eng_bytes *b, struct eng_spec *sp);
/* The drafter's k forwards for `dec` decoding sequences at context ctx (seconds). */
double eng_spec_draft_seconds(const struct eng_spec *sp, double dec, double ctx);
/* An open load (serve_open.c): requests arrive at λ a second (Poisson); the requests in the
 * replica are a birth–death process whose completion rate with n in the engine is X(n). */
struct eng_bd_state {
	double x;        /* requests completed a second with n in the engine */
	double ttft;     /* a request's TTFT when it joins a state of n (its prompt's chunks, the budget's queue) */
	double itl;      /* the time between tokens with n in the engine */
	double decoding; /* sequences decoding an average step */
	double queue;    /* of ttft, waiting for the budget inside the engine */
	/* the spread around those means (serve_open.c, the percentiles) */
	double phase;    /* of ttft, the wait for the step under way: its mean, half the uniform's width */
	double prefill;  /* of ttft, the prompt's own chunks: the part that scales with its length */
	double gap_lo, gap_hi, gap_hi_share; /* a gap between tokens: gap_hi a share of them, gap_lo the rest */
	double dec_step; /* a decode-only step with n in the engine (the drafter's forwards with it): serve_dispatch.c */
};
/* A mixture of uniform laws, each [c − h, c + h] (h 0: a point) with weight exp(lw), and one
 * more, an exponential wait of rate tail_mu before a uniform, with weight exp(tail_lw)
 * (−INFINITY: none). At most ENG_MIX_MAX parts: past it, neighbours merge two by two (the
 * weights summed, the centre their weighted mean, the width covering both), so the mean is
 * kept exactly and the spread within the merged parts widens. Normalised by eng_mix_finish:
 * lw then holds the weights themselves. */
#define ENG_MIX_MAX 512
/* The prompts' lengths (serve_pct.c): a gamma law of mean 1 and the knob prompt_cv as n
 * points r (a prompt's length over the mean prompt), each its bin's mean, weights w: n 1,
 * r 1 without a spread. */
#define ENG_PLEN_MAX 10
struct eng_plen {
	int n;
	double r[ENG_PLEN_MAX], w[ENG_PLEN_MAX];
};
void eng_plen_init(struct eng_plen *l, double cv);
/* A part's s, of its centre, scales with the prompt: with a spread (plen) the part is a
 * mixture over the points, centred at c + s (r − 1), the same width h. */
struct eng_mix {
	int n, per, fill; /* parts, states a part holds, states in the last part */
	bool done;        /* normalised */
	const struct eng_plen *plen; /* the prompts' spread (NULL: none) */
	double lw[ENG_MIX_MAX], c[ENG_MIX_MAX], s[ENG_MIX_MAX], h[ENG_MIX_MAX];
	double tail_lw, tail_mu, tail_c, tail_s, tail_h;
};
void eng_mix_init(struct eng_mix *m);
void eng_mix_add(struct eng_mix *m, double lw, double c, double h);
void eng_mix_add_spread(struct eng_mix *m, double lw, double c, double s, double h);
/* the weights over their sum (lw then the weights); the sum's log */
double eng_mix_finish(struct eng_mix *m);
double eng_mix_cdf(const struct eng_mix *m, double t);
double eng_mix_mean(const struct eng_mix *m);
/* the q quantile of the union of nm ≤ 2 normalised mixtures, each weighted by its share;
 * eng_mix_quantiles: nq of them at once, q ascending */
double eng_mix_quantile(const struct eng_mix *const *m, const double *share, int nm, double q);
void eng_mix_quantiles(const struct eng_mix *const *m, const double *share, int nm, const double *q, int nq,
		       double *out);
/* the latency percentiles of a load: p50, p90, p99 */
struct eng_pct {
	double ttft[3], itl[3], tpot[3];
};
extern const double eng_pct_q[3];
/* a closed load's state (every request sees it): the TTFT's uniform phase, each prompt's
 * chunks scaled by its length (plen NULL: every prompt the mean), the gap's two step kinds; a
 * request's TPOT the state's mean gap */
void eng_pct_state(const struct eng_bd_state *s, const struct eng_plen *plen, struct eng_pct *out);
typedef void (*eng_bd_fn)(void *ctx, double n, struct eng_bd_state *st);
struct eng_bd_result {
	bool stable;            /* λ < X(limit): a stationary distribution exists */
	double limit;           /* requests the engine holds at most (more wait outside) */
	double max_rate;        /* X(limit): the most requests a second the replica completes */
	double in_system;       /* L: mean requests in the replica, waiting or admitted */
	double in_engine;       /* mean requests admitted */
	double busy;            /* 1 − p(0): the share of the time the replica holds a request */
	double waiting;         /* L_q: mean requests waiting for admission */
	double wait;            /* W_q = L_q ÷ λ: mean wait before admission */
	double request_seconds; /* W = L ÷ λ (Little) */
	double ttft;            /* W_q + the TTFT of the state an arrival joins, over p(n) */
	double queue;           /* W_q + the budget's queue of that state */
	double itl;             /* the time between tokens averaged over the decode tokens */
	int64_t states;         /* states summed */
	struct eng_pct pct;     /* the percentiles over the stationary distribution (stable only) */
};
/* The laws the percentiles come from (caller storage, for tests): a TTFT over the arrivals,
 * a gap between tokens over the tokens (lo and hi, with their shares), a TPOT over requests. */
struct eng_bd_laws {
	struct eng_mix ttft, gap_lo, gap_hi, tpot;
	double gap_share[2];
};
/* grid_ratio: X(n) evaluated at n = 1..16, then on a geometric grid of this ratio,
 * interpolated between (1: every n, exact); plen: the prompts' lengths the TTFT's law mixes
 * over (NULL: every prompt the mean); laws: where the percentiles' laws are kept (caller
 * storage, for tests; NULL: on the stack). */
void eng_open_solve(double lambda, double limit, double grid_ratio, eng_bd_fn fn, void *ctx, const struct eng_plen *plen,
		    struct eng_bd_result *out, struct eng_bd_laws *laws);
#define ENG_OPEN_GRID 1.0625
/* The continuous-batching steady state (serve_steady.c): what one evaluation holds fixed (the
 * engine's step context, the schedule, the lengths) and what n users make of it. */
/* one steady state at n users a replica */
struct eng_cb_state {
	double running, decoding, prefill_step, chunk, mixed, t_mix, t_dec, t_draft, itl, ttft, queue, e2e, x;
	double phase, gap_lo, gap_hi, gap_share; /* the spread (serve_pct.c): of ttft, half the step under way; the gaps */
	double prefill; /* of ttft, the prompt's own chunks: what a longer prompt lengthens (serve_pct.c) */
	double t_own;   /* of ttft, the step that carries the prompt's last chunk and the prompts that join it */
	bool saturated;
	struct eng_serve_step parts;
};

struct eng_cb_in {
	struct eng_serve_ctx ctx;
	const struct eng_spec *spec; /* the drafter (E = 1, k + 1 = 1 without) */
	double budget, cap, prompt, gen, user_chunk;
	double cap_prefill;          /* xPyD: prompts a prefill-only replica holds at most (KV room, max_num_seqs) */
	double sched_steps;          /* decode steps a scheduling decision runs (1: every step) */
	bool apart;                  /* prefill in steps of its own, the decodes paused (SGLang) */
	double fresh, prefix;        /* a prompt's tokens prefilled and those its cached prefix holds */
	struct eng_plen plen;        /* the prompts' lengths around the mean (prompt_cv, serve_pct.c) */
};
/* the steady state at users a replica */
void eng_cb_steady(const struct eng_cb_in *in, double users, struct eng_cb_state *st);
/* an open load's state n (serve_open.c's eng_bd_fn; ctx a const struct eng_cb_in *): the
 * steady state at n users, all admitted */
void eng_cb_open_state(void *ctx, double n, struct eng_bd_state *o);
/* a closed state's percentiles (serve_pct.c): the phase of the step and the step kinds */
void eng_cb_closed_pct(const struct eng_cb_state *st, const struct eng_plen *plen, struct eng_pct *p);
/* A front end that holds the arrivals and sends them together (serve_dispatch.c): at one rate λ
 * a replica, what each dispatch brings a replica and the engine's time to its first tokens. */
struct eng_dispatch {
	bool on;          /* dispatch_window > 0 and an open load with a steady state */
	double replicas;  /* R: the data-parallel replicas it sends to in turn */
	double window;    /* W_eff = min(W, cap ÷ (λ R)): seconds a dispatch gathers */
	double mu;        /* λ R W: the arrivals a whole window (Poisson mean) */
	double cap;       /* dispatch_batch (INFINITY: none) */
	double burst;     /* n = min(λ R W, cap): requests a dispatch brings a replica on average */
	double period;    /* n ÷ λ = R W_eff: seconds between two dispatches to one replica */
	double hold;      /* W_eff ÷ 2: a request's mean hold in the front end */
	double prefill;   /* over the requests: the burst's arrival at the engine to the request's first token */
	double prefill_var; /* its variance over the requests (the burst's size and the request's step in it) */
	double own;       /* of prefill, what the request's own prompt adds (what a longer prompt lengthens) */
	double whole;     /* a burst's whole prefill, the mean over the dispatches (a gap for the paused decodes) */
	double per_request; /* the bursts' prefill seconds a request: Σ p(k) whole(k) ÷ Σ k p(k) */
	double decoding;  /* the decodes a mixed step of the burst carries (mixed prefill; 0 apart) */
	double sched, E;  /* decode steps a scheduling decision runs; tokens a step gains a decoding sequence */
	bool apart;       /* the burst prefills in steps of its own, the decodes paused */
};
/* The open load at λ (serve_open.c) through the state function fn, with the dispatcher when
 * sc->dispatch_window > 0 and replicas > 0 (0: none, xPyD): the states' TTFT and its spread are
 * the burst's; their rates and gaps' means the engine's own, but for prefill apart, where the
 * bursts' prefill seconds a request replace the engine's; dp (may be NULL) receives the
 * dispatcher's figures. */
void eng_dispatch_solve(const struct engine_scenario *sc, const struct eng_cb_in *in, double replicas, double lambda,
			eng_bd_fn fn, void *ctx, struct eng_bd_result *r, struct eng_dispatch *dp);

/* The steady state, capacity and the SLA concurrency (serve_batch.c). */
void eng_serve(const struct engine_scenario *sc, const struct eng_dims *dm, const struct eng_bytes *b,
	       const struct eng_mem *mem, const struct engine_inference *inf, struct engine_serving *out);

/* Disaggregated prefill and decode, xPyD (serve_pd.c): the figures of x prefill-only and y
 * decode-only replicas over `out`'s aggregated ones (capacity and settings kept); kv_gpu the
 * KV bytes a token one GPU holds. */
void eng_serve_pd(const struct engine_scenario *sc, const struct eng_cb_in *in, double kv_gpu, struct engine_serving *out);
/* One request's KV hand-off: seconds, and the bytes one GPU sends and the rate (bytes/s). */
double eng_pd_transfer_seconds(const struct engine_scenario *sc, double prompt, double kv_gpu, double *bytes,
			       double *bw);

#endif
