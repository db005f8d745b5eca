/*
 * An allocator hook for measuring what a PyTorch training step really allocates on the
 * CPU: the analogue of torch.cuda.max_memory_allocated().
 *
 * PyTorch's CPU allocator (c10::alloc_cpu) takes every tensor's storage from the C
 * library (posix_memalign), so wrapping the C library's allocation calls and counting the
 * live bytes of large blocks counts the live tensors. Preloaded into Python
 * (LD_PRELOAD=libnapkin_alloc_shim.so) and read through ctypes (tests/torch/measure.py):
 *
 *   napkin_shim_live()          bytes now live in blocks of at least the threshold
 *   napkin_shim_peak()          the largest value of live since the last reset
 *   napkin_shim_reset_peak()    peak = live
 *   napkin_shim_set_phase(p)    a number the caller sets when it enters a phase of the step
 *   napkin_shim_peak_phase()    the phase that was set when the peak was reached
 *
 * A block counts by malloc_usable_size (what the C library really handed out), at
 * allocation and again at free, so the count returns to where it was. Blocks under
 * NAPKIN_SHIM_MIN bytes (default 4096) are left out: Python objects and small tensors'
 * metadata, not tensor storage of any size that matters.
 *
 * It forwards to glibc's own entry points (__libc_malloc and friends), so no dlsym is
 * needed and nothing allocates before the real allocator is known.
 */
#include <malloc.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

extern void *__libc_malloc(size_t size);
extern void *__libc_calloc(size_t n, size_t size);
extern void *__libc_realloc(void *p, size_t size);
extern void *__libc_memalign(size_t align, size_t size);
extern void __libc_free(void *p);

#define EXPORT __attribute__((visibility("default")))

/* What Python reads through ctypes. */
EXPORT long long napkin_shim_live(void);
EXPORT long long napkin_shim_peak(void);
EXPORT void napkin_shim_reset_peak(void);
EXPORT void napkin_shim_set_phase(int p);
EXPORT int napkin_shim_peak_phase(void);

static long long live_bytes;
static long long peak_bytes;
static int phase;
static int peak_phase;
static size_t threshold = 4096;
static int threshold_read;

static size_t min_size(void)
{
	if (!__atomic_load_n(&threshold_read, __ATOMIC_ACQUIRE)) {
		const char *v = getenv("NAPKIN_SHIM_MIN");
		if (v != NULL && *v != '\0')
			threshold = (size_t)strtoull(v, NULL, 10);
		__atomic_store_n(&threshold_read, 1, __ATOMIC_RELEASE);
	}
	return threshold;
}

static void count_alloc(void *p)
{
	size_t n;
	long long now, old;

	if (p == NULL)
		return;
	n = malloc_usable_size(p);
	if (n < min_size())
		return;
	now = __atomic_add_fetch(&live_bytes, (long long)n, __ATOMIC_RELAXED);
	old = __atomic_load_n(&peak_bytes, __ATOMIC_RELAXED);
	while (now > old) {
		if (__atomic_compare_exchange_n(&peak_bytes, &old, now, 1, __ATOMIC_RELAXED, __ATOMIC_RELAXED)) {
			__atomic_store_n(&peak_phase, __atomic_load_n(&phase, __ATOMIC_RELAXED), __ATOMIC_RELAXED);
			break;
		}
	}
}

static void count_free(void *p)
{
	size_t n;

	if (p == NULL)
		return;
	n = malloc_usable_size(p);
	if (n < min_size())
		return;
	__atomic_sub_fetch(&live_bytes, (long long)n, __ATOMIC_RELAXED);
}

EXPORT void *malloc(size_t size)
{
	void *p = __libc_malloc(size);
	count_alloc(p);
	return p;
}

EXPORT void *calloc(size_t n, size_t size)
{
	void *p = __libc_calloc(n, size);
	count_alloc(p);
	return p;
}

EXPORT void *realloc(void *old, size_t size)
{
	void *p;

	count_free(old);
	p = __libc_realloc(old, size);
	if (p != NULL)
		count_alloc(p);
	else if (old != NULL && size != 0)
		count_alloc(old); /* the old block is still there */
	return p;
}

EXPORT void free(void *p)
{
	count_free(p);
	__libc_free(p);
}

EXPORT int posix_memalign(void **out, size_t align, size_t size)
{
	void *p;

	if (align < sizeof(void *) || (align & (align - 1)) != 0)
		return 22; /* EINVAL */
	p = __libc_memalign(align, size);
	if (p == NULL)
		return 12; /* ENOMEM */
	count_alloc(p);
	*out = p;
	return 0;
}

EXPORT void *aligned_alloc(size_t align, size_t size)
{
	void *p = __libc_memalign(align, size);
	count_alloc(p);
	return p;
}

EXPORT void *memalign(size_t align, size_t size)
{
	void *p = __libc_memalign(align, size);
	count_alloc(p);
	return p;
}

EXPORT long long napkin_shim_live(void)
{
	return __atomic_load_n(&live_bytes, __ATOMIC_RELAXED);
}

EXPORT long long napkin_shim_peak(void)
{
	return __atomic_load_n(&peak_bytes, __ATOMIC_RELAXED);
}

EXPORT void napkin_shim_reset_peak(void)
{
	__atomic_store_n(&peak_bytes, __atomic_load_n(&live_bytes, __ATOMIC_RELAXED), __ATOMIC_RELAXED);
	__atomic_store_n(&peak_phase, __atomic_load_n(&phase, __ATOMIC_RELAXED), __ATOMIC_RELAXED);
}

EXPORT void napkin_shim_set_phase(int p)
{
	__atomic_store_n(&phase, p, __ATOMIC_RELAXED);
}

EXPORT int napkin_shim_peak_phase(void)
{
	return __atomic_load_n(&peak_phase, __ATOMIC_RELAXED);
}
