/*
 * The probe against fake NVIDIA libraries (tests/fake): the loader and its fallbacks,
 * every failure message, the measurements (exact: the fakes run on a virtual clock), the
 * child process with its deadline, and the live monitor. Also NVIDIA's stub libcuda
 * where a CUDA toolkit is installed.
 */
#include <dlfcn.h>
#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "fake.h"
#include "i18n.h"
#include "probe.h"
#include "testutil.h"

#define MIB 1048576.0
#define NVIDIA_STUB "/usr/local/cuda/lib64/stubs/libcuda.so"

static struct probe_report R;
static char logpath[256];

static void env_reset(void)
{
	static const char *const vars[] = {
		"FAKE_CUDA_INIT_ERROR", "FAKE_CUDA_DEVICES", "FAKE_CUDA_ALLOC_FAIL", "FAKE_CUDA_CTX_ERROR",
		"FAKE_CUDA_HANG", "FAKE_CUDA_CRASH", "FAKE_CUDA_CC", "FAKE_CUDA_LOG", "FAKE_NVML_INIT_ERROR",
		"FAKE_NVML_NO_UUID", "FAKE_NVML_MIG", "FAKE_CUBLAS_NO_ALGO", "NAPKIN_LIBCUDA", "NAPKIN_LIBNVML",
		"NAPKIN_LIBCUBLASLT", "NAPKIN_LIBCUBLAS", "CUDA_VISIBLE_DEVICES", NULL,
	};
	size_t i;

	for (i = 0; vars[i]; i++)
		unsetenv(vars[i]);
}

/* Every library a fake; cuBLAS (non-Lt) absent unless a test asks. */
static int setup_fakes(void **state)
{
	(void)state;
	env_reset();
	setenv("NAPKIN_LIBCUDA", FAKE_LIBCUDA, 1);
	setenv("NAPKIN_LIBNVML", FAKE_LIBNVML, 1);
	setenv("NAPKIN_LIBCUBLASLT", FAKE_LIBCUBLASLT, 1);
	setenv("NAPKIN_LIBCUBLAS", "/nonexistent/libcublas.so.12", 1);
	snprintf(logpath, sizeof logpath, "/tmp/napkin-probe-test-%ld.log", (long)getpid());
	unlink(logpath);
	setenv("FAKE_CUDA_LOG", logpath, 1);
	memset(&R, 0, sizeof R);
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	unlink(logpath);
	env_reset();
	return 0;
}

static void test_options(struct probe_options *o)
{
	probe_options_default(o);
	o->copy_bytes = 256 * MIB;
	o->h2d_bytes = 4 * MIB;
	o->matmul_n = 2048;
	o->budget = 1.0;
	o->timeout = 30.0;
}

static void run(struct probe_report *r)
{
	struct probe_options o;
	struct napkin_err err;

	test_options(&o);
	assert_int_equal(probe_run(&o, r, NULL, NULL, &err), 0);
}

/* Lines of the fake's call log that start with prefix (and contain what, when non-NULL). */
static int log_count(const char *prefix, const char *what)
{
	FILE *f = fopen(logpath, "r");
	char line[512];
	int n = 0;

	if (!f)
		return 0;
	while (fgets(line, sizeof line, f))
		if (strncmp(line, prefix, strlen(prefix)) == 0 && line[strlen(prefix)] <= ' ' &&
		    (!what || strstr(line, what)))
			n++;
	fclose(f);
	return n;
}

static bool has_note(const struct probe_report *r, const char *what)
{
	int i;

	for (i = 0; i < r->n_notes; i++)
		if (strstr(r->notes[i], what))
			return true;
	return false;
}

#define assert_contains(hay, needle)                                                                         \
	do {                                                                                                 \
		if (!strstr((hay), (needle)))                                                                \
			fail_msg("\"%s\" does not contain \"%s\"", (hay), (needle));                         \
	} while (0)

/* ---------------------------------------------------------------- no GPU */

static void test_no_driver(void **state)
{
	(void)state;
	setenv("NAPKIN_LIBCUDA", "/nonexistent/libcuda.so.1", 1);
	setenv("NAPKIN_LIBNVML", "/nonexistent/libnvidia-ml.so.1", 1);
	run(&R);
	assert_int_equal(R.status, PROBE_NO_DRIVER);
	assert_string_equal(probe_status_name(R.status), "no_driver");
	assert_contains(R.message, "no NVIDIA driver: /nonexistent/libcuda.so.1 cannot be loaded");
	assert_contains(R.message, "No such file or directory"); /* dlerror's own words */
	assert_false(R.cuda.loaded);
	assert_false(R.nvml.loaded);
	assert_true(has_note(&R, "NVML missing (/nonexistent/libnvidia-ml.so.1"));
	assert_false(probe_report_has_gpu(&R));
	assert_null(probe_report_device(&R));
	assert_int_equal(R.ndevices, 0);
}

