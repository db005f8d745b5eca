/*
 * The open load (serve_open.c): the birth–death solution against the closed forms of the
 * queues it contains, a rate of 0 leaving the closed loop's results as they were, and the
 * memory's KV cache and the roofline's decode step at the sequences the engine holds.
 *
 * Sources: the M/M/1 queue, L = ρ ÷ (1 − ρ) (Kleinrock 1975, Queueing Systems vol. 1,
 * §3.2 eq. 3.24); the M/M/c queue, Erlang's C formula for the chance of waiting and
 * W_q = C ÷ (cμ − λ) (Kleinrock 1975, §3.5 eq. 3.40-3.41); processor sharing with a constant
 * rate has the M/M/1 queue's L (Harchol-Balter 2013, ch. 22). The percentiles (serve_pct.c):
 * the M/M/1 waiting time's law, P(W_q > t) = ρ e^{−μ(1−ρ)t} (Kleinrock 1975, §3.2 eq. 3.28),
 * and the M/M/c one's, P(W_q > t) = C e^{−(cμ−λ)t} (Kleinrock 1975, §3.5; Harchol-Balter
 * 2013, ch. 14); a uniform law's quantiles; and the laws' means against the means the solve
 * reports.
 */
#include <math.h>
#include <string.h>

#include "engine.h"
#include "serve_internal.h"
#include "testengine.h"
#include "testutil.h"

struct fixed {
	double mu;   /* each server's rate */
	double c;    /* servers: X(n) = min(n, c) μ (INFINITY: n μ) */
	double ttft, itl;
	int calls;
};

static void fixed_state(void *ctx, double n, struct eng_bd_state *o)
{
	struct fixed *f = ctx;
	f->calls++;
	memset(o, 0, sizeof *o);
	o->x = eng_min(n, f->c) * f->mu;
	o->ttft = f->ttft;
	o->itl = f->itl;
	o->decoding = n;
	o->queue = 0.0;
	o->gap_lo = o->gap_hi = f->itl;
}

static double erlang_c(double c, double a)
{
	double term = 1.0, sum = 0.0, k, top;
	for (k = 0; k < c; k++) {
		sum += term;
		term *= a / (k + 1.0);
	}
	top = term * c / (c - a); /* a^c ÷ c! × c ÷ (c − a) */
	return top / (sum + top);
}

static void test_mm1(void **state)
{
	struct fixed f = {2.0, 1.0, 0.05, 0.01, 0};
	struct eng_bd_result r;
	double lambda = 1.5, rho = lambda / f.mu;

	(void)state;
	eng_open_solve(lambda, 1.0, 1.0, fixed_state, &f, NULL, &r, NULL);
	assert_true(r.stable);
	assert_true(fabs(r.in_system - rho / (1.0 - rho)) < 1e-9);
	assert_true(fabs(r.request_seconds - 1.0 / (f.mu - lambda)) < 1e-9);
	assert_true(fabs(r.wait - rho / (f.mu - lambda)) < 1e-9);
	assert_true(fabs(r.ttft - (r.wait + f.ttft)) < 1e-9);
	assert_true(fabs(r.itl - f.itl) < 1e-12);
	/* processor sharing at a constant rate, every request admitted: the same L */
	eng_open_solve(lambda, 4096.0, ENG_OPEN_GRID, fixed_state, &f, NULL, &r, NULL);
	assert_true(r.stable);
	assert_true(fabs(r.in_system - rho / (1.0 - rho)) < 1e-6);
	assert_true(r.wait < 1e-9);
}

