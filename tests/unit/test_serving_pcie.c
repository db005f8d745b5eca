/*
 * Tensor parallelism without NVLink: the TP all-reduce over PCIe (serving.c,
 * eng_infer_allreduce_seconds) against the ring rates measured on PCIe Gen4 and Gen5.
 *
 * Sources:
 *  - flashinfer-ai/flashinfer PR 4870, "PCIe IPC copy-engine all-reduce — SOL analysis": the
 *    rate cudaMemcpyAsync reaches in a ring all-reduce's own hop pattern, 8 L40S on PCIe Gen4
 *    (a 4-GPU ring within a NUMA island 25.46 GB/s; "TP4 floor = 144 MiB / 25.46 = 5932 us"
 *    for a 96 MiB all-reduce, 2(n−1)/n of it sent a rank) and 8 Gen5 cards on PCIe switch
 *    pairs (a 4-GPU ring 52.33 GB/s, "TP4 floor = 144 MiB / 52.32 = 2886 us").
 *  - TensorRT-LLM's allreduce plugin (allreducePlugin.cpp, selectImplementation): AUTO without
 *    NVLink takes NCCL; vLLM's custom all-reduce runs at 2 PCIe ranks only
 *    (custom_all_reduce.py), its one-shot moving the ring's bytes there.
 */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <stdio.h>

#include "engine.h"
#include "presets.h"
#include "testengine.h"
#include "testpresets.h"
#include "testutil.h"

/* Llama-2-70B (80 layers, hidden 8192) on `gpu`, TP `tp`, `batch` decoding sequences. */
static void scenario(struct engine_scenario *sc, const struct engine_catalog *cat, const char *gpu, const char *tp,
		     const char *batch)
{
	tp_scenario(sc, cat, "llama-2-70b", gpu);
	te_set(sc, "mode", "infer");
	te_set(sc, "engine", "trtllm");
	te_set(sc, "gpus", tp);
	te_set(sc, "tp", tp);
	te_set(sc, "batch", batch);
	sc->gpu.link_bw = 0.0; /* no NVLink bridge: the all-reduce over PCIe */
}

/* One all-reduce of a decode step: 2 a layer, 80 layers. */
static double one_allreduce(const struct engine_scenario *sc)
{
	struct engine_result r;

	te_evaluate(sc, &r);
	return r.inference.tp_comm_seconds_per_step / 160.0;
}

static void test_pcie_ring_measured(void **state)
{
	struct preset_registry *reg = tp_builtin();
	struct engine_catalog cat = preset_catalog(reg);
	struct engine_scenario sc;
	const double mib = 1024.0 * 1024.0;
	double t;

	(void)state;
	/* the model: NCCL's ring, 2(t−1)/t × bytes at 80% of the link's rate a direction, + 32 µs;
	 * 64 sequences × 8192 bf16 values = 1 MiB an all-reduce, PCIe Gen4 (32 GB/s) on the L40S */
	scenario(&sc, &cat, "l40s", "4", "64");
	assert_float_equal(one_allreduce(&sc), 32e-6 + 1.5 * mib / (32e9 * 0.80), 1e-12);
	/* TP 2 (Red Hat's vLLM layout): one-shot and ring alike, the whole message once */
	scenario(&sc, &cat, "l40s", "2", "64");
	assert_float_equal(one_allreduce(&sc), 32e-6 + mib / (32e9 * 0.80), 1e-12);
	/* the measured ring: 96 MiB (6144 rows) at TP 4 on Gen4 L40S, 5932 µs; napkin 5930 */
	scenario(&sc, &cat, "l40s", "4", "6144");
	t = one_allreduce(&sc);
	printf("L40S Gen4 TP4 96 MiB: napkin %.0f us, measured floor 5932 us\n", t * 1e6);
	assert_true(fabs(t / 5932e-6 - 1.0) < 0.02);
	/* Gen5 (H100 PCIe, 64 GB/s): the measured 4-GPU ring 2886 µs; napkin 2981 (+3.3%) */
	scenario(&sc, &cat, "h100-pcie", "4", "6144");
	t = one_allreduce(&sc);
	printf("H100 PCIe Gen5 TP4 96 MiB: napkin %.0f us, measured floor 2886 us\n", t * 1e6);
	assert_true(fabs(t / 2886e-6 - 1.0) < 0.05);
	preset_registry_free(reg);
}

/* RCCL on 8 MI300X (gemm.c, RCCL_AR_LATENCY): rccl-tests' in-place all-reduce bus bandwidth
 * on Azure's ND MI300X v5 (Microsoft's AI-benchmarking-guide, Azure_Results/
 * ND_MI300X_v5_results.md at 3de0c294): 171.46 GB/s at 16 MiB and 290.81 at 128 MiB, so
 * 2 × 7/8 × 16 MiB ÷ 171.46 GB/s = 171.2 µs and 2 × 7/8 × 128 MiB ÷ 290.81 GB/s = 807.5 µs.
 * Above vLLM's 8 MiB custom buffer a decode step's all-reduce is RCCL's: 1024 and 8192
 * sequences × 8192 bf16 values, over the Infinity Fabric links (the preset's, kept). */
static void test_rccl_measured(void **state)
{
	struct preset_registry *reg = tp_builtin();
	struct engine_catalog cat = preset_catalog(reg);
	struct engine_scenario sc;
	const char *batch[2] = {"1024", "8192"};
	const double measured[2] = {171.2e-6, 807.5e-6};
	int i;

	(void)state;
	for (i = 0; i < 2; i++) {
		double t;
		tp_scenario(&sc, &cat, "llama-2-70b", "mi300x");
		te_set(&sc, "mode", "infer");
		te_set(&sc, "engine", "vllm");
		te_set(&sc, "gpus", "8");
		te_set(&sc, "tp", "8");
		te_set(&sc, "batch", batch[i]);
		assert_true(sc.gpu.link_bw > 0);
		t = one_allreduce(&sc);
		printf("MI300X TP8 RCCL %s sequences: napkin %.1f us, measured %.1f us\n", batch[i], t * 1e6, measured[i] * 1e6);
		assert_true(fabs(t / measured[i] - 1.0) < 0.03);
	}
	preset_registry_free(reg);
}

static const struct CMUnitTest tests[] = {
	cmocka_unit_test(test_pcie_ring_measured),
	cmocka_unit_test(test_rccl_measured),
};

TESTUTIL_MAIN("serving_pcie", tests)
