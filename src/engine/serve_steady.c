/*
 * The steady state of continuous batching at a concurrency of n users a replica (serving.c's
 * eng_serve reads it at `batch` users, serve_open.c at every state of an open load, the SLA
 * searches at many): the step's make-up, TTFT, the time between tokens and the throughput.
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

/* The step that carries a prompt's last chunk. Prompts join the steps at random (Poisson
 * arrivals, r a step on average): the steps a given prompt rides are size-biased, so its own
 * step carries the other prompts' average besides its own tokens, 1 + r prompts where the
 * average step carries r (for a Poisson count N, E[N²] ÷ E[N] = 1 + E[N]: the inspection
 * paradox, Feller 1971, vol. II §I.4; Kleinrock 1975 §5.2), up to the budget's room. Its
 * prefill tokens: the last chunk, P − (⌈P ÷ c⌉ − 1) c, plus pbar, at least the average
 * step's carry and at most the room. */
static double own_carry(double P, double c, double carry, double pbar, double room)
{
	double k = ceil(P / eng_max(c, 1.0)), last = P - (k - 1.0) * eng_max(c, 1.0);

	return eng_max(carry, eng_min(room, last + pbar));
}

/* users_for's engines that prefill apart (SGLang; vLLM V0 without chunked prefill): between two decode steps the engine runs
 * n_p = pbar ÷ carry prefill steps of `carry` tokens, each pausing the decodes, so a decoding
 * sequence waits t_dec + n_p × t_pre for its next token. The prefill steps are a server busy
 * ρ = n_p t_pre ÷ that time, which runs first whenever a prompt waits: a new prompt waits for
 * the prompts ahead of it (M/D/1, Kleinrock 1975 §5.7, with a prefill step's service) and
 * for the step under way, half a step, then its own ⌈prompt ÷ chunk⌉ prefill steps. */
static double users_apart(const struct eng_cb_in *in, double d, double r, double pbar, double c, double carry,
			  const struct eng_serve_step *pre, const struct eng_serve_step *dec, double draft,
			  struct eng_cb_state *st)
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
	/* under multi-step scheduling a new prompt also waits out the running bundle, (k − 1)/2
	 * decode steps on average (vLLM V0 schedules a prefill only between bundles): the TTFT
	 * holds the phase once, so the residual joins the phase alone, its spread uniform too */
	if (in->sched_steps > 1.0 && d > 0)
		st->phase += 0.5 * (in->sched_steps - 1.0) * st->t_dec;
	{
		/* the prompt's last prefill step carries the others that joined it (own_carry) */
		double x = own_carry(P, c, carry, pbar, in->budget > 0 ? in->budget : INFINITY), t_own = st->t_mix;
		if (x > carry + 0.5) {
			struct eng_serve_step own;
			eng_serve_step_time(&in->ctx, x, in->prefix + P / 2.0 + 0.5, 0.0, in->prompt + in->gen / 2.0, &own);
			t_own = own.seconds;
		}
		st->t_own = t_own;
		st->ttft = (ceil(P / eng_max(c, 1.0)) - 1.0) * st->t_mix + t_own + st->queue + st->phase;
	}
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
static double users_for(const struct eng_cb_in *in, double d, struct eng_cb_state *st)
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
	/* the prompt's last chunk rides a step with the others that joined it (own_carry): the
	 * mixed step's prompt time, t_mix − t_dec, grows with its prompt tokens */
	{
		double x = own_carry(P, c, carry, pbar, room);
		double t_own = st->t_mix + (carry > 0 ? (x - carry) / carry * eng_max(st->t_mix - st->t_dec, 0.0) : 0.0);
		st->t_own = t_own;
		st->ttft = (ceil(P / eng_max(c, 1.0)) - 1.0) * st->t_mix + t_own + st->queue + 0.5 * step;
	}
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
 * a prompt's chunk count changes. A bracketing root finder (Dekker's safeguarded secant,
 * as Brent 1973, Algorithms for Minimization without Derivatives, ch. 4, keeps it): the
 * secant through the last two trials where it falls inside the bracket, else the Illinois
 * variant of regula falsi (Dowell and Jarratt 1971, BIT 11: the retained end's value halved
 * when the same end is kept twice), and a bisection step whenever two steps have neither
 * halved the bracket nor halved the residual |users − n|, so a jump costs no more than
 * bisection. Where users_for is smooth the trials land within about 1e-6, 1e-10 and 1e-16
 * of n: the first two from the same side, which leaves the bracket as wide as it was (the
 * residual's fall tells convergence from a jump), and the secant then converges where
 * regula falsi would keep the far end (and Illinois, halving it, overshoot to the root's
 * mirror image). It returns a d whose users are within 1e-12 of n, or the bracket's low end
 * (users_for < n) once the bracket is 1e-10 of hi, at a jump; if even hi gives fewer than n
 * users (the budget's bound), hi. Either way the figures move by less than 1e-9 from an
 * exact root (users_for rises at least one user a decoding sequence). st is left at the
 * last d evaluated, *at, whose users are *u_at: the caller reads the state there rather
 * than evaluate the same d again (users_for is a pure function of d). */
static double solve_decoding(const struct eng_cb_in *in, double n, double hi, struct eng_cb_state *st, double *at,
			     double *u_at)
{
	double lo = 0.0, flo = -n, fhi, w2 = INFINITY, w1 = INFINITY, a2 = INFINITY, a1 = INFINITY;
	double xp, fp, xl, fl; /* the trials before last and last, and their residuals */
	int kept = 0, it;

	*at = hi;
	*u_at = users_for(in, hi, st);
	fhi = *u_at - n;
	if (fhi < 0)
		return hi;
	xp = lo, fp = flo, xl = hi, fl = fhi;
	for (it = 0; it < 200 && hi - lo > 1e-10 * hi; it++) {
		double x = lo - flo * (hi - lo) / (fhi - flo), fx;
		if (it > 0 && fl != fp) {
			double sx = xl - fl * (xl - xp) / (fl - fp);
			if (sx > lo && sx < hi)
				x = sx;
		}
		/* the bracket two steps ago (w2) not halved since, nor the residual (a2): bisect */
		if ((hi - lo > 0.5 * w2 && !(a1 < 0.5 * a2)) || !(x > lo && x < hi))
			x = 0.5 * (lo + hi);
		w2 = w1;
		w1 = hi - lo;
		*at = x;
		*u_at = users_for(in, x, st);
		fx = *u_at - n;
		if (fabs(fx) <= 1e-12 * n)
			return x;
		a2 = a1;
		a1 = fabs(fx);
		xp = xl, fp = fl, xl = x, fl = fx;
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

void eng_cb_steady(const struct eng_cb_in *in, double users, struct eng_cb_state *st)
{
	double n = eng_min(users, in->cap), lo, hi, u, at, u_at, gm1 = in->gen - 1.0;

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
		st->t_mix = st->t_dec = st->t_own = mix.seconds;
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
		lo = solve_decoding(in, n, hi, st, &at, &u_at);
		if (!(lo > 0))
			lo = hi;
		u = lo == at ? u_at : users_for(in, lo, st);
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
void eng_cb_open_state(void *ctx, double n, struct eng_bd_state *o)
{
	struct eng_cb_state st;

	eng_cb_steady((const struct eng_cb_in *)ctx, n, &st);
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
	o->dec_step = st.t_dec;
}

/* a closed state's percentiles (serve_pct.c): the phase of the step and the step kinds */
void eng_cb_closed_pct(const struct eng_cb_state *st, const struct eng_plen *plen, struct eng_pct *p)
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
	eng_pct_state(&o, plen, p);
}