static void test_mmc(void **state)
{
	static const double cs[] = {8.0, 64.0, 500.0};
	size_t i;

	(void)state;
	for (i = 0; i < sizeof cs / sizeof cs[0]; i++) {
		struct fixed f = {0.5, cs[i], 0.0, 0.02, 0};
		double lambda = 0.9 * cs[i] * f.mu, a = lambda / f.mu, wq = erlang_c(cs[i], a) / (cs[i] * f.mu - lambda);
		struct eng_bd_result r, g;
		eng_open_solve(lambda, cs[i], 1.0, fixed_state, &f, NULL, &r, NULL);
		assert_true(r.stable);
		assert_true(fabs(r.wait - wq) < 1e-9 * eng_max(1.0, wq));
		assert_true(fabs(r.in_system - (lambda * wq + a)) < 1e-7 * r.in_system);
		assert_true(fabs(r.in_engine - (r.in_system - r.waiting)) < 1e-9 * r.in_system);
		/* the geometric grid interpolates a linear X(n) exactly, with far fewer calls */
		f.calls = 0;
		eng_open_solve(lambda, cs[i], ENG_OPEN_GRID, fixed_state, &f, NULL, &g, NULL);
		assert_true(fabs(g.wait - wq) < 1e-9 * eng_max(1.0, wq));
		assert_true(fabs(g.in_system - r.in_system) < 1e-7 * r.in_system);
		assert_true(f.calls <= 150);
	}
}

/* the waiting time's law: M/M/1 and M/M/c, the TTFT a fixed figure after the wait */
static void test_pct_queues(void **state)
{
	static const double cs[] = {1.0, 8.0, 64.0};
	size_t i;
	int k;

	(void)state;
	for (i = 0; i < sizeof cs / sizeof cs[0]; i++) {
		struct fixed f = {2.0, cs[i], 0.05, 0.01, 0};
		double lambda = 0.9 * cs[i] * f.mu, a = lambda / f.mu;
		double cw = cs[i] == 1.0 ? lambda / f.mu : erlang_c(cs[i], a), rate = cs[i] * f.mu - lambda;
		struct eng_bd_result r;
		eng_open_solve(lambda, cs[i], ENG_OPEN_GRID, fixed_state, &f, NULL, &r, NULL);
		assert_true(r.stable);
		for (k = 0; k < 3; k++) {
			/* P(W ≤ t) = 1 − C e^{−rate t}: the q quantile log(C ÷ (1 − q)) ÷ rate once C > 1 − q */
			double q = eng_pct_q[k], t = cw > 1.0 - q ? log(cw / (1.0 - q)) / rate : 0.0;
			assert_true(fabs(r.pct.ttft[k] - (f.ttft + t)) < 1e-5 * (f.ttft + t));
			assert_true(fabs(r.pct.tpot[k] - f.itl) < 1e-7 && fabs(r.pct.itl[k] - f.itl) < 1e-7);
		}
	}
}

/* A state whose TTFT, phase and step kinds move with n, X(n) levelling off (a replica whose
 * throughput saturates), its limit past the laws' 512 parts: the TTFT law's mean, from its
 * parts and from ∫ (1 − F), is the mean TTFT the solve reports; the gap's law's mean the
 * token-weighted ITL; a uniform phase centred on a closed state's TTFT. */
static void varying_state(void *ctx, double n, struct eng_bd_state *o)
{
	(void)ctx;
	memset(o, 0, sizeof *o);
	o->x = 40.0 * n / (n + 200.0);
	o->decoding = 0.9 * n;
	o->phase = 0.01 + 0.0001 * n;
	o->ttft = 0.05 + 0.002 * n + o->phase;
	o->prefill = 0.04 + 0.001 * n; /* the prompt's chunks: scaled by its length under a spread */
	o->gap_lo = 0.02 + 0.0001 * n;
	o->gap_hi = 2.0 * o->gap_lo;
	o->gap_hi_share = 0.3 * n / (n + 50.0);
	o->itl = o->gap_lo + o->gap_hi_share * (o->gap_hi - o->gap_lo);
}

/* ∫_0^end (1 − F(t)) dt of a law of times ≥ 0, by the midpoint rule: its mean when end lies
 * far beyond the p99 */
