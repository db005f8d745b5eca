/*
 * Properties over many random scenarios: memory never falls as batch or sequence grows; a
 * higher ZeRO stage never raises memory; FLOPs are linear in tokens; time scales as 1/GPUs
 * and 1/MFU; fits exactly when total <= capacity; the largest micro-batch fits and one more
 * does not; the fewest-GPUs layout fits; every figure is finite.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "engine.h"
#include "testengine.h"
#include "testutil.h"

#define N_SCENARIOS 400

static uint64_t rng_state = 0x9e3779b97f4a7c15ull;

static uint64_t rnd(void)
{
	/* xorshift64*: deterministic, so a failure reproduces */
	rng_state ^= rng_state >> 12;
	rng_state ^= rng_state << 25;
	rng_state ^= rng_state >> 27;
	return rng_state * 2685821657736338717ull;
}

static int64_t pick(const int64_t *v, size_t n)
{
	return v[rnd() % n];
}

/* A random valid scenario. */
static void random_scenario(struct engine_scenario *sc)
{
	static const int64_t pow2[] = {1, 2, 4, 8, 16, 32, 64};
	static const char *sizes[] = {"125M", "1.3B", "7B", "13B", "70B", "175B"};
	static const char *prec[] = {"fp32", "amp-bf16", "mixed-bf16", "bf16", "fp8-mixed", "mixed-fp16"};
	static const char *opt[] = {"adamw", "sgd", "sgd-momentum", "adam-8bit", "lion", "adafactor"};
	static const char *rec[] = {"none", "selective", "full"};
	struct napkin_err err;
	char buf[32];

	for (;;) {
		engine_scenario_default(sc);
		te_set(sc, "params", sizes[rnd() % 6]);
		if (rnd() % 4 == 0) {
			te_set(sc, "experts", "8");
			te_set(sc, "top_k", "2");
		}
		te_set(sc, "precision", prec[rnd() % 6]);
		te_set(sc, "optimizer", opt[rnd() % 6]);
		te_set(sc, "recompute", rec[rnd() % 3]);
		te_set(sc, "flash_attention", rnd() % 2 ? "on" : "off");
		te_set(sc, "mode", rnd() % 4 == 0 ? "infer" : "train");
		sc->tp = pick(pow2, 4);
		sc->pp = pick(pow2, 3);
		sc->gpus = sc->tp * sc->pp * pick(pow2, 7);
		sc->zero = (int64_t)(rnd() % 4);
		sc->sequence_parallel = rnd() % 2;
		sc->batch = 1 + (int64_t)(rnd() % 32);
		sc->grad_accum = pick(pow2, 6);
		sc->seq = 128 << (rnd() % 7);
		sc->prompt = 64 << (rnd() % 6);
		sc->generate = 64 << (rnd() % 6);
		snprintf(buf, sizeof buf, "%g", 0.1 + 0.8 * (double)(rnd() % 1000) / 1000.0);
		te_set(sc, "mfu", buf);
		if (engine_validate(sc, &err) == 0)
			return;
	}
}

static double total(const struct engine_scenario *sc)
{
	struct engine_result r;
	struct napkin_err err;
	assert_int_equal(engine_compute(sc, &r, &err), 0);
	return r.memory.total;
}

static void test_monotone_in_batch_and_seq(void **state)
{
	int i;

	(void)state;
	for (i = 0; i < N_SCENARIOS; i++) {
		struct engine_scenario sc, t;
		random_scenario(&sc);
		t = sc;
		t.batch = sc.batch * 2;
		assert_true(total(&t) >= total(&sc));
		t = sc;
		t.seq = sc.seq * 2;
		if (sc.mode == ENGINE_MODE_TRAIN)
			assert_true(total(&t) >= total(&sc));
		t = sc;
		t.prompt = sc.prompt * 2;
		assert_true(total(&t) >= total(&sc));
	}
}

static void test_zero_never_raises_memory(void **state)
{
	int i;

	(void)state;
	for (i = 0; i < N_SCENARIOS; i++) {
		struct engine_scenario sc, t;
		int z;
		random_scenario(&sc);
		t = sc;
		for (z = 0; z < 3; z++) {
			double a, b;
			t.zero = z;
			a = total(&t);
			t.zero = z + 1;
			b = total(&t);
			/* stage 3 adds one gathered layer: never more than what it shards away */
			assert_true(b <= a * (1 + 1e-12));
		}
	}
}

