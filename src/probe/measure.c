/*
 * The measurements: device-to-device copy bandwidth, host-to-device bandwidth (pinned and
 * pageable), matmul throughput per dtype. Each is timed in batches between two device
 * events on the default stream, a batch sized to take a few tens of milliseconds;
 * the result is the median batch. Buffers hold random values, never zeros. Every
 * measurement has a share of the time budget and stops when it is spent.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"

#define MIB (1024.0 * 1024.0)
#define STAGING_BYTES (16u << 20)
#define WORKSPACE_BYTES (32u << 20)
#define MAX_RUNS 15

struct bench {
	struct probe_cuda *cu;
	cu_event e0, e1;
	unsigned char *staging;  /* page-locked (or malloc'ed) random data for fills */
	bool staging_pinned;
	uint64_t rng;
	const struct engine_tr *tr; /* the language of its notes (probe_options.tr) */
	char err[PROBE_MSG_MAX];
};

typedef bool (*op_fn)(struct bench *b, void *arg);

static bool cu_ok(struct bench *b, cu_result e, const char *what)
{
	char why[200];

	if (e == CU_SUCCESS)
		return true;
	probe_cuda_describe(b->cu, e, why, sizeof why);
	/* TRANSLATORS: a driver function (cuMemAlloc) and its error ("2 (CUDA_ERROR_OUT_OF_MEMORY: ...)") */
	probe_msg(b->err, sizeof b->err, probe_tr(b->tr, N_("%s failed: %s")), what, why);
	return false;
}

/* Fills bytes of device memory at p with random values of type dt. */
static bool fill_device(struct bench *b, cu_ptr p, size_t bytes, enum engine_dtype dt)
{
	size_t off, chunk = bytes < STAGING_BYTES ? bytes : STAGING_BYTES;

	probe_fill_random(b->staging, chunk, dt, &b->rng);
	for (off = 0; off < bytes; off += chunk) {
		size_t len = bytes - off < chunk ? bytes - off : chunk;
		if (!cu_ok(b, b->cu->MemcpyHtoD(p + off, b->staging, len), "cuMemcpyHtoD"))
			return false;
	}
	return true;
}

/* One batch of reps operations, timed by events on the default stream (a synchronous
 * pageable copy included: the second event completes when its DMA does). */
static bool time_batch(struct bench *b, op_fn op, void *arg, int reps, double *secs)
{
	struct probe_cuda *cu = b->cu;
	float ms = 0.0f;
	int i;

	if (!cu_ok(b, cu->EventRecord(b->e0, NULL), "cuEventRecord"))
		return false;
	for (i = 0; i < reps; i++)
		if (!op(b, arg))
			return false;
	if (!cu_ok(b, cu->EventRecord(b->e1, NULL), "cuEventRecord") ||
	    !cu_ok(b, cu->EventSynchronize(b->e1), "cuEventSynchronize") ||
	    !cu_ok(b, cu->EventElapsedTime(&ms, b->e0, b->e1), "cuEventElapsedTime"))
		return false;
	*secs = ms * 1e-3;
	return true;
}

/* Warms up, sizes a batch to about batch_s, then times at least three batches and up to
 * `runs` until the deadline. work: bytes or FLOPs per operation. */
static bool measure(struct bench *b, op_fn op, void *arg, double work, int runs, double batch_s, double deadline,
		    struct probe_rate *out)
{
	double rates[MAX_RUNS], per_op = 0.0, secs = 0.0;
	int reps, i;

	if (!time_batch(b, op, arg, 1, &per_op)) /* warm-up: first touch, algorithm choice */
		return false;
	if (!time_batch(b, op, arg, 1, &per_op))
		return false;
	if (per_op <= 0.0)
		per_op = 1e-9;
	reps = (int)(batch_s / per_op);
	reps = reps < 1 ? 1 : reps > 1000 ? 1000 : reps;
	if (runs > MAX_RUNS)
		runs = MAX_RUNS;
	for (i = 0; i < runs; i++) {
		if (i >= 3 && probe_now() + per_op * reps > deadline)
			break;
		if (!time_batch(b, op, arg, reps, &secs))
			return false;
		rates[i] = work * reps / (secs > 0.0 ? secs : 1e-12);
	}
	out->runs = i;
	out->reps = reps;
	out->min = out->max = rates[0];
	for (i = 1; i < out->runs; i++) {
		out->min = rates[i] < out->min ? rates[i] : out->min;
		out->max = rates[i] > out->max ? rates[i] : out->max;
	}
	out->value = probe_median(rates, out->runs);
	out->state = PROBE_M_OK;
	return true;
}

