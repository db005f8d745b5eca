/*
 * The explorer's options, one table for every command that opens the explorer (napkin,
 * napkin explore, napkin lesson): the theme, colour, mouse, the language of lessons and
 * the GPU probe's deadline. A command adds the rows to its own options, parses, then
 * checks the values into struct tui_options.
 */
#ifndef NAPKIN_CLI_EXPLORE_OPTS_H
#define NAPKIN_CLI_EXPLORE_OPTS_H

#include <stdbool.h>
#include <stddef.h>

#include "cli.h"
#include "tui.h"

/* The values as parsed (argv-owned strings); cli_explore_opts_init sets the defaults. */
struct cli_explore_opts {
	const char *theme, *probe_timeout;
	const char *lang; /* not an option here: main takes --lang for every command; this is its code */
	bool no_color, no_mouse;
};

#define CLI_EXPLORE_NOPTS 4 /* the rows cli_explore_opts_add writes */

void cli_explore_opts_init(struct cli_explore_opts *o);
/* Writes the table's rows, bound to o, at opts[at..] and a NULL row after them (opts must
 * have room for at + CLI_EXPLORE_NOPTS + 1 rows). Returns the rows now in opts. */
size_t cli_explore_opts_add(struct cli_explore_opts *o, struct cli_opt *opts, size_t at);
/* Whether argv names one of the explorer's options (napkin without a command, off a
 * terminal: the explorer's report rather than `report` refusing them). */
bool cli_explore_opts_named(int argc, char **argv);
/* Checks the values and fills out's theme, colour, mouse, lang and probe timeout (the
 * rest of out is left as it is). Returns 0, or CLI_EXIT_USAGE with "napkin CMD: --opt:
 * ..." printed. */
int cli_explore_opts_check(const char *cmd, const struct cli_explore_opts *o, struct tui_options *out);

#endif
