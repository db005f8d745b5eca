/*
 * From a probe report to napkin's GPU profile, without any library: matching a datasheet
 * preset by the name NVML reports, the measured profile, the `measured:` YAML section,
 * PCIe and memory-bus arithmetic.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <yaml.h>

#include "probe.h"
#include "testutil.h"

#define MIB 1048576.0

static const struct probe_candidate presets[] = {
	{"a100-pcie-80gb", "A100 PCIe 80GB", 81920 * MIB},
	{"a100-sxm-40gb", "A100 SXM 40GB", 40960 * MIB},
	{"a100-sxm-80gb", "A100 SXM 80GB", 81920 * MIB},
	{"h100-nvl", "H100 NVL", 95830 * MIB},
	{"h100-pcie", "H100 PCIe", 81559 * MIB},
	{"h100-sxm", "H100 SXM", 81559 * MIB},
	{"h200", "H200", 143771 * MIB},
	{"l40", "L40", 46068 * MIB},
	{"l40s", "L40S", 46068 * MIB},
	{"rtx-4080", "GeForce RTX 4080", 16376 * MIB},
	{"rtx-4080-super", "GeForce RTX 4080 SUPER", 16376 * MIB},
	{"rtx-4090", "GeForce RTX 4090", 24564 * MIB},
	{"t4", "T4", 15360 * MIB},
	{"v100-sxm2-32gb", "V100 SXM2 32GB", 32768 * MIB},
};
#define NPRESETS (sizeof presets / sizeof presets[0])

static const char *match(const char *name, double mib)
{
	int i = probe_match(name, mib * MIB, presets, NPRESETS);

	return i < 0 ? "(none)" : presets[i].id;
}

/* Names as nvidia-smi prints them, with the memory cuDeviceTotalMem reports. */
static void test_match(void **state)
{
	(void)state;
	assert_string_equal(match("NVIDIA H100 80GB HBM3", 81559), "h100-sxm");
	assert_string_equal(match("NVIDIA H100 PCIe", 81559), "h100-pcie");
	assert_string_equal(match("NVIDIA H100 NVL", 95830), "h100-nvl");
	assert_string_equal(match("NVIDIA H200", 143771), "h200");
	assert_string_equal(match("NVIDIA A100-SXM4-80GB", 81920), "a100-sxm-80gb");
	assert_string_equal(match("NVIDIA A100-SXM4-40GB", 40960), "a100-sxm-40gb");
	assert_string_equal(match("NVIDIA A100 80GB PCIe", 81920), "a100-pcie-80gb");
	assert_string_equal(match("NVIDIA GeForce RTX 4090", 24564), "rtx-4090");
	assert_string_equal(match("NVIDIA GeForce RTX 4080 SUPER", 16376), "rtx-4080-super");
	assert_string_equal(match("NVIDIA GeForce RTX 4080", 16376), "rtx-4080");
	assert_string_equal(match("NVIDIA L40S", 46068), "l40s");
	assert_string_equal(match("NVIDIA L40", 46068), "l40");
	assert_string_equal(match("Tesla T4", 15360), "t4");
	assert_string_equal(match("Tesla V100-SXM2-32GB", 32768), "v100-sxm2-32gb");
	/* the model token must match exactly: no H200 for a GH200, nothing for unknown parts */
	assert_string_equal(match("NVIDIA GH200 480GB", 97871), "(none)");
	assert_string_equal(match("NVIDIA B200", 183359), "(none)");
	assert_string_equal(match("", 0), "(none)");
	assert_int_equal(probe_match(NULL, 0, presets, NPRESETS), -1);
	assert_int_equal(probe_match("NVIDIA H100 80GB HBM3", 0, presets, 0), -1);
	/* without a memory size, the name alone decides */
	assert_string_equal(match("NVIDIA A100-SXM4-40GB", 0), "a100-sxm-40gb");
}

static void test_links(void **state)
{
	(void)state;
	assert_close(probe_pcie_bw(5, 16), 63.0e9, 1e-3);
	assert_close(probe_pcie_bw(4, 16), 31.5e9, 1e-3);
	assert_close(probe_pcie_bw(3, 8), 7.88e9, 1e-3);
	assert_close(probe_pcie_bw(0, 16), 0, 0);
	assert_close(probe_pcie_bw(7, 16), 0, 0);
	assert_close(probe_pcie_bw(4, 0), 0, 0);
	/* H100 SXM: 5120-bit HBM3 at 2619 MHz; RTX 4090: 384-bit GDDR6X at 10501 MHz */
	assert_close(probe_theoretical_bw(5120, 2619e6), 3.352e12, 1e-3);
	assert_close(probe_theoretical_bw(384, 10501e6), 1.008e12, 1e-3);
	assert_close(probe_theoretical_bw(0, 2619e6), 0, 0);
}

