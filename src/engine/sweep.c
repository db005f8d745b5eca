/*
 * Metrics and sweeps (tradeoff.h): one scenario evaluated along one or two knob ranges
 * (range.c parses and walks them). A point is base with the range knobs set through
 * engine_knob_set, adapted and evaluated, so it is the very scenario `napkin report` builds
 * from the same flags.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "internal.h"
#include "tradeoff.h"

/* ---------------------------------------------------------------- metrics */

#define NEXTRA 2 /* memory.fits, compute.cost; then the step parts */

static const char *const part_keys[ENGINE_STEP_PARTS] = {
	"compute.step_breakdown.matmul",  "compute.step_breakdown.attention", "compute.step_breakdown.elementwise",
	"compute.step_breakdown.recompute", "compute.step_breakdown.optimizer", "compute.step_breakdown.tp_comm",
	"compute.step_breakdown.cp_comm", "compute.step_breakdown.ep_comm",   "compute.step_breakdown.pp_comm",
	"compute.step_breakdown.dp_comm", "compute.step_breakdown.bubble",    "compute.step_breakdown.offload",
};

bool engine_metric_at(size_t i, struct engine_metric *m)
{
	size_t n;
	const struct engine_result_def *d = engine_results(&n);

	memset(m, 0, sizeof *m);
	if (i < n) {
		m->key = d[i].key;
		m->label = d[i].label;
		m->unit = d[i].unit;
		m->kind = ENGINE_METRIC_TABLE;
		m->def = &d[i];
		m->better = d[i].better;
		m->solve = strcmp(d[i].key, "memory.max_batch") == 0 || strcmp(d[i].key, "memory.min_gpus") == 0 ||
			   strcmp(d[i].key, "memory.max_params") == 0 || strcmp(d[i].key, "inference.max_concurrent") == 0;
		return true;
	}
	i -= n;
	if (i == 0) {
		m->key = "memory.fits";
		m->label = N_("fits");
		m->unit = ENGINE_UNIT_NONE;
		m->kind = ENGINE_METRIC_FITS;
		m->better = ENGINE_BETTER_HIGHER;
		return true;
	}
	if (i == 1) {
		m->key = "compute.cost";
		m->label = N_("cost");
		m->unit = ENGINE_UNIT_NONE;
		m->kind = ENGINE_METRIC_COST;
		m->better = ENGINE_BETTER_LOWER;
		return true;
	}
	i -= NEXTRA;
	if (i < ENGINE_STEP_PARTS) {
		m->key = part_keys[i];
		m->label = engine_step_part_label((int)i);
		m->unit = ENGINE_UNIT_SECONDS;
		m->kind = ENGINE_METRIC_STEP_PART;
		m->part = (int)i;
		m->better = ENGINE_BETTER_LOWER;
		return true;
	}
	return false;
}

int engine_metric_find(const char *key, struct engine_metric *m, struct napkin_err *err)
{
	return engine_metric_find_tr(key, NULL, m, err);
}

int engine_metric_find_tr(const char *key, const struct engine_tr *tr, struct engine_metric *m, struct napkin_err *err)
{
	const char *names[128], *hit[3];
	size_t i, n = 0, nh, pos;
	struct engine_metric t;
	char near[200];

	for (i = 0; engine_metric_at(i, &t); i++) {
		if (strcmp(t.key, key) == 0) {
			*m = t;
			return NAPKIN_OK;
		}
		if (n < 127)
			names[n++] = t.key;
	}
	names[n] = NULL;
	nh = util_suggest_all(key, names, hit, 3, NULL);
	near[0] = '\0';
	pos = 0;
	for (i = 0; i < nh; i++)
		util_bprintf(near, sizeof near, &pos, "%s%s", i == 0 ? "" : i + 1 == nh ? eng_tr(tr, N_(" or ")) : eng_tr(tr, N_(", ")),
			     hit[i]);
	if (nh > 0)
		return eng_err(err, tr, NAPKIN_EINVAL,
			       N_("'%.60s' is not a result (did you mean %s?); results are the JSON report's keys: memory.total, "
				  "memory.fits, compute.step_seconds, compute.train_days, compute.mfu, "
				  "compute.step_breakdown.dp_comm, inference.decode_tokens_per_s, ... (%zu in all)"),
			       key, near, n);
	return eng_err(err, tr, NAPKIN_EINVAL,
		       N_("'%.60s' is not a result; results are the JSON report's keys: memory.total, memory.fits, "
			  "compute.step_seconds, compute.train_days, compute.mfu, compute.step_breakdown.dp_comm, "
			  "inference.decode_tokens_per_s, ... (%zu in all)"),
		       key, n);
}

