/*
 * The GPUs of 2024-2025 and their fp4 weight formats: each new preset against the figures of
 * its datasheet (written here with the source), the NVLink domain that the scenario's
 * gpus_per_node follows unless it is given, a bad nvlink_domain refused where it is, the bits
 * per weight of NVFP4 and MXFP4 counted by hand, the checkpoints that say they are in those
 * formats, and the fp4 matmuls where the GPU has an fp4 peak.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "presets.h"
#include "testutil.h"
#include "testpresets.h"

#define T 1e12
#define MIB 1048576.0

static void fail_err(const char *what, const struct napkin_err *err)
{
	char buf[800];

	fail_msg("%s: %s", what, util_err_format(err, buf, sizeof buf));
}

struct gpu_ref {
	const char *id;
	double memory, bandwidth;
	double fp64, fp32, tf32, bf16, fp8, int8, fp4; /* dense; 0: not in the reference (not checked) */
	double tdp;
	int sm;
	double link;    /* GPU-to-GPU, per direction: half the reference's total */
	double network; /* scale-out per GPU, per direction */
	int domain;     /* nvlink_domain (0: none given) */
};

static const struct gpu_ref refs[] = {
	/* NVIDIA Blackwell Architecture Technical Brief v2.1, table 3, HGX B300 per GPU: FP4 14
	 * PFLOP/s dense, FP8 9, FP16/BF16 4.5, TF32 2.2 PFLOP/s and INT8 0.3 POPS sparse, FP32 75
	 * TFLOP/s, 7.7 TB/s, 1,100 W; FP64 10 TFLOP/s for the 8; NVLink 1.8 TB/s, 8 × 800 Gb/s
	 * ConnectX-8; nvidia-smi "NVIDIA B300 SXM6 AC, 275040 MiB", 148 SMs */
	{"b300", 275040 * MIB, 7.7 * T, 1.25 * T, 75 * T, 1125 * T, 2250 * T, 4500 * T, 150 * T, 14000 * T, 1100, 148, 900e9, 100e9,
	 0},
	/* NVIDIA GB200 NVL72 (72 GPUs): FP4 1,440, FP8 720, INT8 720 POPS, BF16 360, TF32 180
	 * PFLOP/s sparse, FP32 6,480, FP64 3,240 TFLOP/s, 13.4 TB HBM3e at 576 TB/s, one NVLink
	 * domain of 72; nvidia-smi "NVIDIA GB200, 189471 MiB", 152 SMs */
	{"gb200-nvl72", 189471 * MIB, 8 * T, 45 * T, 90 * T, 1250 * T, 2500 * T, 5000 * T, 5000 * T, 10000 * T, 1200, 152, 900e9,
	 50e9, 72},
	/* NVIDIA GB300 NVL72: FP4 1,080 PFLOP/s dense, FP8 720, BF16 360, TF32 180 PFLOP/s
	 * sparse, 20.7 TB HBM3e (288 GB a GPU) at 576 TB/s, one ConnectX-8 800 Gb/s per GPU;
	 * nvidia-smi "NVIDIA GB300, 284208 MiB", 152 SMs */
	{"gb300-nvl72", 284208 * MIB, 8 * T, 0, 0, 1250 * T, 2500 * T, 5000 * T, 0, 15000 * T, 1400, 152, 900e9, 100e9, 72},
	/* H20 spec tables: 96 GB HBM3 at 4.0 TB/s, FP8 296, BF16 148, TF32 74, FP32 44, FP64 1
	 * TFLOP/s, NVLink 900 GB/s, 400 W, 78 SMs; nvidia-smi "NVIDIA H20, 97871 MiB" */
	{"h20", 97871 * MIB, 4 * T, 1 * T, 44 * T, 74 * T, 148 * T, 296 * T, 296 * T, 0, 400, 78, 450e9, 0, 0},
	/* NVIDIA H200 datasheet, H200 NVL: FP64 30, FP32 60, TF32 835*, BF16 1,671*, FP8 3,341*
	 * (* sparse), 141 GB at 4.8 TB/s, NVLink bridge 900 GB/s, up to 600 W; nvidia-smi
	 * "NVIDIA H200 NVL, 143771 MiB" */
	{"h200-nvl", 143771 * MIB, 4.8 * T, 30 * T, 60 * T, 417.5 * T, 835.5 * T, 1670.5 * T, 1670.5 * T, 0, 600, 132, 450e9, 0, 0},
	/* AMD Instinct MI355X: FP64 78.6, FP32 157.3 TFLOP/s vector, FP16 2.5, FP8 5.0, MXFP4 10
	 * PFLOP/s dense (256 CUs × 2.4 GHz × 4,096 / 8,192 / 16,384 FLOP a clock), 288 GB HBM3E
	 * at 8 TB/s, 7 Infinity Fabric links of 153.6 GB/s, 1,400 W */
	{"mi355x", 288e9, 8 * T, 78.6 * T, 157.3 * T, 0, 2516.6 * T, 5033.2 * T, 5033.2 * T, 10066.3 * T, 1400, 256, 537.6e9,
	 50e9, 0},
	/* NVIDIA RTX PRO 6000 Blackwell Server Edition datasheet: 96 GB GDDR7 (nvidia-smi 97,887 MiB)
	 * at 1,597 GB/s, FP32 120 TFLOP/s, 4 PFLOP/s FP4 sparse, up to 600 W, 188 SMs; no NVLink */
	{"rtx-pro-6000-server", 97887 * MIB, 1.597 * T, 0, 120 * T, 0, 500 * T, 1000 * T, 0, 2000 * T, 600, 188, 0, 0, 0},
	/* Google Cloud TPU v6e: 918 TFLOP/s bf16, 1,836 TOP/s int8, 32 GB HBM at 1,638 GB/s,
	 * ICI 800 GB/s bidirectional, DCN 100 Gb/s, one TensorCore */
	{"tpu-v6e", 32e9, 1.638 * T, 0, 0, 0, 918 * T, 0, 1836 * T, 0, 0, 1, 400e9, 12.5e9, 0},
	/* Google Cloud TPU7x (Ironwood): 2,307 TFLOP/s bf16, 4,614 fp8, 192 GiB HBM at 7,380
	 * GB/s, ICI 1,200 GB/s bidirectional, DCN 100 Gb/s, two TensorCores */
	{"tpu-v7", 192.0 * 1024 * MIB, 7.38 * T, 0, 0, 0, 2307 * T, 4614 * T, 0, 0, 0, 2, 600e9, 12.5e9, 0},
};

