/*
 * The step-time model's formulas against their sources, and its properties.
 *  - The 1F1B bubble is (p−1) micro-batch slots, (p−1)/v with v virtual stages
 *    (Narayanan et al. 2021, §2.2).
 *  - Full recomputation runs the forward again: about a third more work (Korthikanti et
 *    al. 2022, §5: 33% without their selective scheme).
 *  - Stragglers: the expected largest of N normal draws as Tippett (1925) and Harter (1961)
 *    tabulate it, and the per-GPU spread as ml-engineering saw it: "5% and higher
 *    differences on an 8-gpu node" (compute/accelerator/README.md, "Not all accelerators are
 *    created equal").
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "engine.h"
#include "internal.h" /* the GEMM rows and families */
#include "testengine.h"
#include "testutil.h"

static void run(const struct engine_scenario *sc, struct engine_result *r)
{
	struct napkin_err err;
	if (engine_compute(sc, r, &err) != NAPKIN_OK)
		fail_msg("%s", err.msg);
}

/* Llama-2-13B on 16 H100s: the example of layouts that all read the same time. */
static void base(struct engine_scenario *sc)
{
	engine_scenario_default(sc);
	te_set(sc, "layers", "40");
	te_set(sc, "hidden", "5120");
	te_set(sc, "heads", "40");
	te_set(sc, "kv_heads", "40");
	te_set(sc, "ffn", "13824");
	te_set(sc, "gpus", "16");
	te_set(sc, "batch", "1");
	te_set(sc, "grad_accum", "16");
}

static void test_parts_sum_and_source(void **state)
{
	struct engine_scenario sc;
	struct engine_result r;
	double sum = 0.0;
	int i;

	(void)state;
	base(&sc);
	run(&sc, &r);
	assert_int_equal(r.compute.source, ENGINE_TPUT_PREDICTED);
	assert_string_equal(engine_mfu_source_name(r.compute.source), "predicted");
	for (i = 0; i < ENGINE_STEP_PARTS; i++)
		sum += engine_step_part(&r.compute.step, i);
	assert_close(sum, r.compute.step_seconds, 1e-12);
	assert_true(r.compute.mfu > 0.2 && r.compute.mfu < 0.8);
	/* an explicit mfu assumes; a measurement wins */
	te_set(&sc, "mfu", "0.4");
	run(&sc, &r);
	assert_int_equal(r.compute.source, ENGINE_TPUT_MFU);
	assert_close(r.compute.mfu, 0.4, 1e-12);
	te_set(&sc, "step_time", "10");
	run(&sc, &r);
	assert_string_equal(engine_mfu_source_name(r.compute.source), "measured");
	assert_close(r.compute.step_seconds, 10.0, 1e-12);
}

static double step(const struct engine_scenario *sc)
{
	struct engine_result r;
	run(sc, &r);
	return r.compute.step_seconds;
}

static void test_layouts_differ(void **state)
{
	struct engine_scenario a, b;

	(void)state;
	base(&a);
	b = a;
	te_set(&b, "tp", "2");
	assert_true(fabs(step(&a) / step(&b) - 1.0) > 0.01);
	b = a;
	te_set(&b, "zero", "3");
	te_set(&b, "overlap", "off");
	assert_true(step(&b) > step(&a)); /* ZeRO-3's gathers, not hidden, cost time */
}

static void test_more_bandwidth_never_slower(void **state)
{
	struct engine_scenario sc;
	static const char *keys[] = {"gpu_bandwidth", "network_bw"};
	size_t k;
	double prev, v;
	int e;

	(void)state;
	for (k = 0; k < 2; k++) {
		base(&sc);
		te_set(&sc, "tp", "4");
		te_set(&sc, "zero", "3");
		prev = INFINITY;
		for (e = 0; e <= 8; e++) { /* 1e9 to 6.6e12, ×3 */
			char buf[32];
			v = 1e9 * pow(3.0, e);
			snprintf(buf, sizeof buf, "%g", v);
			te_set(&sc, keys[k], buf);
			assert_true(step(&sc) <= prev * (1.0 + 1e-12));
			prev = step(&sc);
		}
	}
}

