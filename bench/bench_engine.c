/*
 * bench_engine: how fast the engine is, in figures (printed, not asserted: these machines
 * are shared and noisy; compare ratios within one run).
 *
 * Each figure is the median over many batches of the time per call, with its aim beside
 * it, and the heap allocations the calls made (malloc, calloc and realloc are wrapped at
 * link time, so any allocation on the compute path shows).
 */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "engine.h"
#include "tradeoff.h"

/* --------------------------------------------------------------- allocation counter */
static unsigned long n_alloc;
void *__real_malloc(size_t n);
void *__real_calloc(size_t a, size_t b);
void *__real_realloc(void *p, size_t n);
void *__wrap_malloc(size_t n);
void *__wrap_calloc(size_t a, size_t b);
void *__wrap_realloc(void *p, size_t n);
void *__wrap_malloc(size_t n)
{
	n_alloc++;
	return __real_malloc(n);
}
void *__wrap_calloc(size_t a, size_t b)
{
	n_alloc++;
	return __real_calloc(a, b);
}
void *__wrap_realloc(void *p, size_t n)
{
	n_alloc++;
	return __real_realloc(p, n);
}

/* --------------------------------------------------------------- timing */
static double now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static int cmp(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return x < y ? -1 : x > y;
}

#define BATCHES 41

struct ctx {
	struct engine_scenario sc;
	struct engine_result r;
	volatile double sink;
};

typedef void (*bench_fn)(struct ctx *c);

static void b_compute(struct ctx *c)
{
	struct napkin_err err;
	engine_compute(&c->sc, &c->r, &err);
	c->sink += c->r.memory.total;
}
static void b_evaluate(struct ctx *c)
{
	struct napkin_err err;
	engine_evaluate(&c->sc, &c->r, &err);
	c->sink += c->r.memory.total;
}
static void b_max_batch(struct ctx *c)
{
	c->sink += (double)engine_solve_max_batch(&c->sc);
}
static void b_min_gpus(struct ctx *c)
{
	int64_t tp, pp, dp;
	c->sink += (double)engine_solve_min_gpus(&c->sc, &tp, &pp, &dp);
}
static void b_max_params(struct ctx *c)
{
	c->sink += engine_solve_max_params(&c->sc);
}
static void b_techniques(struct ctx *c)
{
	engine_techniques(&c->sc, &c->r);
	c->sink += c->r.techniques[0].delta_memory_bytes;
}
static void b_sweep(struct ctx *c)
{
	struct engine_scenario t = c->sc;
	struct napkin_err err;
	int i, j;
	for (i = 0; i < 64; i++)
		for (j = 0; j < 64; j++) {
			t.batch = 1 + i;
			t.seq = 128 * (1 + j);
			engine_compute(&t, &c->r, &err);
			c->sink += c->r.memory.total;
		}
}

/* the explorer's sweep view: 64 points along batch, three results (engine_sweep_run) */
static double sw_x[4096], sw_y[4096], sw_v[4096 * 3];
static int sw_rc[4096];
static struct engine_sweep sweep1, sweep2;
static struct engine_metric sw_m[3];
static void b_sweep64(struct ctx *c)
{
	struct napkin_err err;
	c->sink += (double)engine_sweep_run(&c->sc, &sweep1, sw_x, sw_y, sw_v, sw_rc, 4096, &err);
}
static void b_grid64(struct ctx *c)
{
	struct napkin_err err;
	c->sink += (double)engine_sweep_run(&c->sc, &sweep2, sw_x, sw_y, sw_v, sw_rc, 4096, &err);
}
static int setup_sweeps(const struct engine_scenario *sc)
{
	static const char *const keys[] = {"memory.total", "memory.fits", "compute.step_seconds"};
	struct napkin_err err;
	int i;

	for (i = 0; i < 3; i++)
		if (engine_metric_find(keys[i], &sw_m[i], &err) != 0)
			return -1;
	sweep1.nrange = 1;
	sweep1.metrics = sw_m;
	sweep1.nmetrics = 3;
	if (engine_range_parse(sc, "batch=1..64:+1", &sweep1.range[0], &err) != 0)
		return -1;
	sweep2 = sweep1;
	sweep2.nrange = 2;
	if (engine_range_parse(sc, "seq=128..8192:+128", &sweep2.range[1], &err) != 0)
		return -1;
	return 0;
}