static void check_peak(const char *id, const struct engine_gpu *g, enum engine_dtype dt, double want)
{
	if (want > 0 && !(g->peak[dt] > want * (1 - 1e-12) && g->peak[dt] < want * (1 + 1e-12)))
		fail_msg("%s: %s peak %g, the datasheet's %g", id, engine_dtype_info(dt)->name, g->peak[dt], want);
}

static void test_new_gpu_presets(void **state)
{
	struct preset_registry *reg = tp_builtin();
	size_t i;

	(void)state;
	for (i = 0; i < sizeof refs / sizeof refs[0]; i++) {
		const struct gpu_ref *r = &refs[i];
		struct engine_gpu g;
		struct napkin_err err;

		print_message("%s\n", r->id);
		if (preset_gpu(reg, r->id, &g, &err) != NAPKIN_OK)
			fail_err(r->id, &err);
		assert_non_null(strstr(g.source, "level "));
		assert_close(g.memory_bytes, r->memory, 1e-12);
		assert_close(g.bandwidth, r->bandwidth, 1e-12);
		check_peak(r->id, &g, ENGINE_DT_FP64, r->fp64);
		check_peak(r->id, &g, ENGINE_DT_FP32, r->fp32);
		check_peak(r->id, &g, ENGINE_DT_TF32, r->tf32);
		check_peak(r->id, &g, ENGINE_DT_BF16, r->bf16);
		/* fp16 at the bf16 rate on the GPUs' datasheets (FP16/BF16); TPUs have no fp16 */
		check_peak(r->id, &g, ENGINE_DT_FP16, strcmp(g.vendor, "google") != 0 ? r->bf16 : 0);
		check_peak(r->id, &g, ENGINE_DT_FP8_E4M3, r->fp8);
		check_peak(r->id, &g, ENGINE_DT_INT8, r->int8);
		check_peak(r->id, &g, ENGINE_DT_FP4, r->fp4);
		/* a GPU with no fp4 in its datasheet has no fp4 peak (Hopper, TPUs) */
		if (r->fp4 == 0)
			assert_true(g.peak[ENGINE_DT_FP4] == 0);
		assert_close(g.tdp_w, r->tdp, 1e-12);
		assert_int_equal(g.sm_count, r->sm);
		assert_close(g.link_bw, r->link, 1e-12);
		assert_close(g.network_bw, r->network, 1e-12);
		assert_int_equal(g.nvlink_domain, r->domain);
	}
	preset_registry_free(reg);
}