static void test_bigger_microbatch_never_less_efficient(void **state)
{
	struct engine_scenario sc;
	struct engine_result r;
	double prev = 0.0;
	int b;

	(void)state;
	base(&sc);
	te_set(&sc, "seq", "512");
	for (b = 1; b <= 64; b *= 2) {
		char buf[16];
		snprintf(buf, sizeof buf, "%d", b);
		te_set(&sc, "batch", buf);
		run(&sc, &r);
		assert_true(r.compute.gemm_efficiency >= prev - 1e-12);
		prev = r.compute.gemm_efficiency;
	}
}

static void test_tp_across_nodes_slower(void **state)
{
	struct engine_scenario in, out;

	(void)state;
	base(&in);
	te_set(&in, "tp", "8");
	out = in;
	te_set(&out, "gpus_per_node", "4");
	assert_true(step(&out) > step(&in));
}

static void test_zero3_falls_with_dp(void **state)
{
	/* fixed global batch 1536 × 2048: 175B-style ZeRO-3 as Narayanan et al. 2021 table 2 */
	struct engine_scenario sc;
	struct engine_result r;
	double prev = INFINITY;
	int g;

	(void)state;
	engine_scenario_default(&sc);
	te_set(&sc, "params", "175B");
	te_set(&sc, "seq", "2048");
	te_set(&sc, "zero", "3");
	te_set(&sc, "recompute", "full");
	for (g = 384; g <= 1536; g *= 2) {
		char gb[16], mb[16];
		snprintf(gb, sizeof gb, "%d", g);
		snprintf(mb, sizeof mb, "%d", 1536 / g);
		te_set(&sc, "gpus", gb);
		te_set(&sc, "batch", mb);
		te_set(&sc, "grad_accum", "1");
		run(&sc, &r);
		assert_true(r.compute.achieved_flops < prev);
		prev = r.compute.achieved_flops;
	}
}

static void test_never_above_roof(void **state)
{
	static const char *seqs[] = {"64", "512", "4096"};
	static const char *models[] = {"124M", "7B"};
	struct engine_scenario sc;
	struct engine_result r;
	size_t i, j;

	(void)state;
	for (i = 0; i < 3; i++)
		for (j = 0; j < 2; j++) {
			engine_scenario_default(&sc);
			te_set(&sc, "params", models[j]);
			te_set(&sc, "seq", seqs[i]);
			te_set(&sc, "max_positions", "4096");
			run(&sc, &r);
			assert_true(r.compute.achieved_flops <=
				    r.roofline.points[ENGINE_PT_TRAIN].attainable * (1.0 + 1e-9));
		}
}

/* Predicted hardware FLOP/s never exceed the peak, at any context: HFU ≤ 1 and the
 * achieved rate ≤ the roofline's attainable, from 4k to 1M tokens, with and without
 * context parallelism and recomputation, on H100 and A100 (whose FlashAttention-2 rate,
 * 55% of peak on the causal half it executes, is 110% on the whole score matrix HFU
 * counts). The trial's case: Llama-3-8B at 1M on 512 GPUs, cp 64, full recompute, ZeRO-3
 * read HFU 1.028 and achieved 1.017 PFLOP/s over the attainable 989.5 TFLOP/s. */
static void llama3_8b(struct engine_scenario *sc)
{
	engine_scenario_default(sc);
	te_set(sc, "layers", "32");
	te_set(sc, "hidden", "4096");
	te_set(sc, "heads", "32");
	te_set(sc, "kv_heads", "8");
	te_set(sc, "ffn", "14336");
	te_set(sc, "vocab", "128256");
	te_set(sc, "max_positions", "1M");
}