/* the planner: candidates per second over one search (median of a few) */
static void plan_row(const char *what, const char *const (*kv)[2], size_t n, enum engine_goal goal, double deadline)
{
	struct engine_scenario sc;
	struct engine_plan_row rows[10];
	struct engine_plan_opts po;
	struct engine_plan_stats st;
	struct napkin_err err;
	double t[9], start;
	size_t i;
	int b;
	unsigned long a0 = n_alloc;
	char a[32];

	engine_scenario_default(&sc);
	for (i = 0; i < n; i++)
		if (engine_knob_set(&sc, engine_knob_find(kv[i][0]), kv[i][1], NULL, &err) != 0) {
			fprintf(stderr, "bench_engine: %s\n", err.msg);
			return;
		}
	memset(&po, 0, sizeof po);
	po.goal = goal;
	po.top = 10;
	po.deadline_days = deadline;
	po.memory_margin = ENGINE_PLAN_MARGIN; /* napkin plan's default */
	for (b = 0; b < 9; b++) {
		start = now();
		if (engine_plan(&sc, &po, rows, &st, &err) != 0) {
			fprintf(stderr, "bench_engine: %s\n", err.msg);
			return;
		}
		t[b] = now() - start;
	}
	qsort(t, 9, sizeof t[0], cmp);
	engine_fmt_seconds(t[4], a, sizeof a);
	/* the aim: 1e5 layouts in under 100 ms, 1e6 layouts a second */
	printf("  %-40s %10s   %llu layouts searched (%llu fit), %.2f M layouts/s; aim >= 1e6/s (1e5 in < 100 ms): %s, "
	       "allocations %lu\n",
	       what, a, (unsigned long long)st.searched, (unsigned long long)st.fitting,
	       (double)st.searched / t[4] / 1e6,
	       (double)st.searched / t[4] >= 1e6 ? "ok" : "OVER", n_alloc - a0);
}

static double median_seconds(bench_fn fn, struct ctx *c, unsigned long *allocs)
{
	double t[BATCHES], start, el;
	long reps = 1;
	int b;
	unsigned long a0;

	/* size a batch to ~5 ms */
	for (;;) {
		long i;
		start = now();
		for (i = 0; i < reps; i++)
			fn(c);
		el = now() - start;
		if (el > 5e-3 || reps > (1L << 24))
			break;
		reps *= 2;
	}
	a0 = n_alloc;
	for (b = 0; b < BATCHES; b++) {
		long i;
		start = now();
		for (i = 0; i < reps; i++)
			fn(c);
		t[b] = (now() - start) / (double)reps;
	}
	*allocs = n_alloc - a0;
	qsort(t, BATCHES, sizeof t[0], cmp);
	return t[BATCHES / 2];
}

/* printf pads by bytes; pad by characters (µ is two bytes) */
static int extra(const char *s)
{
	int n = 0;
	for (; *s; s++)
		n += ((unsigned char)*s & 0xC0) == 0x80;
	return n;
}

static void row(const char *what, bench_fn fn, struct ctx *c, double aim)
{
	unsigned long allocs;
	double s = median_seconds(fn, c, &allocs);
	char a[32], b[32];

	engine_fmt_seconds(s, a, sizeof a);
	engine_fmt_seconds(aim, b, sizeof b);
	printf("  %-40s %*s   aim < %-*s %-4s allocations %lu\n", what, 10 + extra(a), a, 9 + extra(b), b,
	       s < aim ? "ok" : "OVER", allocs);
}

/* The default scenario with n knobs set over it (key, value); 0, or -1 with the error said. */
static int scenario_of(struct ctx *d, const char *const kv[][2], size_t n)
{
	struct napkin_err err;
	size_t i;

	memset(d, 0, sizeof *d);
	engine_scenario_default(&d->sc);
	util_err_clear(&err);
	for (i = 0; i < n; i++)
		if (engine_knob_set(&d->sc, engine_knob_find(kv[i][0]), kv[i][1], NULL, &err) != 0) {
			fprintf(stderr, "bench_engine: %s\n", err.msg);
			return -1;
		}
	return 0;
}