/* Applies key=value pairs onto the default scenario through the registry's catalogue. */
static void apply(struct preset_registry *reg, struct engine_scenario *sc, struct engine_notes *notes,
		  const char *const *kv)
{
	struct engine_assign a[16];
	struct engine_catalog cat = preset_catalog(reg);
	struct napkin_err err;
	size_t n = 0;

	memset(a, 0, sizeof a);
	for (; kv[0] != NULL; kv += 2, n++) {
		a[n].knob = engine_knob_find(kv[0]);
		assert_non_null(a[n].knob);
		a[n].text = kv[1];
	}
	if (engine_apply_noted(sc, a, n, &cat, notes, &err) != NAPKIN_OK)
		fail_err("apply", &err);
}

static bool has_note(const struct engine_notes *notes, const char *want)
{
	int i;

	for (i = 0; i < notes->n; i++)
		if (strstr(notes->text[i], want) != NULL)
			return true;
	return false;
}

static bool has_warning(const struct engine_scenario *sc, const char *want)
{
	static struct engine_result r;
	struct napkin_err err;
	int i;

	if (engine_evaluate(sc, &r, &err) != NAPKIN_OK)
		fail_err("evaluate", &err);
	for (i = 0; i < r.n_warnings; i++)
		if (strstr(r.warnings[i], want) != NULL)
			return true;
	return false;
}

/* GB200 NVL72's 72 GPUs share one NVLink domain (NVIDIA GB200 NVL72 product page): tp 16
 * stays inside it, so gpus_per_node becomes 72 with a note and tp 16 no longer "spans nodes";
 * a gpus_per_node the user gives is kept; another GPU takes the default 8 back. */
static void test_nvlink_domain_adapts(void **state)
{
	static const char *const nvl[] = {"gpu", "gb200-nvl72", "gpus", "16", "tp", "16", NULL};
	static const char *const given[] = {"gpu", "gb200-nvl72", "gpus", "16", "tp", "16", "gpus_per_node", "8", NULL};
	static const char *const back[] = {"gpu", "b200", NULL};
	struct preset_registry *reg = tp_builtin();
	struct engine_scenario sc;
	struct engine_notes notes;

	(void)state;
	engine_scenario_default(&sc);
	apply(reg, &sc, &notes, nvl);
	assert_int_equal(sc.gpus_per_node, 72);
	assert_true(has_note(&notes, "gpus_per_node 8 \xe2\x86\x92 72, the NVLink domain of GB200 NVL72"));
	assert_false(has_warning(&sc, "spans nodes"));
	/* the same tp on an HGX B200: 8 GPUs a node, the warning */
	apply(reg, &sc, &notes, back);
	assert_int_equal(sc.gpus_per_node, 8);
	assert_false(has_note(&notes, "gpus_per_node"));
	assert_true(has_warning(&sc, "tp 16 spans nodes (gpus_per_node 8)"));
	/* given: kept, no note */
	engine_scenario_default(&sc);
	apply(reg, &sc, &notes, given);
	assert_int_equal(sc.gpus_per_node, 8);
	assert_false(has_note(&notes, "gpus_per_node"));
	assert_true(has_warning(&sc, "spans nodes"));
	preset_registry_free(reg);
}

