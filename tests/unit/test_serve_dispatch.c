/*
 * A front end's dispatch batching (serve_dispatch.c; the knobs dispatch_window and
 * dispatch_batch): off, nothing moves; on, a request's TTFT holds its wait in the window and
 * the burst's prefill, the replica's throughput and mean gap stay the engine's; a cap that
 * binds shortens the window; the percentiles sit around the mean; bad values are refused.
 *
 * Sources: the MLPerf Inference v4.1 AMD vLLM Server harness (closed/AMD/code/llama2-70b-99.9/
 * VllmFp8/sync_sut.py batch_samples_loop; mainVllmFp8_SyncServer.py: --batcher-threshold 0.3,
 * --gpu-batch-size 96; DP 8 engines of TP 1 on 8 MI300X), the scenario these tests run; a
 * uniform hold's mean, half the window (Poisson arrivals are uniform over a window, Kleinrock
 * 1975 §2.4); a prefill step's floor, 2 FLOPs a parameter a token at the card's FP8 peak
 * (Kaplan et al. 2020, §2.1: the forward's 2N FLOPs a token).
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "engine.h"
#include "testengine.h"
#include "testpresets.h"
#include "testutil.h"

#define RATE 9.2 /* requests/s a replica: AMD's 8xMI300X Server run, 73.66 ÷ 8 */

/* AMD's v4.1 Server layout (tests/unit/serving_cases.h AMD41_SERVER): Llama-2-70B, FP8
 * weights and KV, vLLM V0 without chunked prefill, 8 replicas of TP 1, the prompts' mean */
static void scenario(struct engine_scenario *sc, const struct engine_catalog *cat)
{
	tp_scenario(sc, cat, "llama-2-70b", "mi300x");
	te_set(sc, "mode", "infer");
	te_set(sc, "engine", "vllm");
	te_set(sc, "gpus", "8");
	te_set(sc, "tp", "1");
	te_set(sc, "weight_format", "fp8");
	te_set(sc, "kv_dtype", "fp8-e4m3");
	te_set(sc, "mixed_prefill", "off");
	te_set(sc, "max_num_seqs", "768");
	te_set(sc, "max_batched_tokens", "65536");
	te_set(sc, "gpu_memory_utilization", "0.99");
	te_set(sc, "prompt", "222");
	te_set(sc, "generate", "293");
}

static void set_num(struct engine_scenario *sc, const char *key, double v)
{
	char buf[32];
	snprintf(buf, sizeof buf, "%.17g", v);
	te_set(sc, key, buf);
}

/* a: the AMD scenario at RATE with no dispatcher (mixed prefill on with a 2048-token budget
 * when mixed); b: the same with the window W (and cap, 0 for none); both evaluated */
static void pair(const struct engine_catalog *cat, bool mixed, double W, double cap, struct engine_scenario *a,
		 struct engine_scenario *b, struct engine_result *ra, struct engine_result *rb)
{
	scenario(a, cat);
	if (mixed) {
		te_set(a, "mixed_prefill", "on");
		te_set(a, "max_batched_tokens", "2048");
	}
	set_num(a, "rate", RATE);
	*b = *a;
	set_num(b, "dispatch_window", W);
	if (cap > 0)
		set_num(b, "dispatch_batch", cap);
	te_evaluate(a, ra);
	te_evaluate(b, rb);
}

static bool same(double a, double b, double rel)
{
	return fabs(a - b) <= rel * fmax(fabs(a), fabs(b)) + 1e-15;
}

/* every serving result of the table (JSON's serving object), equal */
static void same_serving(const struct engine_result *a, const struct engine_result *b)
{
	size_t n, i, seen = 0;
	const struct engine_result_def *d = engine_results(&n);

	for (i = 0; i < n; i++) {
		double x, y;
		if (strncmp(d[i].key, "serving.", 8) != 0)
			continue;
		x = engine_result_value(a, &d[i]);
		y = engine_result_value(b, &d[i]);
		if (!(x == y || (isnan(x) && isnan(y))))
			fail_msg("%s: %.17g without the dispatcher, %.17g with it", d[i].key, x, y);
		seen++;
	}
	assert_true(seen > 40);
	assert_true(a->serving.ttft_p99_seconds == b->serving.ttft_p99_seconds);
	assert_true(a->serving.itl_p99_seconds == b->serving.itl_p99_seconds);
}

