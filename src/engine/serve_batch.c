/*
 * Serving as engines run it: the memory an engine admits for its KV cache, the steady state
 * of continuous batching at a concurrency of `batch` users a replica, and the most users an
 * SLA allows. One set of formulas; the report, the explorer and JSON all read these results.
 *
 * Sources:
 *  - Continuous batching with chunked prefill (Yu et al. 2022, Orca: iteration-level
 *    scheduling; Agrawal et al. 2024, Sarathi-Serve §4: stall-free batches, the running
 *    sequences' decode tokens first, then prefill chunks up to a token budget; vLLM V1's
 *    scheduler and SGLang's do the same): a step carries one decode token for each of the d
 *    decoding sequences and prefill chunks in the budget's room, budget − d.
 *  - The steady state of a closed loop (each user sends the next request when the last one
 *    ends, as benchmark clients at a fixed concurrency do): requests finish at r = d ÷ (g − 1)
 *    a step (each needs g − 1 decode steps after the first token), so an average step
 *    carries r × prompt prefill tokens; Little's law (users = throughput × time in system)
 *    fixes d for the users admitted.
 *  - Waiting for the budget: prompts queue for the room left after the decode tokens, a
 *    server busy ρ = prefill tokens ÷ room of the time; the Pollaczek–Khinchine mean wait
 *    of a deterministic server, ρ/(2(1 − ρ)) × its service time (M/D/1; Kleinrock 1975,
 *    §5.7). An arrival also waits for the step under way to end: half a step.
 *  - Users beyond what the KV cache admits (or the engine's sequence limit) wait for a
 *    finishing request: (users − admitted) ÷ throughput.
 *  - Prefix caching (vLLM's automatic prefix caching: KV blocks found by the hash of the
 *    tokens up to them and shared with reference counts, docs "Automatic Prefix Caching";
 *    SGLang's RadixAttention, Zheng et al. 2024, §3: a radix tree of cached prefixes
 *    shared across requests): the cached share of a prompt is not prefilled, but its keys
 *    are still read by the prompt's remaining chunks. The model here is a prefix common to
 *    every request (a system prompt, a few-shot template): its blocks held once a replica.
 *    A per-user history (multi-turn chat) would hold each user's own prefix: not modelled.
 *    A prompt found whole still computes its last token (vLLM recomputes it for the logits).
 *  - Multi-step scheduling (vLLM 0.6, --num-scheduler-steps k): the engine schedules once
 *    every k decode steps (vllm/engine/llm_engine.py: step() calls the scheduler only when
 *    the cached bundle has no steps left, _has_remaining_steps); a decode bundle runs k steps
 *    (num_lookahead_slots = k − 1, vllm/engine/arg_utils.py), a prefill runs one step
 *    (vllm/core/scheduler.py _schedule_prefills: init_multi_step(lookahead 0 + 1)). A prompt
 *    that arrives at a random time meets a bundle of k steps and waits out its residual, half
 *    of it on average (the mean residual of a deterministic interval, Kleinrock 1975, §5.2):
 *    k/2 steps where one scheduling decision a step waits half of one, (k − 1)/2 steps more.
 *  - Speculative decoding (serve_spec.c): a step verifies k + 1 tokens a decoding sequence
 *    after the drafter's k forwards, and a sequence gains E tokens: the time between tokens
 *    is the step ÷ E, a request's decode steps (g − 1) ÷ E.
 */
#include <math.h>
#include <string.h>

#include "serve_internal.h"

/* One steady state at `users` a replica. */
struct cb_state {
	double running, decoding, prefill_step, chunk, mixed, t_mix, t_dec, t_draft, itl, ttft, queue, e2e, x;
	double phase, gap_lo, gap_hi, gap_share; /* the spread (serve_pct.c): of ttft, half the step under way; the gaps */
	double prefill; /* of ttft, the prompt's own chunks: what a longer prompt lengthens (serve_pct.c) */
	bool saturated;
	struct eng_serve_step parts;
};

struct cb_in {
	struct eng_serve_ctx ctx;
	const struct eng_spec *spec; /* the drafter (E = 1, k + 1 = 1 without) */
	double budget, cap, prompt, gen, user_chunk;
	double sched_steps;          /* decode steps a scheduling decision runs (1: every step) */
	bool apart;                  /* prefill in steps of its own, the decodes paused (SGLang) */
	double fresh, prefix;        /* a prompt's tokens prefilled and those its cached prefix holds */
	struct eng_plen plen;        /* the prompts' lengths around the mean (prompt_cv, serve_pct.c) */
};

