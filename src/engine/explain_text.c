/*
 * What every explanation writes with: a line appended to the caller's buffer (eng_ex_line,
 * never past its end), a heading, a dtype's name and bytes, and the roofline verdict in
 * words. Below explain.c and every explain_*.c; calls none of them.
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "explain_internal.h"

void eng_ex_line(struct eng_ex *x, const char *fmt, ...)
{
	va_list ap;
	int w;

	if (x->n == 0 || x->pos >= x->n - 1)
		return;
	va_start(ap, fmt);
	w = vsnprintf(x->buf + x->pos, x->n - x->pos, fmt, ap);
	va_end(ap);
	if (w < 0)
		return;
	x->pos = (size_t)w >= x->n - x->pos ? x->n - 1 : x->pos + (size_t)w;
	if (x->pos < x->n - 1) {
		x->buf[x->pos++] = '\n';
		x->buf[x->pos] = '\0';
	}
}

const char *eng_ex_dtype_name(int dt)
{
	return dt < 0 ? "none" : engine_dtype_info((enum engine_dtype)dt)->name;
}

double eng_ex_dtype_bytes(int dt)
{
	return dt < 0 ? 0.0 : engine_dtype_info((enum engine_dtype)dt)->bytes;
}

void eng_ex_head(struct eng_ex *x, const char *key, const char *title)
{
	eng_ex_line(x, "%s: %s", key, title);
}

/* An intensity as a person reads it: 1,145 / 28.5 / 1.0 / 0.25 FLOP/B. */
static void fmt_intensity(double v, char *buf, size_t n)
{
	if (v >= 1000.0)
		engine_fmt_int(v, buf, n);
	else if (v >= 100.0)
		snprintf(buf, n, "%.0f", v);
	else if (v >= 1.0)
		snprintf(buf, n, "%.1f", v);
	else
		snprintf(buf, n, "%.2g", v);
}

void engine_roofline_verdict(const struct engine_scenario *sc, const struct engine_result *r, enum engine_point pt,
			     char *buf, size_t n)
{
	const struct engine_roofline_point *p = &r->roofline.points[pt];
	char what[80], in[32];

	switch (pt) {
	case ENGINE_PT_DECODE: snprintf(what, sizeof what, "decode at batch %lld", (long long)sc->batch); break;
	case ENGINE_PT_PREFILL: {
		char t[48];
		util_count(t, sizeof t, (double)sc->prompt, "token", "tokens");
		snprintf(what, sizeof what, "prefill of %s", t);
		break;
	}
	case ENGINE_PT_TRAIN: snprintf(what, sizeof what, "the training step"); break;
	default: snprintf(what, sizeof what, "an element-wise op"); break;
	}
	fmt_intensity(p->intensity, in, sizeof in);
	snprintf(buf, n, "%s is %s-bound: intensity %s FLOP/B, ridge %.0f", what, p->memory_bound ? "memory" : "compute",
		 in, r->roofline.ridge);
}