/* window 0 (with or without a cap), or a closed loop: the serving figures exactly */
static void test_off(void **state)
{
	struct preset_registry *reg = tp_builtin();
	struct engine_catalog cat = preset_catalog(reg);
	struct engine_scenario a, b;
	static struct engine_result ra, rb;

	(void)state;
	scenario(&a, &cat);
	set_num(&a, "rate", RATE);
	b = a;
	te_set(&b, "dispatch_window", "0");
	te_set(&b, "dispatch_batch", "32");
	te_evaluate(&a, &ra);
	te_evaluate(&b, &rb);
	assert_false(ra.serving.rate_saturated);
	same_serving(&ra, &rb);
	assert_true(rb.serving.dispatch_window == 0.0 && rb.serving.dispatch_burst == 0.0);
	/* a closed loop of `batch` users: no arrivals to hold */
	scenario(&a, &cat);
	te_set(&a, "batch", "256");
	b = a;
	te_set(&b, "dispatch_window", "0.3");
	te_evaluate(&a, &ra);
	te_evaluate(&b, &rb);
	same_serving(&ra, &rb);
	{
		char buf[8192];
		assert_true(engine_explain(&b, &rb, "serving.ttft_seconds", buf, sizeof buf));
		assert_non_null(strstr(buf, "dispatch_window"));
		assert_non_null(strstr(buf, "closed loop"));
	}
	preset_registry_free(reg);
}

/* on: the hold, the burst's prefill, the same throughput and mean gap */
static void test_on(void **state)
{
	struct preset_registry *reg = tp_builtin();
	struct engine_catalog cat = preset_catalog(reg);
	struct engine_scenario a, b, c;
	static struct engine_result ra, rb, rc;
	const struct engine_serving *s0 = &ra.serving, *s1 = &rb.serving;
	double W = 0.3, mu = RATE * 8.0 * W, peak, floor_s;

	(void)state;
	scenario(&a, &cat);
	set_num(&a, "rate", RATE);
	b = a;
	set_num(&b, "dispatch_window", W);
	te_set(&b, "dispatch_batch", "96"); /* the harness's cap: 22 a window, it does not bind */
	te_evaluate(&a, &ra);
	te_evaluate(&b, &rb);
	assert_false(s1->rate_saturated);
	/* the dispatcher's figures: 8 replicas, λ R W a window, half of it held on average */
	assert_true(s1->dispatch_replicas == 8.0);
	assert_true(same(s1->dispatch_window, W, 1e-12));
	assert_true(same(s1->dispatch_burst, mu, 1e-12));
	assert_true(same(s1->dispatch_hold_seconds, W / 2.0, 1e-12));
	/* the mean TTFT is its parts: the wait for admission, the hold, the step under way, the
	 * burst's prefill; it grows by at least the hold, and holds the burst's prefill */
	assert_true(same(s1->ttft_seconds, s1->wait_seconds + s1->dispatch_hold_seconds + s1->dispatch_step_seconds +
						    s1->dispatch_prefill_seconds, 1e-9));
	assert_true(s1->ttft_seconds >= s0->ttft_seconds + W / 2.0);
	assert_true(s1->ttft_seconds >= W / 2.0 + s1->dispatch_prefill_seconds);
	assert_true(s1->dispatch_step_seconds > 0.0);
	/* a request's burst holds it and Poisson(μ) others (size-biased), one prefill step of
	 * 65536 tokens: at least 2 N FLOPs a token of (μ + 1) prompts at the FP8 peak */
	peak = engine_gpu_peak(&b.gpu, ENGINE_DT_FP8_E4M3);
	assert_true(peak > 0);
	floor_s = 2.0 * rb.params.total * (mu + 1.0) * 222.0 / peak;
	assert_true(s1->dispatch_prefill_seconds >= floor_s);
	/* the same requests a second; prefill apart, the burst's prompts share a step's weight
	 * reads (one step of 22 prompts, not 22 steps of one), so the replica spends less time a
	 * request prefilling: the decodes pause less (a shorter mean gap and TPOT), fewer
	 * requests are in the replica, and it completes more at most */
	assert_true(s1->requests_per_s == s0->requests_per_s);
	assert_true(s1->tokens_per_s_replica == s0->tokens_per_s_replica);
	assert_true(s1->itl_seconds < 0.9 * s0->itl_seconds);
	assert_true(s1->tpot_p99_seconds < s0->tpot_p99_seconds);
	assert_true(s1->in_system < s0->in_system);
	assert_true(s1->rate_max >= s0->rate_max);
	/* the percentiles around the mean: p50 ≤ p90 ≤ p99, the p99 above the mean; the
	 * burst's step is the long gap, so the p99 gap is longer than the engine's own */
	assert_true(s1->ttft_p50_seconds <= s1->ttft_p90_seconds && s1->ttft_p90_seconds <= s1->ttft_p99_seconds);
	assert_true(s1->ttft_p99_seconds >= s1->ttft_seconds);
	assert_true(s1->ttft_p99_seconds > s0->ttft_p99_seconds);
	/* a longer window: a larger burst, a longer prefill */
	c = b;
	set_num(&c, "dispatch_window", 2.0 * W);
	te_evaluate(&c, &rc);
	assert_true(rc.serving.dispatch_prefill_seconds > s1->dispatch_prefill_seconds);
	assert_true(rc.serving.ttft_seconds > s1->ttft_seconds + W / 2.0);
	preset_registry_free(reg);
}

