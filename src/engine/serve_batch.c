/*
 * Serving as engines run it: the memory an engine admits for its KV cache, the steady state
 * at `batch` users a replica or under an open load (serve_steady.c, serve_open.c), the most
 * users or requests an SLA allows, and the replicas a target rate needs. One set of formulas;
 * the report, the explorer and JSON all read these results.
 *
 * Sources: the steady state's in serve_steady.c; the open load's in serve_open.c and
 * serve_pct.c; the engines' settings in serve_engine.c; the rest at each function below.
 */
#include <math.h>
#include <stddef.h>
#include <string.h>

#include "serve_internal.h"

static void put_pct(const struct eng_pct *p, struct engine_serving *out)
{
	out->ttft_p50_seconds = p->ttft[0], out->ttft_p90_seconds = p->ttft[1], out->ttft_p99_seconds = p->ttft[2];
	out->itl_p50_seconds = p->itl[0], out->itl_p90_seconds = p->itl[1], out->itl_p99_seconds = p->itl[2];
	out->tpot_p50_seconds = p->tpot[0], out->tpot_p90_seconds = p->tpot[1], out->tpot_p99_seconds = p->tpot[2];
	/* the median gap is the gaps' law's median (serve_pct.c): one figure, not a second rule */
	out->itl_median_seconds = p->itl[0];
}

/* Requests arriving at λ a second (serve_open.c): the figures of the load averaged over the
 * birth–death process; saturated, the replica's limit and the most it completes alone. */
static void open_load(const struct engine_scenario *sc, const struct eng_cb_in *in, double replicas, double lambda,
		      double gen, struct engine_serving *out)
{
	struct eng_bd_result r;
	struct eng_dispatch dp;

	/* with a dispatcher the bursts' TTFT (serve_dispatch.c); prefill apart, their prefill a
	 * request in the rates and the mean gap */
	eng_dispatch_solve(sc, in, replicas, lambda, eng_cb_open_state, (void *)in, &r, &dp);
	out->dispatch_window = dp.on ? dp.window : 0.0;
	out->dispatch_replicas = dp.on ? dp.replicas : 0.0;
	out->dispatch_burst = dp.on ? dp.burst : 0.0;
	out->dispatch_hold_seconds = dp.on ? dp.hold : 0.0;
	out->dispatch_prefill_seconds = dp.on ? dp.prefill : 0.0;
	out->dispatch_prefill_request_seconds = dp.on ? dp.per_request : 0.0;
	/* the rest of the mean TTFT: the step under way, over the states the bursts meet */
	out->dispatch_step_seconds = dp.on ? eng_max(0.0, r.ttft - r.wait - dp.hold - dp.prefill) : 0.0;
	out->rate = lambda;
	out->rate_max = r.max_rate;
	out->rate_limit = r.limit;
	out->rate_saturated = !r.stable;
	if (!r.stable) {
		/* no steady state: no time to report; the replica completes what it can */
		struct eng_pct none;
		memset(&none, 0, sizeof none);
		put_pct(&none, out);
		out->in_system = out->in_engine = out->wait_seconds = 0.0;
		out->ttft_seconds = out->queue_seconds = out->e2e_seconds = out->itl_seconds = 0.0;
		out->requests_per_s = r.max_rate;
		out->tokens_per_s_user = 0.0;
	} else {
		out->in_system = r.in_system;
		out->in_engine = r.in_engine;
		out->busy = r.busy;
		out->wait_seconds = r.wait;
		out->ttft_seconds = r.ttft;
		out->queue_seconds = r.queue;
		out->itl_seconds = r.itl;
		put_pct(&r.pct, out);
		out->e2e_seconds = r.request_seconds;
		out->requests_per_s = lambda;
		out->tokens_per_s_user = r.request_seconds > 0 ? gen / r.request_seconds : 0.0;
	}
	out->tokens_per_s_replica = out->requests_per_s * gen;
}

/* The states of the open load do not depend on λ, only their weights do: the SLA's bisection
 * evaluates each grid point once and reads it back at every λ (the same grid each solve). */
#define MEMO_MAX 256 /* the grid: 16 + log(2^20 ÷ 16) ÷ log(1.0625) ≈ 200 points at most */
struct memo {
	const struct eng_cb_in *in;
	int n;
	double at[MEMO_MAX];
	struct eng_bd_state st[MEMO_MAX];
};