double engine_metric_value(const struct engine_result *r, const struct engine_metric *m)
{
	switch (m->kind) {
	case ENGINE_METRIC_TABLE: {
		double v = engine_result_value(r, m->def);
		/* an open load beyond what the replica completes has no steady state: its serving
		 * times and a user's tokens/s read 0 in the result (docs/report-schema.md; the
		 * report prints "-"), which a sweep's table and curve would show as the best
		 * latency; no value instead */
		if (r->serving.rate_saturated && v == 0.0 && strncmp(m->def->key, "serving.", 8) == 0 &&
		    (m->def->unit == ENGINE_UNIT_SECONDS || strcmp(m->def->key, "serving.tokens_per_s_user") == 0))
			return NAN;
		return v;
	}
	case ENGINE_METRIC_FITS: return r->memory.fits ? 1.0 : 0.0;
	case ENGINE_METRIC_COST: return r->compute.cost;
	case ENGINE_METRIC_STEP_PART: return engine_step_part(&r->compute.step, m->part);
	}
	return NAN;
}

size_t engine_metric_parts(const char *key, struct engine_metric *parts, size_t max)
{
	static const char *const memory_parts[] = {
		"memory.weights",     "memory.autocast_copies", "memory.master_weights", "memory.gradients",
		"memory.optimizer",   "memory.activations",     "memory.logits",         "memory.scratch",
		"memory.kv_cache",    "memory.overhead",
	};
	const char *const *keys;
	size_t n, i, w = 0;
	struct napkin_err err;

	if (strcmp(key, "memory.total") == 0) {
		keys = memory_parts;
		n = sizeof memory_parts / sizeof memory_parts[0];
	} else if (strcmp(key, "compute.step_seconds") == 0 || strcmp(key, "compute.step_seconds_predicted") == 0) {
		keys = part_keys;
		n = ENGINE_STEP_PARTS;
	} else {
		return 0;
	}
	for (i = 0; i < n && w < max; i++) {
		util_err_clear(&err);
		if (engine_metric_find(keys[i], &parts[w], &err) == NAPKIN_OK)
			w++;
	}
	return n;
}

/* ---------------------------------------------------------------- sweep */

static bool number_knob(const struct engine_knob *k)
{
	return k->type == ENGINE_KNOB_INT || k->type == ENGINE_KNOB_REAL;
}

/* What engine_knob_set does with the text of v, without the text: a number knob's field,
 * its range, the architecture bookkeeping and the given bit (a keystroke's sweep sets
 * thousands). */
static int set_value(struct engine_scenario *sc, const struct engine_knob *k, double v, struct napkin_err *err)
{
	struct engine_model before;

	if (!number_knob(k) || eng_knob_special(k) != SP_NONE) {
		char text[64];
		if (k->type == ENGINE_KNOB_INT)
			snprintf(text, sizeof text, "%lld", (long long)v);
		else
			snprintf(text, sizeof text, "%.17g", v);
		return engine_knob_set(sc, k, text, NULL, err);
	}
	if (!(v >= k->min && v <= k->max) || ((k->flags & ENGINE_KNOB_MIN_OPEN) && v <= k->min) ||
	    (k->type == ENGINE_KNOB_INT && v != floor(v))) {
		char allowed[160];
		engine_knob_allowed_tr(k, sc->tr, allowed, sizeof allowed);
		return eng_err(err, sc->tr, NAPKIN_EINVAL, N_("%s: %.10g is out of range; allowed: %s"), k->key, v, allowed);
	}
	if (k->flags & ENGINE_KNOB_ARCH)
		before = sc->model;
	if (k->type == ENGINE_KNOB_INT)
		*eng_f_int(sc, k) = (int64_t)v;
	else
		*eng_f_real(sc, k) = v;
	if (k->flags & ENGINE_KNOB_ARCH)
		eng_arch_changed(sc, &before);
	engine_knob_mark_given(sc, k, true);
	return NAPKIN_OK;
}

/* Strong scaling: grad_accum such that batch × grad_accum × dp is global (sequences per
 * step); an error when no whole grad_accum gives it exactly. */
