/*
 * Metrics, ranges and sweeps (tradeoff.h): one scenario evaluated along one or two knob
 * ranges. A point is base with the range knobs set through engine_knob_set, adapted and
 * evaluated, so it is the very scenario `napkin report` builds from the same flags.
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
	case ENGINE_METRIC_TABLE: return engine_result_value(r, m->def);
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

/* ---------------------------------------------------------------- ranges */

static bool number_knob(const struct engine_knob *k)
{
	return k->type == ENGINE_KNOB_INT || k->type == ENGINE_KNOB_REAL;
}

static double clampd(double v, double lo, double hi)
{
	return v < lo ? lo : v > hi ? hi : v;
}

int engine_range_default(const struct engine_scenario *sc, const struct engine_knob *k, struct engine_range *r,
			 struct napkin_err *err)
{
	double v, lo;

	memset(r, 0, sizeof *r);
	r->knob = k;
	if (!number_knob(k))
		return eng_err(err, sc->tr, NAPKIN_EINVAL,
			       N_("%s is not a number knob: a sweep takes a range of numbers (napkin compare --%s a,b,... "
				  "puts its values side by side)"),
			       k->key, k->key);
	r->geometric = true;
	r->step = 2.0;
	if (strcmp(k->key, "batch") == 0) {
		/* 1 .. twice the largest micro-batch that fits, so the curve crosses the capacity */
		int64_t mb = engine_solve_max_batch(sc);
		double top = mb > 0 ? 2.0 * (double)mb : mb == 0 ? 8.0 : 1024.0;
		r->from = 1;
		r->to = clampd(eng_max(top, 8.0), 1, k->max);
		if (r->to <= 64) {
			r->geometric = false;
			r->step = 1;
		}
		return NAPKIN_OK;
	}
	if (strcmp(k->key, "seq") == 0) {
		r->from = 512;
		r->to = 131072;
		return NAPKIN_OK;
	}
	if (strcmp(k->key, "gpus") == 0) {
		r->from = 8;
		r->to = 4096;
		return NAPKIN_OK;
	}
	v = engine_knob_value(sc, k);
	lo = (k->flags & ENGINE_KNOB_MIN_OPEN) ? k->max / 20.0 : k->min;
	if (k->step == ENGINE_STEP_LINEAR || v <= 0) {
		/* a span of 16 steps from the bottom of the range (tp 1..16, mfu 0.05..0.8) */
		r->geometric = false;
		if (k->type == ENGINE_KNOB_INT) {
			r->from = eng_max(lo, 1);
			r->step = 1;
			r->to = eng_min(k->max, r->from + 15);
		} else {
			r->from = lo > 0 ? lo : k->max / 20.0;
			r->step = r->from;
			r->to = eng_min(k->max, r->from * 16);
		}
		return NAPKIN_OK;
	}
	r->from = clampd(v / 8.0, eng_max(lo, k->type == ENGINE_KNOB_INT ? 1 : lo), k->max);
	r->to = clampd(v * 8.0, r->from, k->max);
	if (k->type == ENGINE_KNOB_INT)
		r->from = eng_max(1, floor(r->from));
	return NAPKIN_OK;
}

/* what: a msgid marked N_() */
static int range_err(struct napkin_err *err, const struct engine_tr *tr, const char *text, const char *what)
{
	return eng_err(err, tr, NAPKIN_EINVAL,
		       N_("'%.80s': %s; a range is KNOB=FROM..TO, KNOB=FROM..TO:xFACTOR (geometric, factor > 1) or "
			  "KNOB=FROM..TO:+STEP (linear), or KNOB alone for its default"),
		       text, eng_tr(tr, what));
}

static int parse_end(const struct engine_knob *k, const char *s, size_t len, const struct engine_tr *tr, double *out,
		     struct napkin_err *err)
{
	char buf[64];
	struct napkin_err e2;

