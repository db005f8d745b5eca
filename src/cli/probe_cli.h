/* napkin probe's state and output, shared by cmd_probe.c, probe_text.c and probe_json.c;
 * not a public header. */
#ifndef NAPKIN_CLI_PROBE_CLI_H
#define NAPKIN_CLI_PROBE_CLI_H

#include <stdbool.h>
#include <stdio.h>

#include "engine.h"
#include "probe.h"

struct probe_cli {
	struct probe_report r;
	struct engine_gpu datasheet, profile;
	bool have_datasheet;
	const char *match;       /* "name" (matched by NVML's name) or "given" (--datasheet) */
	bool progress_shown;
};

/* The CUDA driver's version as "12.4" ("?" when unknown). */
void cli_probe_cuda_version(int v, char *buf, size_t n);
/* The report as text (probe_text.c): the device, the measurements beside the datasheet. */
void cli_probe_text_report(FILE *f, struct probe_cli *c, double timeout);
/* The report as JSON, schema 1 (probe_json.c). */
void cli_probe_json_report(FILE *f, const struct probe_cli *c);

#endif
