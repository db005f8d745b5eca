/*
 * An open load: requests arrive at one replica at λ a second (Poisson), as MLPerf
 * Inference's Server scenario and SGLang's and vLLM's bench_serving at a request rate send
 * them, rather than a fixed number of users each waiting for its last answer (serve_steady.c's
 * closed loop). The requests in the replica are then a birth–death process.
 *
 * Sources:
 *  - The birth–death process and its stationary distribution: with births at λ and deaths at
 *    X(n) in state n, p(n) = p(0) Π_{k=1..n} λ ÷ X(k), normalised to 1, and it exists when
 *    the sum converges (Kleinrock 1975, Queueing Systems vol. 1, §3.1 eq. 3.11 and §3.2).
 *  - A server whose completion rate depends on the jobs it holds: the state-dependent
 *    (processor-sharing) queue whose X(n) is the closed system's throughput at n jobs
 *    (Harchol-Balter 2013, Performance Modeling and Design of Computer Systems, ch. 22 on
 *    processor sharing and ch. 16 on flow-equivalent servers): here X(n) is serve_steady.c's
 *    steady state at n users, the requests the engine completes a second with n in it.
 *  - An engine admits at most `limit` requests (the KV cache's sequences, max_num_seqs); the
 *    rest wait outside and completions stay at X(limit): from there the tail is geometric,
 *    p(limit + j) = p(limit) ρ^j with ρ = λ ÷ X(limit), summed in closed form; λ ≥ X(limit)
 *    has no stationary distribution (saturated).
 *  - Little's law (Little 1961): mean requests in the system L = λ W, and outside the engine
 *    L_q = λ W_q, so W = L ÷ λ and the mean wait before admission W_q = L_q ÷ λ.
 *  - An arrival sees the stationary state (PASTA: Poisson arrivals see time averages,
 *    Wolff 1982): one that finds n requests joins a state of min(n + 1, limit) in the engine,
 *    whose first token takes that state's TTFT after the wait.
 *  - The time between tokens is averaged over the tokens: each state's ITL weighted by the
 *    decode tokens it produces a second, p(n) × decoding(n) ÷ ITL(n); the median gap is the
 *    median of the gaps' law over the same weights (below, serve_pct.c).
 *  - The percentiles (serve_pct.c): the TTFT over the arrivals, by PASTA the mixture over
 *    p(n) of each joined state's law (uniform over the step under way around its mean) and,
 *    for the arrivals that find the engine full, P_w = Σ_{j≥0} p(limit + j), an exponential
 *    wait of rate X(limit) − λ before it (the M/M/1 tail's waiting time; its mean times P_w
 *    is W_q above, so the law's mean is the reported TTFT), and with prompt_cv a mixture over
 *    the prompts' lengths, each scaling the prompt's own chunks (the mean kept); the gap between tokens over the
 *    tokens, each state's two step kinds weighted as itl is; a request's TPOT over the
 *    requests, each state's mean gap weighted by p(n) × decoding(n) (the state frozen over
 *    a request's life: an approximation, serve_pct.c).
 *
 * The cost is bounded: X(n) and the other figures are evaluated at n = 1..16 and then on a
 * geometric grid (×1.0625) and interpolated linearly between grid points; the sum stops
 * where a state's weight falls below 1e-12 of the largest on the falling side, and at 2^20
 * states at most. No allocation: the weights are kept in the log domain, the sums rescaled.
 */
#include <math.h>
#include <string.h>

#include "serve_internal.h"

#define OPEN_TAIL 27.631021115928547 /* ln 1e12: a weight this far below the largest ends the sum */
#define OPEN_MAX_STATES 1048576.0

/* Linear interpolation of a state's figures between two grid points. */
static void lerp(const struct eng_bd_state *a, double na, const struct eng_bd_state *b, double nb, double n,
		 struct eng_bd_state *o)
{
	double t = nb > na ? (n - na) / (nb - na) : 0.0;

