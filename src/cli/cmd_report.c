/* napkin report: every result, as text (for a person) or data (JSON, YAML), or a
 * Markdown handout. */
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "i18n.h"

/* --format svg: the roofline or the memory bar from the same results as the report */
static int figure_report(struct cli_setup *s, const char *figure, const char *output, bool force, bool png, bool ops,
			 bool explain)
{
	struct cli_figure fg;
	struct engine_result r;
	struct napkin_err err;
	enum figure_kind kind = FIGURE_ROOFLINE;

	if (ops || explain) {
		fprintf(stderr, _("napkin report: --format svg draws a figure: --%s is for the text and data reports\n"),
			ops ? "ops" : "explain");
		return CLI_EXIT_USAGE;
	}
	if (figure != NULL && (!figure_kind_parse(figure, &kind) || (kind != FIGURE_ROOFLINE && kind != FIGURE_MEMORY))) {
		/* TRANSLATORS: %s: the figure asked for, then the allowed ones and where the others are */
		fprintf(stderr, _("napkin report: --figure: '%s' is not a figure of the report; allowed: %s (napkin sweep "
				  "--format svg draws the sweep and the heatmap)\n"),
			figure, "roofline, memory");
		return CLI_EXIT_USAGE;
	}
	util_err_clear(&err);
	if (engine_evaluate(&s->sc, &r, &err) != NAPKIN_OK) {
		cli_error("report", &err);
		return CLI_EXIT_USAGE;
	}
	memset(&fg, 0, sizeof fg);
	fg.kind = kind;
	fg.sc = &s->sc;
	fg.r = &r;
	return cli_figure_out("report", output, force, png, &fg);
}

int cmd_report(int argc, char **argv)
{
	const char *format = "text", *figure = NULL, *output = NULL;
	bool explain = false, ops = false, force = false;
	struct cli_opt opts[] = {
		{"format", "text|json|yaml|markdown|svg|png", &format, NULL,
		 N_("output format (json and yaml: the schema-1 contract; svg: a figure for slides, --figure; png: the same "
		    "through rsvg-convert)")},
		{"figure", "roofline|memory", &figure, NULL,
		 N_("with --format svg: the roofline (the default) or the memory bar, per GPU, in the --lang language")},
		{"output", "FILE", &output, NULL, N_("write to FILE instead of stdout (-o FILE; a file that exists needs --force)")},
		{"force", NULL, NULL, &force, N_("--output may replace a file that exists")},
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
		cli_print_usage(stdout, "napkin report [KNOBS] [--format text|json|yaml|markdown] [--explain] [--ops]\n"
					"       napkin report [KNOBS] --format svg|png [--figure roofline|memory] [--output FILE [--force]]");
		cli_print_opts(stdout, opts);
		printf("\n");
		cli_print_knobs(stdout);
		cli_setup_free(&s);
		return CLI_EXIT_OK;
	}
	if (strcmp(format, "svg") == 0 || strcmp(format, "png") == 0) {
		rc = figure_report(&s, figure, output, force, strcmp(format, "png") == 0, ops, explain);
		cli_setup_free(&s);
		return rc;
	}
	if (figure != NULL || output != NULL || force) {
		fprintf(stderr, _("napkin report: --%s goes with --format svg\n"),
			figure != NULL ? "figure" : output != NULL ? "output" : "force");
		cli_setup_free(&s);
		return CLI_EXIT_USAGE;
	}
	if (report_format_parse(format, &fmt) != 0) {
		fprintf(stderr, _("napkin %s: --format: '%s' is not a format; allowed: %s\n"), "report", format,
			"text, json, yaml, markdown, svg, png");
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
