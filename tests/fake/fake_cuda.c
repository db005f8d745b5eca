/*
 * A fake libcuda.so.1: the driver API calls the probe makes, answering with canned H100s
 * (fake.h). Built three more ways: FAKE_CUDA_OLD exports only the unversioned names (an old
 * driver), FAKE_CUDA_NO_ALLOC lacks cuMemAlloc (a symbol needed to measure), FAKE_CUDA_NO_ATTR
 * lacks cuDeviceGetAttribute (a symbol needed to read a device).
 * Device memory is never touched: pointers are fake addresses, copies only move the clock.
 */
#include <signal.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "fake.h"

typedef int CUresult;
typedef int CUdevice;
typedef unsigned long long CUdeviceptr;

struct fake_event {
	double t;
};

static double vclock;       /* virtual seconds */
static int initialised;
static int contexts;        /* primary contexts retained */
static double allocated;    /* device bytes */

#define MAX_BLOCKS 256
static struct {
	CUdeviceptr p;
	size_t size;
} blocks[MAX_BLOCKS];
static CUdeviceptr next_addr = 0x7f0000000000ull;

#define MAX_PINNED 64
static struct {
	void *p;
	size_t size;
} pinned[MAX_PINNED];

FAKE_API void fake_cuda_advance(double seconds)
{
	vclock += seconds;
}

static int ndevices(void)
{
	return fake_env_int("FAKE_CUDA_DEVICES", 1);
}

static CUresult check(CUdevice d)
{
	if (!initialised)
		return 3; /* CUDA_ERROR_NOT_INITIALIZED */
	if (d < 0 || d >= ndevices())
		return 101;
	return 0;
}

FAKE_API CUresult cuInit(unsigned flags)
{
	int e = fake_env_int("FAKE_CUDA_INIT_ERROR", 0);

	fake_hook("cuInit", "%u", flags);
	if (e)
		return e;
	initialised = 1;
	return 0;
}

FAKE_API CUresult cuDriverGetVersion(int *v)
{
	fake_hook("cuDriverGetVersion", NULL);
	*v = 12040;
	return 0;
}

FAKE_API CUresult cuGetErrorName(CUresult e, const char **s)
{
	*s = e == 2 ? "CUDA_ERROR_OUT_OF_MEMORY" : e == 77 ? "CUDA_ERROR_FAKE_77" : "CUDA_ERROR_UNKNOWN";
	return 0;
}

FAKE_API CUresult cuDeviceGetCount(int *n)
{
	fake_hook("cuDeviceGetCount", NULL);
	if (!initialised)
		return 3;
	*n = ndevices();
	return 0;
}

FAKE_API CUresult cuDeviceGet(CUdevice *d, int i)
{
	CUresult e = check(i);

	if (e)
		return e;
	*d = i;
	return 0;
}

FAKE_API CUresult cuDeviceGetName(char *name, int len, CUdevice d)
{
	CUresult e = check(d);

	if (e)
		return e;
	strncpy(name, FAKE_NAME, (size_t)len);
	return 0;
}

static CUresult uuid(unsigned char *u, CUdevice d)
{
	int i;
	CUresult e = check(d);

	if (e)
		return e;
	for (i = 0; i < 16; i++)
		u[i] = (unsigned char)(0x10 * (i % 16) + d);
	return 0;
}

static CUresult total_mem(size_t *b, CUdevice d)
{
	CUresult e = check(d);

	if (e)
		return e;
	*b = (size_t)FAKE_MEMORY;
	return 0;
}

#ifndef FAKE_CUDA_NO_ATTR
FAKE_API CUresult cuDeviceGetAttribute(int *v, int attr, CUdevice d)
{
	CUresult e = check(d);

	if (e)
		return e;
	switch (attr) {
	case 75: *v = fake_env_int("FAKE_CUDA_CC", 90) / 10; break;
	case 76: *v = fake_env_int("FAKE_CUDA_CC", 90) % 10; break;
	case 16: *v = 132; break;
	case 37: *v = 5120; break;
	case 36: *v = 2619000; break;
	case 13: *v = 1980000; break;
	case 38: *v = 50 << 20; break;
	case 50: *v = 0; break;
	case 33: *v = 0x17 + d; break;
	case 34: *v = 0; break;
	default: return 1;
	}
	return 0;
}
#endif

static CUresult retain(void **ctx, CUdevice d)
{
	int e = fake_env_int("FAKE_CUDA_CTX_ERROR", 0);

	fake_hook("cuDevicePrimaryCtxRetain", "%d", d);
	if (e)
		return e;
	if (check(d))
		return check(d);
	*ctx = &contexts;
	contexts++;
	return 0;
}

FAKE_API CUresult cuDevicePrimaryCtxRetain(void **ctx, CUdevice d)
{
	return retain(ctx, d);
}