	if (len == 0 || len >= sizeof buf)
		return eng_err(err, tr, NAPKIN_EINVAL, N_("%s: a range needs both ends, FROM..TO"), k->key);
	memcpy(buf, s, len);
	buf[len] = '\0';
	if (engine_unit_parse_tr(k->unit, buf, tr, out, &e2) != NAPKIN_OK)
		return util_err_set(err, NAPKIN_EINVAL, "%s: '%s': %s", k->key, buf, e2.msg);
	if (!(k->flags & ENGINE_KNOB_ZERO_UNSET && *out == 0.0) &&
	    (*out < k->min || *out > k->max || ((k->flags & ENGINE_KNOB_MIN_OPEN) && *out <= k->min))) {
		char allowed[160];
		engine_knob_allowed_tr(k, tr, allowed, sizeof allowed);
		return eng_err(err, tr, NAPKIN_EINVAL, N_("%s: %s is out of range; allowed: %s"), k->key, buf, allowed);
	}
	if (k->type == ENGINE_KNOB_INT && *out != floor(*out))
		return eng_err(err, tr, NAPKIN_EINVAL, N_("%s: '%s' is not a whole number"), k->key, buf);
	return NAPKIN_OK;
}

static int range_check(const struct engine_scenario *sc, const struct engine_range *r, const char *text,
		       struct napkin_err *err);

int engine_range_parse(const struct engine_scenario *sc, const char *text, struct engine_range *r,
		       struct napkin_err *err)
{
	char key[64];
	const char *eq = strchr(text, '='), *dots, *colon;
	size_t kl = eq != NULL ? (size_t)(eq - text) : strlen(text);
	const struct engine_knob *k;
	int rc;

	if (kl == 0 || kl >= sizeof key)
		return range_err(err, sc->tr, text, N_("no knob named"));
	memcpy(key, text, kl);
	key[kl] = '\0';
	k = engine_knob_find(key);
	if (k == NULL) {
		const char *near = engine_knob_suggest(key);
		return eng_err(err, sc->tr, NAPKIN_EINVAL, N_("'%s' is not a knob%s%s%s (napkin sweep --help lists them)"), key,
			       near ? eng_tr(sc->tr, N_(" (did you mean ")) : "", near ? near : "",
			       near ? eng_tr(sc->tr, N_("?)")) : "");
	}
	if ((rc = engine_range_default(sc, k, r, err)) != NAPKIN_OK)
		return rc;
	if (eq == NULL)
		return NAPKIN_OK;
	dots = strstr(eq + 1, "..");
	if (dots == NULL)
		return range_err(err, sc->tr, text, N_("no '..' between FROM and TO"));
	colon = strchr(dots + 2, ':');
	if ((rc = parse_end(k, eq + 1, (size_t)(dots - eq - 1), sc->tr, &r->from, err)) != NAPKIN_OK ||
	    (rc = parse_end(k, dots + 2, colon != NULL ? (size_t)(colon - dots - 2) : strlen(dots + 2), sc->tr,
			   &r->to, err)) !=
		    NAPKIN_OK)
		return rc;
	if (r->from > r->to)
		return range_err(err, sc->tr, text, N_("FROM is larger than TO"));
	if (colon == NULL) {
		/* no step: every whole value of a short integer range, else doubling */
		if (k->type == ENGINE_KNOB_INT && r->to - r->from < 64) {
			r->geometric = false;
			r->step = 1;
		} else if (r->from > 0 && r->to / r->from >= 16) {
			r->geometric = true;
			r->step = 2;
		} else {
			r->geometric = false;
			r->step = (r->to - r->from) / 15.0;
			if (k->type == ENGINE_KNOB_INT)
				r->step = eng_max(1, ceil(r->step));
			if (r->step <= 0)
				r->step = 1;
		}
		return NAPKIN_OK;
	}
	{
		const char *s = colon + 1;
		double v;
		struct napkin_err e2;
		if (*s == 'x' || *s == 'X' || *s == '*') {
			if (engine_unit_parse(ENGINE_UNIT_NONE, s + 1, &v, &e2) != NAPKIN_OK || !(v > 1.0))
				return range_err(err, sc->tr, text, N_("the factor after :x must be a number above 1"));
			if (r->from <= 0)
				return range_err(err, sc->tr, text, N_("a geometric range must start above 0"));
			r->geometric = true;
		} else if (*s == '+') {
			if (engine_unit_parse(k->unit, s + 1, &v, &e2) != NAPKIN_OK)
				return range_err(err, sc->tr, text, N_("the step after :+ must be a number in the knob's units"));
			if (!(v > 0))
				return range_err(err, sc->tr, text, N_("the step must be above 0"));
			if (k->type == ENGINE_KNOB_INT && v != floor(v))
				return range_err(err, sc->tr, text, N_("an integer knob steps by whole numbers"));
			r->geometric = false;
		} else {
			return range_err(err, sc->tr, text, N_("the step is :xFACTOR or :+STEP"));
		}
		r->step = v;
	}
	return range_check(sc, r, text, err);
}

