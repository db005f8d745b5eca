/*
 * Disaggregated prefill and decode, xPyD (serve_pd.c): what the split changes and what it
 * keeps, and the KV hand-off against Mooncake's published transfer times.
 *
 * Source of the validation: Mooncake's "vLLM with Mooncake Transfer Engine Benchmark"
 * (kvcache-ai.github.io/Mooncake/performance/vllm-v1-support-benchmark.html): 1P1D, Qwen3-8B,
 * vLLM v1 with the Mooncake connector over 8 × 200 Gbps RoCE (200 GB/s, GPUDirect RDMA), the
 * actual transfer time of one request's KV at each prompt length. napkin's rate there is
 * NCCL's share of a NIC's line rate (ENG_NET_EFF 0.90, gemm.c), the same as its auto rate
 * across nodes, and its latency a collective call's (ENG_COLL_LATENCY, 20 µs): neither is
 * fitted to these figures.
 */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "engine.h"
#include "presets.h"
#include "testengine.h"
#include "testpresets.h"
#include "testutil.h"

/* Llama-3-8B on H100 SXM at TP 1 under vLLM: prompt, generate and batch as given; pd "" or "x y". */
static void scenario(struct engine_scenario *sc, const struct engine_catalog *cat, const char *model, const char *prompt,
		     const char *gen, const char *batch, int x, int y)
{
	char g[16], v[16];

	tp_scenario(sc, cat, model, "h100-sxm");
	te_set(sc, "mode", "infer");
	te_set(sc, "engine", "vllm");
	te_set(sc, "prompt", prompt);
	te_set(sc, "generate", gen);
	te_set(sc, "batch", batch);
	snprintf(g, sizeof g, "%d", x + y > 0 ? x + y : 1);
	te_set(sc, "gpus", g);
	snprintf(v, sizeof v, "%d", x);
	te_set(sc, "prefill_replicas", v);
	snprintf(v, sizeof v, "%d", y);
	te_set(sc, "decode_replicas", v);
}

static void rate(struct engine_scenario *sc, double r)
{
	char v[32];

	snprintf(v, sizeof v, "%.17g", r);
	te_set(sc, "rate", v);
}

/* xPyD 0 and 0 is today's serving: every figure as without the knobs. */
static void test_pd_off_unchanged(void **state)
{
	struct preset_registry *reg = tp_builtin();
	struct engine_catalog cat = preset_catalog(reg);
	struct engine_scenario a, b;
	struct engine_result ra, rb;

	(void)state;
	scenario(&a, &cat, "llama-3-8b", "2000", "200", "16", 0, 0);
	b = a;
	engine_scenario_default(&b);
	scenario(&b, &cat, "llama-3-8b", "2000", "200", "16", 0, 0);
	te_set(&b, "kv_transfer_bw", "100e9"); /* without a split the hand-off rate moves nothing */
	te_evaluate(&a, &ra);
	te_evaluate(&b, &rb);
	assert_memory_equal(&ra.serving, &rb.serving, sizeof ra.serving);
	assert_true(ra.serving.pd_prefill_replicas == 0 && ra.serving.pd_kv_transfer_seconds == 0);
	rate(&a, 2.0);
	rate(&b, 2.0);
	te_evaluate(&a, &ra);
	te_evaluate(&b, &rb);
	assert_memory_equal(&ra.serving, &rb.serving, sizeof ra.serving);
	preset_registry_free(reg);
}

/* The hand-off: prompt × a GPU's KV bytes a token ÷ the rate + the latency; Llama-3-8B's KV
 * is 32 layers × 8 KV heads × 128 × 2 (K, V) × 2 bytes = 131,072 bytes a token. */