/* Of a prompt's chunks, ⌈P ÷ c⌉ steps of t_mix, the time a longer prompt lengthens (the
 * percentiles' spread of lengths, serve_pct.c): its steps but the first, each a whole step,
 * and in the first its tokens' share (own ÷ carry, the step's prompt tokens) of the step's
 * prompt time (tok: t_mix less the decode step it carries). The decodes a mixed step holds
 * and the other prompts' tokens in it do not scale with this prompt. */
static double prompt_part(double P, double c, double carry, double t_mix, double tok)
{
	double k = ceil(P / eng_max(c, 1.0)), own = eng_min(P, eng_max(c, 1.0));

	return eng_max(k - 1.0, 0.0) * t_mix + eng_max(tok, 0.0) * (carry > 0 ? eng_min(1.0, own / carry) : 1.0);
}

/* users_for's engines that prefill apart (SGLang): between two decode steps the engine runs
 * n_p = pbar ÷ carry prefill steps of `carry` tokens, each pausing the decodes, so a decoding
 * sequence waits t_dec + n_p × t_pre for its next token. The prefill steps are a server busy
 * ρ = n_p t_pre ÷ that time, which runs first whenever a prompt waits: a new prompt waits for
 * the prompts ahead of it (M/D/1, Kleinrock 1975 §5.7, with a prefill step's service) and
 * for the step under way, half a step, then its own ⌈prompt ÷ chunk⌉ prefill steps. */
static double users_apart(const struct cb_in *in, double d, double r, double pbar, double c, double carry,
			  const struct eng_serve_step *pre, const struct eng_serve_step *dec, double draft,
			  struct cb_state *st)
{
	double gm1 = in->gen - 1.0, E = in->spec->tokens, P = in->fresh;
	double np = carry > 0 ? pbar / carry : 0.0, step, rho;

	st->decoding = d;
	st->prefill_step = pbar;
	st->chunk = carry;
	st->mixed = np / (1.0 + np);
	st->t_mix = pre->seconds;
	st->t_dec = dec->seconds + draft;
	st->t_draft = draft;
	st->parts = *pre;
	step = st->t_dec + np * st->t_mix;
	st->itl = step / E;
	rho = step > 0 ? np * st->t_mix / step : 0.0;
	st->saturated = rho >= 0.999;
	rho = eng_min(rho, 0.999);
	st->queue = rho / (2.0 * (1.0 - rho)) * st->t_mix;
	st->phase = 0.5 * step / (1.0 + np);
	st->ttft = ceil(P / eng_max(c, 1.0)) * st->t_mix + st->queue + st->phase;
	/* a prefill step of its own: the prompt's share of its tokens' time */
	st->prefill = prompt_part(P, c, carry, st->t_mix, st->t_mix);
	/* the gaps: ⌊np⌋ or ⌊np⌋ + 1 prefill steps in one, in the share that keeps the mean */
	st->gap_lo = (st->t_dec + floor(np) * st->t_mix) / E;
	st->gap_hi = st->gap_lo + st->t_mix / E;
	st->gap_share = np - floor(np);
	st->e2e = st->ttft + eng_max(gm1, 0.0) * st->itl;
	st->x = gm1 > 0 && step > 0 ? r / step : 0.0;
	return gm1 > 0 && st->itl > 0 ? d * st->e2e / (gm1 * st->itl) : 0.0;
}

