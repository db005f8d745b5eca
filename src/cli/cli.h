/*
 * cli: main, the command table, flag parsing and reports. The only code besides the TUI
 * that prints or exits.
 *
 * Exit statuses: 0 success; 1 a runtime failure (a file that cannot be written, ...);
 * 2 bad usage or a bad value (the message says which and what is allowed);
 * 3 no GPU (napkin probe); 130 the explorer left with Ctrl-C (128 + SIGINT, as shells expect).
 */
#ifndef NAPKIN_CLI_H
#define NAPKIN_CLI_H

#include <stdbool.h>
#include <stdio.h>

#include "engine.h"
#include "figure.h"
#include "presets.h"

#define CLI_EXIT_OK 0
#define CLI_EXIT_FAIL 1
#define CLI_EXIT_USAGE 2
#define CLI_EXIT_NODEV 3
#define CLI_EXIT_INTERRUPT 130

/* Commands: each gets its own argv, argv[0] being the command's name. */
int cmd_report(int argc, char **argv);
int cmd_explore(int argc, char **argv);
int cmd_presets(int argc, char **argv);
int cmd_probe(int argc, char **argv);
int cmd_lesson(int argc, char **argv);
int cmd_sweep(int argc, char **argv);
int cmd_compare(int argc, char **argv);
int cmd_plan(int argc, char **argv);

/* A command's own option. Options with a value store it in *value (argv-owned);
 * flags set *flag. */
struct cli_opt {
	const char *name;     /* without the leading "--" */
	const char *metavar;  /* NULL: a flag without value */
	const char **value;
	bool *flag;
	const char *help;
};

/* What every scenario-taking command sets up: the registry, then the default scenario,
 * then --scenario FILE, then the knob flags (all at once, all or nothing). */
#define CLI_SETUP_FLAGS_MAX 64
struct cli_setup {
	struct engine_scenario sc;
	struct preset_registry *reg;
	const char *scenario_path;
	const char *presets_dir;
	bool help;
	/* the knobs given as flags, with their text as typed */
	const struct engine_knob *flag_knob[CLI_SETUP_FLAGS_MAX];
	const char *flag_text[CLI_SETUP_FLAGS_MAX];
	int nflags;
	/* CLI_SETUP_UNCHECKED: whether sc as a whole is valid, and if not why */
	bool valid;
	struct napkin_err invalid;
};

/* Parses argv[1..]: knob flags (--key value or --key=value, - or _), --scenario FILE,
 * --presets DIR, --help, and opts. On error prints "napkin CMD: ..." on stderr and returns
 * CLI_EXIT_USAGE (or CLI_EXIT_FAIL); on success returns 0 and *out is ready (free it with
 * cli_setup_free). Positional arguments are refused unless positional is non-NULL (then
 * they are collected there, up to max_positional). */
/* The engine's translator for what a person reads (i18n's current language); cli_setup puts it
 * on the scenario. A command writing JSON or YAML sets sc.tr = NULL: contracts stay English. */
extern const struct engine_tr cli_tr;
int cli_setup(const char *cmd, int argc, char **argv, const struct cli_opt *opts, struct cli_setup *out,
	      const char **positional, int max_positional, int *n_positional);
/* cli_setup (no options, no positionals), except that a scenario whose values all parse but
 * which is not valid (gpus 8 with tp 3) is set up as it stands, unvalidated and adapted, with
 * the validation's message in *invalid and nothing printed: napkin compare keeps such a
 * value as a column that says why. invalid->code is 0 when the scenario is valid. */
int cli_setup_keep_invalid(const char *cmd, int argc, char **argv, struct cli_setup *out, struct napkin_err *invalid);
void cli_setup_free(struct cli_setup *s);
/* cli_setup with flags: CLI_SETUP_UNCHECKED keeps a scenario that is not valid as a whole
 * (each value is still checked as it is set), with s->valid false and s->invalid saying
 * why (napkin sweep validates each point with its swept value instead). */
#define CLI_SETUP_UNCHECKED 1u
int cli_setup_ex(const char *cmd, int argc, char **argv, const struct cli_opt *opts, struct cli_setup *out,
		 const char **positional, int max_positional, int *n_positional, unsigned flags);