static double survival_integral(const struct eng_mix *m, double end)
{
	double dt = end / 400000.0, sum = 0.0;
	int j;

	for (j = 0; j < 400000; j++)
		sum += (1.0 - eng_mix_cdf(m, (j + 0.5) * dt)) * dt;
	return sum;
}

static void test_pct_means(void **state)
{
	static const double limits[] = {100.0, 1500.0};
	static struct eng_bd_laws laws;
	size_t i;

	(void)state;
	for (i = 0; i < sizeof limits / sizeof limits[0]; i++) {
		struct eng_bd_result r;
		double lambda = 0.95 * 40.0 * limits[i] / (limits[i] + 200.0), integral, gap;
		eng_open_solve(lambda, limits[i], ENG_OPEN_GRID, varying_state, NULL, NULL, &r, &laws);
		assert_true(r.stable && r.wait > 0);
		assert_true(fabs(eng_mix_mean(&laws.ttft) - r.ttft) < 1e-9 * r.ttft);
		integral = survival_integral(&laws.ttft, 20.0 * r.pct.ttft[2]);
		assert_true(fabs(integral - r.ttft) < 1e-4 * r.ttft);
		assert_true(r.pct.ttft[0] < r.pct.ttft[1] && r.pct.ttft[1] < r.pct.ttft[2]);
		gap = laws.gap_share[0] * eng_mix_mean(&laws.gap_lo) + laws.gap_share[1] * eng_mix_mean(&laws.gap_hi);
		assert_true(fabs(gap - r.itl) < 1e-9 * r.itl);
		assert_true(r.pct.itl[0] <= r.pct.itl[2] && r.pct.tpot[0] <= r.pct.tpot[2]);
		assert_true(laws.ttft.per == (limits[i] > ENG_MIX_MAX ? 2 : 1) || limits[i] > 2 * ENG_MIX_MAX);
	}
	/* one state: the phase uniform around the mean */
	{
		struct eng_bd_state s;
		struct eng_pct p;
		varying_state(NULL, 10.0, &s);
		eng_pct_state(&s, NULL, &p);
		assert_true(fabs(p.ttft[0] - s.ttft) < 1e-15 && fabs(p.ttft[2] - (s.ttft + 0.98 * s.phase)) < 1e-15);
		assert_true(p.itl[0] == s.gap_lo && p.itl[2] == s.gap_hi && p.tpot[2] == s.itl);
	}
}

/* The prompts' spread (serve_pct.c): the gamma law's points keep its mean, 1, and at CV 1 it
 * is the exponential law, whose bins' means are closed forms (memoryless: the top bin's mean
 * is its lower edge plus 1, −ln 0.001 + 1 = 7.9078; the first's, (1 − (1 + x) e^−x) ÷ 0.25
 * at x = −ln 0.75, 0.13696). Spread, the TTFT's law keeps the mean TTFT the solve reports
 * (from its parts and from ∫ (1 − F)) and its p99 rises; the engine's means do not move. */