/* Given d decoding sequences: the step times, TTFT and the users that d implies (Little). */
static double users_for(const struct cb_in *in, double d, struct cb_state *st)
{
	double P = in->fresh, gm1 = in->gen - 1.0, E = in->spec->tokens, q = in->spec->verify;
	/* each step a decoding sequence gains E tokens: a request needs (g − 1) ÷ E steps */
	double r = gm1 > 0 ? d * E / gm1 : 0.0, pbar = r * P;
	double room = in->budget > 0 ? in->budget - d * q : INFINITY;
	double c, carry, f, rho, keys = in->prefix + P / 2.0 + 0.5, ctx = in->prompt + in->gen / 2.0;
	double draft, step;
	struct eng_serve_step mix, dec;

	if (in->apart) {
		/* prefill steps of their own: a step's whole budget is the prompts' */
		room = in->budget > 0 ? in->budget : INFINITY;
	}
	c = eng_min(P, room);
	if (in->user_chunk > 0)
		c = eng_min(c, in->user_chunk);
	carry = eng_max(c, pbar);
	if (in->apart)
		carry = eng_min(carry, room);
	f = carry > 0 ? eng_min(1.0, pbar / carry) : 0.0;
	eng_serve_step_time(&in->ctx, carry, keys, in->apart ? 0.0 : d, ctx, &mix);
	eng_serve_step_time(&in->ctx, 0.0, 0.0, d, ctx, &dec);
	draft = eng_spec_draft_seconds(in->spec, d, ctx);
	if (in->apart)
		return users_apart(in, d, r, pbar, c, carry, &mix, &dec, draft, st);
	st->decoding = d;
	st->prefill_step = pbar;
	st->chunk = carry;
	st->mixed = f;
	st->t_mix = mix.seconds + draft;
	st->t_dec = dec.seconds + draft;
	st->t_draft = draft;
	st->parts = mix;
	step = f * st->t_mix + (1.0 - f) * st->t_dec;
	st->itl = step / E;
	rho = isfinite(room) && room > 0 ? pbar / room : 0.0;
	st->saturated = rho >= 0.999;
	rho = eng_min(rho, 0.999);
	/* the prompt's own chunks, the wait for the budget (M/D/1), half a step; under multi-step
	 * scheduling the rest of the running bundle, (k − 1)/2 decode steps more */
	st->queue = isfinite(room) && room > 0 ? rho / (2.0 * (1.0 - rho)) * (P / room) * st->t_mix : 0.0;
	st->phase = 0.5 * step;
	if (in->sched_steps > 1.0 && d > 0) {
		st->queue += 0.5 * (in->sched_steps - 1.0) * st->t_dec;
		st->phase += 0.5 * (in->sched_steps - 1.0) * st->t_dec; /* the bundle's residual, uniform too */
	}
	st->ttft = ceil(P / eng_max(c, 1.0)) * st->t_mix + st->queue + 0.5 * step;
	st->prefill = prompt_part(P, c, carry, st->t_mix, st->t_mix - st->t_dec);
	st->gap_lo = st->t_dec / E;
	st->gap_hi = st->t_mix / E;
	st->gap_share = f;
	st->e2e = st->ttft + eng_max(gm1, 0.0) * st->itl;
	st->x = gm1 > 0 && step > 0 ? r / step : 0.0;
	return gm1 > 0 && st->itl > 0 ? d * st->e2e / (gm1 * st->itl) : 0.0;
}

/* The decoding sequences d in (0, hi] at which users_for(d) reaches n users. users_for grows
 * with d (more sequences decoding imply more users, by Little's law), with small jumps where
 * a prompt's chunk count changes. A bracketing root finder: the Illinois variant of regula
 * falsi (Dowell and Jarratt 1971, BIT 11: the retained end's value halved when the same end
 * is kept twice), with a bisection step whenever two steps have not halved the bracket, so a
 * jump costs no more than bisection. It returns a d whose users are within 1e-12 of n, or
 * the bracket's low end (users_for < n) once the bracket is 1e-10 of hi, at a jump; if even
 * hi gives fewer than n users (the budget's bound), hi. Either way the figures move by less
 * than 1e-9 from an exact root (users_for rises at least one user a decoding sequence). */
static double solve_decoding(const struct cb_in *in, double n, double hi, struct cb_state *st)
{
	double lo = 0.0, flo = -n, fhi = users_for(in, hi, st) - n, w2 = INFINITY, w1 = INFINITY;
	int kept = 0, it;

	if (fhi < 0)
		return hi;
	for (it = 0; it < 200 && hi - lo > 1e-10 * hi; it++) {
		double x = lo - flo * (hi - lo) / (fhi - flo), fx;
		/* the bracket two steps ago (w2) not halved since: bisect */
		if (hi - lo > 0.5 * w2 || !(x > lo && x < hi))
			x = 0.5 * (lo + hi);
		w2 = w1;
		w1 = hi - lo;
		fx = users_for(in, x, st) - n;
		if (fabs(fx) <= 1e-12 * n)
			return x;
		if (fx < 0) {
			lo = x, flo = fx;
			if (kept < 0)
				fhi *= 0.5;
			kept = -1;
		} else {
			hi = x, fhi = fx;
			if (kept > 0)
				flo *= 0.5;
			kept = 1;
		}
	}
	return lo;
}