/* With no override, the soname is tried; on a machine without a driver it names it. */
static void test_no_driver_soname(void **state)
{
	void *h;

	(void)state;
	unsetenv("NAPKIN_LIBCUDA");
	setenv("NAPKIN_LIBNVML", "/nonexistent/libnvidia-ml.so.1", 1);
	h = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
	if (h) {
		dlclose(h);
		skip(); /* a real driver is installed here */
	}
	run(&R);
	assert_int_equal(R.status, PROBE_NO_DRIVER);
	assert_contains(R.message, "no NVIDIA driver: libcuda.so.1 cannot be loaded (libcuda.so.1: cannot open");
}

/* The toolkit's stub answers cuInit with 34: a driver library present but unusable. */
static void test_nvidia_stub(void **state)
{
	(void)state;
	if (access(NVIDIA_STUB, R_OK) != 0)
		skip();
	setenv("NAPKIN_LIBCUDA", NVIDIA_STUB, 1);
	run(&R);
	assert_int_equal(R.status, PROBE_DRIVER_ERROR);
	assert_true(R.cuda.loaded);
	assert_contains(R.message, "failed to initialise: cuInit returned 34 (CUDA_ERROR_STUB_LIBRARY");
	assert_contains(R.message, "stub");
	assert_false(probe_report_has_gpu(&R));
}

static void test_init_error(void **state)
{
	(void)state;
	setenv("FAKE_CUDA_INIT_ERROR", "999", 1);
	run(&R);
	assert_int_equal(R.status, PROBE_DRIVER_ERROR);
	assert_contains(R.message, "cuInit returned 999 (CUDA_ERROR_UNKNOWN");
	/* NVML still says what is there */
	assert_int_equal(R.ndevices, 1);
	assert_string_equal(R.devices[0].name, FAKE_NAME);
	assert_true(PROBE_HAS(&R.devices[0], PROBE_F_MEM_USED));
}

static void test_init_no_device(void **state)
{
	(void)state;
	setenv("FAKE_CUDA_INIT_ERROR", "100", 1);
	setenv("CUDA_VISIBLE_DEVICES", "", 1);
	run(&R);
	assert_int_equal(R.status, PROBE_NO_DEVICE);
	assert_contains(R.message, "cuInit returned 100 (CUDA_ERROR_NO_DEVICE");
	assert_contains(R.message, "CUDA_VISIBLE_DEVICES is \"\"");
}

static void test_no_devices(void **state)
{
	(void)state;
	setenv("FAKE_CUDA_DEVICES", "0", 1);
	run(&R);
	assert_int_equal(R.status, PROBE_NO_DEVICE);
	assert_contains(R.message, "sees no GPU: cuDeviceGetCount is 0");
	assert_false(probe_report_has_gpu(&R));
}

static void test_bad_device_index(void **state)
{
	struct probe_options o;
	struct napkin_err err;

	(void)state;
	setenv("FAKE_CUDA_DEVICES", "2", 1);
	test_options(&o);
	o.device = 3;
	assert_int_equal(probe_run(&o, &R, NULL, NULL, &err), 0);
	assert_int_equal(R.status, PROBE_NO_DEVICE);
	assert_string_equal(R.message, "no device 3: the CUDA driver sees 2 (0 to 1)");
	assert_int_equal(R.ndevices, 2);
}

static void test_missing_read_symbol(void **state)
{
	(void)state;
	setenv("NAPKIN_LIBCUDA", FAKE_LIBCUDA_NOATTR, 1);
	run(&R);
	assert_int_equal(R.status, PROBE_NO_DRIVER);
	assert_contains(R.message, "is unusable: it lacks cuDeviceGetAttribute: ");
	assert_contains(R.message, "undefined symbol: cuDeviceGetAttribute");
}

/* ---------------------------------------------------------------- a GPU */

