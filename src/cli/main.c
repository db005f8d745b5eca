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
#include "i18n.h"
#ifdef NAPKIN_HAVE_CMD_EXPLORE
#include "explore_opts.h"
#endif
#include "commands.h"

#ifndef NAPKIN_VERSION
#define NAPKIN_VERSION "0.0.0"
#endif

/* What the catalogue just loaded could not use (a NAPKIN_LOCALEDIR file refused, a
 * translation whose conversions differ from the English): one line each on stderr. */
static void lang_warnings(void)
{
	char w[1536];
	size_t i;

	for (i = 0; i18n_warning(i18n_get(), i, w, sizeof w) != NULL; i++)
		fprintf(stderr, _("napkin: warning: %s\n"), w);
}

/* --lang en|zh, taken out of argv wherever it is, before any command reads it: every
 * command speaks the language (docs/i18n.md). Without it, the environment's (LANGUAGE,
 * LC_ALL, LC_MESSAGES, LANG). Returns 0, or CLI_EXIT_USAGE with the reason printed. */
static int take_lang(int *argc, char **argv)
{
	const char *cmd = *argc >= 2 && argv[1][0] != '-' ? argv[1] : NULL, *value = NULL;
	enum i18n_lang lang = i18n_from_env();
	int i, j;

	for (i = 1; i < *argc; i++) {
		int take = 0;
		if (strcmp(argv[i], "--") == 0)
			break;
		if (strcmp(argv[i], "--lang") == 0) {
			if (i + 1 >= *argc) {
				i18n_set(lang); /* the environment's language says so */
				fprintf(stderr, _("napkin%s%s: --lang needs a value (en, zh)\n"), cmd ? " " : "", cmd ? cmd : "");
				return CLI_EXIT_USAGE;
			}
			value = argv[i + 1];
			take = 2;
		} else if (strncmp(argv[i], "--lang=", 7) == 0) {
			value = argv[i] + 7;
			take = 1;
		}
		if (take == 0)
			continue;
		for (j = i; j + take <= *argc; j++)
			argv[j] = argv[j + take];
		*argc -= take;
		i--;
	}
	if (value != NULL) {
		/* a language code napkin has no catalogue for (pt-BR) is English, as gettext does */
		if (!cli_lang_ok(value)) {
			i18n_set(lang);
			fprintf(stderr, _("napkin%s%s: --lang: '%s' is not a language code (en, zh, ...)\n"), cmd ? " " : "",
				cmd ? cmd : "", value);
			return CLI_EXIT_USAGE;
		}
		(void)i18n_lang_parse(value, &lang);
	}
	i18n_set(lang);
	lang_warnings();
	return 0;
}

int main(int argc, char **argv)
{
	const struct cli_command *c;
	int rc;

	/* Past the file-size limit (ulimit -f) a write fails with EFBIG, which the atomic writes
	 * report, instead of SIGXFSZ killing napkin with a temporary file left behind. */
	signal(SIGXFSZ, SIG_IGN);
	if ((rc = take_lang(&argc, argv)) != 0)
		return rc;
	if (argc >= 2 && (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0 || strcmp(argv[1], "help") == 0)) {
		cli_usage(stdout, NAPKIN_VERSION);
		return CLI_EXIT_OK;
	}
	if (argc == 2 && strcmp(argv[1], "--man") == 0)
		return cli_man(stdout, NAPKIN_VERSION) == 0 ? CLI_EXIT_OK : CLI_EXIT_FAIL;
	if (argc >= 2 && strcmp(argv[1], "--completion") == 0) {
		rc = cli_completion(stdout, argc == 3 ? argv[2] : NULL);
		if (rc == CLI_EXIT_USAGE)
			fprintf(stderr, _("napkin: --completion takes bash or zsh\n"));
		return rc;
	}
	if (argc >= 2 && (strcmp(argv[1], "--version") == 0 || strcmp(argv[1], "-V") == 0)) {
		printf("napkin %s\n", NAPKIN_VERSION);
		return CLI_EXIT_OK;
	}
	if (argc >= 2 && argv[1][0] != '-') {
		if ((c = cli_command_find(argv[1])) != NULL)
			return c->fn(argc - 1, argv + 1);
		fprintf(stderr, _("napkin: unknown command '%s'\n\n"), argv[1]);
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
