/*
 * The step-time model against published measured training runs (docs/step-validation.md
 * prints the same table). One calibration for every run (src/engine/gemm.c); each run is
 * only its published layout. The aim: median error ≤ 10%, no run worse than 25%.
 *
 * Sources:
 *  N21  Narayanan et al. 2021, "Efficient Large-Scale Language Model Training on GPU
 *       Clusters Using Megatron-LM", table 1 (weak scaling; micro-batch sizes, virtual
 *       stages and DDP from Megatron-LM's examples/sc21/run_table_1.sh) and table 2
 *       (ZeRO-3 without model parallelism against PTD-P). A100 80 GB on Selene (8 × 200
 *       Gb/s HDR per node), fp16, full recomputation, sequence 2048, vocabulary 51,200;
 *       throughput in Megatron's hardware count 96·B·s·l·h²·(1 + s/(6h) + V/(16·l·h)).
 *  K22  Korthikanti et al. 2022, "Reducing Activation Recomputation in Large Transformer
 *       Models", table 5: iteration time with full recomputation and with selective
 *       recomputation + sequence parallelism (tables 3-4 for the layouts).
 *  S22  Smith et al. 2022, "Using DeepSpeed and Megatron to Train Megatron-Turing NLG
 *       530B", §3 (280, 350 and 420 DGX A100 nodes: 126, 121 and 113 TFLOP/s per GPU at
 *       batch 1920).
 *  DGXC NVIDIA DGX Cloud benchmarking recipes (github.com/NVIDIA/dgxc-benchmarking,
 *       llama3.1/README_{8b,70b,405b}.md): Llama 3.1 on DGX H100 with NeMo 24.09, BF16,
 *       sequence 8192, measured seconds per step (the last training step).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine.h"
#include "testutil.h"

struct run {
	const char *name;
	const char *src;
	double hidden, layers, heads, tp, pp, vpp, gpus, gbs, mbs;
	int recompute;   /* ENGINE_RECOMP_* */
	bool sp, overlap;
	int zero;
	/* the published figure: per-GPU TFLOP/s in Megatron's count, or a step time (s) */
	double tflops, seconds;
};

#define FULL ENGINE_RECOMP_FULL
#define SEL ENGINE_RECOMP_SELECTIVE