int main(void)
{
	struct ctx c;
	struct napkin_err err;
	char s[256];

	memset(&c, 0, sizeof c);
	engine_scenario_default(&c.sc);
	if (engine_evaluate(&c.sc, &c.r, &err) != 0) {
		fprintf(stderr, "bench_engine: %s\n", err.msg);
		return 1;
	}
	engine_scenario_summary(&c.sc, s, sizeof s);
	printf("napkin engine benchmark (median of %d batches; %s)\n", BATCHES, s);
	row("full recompute (engine_compute)", b_compute, &c, 1e-6);
	{
		/* the step-time model on a 3D layout: 64 GPUs, tp 8, pp 2, vpp 2, ZeRO-1, full recompute */
		static const char *const kv[][2] = {{"gpus", "64"}, {"tp", "8"}, {"pp", "2"}, {"vpp", "2"},
						     {"recompute", "full"}, {"mfu", "auto"}};
		struct ctx d;
		if (scenario_of(&d, kv, sizeof kv / sizeof kv[0]) != 0)
			return 1;
		row("full recompute, step model, tp8 pp2 vpp2", b_compute, &d, 2e-6);
	}
	row("solve: largest micro-batch", b_max_batch, &c, 50e-6);
	row("solve: fewest GPUs", b_min_gpus, &c, 50e-6);
	row("solve: largest model", b_max_params, &c, 50e-6);
	row("techniques table (20 variants)", b_techniques, &c, 50e-6);
	row("everything (engine_evaluate)", b_evaluate, &c, 200e-6);
	{
		/* serving at an open load (serve_open.c): the birth–death sum over the steady state,
		 * once for the scenario and once for each technique's variant */
		static const char *const kv[][2] = {{"mode", "infer"}, {"engine", "vllm"}, {"rate", "20"}};
		struct ctx d;
		if (scenario_of(&d, kv, sizeof kv / sizeof kv[0]) != 0)
			return 1;
		row("everything, vLLM at 20 requests/s open", b_evaluate, &d, 200e-6);
	}
	{
		/* an SLA on the p99s (serve_batch.c sla_open): an open solve at each of 17 rates */
		static const char *const kv[][2] = {{"mode", "infer"},	 {"engine", "vllm"},   {"ttft_slo", "2"},
						    {"tpot_slo", "0.2"}, {"slo_percentile", "p99"}};
		struct ctx d;
		if (scenario_of(&d, kv, sizeof kv / sizeof kv[0]) != 0)
			return 1;
		row("everything, vLLM, SLA on p99s (open)", b_evaluate, &d, 10e-3);
	}
	{
		/* the same two with the prompts' lengths spread (prompt_cv, serve_pct.c): each state's
		 * TTFT a mixture over the lengths' points, OpenOrca's CV */
		static const char *const kv[][2] = {{"mode", "infer"}, {"engine", "vllm"}, {"rate", "20"}, {"prompt_cv", "0.77"}};
		static const char *const ks[][2] = {{"mode", "infer"},	   {"engine", "vllm"},	     {"ttft_slo", "2"},
						    {"tpot_slo", "0.2"},   {"slo_percentile", "p99"}, {"prompt_cv", "0.77"}};
		struct ctx d;
		if (scenario_of(&d, kv, sizeof kv / sizeof kv[0]) != 0)
			return 1;
		row("everything, vLLM 20 req/s, prompt_cv 0.77", b_evaluate, &d, 200e-6);
		if (scenario_of(&d, ks, sizeof ks / sizeof ks[0]) != 0)
			return 1;
		row("everything, SLA on p99s, prompt_cv 0.77", b_evaluate, &d, 10e-3);
	}
	row("64 x 64 sweep of batch x sequence", b_sweep, &c, 5e-3);
	if (setup_sweeps(&c.sc) != 0) {
		fprintf(stderr, "bench_engine: the sweeps do not parse\n");
		return 1;
	}
	row("sweep: 64 points along batch (3 results)", b_sweep64, &c, 2e-3);
	row("heatmap: 64 x 64, batch x seq (3 results)", b_grid64, &c, 10e-3);
	{
		static const char *const l70[][2] = {{"layers", "80"}, {"hidden", "8192"}, {"heads", "64"}, {"kv_heads", "8"},
						     {"ffn", "28672"}, {"gpus", "1024"}};
		static const char *const l7[][2] = {{"gpus", "64"}};
		static const char *const l70m[][2] = {{"layers", "80"}, {"hidden", "8192"}, {"heads", "64"}, {"kv_heads", "8"},
						      {"ffn", "28672"}, {"stack", "megatron"}};
		plan_row("plan: Llama-2-70B layout on 1024 GPUs", l70, 6, ENGINE_GOAL_TIME, 0);
		plan_row("plan: Llama-2-70B, GPU counts 1..2^20", l70, 6, ENGINE_GOAL_GPU_HOURS, 0);
		plan_row("plan: Llama-2-7B, GPU counts 1..2^20", l7, 1, ENGINE_GOAL_GPU_HOURS, 0);
		/* the Done-when: napkin plan --model llama-2-70b --goal gpus --deadline 90 */
		plan_row("plan: 70B, goal gpus, deadline 90", l70, 5, ENGINE_GOAL_GPUS, 90);
		plan_row("plan: 70B, gpus, deadline 90, megatron", l70m, 6, ENGINE_GOAL_GPUS, 90);
	}
	printf("  (sink %g)\n", (double)c.sink > 0 ? 1.0 : 0.0);
	return 0;
}