static void test_hfu_at_most_one_long_context(void **state)
{
	static const char *seqs[] = {"4k", "32k", "128k", "256k", "1M"};
	static const char *recomp[] = {"none", "selective", "full"};
	static const char *gpus[] = {"h100-sxm", "a100-80gb-sxm"};
	struct engine_scenario sc;
	struct engine_result r;
	size_t i, j, g, cp;
	double worst = 0.0;

	(void)state;
	for (g = 0; g < 2; g++)
		for (cp = 0; cp < 2; cp++)
			for (j = 0; j < 3; j++)
				for (i = 0; i < 5; i++) {
					llama3_8b(&sc);
					te_set(&sc, "seq", seqs[i]);
					te_set(&sc, "recompute", recomp[j]);
					if (cp == 1) {
						te_set(&sc, "gpus", "512");
						te_set(&sc, "cp", "64");
						te_set(&sc, "zero", "3");
					}
					if (g == 1) { /* A100 SXM4 80 GB (NVIDIA datasheet) */
						snprintf(sc.gpu.id, sizeof sc.gpu.id, "%s", gpus[g]);
						sc.gpu.peak[ENGINE_DT_BF16] = sc.gpu.peak[ENGINE_DT_FP16] = 312e12;
						sc.gpu.bandwidth = 2.039e12;
						sc.gpu.link_bw = 300e9;
						sc.gpu.sm_count = 108;
					}
					run(&sc, &r);
					if (!(r.compute.hfu <= 1.0) ||
					    !(r.compute.achieved_flops <= r.roofline.points[ENGINE_PT_TRAIN].attainable * (1.0 + 1e-12)))
						fail_msg("seq %s, recompute %s, cp %s, %s: HFU %.4f, achieved %.4g over attainable %.4g",
							 seqs[i], recomp[j], cp ? "64" : "1", g ? "A100" : "H100", r.compute.hfu,
							 r.compute.achieved_flops, r.roofline.points[ENGINE_PT_TRAIN].attainable);
					assert_true(r.compute.mfu <= r.compute.hfu);
					if (r.compute.hfu > worst)
						worst = r.compute.hfu;
				}
	/* long context is attention-bound, near (not over) the peak */
	assert_true(worst > 0.85);
}

static void test_bubble_and_recompute(void **state)
{
	struct engine_scenario sc;
	struct engine_result r, rv, rf;
	double mb;

	(void)state;
	base(&sc);
	te_set(&sc, "pp", "4");
	te_set(&sc, "grad_accum", "8");
	run(&sc, &r);
	/* (p−1) slots of one micro-batch's stage time, m slots of work */
	mb = (r.compute.step_seconds - r.compute.step.bubble - r.compute.step.dp_comm - r.compute.step.optimizer) / 8.0;
	assert_close(r.compute.step.bubble, 3.0 * mb, 1e-9);
	te_set(&sc, "vpp", "2");
	run(&sc, &rv);
	assert_close(rv.compute.step.bubble, 0.5 * 3.0 * mb, 0.02);
	/* full recomputation: about a third more (Korthikanti et al. 2022: 33%) */
	base(&sc);
	run(&sc, &r);
	te_set(&sc, "recompute", "full");
	run(&sc, &rf);
	assert_true(rf.compute.step_seconds / r.compute.step_seconds > 1.2);
	assert_true(rf.compute.step_seconds / r.compute.step_seconds < 1.4);
	/* FlashAttention makes the step faster */
	base(&sc);
	te_set(&sc, "flash_attention", "off");
	assert_true(step(&sc) > r.compute.step_seconds);
}

/* A profile with no link figures (a hand-written YAML: memory, bandwidth, one peak) still
 * predicts a finite step: links fall back to a PCIe Gen3 x16 figure. */
static void test_no_links(void **state)
{
	struct engine_scenario sc;
	struct engine_result r;

	(void)state;
	base(&sc);
	sc.gpu.link_bw = sc.gpu.pcie_bw = sc.gpu.network_bw = 0.0;
	sc.gpu.sm_count = 0;
	run(&sc, &r);
	assert_true(isfinite(r.compute.step_seconds) && r.compute.step.dp_comm >= 0.0);
}

static void test_uneven_stages(void **state)
{
	struct engine_scenario sc;
	struct engine_result r;

	(void)state;
	base(&sc);
	te_set(&sc, "pp", "3"); /* 40 layers on 3 stages: 14 on the heaviest */
	te_set(&sc, "gpus", "12");
	run(&sc, &r);
	assert_close(r.memory.layers_per_stage, 14.0, 1e-12);
}

/* CP holds 1/cp of each sequence's activations; EP holds 1/ep of the experts. */
/* ZeRO-2 keeps only its shard of the gradients, so DeepSpeed's stage 2 reduce-scatters them
 * in every micro-batch's backward (deepspeed/runtime/zero/stage_1_and_2.py: the gradient
 * hooks reduce each bucket as it fills, whether or not it is the accumulation boundary);
 * ZeRO-1 reduces once per step. With overlap off each extra reduce-scatter is exposed, and
 * one costs half of ZeRO-1's reduce-scatter + all-gather of the same bytes (16-bit
 * gradients and weights): over 16 micro-batches ZeRO-2 adds 15 × that. With one
 * micro-batch the two are the same. Under DeepSpeed, the stack the source is (stack hf's
 * ZeRO-1 reduces per 25 MiB DDP bucket across nodes, which ZeRO-2 is not: step_comm.c). */
