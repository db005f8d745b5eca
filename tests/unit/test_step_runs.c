/*
 * The step-time model against published measured training runs (docs/step-validation.md
 * prints the same table). One calibration for every run (src/engine/gemm.c); each run is
 * only its published layout. The aim (issue 22): median error ≤ 10% and ≥ 80% of runs within
 * 20%, overall and in every group of at least 5 runs.
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
 *       530B", §2.4 (280, 350 and 420 DGX A100 nodes: 126, 121 and 113 TFLOP/s per GPU at
 *       batch 1920, iterations of 60.1, 50.2 and 44.4 s); bf16 (§2.3: "Model training is
 *       done with mixed precision using 16-bit bfloat on NVIDIA's Selene supercomputer"),
 *       for which Megatron-DeepSpeed's own rule is fp32 accumulation and all-reduce
 *       (megatron/arguments.py at 54884b5f, October 2021: "bfloat16 requires gradient
 *       accumulation and all-reduce to be done in fp32"). DeepSpeed's public pipeline engine
 *       had no bf16 path until its BF16_Optimizer (PR #1801, April 2022), which napkin
 *       charges (step_comm.c); the one MT-NLG ran in 2021 was not published.
 *  DGXC NVIDIA DGX Cloud benchmarking recipes (github.com/NVIDIA/dgxc-benchmarking,
 *       llama3.1/README_{8b,70b,405b}.md): Llama 3.1 on DGX H100 with NeMo 24.09, BF16,
 *       sequence 8192, measured seconds per step (the last training step).
 *  DGXC1 the same recipes at commit 143b90d (v25.01, github.com/NVIDIA/dgxc-benchmarking):
 *       llama3.1/README_{8b,70b,405b}.md FP8 tables (NeMo 24.09) and nemotron/README_{15b,
 *       340b}.md (Nemotron-4 15B and 340B, NeMo 24.11, BF16 and FP8, sequence 4096), DGX H100.
 *  DGXC5 the same at commit 68eaf7e (v25.05): llama3.1/README.md, Llama 3.1 405B on GB200
 *       NVL72, BF16 and FP8 (TP 4, PP 8, CP 2, VP 8, micro-batch 1); and (step_runs_typed.h,
 *       newruns, the last runs) its 256-GPU BF16 row and nemotron/README.md's BF16 tables,
 *       Nemotron-4 340B on 128-512 GB200 (weak and strong scaling) and 15B and 340B on H100.
 *  DGXC4 the same at commit 741c886 (v25.04): llama3.1/README.md, Llama 3.1 405B BF16 on 512
 *       and 2048 H100 at TP 8, PP 8, CP 2, VP 8.
 *  MB   Megatron-Bridge's performance summaries (github.com/NVIDIA-NeMo/Megatron-Bridge,
 *       docs/performance-summary-archive.md at commit 067f987d): pre-training throughput,
 *       tokens/s per GPU, of Llama 3 8B / 70B and Llama 3.1 405B with FP8 current scaling
 *       (FP8-CS) on DGX H100, DGX B200, GB200 and GB300, NeMo containers 25.11 and 26.06,
 *       and 26.06's SFT of Llama 3 70B (packed sequences of 4096);
 *       "FSDP" is Megatron-FSDP (napkin: ZeRO-3).
 *  BLOOM BigScience's BLOOM 176B run (Le Scao et al. 2022): the tr11-176B-ml training README
 *       and slurm script (github.com/bigscience-workshop/bigscience: 384 A100 80 GB, TP 4,
 *       PP 12, DP 8, micro-batch 2, global batch 2048, ZeRO-1, bf16, checkpointed
 *       activations); 150 TFLOP/s per GPU at batch 2048 (S. Bekman, ml-engineering, the batch
 *       ramp-up: 8 TFLOP/s at batch 16, 73 at 192, 150 at 2048), in Megatron-DeepSpeed's
 *       logged count (Megatron's formula with the checkpointing factor 4).
 *  L3   Dubey et al. 2024, "The Llama 3 Herd of Models", table 4 and §3.3.2: Llama 3 405B
 *       pre-training at sequence 8192 on 8192 and 16,384 H100 (TP 8, PP 16, DP 64 and 128,
 *       16M tokens a batch), 430 and 400 TFLOP/s per GPU, BF16 MFU 43% and 41%; the 131,072
 *       sequence row (CP 16) is left out: its FLOP count depends on an attention
 *       convention the paper does not state, which at that length is most of the FLOPs.
 *  USP  Hugging Face's Ultra-Scale Playbook benchmarks, nanotron on H100 (step_runs_typed.h).
 *  MLP  MLPerf Training v5.1 closed, the AMD Instinct submissions (github.com/mlcommons/
 *       training_results_v5.1): LoRA fine-tuning of Llama 2 70B on MI300X, MI325X and
 *       MI355X, pre-training of Llama 3.1 8B on MI355X, FP8, each log's measured training
 *       throughput (step_runs_typed.h says how it becomes a rate).
 * Not used (kept aside to check the model independently): the Megatron-LM README's H100
 * scaling table, NeMo 24.07's performance summary, llm-foundry's and torchtitan's
 * benchmarks, FlashAttention-2's table 1, TinyLlama, OPT, LLaMA-1, Megatron-LM 2019.
 *
 * Every run's error is that of its step time, predicted ÷ published − 1 (a published rate
 * gives the step as tokens per step ÷ the rate), and the runs' groups (stack × GPU family
 * × precision) are the engine's (src/engine/step_band.c): test_bands recomputes each
 * group's statistics and fails when the engine's band table disagrees.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine.h"
#include "presets.h"
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
	/* K22 table 5: iteration seconds; the layouts of its table 3 (22B: global and micro-batch 4) */
	{"22B full", "K22 t5", 6144, 48, 64, 8, 1, 1, 8, 4, 4, FULL, false, false, 0, 0, 1.42},
	{"22B sel+SP", "K22 t5", 6144, 48, 64, 8, 1, 1, 8, 4, 4, SEL, true, false, 0, 0, 1.10},
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
/* bounds on what the runs measure today (test_published_runs). Every run: the overall
 * median |error| (7.2% over 130 runs; 7.1% over the 119 before the DGX Cloud recipes'
 * BF16 runs of newruns, which hold the same bounds), the share within 20% (90%; 89%), the
 * worst run (65.0%, nanotron 80B on 32 H100) and the worst median of a group of at least 5
 * runs (DeepSpeed on A100, 13.0%; Megatron on Blackwell in BF16, 9.3%; nanotron on H100,
 * 8.8%; MLPerf's MI355X runs 3.5%, 18.9% before gemm.c's CDNA 4 row). The 102 runs before
 * MLPerf's AMD runs keep bounds of their own (7.2%, 87%, 65.0%), and the runs before the
 * Ultra-Scale Playbook's their own, tighter ones (6.5%, 95%, 24.6%), so that none of them can
 * silently get worse. All were tightened with the straggler factor (docs/step-time.md,
 * "Stragglers"), from 10.2%, 85%, 66.5%, 19% (group), 10.0% and 84% (the 102), 9.5%, 91% and
 * 27% (the 76): 9.6%, 88%, 65.9%, 16.5%, 9.7%, 85%, 9.0%, 92%, 25.9% before it. The runs'
 * knobs were then checked against their sources, and four kinds of row corrected (Nemotron-4
 * 340B's head size 192, not 128; the DGX Cloud 405B recipes' 16 query groups; BLOOM's dropout
 * 0.1; Korthikanti's 22B at micro-batch 4): the 76 runs' median went 6.5% → 6.9% (the bigger
 * 340B reads slower than the H100 runs), its bound 6.8% → 7.0% with it. */
