/*
 * Solves: the largest micro-batch that fits, the fewest GPUs that fit, the largest model
 * of this shape family that fits. Each uses the memory model of memory.c directly.
 */
#include <math.h>
#include <string.h>

#include "internal.h"

static double total_at(const struct engine_scenario *sc, const struct eng_dims *dm, double dp, double batch)
{
	struct eng_mem m;

	/* context parallelism splits every sequence over cp ranks: each holds batch/cp worth */
	eng_memory(sc, dm, dp, sc->mode == ENGINE_MODE_TRAIN ? batch / (double)sc->cp : batch, &m);
	return m.total;
}

/* Memory is affine in the batch (activations, logits and KV cache grow with it, nothing
 * else does), so the answer is found from two evaluations and then checked. */
int64_t engine_solve_max_batch(const struct engine_scenario *sc)
{
	struct eng_dims dm;
	double dp = (double)(sc->gpus / (sc->tp * sc->pp * sc->cp)), cap = sc->gpu.memory_bytes;
	double m1, m2, slope;
	int64_t b;

	eng_dims_from_model(&sc->model, &dm);
	m1 = total_at(sc, &dm, dp, 1.0);
	if (m1 > cap)
		return 0;
	m2 = total_at(sc, &dm, dp, 2.0);
	slope = m2 - m1;
	if (!(slope > 0))
		return ENGINE_NO_LIMIT; /* nothing grows with the batch (activations not counted) */
	if ((cap - m1) / slope + 1 >= 10000000.0 && total_at(sc, &dm, dp, 10000000.0) <= cap)
		return ENGINE_NO_LIMIT; /* the knob's 10,000,000 fit: memory is not what limits it */
	b = (int64_t)floor((cap - m1) / slope) + 1;
	if (b > 10000000)
		b = 10000000;
	/* guard the rounding either way */
	while (b > 1 && total_at(sc, &dm, dp, (double)b) > cap)
		b--;
	while (b < 10000000 && total_at(sc, &dm, dp, (double)(b + 1)) <= cap)
		b++;
	return b;
}

#define MAX_GPUS 1048576

/* The layout with tp, pp and dp data-parallel ranks is one the scenario could run
 * (eng_validate_inputs: divisibility, ep within the data-parallel ranks). */
static bool layout_valid(const struct engine_scenario *t0, int64_t tp, int64_t pp, int64_t dp)
{
	struct engine_scenario t = *t0;
	struct napkin_err err;

	t.tp = tp;
	t.pp = pp;
	t.gpus = tp * pp * t0->cp * dp;
	t.prefill_replicas = t.decode_replicas = 0; /* aggregated replicas (serve_pd.c's split aside) */
	return eng_validate_inputs(&t, &err) == NAPKIN_OK;
}

/* Over tp and pp, the fewest data-parallel ranks that fit, at the scenario's cp and ep:
 * the layout uses tp·pp·cp·dp GPUs, and ep (expert parallelism runs within the
 * data-parallel ranks) needs dp to be a multiple of it. The answer is checked as the
 * scenario it would be, validation included. Virtual stages belong to a pipeline: a
 * layout with pp ≥ 2 keeps the scenario's vpp (and must hold pp × vpp layers), one with
 * pp 1 has no pipeline to interleave and runs with vpp 1 (Narayanan et al. 2021's
 * interleaved schedule splits each pipeline stage; without stages there is nothing to
 * split, and napkin's memory does not depend on vpp), so vpp never makes the fewest GPUs
 * more than a model needs without a pipeline. */
