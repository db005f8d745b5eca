#include "testengine.h"

#include <string.h>

#include "testutil.h"

void te_set(struct engine_scenario *sc, const char *key, const char *value)
{
	struct napkin_err err;
	const struct engine_knob *k = engine_knob_find(key);

	if (k == NULL)
		fail_msg("no knob %s", key);
	util_err_clear(&err);
	if (engine_knob_set(sc, k, value, NULL, &err) != NAPKIN_OK)
		fail_msg("set %s=%s: %s", key, value, err.msg);
}

void te_evaluate(const struct engine_scenario *sc, struct engine_result *r)
{
	struct napkin_err err;

	util_err_clear(&err);
	if (engine_evaluate(sc, r, &err) != NAPKIN_OK)
		fail_msg("evaluate: %s", err.msg);
}

bool te_warned(const struct engine_result *r, const char *text)
{
	int i;

	for (i = 0; i < r->n_warnings; i++)
		if (strstr(r->warnings[i], text) != NULL)
			return true;
	return false;
}
