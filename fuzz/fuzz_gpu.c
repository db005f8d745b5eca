/*
 * fuzz_gpu: a GPU profile as YAML (presets/gpus/NAME.yaml), through preset_gpu_from_text.
 * Properties: a failed load leaves the output untouched and says why; a loaded profile
 * written back with preset_gpu_to_yaml loads again, to the same text.
 */
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

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct preset_registry *reg = fuzz_registry();
	struct engine_gpu *g = calloc(2, sizeof *g), *before = calloc(1, sizeof *before);
	struct napkin_err err = {0};
	char *y1 = NULL, *y2 = NULL;
	size_t n1 = 0, n2 = 0;
	int rc;

	fuzz_require(g != NULL && before != NULL, "out of memory");
	engine_gpu_h100_sxm(&g[0]);
	*before = g[0];
	rc = preset_gpu_from_text(reg, "fuzz-gpu.yaml", (const char *)data, size, &g[0], &err);
	if (rc != NAPKIN_OK) {
		fuzz_require_error(rc, &err, "gpu");
		fuzz_require(memcmp(&g[0], before, sizeof *before) == 0, "a failed GPU load changed its output");
		goto out;
	}
	fuzz_note("  gpu: loaded");
	if (preset_gpu_to_yaml(&g[0], &y1, &n1, &err) != NAPKIN_OK)
		goto out;
	rc = preset_gpu_from_text(reg, "fuzz-gpu-again.yaml", y1, n1, &g[1], &err);
	if (rc != NAPKIN_OK)
		fprintf(stderr, "fuzz_gpu: %s:%d:%d: %s\n--- written ---\n%.*s\n", err.file, err.line, err.col, err.msg,
			(int)n1, y1);
	fuzz_require(rc == NAPKIN_OK, "a GPU written by preset_gpu_to_yaml does not load back");
	fuzz_require(preset_gpu_to_yaml(&g[1], &y2, &n2, &err) == NAPKIN_OK, "a reloaded GPU cannot be written");
	if (n1 != n2 || memcmp(y1, y2, n1) != 0)
		fprintf(stderr, "--- first ---\n%.*s\n--- second ---\n%.*s\n", (int)n1, y1, (int)n2, y2);
	fuzz_require(n1 == n2 && memcmp(y1, y2, n1) == 0, "a GPU does not survive a write and a load");
out:
	preset_warnings_clear(reg);
	free(y1);
	free(y2);
	free(g);
	free(before);
	return 0;
}