static void test_names(void **state)
{
	const enum engine_dtype *dts;
	int s;

	(void)state;
	for (s = 0; s < PROBE_STATUS_COUNT; s++)
		assert_string_not_equal(probe_status_name((enum probe_status)s), "unknown");
	assert_string_equal(probe_status_name(PROBE_DRIVER_ERROR), "driver_error");
	assert_string_equal(probe_status_name(PROBE_STATUS_COUNT), "unknown");
	assert_string_equal(probe_mstate_name(PROBE_M_SKIPPED), "skipped");
	assert_string_equal(probe_mstate_name(PROBE_M_NOT_RUN), "not_run");
	assert_int_equal(probe_matmul_dtypes(&dts), 5);
	assert_int_equal(dts[0], ENGINE_DT_BF16);
}

/* An H100 as the fakes describe it, measured. */
static void h100_report(struct probe_report *r)
{
	struct probe_device *d = &r->devices[0];

	memset(r, 0, sizeof *r);
	r->status = PROBE_OK;
	r->ndevices = 1;
	r->device_count = 1;
	r->selected = 0;
	r->cuda_driver_version = 12040;
	r->unix_time = 1700000000.0;
	strcpy(r->driver_release, "550.54.15");
	strcpy(d->name, "NVIDIA H100 80GB HBM3");
	strcpy(d->uuid, "GPU-00102030-4050-6070-8090-a0b0c0d0e0f0");
	d->valid = 1u << PROBE_F_NAME | 1u << PROBE_F_UUID | 1u << PROBE_F_MEM_TOTAL | 1u << PROBE_F_SM_COUNT |
		   1u << PROBE_F_POWER_LIMIT | 1u << PROBE_F_PCIE_GEN_MAX | 1u << PROBE_F_PCIE_WIDTH_MAX |
		   1u << PROBE_F_BUS_WIDTH | 1u << PROBE_F_MEM_CLOCK;
	d->mem_total = 81559 * MIB;
	d->sm_count = 132;
	d->power_limit = 700;
	d->pcie_gen_max = 5;
	d->pcie_width_max = 16;
	d->bus_width = 5120;
	d->mem_clock = 2619e6;
	r->measured = true;
	r->m.d2d.state = PROBE_M_OK;
	r->m.d2d.value = 2.9e12;
	r->m.h2d_pinned.state = PROBE_M_OK;
	r->m.h2d_pinned.value = 52.5e9;
	r->m.h2d_pageable.state = PROBE_M_OK;
	r->m.h2d_pageable.value = 18e9;
	r->m.matmul[ENGINE_DT_BF16].state = PROBE_M_OK;
	r->m.matmul[ENGINE_DT_BF16].value = 700e12;
	r->m.matmul[ENGINE_DT_BF16].m = r->m.matmul[ENGINE_DT_BF16].n = r->m.matmul[ENGINE_DT_BF16].k = 8192;
	r->m.matmul[ENGINE_DT_FP8_E4M3].state = PROBE_M_FAILED;
	/* the bf16 curve: 1024³ at 300, 4096³ at 600, then the 8192³ figure */
	r->m.curve_n = 3;
	r->m.curve[0].state = r->m.curve[1].state = PROBE_M_OK;
	r->m.curve[0].n = 1024;
	r->m.curve[0].value = 300e12;
	r->m.curve[1].n = 4096;
	r->m.curve[1].value = 600e12;
	r->m.curve[2] = r->m.matmul[ENGINE_DT_BF16];
	r->m.context_bytes = 600 * MIB;
	strcpy(r->m.blas, "cuBLASLt 12.4.5");
}