static int keep_global_batch(struct engine_scenario *sc, double global, struct napkin_err *err)
{
	int64_t layout = sc->tp * sc->pp * sc->cp, dp, per;
	const struct engine_knob *ga = engine_knob_find("grad_accum");
	double m;

	/* a layout that does not divide the GPUs is the validation's to say */
	if (layout <= 0 || sc->gpus % layout != 0 || ga == NULL)
		return NAPKIN_OK;
	dp = sc->gpus / layout;
	per = sc->batch * dp;
	m = global / (double)per;
	if (!(m >= 1.0) || m != floor(m))
		return eng_err(err, sc->tr, NAPKIN_EINVAL,
			       N_("strong scaling keeps the global batch at %.0f sequences: batch %lld × dp %lld = %lld does "
				  "not divide it, so no whole grad_accum keeps it"),
			       global, (long long)sc->batch, (long long)dp, (long long)per);
	return set_value(sc, ga, m, err);
}

int engine_sweep_point_kept(const struct engine_scenario *base, const struct engine_knob *const *knobs,
			    const double *values, size_t n, double global_batch, bool solve,
			    struct engine_scenario *sc_out, struct engine_result *r, struct napkin_err *err)
{
	size_t i;
	int rc;

	*sc_out = *base;
	for (i = 0; i < n; i++)
		if ((rc = set_value(sc_out, knobs[i], values[i], err)) != NAPKIN_OK)
			return rc;
	engine_adapt(sc_out, NULL);
	if (global_batch > 0 && sc_out->mode == ENGINE_MODE_TRAIN) {
		if ((rc = keep_global_batch(sc_out, global_batch, err)) != NAPKIN_OK)
			return rc;
		engine_adapt(sc_out, NULL);
	}
	return solve ? engine_evaluate(sc_out, r, err) : engine_compute(sc_out, r, err);
}

int engine_sweep_point(const struct engine_scenario *base, const struct engine_knob *const *knobs,
		       const double *values, size_t n, bool solve, struct engine_scenario *sc_out,
		       struct engine_result *r, struct napkin_err *err)
{
	return engine_sweep_point_kept(base, knobs, values, n, 0.0, solve, sc_out, r, err);
}

size_t engine_sweep_run(const struct engine_scenario *base, const struct engine_sweep *sw, double *xs, double *ys,
			double *values, int *rc, size_t max_points, struct napkin_err *err)
{
	size_t nx, ny = 1, ix, iy, j, p = 0, total;
	bool solve = false, failed = false;
	const struct engine_knob *knobs[2];
	struct engine_scenario sc;
	struct engine_result r;
	struct napkin_err e2;

	if (sw->nrange < 1 || sw->nrange > 2)
		return (void)util_err_set(err, NAPKIN_EINVAL, "a sweep has one or two ranges"), 0;
	nx = engine_range_values(&sw->range[0], NULL, 0);
	if (sw->nrange == 2)
		ny = engine_range_values(&sw->range[1], NULL, 0);
	total = nx * ny;
	if (total == 0 || total > max_points)
		return (void)util_err_set(err, NAPKIN_EINVAL, "the sweep has %zu points; the buffers hold %zu", total,
					  max_points),
		       0;
	engine_range_values(&sw->range[0], xs, nx);
	if (sw->nrange == 2)
		engine_range_values(&sw->range[1], ys, ny);
	for (j = 0; j < sw->nmetrics; j++)
		solve = solve || sw->metrics[j].solve;
	knobs[0] = sw->range[0].knob;
	knobs[1] = sw->nrange == 2 ? sw->range[1].knob : NULL;
	util_err_clear(err);
	for (iy = 0; iy < ny; iy++)
		for (ix = 0; ix < nx; ix++, p++) {
			double v[2];
			int c;
			v[0] = xs[ix];
			v[1] = sw->nrange == 2 ? ys[iy] : 0.0;
			c = engine_sweep_point_kept(base, knobs, v, (size_t)sw->nrange, sw->keep_global_batch, solve, &sc, &r,
						    &e2);
			if (rc != NULL)
				rc[p] = c;
			if (c != NAPKIN_OK && !failed) {
				*err = e2;
				failed = true;
			}
			for (j = 0; j < sw->nmetrics; j++)
				values[p * sw->nmetrics + j] = c == NAPKIN_OK ? engine_metric_value(&r, &sw->metrics[j]) : NAN;
		}
	return total;
}
