/*
 * The command table (commands.c) and what is generated from it with the knob table: the
 * usage `napkin --help` prints, the man page (napkin --man) and the bash and zsh
 * completions (napkin --completion bash|zsh). Part of the napkin executable (the table
 * names the cmd_*.c the build compiled).
 */
#ifndef NAPKIN_CLI_COMMANDS_H
#define NAPKIN_CLI_COMMANDS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

struct cli_command {
	const char *name;
	int (*fn)(int argc, char **argv);
	const char *args;         /* positional arguments: "[KNOBS]", "[N|ID|FILE]", "" for none */
	const char *const *opts;  /* its options as its --help lists them, "--format text|json"; NULL-terminated */
	const char *summary;      /* one line */
	const char *subcommands;  /* words that may follow the command ("list show check"), or NULL */
	bool knobs;               /* takes the knob flags */
};

const struct cli_command *cli_commands(size_t *n);
const struct cli_command *cli_command_find(const char *name);

/* "napkin report [KNOBS] [--format text|json|yaml|markdown] ..." into buf. */
void cli_command_usage(const struct cli_command *c, char *buf, size_t n);
/* napkin --help. */
void cli_usage(FILE *f, const char *version);
/* The man page in roff (man(7)); returns 0, or 1 with the reason on stderr when a
 * command's --help and the table disagree. */
int cli_man(FILE *f, const char *version);
/* The completion script for "bash" or "zsh"; returns 0, or 2 for another shell. */
int cli_completion(FILE *f, const char *shell);

#endif