int64_t engine_solve_min_gpus(const struct engine_scenario *sc, int64_t *tp_out, int64_t *pp_out, int64_t *dp_out)
{
	struct engine_scenario t = *sc;
	struct eng_dims dm;
	double cap = sc->gpu.memory_bytes;
	int64_t best = -1, tp, pp, tp_max, cp = sc->cp, ep = sc->ep > 1 ? sc->ep : 1;

	eng_dims_from_model(&sc->model, &dm);
	/* a GPU's memory is a replica's: an xPyD split (serve_pd.c) would tie gpus to x + y */
	t.prefill_replicas = t.decode_replicas = 0;
	tp_max = sc->gpus_per_node < sc->model.heads ? sc->gpus_per_node : sc->model.heads;
	if (tp_max < sc->tp)
		tp_max = sc->tp;
	*tp_out = *pp_out = *dp_out = -1;
	for (tp = 1; tp <= tp_max; tp++) {
		if (sc->model.heads % tp != 0)
			continue;
		if (sc->model.kv_heads >= tp ? sc->model.kv_heads % tp != 0 : tp % sc->model.kv_heads != 0)
			continue;
		for (pp = 1; pp <= sc->model.layers && pp <= 1024; pp++) {
			double c0, c1, dpn;
			int64_t dp, n;
			if (sc->model.layers % pp != 0)
				continue;
			if (best > 0 && tp * pp * cp * ep > best)
				break; /* more GPUs than the best already */
			t.tp = tp;
			t.pp = pp;
			t.vpp = pp < 2 ? 1 : sc->vpp;
			t.gpus = tp * pp * cp * ep;
			/* the other checks do not depend on how many data-parallel ranks */
			if (!layout_valid(&t, tp, pp, ep))
				continue;
			/* memory = c0 + c1 / dp: what ZeRO shards, and what it does not */
			c0 = total_at(&t, &dm, 1e300, (double)sc->batch);
			if (c0 > cap)
				continue;
			c1 = total_at(&t, &dm, 1.0, (double)sc->batch) - c0;
			dpn = c1 > 0 ? ceil(c1 / (cap - c0)) : 1.0;
			if (dpn < 1)
				dpn = 1;
			if (dpn > (double)MAX_GPUS)
				continue;
			/* a whole number of expert-parallel groups */
			dp = ((int64_t)dpn + ep - 1) / ep * ep;
			while (dp > ep && total_at(&t, &dm, (double)(dp - ep), (double)sc->batch) <= cap)
				dp -= ep;
			while (total_at(&t, &dm, (double)dp, (double)sc->batch) > cap && dp <= MAX_GPUS)
				dp += ep;
			n = tp * pp * cp * dp;
			if (n > MAX_GPUS || !layout_valid(&t, tp, pp, dp))
				continue;
			/* the same count: prefer tensor over pipeline parallelism (no bubble) */
			if (best < 0 || n < best || (n == best && tp > *tp_out)) {
				best = n;
				*tp_out = tp;
				*pp_out = pp;
				*dp_out = dp;
			}
		}
	}
	return best;
}

/* Scaling depth and width together by s multiplies the layer parameters by about s³; the
 * largest s that fits is found by bisection on log s, and its exact count returned. */
double engine_solve_max_params(const struct engine_scenario *sc)
{
	struct eng_dims base, dm;
	struct engine_params p;
	double dp = (double)(sc->gpus / (sc->tp * sc->pp * sc->cp)), cap = sc->gpu.memory_bytes;
	double lo = -12.0, hi = 8.0; /* log2 of the scale */
	int i;

	eng_dims_from_model(&sc->model, &base);
	dm = base;
	eng_dims_scale(&dm, pow(2.0, lo));
	if (total_at(sc, &dm, dp, (double)sc->batch) > cap)
		return 0.0;
	dm = base;
	eng_dims_scale(&dm, pow(2.0, hi));
	if (total_at(sc, &dm, dp, (double)sc->batch) <= cap) {
		eng_params(&dm, &p);
		return p.total;
	}
	for (i = 0; i < 60; i++) {
		double mid = 0.5 * (lo + hi);
		dm = base;
		eng_dims_scale(&dm, pow(2.0, mid));
		if (total_at(sc, &dm, dp, (double)sc->batch) <= cap)
			lo = mid;
		else
			hi = mid;
	}
	dm = base;
	eng_dims_scale(&dm, pow(2.0, lo));
	eng_params(&dm, &p);
	return p.total;
}

void engine_fmt_max_batch(int64_t max_batch, char *buf, size_t n)
{
	engine_fmt_max_batch_tr(max_batch, NULL, buf, n);
}

void engine_fmt_max_batch_tr(int64_t max_batch, const struct engine_tr *tr, char *buf, size_t n)
{
	if (max_batch == ENGINE_NO_LIMIT)
		util_strlcpy(buf, eng_tr(tr, N_("no limit from memory")), n);
	else if (max_batch == 0)
		util_strlcpy(buf, eng_tr(tr, N_("none fits")), n);
	else if (max_batch < 0)
		util_strlcpy(buf, eng_tr(tr, N_("not solved")), n);
	else
		engine_fmt_int((double)max_batch, buf, n);
}
