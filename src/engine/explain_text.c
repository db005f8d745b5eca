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
	w = vsnprintf(x->buf + x->pos, x->n - x->pos, eng_tr(x->tr, fmt), ap);
	va_end(ap);
	if (w < 0)
		return;
	x->pos = (size_t)w >= x->n - x->pos ? x->n - 1 : x->pos + (size_t)w;
	if (x->pos < x->n - 1) {
		x->buf[x->pos++] = '\n';
		x->buf[x->pos] = '\0';
	}
}

int eng_ex_label_width(const struct eng_ex *x, const char *const *labels, size_t n)
{
	size_t i, w = 0;

	for (i = 0; i < n; i++) {
		size_t lw = util_text_width(eng_tr(x->tr, labels[i]));
		w = lw > w ? lw : w;
	}
	return (int)w + 2;
}

void eng_ex_row(struct eng_ex *x, int width, const char *label, const char *fmt, ...)
{
	va_list ap;
	char lab[160];
	int w;

	if (x->n == 0 || x->pos >= x->n - 1)
		return;
	util_text_pad(lab, sizeof lab, label[0] != '\0' ? eng_tr(x->tr, label) : "", width > 0 ? (size_t)width : 0);
	w = snprintf(x->buf + x->pos, x->n - x->pos, "  %s", lab);
	if (w < 0)
		return;
	x->pos = (size_t)w >= x->n - x->pos ? x->n - 1 : x->pos + (size_t)w;
	va_start(ap, fmt);
	w = vsnprintf(x->buf + x->pos, x->n - x->pos, eng_tr(x->tr, fmt), ap);
	va_end(ap);
	if (w < 0)
		return;
	x->pos = (size_t)w >= x->n - x->pos ? x->n - 1 : x->pos + (size_t)w;
	if (x->pos < x->n - 1) {
		x->buf[x->pos++] = '\n';
		x->buf[x->pos] = '\0';
	}
}

double eng_ex_dtype_bytes(int dt)
{
	return dt < 0 ? 0.0 : engine_dtype_info((enum engine_dtype)dt)->bytes;
}

void eng_ex_head(struct eng_ex *x, const char *key, const char *title)
{
	/* TRANSLATORS: an explanation's heading: its key (memory.weights) and what it is */
	eng_ex_line(x, eng_trc(x->tr, "explain heading", NC_("explain heading", "%s: %s")), key, eng_tr(x->tr, title));
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
	const struct engine_tr *tr = sc->tr;
	char what[160], in[32];

	switch (pt) {
	case ENGINE_PT_DECODE:
		/* an open load sets how many decode at once, not the batch knob (compute.c): say both */
		if (r->roofline.decode_at == ENGINE_DECODE_AT_OPEN_MEAN)
			snprintf(what, sizeof what, eng_tr(tr, N_("decode of %.1f sequences on average while it runs (the open load; "
								  "the batch knob is %lld)")),
				 r->roofline.decode_sequences, (long long)sc->batch);
		else if (r->roofline.decode_at == ENGINE_DECODE_AT_OPEN_LIMIT)
			snprintf(what, sizeof what,
				 eng_tr(tr, r->roofline.decode_sequences == 1.0
						    ? N_("decode of %.0f sequence, the engine's limit (the open load saturates it; "
							 "the batch knob is %lld)")
						    : N_("decode of %.0f sequences, the engine's limit (the open load saturates it; "
							 "the batch knob is %lld)")),
				 r->roofline.decode_sequences, (long long)sc->batch);
		else
			snprintf(what, sizeof what, eng_tr(tr, N_("decode at batch %lld")), (long long)sc->batch);
		break;
	case ENGINE_PT_PREFILL: {
		char t[48];
		engine_fmt_int((double)sc->prompt, t, sizeof t);
		snprintf(what, sizeof what, eng_tr(tr, sc->prompt == 1 ? N_("prefill of %s token") : N_("prefill of %s tokens")), t);
		break;
	}
	case ENGINE_PT_TRAIN: util_strlcpy(what, eng_tr(tr, N_("the training step")), sizeof what); break;
	default: util_strlcpy(what, eng_tr(tr, N_("an element-wise op")), sizeof what); break;
	}
	fmt_intensity(p->intensity, in, sizeof in);
	snprintf(buf, n,
		 eng_tr(tr, p->memory_bound ? N_("%s is memory-bound: intensity %s FLOP/B, ridge %.0f")
					    : N_("%s is compute-bound: intensity %s FLOP/B, ridge %.0f")),
		 what, in, r->roofline.ridge);
	util_text_cjk_unspace(buf); /* "训练步是 Compute-Bound", not "训练步 是" */
}
