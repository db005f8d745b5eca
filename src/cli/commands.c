/*
 * The command table: the one place that names napkin's commands, what each takes and what
 * it is for. main dispatches through it, `napkin --help` prints it, and the man page and the
 * shell completions are generated from it and the knob table (doc_man.c, doc_completion.c),
 * so none of them can drift from the others (tmux's cmd_table[] is the model).
 *
 * A row's opts are the command's own options exactly as its `--help` lists them ("--name
 * METAVAR"; a METAVAR of choices "a|b|c" is completed from them); --help is every
 * command's. The man page generator checks them against each command's --help and fails
 * the build when they differ: adding an option to a command is one line here too.
 *
 * The build defines NAPKIN_HAVE_CMD_X for each src/cli/cmd_x.c it compiles.
 */
#include <string.h>

#include "cli.h"
#include "i18n.h"
#include "commands.h"

/* the explorer's options (explore_opts.c): the same for every command that opens it */
#define EXPLORER_OPTS "--theme dark|light|projector|projector-light", "--no-color", "--no-mouse", "--probe-timeout SECONDS"
/* every command's: main takes it out of argv before the command runs (docs/i18n.md) */
#define LANG_OPT "--lang en|zh"
#ifdef NAPKIN_HAVE_CMD_EXPLORE
static const char *const explore_opts[] = {EXPLORER_OPTS, "--scenario FILE", "--presets DIR", LANG_OPT, NULL};
#endif
static const char *const report_opts[] = {"--format text|json|yaml|markdown|svg|png", "--figure roofline|memory", "--output FILE",
					  "--force", "--explain", "--ops", "--scenario FILE",
					  "--presets DIR", LANG_OPT, NULL};
static const char *const sweep_opts[] = {"--y RESULT,...", "--format text|csv|json|svg|png", "--output FILE", "--force", "--stack",
					 "--strong", "--scenario FILE",
					 "--presets DIR", LANG_OPT, NULL};
static const char *const compare_opts[] = {"--format text|json", "--scenario FILE", "--presets DIR", LANG_OPT, NULL};
static const char *const plan_opts[] = {"--goal time|gpu-hours|cost|gpus", "--deadline DAYS", "--sure", "--top N",
					"--memory-margin PERCENT", "--allow-tp-across-nodes",
					"--format text|json", "--scenario FILE", "--presets DIR", LANG_OPT, NULL};
#ifdef NAPKIN_HAVE_CMD_PRESETS
static const char *const presets_opts[] = {"--presets DIR", "--builtin", LANG_OPT, NULL};
#endif
#ifdef NAPKIN_HAVE_CMD_PROBE
static const char *const probe_opts[] = {"--format text|json", "--save FILE", "--device N", "--datasheet ID",
					 "--quick", "--timeout SECONDS", "--presets DIR", LANG_OPT, NULL};
#endif
#ifdef NAPKIN_HAVE_CMD_LESSON
static const char *const lesson_opts[] = {"--text", "--markdown", "--html", "--solutions", "--check", "--quiz", "--step K", "--plan MINUTES", "--report FILE", "--name NAME", "--force",
#ifdef NAPKIN_HAVE_TUI_LESSON
					  "--slides", EXPLORER_OPTS,
#endif
					  "--scenario FILE", "--presets DIR", LANG_OPT, NULL};
#endif

/* name, fn, args, opts, summary, subcommands, knobs */
static const struct cli_command commands[] = {
#ifdef NAPKIN_HAVE_CMD_EXPLORE
	{"explore", cmd_explore, "[KNOBS]", explore_opts, N_("the interactive explorer (the default on a terminal)"), NULL,
	 true},
#endif
	{"report", cmd_report, "[KNOBS]", report_opts, N_("every result, as text or data"), NULL, true},
	{"sweep", cmd_sweep, "KNOB=FROM..TO[:xFACTOR|:+STEP] [KNOB2=FROM..TO] [KNOBS]", sweep_opts,
	 N_("results along one knob (a curve) or two (a heatmap)"), NULL, true},
	{"compare", cmd_compare, "[KNOBS] --KNOB A,B,...", compare_opts,
	 N_("GPUs (or any knob's values) side by side, every figure a row"), NULL, true},
	{"plan", cmd_plan, "[KNOBS]", plan_opts, N_("the parallel layouts that fit, ranked by predicted time"), NULL, true},
#ifdef NAPKIN_HAVE_CMD_PRESETS
	{"presets", cmd_presets, "list [gpus|models|scenarios] | show ID|FILE | check FILE...", presets_opts,
	 N_("the GPU, model and scenario presets"), "list show check", false},
#endif
#ifdef NAPKIN_HAVE_CMD_PROBE
	{"probe", cmd_probe, "", probe_opts, N_("read and measure the GPU in this machine (CUDA)"), NULL, false},
#endif
#ifdef NAPKIN_HAVE_CMD_LESSON
	{"lesson", cmd_lesson, "[N|ID|FILE|all]", lesson_opts, N_("the guided tour of the chapter"), NULL, false},
#endif
};

const struct cli_command *cli_commands(size_t *n)
{
	*n = sizeof commands / sizeof commands[0];
	return commands;
}

const struct cli_command *cli_command_find(const char *name)
{
	size_t i;

	for (i = 0; i < sizeof commands / sizeof commands[0]; i++)
		if (strcmp(commands[i].name, name) == 0)
			return &commands[i];
	return NULL;
}
