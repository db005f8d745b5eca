/*
 * The GPU in this machine, in the explorer's view-model, without a terminal, against the
 * fake NVIDIA libraries (tests/fake): a probe's report becomes a measured GPU that the
 * picker offers and the knobs resolve, with its datasheet beside it on the roofline; every
 * failure is said in the probe's words; G runs the probe in a child (a hang is stopped at
 * the deadline, a crash is reported, Esc cancels); the live panel samples NVML while it is
 * open and puts napkin's prediction beside the memory used; with nothing running the
 * explorer asks for no wake-up at all. Also the datasheet match over the registry.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "fake.h"
#include "model.h"
#include "presets.h"
#include "probe.h"
#include "testutil.h"
#include "view_gpu.h"

#define MIB 1048576.0

static struct preset_registry *reg;

static int setup(void **state)
{
	struct preset_options o = {.no_search = true, .extra_dir = NULL};
	struct napkin_err err;

	(void)state;
	return preset_registry_new(&reg, &o, &err) == NAPKIN_OK ? 0 : -1;
}

static int teardown(void **state)
{
	(void)state;
	preset_registry_free(reg);
	return 0;
}

/* The fakes, healthy; each test adds its failure switch. */
static void fakes(void)
{
	setenv("NAPKIN_LIBCUDA", FAKE_LIBCUDA, 1);
	setenv("NAPKIN_LIBNVML", FAKE_LIBNVML, 1);
	setenv("NAPKIN_LIBCUBLASLT", FAKE_LIBCUBLASLT, 1);
	setenv("NAPKIN_LIBCUBLAS", FAKE_LIBCUBLAS, 1);
	unsetenv("FAKE_CUDA_HANG");
	unsetenv("FAKE_CUDA_CRASH");
	unsetenv("FAKE_CUDA_DEVICES");
	unsetenv("FAKE_CUDA_INIT_ERROR");
}

static struct tui_model *new_model(struct preset_registry *r)
{
	struct tui_model *m = calloc(1, sizeof *m);
	struct engine_scenario sc;
	struct tui_options opt = {.theme = "dark"};

	assert_non_null(m);
	engine_scenario_default(&sc);
	assert_int_equal(tui_model_init(m, &sc, r, &opt), 0);
	tui_model_set_size(m, 120, 40);
	return m;
}

static void free_model(struct tui_model *m)
{
	tui_model_fini(m);
	free(m);
}

static unsigned key(struct tui_model *m, int k, uint64_t now)
{
	struct tui_event ev;

	memset(&ev, 0, sizeof ev);
	ev.key = k;
	return tui_model_event(m, &ev, now);
}

static bool screen_has(struct tui_model *m, const char *s, uint64_t now)
{
	struct tui_canvas c;
	char row[4096];
	bool found = false;
	int y;

	tui_canvas_init(&c);
	tui_draw(m, &c, now);
	for (y = 0; y < c.h && !found; y++) {
		tui_canvas_row(&c, y, row, sizeof row);
		found = strstr(row, s) != NULL;
	}
	tui_canvas_fini(&c);
	return found;
}

/* The roofline pane's text, all rows joined. */
static void roofline_text(struct tui_model *m, char *out, size_t n, uint64_t now)
{
	struct tui_canvas c;
	struct tui_rect r = tui_model_pane_rect(m, TUI_PANE_ROOFLINE);
	char row[4096];
	size_t pos = 0;
	int y;

	assert_true(r.w > 0);
	tui_canvas_init(&c);
	tui_draw(m, &c, now);
	out[0] = '\0';
	for (y = r.y; y < r.y + r.h; y++) {
		char *p = row;
		int x;
		tui_canvas_row(&c, y, row, sizeof row);
		/* skip to the pane's first column (cells are one code point each) */
		for (x = 0; x < r.x && *p; x++) {
			uint32_t cp;
			p += tui_utf8_decode(p, &cp);
		}
		util_bprintf(out, n, &pos, "%.*s\n", (int)strlen(p), p);
	}
	tui_canvas_fini(&c);
}