static void test_full_probe(void **state)
{
	const struct probe_device *d;
	struct probe_options o;
	struct napkin_err err;

	(void)state;
	test_options(&o);
	o.matmul_n = 8192;
	assert_int_equal(probe_run(&o, &R, NULL, NULL, &err), 0);
	assert_int_equal(R.status, PROBE_OK);
	assert_string_equal(R.message, "");
	assert_true(probe_report_has_gpu(&R));
	assert_int_equal(R.n_notes, 0);
	assert_int_equal(R.device_count, 1);
	assert_int_equal(R.cuda_driver_version, 12040);
	assert_string_equal(R.driver_release, "550.54.15");
	assert_int_equal(R.nvml.version, 12040);
	assert_string_equal(R.cuda.path, FAKE_LIBCUDA);
	d = probe_report_device(&R);
	assert_non_null(d);
	assert_string_equal(d->name, FAKE_NAME);
	assert_string_equal(d->uuid, "GPU-00102030-4050-6070-8090-a0b0c0d0e0f0");
	assert_string_equal(d->pci_bus_id, "00000000:17:00.0");
	assert_int_equal(d->cc_major, 9);
	assert_int_equal(d->cc_minor, 0);
	assert_int_equal(d->sm_count, 132);
	/* cuDeviceTotalMem_v2, not the legacy 32-bit query */
	assert_close(d->mem_total, FAKE_MEMORY, 0);
	/* NVML v2: used without the reserved memory, as nvidia-smi shows it */
	assert_true(PROBE_HAS(d, PROBE_F_MEM_USED) && PROBE_HAS(d, PROBE_F_MEM_RESERVED));
	assert_close(d->mem_used, FAKE_USED, 0);
	assert_close(d->mem_reserved, FAKE_RESERVED, 0);
	assert_int_equal(d->bus_width, 5120);
	assert_close(d->mem_clock, 2619e6, 0);
	assert_close(d->sm_clock, 1980e6, 0);
	assert_int_equal(d->pcie_gen, 4);
	assert_int_equal(d->pcie_gen_max, 5);
	assert_int_equal(d->pcie_width_max, 16);
	assert_close(d->power_limit, 700, 0);
	assert_true(PROBE_HAS(d, PROBE_F_MIG) && !d->mig);
	assert_true(PROBE_HAS(d, PROBE_F_FROM_NVML));
	assert_close(probe_theoretical_bw(d->bus_width, d->mem_clock), 3.352e12, 1e-3);

	/* measured on the fakes' virtual clock: exact */
	assert_true(R.measured);
	assert_int_equal(R.m.d2d.state, PROBE_M_OK);
	assert_close(R.m.d2d.value, FAKE_D2D_BW, 1e-5);
	assert_close(R.m.d2d.bytes, 256 * MIB, 0);
	assert_true(R.m.d2d.runs >= 3);
	assert_int_equal(R.m.h2d_pinned.state, PROBE_M_OK);
	assert_close(R.m.h2d_pinned.value, FAKE_H2D_PINNED, 1e-5);
	assert_int_equal(R.m.h2d_pageable.state, PROBE_M_OK);
	assert_close(R.m.h2d_pageable.value, FAKE_H2D_PAGEABLE, 1e-5);
	assert_int_equal(R.m.matmul[ENGINE_DT_BF16].state, PROBE_M_OK);
	assert_close(R.m.matmul[ENGINE_DT_BF16].value, FAKE_PEAK_BF16, 1e-5);
	assert_int_equal(R.m.matmul[ENGINE_DT_BF16].n, 8192);
	assert_close(R.m.matmul[ENGINE_DT_FP16].value, FAKE_PEAK_FP16, 1e-5);
	assert_close(R.m.matmul[ENGINE_DT_TF32].value, FAKE_PEAK_TF32, 1e-5);
	assert_close(R.m.matmul[ENGINE_DT_FP32].value, FAKE_PEAK_FP32, 1e-5);
	assert_int_equal(R.m.matmul[ENGINE_DT_FP8_E4M3].state, PROBE_M_OK);
	assert_close(R.m.matmul[ENGINE_DT_FP8_E4M3].value, FAKE_PEAK_FP8, 1e-5);
	assert_string_equal(R.m.blas, "cuBLASLt 12.4.5");
	assert_close(R.m.context_bytes, FAKE_CONTEXT, 0);
	assert_contains(R.m.d2d.note, "read + written");

	/* the calls: v2 memory struct, random data, everything given back */
	assert_int_equal(log_count("nvmlDeviceGetMemoryInfo_v2", "0x2000028"),
			 log_count("nvmlDeviceGetMemoryInfo_v2", NULL));
	assert_true(log_count("cuMemcpyHtoD", NULL) > 0);
	assert_int_equal(log_count("cuMemcpyHtoD", "zero=1"), 0);
	assert_int_equal(log_count("cuMemcpyHtoDAsync", "zero=1"), 0);
	assert_int_equal(log_count("cuMemcpyHtoDAsync", "pinned=0"), 0);
	assert_true(log_count("cuMemcpyHtoD", "pinned=0") > 0);
	assert_int_equal(log_count("cuMemAlloc", NULL), log_count("cuMemFree", NULL));
	assert_int_equal(log_count("cuMemHostAlloc", NULL), log_count("cuMemFreeHost", NULL));
	assert_int_equal(log_count("cuDevicePrimaryCtxRetain", NULL), 1);
	assert_int_equal(log_count("cuDevicePrimaryCtxRelease", NULL), 1);
	assert_int_equal(log_count("cuEventCreate", NULL), log_count("cuEventDestroy", NULL));
	assert_true(log_count("cuEventElapsedTime_v2", NULL) > 0); /* the newest name first */
	assert_int_equal(log_count("cuEventElapsedTime", NULL), 0);
	assert_int_equal(log_count("cublasLtCreate", NULL), 1);
	assert_int_equal(log_count("cublasLtDestroy", NULL), 1);
	assert_int_equal(log_count("cublasLtMatmulDescCreate", NULL), log_count("cublasLtMatmulDescDestroy", NULL));
	assert_int_equal(log_count("cublasLtMatrixLayoutCreate", NULL), log_count("cublasLtMatrixLayoutDestroy", NULL));
	assert_true(log_count("cublasLtMatmul", "m=8192 n=8192 k=8192") > 0);
	assert_int_equal(log_count("nvmlShutdown", NULL), 1);
}

static void test_fp8_needs_ada(void **state)
{
	(void)state;
	setenv("FAKE_CUDA_CC", "80", 1);
	run(&R);
	assert_int_equal(R.status, PROBE_OK);
	assert_int_equal(R.m.matmul[ENGINE_DT_FP8_E4M3].state, PROBE_M_SKIPPED);
	assert_contains(R.m.matmul[ENGINE_DT_FP8_E4M3].note, "compute capability 8.9");
	assert_int_equal(R.m.matmul[ENGINE_DT_TF32].state, PROBE_M_OK);
	assert_int_equal(log_count("cublasLtMatmulAlgoGetHeuristic", "type=28"), 0);
}

