/*
 * Ranges (tradeoff.h): KNOB=FROM..TO[:xFACTOR|:+STEP] parsed, checked by their true point
 * count in closed form before any point is computed, walked, and written back; a knob's
 * default range. sweep.c evaluates a scenario along them.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "internal.h"
#include "tradeoff.h"

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