#define BOUND_MEDIAN_ALL 0.075
#define BOUND_WITHIN20_ALL 0.89
#define BOUND_MEDIAN 0.075
#define BOUND_WITHIN20 0.86
#define BOUND_WORST 0.655
#define BOUND_GROUP_MEDIAN 0.14
#define BOUND_MEDIAN_BEFORE 0.070
#define BOUND_WITHIN20_BEFORE 0.94
#define BOUND_WORST_BEFORE 0.25

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
	/* N21 and K22 in fp16; MT-NLG in bf16 (S22 above) */
	knob(sc, "precision", strcmp(r->src, "S22") == 0 ? "mixed-bf16" : "mixed-fp16");
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
	/* the recipes' num_query_groups: 8 for 8B and 70B, 16 for 405B (llama3.1_405b.yaml) */
	knob(sc, "kv_heads", r->hidden == 16384 ? "16" : "8");
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

#include "step_runs_typed.h"

#define NV (sizeof vruns / sizeof vruns[0])
#define NU (sizeof uspruns / sizeof uspruns[0])
#define NF (sizeof fruns / sizeof fruns[0] + NU)
#define NA (sizeof amdruns / sizeof amdruns[0])
#define NN (sizeof newruns / sizeof newruns[0])
#define NALL (NRUNS + NV + NF + NA + NN)