static void test_zero2_reduces_every_microbatch(void **state)
{
	struct engine_scenario sc;
	struct engine_result z1, z2, z1m1, z2m1;

	(void)state;
	base(&sc);
	te_set(&sc, "stack", "deepspeed");
	te_set(&sc, "overlap", "off");
	te_set(&sc, "zero", "1");
	run(&sc, &z1);
	te_set(&sc, "zero", "2");
	run(&sc, &z2);
	assert_close(z2.compute.step.dp_comm - z1.compute.step.dp_comm, 15.0 * z1.compute.step.dp_comm / 2.0, 1e-9);
	te_set(&sc, "grad_accum", "1");
	run(&sc, &z2m1);
	te_set(&sc, "zero", "1");
	run(&sc, &z1m1);
	assert_close(z2m1.compute.step.dp_comm, z1m1.compute.step.dp_comm, 1e-12);
	/* overlapped, each micro-batch hides its reduce-scatter behind its backward but for the
	 * last bucket: ZeRO-2 still costs more than ZeRO-1 */
	base(&sc);
	te_set(&sc, "zero", "2");
	run(&sc, &z2);
	te_set(&sc, "zero", "1");
	run(&sc, &z1);
	assert_true(z2.compute.step_seconds_predicted > z1.compute.step_seconds_predicted);
}

static void test_cp_ep_memory(void **state)
{
	struct engine_scenario sc;
	struct engine_result a, b;

	(void)state;
	base(&sc);
	te_set(&sc, "seq", "8192");
	te_set(&sc, "max_positions", "8192");
	run(&sc, &a);
	te_set(&sc, "cp", "2");
	run(&sc, &b);
	assert_close(b.memory.activations, a.memory.activations / 2.0, 1e-9);
	assert_int_equal(b.dp, a.dp / 2);
	/* a Mixtral-style MoE: 8 experts, top-2 */
	base(&sc);
	te_set(&sc, "experts", "8");
	te_set(&sc, "top_k", "2");
	run(&sc, &a);
	te_set(&sc, "ep", "8");
	run(&sc, &b);
	assert_true(b.params.per_gpu < a.params.per_gpu / 2.0);
	assert_true(b.compute.step.ep_comm > 0.0);
}

/* The power-limited PCIe cards take their own GEMM rows (gemm.c), each at its source's figure:
 * torch.mm on square bf16 matrices (github.com/zzc0721/torch-performance-test-data, issue 95)
 * H100 PCIe 495.93 TFLOP/s at 4096³ of 756.5; the MAMF table's A100 PCIe 252.9 of 312 at
 * 2048×5120×6144; L40S 269.15 of 362.05 (issue 43); L4 59.40 of 121 at 8192³ (issue 120).
 * H200 NVL: cuBLAS (torch.matmul, fp16) 684.78 of 835.5 at 8192³ (NVIDIA/tilus pull request
 * 154, examples/hopper_matmul/benchmark.py at 8970fbba).
 * At the source's shape a card reads that figure times its family's sustained factor; the SXM
 * siblings keep theirs, and the L40S is not taken for an L4. */