/* How many times the range's loop runs, in closed form: linear floor((to − from)/step) + 1,
 * geometric floor(log(to/from)/log(factor)) + 1, each with engine_range_values' tolerance
 * at the end. Infinite (HUGE_VAL) where the step is not a step. */
/* The slack at the end, for a `to` that the steps reach only in exact arithmetic
 * (0.1..0.9:+0.1): a billionth of `to`, but never a millionth of a step. */
static double range_tol(const struct engine_range *r)
{
	double spacing = r->geometric ? fabs(r->to) * (r->step - 1.0) : r->step;

	return eng_min(1e-9 * eng_max(fabs(r->to), 1.0), 1e-6 * spacing);
}

static double range_iterations(const struct engine_range *r)
{
	double tol = range_tol(r), n;

	if (!(r->step > 0) || (r->geometric && !(r->step > 1.0 && r->from > 0)) || !(r->from <= r->to))
		return 0.0;
	n = r->geometric ? floor(log((r->to + tol) / r->from) / log(r->step)) : floor((r->to + tol - r->from) / r->step);
	return isfinite(n) && n >= 0.0 ? n + 1.0 : HUGE_VAL;
}

/* The distinct points of a range, in closed form. A real knob's points are distinct once
 * its step moves from (range_check refuses one that does not); so are an integer knob's
 * on a linear range (whole steps). A geometric range of an integer knob is rounded: while
 * the factor adds less than 1 (below x = 1/(factor − 1)) the rounded points are every
 * whole number, above it they are distinct; so the count is the whole numbers from `from`
 * to min(to, x) and the iterations from there to `to`. */
static double range_points(const struct engine_range *r)
{
	double n = range_iterations(r), x, lo;

	if (!(n > 0) || !r->geometric || r->knob == NULL || r->knob->type != ENGINE_KNOB_INT)
		return n;
	x = 1.0 / (r->step - 1.0);
	if (!(x > r->from))
		return n;
	if (x >= r->to)
		return floor(r->to) - r->from + 1.0;
	lo = floor(x) - r->from + 1.0;
	return lo + floor(log(r->to / x) / log(r->step));
}

/* Ranges whose step cannot move the value, and ranges past ENGINE_RANGE_MAX_POINTS, are
 * refused by their true count, before any point is computed. */
static int range_check(const struct engine_scenario *sc, const struct engine_range *r, const char *text,
		       struct napkin_err *err)
{
	const struct engine_knob *k = r->knob;
	double np;
	char what[200], cnt[40];