/* A report as the probe makes it, in this process, quickly (small buffers). */
static void collect(struct probe_report *r)
{
	struct probe_options o;

	probe_options_default(&o);
	o.copy_bytes = 64 * MIB;
	o.h2d_bytes = 2 * MIB;
	o.matmul_n = 1024;
	o.budget = 0.2;
	probe_collect(&o, r, NULL, NULL, NULL);
}

static uint64_t wall_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000u + (uint64_t)ts.tv_nsec / 1000000u;
}

/* Runs the loop as term.c does: waits what tui_model_timeout asks, then ticks; until
 * done(m) or the deadline (seconds). Returns the ticks it took. */
static int run_until(struct tui_model *m, bool (*done)(struct tui_model *), double deadline)
{
	uint64_t end = wall_ms() + (uint64_t)(deadline * 1000);
	int ticks = 0;

	while (!done(m)) {
		int to = tui_model_timeout(m, wall_ms());
		struct timespec ts;
		assert_true(to >= 0); /* something runs: a wake-up is due */
		assert_true(to <= 1100);
		ts.tv_sec = to / 1000;
		ts.tv_nsec = (long)(to % 1000) * 1000000L;
		nanosleep(&ts, NULL);
		tui_model_tick(m, wall_ms());
		ticks++;
		if (wall_ms() > end)
			fail_msg("still running after %.0f s", deadline);
	}
	return ticks;
}

static bool probe_over(struct tui_model *m)
{
	return !tui_gpu_probing(m);
}

/* Nothing running: no wake-up wanted once the highlights have faded. */
static bool idle(const struct tui_model *m)
{
	return tui_model_timeout(m, wall_ms() + TUI_HL_MS + 1) == -1;
}

/* ---------------------------------------------------------------- the datasheet match */

static void test_find_datasheet(void **state)
{
	struct probe_device d;
	struct engine_gpu g;

	(void)state;
	memset(&d, 0, sizeof d);
	snprintf(d.name, sizeof d.name, "NVIDIA H100 80GB HBM3");
	d.mem_total = 81559 * MIB;
	d.valid = 1u << PROBE_F_NAME | 1u << PROBE_F_MEM_TOTAL;
	assert_int_equal(probe_find_datasheet(reg, &d, &g), 1);
	assert_string_equal(g.id, "h100-sxm");
	assert_false(g.measured);
	snprintf(d.name, sizeof d.name, "NVIDIA A100-SXM4-40GB");
	d.mem_total = 40960 * MIB;
	assert_int_equal(probe_find_datasheet(reg, &d, &g), 1);
	assert_string_equal(g.id, "a100-40gb-sxm");
	snprintf(d.name, sizeof d.name, "NVIDIA GH200 480GB");
	assert_int_equal(probe_find_datasheet(reg, &d, &g), 0);
	assert_int_equal(probe_find_datasheet(NULL, &d, &g), 0);
	assert_int_equal(probe_find_datasheet(reg, NULL, &g), 0);
}

/* ---------------------------------------------------------------- a good probe */

