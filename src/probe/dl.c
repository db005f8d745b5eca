/*
 * Shared pieces of the probe: opening libraries (versioned sonames tried in turn, dlerror
 * kept for the user), resolving symbols newest first, notes, time, random fills.
 */
#include <dlfcn.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "internal.h"

_Static_assert(sizeof(void *) == sizeof(void (*)(void)), "function pointers are stored through void *");

static void take_dlerror(char *buf, size_t n, const char *fallback)
{
	const char *e = dlerror();

	util_strlcpy(buf, e ? e : fallback, n);
}

const char *probe_tr(const struct engine_tr *tr, const char *msgid)
{
	const char *t = tr && tr->gettext ? tr->gettext(tr->ctx, msgid) : NULL;

	return t ? t : msgid;
}

void *probe_dl_open(struct probe_lib *lib, const char *path, const char *env, const char *const *names,
		    const struct engine_tr *tr)
{
	void *h = NULL;
	const char *only = path;
	char first[PROBE_MSG_MAX] = "";
	size_t i;

	lib->loaded = false;
	lib->error[0] = '\0';
	if (!only && env) {
		only = getenv(env);
		if (only && !*only)
			only = NULL;
	}
	if (only) {
		util_strlcpy(lib->path, only, sizeof lib->path);
		(void)dlerror();
		h = dlopen(only, RTLD_NOW | RTLD_LOCAL);
		if (!h)
			take_dlerror(lib->error, sizeof lib->error, probe_tr(tr, N_("cannot be opened")));
		goto out;
	}
	for (i = 0; names[i]; i++) {
		util_strlcpy(lib->path, names[i], sizeof lib->path);
		(void)dlerror();
		h = dlopen(names[i], RTLD_NOW | RTLD_LOCAL);
		if (h)
			goto out;
		if (!first[0])
			take_dlerror(first, sizeof first, probe_tr(tr, N_("cannot be opened")));
	}
	/* report the first name's error: the soname is what the user recognises */
	util_strlcpy(lib->path, names[0] ? names[0] : "", sizeof lib->path);
	util_strlcpy(lib->error, first, sizeof lib->error);
out:
	lib->loaded = h != NULL;
	return h;
}

bool probe_dl_resolve(void *handle, void *table, const struct probe_sym *syms, size_t n, char *missing,
		      size_t missing_n, const struct engine_tr *tr)
{
	bool ok = true;
	size_t i, j;

	if (missing && missing_n)
		missing[0] = '\0';
	for (i = 0; i < n; i++) {
		void *p = NULL;
		char why[PROBE_MSG_MAX] = "";

		for (j = 0; j < 3 && syms[i].names[j]; j++) {
			const char *e;

			(void)dlerror();
			p = dlsym(handle, syms[i].names[j]);
			e = dlerror();
			if (e) {
				p = NULL;
				if (!why[0])
					util_strlcpy(why, e, sizeof why);
			}
			if (p)
				break;
		}
		memcpy((char *)table + syms[i].offset, &p, sizeof p);
		if (!p && syms[i].required && ok) {
			ok = false;
			if (missing && missing_n) {
				/* why: dlerror's text, as the system gives it */
				const char *nf = probe_tr(tr, N_("not found"));
				if (syms[i].names[1])
					/* TRANSLATORS: a symbol of a library that is missing: "cuMemAlloc_v2 (nor
					 * cuMemAlloc): <dlerror's text>" */
					probe_msg(missing, missing_n, probe_tr(tr, N_("%s (nor %s): %s")), syms[i].names[0],
						  syms[i].names[1], why[0] ? why : nf);
				else
					probe_msg(missing, missing_n, "%s: %s", syms[i].names[0], why[0] ? why : nf);
			}
		}
	}
	return ok;
}

void probe_dl_close(void *handle)
{
	if (handle)
		dlclose(handle);
}

double probe_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

void probe_cut_whole(char *buf, size_t n, int written)
{
	size_t len, i, need;
	unsigned char lead;

	if (written < 0 || n == 0 || (size_t)written < n)
		return;
	len = strlen(buf);
	for (i = len; i > 0 && ((unsigned char)buf[i - 1] & 0xC0) == 0x80; i--)
		;
	if (i == 0)
		return;
	lead = (unsigned char)buf[i - 1];
	need = lead >= 0xF0 ? 4 : lead >= 0xE0 ? 3 : lead >= 0xC0 ? 2 : 1;
	if (len - (i - 1) < need)
		buf[i - 1] = '\0';
}

