/*
 * fuzz_cli: command-line parsing. The input, split on NUL bytes, is the argv of
 * `napkin report` (cli_setup: knob flags, --scenario, --presets, --help, the report's own
 * options); what parses is evaluated and reported as JSON and as text.
 * Properties: cli_setup returns 0 or a usage/failure status, never anything else; the
 * reports of whatever parsed show no NaN or infinity; everything is freed.
 *
 * Arguments may name files: inputs that name /dev, /proc and the like are skipped
 * (fuzz_names_system_path); libFuzzer runs in an empty directory.
 */
#define _POSIX_C_SOURCE 200809L
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "fuzz.h"

#define MAX_ARGS 48

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	fuzz_isolate();
	return 0;
}

static void report_check(const struct cli_setup *s, const char *format, bool explain)
{
	struct engine_result *r = calloc(1, sizeof *r);
	struct napkin_err err = {0};
	enum report_format fmt = REPORT_TEXT;
	char *text = NULL;
	size_t len = 0;
	FILE *f;

	fuzz_require(r != NULL, "out of memory");
	if (format != NULL && report_format_parse(format, &fmt) != 0)
		fmt = REPORT_JSON;
	if (engine_evaluate(&s->sc, r, &err) != NAPKIN_OK) {
		fuzz_require_error(-1, &err, "engine_evaluate");
		free(r);
		return;
	}
	f = open_memstream(&text, &len);
	fuzz_require(f != NULL, "open_memstream");
	if (fmt == REPORT_TEXT)
		report_text(f, &s->sc, r, explain, false);
	else if (fmt == REPORT_MARKDOWN)
		report_markdown(f, &s->sc, r, explain);
	else
		report_tree(f, fmt, &s->sc, r, explain);
	fclose(f);
	if (fuzz_text_nonfinite(text, len)) {
		fprintf(stderr, "%.*s\n", (int)len, text);
		fuzz_require(false, "a report shows NaN or infinity");
	}
	/* the JSON report always: it is the contract scripts rely on */
	if (fmt != REPORT_JSON) {
		free(text);
		text = NULL;
		f = open_memstream(&text, &len);
		fuzz_require(f != NULL, "open_memstream");
		report_tree(f, REPORT_JSON, &s->sc, r, false);
		fclose(f);
		fuzz_require(!fuzz_text_nonfinite(text, len), "the JSON report shows NaN or infinity");
	}
	free(text);
	free(r);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *buf, *argv[MAX_ARGS + 2];
	const char *format = NULL;
	bool explain = false;
	struct cli_opt opts[] = {
		{"format", "FORMAT", &format, NULL, "text, json, yaml or markdown"},
		{"explain", NULL, NULL, &explain, "explain every figure"},
		{NULL, NULL, NULL, NULL, NULL},
	};
	struct cli_setup s;
	size_t i, start = 0;
	int argc = 0, rc;

	if (fuzz_names_system_path(data, size))
		return 0;
	buf = fuzz_cstr(data, size);
	argv[argc++] = (char *)"report";
	for (i = 0; size > 0 && i <= size; i++) {
		if (i < size && buf[i] != '\0')
			continue;
		if (argc == MAX_ARGS + 1)
			break;
		argv[argc++] = buf + start;
		start = i + 1;
	}
	argv[argc] = NULL;
	fuzz_quiet_begin();
	rc = cli_setup("report", argc, argv, opts, &s, NULL, 0, NULL);
	fuzz_quiet_end();
	fuzz_require(rc == 0 || rc == CLI_EXIT_USAGE || rc == CLI_EXIT_FAIL, "cli_setup returned an unknown status");
	fuzz_note("  cli_setup: %d", rc);
	if (rc == 0) {
		if (!s.help)
			report_check(&s, format, explain);
		cli_setup_free(&s);
	}
	free(buf);
	return 0;
}