static void test_pct_spread(void **state)
{
	static const double cvs[] = {0.001, 0.01, 0.3, 0.7714, 1.0, 2.0, 10.0};
	static struct eng_bd_laws laws;
	struct eng_plen l;
	struct eng_bd_result r, flat;
	double lambda = 0.95 * 40.0 * 1500.0 / 1700.0, integral;
	size_t i;
	int j;

	(void)state;
	eng_plen_init(&l, 0.0);
	assert_true(l.n == 1 && l.r[0] == 1.0 && l.w[0] == 1.0);
	for (i = 0; i < sizeof cvs / sizeof cvs[0]; i++) {
		double m = 0.0, w = 0.0, v = 0.0;
		eng_plen_init(&l, cvs[i]);
		assert_true(l.n == ENG_PLEN_MAX);
		for (j = 0; j < l.n; j++) {
			m += l.w[j] * l.r[j], w += l.w[j], v += l.w[j] * (l.r[j] - 1.0) * (l.r[j] - 1.0);
			assert_true(j == 0 || l.r[j] > l.r[j - 1]);
		}
		assert_close(w, 1.0, 1e-15);
		assert_close(m, 1.0, 1e-12);
		/* the bins' means hold all but the spread within the bins: under 5% of the CV */
		assert_true(sqrt(v) < cvs[i] && sqrt(v) > 0.95 * cvs[i]);
	}
	eng_plen_init(&l, 1.0);
	assert_close(l.r[ENG_PLEN_MAX - 1], 1.0 - log(0.001), 1e-9);
	assert_close(l.r[0], (1.0 - (1.0 - log(0.75)) * 0.75) / 0.25, 1e-9);
	eng_plen_init(&l, 0.7714);
	eng_open_solve(lambda, 1500.0, ENG_OPEN_GRID, varying_state, NULL, NULL, &flat, &laws);
	eng_open_solve(lambda, 1500.0, ENG_OPEN_GRID, varying_state, NULL, &l, &r, &laws);
	assert_true(r.stable && r.ttft == flat.ttft);
	assert_true(fabs(eng_mix_mean(&laws.ttft) - r.ttft) < 1e-9 * r.ttft);
	integral = survival_integral(&laws.ttft, 20.0 * r.pct.ttft[2]);
	assert_true(fabs(integral - r.ttft) < 1e-4 * r.ttft);
	assert_true(r.pct.ttft[0] < r.pct.ttft[1] && r.pct.ttft[1] < r.pct.ttft[2]);
	assert_true(r.pct.ttft[2] > flat.pct.ttft[2]);
	assert_memory_equal(r.pct.tpot, flat.pct.tpot, sizeof r.pct.tpot);
	/* one state: a mixture over the points, its mean the state's TTFT */
	{
		struct eng_bd_state st;
		struct eng_pct p, p0;
		struct eng_mix mx;
		varying_state(NULL, 10.0, &st);
		eng_pct_state(&st, NULL, &p0);
		eng_pct_state(&st, &l, &p);
		assert_true(p.ttft[2] > p0.ttft[2] && p.ttft[0] < p0.ttft[0]);
		eng_mix_init(&mx);
		mx.plen = &l;
		eng_mix_add_spread(&mx, 0.0, st.ttft, st.prefill, st.phase);
		eng_mix_finish(&mx);
		assert_close(eng_mix_mean(&mx), st.ttft, 1e-12);
	}
}

static void test_saturated(void **state)
{
	struct fixed f = {1.0, 16.0, 0.0, 0.0, 0};
	struct eng_bd_result r;

	(void)state;
	eng_open_solve(16.0, 16.0, ENG_OPEN_GRID, fixed_state, &f, NULL, &r, NULL);
	assert_false(r.stable);
	assert_true(r.max_rate == 16.0 && r.limit == 16.0 && r.in_system == 0.0);
	eng_open_solve(20.0, 16.0, ENG_OPEN_GRID, fixed_state, &f, NULL, &r, NULL);
	assert_false(r.stable);
}

static void scenario(struct engine_scenario *sc)
{
	engine_scenario_default(sc);
	te_set(sc, "mode", "infer");
	te_set(sc, "engine", "vllm");
	te_set(sc, "prompt", "1024");
	te_set(sc, "generate", "256");
	te_set(sc, "batch", "32");
}