static void test_pd_transfer(void **state)
{
	struct preset_registry *reg = tp_builtin();
	struct engine_catalog cat = preset_catalog(reg);
	struct engine_scenario sc;
	struct engine_result r;

	(void)state;
	scenario(&sc, &cat, "llama-3-8b", "4000", "200", "8", 1, 1);
	te_set(&sc, "kv_transfer_bw", "50e9");
	te_evaluate(&sc, &r);
	assert_close(r.serving.pd_kv_transfer_bytes, 4000.0 * 131072.0, 1e-12);
	assert_close(r.serving.pd_kv_transfer_seconds, 4000.0 * 131072.0 / 50e9 + 20e-6, 1e-12);
	/* auto within a node: NVLink, faster than any NIC; across nodes: the network at 0.90 */
	te_set(&sc, "kv_transfer_bw", "auto");
	te_evaluate(&sc, &r);
	assert_true(r.serving.pd_kv_transfer_bw > sc.gpu.network_bw);
	te_set(&sc, "gpus_per_node", "1");
	te_evaluate(&sc, &r);
	assert_close(r.serving.pd_kv_transfer_bw, 0.90 * sc.gpu.network_bw, 1e-12);
	preset_registry_free(reg);
}

/* A light open load: TTFT is the prompt's prefill step + the hand-off, nothing waiting. */
static void test_pd_ttft_light(void **state)
{
	struct preset_registry *reg = tp_builtin();
	struct engine_catalog cat = preset_catalog(reg);
	struct engine_scenario sc;
	struct engine_result r;

	(void)state;
	scenario(&sc, &cat, "llama-3-8b", "4000", "200", "8", 1, 1);
	rate(&sc, 0.001);
	te_evaluate(&sc, &r);
	assert_false(r.serving.rate_saturated);
	assert_close(r.serving.pd_prefill_seconds, r.serving.mixed_step_seconds, 0.01);
	assert_close(r.serving.ttft_seconds, r.serving.pd_prefill_seconds + r.serving.pd_kv_transfer_seconds, 1e-3);
	assert_true(r.serving.queue_seconds < 0.01 * r.serving.ttft_seconds);
	/* no validated case splits the replicas: no band on TTFT or ITL; capacity keeps its own */
	assert_int_equal(r.serving.band[ENGINE_SM_TTFT].level, ENGINE_BAND_NONE);
	assert_int_equal(r.serving.band[ENGINE_SM_TTFT].why, ENGINE_SBW_PD);
	assert_int_equal(r.serving.band[ENGINE_SM_ITL].why, ENGINE_SBW_PD);
	assert_int_not_equal(r.serving.band[ENGINE_SM_CAP].level, ENGINE_BAND_NONE);
	/* a heavier load waits for the prompts ahead: TTFT = the pool's time + hand-off + the decode wait */
	rate(&sc, 0.5 * r.serving.rate_max);
	te_evaluate(&sc, &r);
	assert_true(r.serving.queue_seconds > 0);
	assert_true(r.serving.ttft_seconds >= r.serving.pd_prefill_seconds + r.serving.pd_kv_transfer_seconds - 1e-12);
	preset_registry_free(reg);
}

/* Long prompts: a decode-only step is shorter than the aggregated replica's average step,
 * which carries the prompts' chunks, at about the same sequences decoding (3P1D: the prefill
 * pool keeps up, so most of the decode replica's 32 users are decoding). */
static void test_pd_itl_no_interference(void **state)
{
	struct preset_registry *reg = tp_builtin();
	struct engine_catalog cat = preset_catalog(reg);
	struct engine_scenario a, p;
	struct engine_result ra, rp;

	(void)state;
	scenario(&a, &cat, "llama-3-8b", "8000", "256", "32", 0, 0);
	scenario(&p, &cat, "llama-3-8b", "8000", "256", "32", 3, 1);
	te_evaluate(&a, &ra);
	te_evaluate(&p, &rp);
	printf("8000 + 256 tokens, 32 users: ITL aggregated %.2f ms at %.1f decoding, decode-only %.2f ms at %.1f\n",
	       ra.serving.itl_seconds * 1e3, ra.serving.decoding, rp.serving.itl_seconds * 1e3, rp.serving.decoding);
	assert_true(rp.serving.decoding >= 0.8 * ra.serving.decoding);
	assert_true(rp.serving.itl_seconds < 0.8 * ra.serving.itl_seconds);
	/* the ITL is the decode step itself (no speculation), every gap alike */
	assert_close(rp.serving.itl_seconds, rp.serving.decode_step_seconds, 1e-9);
	assert_close(rp.serving.itl_p99_seconds, rp.serving.itl_seconds, 1e-12);
	/* the closed loop keeps Little's law: users = requests/s × a request's time */
	assert_close(32.0, rp.serving.requests_per_s * rp.serving.e2e_seconds, 1e-6);
	preset_registry_free(reg);
}