static void steady(const struct cb_in *in, double users, struct cb_state *st)
{
	double n = eng_min(users, in->cap), lo, hi, u, gm1 = in->gen - 1.0;

	if (!(n >= 1.0))
		n = 1.0;
	if (gm1 <= 0) {
		/* prefill only: every step prompts, up to the budget */
		struct eng_serve_step mix;
		double carry = in->budget > 0 ? eng_min(n * in->fresh, in->budget) : n * in->fresh;
		eng_serve_step_time(&in->ctx, carry, in->prefix + in->fresh / 2.0 + 0.5, 0.0, 0.0, &mix);
		st->running = n;
		st->decoding = 0.0;
		st->prefill_step = carry;
		st->chunk = carry;
		st->mixed = 1.0;
		st->t_mix = st->t_dec = mix.seconds;
		st->t_draft = 0.0;
		st->parts = mix;
		st->itl = 0.0;
		st->phase = st->gap_lo = st->gap_hi = st->gap_share = 0.0;
		st->ttft = st->e2e = n * in->fresh / carry * mix.seconds;
		st->queue = st->ttft - ceil(in->fresh / carry) * mix.seconds;
		if (st->queue < 0)
			st->queue = 0.0;
		st->prefill = prompt_part(in->fresh, carry, carry, mix.seconds, mix.seconds);
		st->x = n / st->e2e;
		st->saturated = in->budget > 0 && n * in->fresh > in->budget;
	} else {
		/* d in (0, n): more decoding sequences imply more users; the budget's room bounds d */
		hi = n;
		if (in->budget > 0 && !in->apart)
			hi = eng_min(hi, in->budget / (in->spec->verify + in->spec->tokens * in->fresh / gm1));
		lo = solve_decoding(in, n, hi, st);
		u = users_for(in, lo > 0 ? lo : hi, st);
		st->running = n;
		/* at the budget's bound the users beyond what it serves wait their turn */
		if (st->x > 0 && u < n * 0.999) {
			double extra = n - u;
			st->queue += extra / st->x;
			st->ttft += extra / st->x;
			st->e2e += extra / st->x;
			st->saturated = true;
		}
	}
	/* users the KV cache (or the sequence limit) does not admit wait for a finishing request */
	if (users > n && st->x > 0) {
		double w = (users - n) / st->x;
		st->queue += w;
		st->ttft += w;
		st->e2e += w;
		st->x = users / st->e2e;
	}
}

/* The open load's state n (serve_open.c): the closed steady state at n users, all admitted. */
static void open_state(void *ctx, double n, struct eng_bd_state *o)
{
	struct cb_state st;

	steady((const struct cb_in *)ctx, n, &st);
	o->x = st.x;
	o->ttft = st.ttft;
	o->itl = st.itl;
	o->decoding = st.decoding;
	o->queue = st.queue;
	o->phase = st.phase;
	o->prefill = st.prefill;
	o->gap_lo = st.gap_lo;
	o->gap_hi = st.gap_hi;
	o->gap_hi_share = st.gap_share;
}