static void test_profile_with_datasheet(void **state)
{
	static struct probe_report r;
	struct engine_gpu ds, g;
	struct engine_scenario sc;
	struct engine_result res;
	struct napkin_err err;

	(void)state;
	h100_report(&r);
	engine_gpu_h100_sxm(&ds);
	probe_profile(&r, &ds, &g);
	assert_string_equal(g.id, "h100-sxm-measured");
	assert_string_equal(g.name, "H100 SXM (measured)");
	assert_true(g.measured);
	assert_close(g.bandwidth, 2.9e12, 0);
	assert_close(g.peak[ENGINE_DT_BF16], 700e12, 0);
	assert_close(g.peak[ENGINE_DT_FP16], ds.peak[ENGINE_DT_FP16], 0);  /* not measured: datasheet */
	assert_close(g.peak[ENGINE_DT_FP8_E4M3], ds.peak[ENGINE_DT_FP8_E4M3], 0);
	assert_close(g.peak[ENGINE_DT_FP64], ds.peak[ENGINE_DT_FP64], 0);
	assert_close(g.h2d_pinned_bw, 52.5e9, 0);
	assert_close(g.h2d_pageable_bw, 18e9, 0);
	assert_close(g.pcie_bw, ds.pcie_bw, 0);
	assert_close(g.tdp_w, ds.tdp_w, 0);
	assert_close(g.memory_bytes, 81559 * MIB, 0);
	assert_int_equal(g.sm_count, 132);
	/* a bare context is less than what frameworks take: the datasheet's overhead stays */
	assert_close(g.overhead_bytes, ds.overhead_bytes, 0);
	assert_string_equal(g.source, "napkin probe: NVIDIA H100 80GB HBM3, driver 550.54.15, CUDA 12.4, cuBLASLt "
				      "12.4.5; measured: bandwidth, host copies, bf16; the rest from NVIDIA H100 "
				      "Tensor Core GPU datasheet, launched 2022 (sparse figures halved); as napkin's "
				      "built-in h100-sxm; level V (verified against the datasheet)");
	r.m.context_bytes = 900 * MIB;
	probe_profile(&r, &ds, &g);
	assert_close(g.overhead_bytes, 900 * MIB, 0);

	/* the engine takes it as it is */
	engine_scenario_default(&sc);
	sc.gpu = g;
	sc.precision = ENGINE_PREC_MIXED_BF16;
	assert_int_equal(engine_evaluate(&sc, &res, &err), 0);
	assert_close(res.compute.peak, 700e12, 0);
	assert_close(res.roofline.bandwidth, 2.9e12, 0);
	/* the step model anchors its GEMM curve on the probe's 8192³ rate: the datasheet
	 * family's MAMF fraction is not applied twice (issue 11) */
	assert_close(g.peak_gemm_n, 8192, 0);
	assert_int_equal(g.gemm_points, 3);
	assert_close(g.gemm_n[1], 4096, 0);
	assert_close(g.gemm_rate[1], 600e12, 0);
	/* Llama-2-7B's GEMMs (4096 rows, 4096-11008 wide) sit near the 4096³ point: 600/700 of
	 * the measured peak, times the sustained clock */
	assert_true(res.compute.gemm_efficiency > 0.70 && res.compute.gemm_efficiency < 0.86);
	/* without the curve, only the 8192³ anchor */
	sc.gpu.gemm_points = 0;
	assert_int_equal(engine_evaluate(&sc, &res, &err), 0);
	assert_true(res.compute.gemm_efficiency > 0.85 && res.compute.gemm_efficiency <= 1.0);
}

static void test_profile_without_datasheet(void **state)
{
	static struct probe_report r;
	struct engine_gpu g;
	struct engine_scenario sc;
	struct engine_result res;
	struct napkin_err err;

	(void)state;
	h100_report(&r);
	probe_profile(&r, NULL, &g);
	assert_string_equal(g.id, "h100-80gb-measured");
	assert_string_equal(g.name, "NVIDIA H100 80GB HBM3 (measured)");
	assert_string_equal(g.vendor, "nvidia");
	assert_close(g.tdp_w, 700, 0);
	assert_close(g.pcie_bw, 63.0e9, 1e-3);
	assert_close(g.peak[ENGINE_DT_FP16], 0, 0);
	assert_close(g.overhead_bytes, 768 * MIB, 0);
	assert_non_null(strstr(g.source, "; measured: bandwidth, host copies, bf16"));
	assert_null(strstr(g.source, "the rest from"));
	engine_scenario_default(&sc);
	sc.gpu = g;
	sc.precision = ENGINE_PREC_MIXED_BF16;
	assert_int_equal(engine_evaluate(&sc, &res, &err), 0);

	/* nothing measured: the theoretical bandwidth from the memory bus */
	r.m.d2d.state = PROBE_M_FAILED;
	probe_profile(&r, NULL, &g);
	assert_close(g.bandwidth, 3.352e12, 1e-3);
}

