/*
 * napkin: resource accounting for LLM training and inference, in a terminal.
 * main dispatches to one command per file (tmux's cmd-*.c); with no command it starts the
 * explorer on a terminal, and prints the text report otherwise.
 */
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"

#ifndef NAPKIN_VERSION
#define NAPKIN_VERSION "0.0.0"
#endif

struct command {
	const char *name;
	int (*fn)(int argc, char **argv);
	const char *usage;
	const char *summary;
};

/* The build defines NAPKIN_HAVE_CMD_X for each src/cli/cmd_x.c it compiles. */
static const struct command commands[] = {
#ifdef NAPKIN_HAVE_CMD_EXPLORE
	{"explore", cmd_explore, "[KNOBS] [--theme dark|light|projector]", "the interactive explorer (the default on a terminal)"},
#endif
	{"report", cmd_report, "[KNOBS] [--format text|json|yaml|markdown] [--explain]", "every result, as text or data"},
#ifdef NAPKIN_HAVE_CMD_PRESETS
	{"presets", cmd_presets, "list [gpus|models|scenarios] | show ID | check FILE...", "the GPU, model and scenario presets"},
#endif
#ifdef NAPKIN_HAVE_CMD_PROBE
	{"probe", cmd_probe, "[--format text|json] [--save FILE]", "read and measure the GPU in this machine (CUDA)"},
#endif
#ifdef NAPKIN_HAVE_CMD_LESSON
	{"lesson", cmd_lesson, "[N]", "the guided tour of the chapter"},
#endif
};

static void usage(FILE *f)
{
	size_t i;

	fprintf(f, "napkin %s: resource accounting for LLM training and inference\n\n", NAPKIN_VERSION);
	fprintf(f, "usage:\n");
	fprintf(f, "  napkin [KNOBS]                      the explorer on a terminal, the text report otherwise\n");
	for (i = 0; i < sizeof commands / sizeof commands[0]; i++)
		fprintf(f, "  napkin %s %s\n      %s\n", commands[i].name, commands[i].usage, commands[i].summary);
	fprintf(f, "\nKNOBS are --key value (or --key=value), e.g. --model llama-2-7b --gpu h100-sxm --gpus 8\n"
		   "--batch 4 --seq 4k --precision mixed-bf16 --zero 1. `napkin report --help` lists every knob\n"
		   "with its unit, range and default. --scenario FILE starts from a saved scenario.\n");
}

int main(int argc, char **argv)
{
	size_t i;

	/* Past the file-size limit (ulimit -f) a write fails with EFBIG, which the atomic writes
	 * report, instead of SIGXFSZ killing napkin with a temporary file left behind. */
	signal(SIGXFSZ, SIG_IGN);
	if (argc >= 2 && (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0 || strcmp(argv[1], "help") == 0)) {
		usage(stdout);
		return CLI_EXIT_OK;
	}
	if (argc >= 2 && (strcmp(argv[1], "--version") == 0 || strcmp(argv[1], "-V") == 0)) {
		printf("napkin %s\n", NAPKIN_VERSION);
		return CLI_EXIT_OK;
	}
	if (argc >= 2 && argv[1][0] != '-') {
		for (i = 0; i < sizeof commands / sizeof commands[0]; i++)
			if (strcmp(argv[1], commands[i].name) == 0)
				return commands[i].fn(argc - 1, argv + 1);
		fprintf(stderr, "napkin: unknown command '%s'\n\n", argv[1]);
		usage(stderr);
		return CLI_EXIT_USAGE;
	}
	/* no command: the explorer on a terminal, the report otherwise */
#ifdef NAPKIN_HAVE_CMD_EXPLORE
	if (isatty(STDIN_FILENO) && isatty(STDOUT_FILENO)) {
		argv[0] = (char *)"explore";
		return cmd_explore(argc, argv);
	}
#endif
	argv[0] = (char *)"report";
	return cmd_report(argc, argv);
}
