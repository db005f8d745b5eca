/*
 * hostile_save: writes what napkin writes, for tests/hostile/atomic_write.sh to do it on a
 * full disk, in a read-only directory, past the file-size limit.
 *
 *   hostile_save scenario PATH     a scenario (preset_scenario_save), batch 8 on a 70B model
 *   hostile_save bytes PATH N      N bytes through util_atomic_write
 *
 * Like napkin's main, SIGXFSZ is ignored, so a write past RLIMIT_FSIZE fails with EFBIG.
 * Prints the error on stderr. Exits 0 when written, 1 when refused, 2 on bad usage.
 */
#define _POSIX_C_SOURCE 200809L
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "presets.h"

static int save_scenario(const char *path)
{
	struct preset_registry *reg = NULL;
	struct preset_options o = {true, NULL};
	struct engine_scenario sc;
	struct engine_catalog cat;
	struct napkin_err err;
	struct engine_assign a[2];
	int rc;

	util_err_clear(&err);
	if (preset_registry_new(&reg, &o, &err) != NAPKIN_OK)
		goto fail;
	cat = preset_catalog(reg);
	engine_scenario_default(&sc);
	memset(a, 0, sizeof a);
	a[0].knob = engine_knob_find("model");
	a[0].text = "llama-2-70b";
	a[1].knob = engine_knob_find("batch");
	a[1].text = "8";
	if (engine_apply(&sc, a, 2, &cat, &err) != NAPKIN_OK)
		goto fail;
	if (preset_scenario_save(reg, path, &sc, &err) != NAPKIN_OK)
		goto fail;
	preset_registry_free(reg);
	return 0;
fail:
	rc = err.code;
	{
		char buf[1024];
		fprintf(stderr, "hostile_save: %s\n", util_err_format(&err, buf, sizeof buf));
	}
	preset_registry_free(reg);
	return rc != NAPKIN_OK ? 1 : 2;
}

static int save_bytes(const char *path, size_t n)
{
	char *data = malloc(n + 1);
	struct napkin_err err;
	int rc;

	if (data == NULL)
		return 2;
	memset(data, 'x', n);
	util_err_clear(&err);
	rc = util_atomic_write(path, data, n, &err);
	if (rc != NAPKIN_OK) {
		char buf[1024];
		fprintf(stderr, "hostile_save: %s\n", util_err_format(&err, buf, sizeof buf));
	}
	free(data);
	return rc != NAPKIN_OK ? 1 : 0;
}

int main(int argc, char **argv)
{
	signal(SIGXFSZ, SIG_IGN);
	if (argc == 3 && strcmp(argv[1], "scenario") == 0)
		return save_scenario(argv[2]);
	if (argc == 4 && strcmp(argv[1], "bytes") == 0)
		return save_bytes(argv[2], (size_t)strtoul(argv[3], NULL, 10));
	fprintf(stderr, "usage: hostile_save scenario PATH | bytes PATH N\n");
	return 2;
}