static void test_accept(void **state)
{
	static struct probe_report r;
	struct tui_model *m = new_model(reg);
	struct engine_gpu ds;
	const struct engine_gpu *g;
	char text[16384];
	int i;
	bool found = false;

	(void)state;
	fakes();
	collect(&r);
	assert_int_equal(r.status, PROBE_OK);
	assert_false(m->sc.gpu.measured);
	assert_false(tui_gpu_datasheet(m, &ds));

	assert_int_equal(tui_gpu_accept(m, &r, 1000), 0);
	/* selected, measured, named after the datasheet preset it matched */
	assert_true(m->sc.gpu.measured);
	assert_string_equal(m->sc.gpu.id, "h100-sxm-measured");
	assert_string_equal(m->sc.gpu.name, "H100 SXM (measured)");
	assert_close(m->sc.gpu.bandwidth, FAKE_D2D_BW, 1e-6);
	assert_close(m->sc.gpu.peak[ENGINE_DT_BF16], FAKE_PEAK_BF16, 1e-6);
	assert_close(m->res.roofline.peak, FAKE_PEAK_BF16, 1e-6);
	assert_false(m->msg_error);
	assert_non_null(strstr(m->msg, "measured in "));
	assert_non_null(strstr(m->msg, "h100-sxm-measured selected (datasheet h100-sxm); M: live panel"));
	assert_int_equal(tui_view_top(m), TUI_VIEW_MAIN);
	/* the datasheet stays beside it, as the preset has it */
	assert_true(tui_gpu_datasheet(m, &ds));
	assert_string_equal(ds.id, "h100-sxm");
	assert_false(ds.measured);
	assert_close(ds.bandwidth, 3.35e12, 1e-3);

	/* the roofline: measured and datasheet, and how far apart */
	roofline_text(m, text, sizeof text, 1000);
	assert_non_null(strstr(text, "measured"));
	assert_non_null(strstr(text, "datasheet"));
	assert_non_null(strstr(text, "71%"));  /* 700 of 989.5 TFLOP/s */
	assert_non_null(strstr(text, "90%"));  /* 3 of 3.35 TB/s */
	assert_non_null(strstr(text, "700T")); /* the measured roof's label */

	/* the picker offers it, with its figures, and Enter on it selects it */
	assert_int_equal(tui_gpu_measured_count(m), 1);
	g = tui_gpu_measured(m, 0);
	assert_non_null(g);
	assert_null(tui_gpu_measured(m, 1));
	assert_int_equal(tui_model_set_knob(m, engine_knob_find("gpu"), "a100-80gb-sxm", 2000), NAPKIN_OK);
	assert_false(m->sc.gpu.measured);
	roofline_text(m, text, sizeof text, 2000);
	assert_null(strstr(text, "datasheet")); /* a datasheet GPU: no legend */
	tui_model_open_picker(m, engine_knob_find("gpu"));
	for (i = 0; i < m->n_pick; i++)
		if (strcmp(m->pick[i].id, "h100-sxm-measured") == 0) {
			found = true;
			assert_string_equal(m->pick[i].name, "H100 SXM (measured)");
			assert_non_null(strstr(m->pick[i].summary, "(measured)"));
			assert_non_null(strstr(m->pick[i].summary, "700 TFLOP/s bf16"));
		}
	assert_true(found);
	for (i = 0; "measured"[i]; i++)
		key(m, "measured"[i], 3000);
	assert_int_equal(m->n_match, 1);
	key(m, TUI_KEY_ENTER, 3000);
	assert_string_equal(m->sc.gpu.id, "h100-sxm-measured");
	assert_true(m->sc.gpu.measured);

	/* the id resolves when typed too (the knobs' catalog knows it), presets still do */
	assert_int_equal(tui_model_set_knob(m, engine_knob_find("gpu"), "h100-pcie", 4000), NAPKIN_OK);
	assert_int_equal(tui_model_set_knob(m, engine_knob_find("gpu"), "h100-sxm-measured", 4000), NAPKIN_OK);
	assert_true(m->sc.gpu.measured);
	assert_int_equal(tui_model_set_knob(m, engine_knob_find("model"), "llama-2-13b", 4000), NAPKIN_OK);
	assert_int_not_equal(tui_model_set_knob(m, engine_knob_find("gpu"), "no-such-gpu", 4000), NAPKIN_OK);
	assert_true(m->msg_error);

	/* probed again: replaced, not doubled */
	assert_int_equal(tui_gpu_accept(m, &r, 5000), 0);
	assert_int_equal(tui_gpu_measured_count(m), 1);
	free_model(m);
}

/* Without a registry (the built-in GPU only) the datasheet is the built-in H100. */
static void test_accept_no_registry(void **state)
{
	static struct probe_report r;
	struct tui_model *m = new_model(NULL);
	struct engine_gpu ds;

	(void)state;
	fakes();
	collect(&r);
	assert_int_equal(tui_gpu_accept(m, &r, 1000), 0);
	assert_string_equal(m->sc.gpu.id, "h100-sxm-measured");
	assert_true(tui_gpu_datasheet(m, &ds));
	assert_string_equal(ds.id, "h100-sxm");
	/* the built-ins still resolve through the wrapped catalog */
	assert_int_equal(tui_model_set_knob(m, engine_knob_find("gpu"), "h100-sxm", 2000), NAPKIN_OK);
	assert_false(m->sc.gpu.measured);
	assert_int_equal(tui_model_set_knob(m, engine_knob_find("model"), "llama-2-7b", 2000), NAPKIN_OK);
	assert_int_not_equal(tui_model_set_knob(m, engine_knob_find("gpu"), "a100-sxm-80gb", 2000), NAPKIN_OK);
	free_model(m);
}