/* The text a knob was given as a flag (--batch 5: "5"), or NULL. */
const char *cli_setup_flag(const struct cli_setup *s, const struct engine_knob *k);

/* Whether s reads as a language code (en, zh, pt-BR). */
bool cli_lang_ok(const char *s);
/* Prints an error as "napkin CMD: file:line:col: message". */
void cli_error(const char *cmd, const struct napkin_err *err);
/* Prints a --help's first line, "usage: SYNTAX" and a blank line, in the interface's language: the
 * syntax as typed, its later lines (indented for "usage: ") moved under the translated word. */
void cli_print_usage(FILE *f, const char *syntax);
/* Prints "napkin CMD: cannot write the output: <errno's reason>" (stdout failed: a full disk, a closed pipe). */
void cli_write_error(const char *cmd);
/* Prints the knob table as --help text. */
void cli_print_knobs(FILE *f);
/* Prints the command's options. */
void cli_print_opts(FILE *f, const struct cli_opt *opts);
/* The --lang line every command's --help shows (main takes the option), its help at width. */
void cli_print_lang(FILE *f, int width);

/* Text that fits the terminal (fit.c): the columns a line printed to f may take
 * (util_term_width of f, of stdout for a memory stream); text written with every line wider
 * than width broken by one rule (at spaces or between CJK characters, preferring " · ",
 * later lines hanging under the value column: fit.c says how). cli_fit_begin returns a
 * stream to write into (or out itself when memory is short), cli_fit_end writes what it
 * holds to out, fitted. cli_cut_note says once that a table left something out at this
 * width: "(cut to 80 columns: COLUMNS=120 shows all)". */
struct cli_fit {
	FILE *out, *mem;
	char *buf;
	size_t len;
	int width;
};
int cli_width(FILE *f);
void cli_fit_write(FILE *out, const char *text, size_t len, int width);
FILE *cli_fit_begin(struct cli_fit *ft, FILE *out, int width);
int cli_fit_end(struct cli_fit *ft);
void cli_cut_note(FILE *f, int width, int full);
/* Prose (a --help's paragraphs, blank lines between them) reflowed to width: each paragraph's
 * line breaks joined, then broken again where width says (util_text_break). */
void cli_print_prose(FILE *f, const char *text, int width);

/* Reports. */
enum report_format { REPORT_TEXT, REPORT_JSON, REPORT_YAML, REPORT_MARKDOWN };
int report_format_parse(const char *s, enum report_format *out);
void report_text(FILE *f, const struct engine_scenario *sc, const struct engine_result *r, bool explain, bool color);
void report_tree(FILE *f, enum report_format fmt, const struct engine_scenario *sc, const struct engine_result *r,
		 bool explain);
void report_markdown(FILE *f, const struct engine_scenario *sc, const struct engine_result *r, bool explain);
/* napkin report --ops: the per-op table of one layer (report_ops.c); markdown prints text. */
int report_ops(FILE *f, enum report_format fmt, const struct engine_scenario *sc, struct napkin_err *err);
/* --format svg (figure_out.c): one figure, drawn by src/figure, written to stdout (path NULL
 * or "-") or to path. A path that exists is refused ("nothing written") unless force; the
 * file is written whole or not at all. png: rendered by rsvg-convert (refused, saying so,
 * where it is not installed). Returns a CLI_EXIT_ status; errors are printed. */
struct cli_figure {
	enum figure_kind kind;
	const struct engine_scenario *sc;   /* roofline, memory */
	const struct engine_result *r;
	const struct figure_curve *curve;   /* sweep */
	const struct figure_heat *heat;     /* heatmap */
};
int cli_figure_out(const char *cmd, const char *path, bool force, bool png, const struct cli_figure *fg);

/* Parts of the data report, for reports made of several (napkin compare, napkin plan):
 * every member of one report into the current object, or one of its objects. */
struct emit;
void report_members(struct emit *e, const struct engine_scenario *sc, const struct engine_result *r, bool explain);
void report_scenario(struct emit *e, const struct engine_scenario *sc);
void report_memory(struct emit *e, const struct engine_result *r);
void report_compute(struct emit *e, const struct engine_scenario *sc, const struct engine_result *r);

#endif