static struct preset_registry *registry(void)
{
	static struct preset_registry *reg;
	struct preset_options o = {true, NULL};
	struct napkin_err err;

	if (reg == NULL && preset_registry_new(&reg, &o, &err) != NAPKIN_OK)
		fail_msg("registry: %s", err.msg);
	return reg;
}

static void vscenario_knobs(const char *name, const char *knobs, struct engine_scenario *sc)
{
	struct engine_catalog cat = preset_catalog(registry());
	struct engine_assign a[48];
	char text[1024], *save = NULL, *tok;
	struct napkin_err err;
	size_t n = 0;

	snprintf(text, sizeof text, "%s", knobs);
	engine_scenario_default(sc);
	for (tok = strtok_r(text, " ", &save); tok != NULL; tok = strtok_r(NULL, " ", &save)) {
		char *eq = strchr(tok, '=');
		assert_non_null(eq);
		assert_true(n < sizeof a / sizeof a[0]);
		*eq = '\0';
		memset(&a[n], 0, sizeof a[n]);
		a[n].knob = engine_knob_find(tok);
		if (a[n].knob == NULL)
			fail_msg("%s: no knob %s", name, tok);
		a[n].text = eq + 1;
		n++;
	}
	if (engine_apply(sc, a, n, &cat, &err) != NAPKIN_OK)
		fail_msg("%s: %s", name, err.msg);
}

static void vscenario(const struct vrun *r, struct engine_scenario *sc)
{
	vscenario_knobs(r->name, r->knobs, sc);
}

/* The FLOPs of one step in the run's published count. */
static double published_flops(const struct frun *r, const struct engine_result *res)
{
	if (r->count == COUNT_MEGATRON)
		return 96.0 * r->B * r->s * r->l * r->h * r->h *
		       (1.0 + r->s / (6.0 * r->h) + r->V / (16.0 * r->l * r->h));
	return res->compute.tokens_per_step * res->compute.flops_per_token_train;
}

static int cmpd(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return x < y ? -1 : x > y;
}

/* One run's outcome: its step-time error and the engine's group for it. */
struct outcome {
	double err;
	int stack, family, precision;
};
static struct outcome out[NALL];
static bool ran;

static void record(size_t i, const struct engine_result *res, double T, double Tpub)
{
	out[i].err = T / Tpub - 1.0;
	out[i].stack = res->compute.band.stack;
	out[i].family = res->compute.band.family;
	out[i].precision = res->compute.band.precision;
}

/* A run typed as knobs (step_runs_typed.h): predicted, recorded at slot k, printed. */
static void run_typed(const struct vrun *r, size_t k)
{
	struct engine_scenario sc;
	struct engine_result res;
	struct napkin_err e;
	double T, Tm;

	vscenario(r, &sc);
	if (engine_compute(&sc, &res, &e) != NAPKIN_OK)
		fail_msg("%s: %s", r->name, e.msg);
	assert_int_equal(res.compute.source, ENGINE_TPUT_PREDICTED);
	T = res.compute.step_seconds;
	Tm = r->seconds > 0 ? r->seconds : res.compute.tokens_per_step / (r->tps_gpu * (double)sc.gpus);
	record(k, &res, T, Tm);
	if (r->seconds > 0)
		printf("| %s | %s | tp %lld pp %lld v %lld cp %lld zero %d, %lld GPUs, batch %lld×%.0f | %.2f s | %.2f s | %+.1f%% |\n",
		       r->name, r->src, (long long)sc.tp, (long long)sc.pp, (long long)sc.vpp, (long long)sc.cp, (int)sc.zero,
		       (long long)sc.gpus, (long long)sc.batch, res.compute.global_batch, Tm, T, 100.0 * out[k].err);
	else
		printf("| %s | %s | tp %lld pp %lld v %lld cp %lld zero %d, %lld GPUs, batch %lld×%.0f | %.0f tokens/s/GPU | %.0f tokens/s/GPU | %+.1f%% |\n",
		       r->name, r->src, (long long)sc.tp, (long long)sc.pp, (long long)sc.vpp, (long long)sc.cp, (int)sc.zero,
		       (long long)sc.gpus, (long long)sc.batch, res.compute.global_batch, r->tps_gpu,
		       res.compute.tokens_per_step / (T * (double)sc.gpus), 100.0 * out[k].err);
}