static void failed(struct probe_rate *rt, const char *why)
{
	rt->state = PROBE_M_FAILED;
	util_strlcpy(rt->note, why, sizeof rt->note);
}

static void skipped(struct probe_rate *rt, const char *why)
{
	rt->state = PROBE_M_SKIPPED;
	util_strlcpy(rt->note, why, sizeof rt->note);
}

/* ---------------------------------------------------------------- copies */

struct copy_args {
	cu_ptr dst, src;
	const void *host;
	size_t bytes;
};

static bool op_d2d(struct bench *b, void *arg)
{
	struct copy_args *a = arg;

	return cu_ok(b, b->cu->MemcpyDtoDAsync(a->dst, a->src, a->bytes, NULL), "cuMemcpyDtoDAsync");
}

static bool op_h2d_async(struct bench *b, void *arg)
{
	struct copy_args *a = arg;

	return cu_ok(b, b->cu->MemcpyHtoDAsync(a->dst, a->host, a->bytes, NULL), "cuMemcpyHtoDAsync");
}

static bool op_h2d_sync(struct bench *b, void *arg)
{
	struct copy_args *a = arg;

	return cu_ok(b, b->cu->MemcpyHtoD(a->dst, a->host, a->bytes), "cuMemcpyHtoD");
}

static size_t round_mib(double bytes)
{
	size_t mib = (size_t)(bytes / MIB);

	return (mib < 1 ? 1 : mib) * (size_t)MIB;
}

static void measure_d2d(struct probe_ctx *c, struct bench *b, double free_b, double share)
{
	struct probe_rate *rt = &c->r->m.d2d;
	struct copy_args a = {0, 0, NULL, 0};
	char what[64];

	a.bytes = c->o->copy_bytes > 0 ? (size_t)c->o->copy_bytes : round_mib(free_b / 4 < 1024 * MIB ? free_b / 4 : 1024 * MIB);
	rt->bytes = (double)a.bytes;
	if (free_b < 8 * MIB) {
		skipped(rt, probe_tr(b->tr, N_("less than 8 MiB of device memory is free")));
		return;
	}
	if (!cu_ok(b, b->cu->MemAlloc(&a.src, a.bytes), "cuMemAlloc") ||
	    !cu_ok(b, b->cu->MemAlloc(&a.dst, a.bytes), "cuMemAlloc"))
		goto fail;
	engine_fmt_bytes((double)a.bytes, true, what, sizeof what);
	probe_progress(c, 0.20, probe_tr(b->tr, N_("device-to-device copies of %s")), what);
	if (!fill_device(b, a.src, a.bytes, ENGINE_DT_FP32))
		goto fail;
	if (!measure(b, op_d2d, &a, 2.0 * (double)a.bytes, 9, 0.03, probe_now() + share, rt))
		goto fail;
	/* TRANSLATORS: the buffer's size, the batches timed and the copies in each */
	probe_msg(rt->note, sizeof rt->note,
		  probe_tr(b->tr, N_("cuMemcpyDtoDAsync of %s, bytes read + written, median of %d batches of %d")), what,
		  rt->runs, rt->reps);
	goto out;
fail:
	failed(rt, b->err);
out:
	if (a.dst)
		b->cu->MemFree(a.dst);
	if (a.src)
		b->cu->MemFree(a.src);
}