static void test_alloc_failure(void **state)
{
	(void)state;
	setenv("FAKE_CUDA_ALLOC_FAIL", "1", 1);
	run(&R);
	assert_int_equal(R.status, PROBE_OK);
	assert_int_equal(R.m.d2d.state, PROBE_M_FAILED);
	assert_contains(R.m.d2d.note, "cuMemAlloc failed: 2 (CUDA_ERROR_OUT_OF_MEMORY");
	assert_int_equal(R.m.h2d_pinned.state, PROBE_M_FAILED);
	assert_int_equal(R.m.matmul[ENGINE_DT_BF16].state, PROBE_M_FAILED);
	assert_contains(R.m.matmul[ENGINE_DT_BF16].note, "out of device memory");
	assert_int_equal(log_count("cuDevicePrimaryCtxRelease", NULL), 1);
	assert_int_equal(log_count("cuMemHostAlloc", NULL), log_count("cuMemFreeHost", NULL));
}

static void test_missing_measure_symbol(void **state)
{
	(void)state;
	setenv("NAPKIN_LIBCUDA", FAKE_LIBCUDA_NOALLOC, 1);
	run(&R);
	assert_int_equal(R.status, PROBE_OK); /* the device is read */
	assert_string_equal(R.devices[0].name, FAKE_NAME);
	assert_int_equal(R.m.d2d.state, PROBE_M_SKIPPED);
	assert_contains(R.m.d2d.note, "the CUDA driver lacks cuMemAlloc_v2 (nor cuMemAlloc): ");
	assert_int_equal(R.m.matmul[ENGINE_DT_BF16].state, PROBE_M_SKIPPED);
	assert_true(has_note(&R, "nothing measured: the CUDA driver lacks cuMemAlloc_v2"));
}

/* An old driver with only the unversioned names still works. */
static void test_old_driver(void **state)
{
	(void)state;
	setenv("NAPKIN_LIBCUDA", FAKE_LIBCUDA_OLD, 1);
	run(&R);
	assert_int_equal(R.status, PROBE_OK);
	assert_close(R.devices[0].mem_total, FAKE_MEMORY, 0);
	assert_true(PROBE_HAS(&R.devices[0], PROBE_F_UUID));
	assert_int_equal(R.m.d2d.state, PROBE_M_OK);
	assert_close(R.m.d2d.value, FAKE_D2D_BW, 1e-5);
	assert_close(R.m.matmul[ENGINE_DT_BF16].value, FAKE_PEAK_BF16, 1e-5);
}

static void test_nvml_missing(void **state)
{
	const struct probe_device *d;

	(void)state;
	setenv("NAPKIN_LIBNVML", "/nonexistent/libnvidia-ml.so.1", 1);
	run(&R);
	assert_int_equal(R.status, PROBE_OK);
	assert_true(has_note(&R, "NVML missing (/nonexistent/libnvidia-ml.so.1: "));
	d = probe_report_device(&R);
	assert_false(PROBE_HAS(d, PROBE_F_MEM_USED));
	assert_false(PROBE_HAS(d, PROBE_F_PCIE_GEN));
	assert_false(PROBE_HAS(d, PROBE_F_FROM_NVML));
	/* CUDA's own view stays */
	assert_true(PROBE_HAS(d, PROBE_F_MEM_TOTAL) && PROBE_HAS(d, PROBE_F_BUS_WIDTH) &&
		    PROBE_HAS(d, PROBE_F_MEM_CLOCK));
	assert_close(d->mem_clock, 2619e6, 0);
	assert_string_equal(R.driver_release, "");
	assert_close(R.m.context_bytes, 0, 0);
	assert_int_equal(R.m.d2d.state, PROBE_M_OK);
}

static void test_nvml_init_error(void **state)
{
	(void)state;
	setenv("FAKE_NVML_INIT_ERROR", "9", 1);
	run(&R);
	assert_int_equal(R.status, PROBE_OK);
	assert_true(has_note(&R, "nvmlInit failed: 9 (Driver Not Loaded)"));
}

static void test_nvml_v1_memory(void **state)
{
	const struct probe_device *d;

	(void)state;
	setenv("NAPKIN_LIBNVML", FAKE_LIBNVML_V1, 1);
	run(&R);
	d = probe_report_device(&R);
	assert_true(PROBE_HAS(d, PROBE_F_MEM_USED));
	assert_false(PROBE_HAS(d, PROBE_F_MEM_RESERVED));
	assert_close(d->mem_used, FAKE_USED + FAKE_RESERVED, 0);
}

static void test_nvml_by_bus_id(void **state)
{
	(void)state;
	setenv("FAKE_NVML_NO_UUID", "1", 1);
	setenv("FAKE_CUDA_DEVICES", "2", 1);
	run(&R);
	assert_true(PROBE_HAS(&R.devices[1], PROBE_F_FROM_NVML));
	assert_int_equal(log_count("nvmlDeviceGetHandleByPciBusId", "00000000:18:00.0"), 1);
}