	o->x = a->x + t * (b->x - a->x);
	o->ttft = a->ttft + t * (b->ttft - a->ttft);
	o->itl = a->itl + t * (b->itl - a->itl);
	o->decoding = a->decoding + t * (b->decoding - a->decoding);
	o->queue = a->queue + t * (b->queue - a->queue);
	o->phase = a->phase + t * (b->phase - a->phase);
	o->prefill = a->prefill + t * (b->prefill - a->prefill);
	o->gap_lo = a->gap_lo + t * (b->gap_lo - a->gap_lo);
	o->gap_hi = a->gap_hi + t * (b->gap_hi - a->gap_hi);
	o->gap_hi_share = a->gap_hi_share + t * (b->gap_hi_share - a->gap_hi_share);
	o->dec_step = a->dec_step + t * (b->dec_step - a->dec_step);
	/* the share that keeps the interpolated mean gap (a product of two lines is not one) */
	if (o->gap_hi > o->gap_lo && o->itl > 0)
		o->gap_hi_share = eng_min(1.0, eng_max(0.0, (o->itl - o->gap_lo) / (o->gap_hi - o->gap_lo)));
}

/* a state's parts of the laws: its arrivals' TTFT (log weight la), its tokens' gaps and its
 * requests' TPOT (log weight lw, the state's own) */
static void laws_add(struct eng_bd_laws *l, double la, double lw, const struct eng_bd_state *s)
{
	eng_mix_add_spread(&l->ttft, la, s->ttft, s->prefill, s->phase);
	if (s->itl > 0 && s->decoding > 0) {
		double lt = lw + log(s->decoding / s->itl), sh = eng_min(eng_max(s->gap_hi_share, 0.0), 1.0);
		eng_mix_add(&l->gap_lo, sh < 1.0 ? lt + log1p(-sh) : -INFINITY, s->gap_lo, 0.0);
		eng_mix_add(&l->gap_hi, sh > 0.0 ? lt + log(sh) : -INFINITY, s->gap_hi, 0.0);
		eng_mix_add(&l->tpot, lw + log(s->decoding), s->itl, 0.0);
	}
}

static void laws_pct(struct eng_bd_laws *l, struct eng_pct *p)
{
	const struct eng_mix *ttft[1] = {&l->ttft}, *gaps[2] = {&l->gap_lo, &l->gap_hi}, *tpot[1] = {&l->tpot};
	double one = 1.0, llo, lhi, top;

	eng_mix_finish(&l->ttft);
	eng_mix_finish(&l->tpot);
	llo = eng_mix_finish(&l->gap_lo);
	lhi = eng_mix_finish(&l->gap_hi);
	/* the two step kinds' shares of the tokens */
	top = eng_max(llo, lhi);
	l->gap_share[0] = l->gap_share[1] = 0.0;
	if (top > -INFINITY) {
		double a = exp(llo - top), b = exp(lhi - top);
		l->gap_share[0] = a / (a + b);
		l->gap_share[1] = b / (a + b);
	}
	eng_mix_quantiles(ttft, &one, 1, eng_pct_q, 3, p->ttft);
	eng_mix_quantiles(gaps, l->gap_share, 2, eng_pct_q, 3, p->itl);
	eng_mix_quantiles(tpot, &one, 1, eng_pct_q, 3, p->tpot);
}

static double next_grid(double g, double ratio, double limit)
{
	double n = g < 16.0 || ratio <= 1.0 ? g + 1.0 : eng_max(g + 1.0, floor(g * ratio));
	return eng_min(n, limit);
}

void eng_open_solve(double lambda, double limit, double grid_ratio, eng_bd_fn fn, void *ctx, const struct eng_plen *plen,
		    struct eng_bd_result *out, struct eng_bd_laws *laws)
{
	struct eng_bd_laws local;
	struct eng_bd_state glo, ghi, s, top;
	double nlo = 1.0, nhi, n, logw = 0.0, logmax = 0.0, rho, q = 0.0, wprev;
	/* the sums, each scaled by exp(−logmax): weight, n × weight, TTFT, decode tokens/s, decoding, queue */
	double sw = 0.0, sn = 0.0, st = 0.0, sd = 0.0, sdd = 0.0, sq = 0.0, sm = 0.0;
	double lwprev = 0.0; /* log p(n − 1), unscaled, for the laws */
	bool tail_reached = true;
	int64_t i;