static void measure_h2d(struct probe_ctx *c, struct bench *b, double free_b, double share)
{
	struct probe_rate *pin = &c->r->m.h2d_pinned, *page = &c->r->m.h2d_pageable;
	struct copy_args a = {0, 0, NULL, 0};
	void *pinned = NULL, *pageable = NULL;
	char what[64];

	a.bytes = c->o->h2d_bytes > 0 ? (size_t)c->o->h2d_bytes : round_mib(free_b / 4 < 256 * MIB ? free_b / 4 : 256 * MIB);
	pin->bytes = page->bytes = (double)a.bytes;
	engine_fmt_bytes((double)a.bytes, true, what, sizeof what);
	if (free_b < 8 * MIB) {
		skipped(pin, probe_tr(b->tr, N_("less than 8 MiB of device memory is free")));
		skipped(page, pin->note);
		return;
	}
	if (!cu_ok(b, b->cu->MemAlloc(&a.dst, a.bytes), "cuMemAlloc")) {
		failed(pin, b->err);
		failed(page, b->err);
		goto out;
	}
	probe_progress(c, 0.35, probe_tr(b->tr, N_("host-to-device copies of %s, pinned")), what);
	if (!cu_ok(b, b->cu->MemHostAlloc(&pinned, a.bytes, CU_MEMHOSTALLOC_PORTABLE), "cuMemHostAlloc")) {
		pinned = NULL;
		failed(pin, b->err);
	} else {
		probe_fill_random(pinned, a.bytes, ENGINE_DT_FP32, &b->rng);
		a.host = pinned;
		if (measure(b, op_h2d_async, &a, (double)a.bytes, 7, 0.03, probe_now() + share / 2, pin))
			probe_msg(pin->note, sizeof pin->note,
				  probe_tr(b->tr, N_("cuMemcpyHtoDAsync of %s from cuMemHostAlloc memory, median of %d batches "
						     "of %d")),
				  what, pin->runs, pin->reps);
		else
			failed(pin, b->err);
	}
	probe_snapshot(c);
	probe_progress(c, 0.42, probe_tr(b->tr, N_("host-to-device copies of %s, pageable")), what);
	pageable = malloc(a.bytes);
	if (!pageable) {
		failed(page, probe_tr(b->tr, N_("out of host memory")));
		goto out;
	}
	/* random again (faulting the pages in), copied from the pinned buffer when there is one */
	if (pinned)
		memcpy(pageable, pinned, a.bytes);
	else
		probe_fill_random(pageable, a.bytes, ENGINE_DT_FP32, &b->rng);
	a.host = pageable;
	if (measure(b, op_h2d_sync, &a, (double)a.bytes, 7, 0.03, probe_now() + share / 2, page))
		probe_msg(page->note, sizeof page->note,
			  probe_tr(b->tr, N_("cuMemcpyHtoD of %s from malloc'ed memory, median of %d batches of %d")), what,
			  page->runs, page->reps);
	else
		failed(page, b->err);
out:
	free(pageable);
	if (pinned)
		b->cu->MemFreeHost(pinned);
	if (a.dst)
		b->cu->MemFree(a.dst);
}

/* ---------------------------------------------------------------- matmuls */

static bool op_gemm(struct bench *b, void *arg)
{
	return probe_gemm_run(arg, b->err, sizeof b->err);
}

static int64_t pick_n(const struct probe_options *o, double free_b)
{
	static const int64_t sizes[] = {8192, 4096, 2048, 1024, 512};
	size_t i;

	if (o->matmul_n > 0)
		return o->matmul_n;
	for (i = 0; i < sizeof sizes / sizeof sizes[0]; i++)
		if (3.0 * (double)sizes[i] * (double)sizes[i] * 4.0 + WORKSPACE_BYTES < 0.8 * free_b)
			return sizes[i];
	return 0;
}

/* The first 16-bit dtype at smaller square sizes too (within the same buffers), so the
 * step model's GEMM efficiency curve comes from this GPU: the sizes below n, then n. */
static void measure_curve(struct probe_ctx *c, struct bench *b, struct probe_blas *blas, enum engine_dtype dt, int64_t n,
			  cu_ptr buf, const struct probe_rate *top, double share)
{
	static const int64_t sizes[] = {512, 1024, 2048, 4096};
	struct probe_measurements *m = &c->r->m;
	size_t i;
	double end = probe_now() + share;

	for (i = 0; i < sizeof sizes / sizeof sizes[0] && m->curve_n < ENGINE_GEMM_POINTS - 1; i++) {
		int64_t s = sizes[i];
		double elem = (double)s * (double)s;
		cu_ptr a = buf, bm = buf + (cu_ptr)(elem * 4.0), dd = buf + (cu_ptr)(2.0 * elem * 4.0);
		cu_ptr ws = buf + (cu_ptr)(3.0 * (double)n * (double)n * 4.0);
		struct probe_gemm g;
		struct probe_rate *rt = &m->curve[m->curve_n];

		if (s >= n || probe_now() > end)
			break;
		memset(rt, 0, sizeof *rt);
		rt->m = rt->n = rt->k = s;
		if (!probe_gemm_setup(&g, blas, dt, s, a, bm, dd, ws, WORKSPACE_BYTES, b->err, sizeof b->err))
			break;
		if (measure(b, op_gemm, &g, 2.0 * elem * (double)s, 5, 0.02, end, rt)) {
			rt->state = PROBE_M_OK;
			m->curve_n++;
		}
		probe_gemm_free(&g);
	}
	m->curve[m->curve_n++] = *top;
}

