/* napkin explore: the interactive explorer (src/tui) with the scenario the flags set up. */
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "tui.h"

int cmd_explore(int argc, char **argv)
{
	const char *theme = "dark";
	bool no_color = false, no_mouse = false;
	struct cli_opt opts[] = {
		{"theme", "dark|light|projector", &theme, NULL, "colours: dark (default), light, or projector (high contrast, large bars)"},
		{"no-color", NULL, NULL, &no_color, "no colour (also when NO_COLOR is set); patterns keep the bars readable"},
		{"no-mouse", NULL, NULL, &no_mouse, "leave the mouse to the terminal (select and copy text)"},
		{NULL, NULL, NULL, NULL, NULL},
	};
	struct cli_setup s;
	struct tui_options o;
	struct napkin_err err;
	int rc;

	rc = cli_setup("explore", argc, argv, opts, &s, NULL, 0, NULL);
	if (rc != 0)
		return rc;
	if (s.help) {
		printf("usage: napkin explore [KNOBS] [--theme dark|light|projector] [--no-color] [--no-mouse]\n\n"
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