static void test_pcie_gemm_rows(void **state)
{
	static const struct {
		const char *id;
		double tflops, peak, m, n, k, sustained;
		int sms;
	} rows[] = {
		{"h100-pcie", 495.93, 756.5, 4096, 4096, 4096, 708.5 / 841.9, 114},
		{"a100-80gb-pcie", 252.9, 312, 2048, 5120, 6144, 1305.0 / 1410.0, 108},
		{"l40s", 269.15, 362.05, 8192, 8192, 8192, 1305.0 / 1410.0, 142},
		{"l4", 59.40, 121, 8192, 8192, 8192, 1305.0 / 1410.0, 58},
		{"h200-nvl", 684.78, 835.5, 8192, 8192, 8192, 708.5 / 841.9, 132},
	};
	struct engine_gpu g;
	size_t i;

	(void)state;
	for (i = 0; i < sizeof rows / sizeof rows[0]; i++) {
		const struct eng_family *fam;
		memset(&g, 0, sizeof g);
		snprintf(g.id, sizeof g.id, "%s", rows[i].id);
		g.sm_count = rows[i].sms;
		fam = eng_family(&g);
		assert_string_equal(fam->prefix, rows[i].id);
		assert_close(fam->gemm_best, rows[i].tflops / rows[i].peak, 1e-3);
		assert_close(eng_gemm_efficiency(&g, fam, rows[i].m, rows[i].n, rows[i].k),
			     rows[i].sustained * rows[i].tflops / rows[i].peak, 1e-3);
	}
	/* the SXM cards keep their rows: H100 SXM at H200's MSMF (708.5 of 989.5), A100 SXM at MAMF */
	memset(&g, 0, sizeof g);
	snprintf(g.id, sizeof g.id, "%s", "h100-sxm");
	assert_string_equal(eng_family(&g)->prefix, "h100");
	assert_close(eng_family(&g)->gemm_best, 0.716, 1e-9);
	snprintf(g.id, sizeof g.id, "%s", "a100-80gb-sxm");
	assert_string_equal(eng_family(&g)->prefix, "a100");
	/* the H200 NVL's FP8 has no measurement: it keeps the H200 SXM row's sustained FP8 figure,
	 * and its 16-bit row is not taken for the SXM card */
	snprintf(g.id, sizeof g.id, "%s", "h200-nvl");
	assert_close(eng_family(&g)->fp8_best, 1288.7 / 1979.0, 1e-3);
	assert_true(eng_family(&g)->fp8_msmf && !eng_family(&g)->msmf);
	snprintf(g.id, sizeof g.id, "%s", "h200-sxm");
	assert_string_equal(eng_family(&g)->prefix, "h200");
	/* a 350 W H100 PCIe reads below the 700 W SXM at any large GEMM */
	snprintf(g.id, sizeof g.id, "%s", "h100-pcie");
	g.sm_count = 114;
	{
		double pcie = eng_gemm_efficiency(&g, eng_family(&g), 8192, 8192, 8192);
		snprintf(g.id, sizeof g.id, "%s", "h100-sxm");
		g.sm_count = 132;
		assert_true(pcie < eng_gemm_efficiency(&g, eng_family(&g), 8192, 8192, 8192));
	}
}

/* The AMD rows (gemm.c), each at its source's figure over the card's preset peak:
 * ml-engineering's MAMF table, MI300X 668.4 and MI325X 784.9 of 1307.4 TFLOP/s, MI355X 1565.0
 * of 2516.6; MI325X FP8 1408.06 of 2614.9 (AMD's sustained MAF, the TAF post); MI300X FP8
 * 44.3% (hipBLASLt after 10,000 warm-ups on Azure's ND MI300X v5); CDNA 3's HBM at
 * BabelStream's triad there, 4.10 of 5.3 TB/s. */
static void test_amd_gemm_rows(void **state)
{
	static const struct {
		const char *id, *prefix;
		double bf16, peak16, fp8, hbm;
	} rows[] = {
		{"mi300x", "mi300", 668.4, 1307.4, 0.443, 4.10 / 5.3},
		{"mi325x", "mi325", 784.9, 1307.4, 1408.06 / 2614.9, 4.10 / 5.3},
		{"mi355x", "mi355", 1565.0, 2516.6, 0.0, 0.90},
	};
	struct engine_gpu g;
	size_t i;

	(void)state;
	for (i = 0; i < sizeof rows / sizeof rows[0]; i++) {
		const struct eng_family *fam;
		memset(&g, 0, sizeof g);
		snprintf(g.id, sizeof g.id, "%s", rows[i].id);
		fam = eng_family(&g);
		assert_string_equal(fam->prefix, rows[i].prefix);
		assert_close(fam->gemm_best, rows[i].bf16 / rows[i].peak16, 1.5e-3);
		assert_close(fam->fp8_best, rows[i].fp8, 1.5e-3);
		assert_close(fam->hbm, rows[i].hbm, 1.5e-3);
	}
}

/* A fixed-seed uniform in (0, 1) (xorshift64*), for the Monte Carlo below. */
static double uniform(unsigned long long *st)
{
	*st ^= *st >> 12;
	*st ^= *st << 25;
	*st ^= *st >> 27;
	return ((double)((*st * 2685821657736338717ULL) >> 11) + 0.5) / 9007199254740992.0;
}