/* How a matmul was measured, one whole message per kind of dtype (their words differ). */
static void gemm_note(const struct engine_tr *tr, struct probe_rate *rt, const char *blasname, enum engine_dtype dt,
		      const char *dname)
{
	if (dt == ENGINE_DT_FP8_E4M3)
		/* TRANSLATORS: "cuBLASLt 12.4.5, e4m3 in, ..., median of 7 batches of 40" */
		probe_msg(rt->note, sizeof rt->note,
			  probe_tr(tr, N_("%s, e4m3 in, bf16 out, fp32 accumulate, median of %d batches of %d")), blasname,
			  rt->runs, rt->reps);
	else if (dt == ENGINE_DT_TF32)
		probe_msg(rt->note, sizeof rt->note,
			  probe_tr(tr, N_("%s, fp32 in and out, tf32 math, fp32 accumulate, median of %d batches of %d")),
			  blasname, rt->runs, rt->reps);
	else
		/* TRANSLATORS: the library, the dtype (bf16, fp16, fp32) and the batches */
		probe_msg(rt->note, sizeof rt->note,
			  probe_tr(tr, N_("%s, %s in and out, fp32 accumulate, median of %d batches of %d")), blasname, dname,
			  rt->runs, rt->reps);
}

static void measure_matmuls(struct probe_ctx *c, struct bench *b, struct probe_blas *blas, bool have_blas,
			    const struct probe_device *d, double free_b, double share)
{
	const enum engine_dtype *dts;
	size_t ndt = probe_matmul_dtypes(&dts), i, done = 0, todo = 0;
	int cc = PROBE_HAS(d, PROBE_F_CC) ? d->cc_major * 10 + d->cc_minor : 0;
	int64_t n = pick_n(c->o, free_b);
	double elem = (double)n * (double)n, flops = 2.0 * elem * (double)n;
	cu_ptr buf = 0;
	bool warmed = false;
	char blasname[48];

	if (!have_blas) {
		for (i = 0; i < ndt; i++)
			skipped(&c->r->m.matmul[dts[i]], probe_tr(b->tr, N_("no cuBLASLt or cuBLAS library")));
		return;
	}
	probe_blas_name(blas, blasname, sizeof blasname);
	util_strlcpy(c->r->m.blas, blasname, sizeof c->r->m.blas);
	for (i = 0; i < ndt; i++) {
		struct probe_rate *rt = &c->r->m.matmul[dts[i]];
		rt->m = rt->n = rt->k = n;
		if (n == 0)
			skipped(rt, probe_tr(b->tr, N_("not enough free device memory for a 512 x 512 matmul")));
		else if (dts[i] == ENGINE_DT_FP8_E4M3 && cc < 89)
			skipped(rt, probe_tr(b->tr, N_("fp8 matmuls need compute capability 8.9 or newer")));
		else if (dts[i] == ENGINE_DT_TF32 && cc > 0 && cc < 80)
			skipped(rt, probe_tr(b->tr, N_("tf32 needs compute capability 8.0 or newer")));
		else
			todo++;
	}
	if (todo == 0)
		return;
	if (!cu_ok(b, b->cu->MemAlloc(&buf, (size_t)(3.0 * elem * 4.0) + WORKSPACE_BYTES), "cuMemAlloc")) {
		for (i = 0; i < ndt; i++)
			if (c->r->m.matmul[dts[i]].state == PROBE_M_NOT_RUN)
				failed(&c->r->m.matmul[dts[i]], b->err);
		return;
	}
	for (i = 0; i < ndt; i++) {
		enum engine_dtype dt = dts[i];
		struct probe_rate *rt = &c->r->m.matmul[dt];
		size_t sz = probe_dtype_size(dt);
		cu_ptr a = buf, bm = buf + (cu_ptr)(elem * 4.0), dd = buf + (cu_ptr)(2.0 * elem * 4.0);
		cu_ptr ws = buf + (cu_ptr)(3.0 * elem * 4.0);
		struct probe_gemm g;
		double end = probe_now() + share / (double)todo;
		const char *dname = engine_dtype_info(dt)->name;

		if (rt->state != PROBE_M_NOT_RUN)
			continue;
		probe_progress(c, 0.5 + 0.5 * (double)done / (double)todo, probe_tr(b->tr, N_("matmul %s %lldx%lldx%lld")),
			       dname, (long long)n, (long long)n, (long long)n);
		done++;
		if (!fill_device(b, a, (size_t)(elem * (double)sz), dt) ||
		    !fill_device(b, bm, (size_t)(elem * (double)sz), dt)) {
			failed(rt, b->err);
			continue;
		}
		if (!probe_gemm_setup(&g, blas, dt, n, a, bm, dd, ws, WORKSPACE_BYTES, b->err, sizeof b->err)) {
			failed(rt, b->err);
			continue;
		}
		if (!warmed) { /* bring the clocks up before the first timing */
			double until = probe_now() + 0.2;
			int k;
			for (k = 0; k < 200 && probe_now() < until; k++)
				if (!probe_gemm_run(&g, b->err, sizeof b->err) ||
				    !cu_ok(b, b->cu->CtxSynchronize(), "cuCtxSynchronize"))
					break;
			warmed = true;
		}
		if (measure(b, op_gemm, &g, flops, 7, 0.05, end, rt))
			gemm_note(b->tr, rt, blasname, dt, dname);
		else
			failed(rt, b->err);
		probe_gemm_free(&g);
		probe_snapshot(c);
		if (rt->state == PROBE_M_OK && c->r->m.curve_n == 0 && (dt == ENGINE_DT_BF16 || dt == ENGINE_DT_FP16))
			measure_curve(c, b, blas, dt, n, buf, rt, share / (double)todo / 2.0);
	}
	b->cu->MemFree(buf);
}