static void run_all(void)
{
	size_t i;

	ran = true;
	printf("| run | source | layout | published | predicted | step error |\n|---|---|---|---|---|---|\n");
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
		record(i, &res, T, Tm);
		if (r->seconds > 0)
			printf("| %s | %s | tp %g pp %g v %g, %g GPUs, batch %g×%g | %.2f s | %.2f s | %+.1f%% |\n", r->name,
			       r->src, r->tp, r->pp, r->vpp, r->gpus, r->mbs, r->gbs, Tm, T, 100.0 * out[i].err);
		else
			printf("| %s | %s | tp %g pp %g v %g, %g GPUs, batch %g×%g | %.0f TFLOP/s | %.0f TFLOP/s | %+.1f%% |\n",
			       r->name, r->src, r->tp, r->pp, r->vpp, r->gpus, r->mbs, r->gbs, r->tflops,
			       megatron_flops(r) / (T * r->gpus) / 1e12, 100.0 * out[i].err);
	}
	for (i = NRUNS - NL; i < NRUNS; i++) {
		const struct lrun *r = &lruns[i - (NRUNS - NL)];
		struct engine_scenario sc;
		struct engine_result res;
		struct napkin_err e;

		lscenario(r, &sc);
		assert_int_equal(engine_compute(&sc, &res, &e), NAPKIN_OK);
		record(i, &res, res.compute.step_seconds, r->seconds);
		printf("| %s BF16 | DGXC | tp %g pp %g v %g cp %g, %g GPUs, batch 1×%g | %.2f s | %.2f s | %+.1f%% |\n", r->name,
		       r->tp, r->pp, r->vpp, r->cp, r->gpus, r->gbs, r->seconds, res.compute.step_seconds, 100.0 * out[i].err);
	}
	for (i = 0; i < NV; i++)
		run_typed(&vruns[i], NRUNS + i);
	for (i = 0; i < NF; i++) {
		const struct frun *r = i < sizeof fruns / sizeof fruns[0] ? &fruns[i] : &uspruns[i - sizeof fruns / sizeof fruns[0]];
		struct engine_scenario sc;
		struct engine_result res;
		struct napkin_err e;
		double T, F, Tm;

		vscenario_knobs(r->name, r->knobs, &sc);
		if (engine_compute(&sc, &res, &e) != NAPKIN_OK)
			fail_msg("%s: %s", r->name, e.msg);
		assert_int_equal(res.compute.source, ENGINE_TPUT_PREDICTED);
		T = res.compute.step_seconds;
		F = published_flops(r, &res);
		Tm = F / (r->tflops * 1e12 * (double)sc.gpus);
		record(NRUNS + NV + i, &res, T, Tm);
		printf("| %s | %s | tp %lld pp %lld v %lld cp %lld zero %d, %lld GPUs, batch %lld×%.0f | %.0f TFLOP/s (%s) | %.0f TFLOP/s | %+.1f%% |\n",
		       r->name, r->src, (long long)sc.tp, (long long)sc.pp, (long long)sc.vpp, (long long)sc.cp, (int)sc.zero,
		       (long long)sc.gpus, (long long)sc.batch, res.compute.global_batch, r->tflops,
		       r->count == COUNT_MEGATRON ? "Megatron's hardware count" : "model FLOPs", F / (T * (double)sc.gpus) / 1e12,
		       100.0 * out[NRUNS + NV + i].err);
	}
	for (i = 0; i < NA; i++)
		run_typed(&amdruns[i], NRUNS + NV + NF + i);
	for (i = 0; i < NN; i++)
		run_typed(&newruns[i], NRUNS + NV + NF + NA + i);
}

/* The statistics of one group: count, 80th percentile of |error| (nearest rank), median
 * |error|, share within 20%, signed median. */