/* The straggler factor (straggler.c) against its sources. */
static void test_straggler_factor(void **state)
{
	/* e(N), the expected largest of N standard normal draws: Tippett 1925, Harter 1961 */
	static const struct {
		double n, e;
	} tab[] = {{2, 0.56419}, {3, 0.84628}, {4, 1.02938}, {8, 1.42360}, {10, 1.53875}, {100, 2.50759}, {1000, 3.24144}};
	struct engine_scenario sc;
	struct engine_result r;
	unsigned long long st = 88172645463325252ULL;
	double range = 0.0, sigma, k8, rc;
	size_t i;
	int t, j, trials = 20000;

	(void)state;
	for (i = 0; i < sizeof tab / sizeof tab[0]; i++)
		assert_true(fabs(eng_normal_max_mean(tab[i].n) - tab[i].e) < 2e-5);
	assert_true(eng_normal_max_mean(1.0) == 0.0);
	/* the step's table (straggler.c) is the integral, entry by entry and in between */
	for (i = 0; i <= 48; i++) {
		double n = pow(2.0, (double)i / 2.0);
		assert_true(fabs(eng_normal_max_mean_table(n) - eng_normal_max_mean(n)) < 1e-8);
	}
	for (j = 2; j <= 5000; j += (j < 300 ? 1 : 97))
		assert_true(fabs(eng_normal_max_mean_table((double)j) - eng_normal_max_mean((double)j)) < 2e-5);
	assert_true(eng_normal_max_mean_table(1.0) == 0.0);

	/* eight GPUs drawn at the derived σ: their fastest and slowest differ by the 5% ml-engineering
	 * saw on a node (Box-Muller draws, not the integral) */
	sigma = eng_straggler_sigma();
	for (t = 0; t < trials; t++) {
		double lo = 1e9, hi = -1e9;
		for (j = 0; j < 8; j++) {
			double z = sqrt(-2.0 * log(uniform(&st))) * cos(6.283185307179586 * uniform(&st));
			lo = z < lo ? z : lo;
			hi = z > hi ? z : hi;
		}
		range += sigma * (hi - lo) / trials;
	}
	assert_true(fabs(range - 0.05) < 0.0015);

	/* an 8-GPU node's step waits for its slowest GPU: half that range below the mean */
	k8 = eng_straggler_factor(8.0);
	assert_true(fabs(k8 - 1.0 / (1.0 - 0.025)) < 1e-4);
	assert_true(eng_straggler_factor(1.0) == 1.0);
	/* the slowest of more GPUs is slower, and no GPU of thousands is drawn below 1.5× the mean
	 * (Sinha et al. 2022: outliers up to 1.5× slower than the median GPU) */
	assert_true(eng_straggler_factor(1024.0) > k8 && eng_straggler_factor(16384.0) < 1.5);

	/* the engine applies it to the training step on sc.gpus and reports what it adds */
	base(&sc);
	te_set(&sc, "gpus", "8");
	te_set(&sc, "tp", "1");
	te_set(&sc, "pp", "1");
	run(&sc, &r);
	assert_true(fabs(r.compute.straggler - k8) < 1e-12);
	rc = (r.compute.step.matmul + r.compute.step.attention + r.compute.step.recompute) * (1.0 - 1.0 / k8);
	assert_true(fabs(r.compute.straggler_seconds - rc) < 1e-9 * r.compute.step_seconds_predicted);
	te_set(&sc, "gpus", "1");
	run(&sc, &r);
	assert_true(r.compute.straggler == 1.0 && r.compute.straggler_seconds == 0.0);
}

int main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_parts_sum_and_source),
		cmocka_unit_test(test_layouts_differ),
		cmocka_unit_test(test_more_bandwidth_never_slower),
		cmocka_unit_test(test_bigger_microbatch_never_less_efficient),
		cmocka_unit_test(test_tp_across_nodes_slower),
		cmocka_unit_test(test_zero3_falls_with_dp),
		cmocka_unit_test(test_never_above_roof),
		cmocka_unit_test(test_hfu_at_most_one_long_context),
		cmocka_unit_test(test_bubble_and_recompute),
		cmocka_unit_test(test_uneven_stages),
		cmocka_unit_test(test_no_links),
		cmocka_unit_test(test_cp_ep_memory),
		cmocka_unit_test(test_zero2_reduces_every_microbatch),
		cmocka_unit_test(test_pcie_gemm_rows),
		cmocka_unit_test(test_amd_gemm_rows),
		cmocka_unit_test(test_straggler_factor),
	};
	return testutil_run(argc, argv, "step_props", tests, sizeof tests / sizeof tests[0]);
}
