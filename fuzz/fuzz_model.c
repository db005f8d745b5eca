/*
 * fuzz_model: a model as YAML (presets/models/NAME.yaml) or a Hugging Face config.json,
 * through preset_model_from_text (fuzz_hf runs the same code from config.json seeds).
 * Properties: a failed load leaves the output untouched and says why; a loaded model
 * written back with preset_model_to_yaml loads again, to the same text.
 */
#include <stdlib.h>
#include <string.h>

#include "fuzz.h"
#include "presets.h"

#ifndef FUZZ_MODEL_NAME
#define FUZZ_MODEL_NAME "fuzz-model.yaml"
#endif

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	fuzz_isolate();
	fuzz_registry();
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct preset_registry *reg = fuzz_registry();
	struct engine_model *m = calloc(2, sizeof *m), *before = calloc(1, sizeof *before);
	struct napkin_err err = {0};
	char *y1 = NULL, *y2 = NULL;
	size_t n1 = 0, n2 = 0;
	int rc;

	fuzz_require(m != NULL && before != NULL, "out of memory");
	engine_model_llama2_7b(&m[0]);
	*before = m[0];
	rc = preset_model_from_text(reg, FUZZ_MODEL_NAME, (const char *)data, size, &m[0], &err);
	if (rc != NAPKIN_OK) {
		fuzz_require_error(rc, &err, "model");
		fuzz_require(memcmp(&m[0], before, sizeof *before) == 0, "a failed model load changed its output");
		goto out;
	}
	fuzz_note("  model: loaded");
	if (preset_model_to_yaml(&m[0], &y1, &n1, &err) != NAPKIN_OK)
		goto out;
	rc = preset_model_from_text(reg, "fuzz-model-again.yaml", y1, n1, &m[1], &err);
	if (rc != NAPKIN_OK)
		fprintf(stderr, "fuzz_model: %s:%d:%d: %s\n--- written ---\n%.*s\n", err.file, err.line, err.col, err.msg,
			(int)n1, y1);
	fuzz_require(rc == NAPKIN_OK, "a model written by preset_model_to_yaml does not load back");
	fuzz_require(preset_model_to_yaml(&m[1], &y2, &n2, &err) == NAPKIN_OK, "a reloaded model cannot be written");
	if (n1 != n2 || memcmp(y1, y2, n1) != 0)
		fprintf(stderr, "--- first ---\n%.*s\n--- second ---\n%.*s\n", (int)n1, y1, (int)n2, y2);
	fuzz_require(n1 == n2 && memcmp(y1, y2, n1) == 0, "a model does not survive a write and a load");
out:
	preset_warnings_clear(reg);
	free(y1);
	free(y2);
	free(m);
	free(before);
	return 0;
}
