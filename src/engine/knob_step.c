/*
 * Stepping a knob by one notch, as the explorer's ←/→ do: powers of two for sizes, 1-2-5
 * for totals, the next choice for enums, and only to values the whole scenario accepts.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "internal.h"


static double step_125(double v, int dir)
{
	static const double cand[] = {1, 2, 5, 10};
	double e;
	int i;

	if (v <= 0)
		return dir > 0 ? 1.0 : 0.0;
	e = pow(10.0, floor(log10(v)));
	if (dir > 0) {
		for (i = 0; i < 4; i++)
			if (cand[i] * e > v * (1 + 1e-9))
				return cand[i] * e;
		return 20.0 * e;
	}
	for (i = 3; i >= 0; i--)
		if (cand[i] * e < v * (1 - 1e-9))
			return cand[i] * e;
	return 0.5 * e;
}

static double step_pow2(double v, int dir)
{
	double p;

	if (v < 1)
		return 1;
	p = pow(2.0, floor(log2(v)));
	if (dir > 0)
		return p * 2.0;
	return p < v ? p : p / 2.0;
}

static double derived_seed(const struct engine_scenario *sc, const struct engine_knob *k)
{
	struct engine_result r;

	eng_compute_core(sc, &r);
	if (strcmp(k->key, "tokens_per_s") == 0)
		return r.compute.tokens_per_s;
	if (strcmp(k->key, "step_time") == 0)
		return r.compute.step_seconds;
	if (strcmp(k->key, "achieved_flops") == 0)
		return r.compute.achieved_flops;
	if (strcmp(k->key, "peak_flops") == 0)
		return r.compute.peak;
	return 1.0;
}

static double nice_125(double v)
{
	double e = pow(10.0, floor(log10(v))), m = v / e;
	return (m < 1.5 ? 1 : m < 3.5 ? 2 : m < 7.5 ? 5 : 10) * e;
}

int engine_knob_step(struct engine_scenario *sc, const struct engine_knob *k, int dir,
		     const struct engine_catalog *cat, struct napkin_err *err)
{
	struct engine_scenario t = *sc;
	int tries, rc = NAPKIN_OK;
	char text[64];

	(void)cat;
	if (k->type == ENGINE_KNOB_NAME || eng_knob_special(k) == SP_PARAMS)
		return eng_err(err, sc->tr, NAPKIN_EINVAL, N_("%s: pick it from the list or type a value"), k->key);
	for (tries = 0; tries < 64; tries++) {
		switch (k->type) {
		case ENGINE_KNOB_BOOL:
			rc = engine_knob_set(&t, k, *eng_f_bool(&t, k) ? "off" : "on", cat, err);
			if (rc != NAPKIN_OK)
				return rc;
			break;
		case ENGINE_KNOB_ENUM: {
			/* canonical choices only: the first name of each value */
			const struct engine_choice *c = k->choices;
			int vals[32], nv = 0, i, cur, idx = 0;
			for (; c->name != NULL && nv < 32; c++) {
				bool dup = false;
				for (i = 0; i < nv; i++)
					dup = dup || vals[i] == c->value;
				if (!dup)
					vals[nv++] = c->value;
			}
			if (nv == 0)
				return eng_err(err, sc->tr, NAPKIN_EINVAL, N_("%s has no choices"), k->key);
			cur = (int)engine_knob_value(&t, k);
			for (i = 0; i < nv; i++)
				if (vals[i] == cur)
					idx = i;
			idx = (idx + (dir > 0 ? 1 : nv - 1)) % nv;
			snprintf(text, sizeof text, "%s", eng_choice_name(k->choices, vals[idx]));
			rc = engine_knob_set(&t, k, text, cat, err);
			if (rc != NAPKIN_OK)
				return rc;
			break;
		}
		case ENGINE_KNOB_INT: {
			double v = (double)*eng_f_int(&t, k), nv;
			if (k->step == ENGINE_STEP_POW2)
				nv = step_pow2(v, dir);
			else
				nv = v + (dir > 0 ? 1 : -1);
			if (nv < k->min || nv > k->max)
				return eng_err(err, sc->tr, NAPKIN_EINVAL, N_("%s: already at its %s (%g)"), k->key,
						    eng_tr(sc->tr, dir > 0 ? N_("maximum") : N_("minimum")), dir > 0 ? k->max : k->min);
			{
				struct engine_model before = t.model;
				*eng_f_int(&t, k) = (int64_t)nv;
				if (k->flags & ENGINE_KNOB_ARCH)
					eng_arch_changed(&t, &before);
			}
			break;
		}
		case ENGINE_KNOB_REAL: {
			double v = *eng_f_real(&t, k), nv;
			if (strcmp(k->key, "power_limit") == 0) {
				/* down from the card's TDP in steps of about 5% of it (700 W: 50 W); back up to
				 * the TDP is not given again (power.c holds the TDP above it) */
				double tdp = t.gpu.tdp_w, st, cur;
				if (tdp <= 0)
					return eng_err(err, sc->tr, NAPKIN_EINVAL, N_("%s: the GPU's profile gives no TDP"), k->key);
				st = nice_125(tdp / 20.0);
				cur = v > 0 && v < tdp ? v : tdp;
				if (dir > 0 && cur >= tdp)
					return eng_err(err, sc->tr, NAPKIN_EINVAL, N_("%s: already at its %s"), k->key,
						       eng_tr(sc->tr, N_("maximum")));
				nv = dir > 0 ? (floor(cur / st + 1e-9) + 1.0) * st : (ceil(cur / st - 1e-9) - 1.0) * st;
				if (nv < st)
					return eng_err(err, sc->tr, NAPKIN_EINVAL, N_("%s: already at its %s"), k->key,
						       eng_tr(sc->tr, N_("minimum")));
				*eng_f_real(&t, k) = nv >= tdp ? 0.0 : nv;
				break;
			}
			if (v == 0.0 && (k->flags & ENGINE_KNOB_ZERO_UNSET)) {
				if (dir < 0)
					return eng_err(err, sc->tr, NAPKIN_EINVAL, N_("%s: not given; step up to set it"), k->key);
				nv = nice_125(derived_seed(&t, k));
			} else if (k->step == ENGINE_STEP_125) {
				nv = step_125(v, dir);
			} else {
				double st = k->unit == ENGINE_UNIT_FRACTION ? 0.05 : 1.0;
				nv = floor(v / st + 0.5 + (dir > 0 ? 1 : -1)) * st;
				if (k->unit == ENGINE_UNIT_FRACTION && nv < st)
					nv = dir > 0 ? st : 0.01;
			}
			if ((k->flags & ENGINE_KNOB_ZERO_UNSET) && nv < k->min)
				nv = 0.0;
			else if (nv < k->min || nv > k->max)
				return eng_err(err, sc->tr, NAPKIN_EINVAL, N_("%s: already at its %s"), k->key,
						    eng_tr(sc->tr, dir > 0 ? N_("maximum") : N_("minimum")));
			*eng_f_real(&t, k) = nv;
			break;
		}
		default:
			return eng_err(err, sc->tr, NAPKIN_EINVAL, N_("%s cannot be stepped"), k->key);
		}
		engine_knob_mark_given(&t, k, true);
		engine_adapt(&t, NULL);
		rc = engine_validate(&t, err);
		if (rc == NAPKIN_OK) {
			*sc = t;
			return NAPKIN_OK;
		}
		if (k->type != ENGINE_KNOB_INT)
			return rc;
	}
	return rc;
}
