/*
 * A probe's progress, reported to its caller while it runs: the step in words and the
 * fraction done (probe_progress), and the partial report so far (probe_snapshot). Used by
 * collect.c and measure.c alike, and calls neither.
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "internal.h"

void probe_progress(struct probe_ctx *c, double fraction, const char *fmt, ...)
{
	struct probe_progress p;
	va_list ap;
	int w;

	memset(&p, 0, sizeof p);
	p.fraction = fraction < 0 ? 0 : fraction > 1 ? 1 : fraction;
	va_start(ap, fmt);
	w = vsnprintf(p.step, sizeof p.step, fmt, ap);
	va_end(ap);
	probe_cut_whole(p.step, sizeof p.step, w);
	p.elapsed = probe_now() - c->t0;
	util_strlcpy(c->r->last_step, p.step, sizeof c->r->last_step);
	if (c->on_progress)
		c->on_progress(c->cb_ctx, &p);
}

void probe_snapshot(struct probe_ctx *c)
{
	c->r->elapsed = probe_now() - c->t0;
	if (c->on_snapshot)
		c->on_snapshot(c->cb_ctx, c->r);
}
