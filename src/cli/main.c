/*
 * napkin: resource accounting for LLM training and inference, in a terminal.
 * main dispatches through the command table (commands.c) to one command per file (tmux's
 * cmd-*.c); with no command it starts the explorer on a terminal, and prints the text
 * report otherwise. Two options the build uses, not listed in --help: --man prints the
 * man page and --completion bash|zsh a shell completion, both from the tables.
 */
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#ifdef NAPKIN_HAVE_CMD_EXPLORE
#include "explore_opts.h"
#endif
#include "commands.h"

#ifndef NAPKIN_VERSION
#define NAPKIN_VERSION "0.0.0"
#endif

int main(int argc, char **argv)
{
	const struct cli_command *c;

	/* Past the file-size limit (ulimit -f) a write fails with EFBIG, which the atomic writes
	 * report, instead of SIGXFSZ killing napkin with a temporary file left behind. */
	signal(SIGXFSZ, SIG_IGN);
	if (argc >= 2 && (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0 || strcmp(argv[1], "help") == 0)) {
		cli_usage(stdout, NAPKIN_VERSION);
		return CLI_EXIT_OK;
	}
	if (argc == 2 && strcmp(argv[1], "--man") == 0)
		return cli_man(stdout, NAPKIN_VERSION) == 0 ? CLI_EXIT_OK : CLI_EXIT_FAIL;
	if (argc >= 2 && strcmp(argv[1], "--completion") == 0) {
		int rc = cli_completion(stdout, argc == 3 ? argv[2] : NULL);
		if (rc == CLI_EXIT_USAGE)
			fprintf(stderr, "napkin: --completion takes bash or zsh\n");
		return rc;
	}
	if (argc >= 2 && (strcmp(argv[1], "--version") == 0 || strcmp(argv[1], "-V") == 0)) {
		printf("napkin %s\n", NAPKIN_VERSION);
		return CLI_EXIT_OK;
	}
	if (argc >= 2 && argv[1][0] != '-') {
		if ((c = cli_command_find(argv[1])) != NULL)
			return c->fn(argc - 1, argv + 1);
		fprintf(stderr, "napkin: unknown command '%s'\n\n", argv[1]);
		cli_usage(stderr, NAPKIN_VERSION);
		return CLI_EXIT_USAGE;
	}
	/* no command: the explorer on a terminal, the report otherwise */
#ifdef NAPKIN_HAVE_CMD_EXPLORE
	/* the explorer's options (--theme, ...) off a terminal: napkin explore prints the
	 * report then, as napkin does, rather than report refusing them */
	if ((isatty(STDIN_FILENO) && isatty(STDOUT_FILENO)) || cli_explore_opts_named(argc, argv)) {
		argv[0] = (char *)"explore";
		return cmd_explore(argc, argv);
	}
#endif
	argv[0] = (char *)"report";
	return cmd_report(argc, argv);
}