/* cuBLAS missing: the rest is measured; the footer says matmul was skipped. */
static void test_accept_partial(void **state)
{
	static struct probe_report r;
	struct tui_model *m = new_model(reg);

	(void)state;
	fakes();
	setenv("NAPKIN_LIBCUBLASLT", "/nonexistent/libcublasLt.so.12", 1);
	setenv("NAPKIN_LIBCUBLAS", "/nonexistent/libcublas.so.12", 1);
	collect(&r);
	fakes();
	assert_int_equal(r.status, PROBE_OK);
	assert_int_equal(tui_gpu_accept(m, &r, 1000), 0);
	assert_true(m->sc.gpu.measured);
	assert_close(m->sc.gpu.bandwidth, FAKE_D2D_BW, 1e-6);
	assert_close(m->sc.gpu.peak[ENGINE_DT_BF16], 989.5e12, 1e-3); /* the datasheet's, kept */
	assert_false(m->msg_error);
	assert_non_null(strstr(m->msg, "cuBLAS missing: matmul skipped; M: notes"));
	/* and the live panel shows the probe's notes */
	assert_int_equal(tui_view_push(m, TUI_VIEW_GPULIVE), 0);
	assert_true(screen_has(m, "the last probe:", 1000));
	assert_true(screen_has(m, "note: cuBLAS missing", 1000));
	free_model(m);
}

/* ---------------------------------------------------------------- failures, in words */

static void expect_failure(struct tui_model *m, const struct probe_report *r, const char *title, const char *words)
{
	assert_int_equal(tui_gpu_accept(m, r, 1000), -1);
	assert_int_equal(tui_view_top(m), TUI_VIEW_PROBE);
	assert_true(m->msg_error);
	assert_false(m->sc.gpu.measured);
	assert_true(screen_has(m, title, 1000));
	assert_true(screen_has(m, words, 1000));
	assert_true(screen_has(m, "G probes again", 1000));
	key(m, TUI_KEY_ESC, 1000);
	assert_int_equal(tui_view_top(m), TUI_VIEW_MAIN);
	assert_int_equal(tui_model_timeout(m, 1000 + TUI_HL_MS + 1), -1); /* nothing left running */
}

static void test_failures(void **state)
{
	static struct probe_report r;
	struct tui_model *m = new_model(reg);
	char text[4096];

	(void)state;
	/* no driver: the loader's own words */
	fakes();
	setenv("NAPKIN_LIBCUDA", "/nonexistent/libcuda.so.1", 1);
	setenv("NAPKIN_LIBNVML", "/nonexistent/libnvidia-ml.so.1", 1);
	collect(&r);
	assert_int_equal(r.status, PROBE_NO_DRIVER);
	assert_string_equal(tui_gpu_failure_title(&r), "GPU probe: no NVIDIA driver");
	tui_gpu_explain(&r, text, sizeof text);
	assert_non_null(strstr(text, "no NVIDIA driver: /nonexistent/libcuda.so.1 cannot be loaded"));
	assert_non_null(strstr(text, "cannot open shared object file"));
	assert_non_null(strstr(text, "note: NVML missing"));
	assert_non_null(strstr(text, "g picks one"));
	expect_failure(m, &r, "GPU probe: no NVIDIA driver", "no NVIDIA driver: /nonexistent/libcuda.so.1");
	assert_non_null(strstr(m->msg, "cannot open shared object file"));

	/* a driver but no device */
	fakes();
	setenv("FAKE_CUDA_DEVICES", "0", 1);
	collect(&r);
	fakes();
	assert_int_equal(r.status, PROBE_NO_DEVICE);
	expect_failure(m, &r, "GPU probe: no GPU device", "sees no GPU");
	tui_gpu_explain(&r, text, sizeof text);
	assert_non_null(strstr(text, "CUDA_VISIBLE_DEVICES"));

	/* the driver fails: what NVML still sees is listed */
	setenv("FAKE_CUDA_INIT_ERROR", "999", 1);
	collect(&r);
	fakes();
	assert_int_equal(r.status, PROBE_DRIVER_ERROR);
	tui_gpu_explain(&r, text, sizeof text);
	assert_non_null(strstr(text, "cuInit returned 999"));
	assert_non_null(strstr(text, "NVML sees: NVIDIA H100 80GB HBM3"));
	expect_failure(m, &r, "GPU probe: the driver cannot run", "cuInit returned 999");

	/* a timeout and a crash, as the job reports them */
	memset(&r, 0, sizeof r);
	r.selected = -1;
	r.status = PROBE_TIMEOUT;
	snprintf(r.message, sizeof r.message, "the probe did not finish within 2 s while initialising the CUDA driver and was stopped");
	expect_failure(m, &r, "GPU probe: timed out", "did not finish within 2 s");
	tui_gpu_explain(&r, text, sizeof text);
	assert_non_null(strstr(text, "--probe-timeout"));
	r.status = PROBE_CRASHED;
	snprintf(r.message, sizeof r.message, "the probe process died of signal 11 (Segmentation fault)");
	expect_failure(m, &r, "GPU probe: the driver crashed", "died of signal 11");
	free_model(m);
}