static void memo_state(void *ctx, double n, struct eng_bd_state *o)
{
	struct memo *m = ctx;
	int lo = 0, hi = m->n, i;

	while (lo < hi) {
		int mid = (lo + hi) / 2;
		if (m->at[mid] < n)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo < m->n && m->at[lo] == n) {
		*o = m->st[lo];
		return;
	}
	eng_cb_open_state((void *)m->in, n, o);
	if (m->n == MEMO_MAX)
		return;
	for (i = m->n; i > lo; i--) {
		m->at[i] = m->at[i - 1];
		m->st[i] = m->st[i - 1];
	}
	m->at[lo] = n;
	m->st[lo] = *o;
	m->n++;
}

/* A percentile SLA, as MLPerf Inference's Server holds its limits: the most requests a
 * second arriving at a replica (Poisson, serve_open.c) whose TTFT and a request's TPOT at
 * the percentile stay within the targets (serve_pct.c); both grow with the rate, so a
 * bisection on λ in (0, X(limit)) to 2^-12 of X(limit), the states evaluated once (struct
 * memo). The SLA concurrency is then the mean requests in the replica at that rate, the
 * throughput the rate's output tokens. */
static void sla_open(const struct engine_scenario *sc, const struct eng_cb_in *in, double gpus, double replicas,
		     struct engine_serving *out)
{
	struct eng_bd_result r;
	struct memo memo; /* on the stack: the engine keeps no state between calls */
	double lo = 0.0, hi, inside = 0.0;
	int k = sc->slo_percentile == ENGINE_SLO_P50 ? 0 : sc->slo_percentile == ENGINE_SLO_P90 ? 1 : 2, it;

	memo.in = in;
	memo.n = 0;
	eng_open_solve(0.0, in->cap, ENG_OPEN_GRID, memo_state, &memo, &in->plen, &r, NULL);
	hi = r.max_rate;
	if (!(hi > 0))
		return;
	for (it = 0; it < 12; it++) {
		double mid = 0.5 * (lo + hi);
		eng_dispatch_solve(sc, in, replicas, mid, memo_state, &memo, &r, NULL);
		if (r.stable && (sc->ttft_slo <= 0 || r.pct.ttft[k] <= sc->ttft_slo) &&
		    (sc->tpot_slo <= 0 || r.pct.tpot[k] <= sc->tpot_slo)) {
			lo = mid;
			inside = r.in_system;
		} else {
			hi = mid;
		}
	}
	out->sla_rate = lo;
	out->sla_concurrency = inside;
	out->sla_tokens_per_s_gpu = lo * in->gen / gpus;
}

/* The forward an engine profiles before it sizes the KV cache: `budget` tokens through a
 * layer (the residual, its input and the widest intermediate, on one TP rank), and the
 * sampler's logits over max_seqs rows in fp32 with the probabilities beside them (vLLM
 * gpu_model_runner.py profile_run and _dummy_sampler_run). TGI's warm-up asks for the
 * prompts' log-probabilities (prefill_logprobs: true in every version's client warmup(),
 * backends/client/src/v3/client.rs), so its forward puts every one of the budget's tokens
 * through the LM head and keeps the logits and their log_softmax beside them, both in the
 * model's dtype (server/text_generation_server/models/flash_causal_lm.py: `torch.log_softmax(
 * out, -1)` over `out`, the head's output for all prefill tokens); under TP the head's own
 * slice (V ÷ t) is there as well before the gather (layers/tensor_parallel.py,
 * TensorParallelHead). */
static double activation_peak(const struct engine_scenario *sc, const struct eng_dims *dm, const struct eng_bytes *b,
			      const struct eng_serve_set *set)
{
	double t = (double)sc->tp, e = b->act, tok = set->budget;
	const struct eng_layer_params *lp = &dm->lp;
	double qkv = (lp->q_width + lp->kv_width) / t, mlp = lp->mlp_width * (dm->gated ? 3.0 : 2.0) / t;
	double rows = set->max_seqs > 0 ? set->max_seqs : 256.0;

	if (tok <= 0)
		tok = (double)sc->prompt;
	double peak = e * tok * (2.0 * dm->d + eng_max(qkv, mlp)) + 2.0 * 4.0 * rows * dm->V;

	if (sc->serve_engine == ENGINE_SERVE_TGI)
		peak += e * tok * dm->V * (2.0 + (t > 1.0 ? 1.0 / t : 0.0));
	return peak;
}

