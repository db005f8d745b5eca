/* napkin explore: the interactive explorer (src/tui) with the scenario the flags set up. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "tui.h"

int cmd_explore(int argc, char **argv)
{
	const char *theme = "dark", *probe_timeout = NULL;
	bool no_color = false, no_mouse = false;
	struct cli_opt opts[] = {
		{"theme", "dark|light|projector", &theme, NULL, "colours: dark (default), light, or projector (high contrast, large bars)"},
		{"no-color", NULL, NULL, &no_color, "no colour (also when NO_COLOR is set); patterns keep the bars readable"},
		{"no-mouse", NULL, NULL, &no_mouse, "leave the mouse to the terminal (select and copy text)"},
		{"probe-timeout", "SECONDS", &probe_timeout, NULL, "stop a GPU probe (G) that takes longer (60)"},
		{NULL, NULL, NULL, NULL, NULL},
	};
	struct cli_setup s;
	struct tui_options o;
	struct napkin_err err;
	double timeout = 0.0;
	int rc;

	rc = cli_setup("explore", argc, argv, opts, &s, NULL, 0, NULL);
	if (rc != 0)
		return rc;
	if (s.help) {
		printf("usage: napkin explore [KNOBS] [--theme dark|light|projector] [--no-color] [--no-mouse]\n"
		       "                      [--probe-timeout SECONDS]\n\n"
		       "The explorer: knobs on the left, results on the right; ? inside lists every key.\n\n");
		cli_print_opts(stdout, opts);
		printf("\n");
		cli_print_knobs(stdout);
		rc = CLI_EXIT_OK;
		goto out;
	}
	if (!tui_theme_valid(theme)) {
		fprintf(stderr, "napkin explore: --theme: '%s' is not a theme; allowed: dark, light, projector\n", theme);
		rc = CLI_EXIT_USAGE;
		goto out;
	}
	if (probe_timeout != NULL) {
		char *end;
		errno = 0;
		timeout = strtod(probe_timeout, &end);
		if (errno || end == probe_timeout || *end || !(timeout >= 1 && timeout <= 3600)) {
			fprintf(stderr, "napkin explore: --probe-timeout: '%s' is not a number of seconds from 1 to 3600\n",
				probe_timeout);
			rc = CLI_EXIT_USAGE;
			goto out;
		}
	}
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
	memset(&o, 0, sizeof o);
	o.theme = theme;
	o.no_color = no_color;
	o.no_mouse = no_mouse;
	o.scenario_path = s.scenario_path;
	o.probe_timeout = timeout;
	util_err_clear(&err);
	if (tui_run(&s.sc, s.reg, &o, &err) != NAPKIN_OK) {
		cli_error("explore", &err);
		rc = CLI_EXIT_FAIL;
		goto out;
	}
	rc = CLI_EXIT_OK;
out:
	cli_setup_free(&s);
	return rc;
}