static void test_mig_note(void **state)
{
	(void)state;
	setenv("FAKE_NVML_MIG", "1", 1);
	run(&R);
	assert_true(R.devices[0].mig);
	assert_true(has_note(&R, "MIG is on"));
}

static void test_cublas_missing(void **state)
{
	(void)state;
	setenv("NAPKIN_LIBCUBLASLT", "/nonexistent/libcublasLt.so.12", 1);
	run(&R);
	assert_int_equal(R.status, PROBE_OK);
	assert_false(R.blas.loaded);
	assert_true(has_note(&R, "cuBLAS missing (/nonexistent/libcublasLt.so.12: "));
	assert_true(has_note(&R, "matmul throughput not measured"));
	assert_int_equal(R.m.matmul[ENGINE_DT_BF16].state, PROBE_M_SKIPPED);
	assert_contains(R.m.matmul[ENGINE_DT_BF16].note, "no cuBLASLt or cuBLAS");
	assert_int_equal(R.m.d2d.state, PROBE_M_OK); /* the rest is measured */
	assert_int_equal(R.m.h2d_pinned.state, PROBE_M_OK);
}

static void test_cublas_fallback(void **state)
{
	(void)state;
	setenv("NAPKIN_LIBCUBLASLT", "/nonexistent/libcublasLt.so.12", 1);
	setenv("NAPKIN_LIBCUBLAS", FAKE_LIBCUBLAS, 1);
	run(&R);
	assert_true(R.blas.loaded);
	assert_string_equal(R.m.blas, "cuBLAS 11.11.3");
	assert_close(R.m.matmul[ENGINE_DT_BF16].value, FAKE_PEAK_BF16, 1e-5);
	assert_close(R.m.matmul[ENGINE_DT_TF32].value, FAKE_PEAK_TF32, 1e-5);
	assert_int_equal(R.m.matmul[ENGINE_DT_FP8_E4M3].state, PROBE_M_FAILED);
	assert_contains(R.m.matmul[ENGINE_DT_FP8_E4M3].note, "need cuBLASLt");
	assert_int_equal(log_count("cublasCreate", NULL), log_count("cublasDestroy", NULL));
}

static void test_cublas_no_algo(void **state)
{
	(void)state;
	setenv("FAKE_CUBLAS_NO_ALGO", "1", 1);
	run(&R);
	assert_int_equal(R.m.matmul[ENGINE_DT_BF16].state, PROBE_M_FAILED);
	assert_contains(R.m.matmul[ENGINE_DT_BF16].note, "cuBLASLt has no algorithm for it (status 15)");
	assert_int_equal(log_count("cublasLtMatmulDescCreate", NULL), log_count("cublasLtMatmulDescDestroy", NULL));
}

static void test_context_error(void **state)
{
	(void)state;
	setenv("FAKE_CUDA_CTX_ERROR", "46", 1);
	run(&R);
	assert_int_equal(R.status, PROBE_OK);
	assert_int_equal(R.m.d2d.state, PROBE_M_FAILED);
	assert_contains(R.m.d2d.note, "creating a CUDA context failed: 46 (CUDA_ERROR_DEVICE_UNAVAILABLE");
	assert_int_equal(log_count("cuDevicePrimaryCtxRelease", NULL), 0);
}

/* ---------------------------------------------------------------- the child process */

static void test_hang_times_out(void **state)
{
	struct probe_options o;
	struct napkin_err err;
	double t0;

	(void)state;
	setenv("FAKE_CUDA_HANG", "cuEventSynchronize", 1);
	test_options(&o);
	o.timeout = 1.5;
	t0 = (double)time(NULL);
	assert_int_equal(probe_run(&o, &R, NULL, NULL, &err), 0);
	assert_true((double)time(NULL) - t0 < 10); /* 1.5 s, and a loaded machine */
	assert_int_equal(R.status, PROBE_TIMEOUT);
	assert_contains(R.message, "did not finish within 2 s while device-to-device copies of 256.0 MiB");
	/* what the child had sent is kept */
	assert_true(probe_report_has_gpu(&R));
	assert_string_equal(probe_report_device(&R)->name, FAKE_NAME);
	assert_int_equal(R.m.d2d.state, PROBE_M_NOT_RUN);
}

static void test_hang_in_init(void **state)
{
	struct probe_options o;
	struct napkin_err err;

	(void)state;
	setenv("FAKE_CUDA_HANG", "cuInit", 1);
	test_options(&o);
	o.timeout = 1.0;
	assert_int_equal(probe_run(&o, &R, NULL, NULL, &err), 0);
	assert_int_equal(R.status, PROBE_TIMEOUT);
	assert_contains(R.message, "while initialising the CUDA driver");
	assert_false(probe_report_has_gpu(&R));
}

static void test_crash(void **state)
{
	(void)state;
	setenv("FAKE_CUDA_CRASH", "cublasLtMatmul", 1);
	run(&R);
	assert_int_equal(R.status, PROBE_CRASHED);
	assert_contains(R.message, "died of signal 11");
	assert_contains(R.message, "while matmul bf16 2048x2048x2048");
	assert_true(probe_report_has_gpu(&R));
	assert_int_equal(R.m.d2d.state, PROBE_M_OK); /* measured before the crash */
	assert_close(R.m.d2d.value, FAKE_D2D_BW, 1e-5);
}