void eng_serve(const struct engine_scenario *sc, const struct eng_dims *dm, const struct eng_bytes *b,
	       const struct eng_mem *mem, const struct engine_inference *inf, struct engine_serving *out)
{
	struct eng_serve_set set;
	struct eng_spec spec, plain;
	struct eng_cb_in in;
	struct eng_cb_state st;
	double t = (double)sc->tp, gpus_replica = (double)(sc->tp * sc->pp);
	double kv_rank = inf->kv_bytes_per_token / t, kv_gpu, total = sc->gpu.memory_bytes, kv;
	double lps = eng_layers_per_stage(dm->L, sc->pp);
	double shared, unique, replicas;

	eng_serve_settings(sc, &set);
	if (dm->kv_rank > 0.0)
		kv_rank = inf->kv_bytes_per_token; /* MLA: the latent on every rank (serving.c) */
	else if (dm->nkv < t)
		kv_rank = 2.0 * dm->L * dm->dh * b->kv;
	kv_gpu = kv_rank * lps / dm->L;
	eng_spec_init(sc, dm, b, &spec);
	eng_spec_ctx(sc, b, &spec);
	memset(&plain, 0, offsetof(struct eng_spec, ddm)); /* no drafter: its shape is never read (eng_spec_init) */
	plain.tokens = plain.verify = 1.0;
	/* the drafter's KV is kept for every token of context beside the target's */
	kv_gpu += spec.kv_per_token;
	out->engine = set.engine;
	out->budget = set.budget;
	out->mem_fraction = set.mem_fraction;
	out->step_overhead = set.step_overhead;
	out->max_seqs = set.max_seqs;

	/* capacity per GPU: what the engine leaves for its KV cache */
	out->activation_peak = set.engine == ENGINE_SERVE_NONE ? mem->activations + mem->logits : activation_peak(sc, dm, b, &set);
	if (set.engine == ENGINE_SERVE_NONE)
		kv = total - mem->weights - mem->overhead - out->activation_peak;
	else if (set.of_free)
		kv = set.mem_fraction * (total - mem->overhead - mem->weights - out->activation_peak);
	else
		kv = set.mem_fraction * total - mem->weights - (set.profiles ? out->activation_peak : 0.0);
	out->kv_budget_bytes = eng_max(kv, 0.0);
	out->kv_tokens = kv_gpu > 0 ? out->kv_budget_bytes / kv_gpu : 0.0;
	/* a prefix shared by every request: its full blocks held once a replica (vLLM's
	 * automatic prefix caching and SGLang's radix cache share whole blocks, reference-
	 * counted); each sequence holds the rest, and k lookahead slots when it speculates
	 * (vLLM's num_lookahead_slots) */
	in.fresh = eng_max(1.0, (double)sc->prompt * (1.0 - sc->prefix_hit));
	in.prefix = (double)sc->prompt - in.fresh;
	eng_plen_init(&in.plen, sc->prompt_cv);
	shared = eng_prefix_shared(sc, inf->kv_tokens_per_sequence);
	unique = eng_max(inf->kv_tokens_per_sequence - shared, 1.0) + spec.k;
	out->max_concurrent = out->kv_tokens > shared ? (int64_t)floor((out->kv_tokens - shared) / unique) : 0;
	out->prefix_tokens = in.prefix;
	out->prefill_tokens_request = in.fresh;
	out->speculative = spec.on ? spec.method : ENGINE_SPEC_NONE;
	out->spec_tokens_per_step = spec.tokens;
	out->spec_verify_tokens = spec.verify;
	out->spec_weight_bytes = spec.weight_bytes;
	out->spec_kv_bytes_per_token = spec.kv_per_token;

	/* the steady state */
	eng_serve_ctx_init(sc, dm, b, kv_rank, set.step_overhead, &in.ctx);
	in.ctx.dec_q = spec.verify;
	in.spec = &spec;
	in.budget = set.budget;
	/* what a running sequence holds on average over its life: its prompt, half its output
	 * filled, and the engine's booked share of the other half (serve_engine.c, reserve);
	 * booked whole, the full context, as max_concurrent counts it */
	out->held_tokens = inf->kv_tokens_per_sequence;
	in.cap = (double)out->max_concurrent;
	if (set.def->reserve < 1.0 && sc->generate > 1) {
		double g2 = 0.5 * (double)sc->generate;
		double held = eng_kv_tokens(sc, dm, (double)sc->prompt + g2 * (1.0 + set.def->reserve));
		out->held_tokens = eng_min(held, inf->kv_tokens_per_sequence);
		in.cap = out->kv_tokens > shared ? floor((out->kv_tokens - shared) /
							 (eng_max(out->held_tokens - shared, 1.0) + spec.k))
						 : 0.0;
		in.cap = eng_max(in.cap, (double)out->max_concurrent);
	}
	if (set.max_seqs > 0)
		in.cap = eng_min(in.cap, set.max_seqs);
	if (set.engine == ENGINE_SERVE_NONE)
		in.cap = INFINITY;
	if (!(in.cap >= 1.0))
		in.cap = 1.0;
	out->running_max = isfinite(in.cap) ? in.cap : (double)out->max_concurrent;
	/* xPyD: a prefill replica holds each prompt's KV until it is handed off (its fresh and
	 * cached tokens), at most the engine's sequences */
	in.cap_prefill = out->kv_tokens > shared ? floor((out->kv_tokens - shared) / eng_max((double)sc->prompt - shared, 1.0)) : 1.0;
	if (set.max_seqs > 0)
		in.cap_prefill = eng_min(in.cap_prefill, set.max_seqs);
	if (!(in.cap_prefill >= 1.0) || !isfinite(in.cap_prefill))
		in.cap_prefill = eng_max(1.0, isfinite(in.cap) ? in.cap : 1.0);
	in.prompt = (double)sc->prompt;
	in.gen = (double)sc->generate;
	in.user_chunk = (double)sc->prefill_chunk;
	in.sched_steps = sc->scheduler_steps > 1 ? (double)sc->scheduler_steps : 1.0;
	in.apart = set.apart;
	out->prefill_apart = set.apart;
	out->prefill_from = set.apart_from;
	out->straggler = in.ctx.straggler;
	eng_cb_steady(&in, (double)sc->batch, &st);
	out->running = st.running;
	out->decoding = st.decoding;
	out->prefill_tokens_step = st.prefill_step;
	out->chunk = st.chunk;
	out->mixed_fraction = st.mixed;
	out->saturated = st.saturated;
	out->decode_step_seconds = st.t_dec;
	out->spec_draft_seconds = st.t_draft;
	out->mixed_step_seconds = st.t_mix;
	out->ttft_step_seconds = st.t_own;
	out->matmul_seconds = st.parts.matmul;
	out->weight_seconds = st.parts.weights;
	out->attention_seconds = st.parts.attention;
	out->comm_seconds = st.parts.comm;
	out->ep_comm_seconds = st.parts.ep_comm;
	out->bubble_seconds = st.parts.bubbles;
	out->other_seconds = st.parts.other;
	out->moe_seconds = st.parts.moe;
	out->ttft_seconds = st.ttft;
	out->queue_seconds = st.queue;
	out->itl_seconds = st.itl;
	out->e2e_seconds = st.e2e;
	out->requests_per_s = st.x;
	out->tokens_per_s_replica = st.x * in.gen;
	out->tokens_per_s_user = st.e2e > 0 ? in.gen / st.e2e : 0.0;
	{
		struct eng_pct p;
		eng_cb_closed_pct(&st, &in.plen, &p);
		put_pct(&p, out);
	}
	/* a dispatcher sends to the data-parallel replicas in turn (serve_dispatch.c); under xPyD
	 * serve_pd.c solves the group without one (replicas 0: none) */
	replicas = sc->prefill_replicas > 0 && sc->decode_replicas > 0 ? 0.0 : eng_max(1.0, inf->replicas);
	out->dispatch_window = out->dispatch_replicas = out->dispatch_burst = 0.0;
	out->dispatch_hold_seconds = out->dispatch_prefill_seconds = out->dispatch_step_seconds = 0.0;
	out->dispatch_prefill_request_seconds = 0.0;
	if (sc->rate > 0)
		open_load(sc, &in, replicas, sc->rate, in.gen, out);
	out->tokens_per_s_gpu = out->tokens_per_s_replica / gpus_replica;
	out->tokens_per_s_job = out->tokens_per_s_replica * inf->replicas;
	out->cost_per_mtok = sc->price > 0 && out->tokens_per_s_replica > 0
				     ? sc->price * gpus_replica / 3600.0 / out->tokens_per_s_replica * 1e6
				     : 0.0;

	/* speculation's gain: the time between tokens at the same users without a drafter */
	out->spec_speedup = 1.0;
	if (spec.on && st.itl > 0) {
		struct eng_cb_in in0 = in;
		struct eng_cb_state s0;
		in0.spec = &plain;
		in0.ctx.dec_q = 1.0;
		in0.cap = out->running_max; /* without the drafter's memory: as computed below */
		if (kv_gpu - spec.kv_per_token > 0) {
			double tok0 = (out->kv_budget_bytes + spec.weight_bytes) / (kv_gpu - spec.kv_per_token);
			in0.cap = floor((tok0 - shared) / eng_max(out->held_tokens - shared, 1.0));
		}
		if (set.max_seqs > 0)
			in0.cap = eng_min(in0.cap, set.max_seqs);
		if (set.engine == ENGINE_SERVE_NONE)
			in0.cap = INFINITY;
		if (!(in0.cap >= 1.0))
			in0.cap = 1.0;
		eng_cb_steady(&in0, (double)sc->batch, &s0);
		out->spec_speedup = s0.itl / st.itl;
	}

	/* the SLA: the most users whose TTFT and time between tokens stay within the targets
	 * (both grow with the users: doubling, then bisection) */
	out->sla_concurrency = 0.0;
	out->sla_tokens_per_s_gpu = 0.0;
	out->sla_rate = 0.0;
	out->slo_percentile = sc->slo_percentile;
	if ((sc->ttft_slo > 0 || sc->tpot_slo > 0) && sc->slo_percentile != ENGINE_SLO_MEAN)
		sla_open(sc, &in, gpus_replica, replicas, out);
	else if (sc->ttft_slo > 0 || sc->tpot_slo > 0) {
		double lo = 0.0, hi = 1.0;
		struct eng_cb_state s2;
#define MEETS(u) (eng_cb_steady(&in, (u), &s2), (sc->ttft_slo <= 0 || s2.ttft <= sc->ttft_slo) && \
					      (sc->tpot_slo <= 0 || s2.itl <= sc->tpot_slo))
		while (hi <= 1048576.0 && MEETS(hi)) {
			lo = hi;
			hi *= 2.0;
		}
		while (hi - lo > 1.0) {
			double mid = floor(0.5 * (lo + hi));
			if (MEETS(mid))
				lo = mid;
			else
				hi = mid;
		}
#undef MEETS
		out->sla_concurrency = lo;
		if (lo >= 1.0) {
			eng_cb_steady(&in, lo, &s2);
			out->sla_tokens_per_s_gpu = s2.x * in.gen / gpus_replica;
		}
	}

	/* sizing: the replicas a service of target_rate requests/s needs, each at the most it
	 * takes within the SLA (the closed loop's users there, Little: users ÷ request time; a
	 * percentile SLA's open-load rate), or without an SLA at the most it completes with its
	 * admission limit full, X(limit) */
	out->sizing_rate_replica = out->sizing_replicas = out->sizing_gpus = 0.0;
	out->sizing_sla = sc->ttft_slo > 0 || sc->tpot_slo > 0;
	if (sc->target_rate > 0) {
		double per;
		if (out->sizing_sla)
			per = sc->slo_percentile != ENGINE_SLO_MEAN ? out->sla_rate : out->sla_tokens_per_s_gpu * gpus_replica / in.gen;
		else {
			struct eng_cb_state s3;
			eng_cb_steady(&in, isfinite(in.cap) ? in.cap : (double)sc->batch, &s3);
			per = s3.x;
		}
		out->sizing_rate_replica = per > 0 && isfinite(per) ? per : 0.0;
		if (out->sizing_rate_replica > 0) {
			/* the count, not a fraction of one: 1e-9 spares a quotient that is whole in exact arithmetic */
			out->sizing_replicas = ceil(sc->target_rate / out->sizing_rate_replica - 1e-9);
			out->sizing_gpus = out->sizing_replicas * gpus_replica;
		}
	}
	/* disaggregated prefill and decode: the same replica, split into pools (serve_pd.c) */
	if (sc->prefill_replicas > 0 && sc->decode_replicas > 0)
		eng_serve_pd(sc, &in, kv_gpu, out);
}
