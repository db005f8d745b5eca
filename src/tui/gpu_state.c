/*
 * The GPU in this machine, what G and M share (see view_gpu.h): the picker line of a GPU, the
 * state in m->gpu with the GPUs measured in a session, the catalog that resolves their ids.
 * State, not a view: the picker (model_actions.c) and the roofline read it too. The probe
 * overlay is in view_probe.c, the live panel in view_live.c, the loop's wake-ups and
 * non-blocking reads (above both) in view_gpu_loop.c.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "i18n.h"
#include "view_gpu.h"

#define DOT " \xc2\xb7 "

void tui_gpu_summary(const struct engine_gpu *g, char *buf, size_t n)
{
	char a[40], b[40], c[40];

	engine_fmt_bytes(g->memory_bytes, false, a, sizeof a);
	engine_fmt_si(g->bandwidth, "B/s", b, sizeof b);
	engine_fmt_si(engine_gpu_peak(g, ENGINE_DT_BF16), "FLOP/s", c, sizeof c);
	snprintf(buf, n, "%s" DOT "%s" DOT "%s bf16%s", a, b, c, g->measured ? _(" (measured)") : "");
}

#ifdef TUI_HAVE_PROBE

/* ---------------------------------------------------------------- state */

struct tui_gpu *tui_gpu_state(struct tui_model *m)
{
	if (m->gpu == NULL)
		m->gpu = calloc(1, sizeof *m->gpu);
	return m->gpu;
}

void tui_gpu_fini(struct tui_model *m)
{
	struct tui_gpu *g = m->gpu;

	if (g == NULL)
		return;
	probe_job_cancel(g->job);
	probe_monitor_stop(g->mon);
	if (g->wrapped) {
		m->cat = g->inner;
		m->have_cat = g->have_inner;
	}
	free(g);
	m->gpu = NULL;
}

bool tui_gpu_probing(const struct tui_model *m)
{
	return m->gpu != NULL && m->gpu->job != NULL;
}

int tui_gpu_measured_count(const struct tui_model *m)
{
	return m->gpu != NULL ? m->gpu->n_measured : 0;
}

const struct engine_gpu *tui_gpu_measured(const struct tui_model *m, int i)
{
	return m->gpu != NULL && i >= 0 && i < m->gpu->n_measured ? &m->gpu->measured[i].gpu : NULL;
}

static const struct tui_gpu_entry *current_entry(const struct tui_model *m)
{
	int i;

	if (m->gpu == NULL || !m->sc.gpu.measured)
		return NULL;
	for (i = m->gpu->n_measured - 1; i >= 0; i--)
		if (strcmp(m->gpu->measured[i].gpu.id, m->sc.gpu.id) == 0)
			return &m->gpu->measured[i];
	return NULL;
}

bool tui_gpu_datasheet(const struct tui_model *m, struct engine_gpu *out)
{
	const struct tui_gpu_entry *e = current_entry(m);

	if (e == NULL || !e->have_datasheet)
		return false;
	*out = e->datasheet;
	return true;
}

/* ---------------------------------------------------------------- the catalog */

static int cat_model(void *ctx, const char *name, struct engine_model *out, struct napkin_err *err)
{
	struct tui_model *m = ctx;
	struct tui_gpu *g = m->gpu;
	struct engine_scenario t;
	int rc;

	if (g->have_inner && g->inner.model != NULL)
		return g->inner.model(g->inner.ctx, name, out, err);
	engine_scenario_default(&t); /* no registry: the engine's built-in */
	rc = engine_knob_set(&t, engine_knob_find("model"), name, NULL, err);
	if (rc == NAPKIN_OK)
		*out = t.model;
	return rc;
}

static int cat_gpu(void *ctx, const char *name, struct engine_gpu *out, struct napkin_err *err)
{
	struct tui_model *m = ctx;
	struct tui_gpu *g = m->gpu;
	struct engine_scenario t;
	int i, rc;

	for (i = g->n_measured - 1; i >= 0; i--)
		if (strcmp(g->measured[i].gpu.id, name) == 0) {
			*out = g->measured[i].gpu;
			return NAPKIN_OK;
		}
	if (g->have_inner && g->inner.gpu != NULL)
		return g->inner.gpu(g->inner.ctx, name, out, err);
	engine_scenario_default(&t);
	rc = engine_knob_set(&t, engine_knob_find("gpu"), name, NULL, err);
	if (rc == NAPKIN_OK)
		*out = t.gpu;
	return rc;
}

void tui_gpu_wrap_catalog(struct tui_model *m, struct tui_gpu *g)
{
	if (g->wrapped)
		return;
	g->inner = m->cat;
	g->have_inner = m->have_cat;
	m->cat.ctx = m;
	m->cat.model = cat_model;
	m->cat.gpu = cat_gpu;
	m->have_cat = true;
	g->wrapped = true;
}

#else /* no probe module in this build */

void tui_gpu_fini(struct tui_model *m)
{
	(void)m;
}

bool tui_gpu_probing(const struct tui_model *m)
{
	(void)m;
	return false;
}

int tui_gpu_measured_count(const struct tui_model *m)
{
	(void)m;
	return 0;
}

const struct engine_gpu *tui_gpu_measured(const struct tui_model *m, int i)
{
	(void)m;
	(void)i;
	return NULL;
}

bool tui_gpu_datasheet(const struct tui_model *m, struct engine_gpu *out)
{
	(void)m;
	(void)out;
	return false;
}

#endif
