/* The explorer's options (explore_opts.h): one table for napkin, explore and lesson. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "explore_opts.h"
#include "i18n.h"

void cli_explore_opts_init(struct cli_explore_opts *o)
{
	memset(o, 0, sizeof *o);
	o->theme = NULL; /* the explorer picks dark or light by the terminal's background */
	o->lang = i18n_code(i18n_get()); /* --lang, taken by main (docs/i18n.md) */
}

size_t cli_explore_opts_add(struct cli_explore_opts *o, struct cli_opt *opts, size_t at)
{
	const struct cli_opt rows[CLI_EXPLORE_NOPTS] = {
		{"theme", "dark|light|projector|projector-light", &o->theme, NULL,
		 N_("colours: dark, light, projector (high contrast, light on black) or projector-light (high contrast, black on white, for a bright room); by default the one that suits the terminal's background")},
		{"no-color", NULL, NULL, &o->no_color, N_("no colour (also when NO_COLOR is set); patterns keep the bars readable")},
		{"no-mouse", NULL, NULL, &o->no_mouse, N_("leave the mouse to the terminal (select and copy text)")},
		{"probe-timeout", "SECONDS", &o->probe_timeout, NULL, N_("stop a GPU probe (G) that takes longer (60)")},
	};
	size_t i;

	for (i = 0; i < CLI_EXPLORE_NOPTS; i++)
		opts[at + i] = rows[i];
	memset(&opts[at + i], 0, sizeof opts[0]);
	return at + i;
}

bool cli_explore_opts_named(int argc, char **argv)
{
	struct cli_explore_opts o;
	struct cli_opt rows[CLI_EXPLORE_NOPTS + 1];
	int i;
	size_t j;

	cli_explore_opts_add(&o, rows, 0);
	for (i = 1; i < argc; i++) {
		size_t len;
		if (strncmp(argv[i], "--", 2) != 0)
			continue;
		len = strcspn(argv[i] + 2, "=");
		for (j = 0; j < CLI_EXPLORE_NOPTS; j++)
			if (strlen(rows[j].name) == len && strncmp(argv[i] + 2, rows[j].name, len) == 0)
				return true;
	}
	return false;
}

int cli_explore_opts_check(const char *cmd, const struct cli_explore_opts *o, struct tui_options *out)
{
	double timeout = 0.0;

	if (o->theme != NULL && !tui_theme_valid(o->theme)) {
		fprintf(stderr, _("napkin %s: --theme: '%s' is not a theme; allowed: %s\n"), cmd, o->theme, "dark, light, projector, projector-light");
		return CLI_EXIT_USAGE;
	}
	if (o->probe_timeout != NULL) {
		char *end;
		errno = 0;
		timeout = strtod(o->probe_timeout, &end);
		if (errno || end == o->probe_timeout || *end || !(timeout >= 1 && timeout <= 3600)) {
			fprintf(stderr, _("napkin %s: --probe-timeout: '%s' is not a number of seconds from 1 to 3600\n"), cmd,
				o->probe_timeout);
			return CLI_EXIT_USAGE;
		}
	}
	out->theme = o->theme;
	out->no_color = o->no_color;
	out->no_mouse = o->no_mouse;
	out->lang = o->lang;
	out->probe_timeout = timeout;
	return 0;
}