static const struct run runs[] = {
	/* N21 table 1: DDP torch (overlapped) for pp = 1, local (after the backward) above */
	{"GPT 1.7B", "N21 t1", 2304, 24, 24, 1, 1, 1, 32, 512, 16, FULL, false, true, 0, 137, 0},
	{"GPT 3.6B", "N21 t1", 3072, 30, 32, 2, 1, 1, 64, 512, 16, FULL, false, true, 0, 138, 0},
	{"GPT 7.5B", "N21 t1", 4096, 36, 32, 4, 1, 1, 128, 512, 16, FULL, false, true, 0, 142, 0},
	{"GPT 18.4B", "N21 t1", 6144, 40, 48, 8, 1, 1, 256, 1024, 8, FULL, false, true, 0, 135, 0},
	{"GPT 39.1B", "N21 t1", 8192, 48, 64, 8, 2, 1, 512, 1536, 4, FULL, false, false, 0, 138, 0},
	{"GPT 76.1B", "N21 t1", 10240, 60, 80, 8, 4, 3, 1024, 1792, 2, FULL, false, false, 0, 140, 0},
	{"GPT 145.6B", "N21 t1", 12288, 80, 96, 8, 8, 2, 1536, 2304, 2, FULL, false, false, 0, 148, 0},
	{"GPT 310.1B", "N21 t1", 16384, 96, 128, 8, 16, 2, 1920, 2160, 1, FULL, false, false, 0, 155, 0},
	{"GPT 529.6B", "N21 t1", 20480, 105, 128, 8, 35, 3, 2520, 2520, 1, FULL, false, false, 0, 163, 0},
	{"GPT 1008B", "N21 t1", 25600, 128, 160, 8, 64, 1, 3072, 3072, 1, FULL, false, false, 0, 163, 0},
	/* N21 table 2: ZeRO-3 (DeepSpeed) without model parallelism, and PTD-P */
	{"175B ZeRO-3 384", "N21 t2", 12288, 96, 96, 1, 1, 1, 384, 1536, 4, FULL, false, false, 3, 144, 0},
	{"175B ZeRO-3 768", "N21 t2", 12288, 96, 96, 1, 1, 1, 768, 1536, 2, FULL, false, false, 3, 88, 0},
	{"175B ZeRO-3 1536", "N21 t2", 12288, 96, 96, 1, 1, 1, 1536, 1536, 1, FULL, false, false, 3, 44, 0},
	{"530B ZeRO-3 640", "N21 t2", 20480, 105, 128, 1, 1, 1, 640, 2560, 4, FULL, false, false, 3, 138, 0},
	/* table 2 ran 530B's ZeRO-3 on 640, 1120 and 2240 GPUs, batch 2560 at 640 and 2240 above:
	 * its training-days column (169, 137 and 140 days for 300B tokens at 138, 98 and 48
	 * TFLOP/s) holds only with those counts */
	{"530B ZeRO-3 1120", "N21 t2", 20480, 105, 128, 1, 1, 1, 1120, 2240, 2, FULL, false, false, 3, 98, 0},
	{"530B ZeRO-3 2240", "N21 t2", 20480, 105, 128, 1, 1, 1, 2240, 2240, 1, FULL, false, false, 3, 48, 0},
	{"175B PTD-P 384", "N21 t2", 12288, 96, 96, 8, 12, 1, 384, 1536, 1, FULL, false, false, 0, 153, 0},
	{"175B PTD-P 768", "N21 t2", 12288, 96, 96, 8, 12, 1, 768, 1536, 1, FULL, false, false, 0, 149, 0},
	{"175B PTD-P 1536", "N21 t2", 12288, 96, 96, 8, 12, 1, 1536, 1536, 1, FULL, false, false, 0, 141, 0},
	{"530B PTD-P 560", "N21 t2", 20480, 105, 128, 8, 35, 1, 560, 2240, 1, FULL, false, false, 0, 171, 0},
	{"530B PTD-P 1120", "N21 t2", 20480, 105, 128, 8, 35, 1, 1120, 2240, 1, FULL, false, false, 0, 167, 0},
	{"530B PTD-P 2240", "N21 t2", 20480, 105, 128, 8, 35, 1, 2240, 2240, 1, FULL, false, false, 0, 159, 0},
	/* K22 table 5: iteration seconds */
	{"22B full", "K22 t5", 6144, 48, 64, 8, 1, 1, 8, 4, 1, FULL, false, false, 0, 0, 1.42},
	{"22B sel+SP", "K22 t5", 6144, 48, 64, 8, 1, 1, 8, 4, 1, SEL, true, false, 0, 0, 1.10},
	{"175B full", "K22 t5", 12288, 96, 96, 8, 8, 1, 64, 64, 1, FULL, false, false, 0, 0, 18.13},
	{"175B sel+SP", "K22 t5", 12288, 96, 96, 8, 8, 1, 64, 64, 1, SEL, true, false, 0, 0, 13.75},
	{"530B full", "K22 t5", 20480, 105, 128, 8, 35, 1, 280, 280, 1, FULL, false, false, 0, 0, 49.05},
	{"530B sel+SP", "K22 t5", 20480, 105, 128, 8, 35, 1, 280, 280, 1, SEL, true, false, 0, 0, 37.83},
	{"1T full", "K22 t5", 25600, 128, 160, 8, 64, 1, 512, 512, 1, FULL, false, false, 0, 0, 94.42},
	{"1T sel+SP", "K22 t5", 25600, 128, 160, 8, 64, 1, 512, 512, 1, SEL, true, false, 0, 0, 71.49},
	/* S22: MT-NLG 530B, DeepSpeed pipeline + Megatron TP */
	{"MT-NLG 2240", "S22", 20480, 105, 128, 8, 35, 1, 2240, 1920, 1, FULL, false, false, 0, 126, 0},
	{"MT-NLG 2800", "S22", 20480, 105, 128, 8, 35, 1, 2800, 1920, 1, FULL, false, false, 0, 121, 0},
	{"MT-NLG 3360", "S22", 20480, 105, 128, 8, 35, 1, 3360, 1920, 1, FULL, false, false, 0, 113, 0},
};
/* Llama 3.1 on DGX H100 (DGXC): step seconds */
struct lrun {
	const char *name;
	double layers, hidden, heads, ffn, tp, pp, vpp, cp, gpus, gbs, seconds;
};
static const struct lrun lruns[] = {
	{"Llama 3.1 8B, 8 GPUs", 32, 4096, 32, 14336, 1, 1, 1, 2, 8, 128, 12.91},
	{"Llama 3.1 8B, 128 GPUs", 32, 4096, 32, 14336, 1, 1, 1, 2, 128, 2048, 13.10},
	{"Llama 3.1 70B, 64 GPUs", 80, 8192, 64, 28672, 4, 4, 5, 2, 64, 128, 14.72},
	{"Llama 3.1 70B, 2048 GPUs", 80, 8192, 64, 28672, 4, 4, 5, 2, 2048, 4096, 14.98},
	{"Llama 3.1 405B, 576 GPUs", 126, 16384, 128, 53248, 8, 9, 7, 2, 576, 252, 17.20},
	{"Llama 3.1 405B, 2304 GPUs", 126, 16384, 128, 53248, 8, 9, 7, 2, 2304, 1008, 17.62},
};
#define NL (sizeof lruns / sizeof lruns[0])
#define NRUNS (sizeof runs / sizeof runs[0] + NL)