void probe_measure(struct probe_ctx *c, struct probe_cuda *cu, struct probe_blas *blas, bool have_blas,
		   const struct probe_device *d)
{
	struct bench b;
	size_t free_s = 0, total_s = 0;
	double free_b, budget = c->o->budget > 0 ? c->o->budget : 4.0;
	void *staging = NULL;
	const enum engine_dtype *dts;
	size_t ndt = probe_matmul_dtypes(&dts), i;

	memset(&b, 0, sizeof b);
	b.cu = cu;
	b.tr = c->o->tr;
	b.rng = 0x853c49e6748fea9bull;
	c->r->measured = true;
	if (!cu_ok(&b, cu->MemGetInfo(&free_s, &total_s), "cuMemGetInfo"))
		goto fail;
	free_b = (double)free_s;
	if (!cu_ok(&b, cu->EventCreate(&b.e0, CU_EVENT_DEFAULT), "cuEventCreate") ||
	    !cu_ok(&b, cu->EventCreate(&b.e1, CU_EVENT_DEFAULT), "cuEventCreate"))
		goto fail;
	if (cu->MemHostAlloc(&staging, STAGING_BYTES, CU_MEMHOSTALLOC_PORTABLE) == CU_SUCCESS) {
		b.staging_pinned = true;
	} else {
		staging = malloc(STAGING_BYTES);
		if (!staging) {
			util_strlcpy(b.err, probe_tr(b.tr, N_("out of host memory")), sizeof b.err);
			goto fail;
		}
	}
	b.staging = staging;
	if (c->o->skip & PROBE_SKIP_D2D)
		skipped(&c->r->m.d2d, probe_tr(b.tr, N_("not asked for")));
	else
		measure_d2d(c, &b, free_b, 0.15 * budget);
	probe_snapshot(c);
	if (c->o->skip & PROBE_SKIP_H2D) {
		skipped(&c->r->m.h2d_pinned, probe_tr(b.tr, N_("not asked for")));
		skipped(&c->r->m.h2d_pageable, probe_tr(b.tr, N_("not asked for")));
	} else {
		measure_h2d(c, &b, free_b, 0.15 * budget);
	}
	probe_snapshot(c);
	if (c->o->skip & PROBE_SKIP_MATMUL) {
		for (i = 0; i < ndt; i++)
			skipped(&c->r->m.matmul[dts[i]], probe_tr(b.tr, N_("not asked for")));
	} else {
		measure_matmuls(c, &b, blas, have_blas, d, free_b, 0.7 * budget);
	}
	goto out;
fail:
	failed(&c->r->m.d2d, b.err);
	failed(&c->r->m.h2d_pinned, b.err);
	failed(&c->r->m.h2d_pageable, b.err);
	for (i = 0; i < ndt; i++)
		failed(&c->r->m.matmul[dts[i]], b.err);
out:
	if (staging) {
		if (b.staging_pinned)
			cu->MemFreeHost(staging);
		else
			free(staging);
	}
	if (b.e1)
		cu->EventDestroy(b.e1);
	if (b.e0)
		cu->EventDestroy(b.e0);
}