	if (r->from < r->to) {
		if (k->type != ENGINE_KNOB_INT &&
		    (r->geometric ? r->from * r->step == r->from : r->from + r->step == r->from)) {
			snprintf(what, sizeof what,
				 eng_tr(sc->tr, r->geometric ? N_("the factor %.16g is below the resolution of %.10g (multiplying "
								  "by it leaves the value unchanged)")
							     : N_("the step %.3g is below the resolution of %.10g (adding it "
								  "leaves the value unchanged)")),
				 r->step, r->from);
			return range_err(err, sc->tr, text, what);
		}
	}
	/* exact where the range is short enough to walk (a walk is bounded by its points) */
	np = range_points(r);
	if (np <= ENGINE_RANGE_WALK_MAX)
		np = (double)engine_range_values(r, NULL, 0);
	if (np > ENGINE_RANGE_MAX_POINTS) {
		if (np < 1e15)
			snprintf(cnt, sizeof cnt, "%.0f", np);
		else
			snprintf(cnt, sizeof cnt, "%.3g", np);
		snprintf(what, sizeof what, eng_tr(sc->tr, N_("%s points, at most %d (a larger step, or :x2)")), cnt,
			 ENGINE_RANGE_MAX_POINTS);
		return range_err(err, sc->tr, text, what);
	}
	return NAPKIN_OK;
}

size_t engine_range_values(const struct engine_range *r, double *out, size_t max)
{
	size_t n = 0, i, iters;
	bool whole = r->knob != NULL && r->knob->type == ENGINE_KNOB_INT;
	double tol = range_tol(r), prev = NAN, it = range_iterations(r);

	if (whole && r->geometric && it > 0.0 && range_points(r) > ENGINE_RANGE_WALK_MAX) {
		double np = range_points(r);
		return np < (double)SIZE_MAX / 2 ? (size_t)np : SIZE_MAX / 2;
	}
	if (whole && r->geometric && it > 0.0) {
		/* a whole-number knob's geometric points, rounded: from one value the walk jumps
		 * to the first i whose point rounds to more, j = ceil(log((v + ½)/from)/log(factor)),
		 * so it takes as many steps as there are points (batch=1..8:x1.00000001 is 1, 2,
		 * ..., 8 in 8 steps, not 2e8), bounded by ENGINE_RANGE_WALK_MAX */
		double x, v, j, fi = 0.0;
		size_t steps;
		for (steps = 0; steps < (size_t)ENGINE_RANGE_WALK_MAX; steps++) {
			x = r->from * pow(r->step, fi);
			if (x > r->to + tol)
				return n;
			v = floor(x + 0.5);
			if (v != prev) {
				if (out != NULL && n < max)
					out[n] = v;
				prev = v;
				n++;
			}
			j = ceil(log((v + 0.5) / r->from) / log(r->step));
			fi = j > fi ? j : fi + 1.0;
		}
		return n; /* not reached for a range range_check accepts */
	}
	/* a range too long to walk is counted, not walked (the loop is bounded by its
	 * iterations, never by the distinct values it finds) */
	if (it > ENGINE_RANGE_WALK_MAX) {
		double np = range_points(r);
		return np < (double)SIZE_MAX / 2 ? (size_t)np : SIZE_MAX / 2;
	}
	iters = (size_t)it;
	/* point i is computed from i, not accumulated, so no rounding drifts */
	for (i = 0; i < iters; i++) {
		double v = r->geometric ? r->from * pow(r->step, (double)i) : r->from + (double)i * r->step;
		if (v > r->to + tol)
			break;
		if (whole)
			v = floor(v + 0.5);
		if (v == prev)
			continue;
		if (out != NULL && n < max)
			out[n] = v;
		prev = v;
		n++;
	}
	return n;
}

void engine_range_format(const struct engine_range *r, char *buf, size_t n)
{
	snprintf(buf, n, "%s=%.10g..%.10g:%s%.10g", r->knob ? r->knob->key : "?", r->from, r->to, r->geometric ? "x" : "+",
		 r->step);
}

/* ---------------------------------------------------------------- sweep */

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