/* rate 0 is the closed loop, bit for bit; a rate is an open load on the same engine */
static void test_rate_zero(void **state)
{
	struct engine_scenario sc;
	static struct engine_result a, b, c;

	(void)state;
	scenario(&sc);
	te_evaluate(&sc, &a);
	te_set(&sc, "rate", "0");
	te_evaluate(&sc, &b);
	assert_memory_equal(&a.serving, &b.serving, sizeof a.serving);
	assert_memory_equal(&a.inference, &b.inference, sizeof a.inference);
	assert_true(a.serving.rate == 0.0 && !a.serving.rate_saturated && a.serving.in_system == 0.0);
	/* the closed loop's throughput as an open rate: a replica that sustains it, holding
	 * about as many requests (Little) and no fewer than the closed loop's users would need */
	{
		char v[32];
		snprintf(v, sizeof v, "%.17g", 0.5 * a.serving.requests_per_s);
		te_set(&sc, "rate", v);
	}
	te_evaluate(&sc, &c);
	assert_false(c.serving.rate_saturated);
	assert_true(fabs(c.serving.requests_per_s - 0.5 * a.serving.requests_per_s) < 1e-12);
	assert_true(fabs(c.serving.e2e_seconds * c.serving.requests_per_s - c.serving.in_system) < 1e-9 * c.serving.in_system);
	assert_true(c.serving.ttft_seconds > 0 && c.serving.itl_seconds > 0 && c.serving.in_system < 32.0);
	assert_true(c.serving.rate_max > a.serving.requests_per_s);
	/* beyond the most it completes: saturated, no time */
	{
		char v[32];
		snprintf(v, sizeof v, "%.17g", 2.0 * c.serving.rate_max);
		te_set(&sc, "rate", v);
	}
	te_evaluate(&sc, &c);
	assert_true(c.serving.rate_saturated && c.serving.ttft_seconds == 0.0);
	assert_true(c.serving.requests_per_s == c.serving.rate_max);
}

/* Under an open load the memory's KV cache holds the sequences the engine holds on average
 * (in_engine), its limit when saturated; batch without a rate. Llama-2-7B in bf16: K and V
 * of 32 layers × 32 heads × 128 a token, 2 × 32 × 32 × 128 × 2 B = 512 KiB (Pope et al. 2022);
 * vLLM books a sequence's blocks as they fill, a mean of 1024 + 256 / 2 = 1152 tokens (72
 * whole blocks of 16) over its life: 576 MiB a sequence, by hand. */
static void test_rate_memory(void **state)
{
	struct engine_scenario sc;
	static struct engine_result a, b;
	const double seq = 1152.0 * 524288.0;
	char v[32];

	(void)state;
	scenario(&sc);
	te_set(&sc, "model", "llama-2-7b");
	te_evaluate(&sc, &a);
	assert_float_equal(a.memory.kv_cache, 32.0 * seq, 1e-9 * seq);
	assert_true(a.memory.kv_sequences == 32.0);
	snprintf(v, sizeof v, "%.17g", 0.5 * a.serving.requests_per_s);
	te_set(&sc, "rate", v);
	te_evaluate(&sc, &b);
	assert_false(b.serving.rate_saturated);
	assert_true(b.serving.in_engine > 1.0 && b.memory.kv_sequences == b.serving.in_engine);
	assert_float_equal(b.memory.kv_cache, b.serving.in_engine * seq, 1e-9 * seq);
	/* the other parts are the closed loop's; the total moves by the KV alone */
	assert_float_equal(b.memory.total - b.memory.kv_cache, a.memory.total - a.memory.kv_cache, 1.0);
	assert_true(b.memory.headroom == b.memory.capacity - b.memory.total);
	snprintf(v, sizeof v, "%.17g", 2.0 * b.serving.rate_max);
	te_set(&sc, "rate", v);
	te_evaluate(&sc, &b);
	assert_true(b.serving.rate_saturated && b.serving.rate_limit >= 1.0);
	assert_float_equal(b.memory.kv_cache, b.serving.rate_limit * seq, 1e-9 * seq);
}

/* The decode point of the closed loop (rate 0) at `batch` sequences */
static void closed_decode(const struct engine_scenario *base, long long batch, struct engine_roofline_point *pt)
{
	struct engine_scenario sc = *base;
	static struct engine_result r;
	char v[32];

	snprintf(v, sizeof v, "%lld", batch);
	te_set(&sc, "batch", v);
	te_set(&sc, "rate", "0");
	te_evaluate(&sc, &r);
	assert_true(r.roofline.decode_at == ENGINE_DECODE_AT_BATCH && r.roofline.decode_sequences == (double)batch);
	*pt = r.roofline.points[ENGINE_PT_DECODE];
}