/* Scalars of a YAML document in order, through libyaml: proves the section parses. */
static int yaml_scalars(const char *text, char out[][64], int max)
{
	yaml_parser_t p;
	yaml_event_t ev;
	int n = 0, done = 0;

	yaml_parser_initialize(&p);
	yaml_parser_set_input_string(&p, (const unsigned char *)text, strlen(text));
	while (!done) {
		if (!yaml_parser_parse(&p, &ev)) {
			n = -1;
			break;
		}
		if (ev.type == YAML_SCALAR_EVENT && n < max)
			snprintf(out[n++], 64, "%s", (const char *)ev.data.scalar.value);
		done = ev.type == YAML_STREAM_END_EVENT;
		yaml_event_delete(&ev);
	}
	yaml_parser_delete(&p);
	return n;
}

static const char *after(char s[][64], int n, const char *key)
{
	int i;

	for (i = 0; i + 1 < n; i++)
		if (strcmp(s[i], key) == 0)
			return s[i + 1];
	return NULL;
}

static void test_measured_yaml(void **state)
{
	static struct probe_report r;
	char *y = NULL, s[64][64];
	size_t len = 0;
	struct napkin_err err;
	double v;
	int n;

	(void)state;
	h100_report(&r);
	assert_int_equal(probe_measured_yaml(&r, &y, &len, NULL, &err), 0);
	assert_int_equal(strlen(y), len);
	assert_true(strncmp(y, "measured:\n  date: 2023-11-14T22:13:20Z\n", 39) == 0);
	assert_non_null(strstr(y, "\n  memory_bandwidth: 2.9 TB/s"));
	assert_non_null(strstr(y, "\n  peak_flops:    # cuBLAS matmuls 8192x8192x8192\n    bf16: 700 TFLOP/s\n"));
	assert_null(strstr(y, "fp8"));
	assert_non_null(strstr(y, "\n  gemm_size: 8192"));
	assert_non_null(strstr(y, "\n    1024: 300 TFLOP/s\n    4096: 600 TFLOP/s\n    8192: 700 TFLOP/s\n"));
	assert_non_null(strstr(y, "\n  h2d_pinned_bw: 52.5 GB/s\n"));
	assert_non_null(strstr(y, "\n  overhead: 600 MiB"));
	assert_non_null(strstr(y, "\n  memory: 81559 MiB\n"));
	n = yaml_scalars(y, s, 64);
	assert_true(n > 10);
	assert_string_equal(s[0], "measured");
	assert_string_equal(after(s, n, "device"), "NVIDIA H100 80GB HBM3");
	assert_string_equal(after(s, n, "cuda"), "12.4");
	assert_string_equal(after(s, n, "driver"), "550.54.15");
	/* napkin's own unit parser reads every figure back */
	assert_int_equal(engine_unit_parse(ENGINE_UNIT_BYTES_PER_S, after(s, n, "memory_bandwidth"), &v, &err), 0);
	assert_close(v, 2.9e12, 1e-4);
	assert_int_equal(engine_unit_parse(ENGINE_UNIT_FLOP_PER_S, after(s, n, "bf16"), &v, &err), 0);
	assert_close(v, 700e12, 1e-4);
	assert_int_equal(engine_unit_parse(ENGINE_UNIT_BYTES, after(s, n, "memory"), &v, &err), 0);
	assert_close(v, 81559 * MIB, 0);
	assert_int_equal(engine_unit_parse(ENGINE_UNIT_BYTES, after(s, n, "overhead"), &v, &err), 0);
	assert_close(v, 600 * MIB, 0);
	free(y);

	/* a name that needs quoting stays one scalar */
	strcpy(r.devices[0].name, "GPU: \"odd\" # name");
	assert_int_equal(probe_measured_yaml(&r, &y, &len, NULL, &err), 0);
	n = yaml_scalars(y, s, 64);
	assert_string_equal(after(s, n, "device"), "GPU: \"odd\" # name");
	free(y);

	r.selected = -1;
	assert_int_equal(probe_measured_yaml(&r, &y, &len, NULL, &err), NAPKIN_ENODEV);
	assert_null(y);
}

static const struct CMUnitTest tests[] = {
	cmocka_unit_test(test_match),
	cmocka_unit_test(test_links),
	cmocka_unit_test(test_names),
	cmocka_unit_test(test_profile_with_datasheet),
	cmocka_unit_test(test_profile_without_datasheet),
	cmocka_unit_test(test_measured_yaml),
};

TESTUTIL_MAIN("probe_profile", tests)