/* ---------------------------------------------------------------- G: the probe in a child */

static void test_probe_job(void **state)
{
	struct tui_model *m = new_model(reg);
	unsigned fl;
	int ticks;

	(void)state;
	fakes();
	assert_int_equal(tui_model_timeout(m, wall_ms()), -1); /* idle: block */
	fl = key(m, 'G', wall_ms());
	assert_true(fl & TUI_REACT_REDRAW);
	assert_true(tui_gpu_probing(m));
	assert_int_equal(tui_view_top(m), TUI_VIEW_PROBE);
	assert_true(tui_model_timeout(m, wall_ms()) <= TUI_GPU_PROBE_POLL_MS);
	assert_true(screen_has(m, "Probing the GPU in this machine", wall_ms()));
	assert_true(screen_has(m, "Esc cancels", wall_ms()));
	key(m, 'x', wall_ms()); /* other keys wait */
	assert_true(tui_gpu_probing(m));
	key(m, 'G', wall_ms()); /* G again: the same probe */
	assert_int_equal(m->n_views, 2);
	ticks = run_until(m, probe_over, 60);
	assert_true(ticks >= 1);
	assert_int_equal(tui_view_top(m), TUI_VIEW_MAIN);
	assert_true(m->sc.gpu.measured);
	assert_string_equal(m->sc.gpu.id, "h100-sxm-measured");
	assert_close(m->sc.gpu.bandwidth, FAKE_D2D_BW, 1e-6);
	assert_non_null(strstr(m->msg, "h100-sxm-measured selected"));
	assert_true(idle(m)); /* idle again */

	/* Esc cancels a probe that hangs */
	setenv("FAKE_CUDA_HANG", "cuInit", 1);
	key(m, 'G', wall_ms());
	assert_true(tui_gpu_probing(m));
	key(m, TUI_KEY_ESC, wall_ms());
	assert_false(tui_gpu_probing(m));
	assert_int_equal(tui_view_top(m), TUI_VIEW_MAIN);
	assert_non_null(strstr(m->msg, "cancelled"));
	assert_true(idle(m));

	/* a hang is stopped at the deadline, and said so */
	m->probe_timeout = 1;
	key(m, 'G', wall_ms());
	run_until(m, probe_over, 20);
	assert_int_equal(tui_view_top(m), TUI_VIEW_PROBE);
	assert_true(screen_has(m, "GPU probe: timed out", wall_ms()));
	assert_true(screen_has(m, "did not finish within 1 s while initialising the CUDA driver", wall_ms()));
	assert_true(m->sc.gpu.measured); /* the measured GPU of before is kept */
	/* and the explorer still answers */
	key(m, TUI_KEY_ESC, wall_ms());
	assert_int_equal(tui_view_top(m), TUI_VIEW_MAIN);
	key(m, 't', wall_ms());
	assert_int_equal(m->sc.mode, ENGINE_MODE_INFER);

	/* a crash */
	unsetenv("FAKE_CUDA_HANG");
	setenv("FAKE_CUDA_CRASH", "cuInit", 1);
	key(m, 'G', wall_ms());
	run_until(m, probe_over, 20);
	assert_true(screen_has(m, "GPU probe: the driver crashed", wall_ms()));
	assert_true(screen_has(m, "died of signal", wall_ms()));
	/* G from the failure probes again; quitting with a probe running cancels it */
	setenv("FAKE_CUDA_HANG", "cuInit", 1);
	unsetenv("FAKE_CUDA_CRASH");
	key(m, 'G', wall_ms());
	assert_true(tui_gpu_probing(m));
	free_model(m); /* cancels: no child left behind (the sanitizer's leak check, too) */
	fakes();
}

