/*
 * fuzz_units: the unit parser (engine_unit_parse, for every unit: "7B", "4k", "80GiB",
 * "3.35 TB/s", "40%", "2h") and knob text (engine_knob_set, for every knob).
 * Properties: a parsed number is finite; its formatted text shows no NaN or infinity; an
 * error says why; a knob's canonical text (engine_knob_format) is accepted back and gives
 * the same value.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "engine.h"
#include "fuzz.h"
#include "presets.h"

#define MAX_TEXT 256

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	fuzz_isolate();
	fuzz_registry();
	return 0;
}

static void formats(enum engine_unit u, double v)
{
	char buf[64];

	engine_unit_format(u, v, buf, sizeof buf);
	fuzz_require(!fuzz_text_nonfinite(buf, strlen(buf)), "engine_unit_format shows NaN or infinity");
	engine_fmt_bytes(v, true, buf, sizeof buf);
	engine_fmt_bytes(v, false, buf, sizeof buf);
	engine_fmt_count(v, buf, sizeof buf);
	engine_fmt_seconds(v, buf, sizeof buf);
	engine_fmt_si(v, "FLOP/s", buf, sizeof buf);
}

static void units(const char *text)
{
	int u;

	for (u = ENGINE_UNIT_NONE; u <= ENGINE_UNIT_BYTES_PER_PARAM; u++) {
		struct napkin_err err = {0};
		double v = -12345.0;
		int rc = engine_unit_parse((enum engine_unit)u, text, &v, &err);
		if (rc != NAPKIN_OK) {
			fuzz_require_error(rc, &err, "engine_unit_parse");
			fuzz_require(v == -12345.0, "a failed parse changed its output");
			continue;
		}
		fuzz_require(isfinite(v), "engine_unit_parse returned a number that is not finite");
		formats((enum engine_unit)u, v);
	}
}

static void knobs(const char *text, const struct engine_catalog *cat, struct engine_scenario *sc)
{
	size_t n, i;
	const struct engine_knob *k = engine_knobs(&n);

	for (i = 0; i < n; i++) {
		struct napkin_err err = {0};
		char canon[128], shown[128];
		int rc;
		engine_scenario_default(&sc[0]);
		sc[1] = sc[0];
		rc = engine_knob_set(&sc[0], &k[i], text, cat, &err);
		if (rc != NAPKIN_OK) {
			fuzz_require_error(rc, &err, "engine_knob_set");
			continue;
		}
		fuzz_require(isfinite(engine_knob_value(&sc[0], &k[i])), "a knob holds a value that is not finite");
		engine_knob_display(&sc[0], &k[i], shown, sizeof shown);
		fuzz_require(!fuzz_text_nonfinite(shown, strlen(shown)), "a knob shows NaN or infinity");
		if (k[i].type == ENGINE_KNOB_NAME)
			continue;
		engine_knob_format(&sc[0], &k[i], canon, sizeof canon);
		util_err_clear(&err);
		rc = engine_knob_set(&sc[1], &k[i], canon, cat, &err);
		if (rc != NAPKIN_OK)
			fprintf(stderr, "fuzz_units: --%s '%s' -> '%s': %s\n", k[i].key, text, canon, err.msg);
		fuzz_require(rc == NAPKIN_OK, "a knob's canonical text is refused");
		if (engine_knob_value(&sc[0], &k[i]) != engine_knob_value(&sc[1], &k[i]))
			fprintf(stderr, "fuzz_units: --%s '%s' -> %.17g, its text '%s' -> %.17g\n", k[i].key, text,
				engine_knob_value(&sc[0], &k[i]), canon, engine_knob_value(&sc[1], &k[i]));
		fuzz_require(engine_knob_value(&sc[0], &k[i]) == engine_knob_value(&sc[1], &k[i]),
			     "a knob's canonical text gives another value");
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct preset_registry *reg = fuzz_registry();
	struct engine_catalog cat = preset_catalog(reg);
	struct engine_scenario *sc;
	char *text;

	if (size > MAX_TEXT || fuzz_names_system_path(data, size))
		return 0;
	text = fuzz_cstr(data, size);
	sc = calloc(2, sizeof *sc);
	fuzz_require(sc != NULL, "out of memory");
	units(text);
	knobs(text, &cat, sc);
	preset_warnings_clear(reg);
	free(sc);
	free(text);
	return 0;
}