struct progress_log {
	double last;
	int calls;
	bool monotonic, saw_matmul;
};

static void on_progress(void *ctx, const struct probe_progress *p)
{
	struct progress_log *l = ctx;

	if (p->fraction < l->last)
		l->monotonic = false;
	l->last = p->fraction;
	l->calls++;
	if (strstr(p->step, "matmul"))
		l->saw_matmul = true;
}

static void test_progress(void **state)
{
	struct probe_options o;
	struct napkin_err err;
	struct progress_log l = {0, 0, true, false};

	(void)state;
	test_options(&o);
	assert_int_equal(probe_run(&o, &R, on_progress, &l, &err), 0);
	assert_int_equal(R.status, PROBE_OK);
	assert_true(l.calls >= 3);
	assert_true(l.monotonic);
	assert_true(l.saw_matmul);
	assert_string_equal(R.last_step, "done");
}

/* The API the TUI drives: start, poll on the fd, finish. */
static void test_async_api(void **state)
{
	struct probe_options o;
	struct probe_job *job;
	struct probe_progress p;
	struct napkin_err err;
	int polls = 0;

	(void)state;
	test_options(&o);
	assert_int_equal(probe_start(&job, &o, &err), 0);
	assert_true(probe_job_fd(job) >= 0);
	while (probe_job_poll(job, &p)) {
		struct pollfd pfd = {probe_job_fd(job), POLLIN, 0};
		int ms = probe_job_timeout_ms(job);
		assert_true(ms > 0);
		poll(&pfd, 1, ms);
		polls++;
	}
	assert_true(polls > 0);
	assert_close(p.fraction, 1.0, 0);
	probe_job_finish(job, &R);
	assert_int_equal(R.status, PROBE_OK);
	assert_true(R.elapsed > 0);
}

static void test_cancel(void **state)
{
	struct probe_options o;
	struct probe_job *job;
	struct napkin_err err;
	int st;

	(void)state;
	setenv("FAKE_CUDA_HANG", "cuInit", 1);
	test_options(&o);
	assert_int_equal(probe_start(&job, &o, &err), 0);
	nanosleep(&(struct timespec){0, 100000000}, NULL);
	assert_int_equal(probe_job_poll(job, NULL), 1);
	probe_job_cancel(job);
	probe_job_cancel(NULL);
	/* the child was reaped: nothing left to wait for */
	assert_int_equal(waitpid(-1, &st, WNOHANG), -1);
	assert_int_equal(errno, ECHILD);
}

/* ---------------------------------------------------------------- the monitor */

static void test_monitor(void **state)
{
	struct probe_monitor *m;
	struct probe_sample s;
	struct napkin_err err;
	char msg[256];
	int got = 0, i;

	(void)state;
	assert_int_equal(probe_monitor_start(&m, "GPU-00102030-4050-6070-8090-a0b0c0d0e0f0", 0.1, NULL, NULL, &err), 0);
	for (i = 0; i < 100 && got < 3; i++) {
		struct pollfd pfd = {probe_monitor_fd(m), POLLIN, 0};
		int rc;
		poll(&pfd, 1, 100);
		rc = probe_monitor_poll(m, &s, msg, sizeof msg);
		assert_true(rc >= 0);
		got += rc;
	}
	assert_int_equal(got, 3);
	assert_true(s.valid & 1u << PROBE_S_MEM);
	assert_close(s.mem_used, FAKE_USED, 0);
	assert_close(s.mem_reserved, FAKE_RESERVED, 0);
	assert_close(s.mem_total, FAKE_MEMORY, 0);
	assert_int_equal(s.gpu_util, 42);
	assert_int_equal(s.mem_util, 17);
	assert_close(s.sm_clock, 1755e6, 0);
	assert_close(s.power, 351.5, 0);
	assert_close(s.power_limit, 700, 0);
	assert_int_equal(s.temperature, 55);
	assert_true(s.time > 0);
	probe_monitor_stop(m);
	probe_monitor_stop(NULL);
}

static int monitor_end(struct probe_monitor *m, char *msg, size_t n, double wait_s)
{
	struct probe_sample s;
	int i, rc = 0;

	for (i = 0; i < (int)(wait_s * 20); i++) {
		struct pollfd pfd = {probe_monitor_fd(m), POLLIN, 0};
		poll(&pfd, 1, 50);
		rc = probe_monitor_poll(m, &s, msg, n);
		if (rc < 0)
			break;
	}
	return rc;
}

static void test_monitor_no_nvml(void **state)
{
	struct probe_monitor *m;
	struct napkin_err err;
	char msg[256] = "";

	(void)state;
	setenv("NAPKIN_LIBNVML", "/nonexistent/libnvidia-ml.so.1", 1);
	assert_int_equal(probe_monitor_start(&m, NULL, 0.1, NULL, NULL, &err), 0);
	assert_int_equal(monitor_end(m, msg, sizeof msg, 5), -1);
	assert_contains(msg, "NVML missing (/nonexistent/libnvidia-ml.so.1: ");
	probe_monitor_stop(m);
}