static void knob(struct engine_scenario *sc, const char *key, const char *val)
{
	struct napkin_err err;
	const struct engine_knob *k = engine_knob_find(key);

	assert_non_null(k);
	if (engine_knob_set(sc, k, val, NULL, &err) != NAPKIN_OK)
		fail_msg("%s=%s: %s", key, val, err.msg);
}

static void knobf(struct engine_scenario *sc, const char *key, double v)
{
	char buf[64];
	snprintf(buf, sizeof buf, "%.17g", v);
	knob(sc, key, buf);
}

/* A100 SXM4 80 GB on a DGX A100 (NVIDIA datasheet; 8 × HDR 200 Gb/s per node). */
static void a100(struct engine_gpu *g)
{
	memset(g, 0, sizeof *g);
	strcpy(g->id, "a100-80gb-sxm");
	strcpy(g->name, "A100 SXM4 80GB");
	g->memory_bytes = 81920.0 * 1048576.0;
	g->bandwidth = 2.039e12;
	g->peak[ENGINE_DT_BF16] = g->peak[ENGINE_DT_FP16] = 312e12;
	g->peak[ENGINE_DT_TF32] = 156e12;
	g->peak[ENGINE_DT_FP32] = 19.5e12;
	g->pcie_bw = 32e9;
	g->link_bw = 300e9;
	g->network_bw = 25e9;
	g->sm_count = 108;
	g->overhead_bytes = 768.0 * 1048576.0;
}

