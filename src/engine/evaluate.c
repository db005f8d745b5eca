/*
 * The engine's two entry points: engine_compute (validate, compute, check the measurement,
 * refuse non-finite results) and engine_evaluate (that, plus the solves and the techniques
 * table). They sit above every part they call; no part calls back into them.
 */
#include <math.h>
#include <stdint.h>
#include <string.h>

#include "internal.h"

/* Every figure of the result table finite. The integer ones always are; a double is not
 * when its exponent bits are all ones (IEEE 754 binary64: infinity or NaN), tested without a
 * branch a value, as this runs on every evaluation. */
static bool result_finite(const struct engine_result *r)
{
	const uint64_t exp = 0x7ff0000000000000u;
	const struct engine_result_def *defs;
	uint64_t bad = 0;
	size_t n, i;

	defs = engine_results(&n);
	for (i = 0; i < n; i++) {
		uint64_t bits;
		memcpy(&bits, (const char *)r + defs[i].offset, sizeof bits);
		bad |= (uint64_t)!defs[i].is_int & (uint64_t)((bits & exp) == exp);
	}
	return bad == 0;
}

int engine_compute(const struct engine_scenario *sc, struct engine_result *r, struct napkin_err *err)
{
	int rc = eng_validate_inputs(sc, err);

	if (rc != NAPKIN_OK)
		return rc;
	eng_compute_core(sc, r); /* computed once: the measurement check reads these results */
	if ((rc = eng_check_measurement(sc, r, err)) != NAPKIN_OK)
		return rc;
	if (!result_finite(r))
		return eng_err(err, sc->tr, NAPKIN_EINVAL,
				    N_("the results overflow (a figure is not finite): the knobs are beyond what "
				    "napkin can count; reduce the largest of them"));
	return NAPKIN_OK;
}

int engine_evaluate(const struct engine_scenario *sc, struct engine_result *r, struct napkin_err *err)
{
	int rc = engine_compute(sc, r, err);

	if (rc != NAPKIN_OK)
		return rc;
	r->memory.max_batch = engine_solve_max_batch(sc);
	/* serving capacity per replica: the most concurrent sequences at this context (the
	 * batch of a replica is the sequences it decodes together) */
	r->inference.max_concurrent = sc->mode != ENGINE_MODE_INFER ? ENGINE_NOT_SOLVED
				      : sc->serve_engine == ENGINE_SERVE_NONE ? r->memory.max_batch
									 : r->serving.max_concurrent;
	r->memory.min_gpus = engine_solve_min_gpus(sc, &r->memory.min_gpus_tp, &r->memory.min_gpus_pp,
						   &r->memory.min_gpus_dp);
	r->memory.max_params = engine_solve_max_params(sc);
	engine_techniques(sc, r);
	return NAPKIN_OK;
}