/* Under an open load the roofline's decode step decodes what the engine holds while it runs,
 * in_engine ÷ (1 − p(0)) (the KV cache counts the time average, in_engine): on a dense model
 * its FLOPs (B × per token) and bytes (weights + B × KV read) are linear in B, so that mean
 * sits on the line through the closed loop's points at the whole batches either side of it; saturated, the engine's limit is a whole
 * batch, the closed point itself. The batch knob's figures (r.inference) do not move, and
 * the verdict and the explanation name the mean, not the knob. */
static void test_rate_roofline(void **state)
{
	struct engine_scenario sc;
	static struct engine_result a, b;
	struct engine_roofline_point lo, hi, lim;
	const struct engine_roofline_point *d = &b.roofline.points[ENGINE_PT_DECODE];
	double m, f;
	char v[32], verdict[200], want[64];
	static char ex[8192];

	(void)state;
	scenario(&sc);
	te_set(&sc, "model", "llama-2-7b");
	te_evaluate(&sc, &a);
	snprintf(v, sizeof v, "%.17g", 0.5 * a.serving.requests_per_s);
	te_set(&sc, "rate", v);
	te_evaluate(&sc, &b);
	assert_false(b.serving.rate_saturated);
	assert_true(b.serving.busy > 0.5 && b.serving.busy < 1.0);
	m = b.serving.in_engine / b.serving.busy;
	assert_true(m > 1.0 && m < 31.0 && m != floor(m));
	assert_true(b.roofline.decode_at == ENGINE_DECODE_AT_OPEN_MEAN && b.roofline.decode_sequences == m);
	assert_true(b.memory.kv_sequences == b.serving.in_engine); /* the memory: the time average */
	closed_decode(&sc, (long long)floor(m), &lo);
	closed_decode(&sc, (long long)floor(m) + 1, &hi);
	f = m - floor(m);
	assert_float_equal(d->flops, lo.flops + f * (hi.flops - lo.flops), 1e-9 * d->flops);
	assert_float_equal(d->bytes, lo.bytes + f * (hi.bytes - lo.bytes), 1e-9 * d->bytes);
	assert_float_equal(d->intensity, d->flops / d->bytes, 1e-12 * d->intensity);
	assert_true(d->intensity > lo.intensity && d->intensity < hi.intensity);
	/* not the batch knob's 32: that point is the closed loop's, and r.inference stays there */
	assert_true(a.roofline.points[ENGINE_PT_DECODE].intensity > 1.3 * d->intensity);
	assert_true(b.inference.decode_flops == a.inference.decode_flops && b.inference.decode_bytes == a.inference.decode_bytes);
	assert_true(a.roofline.decode_at == ENGINE_DECODE_AT_BATCH && a.roofline.decode_sequences == 32.0);
	/* the words: the verdict and `explain roofline.decode` name the mean and the knob */
	engine_roofline_verdict(&sc, &b, ENGINE_PT_DECODE, verdict, sizeof verdict);
	snprintf(want, sizeof want, "decode of %.1f sequences on average while it runs", m);
	assert_non_null(strstr(verdict, want));
	assert_non_null(strstr(verdict, "the batch knob is 32"));
	assert_true(engine_explain(&sc, &b, "roofline.decode", ex, sizeof ex));
	assert_non_null(strstr(ex, verdict));
	snprintf(want, sizeof want, "each of the %.1f sequences", m);
	assert_non_null(strstr(ex, want));
	engine_roofline_verdict(&sc, &a, ENGINE_PT_DECODE, verdict, sizeof verdict);
	assert_non_null(strstr(verdict, "decode at batch 32 is "));
	/* saturated: the engine's limit, a whole batch */
	snprintf(v, sizeof v, "%.17g", 2.0 * b.serving.rate_max);
	te_set(&sc, "rate", v);
	te_evaluate(&sc, &b);
	assert_true(b.serving.rate_saturated && b.serving.rate_limit >= 2.0 && b.serving.rate_limit != 32.0);
	assert_true(b.roofline.decode_at == ENGINE_DECODE_AT_OPEN_LIMIT && b.roofline.decode_sequences == b.serving.rate_limit);
	closed_decode(&sc, (long long)b.serving.rate_limit, &lim);
	assert_float_equal(d->flops, lim.flops, 1e-12 * lim.flops);
	assert_float_equal(d->bytes, lim.bytes, 1e-12 * lim.bytes);
	engine_roofline_verdict(&sc, &b, ENGINE_PT_DECODE, verdict, sizeof verdict);
	snprintf(want, sizeof want, "decode of %.0f sequences, the engine's limit", b.serving.rate_limit);
	assert_non_null(strstr(verdict, want));
}