struct stats {
	int n;
	double q80, median, within20, bias;
};

static double median_of(double *v, int n)
{
	qsort(v, (size_t)n, sizeof v[0], cmpd);
	return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

static struct stats group_stats(int stack, int family, int prec)
{
	static double a[NALL], sgn[NALL];
	struct stats st = {0, 0, 0, 0, 0};
	int w = 0, k;
	size_t i;

	for (i = 0; i < NALL; i++) {
		if ((stack >= 0 && out[i].stack != stack) || (family >= 0 && out[i].family != family) ||
		    (prec >= 0 && out[i].precision != prec))
			continue;
		a[st.n] = fabs(out[i].err);
		sgn[st.n] = out[i].err;
		w += fabs(out[i].err) <= 0.20;
		st.n++;
	}
	if (st.n == 0)
		return st;
	st.median = median_of(a, st.n);
	k = (int)ceil(0.8 * st.n) - 1;
	st.q80 = a[k];
	st.within20 = (double)w / st.n;
	st.bias = median_of(sgn, st.n);
	return st;
}

static const char *sname(int s)
{
	return s < 0 ? "any" : engine_stack_name((enum engine_stack)s);
}

/* The median |error|, the share within 20% and the worst |error| of the first n runs. */
static void prefix_stats(size_t n, double *med, double *within20, double *worst)
{
	static double a[NALL];
	size_t i, w = 0;

	*worst = 0.0;
	for (i = 0; i < n; i++) {
		a[i] = fabs(out[i].err);
		w += a[i] <= 0.20;
		*worst = a[i] > *worst ? a[i] : *worst;
	}
	*med = median_of(a, (int)n);
	*within20 = (double)w / (double)n;
}

static void test_published_runs(void **state)
{
	struct stats all;
	double worst = 0.0;
	size_t i;

	(void)state;
	run_all();
	for (i = 0; i < NALL; i++)
		if (fabs(out[i].err) > worst)
			worst = fabs(out[i].err);
	all = group_stats(-1, -1, -1);
	printf("\nstep-time error over %zu runs: median %.1f%%, within 20%% %.0f%%, signed median %+.1f%%, worst %.1f%%\n",
	       NALL, 100.0 * all.median, 100.0 * all.within20, 100.0 * all.bias, 100.0 * worst);
	assert_true(NALL >= 60);
	/* The aim is median ≤ 10% and ≥ 80% within 20%; the model reaches the bounds
	 * below over these runs (docs/step-validation.md says where it misses). A change that
	 * makes the fit worse fails here. */
	assert_true(all.median <= BOUND_MEDIAN_ALL);
	assert_true(all.within20 >= BOUND_WITHIN20_ALL);
	assert_true(worst <= BOUND_WORST);
	{ /* the runs before newruns (those come last) hold the overall bounds too */
		double med, w20, wst;
		size_t n = NALL - NN;
		prefix_stats(n, &med, &w20, &wst);
		printf("before the DGX Cloud recipes' BF16 runs, %zu runs: median %.1f%%, within 20%% %.0f%%, worst %.1f%%\n",
		       n, 100.0 * med, 100.0 * w20, 100.0 * wst);
		assert_true(med <= BOUND_MEDIAN_ALL && w20 >= BOUND_WITHIN20_ALL && wst <= BOUND_WORST);
	}
	{ /* the runs before MLPerf's AMD runs (those come after them) keep the bounds they had */
		double med, w20, wst;
		size_t n = NALL - NA - NN;
		prefix_stats(n, &med, &w20, &wst);
		printf("before MLPerf's AMD runs, %zu runs: median %.1f%%, within 20%% %.0f%%, worst %.1f%%\n", n, 100.0 * med,
		       100.0 * w20, 100.0 * wst);
		assert_true(med <= BOUND_MEDIAN && w20 >= BOUND_WITHIN20 && wst <= BOUND_WORST);
	}
	{ /* and the runs before USP's (USP's and then MLPerf's AMD runs come last) their own */
		double med, w20, wst;
		size_t n = NALL - NU - NA - NN;
		prefix_stats(n, &med, &w20, &wst);
		printf("before the Ultra-Scale Playbook's runs, %zu runs: median %.1f%%, within 20%% %.0f%%, worst %.1f%%\n", n,
		       100.0 * med, 100.0 * w20, 100.0 * wst);
		assert_true(med <= BOUND_MEDIAN_BEFORE && w20 >= BOUND_WITHIN20_BEFORE && wst <= BOUND_WORST_BEFORE);
	}
	for (i = 0; i < NALL; i++) {
		struct stats g = group_stats(out[i].stack, out[i].family, out[i].precision);
		if (g.n >= 5 && g.median > BOUND_GROUP_MEDIAN)
			fail_msg("group %s/%d/%d: median |error| %.1f%% over %d runs", sname(out[i].stack), out[i].family,
				 out[i].precision, 100.0 * g.median, g.n);
	}
}

/* Every group the runs fall in, and the wider ones a scenario falls back to: their
 * statistics recomputed here must be the engine's band table, row for row. */
static void test_bands(void **state)
{
	size_t nb, i, j, checked = 0;
	const struct engine_band_row *rows = engine_step_bands(&nb);
	int keys[NALL * 4][3], nk = 0, k;

	(void)state;
	if (!ran)
		run_all();
	for (i = 0; i < NALL; i++) {
		int cand[4][3] = {{out[i].stack, out[i].family, out[i].precision},
				  {-1, out[i].family, out[i].precision},
				  {-1, out[i].family, -1},
				  {-1, -1, -1}};
		for (j = 0; j < 4; j++) {
			for (k = 0; k < nk; k++)
				if (memcmp(keys[k], cand[j], sizeof cand[j]) == 0)
					break;
			if (k == nk)
				memcpy(keys[nk++], cand[j], sizeof cand[j]);
		}
	}
	printf("\n| stack | GPU family | precision | runs | median |error| | within 20%% | signed median | ± (p80 |error|) |\n"
	       "|---|---|---|---|---|---|---|---|\n");
	for (k = 0; k < nk; k++) {
		struct stats st = group_stats(keys[k][0], keys[k][1], keys[k][2]);
		const char *fam = keys[k][1] < 0 ? "any" : engine_band_family_name(keys[k][1]);
		printf("| %s | %s | %s | %d | %.1f%% | %.0f%% | %+.1f%% | %.1f%% |\n", sname(keys[k][0]), fam,
		       keys[k][2] < 0 ? "any" : keys[k][2] == 2 ? "FP8" : "BF16/FP16", st.n, 100.0 * st.median,
		       100.0 * st.within20, 100.0 * st.bias, 100.0 * st.q80);
	}
	printf("\nthe engine's table (src/engine/step_band.c):\n");
	for (k = 0; k < nk; k++) {
		struct stats st = group_stats(keys[k][0], keys[k][1], keys[k][2]);
		printf("\t{%d, %d, %d, %d, %.3f, %.3f, %.3f, %.3f},\n", keys[k][0], keys[k][1], keys[k][2], st.n, st.q80,
		       st.median, st.within20, st.bias);
	}
	for (k = 0; k < nk; k++) {
		struct stats st = group_stats(keys[k][0], keys[k][1], keys[k][2]);
		const struct engine_band_row *r = NULL;
		for (i = 0; i < nb; i++)
			if (rows[i].stack == keys[k][0] && rows[i].family == keys[k][1] && rows[i].precision == keys[k][2])
				r = &rows[i];
		if (r == NULL)
			fail_msg("group %s/%d/%d (%d runs) is not in the engine's band table", sname(keys[k][0]), keys[k][1],
				 keys[k][2], st.n);
		if (r->count != st.n || fabs(r->q80 - st.q80) > 0.0006 || fabs(r->median - st.median) > 0.0006 ||
		    fabs(r->within20 - st.within20) > 0.0006 || fabs(r->bias - st.bias) > 0.0006)
			fail_msg("group %s/%d/%d: the table has %d runs ±%.3f, validation measures %d runs ±%.3f (median "
				 "%.3f, within 20%% %.3f, bias %.3f)",
				 sname(keys[k][0]), keys[k][1], keys[k][2], r->count, r->q80, st.n, st.q80, st.median,
				 st.within20, st.bias);
		checked++;
	}
	/* and no row the validation does not measure */
	assert_int_equal(checked, nb);
}

int main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_published_runs),
		cmocka_unit_test(test_bands),
	};
	return testutil_run(argc, argv, "step_runs", tests, sizeof tests / sizeof tests[0]);
}
