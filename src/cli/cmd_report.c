/* napkin report: every result, as text (for a person) or data (JSON, YAML), or a
 * Markdown handout. */
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "i18n.h"

int cmd_report(int argc, char **argv)
{
	const char *format = "text";
	bool explain = false, ops = false;
	struct cli_opt opts[] = {
		{"format", "text|json|yaml|markdown", &format, NULL, N_("output format (json and yaml: the schema-1 contract)")},
		{"explain", NULL, NULL, &explain, N_("add every result's formula with its values and source")},
		{"ops", NULL, NULL, &ops, N_("each op of a layer on one GPU instead: FLOPs, bytes, intensity, bound and time "
					     "on the roofline (forward and backward, or prefill and decode)")},
		{NULL, NULL, NULL, NULL, NULL},
	};
	struct cli_setup s;
	struct engine_result r;
	struct napkin_err err;
	enum report_format fmt;
	int rc;

	rc = cli_setup("report", argc, argv, opts, &s, NULL, 0, NULL);
	if (rc != 0)
		return rc;
	if (s.help) {
		cli_print_usage(stdout, "napkin report [KNOBS] [--format text|json|yaml|markdown] [--explain] [--ops]");
		cli_print_opts(stdout, opts);
		printf("\n");
		cli_print_knobs(stdout);
		cli_setup_free(&s);
		return CLI_EXIT_OK;
	}
	if (report_format_parse(format, &fmt) != 0) {
		fprintf(stderr, _("napkin %s: --format: '%s' is not a format; allowed: %s\n"), "report", format,
			"text, json, yaml, markdown");
		cli_setup_free(&s);
		return CLI_EXIT_USAGE;
	}
	if (fmt == REPORT_JSON || fmt == REPORT_YAML)
		s.sc.tr = NULL; /* the schema-1 contract is English: warnings, verdicts, explanations */
	util_err_clear(&err);
	if (ops) {
		if (report_ops(stdout, fmt, &s.sc, &err) != NAPKIN_OK) {
			cli_error("report", &err);
			cli_setup_free(&s);
			return CLI_EXIT_USAGE;
		}
	} else if (engine_evaluate(&s.sc, &r, &err) != NAPKIN_OK) {
		cli_error("report", &err);
		cli_setup_free(&s);
		return CLI_EXIT_USAGE;
	}
	if (!ops) {
		switch (fmt) {
		case REPORT_TEXT: report_text(stdout, &s.sc, &r, explain, isatty(STDOUT_FILENO)); break;
		case REPORT_MARKDOWN: report_markdown(stdout, &s.sc, &r, explain); break;
		default: report_tree(stdout, fmt, &s.sc, &r, explain); break;
		}
	}
	cli_setup_free(&s);
	if (fflush(stdout) != 0 || ferror(stdout)) {
		cli_write_error("report");
		return CLI_EXIT_FAIL;
	}
	return CLI_EXIT_OK;
}