/* The pools' loads: long prompts and short outputs load the prefill pool, short prompts and
 * long outputs the decode pool; the one that binds reaches 1 as the rate nears the group's most. */
static void test_pd_bottleneck(void **state)
{
	struct preset_registry *reg = tp_builtin();
	struct engine_catalog cat = preset_catalog(reg);
	struct engine_scenario sc;
	struct engine_result r;

	(void)state;
	scenario(&sc, &cat, "llama-3-8b", "16000", "32", "8", 1, 1);
	rate(&sc, 0.1);
	te_evaluate(&sc, &r);
	assert_true(r.serving.pd_prefill_util > r.serving.pd_decode_util);
	rate(&sc, 0.5 * r.serving.rate_max);
	te_evaluate(&sc, &r);
	assert_false(r.serving.rate_saturated);
	assert_true(r.serving.pd_prefill_util > 0 && r.serving.pd_prefill_util < 1);
	assert_true(r.serving.pd_decode_util > 0 && r.serving.pd_decode_util < 1);
	assert_close(r.serving.pd_prefill_util, 0.5, 1e-9); /* the prefill pool's most is the group's */
	rate(&sc, 1.01 * r.serving.rate_max);
	te_evaluate(&sc, &r);
	assert_true(r.serving.rate_saturated);
	assert_true(r.serving.pd_prefill_util > 1 && r.serving.pd_decode_util < 1);

	scenario(&sc, &cat, "llama-3-8b", "200", "2000", "8", 1, 1);
	rate(&sc, 0.1);
	te_evaluate(&sc, &r);
	assert_true(r.serving.pd_decode_util > r.serving.pd_prefill_util);
	rate(&sc, 0.9 * r.serving.rate_max);
	te_evaluate(&sc, &r);
	assert_close(r.serving.pd_decode_util, 0.9, 1e-9);
	preset_registry_free(reg);
}

/* Refused: one pool without the other, no engine, and GPUs that are not whole groups. */
static void test_pd_refused(void **state)
{
	struct preset_registry *reg = tp_builtin();
	struct engine_catalog cat = preset_catalog(reg);
	struct engine_scenario sc;
	struct engine_result r;
	struct napkin_err e;

	(void)state;
	scenario(&sc, &cat, "llama-3-8b", "1000", "100", "8", 1, 1);
	sc.decode_replicas = 0;
	util_err_clear(&e);
	assert_int_not_equal(engine_evaluate(&sc, &r, &e), 0);
	assert_non_null(strstr(e.msg, "go together"));
	scenario(&sc, &cat, "llama-3-8b", "1000", "100", "8", 1, 1);
	te_set(&sc, "engine", "none");
	util_err_clear(&e);
	assert_int_not_equal(engine_evaluate(&sc, &r, &e), 0);
	assert_non_null(strstr(e.msg, "give one (engine vllm"));
	scenario(&sc, &cat, "llama-3-8b", "1000", "100", "8", 1, 2);
	te_set(&sc, "gpus", "4");
	util_err_clear(&e);
	assert_int_not_equal(engine_evaluate(&sc, &r, &e), 0);
	assert_non_null(strstr(e.msg, "multiple of (prefill_replicas + decode_replicas)"));
	/* two whole groups: the job's output twice the group's */
	te_set(&sc, "gpus", "6");
	te_evaluate(&sc, &r);
	assert_close(r.serving.tokens_per_s_job, 2.0 * r.serving.tokens_per_s_replica, 1e-12);
	preset_registry_free(reg);
}

/* Sizing: the group it finds meets the SLA at the target rate, and one replica fewer in
 * either pool does not. */