/* mixed chunked prefill: the burst's tokens ride the decode steps' room as the engine's own
 * prompts do, chunk by chunk, so its time a request and the mean gap stay the engine's; the
 * TTFT still holds the hold */
static void test_mixed(void **state)
{
	struct preset_registry *reg = tp_builtin();
	struct engine_catalog cat = preset_catalog(reg);
	struct engine_scenario a, b;
	static struct engine_result ra, rb;

	(void)state;
	pair(&cat, true, 0.3, 0, &a, &b, &ra, &rb);
	assert_false(rb.serving.rate_saturated);
	assert_false(rb.serving.prefill_apart);
	assert_true(rb.serving.itl_seconds == ra.serving.itl_seconds);
	assert_true(rb.serving.in_system == ra.serving.in_system);
	assert_true(rb.serving.ttft_seconds >= ra.serving.ttft_seconds + 0.15 - 1e-9);
	preset_registry_free(reg);
}

/* a cap that binds: the batch leaves full before the window ends */
static void test_cap(void **state)
{
	struct preset_registry *reg = tp_builtin();
	struct engine_catalog cat = preset_catalog(reg);
	struct engine_scenario a, b;
	static struct engine_result ra, rb;
	double W = 0.3;

	(void)state;
	scenario(&a, &cat);
	set_num(&a, "rate", RATE);
	set_num(&a, "dispatch_window", W);
	b = a;
	te_set(&b, "dispatch_batch", "8"); /* 8 of the 22 a window brings */
	te_evaluate(&a, &ra);
	te_evaluate(&b, &rb);
	assert_true(same(rb.serving.dispatch_window, 8.0 / (RATE * 8.0), 1e-12));
	assert_true(rb.serving.dispatch_window < W);
	assert_true(rb.serving.dispatch_burst == 8.0);
	assert_true(same(rb.serving.dispatch_hold_seconds, rb.serving.dispatch_window / 2.0, 1e-12));
	assert_true(rb.serving.dispatch_prefill_seconds < ra.serving.dispatch_prefill_seconds);
	assert_true(rb.serving.ttft_seconds < ra.serving.ttft_seconds);
	assert_true(rb.serving.ttft_p99_seconds >= rb.serving.ttft_seconds);
	assert_true(rb.serving.requests_per_s == ra.serving.requests_per_s);
	preset_registry_free(reg);
}

/* bursts that come faster than the engine's steps (a window of a microsecond; a cap of one):
 * they wait together for the next prefill step as lone arrivals do, so the replica completes
 * at least what it completes alone, and its gap is no longer */
static void test_fast_bursts(void **state)
{
	struct preset_registry *reg = tp_builtin();
	struct engine_catalog cat = preset_catalog(reg);
	struct engine_scenario a, b;
	static struct engine_result ra, rb;
	const double caps[2] = {0, 1};
	const double windows[2] = {1e-6, 0.3};
	int i;

	(void)state;
	for (i = 0; i < 2; i++) {
		pair(&cat, false, windows[i], caps[i], &a, &b, &ra, &rb);
		assert_false(ra.serving.rate_saturated);
		assert_false(rb.serving.rate_saturated);
		assert_true(rb.serving.dispatch_burst <= 1.0);
		assert_true(rb.serving.rate_max >= ra.serving.rate_max * (1.0 - 1e-9));
		assert_true(rb.serving.itl_seconds <= ra.serving.itl_seconds * (1.0 + 1e-9));
	}
	preset_registry_free(reg);
}

/* refused: a negative window or cap, a window past an hour */
static void test_refused(void **state)
{
	struct engine_scenario sc;
	struct napkin_err e;

	(void)state;
	engine_scenario_default(&sc);
	util_err_clear(&e);
	assert_int_not_equal(engine_knob_set(&sc, engine_knob_find("dispatch_window"), "-0.1", NULL, &e), 0);
	util_err_clear(&e);
	assert_int_not_equal(engine_knob_set(&sc, engine_knob_find("dispatch_batch"), "-1", NULL, &e), 0);
	util_err_clear(&e);
	assert_int_not_equal(engine_knob_set(&sc, engine_knob_find("dispatch_window"), "7200", NULL, &e), 0);
	assert_true(sc.dispatch_window == 0.0 && sc.dispatch_batch == 0);
}

static const struct CMUnitTest tests[] = {
	cmocka_unit_test(test_off),
	cmocka_unit_test(test_on),
	cmocka_unit_test(test_mixed),
	cmocka_unit_test(test_fast_bursts),
	cmocka_unit_test(test_cap),
	cmocka_unit_test(test_refused),
};

TESTUTIL_MAIN("serve_dispatch", tests)