static void test_flops_and_time_scaling(void **state)
{
	int i;

	(void)state;
	for (i = 0; i < N_SCENARIOS; i++) {
		struct engine_scenario sc, t;
		struct engine_result a, b;
		struct napkin_err err;
		random_scenario(&sc);
		if (sc.mode != ENGINE_MODE_TRAIN)
			continue;
		assert_int_equal(engine_compute(&sc, &a, &err), 0);
		t = sc;
		t.tokens = sc.tokens * 3;
		assert_int_equal(engine_compute(&t, &b, &err), 0);
		assert_close(b.compute.train_flops, 3 * a.compute.train_flops, 1e-12);
		assert_close(b.compute.train_seconds, 3 * a.compute.train_seconds, 1e-12);
		t = sc;
		t.gpus = sc.gpus * 2; /* twice the data-parallel ranks */
		assert_int_equal(engine_compute(&t, &b, &err), 0);
		assert_close(b.compute.train_seconds, a.compute.train_seconds / 2, 1e-12);
		t = sc;
		t.mfu = sc.mfu / 2;
		assert_int_equal(engine_compute(&t, &b, &err), 0);
		assert_close(b.compute.train_seconds, a.compute.train_seconds * 2, 1e-12);
	}
}

static void test_fits_and_solves(void **state)
{
	int i;

	(void)state;
	for (i = 0; i < N_SCENARIOS; i++) {
		struct engine_scenario sc, t;
		struct engine_result r;
		struct napkin_err err;
		random_scenario(&sc);
		assert_int_equal(engine_evaluate(&sc, &r, &err), 0);
		assert_true(r.memory.fits == (r.memory.total <= r.memory.capacity));
		assert_close(r.memory.headroom, r.memory.capacity - r.memory.total, 1e-12);
		assert_close(r.memory.total,
			     r.memory.weights + r.memory.autocast_copies + r.memory.master + r.memory.gradients + r.memory.optimizer +
				     r.memory.activations + r.memory.logits + r.memory.scratch + r.memory.kv_cache +
				     r.memory.overhead,
			     1e-12);
		/* the peak is one moment of the step: never more than every part at once */
		assert_true(r.memory.peak <= r.memory.total * (1.0 + 1e-12));
		assert_true(r.memory.peak >= r.memory.weights + r.memory.overhead - 1.0 ||
			    r.memory.peak_phase != ENGINE_PEAK_OPTIMIZER);
		if (r.memory.max_batch > 0 && r.memory.max_batch < 10000000) {
			t = sc;
			t.batch = r.memory.max_batch;
			assert_true(total(&t) <= r.memory.capacity);
			t.batch = r.memory.max_batch + 1;
			assert_true(total(&t) > r.memory.capacity);
		} else if (r.memory.max_batch == 0) {
			t = sc;
			t.batch = 1;
			assert_true(total(&t) > r.memory.capacity);
		}
		if (r.memory.min_gpus > 0) {
			t = sc;
			t.tp = r.memory.min_gpus_tp;
			t.pp = r.memory.min_gpus_pp;
			t.gpus = r.memory.min_gpus;
			assert_int_equal(r.memory.min_gpus, t.tp * t.pp * r.memory.min_gpus_dp);
			if (engine_validate(&t, &err) == 0)
				assert_true(total(&t) <= r.memory.capacity);
		}
		/* everything finite */
		{
			size_t n, j;
			const struct engine_result_def *d = engine_results(&n);
			for (j = 0; j < n; j++)
				assert_true(isfinite(engine_result_value(&r, &d[j])));
		}
	}
}

/* Knobs at their edges: 10M and 1000T parameters, sequence 1 and 100M, batch 1 and 10^7,
 * 1 GPU and 1,048,576: either a clear error or finite figures, never NaN or a crash. */
static void test_extremes(void **state)
{
	static const char *cases[][2] = {
		{"params", "1e7"},   {"params", "1e15"},  {"seq", "1"},           {"seq", "100000000"},
		{"batch", "1"},      {"batch", "10000000"}, {"gpus", "1"},         {"gpus", "1048576"},
		{"mfu", "1e-9"},     {"mfu", "1"},          {"tokens", "1"},        {"tokens", "1e17"},
		{"vocab", "1"},      {"layers", "100000"},  {"hidden", "10000000"}, {"grad_accum", "10000000"},
	};
	size_t i;
	int mode;

	(void)state;
	for (mode = 0; mode < 2; mode++)
		for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
			struct engine_scenario sc;
			struct engine_result r;
			struct napkin_err err;
			int rc;
			engine_scenario_default(&sc);
			sc.mode = mode ? ENGINE_MODE_INFER : ENGINE_MODE_TRAIN;
			util_err_clear(&err);
			rc = engine_knob_set(&sc, engine_knob_find(cases[i][0]), cases[i][1], NULL, &err);
			if (rc == 0)
				rc = engine_evaluate(&sc, &r, &err);
			if (rc != 0) {
				assert_true(strlen(err.msg) > 10);
				continue;
			}
			{
				size_t n, j;
				const struct engine_result_def *d = engine_results(&n);
				for (j = 0; j < n; j++)
					assert_true(isfinite(engine_result_value(&r, &d[j])));
			}
		}
}

static const struct CMUnitTest tests[] = {
	cmocka_unit_test(test_monotone_in_batch_and_seq),
	cmocka_unit_test(test_zero_never_raises_memory),
	cmocka_unit_test(test_flops_and_time_scaling),
	cmocka_unit_test(test_fits_and_solves),
	cmocka_unit_test(test_extremes),
};

TESTUTIL_MAIN("properties", tests)