static void test_pd_sizing(void **state)
{
	struct preset_registry *reg = tp_builtin();
	struct engine_catalog cat = preset_catalog(reg);
	struct engine_scenario sc;
	struct engine_result r;
	int xs, ys, dx;

	(void)state;
	scenario(&sc, &cat, "llama-3-8b", "4000", "400", "8", 1, 1);
	te_set(&sc, "ttft_slo", "1");
	te_set(&sc, "tpot_slo", "0.02");
	te_set(&sc, "slo_percentile", "p90");
	te_set(&sc, "target_rate", "20");
	te_evaluate(&sc, &r);
	xs = (int)r.serving.pd_sizing_prefill;
	ys = (int)r.serving.pd_sizing_decode;
	printf("20 requests/s, p90 TTFT <= 1 s, TPOT <= 20 ms: %dP%dD\n", xs, ys);
	assert_true(xs >= 1 && ys >= 1);
	assert_close(r.serving.sizing_replicas, xs + ys, 1e-12);
	for (dx = 0; dx < 3; dx++) {
		int x = xs - (dx == 1), y = ys - (dx == 2);
		bool meets;
		if (x < 1 || y < 1)
			continue;
		scenario(&sc, &cat, "llama-3-8b", "4000", "400", "8", x, y);
		te_set(&sc, "ttft_slo", "1");
		te_set(&sc, "tpot_slo", "0.02");
		te_set(&sc, "slo_percentile", "p90");
		rate(&sc, 20.0);
		te_evaluate(&sc, &r);
		meets = !r.serving.rate_saturated && r.serving.ttft_p90_seconds <= 1.0 && r.serving.tpot_p90_seconds <= 0.02;
		assert_true(dx == 0 ? meets : !meets);
	}
	preset_registry_free(reg);
}

/* Mooncake's published transfer times (the header): prompt tokens, milliseconds. */
static void test_pd_mooncake_transfer(void **state)
{
	static const struct {
		int prompt;
		double ms;
	} pub[] = {{128, 0.54}, {512, 0.92}, {2048, 2.51}, {8192, 8.84}, {16384, 16.43}, {32768, 31.65}};
	struct preset_registry *reg = tp_builtin();
	struct engine_catalog cat = preset_catalog(reg);
	struct engine_scenario sc;
	struct engine_result r;
	size_t i;

	(void)state;
	printf("%-44s %10s %10s %7s  %s\n", "case", "published", "predicted", "error", "source");
	for (i = 0; i < sizeof pub / sizeof pub[0]; i++) {
		char p[16], label[64];
		double err;
		snprintf(p, sizeof p, "%d", pub[i].prompt);
		scenario(&sc, &cat, "qwen3-8b", p, "16", "1", 1, 1);
		te_set(&sc, "kv_transfer_bw", "180e9"); /* 200 GB/s of RoCE at NCCL's share, 0.90 */
		te_evaluate(&sc, &r);
		err = r.serving.pd_kv_transfer_seconds * 1e3 / pub[i].ms - 1.0;
		snprintf(label, sizeof label, "Qwen3-8B KV hand-off, %d-token prompt", pub[i].prompt);
		printf("%-44s %8.2fms %8.2fms %+6.0f%%  Mooncake vLLM v1 benchmark, 1P1D\n", label, pub[i].ms,
		       r.serving.pd_kv_transfer_seconds * 1e3, 100.0 * err);
		/* the large transfers, where the rate dominates, within a quarter */
		if (pub[i].prompt >= 8192)
			assert_true(fabs(err) < 0.25);
	}
	preset_registry_free(reg);
}

static const struct CMUnitTest tests[] = {
	cmocka_unit_test(test_pd_off_unchanged),
	cmocka_unit_test(test_pd_transfer),
	cmocka_unit_test(test_pd_ttft_light),
	cmocka_unit_test(test_pd_itl_no_interference),
	cmocka_unit_test(test_pd_bottleneck),
	cmocka_unit_test(test_pd_refused),
	cmocka_unit_test(test_pd_sizing),
	cmocka_unit_test(test_pd_mooncake_transfer),
};

TESTUTIL_MAIN("serve_pd", tests)