static void test_monitor_unknown_uuid(void **state)
{
	struct probe_monitor *m;
	struct napkin_err err;
	char msg[256] = "";

	(void)state;
	assert_int_equal(probe_monitor_start(&m, "GPU-nope", 0.1, NULL, NULL, &err), 0);
	assert_int_equal(monitor_end(m, msg, sizeof msg, 5), -1);
	assert_contains(msg, "NVML does not know device GPU-nope");
	probe_monitor_stop(m);
}

static void test_monitor_hang(void **state)
{
	struct probe_monitor *m;
	struct napkin_err err;
	char msg[256] = "";

	(void)state;
	setenv("FAKE_CUDA_HANG", "nvmlDeviceGetPowerUsage", 1);
	assert_int_equal(probe_monitor_start(&m, NULL, 0.1, NULL, NULL, &err), 0);
	assert_int_equal(monitor_end(m, msg, sizeof msg, 6), -1);
	assert_string_equal(msg, "no answer from NVML for 2 s");
	probe_monitor_stop(m);
}

/* ---------------------------------------------------------------- the translator */

/* A translator that marks what it translated: "T:" before the msgid (the same conversions,
 * so every format still formats). Its strings live as long as the test program. */
static const char *mark(void *ctx, const char *msgid)
{
	static char pool[160][PROBE_MSG_MAX];
	static const char *key[160];
	static int n;
	int i;

	(void)ctx;
	for (i = 0; i < n; i++)
		if (key[i] == msgid)
			return pool[i];
	if (n == 160)
		return msgid;
	key[n] = msgid;
	snprintf(pool[n], sizeof pool[n], "T:%s", msgid);
	return pool[n++];
}
static const struct engine_tr marker = {mark, NULL};

struct step_log {
	int calls, marked;
};

static void on_step(void *ctx, const struct probe_progress *p)
{
	struct step_log *l = ctx;

	l->calls++;
	l->marked += strncmp(p->step, "T:", 2) == 0;
}

#define assert_marked(s) assert_true_msg(strncmp((s), "T:", 2) == 0, (s))
#define assert_true_msg(c, s)                                                                                \
	do {                                                                                                 \
		if (!(c))                                                                                    \
			fail_msg("not through the translator: \"%s\"", (s));                                 \
	} while (0)

/* Every word of a report goes through the options' translator, in the child too (it has
 * the translator by fork): the message, the notes, each measurement's note, the progress
 * steps, the CUDA error's meaning; the system's texts (dlerror) inside them stay. */
static void test_translated(void **state)
{
	const enum engine_dtype *dts;
	size_t ndt = probe_matmul_dtypes(&dts), i;
	struct probe_options o;
	struct napkin_err err;
	struct step_log l = {0, 0};
	int k;

	(void)state;
	setenv("NAPKIN_LIBNVML", "/nonexistent/libnvidia-ml.so.1", 1);
	setenv("NAPKIN_LIBCUBLASLT", "/nonexistent/libcublasLt.so.12", 1);
	test_options(&o);
	o.tr = &marker;
	assert_int_equal(probe_run(&o, &R, on_step, &l, &err), 0);
	assert_int_equal(R.status, PROBE_OK);
	assert_true(R.n_notes >= 2);
	for (k = 0; k < R.n_notes; k++)
		assert_marked(R.notes[k]);
	assert_true(has_note(&R, "T:NVML missing (/nonexistent/libnvidia-ml.so.1: "));
	assert_true(has_note(&R, "No such file or directory")); /* dlerror's own words */
	assert_marked(R.m.d2d.note);
	assert_marked(R.m.h2d_pinned.note);
	assert_marked(R.m.h2d_pageable.note);
	for (i = 0; i < ndt; i++)
		assert_string_equal(R.m.matmul[dts[i]].note, "T:no cuBLASLt or cuBLAS library");
	assert_string_equal(R.last_step, "T:done");
	assert_true(l.calls >= 3);
	assert_int_equal(l.marked, l.calls);

	/* a CUDA error: the message and the error's meaning (its name stays cuda.h's) */
	env_reset();
	setup_fakes(NULL);
	setenv("FAKE_CUDA_INIT_ERROR", "999", 1);
	assert_int_equal(probe_run(&o, &R, NULL, NULL, &err), 0);
	assert_int_equal(R.status, PROBE_DRIVER_ERROR);
	assert_marked(R.message);
	assert_contains(R.message, "cuInit returned 999 (CUDA_ERROR_UNKNOWN: T:an unknown error");

	/* the parent's own words: a timeout, with the step the child was at */
	env_reset();
	setup_fakes(NULL);
	setenv("FAKE_CUDA_HANG", "cuEventSynchronize", 1);
	o.timeout = 1.0;
	assert_int_equal(probe_run(&o, &R, NULL, NULL, &err), 0);
	assert_int_equal(R.status, PROBE_TIMEOUT);
	assert_contains(R.message, "T:the probe did not finish within 1 s");
	assert_contains(R.message, "T: while T:device-to-device copies of ");

	/* no driver: the message; the library's error is dlerror's, as the system gives it */
	setenv("NAPKIN_LIBCUDA", "/nonexistent/libcuda.so.1", 1);
	o.timeout = 30.0;
	assert_int_equal(probe_run(&o, &R, NULL, NULL, &err), 0);
	assert_int_equal(R.status, PROBE_NO_DRIVER);
	assert_contains(R.message, "T:no NVIDIA driver: /nonexistent/libcuda.so.1 cannot be loaded (");
	assert_true(strncmp(R.cuda.error, "T:", 2) != 0);
	assert_contains(R.cuda.error, "No such file or directory");

	/* a translator without gettext is English, as NULL is */
	{
		const struct engine_tr none = {NULL, NULL};
		o.tr = &none;
		assert_int_equal(probe_run(&o, &R, NULL, NULL, &err), 0);
		assert_contains(R.message, "no NVIDIA driver: /nonexistent/libcuda.so.1 cannot be loaded (");
		assert_null(strstr(R.message, "T:"));
	}
}