static void gpu_fails(struct preset_registry *reg, const char *domain, const char *want)
{
	char text[400], buf[900];
	struct engine_gpu g;
	struct napkin_err err;

	snprintf(text, sizeof text,
		 "name: X\nmemory: 80 GB\nmemory_bandwidth: 3 TB/s\npeak_flops:\n  bf16: 1 PFLOP/s\n"
		 "interconnect:\n  nvlink: 900 GB/s\n  nvlink_domain: %s\n",
		 domain);
	if (preset_gpu_from_text(reg, "g.yaml", text, strlen(text), &g, &err) == NAPKIN_OK)
		fail_msg("nvlink_domain %s loaded, expected '%s'", domain, want);
	util_err_format(&err, buf, sizeof buf);
	if (strstr(buf, want) == NULL || strstr(buf, "nvlink_domain") == NULL)
		fail_msg("nvlink_domain %s: '%s' lacks '%s' or the key", domain, buf, want);
}

/* An NVLink domain is a whole number of GPUs from 1 to 1024 (the gpus_per_node knob's range):
 * anything else is refused at its line and column, naming the key. */
static void test_bad_nvlink_domain(void **state)
{
	struct preset_registry *reg = tp_builtin();
	struct engine_gpu g;
	struct napkin_err err;
	static const char ok[] = "name: X\nmemory: 80 GB\nmemory_bandwidth: 3 TB/s\npeak_flops:\n  bf16: 1 PFLOP/s\n"
				 "interconnect:\n  nvlink_domain: 36\n";

	(void)state;
	gpu_fails(reg, "0", "g.yaml:8:18:");
	gpu_fails(reg, "2048", "g.yaml:8:18:");
	gpu_fails(reg, "72.5", "g.yaml:8:18:");
	gpu_fails(reg, "lots", "g.yaml:8:18:");
	if (preset_gpu_from_text(reg, "g.yaml", ok, sizeof ok - 1, &g, &err) != NAPKIN_OK)
		fail_err("nvlink_domain 36", &err);
	assert_int_equal(g.nvlink_domain, 36);
	preset_registry_free(reg);
}

/* Bits per weight by hand: NVFP4 (NVIDIA, "Introducing NVFP4", 2025) stores 16 E2M1 values
 * (16 × 4 bits) and one E4M3 scale (8 bits) a block: 72 / 16 = 4.5 bits; MXFP4 (OCP MX
 * v1.0 §5) 32 E2M1 values and one E8M0 scale: (128 + 8) / 32 = 4.25 bits. gpt-oss-20b
 * (openai/gpt-oss-20b config.json) keeps its attention and router in bf16: per layer
 * attention 2880 × (4096 + 512 + 512) + 4096 × 2880 = 26,542,080, router 2880 × 32 = 92,160,
 * experts 32 × 3 × 2880 × 2880 = 796,262,400 weights: (16 × 26,634,240 + 4.25 × 796,262,400)
 * / 822,896,640 = 4.6303 bits. */
