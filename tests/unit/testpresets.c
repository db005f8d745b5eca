/* The preset tests' shared helper (testpresets.h). */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include "testpresets.h"

struct preset_registry *tp_builtin(void)
{
	struct preset_registry *reg = NULL;
	struct preset_options o = {true, NULL};
	struct napkin_err err;
	char buf[800];

	if (preset_registry_new(&reg, &o, &err) != NAPKIN_OK)
		fail_msg("registry: %s", util_err_format(&err, buf, sizeof buf));
	return reg;
}

void tp_scenario(struct engine_scenario *sc, const struct engine_catalog *cat, const char *model, const char *gpu)
{
	struct napkin_err e;

	engine_scenario_default(sc);
	util_err_clear(&e);
	if (engine_knob_set(sc, engine_knob_find("model"), model, cat, &e) != 0)
		fail_msg("model %s: %s", model, e.msg);
	if (engine_knob_set(sc, engine_knob_find("gpu"), gpu, cat, &e) != 0)
		fail_msg("gpu %s: %s", gpu, e.msg);
}