/* A GPT-3-style model (Brown et al. 2020) as Megatron-LM trains it. */
static void scenario(const struct run *r, struct engine_scenario *sc)
{
	struct napkin_err err;
	double dp = r->gpus / (r->tp * r->pp);

	engine_scenario_default(sc);
	a100(&sc->gpu);
	knobf(sc, "layers", r->layers);
	knobf(sc, "hidden", r->hidden);
	knobf(sc, "heads", r->heads);
	knobf(sc, "kv_heads", r->heads);
	knobf(sc, "head_dim", r->hidden / r->heads);
	knobf(sc, "ffn", 4 * r->hidden);
	knob(sc, "vocab", "51200");
	knob(sc, "mlp", "plain");
	knob(sc, "norm", "layernorm");
	knob(sc, "bias", "all");
	knob(sc, "position", "learned");
	knob(sc, "max_positions", "2048");
	knob(sc, "tied_embeddings", "on");
	knob(sc, "dropout", "on");
	knob(sc, "seq", "2048");
	knob(sc, "precision", "mixed-fp16");
	knob(sc, "flash_attention", "off");
	knobf(sc, "gpus", r->gpus);
	knobf(sc, "tp", r->tp);
	knobf(sc, "pp", r->pp);
	knobf(sc, "vpp", r->vpp);
	knobf(sc, "batch", r->mbs);
	knobf(sc, "grad_accum", r->gbs / (dp * r->mbs));
	knobf(sc, "zero", r->zero);
	knob(sc, "recompute", r->recompute == FULL ? "full" : "selective");
	knob(sc, "sequence_parallel", r->sp ? "on" : "off");
	knob(sc, "overlap", r->overlap ? "on" : "off");
	/* Megatron-LM of 2021-22 (fused kernels, no TP or pipeline overlap yet); ZeRO-3 and
	 * MT-NLG ran DeepSpeed's engine over Megatron's fused model code */
	knob(sc, "stack", r->zero == 3 || strcmp(r->src, "S22") == 0 ? "deepspeed" : "megatron");
	knob(sc, "kernels", "fused");
	knob(sc, "tp_overlap", "off");
	knob(sc, "pp_overlap", "off");
	knob(sc, "mfu", "auto");
	engine_adapt(sc, NULL); /* the stack's defaults */
	if (engine_validate(sc, &err) != NAPKIN_OK)
		fail_msg("%s: %s", r->name, err.msg);
}

/* Megatron's hardware FLOPs per iteration (Narayanan et al. 2021, §5.1). */
static double megatron_flops(const struct run *r)
{
	double B = r->gbs, s = 2048, l = r->layers, h = r->hidden, V = 51200;
	return 96.0 * B * s * l * h * h * (1.0 + s / (6.0 * h) + V / (16.0 * l * h));
}

/* H100 SXM on a DGX H100 (NVIDIA datasheet; 8 × 400 Gb/s NDR per node). */
static void h100(struct engine_gpu *g)
{
	engine_gpu_h100_sxm(g);
}

/* Llama 3.1 as NeMo trains it: mixed bf16 with the distributed optimizer (ZeRO-1),
 * FlashAttention, sequence parallelism with TP, no recomputation, overlapped DP. */
static void lscenario(const struct lrun *r, struct engine_scenario *sc)
{
	struct napkin_err err;
	double dp = r->gpus / (r->tp * r->pp * r->cp);

	engine_scenario_default(sc);
	h100(&sc->gpu);
	knobf(sc, "layers", r->layers);
	knobf(sc, "hidden", r->hidden);
	knobf(sc, "heads", r->heads);
	knob(sc, "kv_heads", "8");
	knob(sc, "head_dim", "128");
	knobf(sc, "ffn", r->ffn);
	knob(sc, "vocab", "128256");
	knob(sc, "max_positions", "131072");
	knob(sc, "seq", "8192");
	knob(sc, "precision", "mixed-bf16");
	knob(sc, "flash_attention", "on");
	knobf(sc, "gpus", r->gpus);
	knobf(sc, "tp", r->tp);
	knobf(sc, "pp", r->pp);
	knobf(sc, "vpp", r->vpp);
	knobf(sc, "cp", r->cp);
	knob(sc, "batch", "1");
	knobf(sc, "grad_accum", r->gbs / dp);
	knob(sc, "zero", "1");
	knob(sc, "recompute", "none");
	knob(sc, "sequence_parallel", r->tp > 1 ? "on" : "off");
	knob(sc, "overlap", "on");
	knob(sc, "stack", "megatron"); /* NeMo 24.09: TP and pipeline communication overlapped */
	knob(sc, "mfu", "auto");
	engine_adapt(sc, NULL); /* the stack's defaults */
	if (engine_validate(sc, &err) != NAPKIN_OK)
		fail_msg("%s: %s", r->name, err.msg);
}