static CUresult release(CUdevice d)
{
	fake_hook("cuDevicePrimaryCtxRelease", "%d", d);
	if (contexts <= 0)
		return 201;
	contexts--;
	return 0;
}

FAKE_API CUresult cuCtxSetCurrent(void *ctx)
{
	fake_hook("cuCtxSetCurrent", NULL);
	return ctx == &contexts ? 0 : 201;
}

FAKE_API CUresult cuCtxSynchronize(void)
{
	fake_hook("cuCtxSynchronize", NULL);
	return contexts > 0 ? 0 : 201;
}

static CUresult mem_info(size_t *free_b, size_t *total)
{
	double used = FAKE_USED + FAKE_RESERVED + (contexts > 0 ? FAKE_CONTEXT : 0) + allocated;

	fake_hook("cuMemGetInfo", NULL);
	if (contexts <= 0)
		return 201;
	*total = (size_t)FAKE_MEMORY;
	*free_b = (size_t)(FAKE_MEMORY - used);
	return 0;
}

__attribute__((unused)) static CUresult mem_alloc(CUdeviceptr *p, size_t size)
{
	int i;

	fake_hook("cuMemAlloc", "%zu", size);
	if (contexts <= 0)
		return 201;
	if (fake_env_int("FAKE_CUDA_ALLOC_FAIL", 0) || size == 0)
		return 2;
	if (allocated + (double)size > FAKE_MEMORY - FAKE_USED - FAKE_RESERVED - FAKE_CONTEXT)
		return 2;
	for (i = 0; i < MAX_BLOCKS; i++) {
		if (blocks[i].p == 0) {
			blocks[i].p = next_addr;
			blocks[i].size = size;
			*p = next_addr;
			next_addr += (size + 0xfffffu) & ~(CUdeviceptr)0xfffffu;
			allocated += (double)size;
			return 0;
		}
	}
	return 2;
}

static CUresult mem_free(CUdeviceptr p)
{
	int i;

	fake_hook("cuMemFree", NULL);
	for (i = 0; i < MAX_BLOCKS; i++) {
		if (blocks[i].p == p && p != 0) {
			allocated -= (double)blocks[i].size;
			blocks[i].p = 0;
			return 0;
		}
	}
	return 1;
}

/* The block holding [p, p + size), or -1. */
static int block_of(CUdeviceptr p, size_t size)
{
	int i;

	for (i = 0; i < MAX_BLOCKS; i++)
		if (blocks[i].p && p >= blocks[i].p && p + size <= blocks[i].p + blocks[i].size)
			return i;
	return -1;
}

static int is_pinned(const void *h, size_t size)
{
	int i;

	for (i = 0; i < MAX_PINNED; i++)
		if (pinned[i].p && (const char *)h >= (const char *)pinned[i].p &&
		    (const char *)h + size <= (const char *)pinned[i].p + pinned[i].size)
			return 1;
	return 0;
}

FAKE_API CUresult cuMemHostAlloc(void **p, size_t size, unsigned flags)
{
	int i;

	fake_hook("cuMemHostAlloc", "%zu %u", size, flags);
	if (contexts <= 0)
		return 201;
	for (i = 0; i < MAX_PINNED; i++) {
		if (!pinned[i].p) {
			pinned[i].p = malloc(size);
			if (!pinned[i].p)
				return 2;
			pinned[i].size = size;
			*p = pinned[i].p;
			return 0;
		}
	}
	return 2;
}

FAKE_API CUresult cuMemFreeHost(void *p)
{
	int i;

	fake_hook("cuMemFreeHost", NULL);
	for (i = 0; i < MAX_PINNED; i++) {
		if (pinned[i].p == p && p) {
			free(p);
			pinned[i].p = NULL;
			return 0;
		}
	}
	return 1;
}

/* A host-to-device copy: checks both ends, records whether the data was all zeros. */
static CUresult htod(CUdeviceptr dst, const void *src, size_t size, int async)
{
	const unsigned char *s = src;
	size_t i, zeros = 0, n = size < 256 ? size : 256;
	int pin = is_pinned(src, size);

	for (i = 0; i < n; i++)
		zeros += s[i] == 0;
	/* reading the last byte lets the sanitizers check the whole range was allocated */
	fake_hook(async ? "cuMemcpyHtoDAsync" : "cuMemcpyHtoD", "%zu pinned=%d zero=%d last=%d", size, pin,
		  zeros == n, s[size - 1] != 0 ? 1 : 0);
	if (contexts <= 0)
		return 201;
	if (block_of(dst, size) < 0)
		return 1;
	vclock += (double)size / (pin ? FAKE_H2D_PINNED : FAKE_H2D_PAGEABLE);
	return 0;
}

static CUresult dtod(CUdeviceptr dst, CUdeviceptr src, size_t size)
{
	fake_hook("cuMemcpyDtoDAsync", "%zu", size);
	if (contexts <= 0)
		return 201;
	if (block_of(dst, size) < 0 || block_of(src, size) < 0)
		return 1;
	vclock += 2.0 * (double)size / FAKE_D2D_BW;
	return 0;
}