static void test_fp4_bits(void **state)
{
	struct preset_registry *reg = tp_builtin();
	struct engine_model m;
	struct napkin_err err;
	char path[512];

	(void)state;
	assert_true(engine_weight_format_info(ENGINE_WF_NVFP4)->linear_bits == 72.0 / 16.0);
	assert_true(engine_weight_format_info(ENGINE_WF_MXFP4)->linear_bits == 136.0 / 32.0);
	assert_string_equal(engine_weight_format_info(ENGINE_WF_NVFP4)->name, "nvfp4");
	assert_string_equal(engine_weight_format_info(ENGINE_WF_MXFP4)->name, "mxfp4");
	testutil_src("tests/data/hf/gpt-oss-20b-mxfp4.json", path, sizeof path);
	if (preset_model(reg, path, &m, &err) != NAPKIN_OK)
		fail_err("gpt-oss-20b-mxfp4.json", &err);
	assert_int_equal(m.checkpoint_format, ENGINE_WF_MXFP4_EXPERTS);
	assert_close(engine_weight_format_bits(ENGINE_WF_MXFP4_EXPERTS, &m),
		     (16.0 * 26634240.0 + 4.25 * 796262400.0) / 822896640.0, 1e-12);
	/* every linear in MXFP4 or NVFP4: the same figure whatever the shape */
	assert_true(engine_weight_format_bits(ENGINE_WF_MXFP4, &m) == 4.25);
	assert_true(engine_weight_format_bits(ENGINE_WF_NVFP4, &m) == 4.5);
	/* a ModelOpt NVFP4 checkpoint (quant_method modelopt, quant_algo NVFP4) */
	testutil_src("tests/data/hf/llama-3.1-8b-nvfp4.json", path, sizeof path);
	if (preset_model(reg, path, &m, &err) != NAPKIN_OK)
		fail_err("llama-3.1-8b-nvfp4.json", &err);
	assert_int_equal(m.checkpoint_format, ENGINE_WF_NVFP4);
	preset_registry_free(reg);
}

/* NVFP4 and MXFP4 are operands of Blackwell's fp4 tensor cores: on a B200 (9 PFLOP/s dense
 * fp4, one eighth of DGX B200's 144 sparse, halved) an nvfp4 checkpoint's matmuls run at the
 * fp4 peak; on an H100 (no fp4) they stay 16-bit; a matmul_dtype given is kept. */
static void test_fp4_matmuls(void **state)
{
	static const char *const b200[] = {"model", "llama-3.1-8b-nvfp4.json", "gpu", "b200", "mode", "infer", NULL};
	static const char *const h100[] = {"gpu", "h100-sxm", NULL};
	static const char *const given[] = {"gpu", "b200", "matmul_dtype", "bf16", NULL};
	static const char *const mx[] = {"gpu", "b200", "mode", "infer", "weight_format", "mxfp4", NULL};
	struct preset_registry *reg = tp_builtin();
	struct engine_scenario sc;
	struct engine_notes notes;
	static struct engine_result r;
	struct napkin_err err;
	char path[512];
	const char *kv[8];

	(void)state;
	testutil_src("tests/data/hf/llama-3.1-8b-nvfp4.json", path, sizeof path);
	memcpy(kv, b200, sizeof b200);
	kv[1] = path;
	engine_scenario_default(&sc);
	apply(reg, &sc, &notes, kv);
	assert_int_equal(sc.weight_format, ENGINE_WF_NVFP4);
	assert_int_equal(sc.matmul_dtype, ENGINE_DT_FP4);
	assert_true(has_note(&notes, "matmul_dtype auto \xe2\x86\x92 fp4"));
	assert_int_equal(engine_evaluate(&sc, &r, &err), NAPKIN_OK);
	assert_true(r.compute.peak == 9000e12);
	apply(reg, &sc, &notes, h100);
	assert_int_equal(sc.matmul_dtype, ENGINE_DT_AUTO);
	assert_int_equal(engine_evaluate(&sc, &r, &err), NAPKIN_OK);
	assert_true(r.compute.peak == 989.5e12);
	apply(reg, &sc, &notes, given);
	assert_int_equal(sc.matmul_dtype, ENGINE_DT_BF16);
	/* mxfp4 for every linear, given: fp4 matmuls too */
	engine_scenario_default(&sc);
	apply(reg, &sc, &notes, mx);
	assert_int_equal(sc.weight_format, ENGINE_WF_MXFP4);
	assert_int_equal(sc.matmul_dtype, ENGINE_DT_FP4);
	preset_registry_free(reg);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_new_gpu_presets),
		cmocka_unit_test(test_nvlink_domain_adapts),
		cmocka_unit_test(test_bad_nvlink_domain),
		cmocka_unit_test(test_fp4_bits),
		cmocka_unit_test(test_fp4_matmuls),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