/* An MoE model reads the experts its B tokens route to, E·(1 − (1 − k/E)^B): at a mean B
 * the FLOPs are still linear in it, the bytes between the whole batches' either side */
static void test_rate_roofline_moe(void **state)
{
	struct engine_scenario sc;
	static struct engine_result a, b;
	struct engine_roofline_point lo, hi;
	const struct engine_roofline_point *d = &b.roofline.points[ENGINE_PT_DECODE];
	double m;
	char v[32];

	(void)state;
	scenario(&sc);
	te_set(&sc, "model", "llama-2-7b");
	te_set(&sc, "experts", "8"); /* Llama-2-7B's shape with Mixtral's routing: 8 experts, 2 a token */
	te_set(&sc, "top_k", "2");
	te_set(&sc, "batch", "4");
	te_evaluate(&sc, &a);
	snprintf(v, sizeof v, "%.17g", 0.7 * a.serving.requests_per_s);
	te_set(&sc, "rate", v);
	te_evaluate(&sc, &b);
	assert_false(b.serving.rate_saturated);
	m = b.serving.in_engine / b.serving.busy;
	assert_true(m > 0.0 && m != floor(m) && b.roofline.decode_sequences == m);
	closed_decode(&sc, (long long)floor(m), &lo);
	closed_decode(&sc, (long long)floor(m) + 1, &hi);
	assert_float_equal(d->flops, lo.flops + (m - floor(m)) * (hi.flops - lo.flops), 1e-9 * d->flops);
	assert_true(d->bytes > lo.bytes && d->bytes < hi.bytes);
}

/* A light load: the replica is idle most of the time. Its busy share is λ × W (Little's law
 * on the replica as one server while it rarely holds two), and a decode step then runs one
 * sequence, not the time average's 0.0x. */
static void test_rate_roofline_light(void **state)
{
	struct engine_scenario sc;
	static struct engine_result a, b;
	char v[32];

	(void)state;
	scenario(&sc);
	te_set(&sc, "model", "llama-2-7b");
	te_evaluate(&sc, &a);
	snprintf(v, sizeof v, "%.17g", 0.001 * a.serving.requests_per_s);
	te_set(&sc, "rate", v);
	te_evaluate(&sc, &b);
	assert_true(b.serving.in_engine < 0.1);
	assert_float_equal(b.serving.busy, b.serving.requests_per_s * b.serving.e2e_seconds, 0.01 * b.serving.busy);
	assert_float_equal(b.roofline.decode_sequences, 1.0, 0.01);
}

/* The engine's percentiles: a closed state's TTFT centred on its mean (the phase uniform), an
 * open load's above its means; an SLA on the mean as it was, one on the p99 at the rate whose
 * p99 TTFT and TPOT meet the targets */
