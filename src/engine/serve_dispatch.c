/*
 * A front end that holds the arriving requests and sends them together (the `dispatch_window`
 * and `dispatch_batch` knobs): the replica then sees bursts, not serve_open.c's Poisson stream.
 *
 * Sources:
 *  - The MLPerf Inference v4.1 AMD and Dell vLLM Server harnesses (github.com/mlcommons/
 *    inference_results_v4.1, closed/AMD/code/llama2-70b-99.9/VllmFp8/sync_sut.py and
 *    closed/Dell/code/llama2-70b-99.9/VllmFp8/async_sut.py, batch_samples_loop): LoadGen's
 *    queries gather in one queue and leave as one batch once gpu_batch_size have gathered or
 *    batcher_threshold seconds have passed since the last send (send_samples), each batch to
 *    the next engine in turn (next_device_id: one vLLM a GPU, DP of them). With λ requests/s
 *    a replica and R replicas, a window W gathers λ R W requests (Poisson) and each replica
 *    receives one of every R windows: n = min(λ R W, cap) requests every n ÷ λ = R W_eff
 *    seconds, W_eff = min(W, cap ÷ (λ R)) (the cap sends a full batch before the window ends).
 *  - A request's hold: Poisson arrivals are uniform over the window they fall in (the order
 *    statistics of a Poisson process, Kleinrock 1975 §2.4), so it waits U[0, W_eff], W_eff ÷ 2
 *    on average.
 *  - The burst a request is in: a random request falls in a window of k arrivals with
 *    probability k p(k) ÷ E[K] (size-biased sampling, the inspection paradox, Kleinrock 1975
 *    §5.2); for K Poisson that is 1 + Poisson(μ). Capped: min(Poisson(μ), cap), size-biased.
 *  - The engine's time to the burst's first tokens: the step under way when it arrives (a
 *    decode step, as the engine runs only decodes between bursts: uniform, half a step on
 *    average; under multi-step scheduling the whole bundle's), then the burst's prefill.
 *    Prefill apart (vLLM V0 without chunked prefill, vllm/core/scheduler.py _schedule_prefills:
 *    whole prompts while the token budget holds them): ⌊budget ÷ prompt⌋ prompts a prefill
 *    step, each request's first token at the end of its step. Mixed chunked prefill: the
 *    burst's tokens through the budget's room (budget − the decodes) of successive mixed
 *    steps, FCFS, request i's first token at the end of the step that holds its last token.
 *  - The same prompts are prefilled a second, in fewer and larger steps. Mixed chunked
 *    prefill: the burst's tokens ride the decode steps' room chunk by chunk as the engine's
 *    own prompts do, so X(n) and the mean time between tokens stay the engine's. Prefill
 *    apart: a burst's prompts share each prefill step's weight reads (one step of 22 prompts,
 *    not 22 steps of one), so the replica's prefill time a request is the bursts' (Σ p(k)
 *    whole(k) ÷ Σ k p(k)), not the engine's own prompt steps: with 1 ÷ X = (g − 1) t_dec ÷
 *    (d E) + a (users_apart, serve_steady.c: a request's share of the decode steps and its
 *    prefill a), a takes the bursts' figure, and X and the mean gap, d ÷ ((g − 1) X), follow.
 *    The burst's steps pause the decodes in one long gap: the gaps' law keeps the mean and
 *    takes that gap as its long one (serve_pct.c).
 *
 * Approximations (docs/serving-validation.md, "The harness batcher"): every prompt the mean
 * in the burst's steps (prompt_cv scales the request's own share only); the burst's mixed steps
 * at the decodes of the mean state; a state's TTFT law one uniform with the mean and the
 * variance of the hold, the step under way and the burst's prefill (independent parts); the
 * dispatcher's window is the threshold itself (its loop checks at every arrival, so within
 * one inter-arrival time of it).
 */
#include <math.h>
#include <string.h>

#include "serve_internal.h"