void probe_msg(char *buf, size_t n, const char *fmt, ...)
{
	va_list ap;
	int w;

	va_start(ap, fmt);
	w = vsnprintf(buf, n, fmt, ap);
	va_end(ap);
	probe_cut_whole(buf, n, w);
}

void probe_note(struct probe_report *r, const char *fmt, ...)
{
	va_list ap;
	int w;

	if (r->n_notes >= PROBE_NOTES_MAX)
		return;
	va_start(ap, fmt);
	w = vsnprintf(r->notes[r->n_notes], sizeof r->notes[0], fmt, ap);
	va_end(ap);
	probe_cut_whole(r->notes[r->n_notes], sizeof r->notes[0], w);
	r->n_notes++;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

double probe_median(double *v, int n)
{
	if (n <= 0)
		return 0.0;
	qsort(v, (size_t)n, sizeof *v, cmp_double);
	return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

size_t probe_dtype_size(enum engine_dtype dt)
{
	switch (dt) {
	case ENGINE_DT_FP32:
	case ENGINE_DT_TF32: return 4;
	case ENGINE_DT_BF16:
	case ENGINE_DT_FP16: return 2;
	case ENGINE_DT_FP8_E4M3:
	case ENGINE_DT_FP8_E5M2: return 1;
	default: return 4;
	}
}

static uint64_t next_random(uint64_t *s)
{
	uint64_t x = *s;

	x ^= x >> 12;
	x ^= x << 25;
	x ^= x >> 27;
	*s = x;
	return x * 0x2545F4914F6CDD1Dull;
}

/* A value in [-1, 1) with a random sign and mantissa, never 0. */
static float random_unit(uint64_t r)
{
	float f = (float)((r >> 40) | 1u) / 16777216.0f; /* (0, 1) */

	return (r & 1u) ? -f : f;
}

static uint16_t to_bf16(float f)
{
	uint32_t u;

	memcpy(&u, &f, sizeof u);
	u += 0x7fffu + ((u >> 16) & 1u); /* round to nearest even (no NaNs here) */
	return (uint16_t)(u >> 16);
}

static uint16_t to_fp16(float f)
{
	uint32_t u, sign, mant;
	int exp;

	memcpy(&u, &f, sizeof u);
	sign = (u >> 16) & 0x8000u;
	exp = (int)((u >> 23) & 0xffu) - 127 + 15;
	mant = u & 0x7fffffu;
	if (exp <= 0) /* subnormal or smaller: keep it tiny but nonzero */
		return (uint16_t)(sign | 1u);
	if (exp >= 31)
		return (uint16_t)(sign | 0x7bffu);
	return (uint16_t)(sign | ((uint32_t)exp << 10) | (mant >> 13));
}

/* OCP FP8 E4M3: bias 7, no infinities, max 448. */
static uint8_t to_fp8_e4m3(float f)
{
	uint32_t u, sign, mant;
	int exp;

	memcpy(&u, &f, sizeof u);
	sign = (u >> 24) & 0x80u;
	exp = (int)((u >> 23) & 0xffu) - 127 + 7;
	mant = (u >> 20) & 0x7u;
	if (exp <= 0)
		return (uint8_t)(sign | 1u);
	if (exp > 15)
		return (uint8_t)(sign | 0x7eu);
	return (uint8_t)(sign | ((uint32_t)exp << 3) | mant);
}

void probe_fill_random(void *buf, size_t n_bytes, enum engine_dtype dt, uint64_t *state)
{
	size_t i, size = probe_dtype_size(dt), n = n_bytes / size;
	unsigned char *p = buf;

	if (*state == 0)
		*state = 0x9E3779B97F4A7C15ull;
	for (i = 0; i < n; i++) {
		float f = random_unit(next_random(state));
		switch (dt) {
		case ENGINE_DT_BF16:
		case ENGINE_DT_FP16: {
			uint16_t h = dt == ENGINE_DT_BF16 ? to_bf16(f) : to_fp16(f);
			memcpy(p + i * 2, &h, 2);
			break;
		}
		case ENGINE_DT_FP8_E4M3:
		case ENGINE_DT_FP8_E5M2: p[i] = to_fp8_e4m3(f); break;
		default: memcpy(p + i * 4, &f, 4); break;
		}
	}
	for (i = n * size; i < n_bytes; i++)
		p[i] = (unsigned char)(next_random(state) | 1u);
}