/* ---------------------------------------------------------------- the live panel */

static bool sampled(struct tui_model *m)
{
	return screen_has(m, "sample 2 at", wall_ms());
}

static void test_live(void **state)
{
	struct tui_model *m = new_model(reg);
	int ticks, to;

	(void)state;
	fakes();
	assert_int_equal(tui_model_timeout(m, wall_ms()), -1);
	key(m, 'M', wall_ms());
	assert_int_equal(tui_view_top(m), TUI_VIEW_GPULIVE);
	to = tui_model_timeout(m, wall_ms());
	assert_true(to >= 0 && to <= 100);
	ticks = run_until(m, sampled, 10);
	/* about one wake-up a sample: the first comes at once, the second a second later */
	assert_true(ticks <= 12);
	to = tui_model_timeout(m, wall_ms());
	assert_true(to >= 0 && to <= 1000);
	assert_true(screen_has(m, "GPU live: NVML device 0", wall_ms()));
	assert_true(screen_has(m, "used 1.00 GiB", wall_ms()));
	assert_true(screen_has(m, "reserved by the driver 512.0 MiB", wall_ms()));
	assert_true(screen_has(m, "predicts 62.03 GiB per GPU", wall_ms()));
	assert_true(screen_has(m, "used is below predicted: -61.03 GiB", wall_ms()));
	assert_true(screen_has(m, "of 700 W (limit)", wall_ms()));
	assert_true(screen_has(m, "SM ", wall_ms()));
	assert_true(screen_has(m, "\xc2\xb0" "C", wall_ms()));
	assert_true(screen_has(m, "history", wall_ms()));
	/* closing stops the sampler: idle again */
	key(m, TUI_KEY_ESC, wall_ms());
	assert_int_equal(tui_view_top(m), TUI_VIEW_MAIN);
	assert_true(idle(m));

	/* no NVML: the reason, and no more wake-ups once it is known */
	setenv("NAPKIN_LIBNVML", "/nonexistent/libnvidia-ml.so.1", 1);
	key(m, 'M', wall_ms());
	{
		uint64_t end = wall_ms() + 10000;
		while (!idle(m) && wall_ms() < end) {
			struct timespec ts = {0, 20 * 1000000L};
			nanosleep(&ts, NULL);
			tui_model_tick(m, wall_ms());
		}
	}
	assert_true(idle(m));
	assert_true(screen_has(m, "no live figures: NVML missing", wall_ms()));
	assert_true(screen_has(m, "napkin", wall_ms()));
	assert_true(screen_has(m, "predicts 62.03 GiB per GPU", wall_ms()));
	/* r tries again (still missing) */
	key(m, 'r', wall_ms());
	assert_true(tui_model_timeout(m, wall_ms()) >= 0);
	key(m, 'M', wall_ms());
	assert_int_equal(tui_view_top(m), TUI_VIEW_MAIN);
	assert_true(idle(m));
	fakes();
	free_model(m);
}

