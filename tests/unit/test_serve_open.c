/*
 * The open load (serve_open.c): the birth–death solution against the closed forms of the
 * queues it contains, and a rate of 0 leaving the closed loop's results as they were.
 *
 * Sources: the M/M/1 queue, L = ρ ÷ (1 − ρ) (Kleinrock 1975, Queueing Systems vol. 1,
 * §3.2 eq. 3.24); the M/M/c queue, Erlang's C formula for the chance of waiting and
 * W_q = C ÷ (cμ − λ) (Kleinrock 1975, §3.5 eq. 3.40-3.41); processor sharing with a constant
 * rate has the M/M/1 queue's L (Harchol-Balter 2013, ch. 22).
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
	o->x = eng_min(n, f->c) * f->mu;
	o->ttft = f->ttft;
	o->itl = f->itl;
	o->decoding = n;
	o->queue = 0.0;
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
	eng_open_solve(lambda, 1.0, 1.0, fixed_state, &f, &r);
	assert_true(r.stable);
	assert_true(fabs(r.in_system - rho / (1.0 - rho)) < 1e-9);
	assert_true(fabs(r.request_seconds - 1.0 / (f.mu - lambda)) < 1e-9);
	assert_true(fabs(r.wait - rho / (f.mu - lambda)) < 1e-9);
	assert_true(fabs(r.ttft - (r.wait + f.ttft)) < 1e-9);
	assert_true(fabs(r.itl - f.itl) < 1e-12);
	/* processor sharing at a constant rate, every request admitted: the same L */
	eng_open_solve(lambda, 4096.0, ENG_OPEN_GRID, fixed_state, &f, &r);
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
		eng_open_solve(lambda, cs[i], 1.0, fixed_state, &f, &r);
		assert_true(r.stable);
		assert_true(fabs(r.wait - wq) < 1e-9 * eng_max(1.0, wq));
		assert_true(fabs(r.in_system - (lambda * wq + a)) < 1e-7 * r.in_system);
		assert_true(fabs(r.in_engine - (r.in_system - r.waiting)) < 1e-9 * r.in_system);
		/* the geometric grid interpolates a linear X(n) exactly, with far fewer calls */
		f.calls = 0;
		eng_open_solve(lambda, cs[i], ENG_OPEN_GRID, fixed_state, &f, &g);
		assert_true(fabs(g.wait - wq) < 1e-9 * eng_max(1.0, wq));
		assert_true(fabs(g.in_system - r.in_system) < 1e-7 * r.in_system);
		assert_true(f.calls <= 150);
	}
}

static void test_saturated(void **state)
{
	struct fixed f = {1.0, 16.0, 0.0, 0.0, 0};
	struct eng_bd_result r;

	(void)state;
	eng_open_solve(16.0, 16.0, ENG_OPEN_GRID, fixed_state, &f, &r);
	assert_false(r.stable);
	assert_true(r.max_rate == 16.0 && r.limit == 16.0 && r.in_system == 0.0);
	eng_open_solve(20.0, 16.0, ENG_OPEN_GRID, fixed_state, &f, &r);
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

static const struct CMUnitTest tests[] = {
	cmocka_unit_test(test_mm1),
	cmocka_unit_test(test_mmc),
	cmocka_unit_test(test_saturated),
	cmocka_unit_test(test_rate_zero),
	cmocka_unit_test(test_rate_memory),
};

TESTUTIL_MAIN("serve_open", tests)
