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
		struct ctx d;
		static const char *const kv[][2] = {{"gpus", "64"}, {"tp", "8"}, {"pp", "2"}, {"vpp", "2"},
						     {"recompute", "full"}, {"mfu", "auto"}};
		size_t i;
		memset(&d, 0, sizeof d);
		engine_scenario_default(&d.sc);
		for (i = 0; i < sizeof kv / sizeof kv[0]; i++)
			if (engine_knob_set(&d.sc, engine_knob_find(kv[i][0]), kv[i][1], NULL, &err) != 0) {
				fprintf(stderr, "bench_engine: %s\n", err.msg);
				return 1;
			}
		row("full recompute, step model, tp8 pp2 vpp2", b_compute, &d, 2e-6);
	}
	row("solve: largest micro-batch", b_max_batch, &c, 50e-6);
	row("solve: fewest GPUs", b_min_gpus, &c, 50e-6);
	row("solve: largest model", b_max_params, &c, 50e-6);
	row("techniques table (20 variants)", b_techniques, &c, 50e-6);
	row("everything (engine_evaluate)", b_evaluate, &c, 200e-6);
	row("64 x 64 sweep of batch x sequence", b_sweep, &c, 5e-3);
	printf("  (sink %g)\n", (double)c.sink > 0 ? 1.0 : 0.0);
	return 0;
}