#define DISPATCH_TAIL 1e-9 /* a burst size whose Poisson weight falls below this is left out */
#define DISPATCH_WHOLE 2000.0 /* a window's mean arrivals past which the burst is taken at its mean */

/* The request-mean and second moment of the time from a burst of k prompts reaching the
 * engine to each one's first token, and the burst's whole prefill. tf: a full step's time. */
static void burst_times(const struct eng_cb_in *in, const struct eng_dispatch *dp, double k, double per, double tf,
			double *mean, double *m2, double *whole)
{
	double P = in->fresh, keys = in->prefix + P / 2.0 + 0.5, ctx = in->prompt + in->gen / 2.0;
	struct eng_serve_step s;
	double sum = 0.0, sq = 0.0, steps, last, tr;

	if (dp->apart) {
		/* ⌊budget ÷ P⌋ whole prompts a step (per); the last step the rest */
		steps = ceil(k / per);
		last = k - (steps - 1.0) * per;
		eng_serve_step_time(&in->ctx, last * P, keys, 0.0, ctx, &s);
		tr = s.seconds;
		/* steps 1 … steps − 1 hold per requests each, finishing at j tf */
		sum = per * tf * (steps - 1.0) * steps / 2.0;
		sq = per * tf * tf * (steps - 1.0) * steps * (2.0 * steps - 1.0) / 6.0;
		*whole = (steps - 1.0) * tf + tr;
		sum += last * *whole;
		sq += last * *whole * *whole;
	} else {
		/* per: the room of a mixed step (prompt tokens beside the decodes) */
		double T = k * P, draft = eng_spec_draft_seconds(in->spec, dp->decoding, ctx);
		steps = ceil(T / per);
		eng_serve_step_time(&in->ctx, T - (steps - 1.0) * per, keys, dp->decoding, ctx, &s);
		tr = s.seconds + draft;
		*whole = (steps - 1.0) * tf + tr;
		if (eng_min(k, steps) > 4096.0) {
			/* a burst this large: its requests end evenly over the steps */
			*mean = 0.5 * (steps + 1.0) * tf;
			*m2 = tf * tf * (steps + 1.0) * (2.0 * steps + 1.0) / 6.0;
			return;
		}
		if (k <= steps) {
			int64_t i, nk = (int64_t)k;
			for (i = 1; i <= nk; i++) {
				double j = ceil((double)i * P / per - 1e-9), t = j >= steps ? *whole : j * tf;
				sum += t;
				sq += t * t;
			}
		} else {
			/* fewer steps than requests: step j ends the requests whose last token it holds */
			double done = 0.0;
			int64_t j, ns = (int64_t)steps;
			for (j = 1; j <= ns; j++) {
				double upto = j >= ns ? k : eng_min(k, floor((double)j * per / P + 1e-9));
				double t = j >= ns ? *whole : (double)j * tf;
				sum += (upto - done) * t;
				sq += (upto - done) * t * t;
				done = upto;
			}
		}
	}
	*mean = sum / k;
	*m2 = sq / k;
}

/* The dispatcher at λ: its window, its bursts, and over the requests (size-biased) the
 * burst's prefill to their first tokens, its mean and variance. */