FAKE_API CUresult cuEventCreate(struct fake_event **e, unsigned flags)
{
	fake_hook("cuEventCreate", "%u", flags);
	*e = calloc(1, sizeof **e);
	return *e ? 0 : 2;
}

FAKE_API CUresult cuEventRecord(struct fake_event *e, void *stream)
{
	(void)stream;
	fake_hook("cuEventRecord", NULL);
	e->t = vclock;
	return 0;
}

FAKE_API CUresult cuEventSynchronize(struct fake_event *e)
{
	(void)e;
	fake_hook("cuEventSynchronize", NULL);
	return 0;
}

static CUresult elapsed(float *ms, struct fake_event *a, struct fake_event *b)
{
	*ms = (float)((b->t - a->t) * 1e3);
	return 0;
}

/* the unversioned name exists in both builds (drivers keep it), the _v2 one in new ones */
FAKE_API CUresult cuEventElapsedTime(float *ms, struct fake_event *a, struct fake_event *b)
{
	fake_hook("cuEventElapsedTime", NULL);
	return elapsed(ms, a, b);
}

static CUresult event_destroy(struct fake_event *e)
{
	fake_hook("cuEventDestroy", NULL);
	free(e);
	return 0;
}

#ifndef FAKE_CUDA_OLD
FAKE_API CUresult cuDeviceGetUuid_v2(unsigned char *u, CUdevice d)
{
	return uuid(u, d);
}

FAKE_API CUresult cuDeviceTotalMem_v2(size_t *b, CUdevice d)
{
	return total_mem(b, d);
}

/* The legacy 32-bit query: a probe that picked it would read a wrong size. */
FAKE_API CUresult cuDeviceTotalMem(unsigned int *b, CUdevice d)
{
	size_t v = 0;
	CUresult e = total_mem(&v, d);

	*b = (unsigned int)v;
	return e;
}

FAKE_API CUresult cuDevicePrimaryCtxRelease_v2(CUdevice d)
{
	return release(d);
}

FAKE_API CUresult cuMemGetInfo_v2(size_t *f, size_t *t)
{
	return mem_info(f, t);
}

#ifndef FAKE_CUDA_NO_ALLOC
FAKE_API CUresult cuMemAlloc_v2(CUdeviceptr *p, size_t size)
{
	return mem_alloc(p, size);
}
#endif

FAKE_API CUresult cuMemFree_v2(CUdeviceptr p)
{
	return mem_free(p);
}

FAKE_API CUresult cuMemcpyHtoD_v2(CUdeviceptr d, const void *s, size_t n)
{
	return htod(d, s, n, 0);
}

FAKE_API CUresult cuMemcpyHtoDAsync_v2(CUdeviceptr d, const void *s, size_t n, void *st)
{
	(void)st;
	return htod(d, s, n, 1);
}

FAKE_API CUresult cuMemcpyDtoDAsync_v2(CUdeviceptr d, CUdeviceptr s, size_t n, void *st)
{
	(void)st;
	return dtod(d, s, n);
}

FAKE_API CUresult cuEventDestroy_v2(struct fake_event *e)
{
	return event_destroy(e);
}

FAKE_API CUresult cuEventElapsedTime_v2(float *ms, struct fake_event *a, struct fake_event *b)
{
	fake_hook("cuEventElapsedTime_v2", NULL);
	return elapsed(ms, a, b);
}
#else
FAKE_API CUresult cuDeviceGetUuid(unsigned char *u, CUdevice d)
{
	return uuid(u, d);
}

FAKE_API CUresult cuDeviceTotalMem(size_t *b, CUdevice d)
{
	return total_mem(b, d);
}

FAKE_API CUresult cuDevicePrimaryCtxRelease(CUdevice d)
{
	return release(d);
}

FAKE_API CUresult cuMemGetInfo(size_t *f, size_t *t)
{
	return mem_info(f, t);
}

FAKE_API CUresult cuMemAlloc(CUdeviceptr *p, size_t size)
{
	return mem_alloc(p, size);
}

FAKE_API CUresult cuMemFree(CUdeviceptr p)
{
	return mem_free(p);
}

FAKE_API CUresult cuMemcpyHtoD(CUdeviceptr d, const void *s, size_t n)
{
	return htod(d, s, n, 0);
}

FAKE_API CUresult cuMemcpyHtoDAsync(CUdeviceptr d, const void *s, size_t n, void *st)
{
	(void)st;
	return htod(d, s, n, 1);
}

FAKE_API CUresult cuMemcpyDtoDAsync(CUdeviceptr d, CUdeviceptr s, size_t n, void *st)
{
	(void)st;
	return dtod(d, s, n);
}

FAKE_API CUresult cuEventDestroy(struct fake_event *e)
{
	return event_destroy(e);
}
#endif