static int cmpd(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return x < y ? -1 : x > y;
}

static void test_published_runs(void **state)
{
	double err[NRUNS], sorted[NRUNS], worst = 0.0, median;
	size_t i;

	(void)state;
	printf("| run | source | layout | published | predicted | error |\n|---|---|---|---|---|---|\n");
	for (i = 0; i < NRUNS - NL; i++) {
		const struct run *r = &runs[i];
		struct engine_scenario sc;
		struct engine_result res;
		struct napkin_err e;
		double T, Tm;

		scenario(r, &sc);
		assert_int_equal(engine_compute(&sc, &res, &e), NAPKIN_OK);
		assert_int_equal(res.compute.source, ENGINE_TPUT_PREDICTED);
		T = res.compute.step_seconds;
		Tm = r->seconds > 0 ? r->seconds : megatron_flops(r) / (r->tflops * 1e12 * r->gpus);
		/* the error of the published quantity: a time, or a rate */
		err[i] = r->seconds > 0 ? T / Tm - 1.0 : Tm / T - 1.0;
		if (r->seconds > 0)
			printf("| %s | %s | tp %g pp %g v %g, %g GPUs, batch %g×%g | %.2f s | %.2f s | %+.1f%% |\n", r->name,
			       r->src, r->tp, r->pp, r->vpp, r->gpus, r->mbs, r->gbs, Tm, T, 100.0 * err[i]);
		else
			printf("| %s | %s | tp %g pp %g v %g, %g GPUs, batch %g×%g | %.0f TFLOP/s | %.0f TFLOP/s | %+.1f%% |\n",
			       r->name, r->src, r->tp, r->pp, r->vpp, r->gpus, r->mbs, r->gbs, r->tflops,
			       megatron_flops(r) / (T * r->gpus) / 1e12, 100.0 * err[i]);
		sorted[i] = fabs(err[i]);
		if (sorted[i] > worst)
			worst = sorted[i];
	}
	for (i = NRUNS - NL; i < NRUNS; i++) {
		const struct lrun *r = &lruns[i - (NRUNS - NL)];
		struct engine_scenario sc;
		struct engine_result res;
		struct napkin_err e;

		lscenario(r, &sc);
		assert_int_equal(engine_compute(&sc, &res, &e), NAPKIN_OK);
		err[i] = res.compute.step_seconds / r->seconds - 1.0;
		printf("| %s | DGXC | tp %g pp %g v %g cp %g, %g GPUs, batch 1×%g | %.2f s | %.2f s | %+.1f%% |\n", r->name,
		       r->tp, r->pp, r->vpp, r->cp, r->gpus, r->gbs, r->seconds, res.compute.step_seconds, 100.0 * err[i]);
		sorted[i] = fabs(err[i]);
		if (sorted[i] > worst)
			worst = sorted[i];
	}
	qsort(sorted, NRUNS, sizeof sorted[0], cmpd);
	median = NRUNS % 2 ? sorted[NRUNS / 2] : 0.5 * (sorted[NRUNS / 2 - 1] + sorted[NRUNS / 2]);
	printf("\nstep-time error over %zu runs: median %.1f%%, worst %.1f%%\n", NRUNS, 100.0 * median, 100.0 * worst);
	/* The aim is median ≤ 10% and no run over 25%; the model reaches the bounds
	 * below (docs/step-validation.md says which runs miss and why). A change that makes
	 * the fit worse fails here. */
	assert_true(median <= 0.12);
	assert_true(worst <= 0.45);
}

int main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_published_runs),
	};
	return testutil_run(argc, argv, "step_runs", tests, sizeof tests / sizeof tests[0]);
}