static void dispatch_init(const struct engine_scenario *sc, const struct eng_cb_in *in, double replicas, double lambda,
			  double decoding, struct eng_dispatch *dp)
{
	double W = sc->dispatch_window, R = eng_max(replicas, 1.0), P = in->fresh;
	double per, tf, kmax, k, lp, wsum = 0.0, ksum = 0.0, s1 = 0.0, s2 = 0.0, own = 0.0, whole = 0.0, below = 0.0;
	double keys = in->prefix + P / 2.0 + 0.5, ctx = in->prompt + in->gen / 2.0;
	struct eng_serve_step s;
	int64_t ik;

	memset(dp, 0, sizeof *dp);
	dp->replicas = R;
	dp->cap = sc->dispatch_batch > 0 ? (double)sc->dispatch_batch : INFINITY;
	dp->apart = in->apart;
	dp->sched = in->sched_steps > 1.0 ? in->sched_steps : 1.0;
	dp->E = in->spec->tokens > 0 ? in->spec->tokens : 1.0;
	if (!(W > 0) || !(lambda > 0))
		return;
	dp->on = true;
	dp->mu = lambda * R * W;
	dp->window = isfinite(dp->cap) ? eng_min(W, dp->cap / (lambda * R)) : W;
	dp->burst = eng_min(dp->mu, dp->cap);
	dp->period = dp->burst / lambda;
	dp->hold = dp->window / 2.0;
	dp->decoding = in->apart ? 0.0 : decoding;
	/* a full step: ⌊budget ÷ P⌋ whole prompts apart, the room beside the decodes mixed */
	if (in->apart) {
		per = in->budget > 0 ? eng_max(1.0, floor(in->budget / P)) : INFINITY;
		if (!isfinite(per))
			per = eng_max(1.0, ceil(dp->mu + 12.0 * sqrt(dp->mu) + 12.0));
		eng_serve_step_time(&in->ctx, per * P, keys, 0.0, ctx, &s);
		tf = s.seconds;
	} else {
		per = in->budget > 0 ? eng_max(1.0, in->budget - dp->decoding * in->spec->verify) : INFINITY;
		if (!isfinite(per))
			per = P * eng_max(1.0, ceil(dp->mu + 12.0 * sqrt(dp->mu) + 12.0));
		eng_serve_step_time(&in->ctx, per, keys, dp->decoding, ctx, &s);
		tf = s.seconds + eng_spec_draft_seconds(in->spec, dp->decoding, ctx);
	}
	/* K ~ Poisson(μ), min(K, cap): each size k ≥ 1 weighted by k p(k) for the requests (the
	 * size-biased law) and by p(k) for the dispatches; the mass at and past the cap at it */
	kmax = ceil(dp->mu + 12.0 * sqrt(dp->mu) + 12.0);
	if (isfinite(dp->cap))
		kmax = eng_min(kmax, dp->cap);
	/* the sizes within 12 standard deviations of μ (below them nothing a double holds); past
	 * DISPATCH_WHOLE a window's arrivals the burst is its mean, whole (its spread, √μ ÷ μ, under
	 * 2.3%; summing thousands of sizes there would cost the explorer a visible pause) */
	k = eng_min(kmax, eng_max(1.0, floor(dp->mu - 12.0 * sqrt(dp->mu) - 12.0)));
	if (dp->mu > DISPATCH_WHOLE)
		k = kmax = eng_max(1.0, floor(dp->burst + 0.5));
	for (ik = (int64_t)k; ik <= (int64_t)kmax; ik++) {
		double p, mean, m2, wh;
		k = (double)ik;
		lp = -dp->mu + k * log(dp->mu) - lgamma(k + 1.0);
		p = dp->mu > DISPATCH_WHOLE ? 1.0 : exp(lp);
		if (k == kmax && isfinite(dp->cap) && kmax == dp->cap && dp->mu <= DISPATCH_WHOLE)
			p = eng_max(0.0, 1.0 - exp(-dp->mu) - below); /* P(K ≥ cap) */
		below += p;
		if (!(p >= DISPATCH_TAIL))
			continue;
		burst_times(in, dp, k, per, tf, &mean, &m2, &wh);
		wsum += p;
		ksum += k * p;
		s1 += k * p * mean;
		s2 += k * p * m2;
		whole += p * wh;
		own += k * p * mean / k; /* the request's own prompt: 1 of the burst's k */
	}
	if (ksum > 0) {
		dp->per_request = whole / ksum; /* Σ p whole ÷ Σ k p, the empty windows' nothing included */
		dp->prefill = s1 / ksum;
		dp->prefill_var = eng_max(0.0, s2 / ksum - dp->prefill * dp->prefill);
		dp->own = own / ksum;
		dp->whole = whole / wsum;
	}
}

struct dispatch_ctx {
	eng_bd_fn fn;
	void *ctx;
	const struct eng_dispatch *dp;
};