/* A sample fed by hand: every figure drawn, a prediction over capacity marked, every size. */
static void test_live_draw(void **state)
{
	static const int sizes[][2] = {{80, 24}, {100, 30}, {120, 40}, {200, 60}, {300, 100}};
	struct tui_model *m = new_model(reg);
	struct probe_sample s;
	size_t i;
	int k;

	(void)state;
	fakes();
	setenv("NAPKIN_LIBNVML", "/nonexistent/libnvidia-ml.so.1", 1);
	assert_int_equal(tui_view_push(m, TUI_VIEW_GPULIVE), 0);
	memset(&s, 0, sizeof s);
	s.valid = 1u << PROBE_S_MEM | 1u << PROBE_S_UTIL | 1u << PROBE_S_CLOCKS | 1u << PROBE_S_POWER |
		  1u << PROBE_S_POWER_LIMIT | 1u << PROBE_S_TEMP;
	s.time = 3;
	s.mem_total = 80e9;
	s.mem_used = 68e9;
	s.mem_reserved = 0.5e9;
	s.gpu_util = 97;
	s.mem_util = 40;
	s.sm_clock = 1980e6;
	s.mem_clock = 2619e6;
	s.power = 650;
	s.power_limit = 700;
	s.temperature = 71;
	for (k = 0; k < TUI_GPU_HISTORY + 5; k++)
		tui_gpu_live_feed(m, &s, 1000);
	assert_true(screen_has(m, "used 63.33 GiB", 1000));
	assert_true(screen_has(m, "used exceeds predicted: +1.30 GiB", 1000));
	assert_true(screen_has(m, "GPU  97%", 1000));
	assert_true(screen_has(m, "memory  40%", 1000));
	assert_true(screen_has(m, "SM 1980 MHz \xc2\xb7 memory 2619 MHz", 1000));
	assert_true(screen_has(m, "650 W of 700 W (limit)", 1000));
	assert_true(screen_has(m, "71 \xc2\xb0" "C", 1000));
	assert_true(screen_has(m, "\xe2\x96\x88\xe2\x96\x88", 1000)); /* the sparkline's tops */
	/* a prediction bigger than the card */
	tui_model_set_knob(m, engine_knob_find("batch"), "64", 1000);
	assert_true(m->res.memory.total > 80e9);
	assert_true(screen_has(m, "used is below predicted", 1000));
	for (i = 0; i < sizeof sizes / sizeof sizes[0]; i++) {
		tui_model_set_size(m, sizes[i][0], sizes[i][1]);
		assert_true(screen_has(m, "GPU live", 1000));
	}
	/* the probe overlay at every size too, running and failed */
	tui_view_pop(m);
	for (i = 0; i < sizeof sizes / sizeof sizes[0]; i++) {
		static struct probe_report r;
		tui_model_set_size(m, sizes[i][0], sizes[i][1]);
		memset(&r, 0, sizeof r);
		r.selected = -1;
		r.status = PROBE_NO_DRIVER;
		snprintf(r.message, sizeof r.message,
			 "no NVIDIA driver: /a/very/long/path/that/does/not/break/at/spaces/anywhere/libcuda.so.1 cannot be "
			 "loaded (/a/very/long/path/that/does/not/break/at/spaces/anywhere/libcuda.so.1: cannot open shared "
			 "object file: No such file or directory)");
		tui_gpu_accept(m, &r, 1000);
		assert_true(screen_has(m, "GPU probe: no NVIDIA driver", 1000));
		assert_true(screen_has(m, "no NVIDIA driver: /a/very", 1000));
		tui_view_pop(m);
	}
	fakes();
	free_model(m);
}

static const struct CMUnitTest tests[] = {
	cmocka_unit_test(test_find_datasheet),   cmocka_unit_test(test_accept), cmocka_unit_test(test_accept_no_registry),
	cmocka_unit_test(test_accept_partial),   cmocka_unit_test(test_failures), cmocka_unit_test(test_probe_job),
	cmocka_unit_test(test_live),             cmocka_unit_test(test_live_draw),
};

static int run(int argc, char **argv)
{
	int rc;

	if (setup(NULL) != 0)
		return 1;
	rc = testutil_run(argc, argv, "tui_probe", tests, sizeof tests / sizeof tests[0]);
	teardown(NULL);
	return rc;
}

int main(int argc, char **argv)
{
	return run(argc, argv);
}
