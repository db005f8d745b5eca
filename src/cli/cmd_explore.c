/* napkin explore: the interactive explorer (src/tui) with the scenario the flags set up. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "i18n.h"
#include "explore_opts.h"
#include "tui.h"

int cmd_explore(int argc, char **argv)
{
	struct cli_explore_opts eo;
	struct cli_opt opts[CLI_EXPLORE_NOPTS + 1];
	struct cli_setup s;
	struct tui_options o;
	struct napkin_err err;
	int rc;

	cli_explore_opts_init(&eo);
	cli_explore_opts_add(&eo, opts, 0);
	rc = cli_setup("explore", argc, argv, opts, &s, NULL, 0, NULL);
	if (rc != 0)
		return rc;
	if (s.help) {
		cli_print_usage(stdout, "napkin explore [KNOBS] [--theme dark|light|projector|projector-light] [--no-color] [--no-mouse]\n"
					"                      [--lang en|zh] [--probe-timeout SECONDS]");
		cli_print_prose(stdout, _("The explorer: knobs on the left, results on the right; ? inside lists every key.\n"
			"q quits (status 0; with unsaved changes it asks first), Q at once. Ctrl-C quits at once\n"
			"(status 130, as shells expect of an interrupt) and leaves unsaved changes in napkin-unsaved.yaml.\n\n"), cli_width(stdout) < 100 ? cli_width(stdout) : 100);
		cli_print_opts(stdout, opts);
		printf("\n");
		cli_print_knobs(stdout);
		rc = CLI_EXIT_OK;
		goto out;
	}
	memset(&o, 0, sizeof o);
	rc = cli_explore_opts_check("explore", &eo, &o);
	if (rc != 0)
		goto out;
	if (!isatty(STDIN_FILENO) || !isatty(STDOUT_FILENO)) {
		/* not a terminal: the text report, as `napkin` without a command does */
		struct engine_result r;
		util_err_clear(&err);
		if (engine_evaluate(&s.sc, &r, &err) != NAPKIN_OK) {
			cli_error("explore", &err);
			rc = CLI_EXIT_USAGE;
			goto out;
		}
		report_text(stdout, &s.sc, &r, false, false);
		rc = CLI_EXIT_OK;
		goto out;
	}
	o.scenario_path = s.scenario_path;
	util_err_clear(&err);
	rc = tui_run(&s.sc, s.reg, &o, &err);
	if (rc == TUI_EXIT_INTERRUPT) {
		rc = CLI_EXIT_INTERRUPT;
		goto out;
	}
	if (rc != NAPKIN_OK) {
		cli_error("explore", &err);
		rc = CLI_EXIT_FAIL;
		goto out;
	}
	rc = CLI_EXIT_OK;
out:
	cli_setup_free(&s);
	return rc;
}