/* a state n of the open load: the engine's rates and mean gap, the burst's TTFT */
static void dispatch_state(void *ctx, double n, struct eng_bd_state *o)
{
	const struct dispatch_ctx *c = ctx;
	const struct eng_dispatch *dp = c->dp;
	double res;

	c->fn(c->ctx, n, o);
	/* the step under way when the burst arrives: a decode step (a bundle of sched of them),
	 * uniform, half of it on average */
	res = 0.5 * dp->sched * o->dec_step;
	o->ttft = dp->hold + res + dp->prefill;
	o->queue = dp->hold;
	/* one uniform of the three parts' mean and variance: U[0, W_eff] has variance W_eff² ÷ 12
	 * = hold² ÷ 3, the step's res² ÷ 3, a uniform of half-width h h² ÷ 3 */
	o->phase = sqrt(dp->hold * dp->hold + res * res + 3.0 * dp->prefill_var);
	o->prefill = dp->own;
	/* prefill apart: the replica's time a request is its share of the decode steps, gm1 t_dec
	 * ÷ (d E), and its prefill, a (users_apart: 1 ÷ X = gm1 t_dec ÷ (d E) + a, a the prefill
	 * steps' time a request, (step − t_dec) ÷ (X step)). The bursts prefill the same prompts
	 * in fewer, larger steps, which read the weights once for many prompts: a becomes the
	 * bursts' seconds a request, and X and the gap (d ÷ (gm1 X): ITL × X_old ÷ X) follow.
	 * Never more than the engine's own a: bursts that come faster than its steps (a window
	 * of microseconds, a cap of one) wait together for the next prefill step, as lone
	 * arrivals do, so the engine groups them at least as well as it groups its own */
	if (dp->apart && o->x > 0 && o->itl > 0 && o->decoding > 0 && dp->per_request > 0) {
		double step = o->itl * dp->E, a = eng_max((step - o->dec_step) / (o->x * step), 0.0);
		double inv = 1.0 / o->x - a + eng_min(a, dp->per_request);
		if (inv > 0) {
			o->itl *= o->x * inv;
			o->x = 1.0 / inv;
		}
	}
	/* prefill apart: the burst's steps pause the decodes in one gap of a decode step and the
	 * whole burst; the share of such gaps keeps the engine's mean */
	if (dp->apart && o->itl > 0 && o->decoding > 0) {
		o->gap_lo = o->dec_step / dp->E;
		o->gap_hi = (o->dec_step + dp->whole) / dp->E;
		o->gap_hi_share = o->gap_hi > o->gap_lo
					  ? eng_min(1.0, eng_max(0.0, (o->itl - o->gap_lo) / (o->gap_hi - o->gap_lo)))
					  : 0.0;
	}
}

void eng_dispatch_solve(const struct engine_scenario *sc, const struct eng_cb_in *in, double replicas, double lambda,
			eng_bd_fn fn, void *ctx, struct eng_bd_result *r, struct eng_dispatch *dp)
{
	struct eng_dispatch local;
	struct dispatch_ctx c;
	double d = 0.0;

	if (!dp)
		dp = &local;
	eng_open_solve(lambda, in->cap, ENG_OPEN_GRID, fn, ctx, &in->plen, r, NULL);
	if (!(sc->dispatch_window > 0) || !(replicas > 0) || !r->stable) {
		dispatch_init(sc, in, replicas, 0.0, 0.0, dp);
		return;
	}
	/* mixed prefill: the burst's steps carry the decodes of the mean state */
	if (!in->apart) {
		struct eng_cb_state st;
		eng_cb_steady(in, eng_max(1.0, r->in_engine), &st);
		d = st.decoding;
	}
	dispatch_init(sc, in, replicas, lambda, d, dp);
	c.fn = fn;
	c.ctx = ctx;
	c.dp = dp;
	eng_open_solve(lambda, in->cap, ENG_OPEN_GRID, dispatch_state, &c, &in->plen, r, NULL);
}
