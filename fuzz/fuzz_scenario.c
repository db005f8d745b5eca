/*
 * fuzz_scenario: a scenario (presets/scenarios/NAME.yaml), through preset_scenario_load_text
 * against the built-in presets, then the engine on what loaded.
 * Properties: a failed load leaves the scenario untouched and says why; a loaded scenario
 * evaluates to finite figures or a clear error; written back with preset_scenario_to_yaml
 * it loads again, to the same text.
 *
 * A scenario may name model and GPU files: inputs that name /dev, /proc and the like are
 * skipped (fuzz_names_system_path).
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz.h"
#include "presets.h"

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	fuzz_isolate();
	fuzz_registry();
	return 0;
}

static void evaluate(const struct engine_scenario *sc, struct engine_result *r)
{
	struct napkin_err err = {0};
	size_t n, i;
	const struct engine_result_def *defs;
	int rc = engine_evaluate(sc, r, &err);

	if (rc != NAPKIN_OK) {
		fuzz_require_error(rc, &err, "engine_evaluate");
		return;
	}
	defs = engine_results(&n);
	for (i = 0; i < n; i++)
		fuzz_require(isfinite(engine_result_value(r, &defs[i])), "a result that is not finite");
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct preset_registry *reg = fuzz_registry();
	struct engine_scenario *sc = calloc(3, sizeof *sc);
	struct engine_result *r = calloc(1, sizeof *r);
	struct napkin_err err = {0};
	char *y1 = NULL, *y2 = NULL;
	size_t n1 = 0, n2 = 0;
	int rc;

	fuzz_require(sc != NULL && r != NULL, "out of memory");
	if (fuzz_names_system_path(data, size))
		goto out;
	engine_scenario_default(&sc[0]);
	sc[1] = sc[0];
	rc = preset_scenario_load_text(reg, "fuzz-scenario.yaml", (const char *)data, size, &sc[0], &err);
	if (rc != NAPKIN_OK) {
		fuzz_require_error(rc, &err, "scenario");
		fuzz_require(memcmp(&sc[0], &sc[1], sizeof sc[0]) == 0, "a failed scenario load changed the scenario");
		goto out;
	}
	fuzz_note("  scenario: loaded");
	evaluate(&sc[0], r);
	if (preset_scenario_to_yaml(reg, &sc[0], &y1, &n1, &err) != NAPKIN_OK)
		goto out;
	engine_scenario_default(&sc[2]);
	rc = preset_scenario_load_text(reg, "fuzz-scenario-again.yaml", y1, n1, &sc[2], &err);
	if (rc != NAPKIN_OK)
		fprintf(stderr, "fuzz_scenario: %s:%d:%d: %s\n--- written ---\n%.*s\n", err.file, err.line, err.col,
			err.msg, (int)n1, y1);
	fuzz_require(rc == NAPKIN_OK, "a scenario written by preset_scenario_to_yaml does not load back");
	fuzz_require(preset_scenario_to_yaml(reg, &sc[2], &y2, &n2, &err) == NAPKIN_OK,
		     "a reloaded scenario cannot be written");
	if (n1 != n2 || memcmp(y1, y2, n1) != 0)
		fprintf(stderr, "--- first ---\n%.*s\n--- second ---\n%.*s\n", (int)n1, y1, (int)n2, y2);
	fuzz_require(n1 == n2 && memcmp(y1, y2, n1) == 0, "a scenario does not survive a write and a load");
out:
	preset_warnings_clear(reg);
	free(y1);
	free(y2);
	free(sc);
	free(r);
	return 0;
}