/* The monitor's words through its translator, from the child and from the parent. */
static void test_monitor_translated(void **state)
{
	struct probe_monitor *m;
	struct napkin_err err;
	char msg[256] = "";

	(void)state;
	setenv("NAPKIN_LIBNVML", "/nonexistent/libnvidia-ml.so.1", 1);
	assert_int_equal(probe_monitor_start(&m, NULL, 0.1, NULL, &marker, &err), 0);
	assert_int_equal(monitor_end(m, msg, sizeof msg, 5), -1);
	assert_contains(msg, "T:NVML missing (/nonexistent/libnvidia-ml.so.1: ");
	probe_monitor_stop(m);
	setup_fakes(NULL);
	setenv("FAKE_CUDA_HANG", "nvmlDeviceGetPowerUsage", 1);
	assert_int_equal(probe_monitor_start(&m, NULL, 0.1, NULL, &marker, &err), 0);
	assert_int_equal(monitor_end(m, msg, sizeof msg, 6), -1);
	assert_string_equal(msg, "T:no answer from NVML for 2 s");
	probe_monitor_stop(m);
}

/* Bytes of s that are not whole UTF-8 characters (util_utf8_decode reads a broken sequence
 * as one byte, U+FFFD). */
static int broken_utf8(const char *s)
{
	int bad = 0;

	while (*s) {
		uint32_t cp;
		size_t k = util_utf8_decode(s, &cp);
		bad += cp == 0xFFFD;
		s += k ? k : 1;
	}
	return bad;
}

/* A Chinese note longer than its buffer is cut at a character, never inside one: the NVML
 * note with a long library path, the cut landing in its Chinese tail for some lengths. */
static void test_cut_whole(void **state)
{
	static const struct engine_tr zh = {i18n_gettext_cb, NULL};
	struct probe_options o;
	struct napkin_err err;
	char path[200];
	int len, cut = 0;

	(void)state;
	i18n_set(I18N_ZH);
	test_options(&o);
	o.tr = &zh;
	o.skip = PROBE_SKIP_MEASURE;
	for (len = 96; len < 104; len++) {
		snprintf(path, sizeof path, "/nonexistent/%0*d/libnvidia-ml.so.1", len - 31, 0);
		setenv("NAPKIN_LIBNVML", path, 1);
		assert_int_equal(probe_run(&o, &R, NULL, NULL, &err), 0);
		assert_int_equal(R.status, PROBE_OK);
		assert_true(has_note(&R, "缺少 NVML（/nonexistent/"));
		if (strlen(R.notes[0]) >= sizeof R.notes[0] - 3)
			cut++;
		if (broken_utf8(R.notes[0]))
			fail_msg("a character cut in two: \"%s\"", R.notes[0]);
	}
	assert_true(cut >= 4); /* the note was cut, at several places */
	i18n_set(I18N_EN);
}

#define T(f) cmocka_unit_test_setup_teardown(f, setup_fakes, teardown)

static const struct CMUnitTest tests[] = {
	T(test_no_driver),
	T(test_no_driver_soname),
	T(test_nvidia_stub),
	T(test_init_error),
	T(test_init_no_device),
	T(test_no_devices),
	T(test_bad_device_index),
	T(test_missing_read_symbol),
	T(test_full_probe),
	T(test_fp8_needs_ada),
	T(test_alloc_failure),
	T(test_missing_measure_symbol),
	T(test_old_driver),
	T(test_nvml_missing),
	T(test_nvml_init_error),
	T(test_nvml_v1_memory),
	T(test_nvml_by_bus_id),
	T(test_mig_note),
	T(test_cublas_missing),
	T(test_cublas_fallback),
	T(test_cublas_no_algo),
	T(test_context_error),
	T(test_hang_times_out),
	T(test_hang_in_init),
	T(test_crash),
	T(test_progress),
	T(test_async_api),
	T(test_cancel),
	T(test_monitor),
	T(test_monitor_no_nvml),
	T(test_monitor_unknown_uuid),
	T(test_monitor_hang),
	T(test_translated),
	T(test_monitor_translated),
	T(test_cut_whole),
};

TESTUTIL_MAIN("probe", tests)