	memset(out, 0, sizeof *out);
	if (!laws)
		laws = &local;
	eng_mix_init(&laws->ttft);
	eng_mix_init(&laws->gap_lo);
	eng_mix_init(&laws->gap_hi);
	eng_mix_init(&laws->tpot);
	laws->ttft.plen = plen && plen->n > 1 ? plen : NULL;
	if (!(limit >= 1.0) || limit > OPEN_MAX_STATES)
		limit = OPEN_MAX_STATES;
	limit = floor(limit);
	fn(ctx, limit, &top);
	out->limit = limit;
	out->max_rate = top.x;
	if (!(lambda > 0) || !(top.x > lambda)) {
		out->stable = false;
		return;
	}
	out->stable = true;
	fn(ctx, 1.0, &glo);
	nhi = next_grid(1.0, grid_ratio, limit);
	if (nhi > 1.0)
		fn(ctx, nhi, &ghi);
	else
		ghi = glo;
	/* state 0: weight 1, nothing decoding. An arrival that finds n − 1 joins state n: its
	 * TTFT is state n's, weighted by p(n − 1) (wprev); at the limit it waits, then joins it */
	sw = 1.0;
	wprev = 1.0;
	out->states = 1;
	for (i = 1; i <= (int64_t)limit; i++) {
		double w;
		n = (double)i;
		if (n > nhi) {
			nlo = nhi;
			glo = ghi;
			nhi = next_grid(nhi, grid_ratio, limit);
			fn(ctx, nhi, &ghi);
		}
		if (n == nlo)
			s = glo;
		else if (n == nhi)
			s = ghi;
		else
			lerp(&glo, nlo, &ghi, nhi, n, &s);
		if (!(s.x > 0)) {
			out->stable = false;
			return;
		}
		logw += log(lambda / s.x);
		if (logw > logmax) {
			double f = exp(logmax - logw);
			sw *= f, sn *= f, st *= f, sd *= f, sdd *= f, sq *= f, sm *= f, wprev *= f;
			logmax = logw;
		}
		w = exp(logw - logmax);
		laws_add(laws, lwprev, logw, &s);
		lwprev = logw;
		st += wprev * s.ttft;
		sq += wprev * s.queue;
		sw += w;
		sn += n * w;
		sm += n * w;
		if (s.itl > 0) {
			sd += w * s.decoding / s.itl;
			sdd += w * s.decoding;
		}
		wprev = w;
		out->states++;
		if (n >= limit)
			break;
		/* past the mode and negligible: the rest adds nothing the doubles hold */
		if (lambda < s.x && logw < logmax - OPEN_TAIL) {
			tail_reached = false;
			break;
		}
	}
	/* the geometric tail beyond the limit: p(limit + j) = p(limit) ρ^j, j ≥ 1 */
	rho = lambda / top.x;
	if (tail_reached) {
		double wl = wprev, tail = wl * rho / (1.0 - rho); /* Σ_{j≥1} ρ^j */
		q = wl * rho / ((1.0 - rho) * (1.0 - rho));        /* Σ_{j≥1} j ρ^j: requests waiting outside */
		sw += tail;
		sn += limit * tail + q;
		sm += limit * tail;
		/* arrivals that find the limit or more wait, then join the limit */
		st += (wl + tail) * top.ttft;
		sq += (wl + tail) * top.queue;
		if (top.itl > 0) {
			sd += tail * top.decoding / top.itl;
			sdd += tail * top.decoding;
		}
		/* the laws: the states beyond the limit decode as the limit does; their arrivals
		 * and the limit's, Σ_{j≥0} p(limit + j), wait Exp(X(limit) − λ), then join it */
		if (rho > 0) {
			laws->ttft.tail_lw = lwprev - log1p(-rho);
			laws->ttft.tail_mu = top.x - lambda;
			laws->ttft.tail_c = top.ttft;
			laws->ttft.tail_s = top.prefill;
			laws->ttft.tail_h = top.phase;
			laws_add(laws, -INFINITY, lwprev + log(rho) - log1p(-rho), &top);
		}
	} else {
		/* arrivals that find the last state counted join the next: its weight is negligible */
		st += wprev * s.ttft;
		sq += wprev * s.queue;
		laws_add(laws, lwprev, -INFINITY, &s);
	}
	out->in_system = sn / sw;
	out->in_engine = sm / sw;
	out->busy = 1.0 - exp(-logmax) / sw; /* state 0's weight, 1 before the rescalings */
	out->waiting = q / sw;
	out->wait = out->waiting / lambda;
	out->request_seconds = out->in_system / lambda;
	out->ttft = out->wait + st / sw;
	out->queue = out->wait + sq / sw;
	out->itl = sd > 0 ? sdd / sd : 0.0;
	laws_pct(laws, &out->pct);
}