static void test_pct_engine(void **state)
{
	struct engine_scenario sc;
	static struct engine_result a, b, c, d;
	char v[32];

	(void)state;
	scenario(&sc);
	te_evaluate(&sc, &a);
	assert_true(fabs(a.serving.ttft_p50_seconds - a.serving.ttft_seconds) < 1e-12 * a.serving.ttft_seconds);
	assert_true(a.serving.ttft_p99_seconds > a.serving.ttft_seconds);
	assert_true(a.serving.tpot_p99_seconds == a.serving.itl_seconds);
	assert_true(a.serving.itl_p50_seconds <= a.serving.itl_p99_seconds);
	snprintf(v, sizeof v, "%.17g", 0.5 * a.serving.requests_per_s);
	te_set(&sc, "rate", v);
	te_evaluate(&sc, &b);
	assert_false(b.serving.rate_saturated);
	assert_true(b.serving.ttft_p50_seconds <= b.serving.ttft_p90_seconds &&
		    b.serving.ttft_p90_seconds <= b.serving.ttft_p99_seconds);
	assert_true(b.serving.ttft_p99_seconds > b.serving.ttft_seconds);
	assert_true(b.serving.tpot_p50_seconds <= b.serving.tpot_p99_seconds &&
		    b.serving.itl_p50_seconds <= b.serving.itl_p99_seconds);
	/* the SLA on the means is the closed loop's, whatever the knob's default */
	te_set(&sc, "ttft_slo", "2");
	te_set(&sc, "tpot_slo", "0.05");
	te_evaluate(&sc, &c);
	te_set(&sc, "slo_percentile", "mean");
	te_evaluate(&sc, &d);
	assert_memory_equal(&c.serving, &d.serving, sizeof c.serving);
	assert_true(c.serving.sla_rate == 0.0 && c.serving.sla_concurrency > 0);
	te_set(&sc, "slo_percentile", "p99");
	te_evaluate(&sc, &d);
	assert_true(d.serving.sla_rate > 0 && d.serving.sla_rate < d.serving.rate_max);
	assert_true(d.serving.slo_percentile == ENGINE_SLO_P99);
	/* at that rate the p99s are within the targets */
	snprintf(v, sizeof v, "%.17g", d.serving.sla_rate);
	te_set(&sc, "rate", v);
	te_evaluate(&sc, &c);
	assert_true(c.serving.ttft_p99_seconds <= 2.0 && c.serving.tpot_p99_seconds <= 0.05);
	assert_true(fabs(c.serving.in_system - d.serving.sla_concurrency) < 1e-9 * c.serving.in_system);
	/* the prompts spread (prompt_cv): the means as they were, the TTFT's p99 above them; 0 as unset */
	te_set(&sc, "slo_percentile", "mean");
	te_set(&sc, "ttft_slo", "0");
	te_set(&sc, "tpot_slo", "0");
	te_evaluate(&sc, &c);
	te_set(&sc, "prompt_cv", "0");
	te_evaluate(&sc, &d);
	assert_memory_equal(&c.serving, &d.serving, sizeof c.serving);
	te_set(&sc, "prompt_cv", "0.77");
	te_evaluate(&sc, &d);
	assert_true(d.serving.ttft_seconds == c.serving.ttft_seconds && d.serving.itl_seconds == c.serving.itl_seconds);
	assert_true(d.serving.ttft_p99_seconds > c.serving.ttft_p99_seconds);
	assert_true(d.serving.tpot_p99_seconds == c.serving.tpot_p99_seconds);
}

static const struct CMUnitTest tests[] = {
	cmocka_unit_test(test_mm1),
	cmocka_unit_test(test_mmc),
	cmocka_unit_test(test_pct_queues),
	cmocka_unit_test(test_pct_means),
	cmocka_unit_test(test_pct_spread),
	cmocka_unit_test(test_saturated),
	cmocka_unit_test(test_rate_zero),
	cmocka_unit_test(test_rate_memory),
	cmocka_unit_test(test_rate_roofline),
	cmocka_unit_test(test_rate_roofline_moe),
	cmocka_unit_test(test_rate_roofline_light),
	cmocka_unit_test(test_pct_engine),
};

TESTUTIL_MAIN("serve_open", tests)