/* a closed state's percentiles (serve_pct.c): the phase of the step and the step kinds */
static void closed_pct(const struct cb_state *st, const struct eng_plen *plen, struct eng_pct *p)
{
	struct eng_bd_state o;

	memset(&o, 0, sizeof o);
	o.ttft = st->ttft;
	o.itl = st->itl;
	o.phase = st->phase;
	o.prefill = st->prefill;
	o.gap_lo = st->gap_lo;
	o.gap_hi = st->gap_hi;
	o.gap_hi_share = st->gap_share;
	eng_pct_state_spread(&o, plen, p);
}

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
static void open_load(const struct cb_in *in, double lambda, double gen, struct engine_serving *out)
{
	struct eng_bd_result r;

	eng_open_solve_spread(lambda, in->cap, ENG_OPEN_GRID, open_state, (void *)in, &in->plen, &r, NULL);
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
	const struct cb_in *in;
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
	open_state((void *)m->in, n, o);
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
static void sla_open(const struct engine_scenario *sc, const struct cb_in *in, double gpus, struct engine_serving *out)
{
	struct eng_bd_result r;
	struct memo memo; /* on the stack: the engine keeps no state between calls */
	double lo = 0.0, hi, inside = 0.0;
	int k = sc->slo_percentile == ENGINE_SLO_P50 ? 0 : sc->slo_percentile == ENGINE_SLO_P90 ? 1 : 2, it;

	memo.in = in;
	memo.n = 0;
	eng_open_solve_spread(0.0, in->cap, ENG_OPEN_GRID, memo_state, &memo, &in->plen, &r, NULL);
	hi = r.max_rate;
	if (!(hi > 0))
		return;
	for (it = 0; it < 12; it++) {
		double mid = 0.5 * (lo + hi);
		eng_open_solve_spread(mid, in->cap, ENG_OPEN_GRID, memo_state, &memo, &in->plen, &r, NULL);
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
	struct cb_in in;
	struct cb_state st;
	double t = (double)sc->tp, gpus_replica = (double)(sc->tp * sc->pp);
	double kv_rank = inf->kv_bytes_per_token / t, kv_gpu, total = sc->gpu.memory_bytes, kv;
	double lps = eng_layers_per_stage(dm->L, sc->pp);
	double shared, unique;

	eng_serve_settings(sc, &set);
	if (dm->kv_rank > 0.0)
		kv_rank = inf->kv_bytes_per_token; /* MLA: the latent on every rank (serving.c) */
	else if (dm->nkv < t)
		kv_rank = 2.0 * dm->L * dm->dh * b->kv;
	kv_gpu = kv_rank * lps / dm->L;
	eng_spec_init(sc, dm, b, &spec);
	eng_spec_ctx(sc, b, &spec);
	memset(&plain, 0, sizeof plain);
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
	in.prompt = (double)sc->prompt;
	in.gen = (double)sc->generate;
	in.user_chunk = (double)sc->prefill_chunk;
	in.sched_steps = sc->scheduler_steps > 1 ? (double)sc->scheduler_steps : 1.0;
	in.apart = set.apart;
	out->prefill_apart = set.apart;
	out->straggler = in.ctx.straggler;
	steady(&in, (double)sc->batch, &st);
	out->running = st.running;
	out->decoding = st.decoding;
	out->prefill_tokens_step = st.prefill_step;
	out->chunk = st.chunk;
	out->mixed_fraction = st.mixed;
	out->saturated = st.saturated;
	out->decode_step_seconds = st.t_dec;
	out->spec_draft_seconds = st.t_draft;
	out->mixed_step_seconds = st.t_mix;
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
		closed_pct(&st, &in.plen, &p);
		put_pct(&p, out);
	}
	if (sc->rate > 0)
		open_load(&in, sc->rate, in.gen, out);
	out->tokens_per_s_gpu = out->tokens_per_s_replica / gpus_replica;
	out->tokens_per_s_job = out->tokens_per_s_replica * inf->replicas;
	out->cost_per_mtok = sc->price > 0 && out->tokens_per_s_replica > 0
				     ? sc->price * gpus_replica / 3600.0 / out->tokens_per_s_replica * 1e6
				     : 0.0;

	/* speculation's gain: the time between tokens at the same users without a drafter */
	out->spec_speedup = 1.0;
	if (spec.on && st.itl > 0) {
		struct cb_in in0 = in;
		struct cb_state s0;
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
		steady(&in0, (double)sc->batch, &s0);
		out->spec_speedup = s0.itl / st.itl;
	}

	/* the SLA: the most users whose TTFT and time between tokens stay within the targets
	 * (both grow with the users: doubling, then bisection) */
	out->sla_concurrency = 0.0;
	out->sla_tokens_per_s_gpu = 0.0;
	out->sla_rate = 0.0;
	out->slo_percentile = sc->slo_percentile;
	if ((sc->ttft_slo > 0 || sc->tpot_slo > 0) && sc->slo_percentile != ENGINE_SLO_MEAN)
		sla_open(sc, &in, gpus_replica, out);
	else if (sc->ttft_slo > 0 || sc->tpot_slo > 0) {
		double lo = 0.0, hi = 1.0;
		struct cb_state s2;
#define MEETS(u) (steady(&in, (u), &s2), (sc->ttft_slo <= 0 || s2.ttft <= sc->ttft_slo) && \
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
			steady(&in, lo, &s2);
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
			struct cb_state s3;
			steady(&in, isfinite(in.cap) ? in.cap : (double)sc->batch, &s3);
			per = s3.x;
		}
		out->sizing_rate_replica = per > 0 && isfinite(per) ? per : 0.0;
		if (out->sizing_rate_replica > 0) {
			/* the count, not a fraction of one: 1e-9 spares a quotient that is whole in exact arithmetic */
			out->sizing_replicas = ceil(sc->target_rate / out->sizing_rate_replica - 1e-9);
			out->sizing_gpus = out->sizing_replicas * gpus_replica;
		}
	}
}
