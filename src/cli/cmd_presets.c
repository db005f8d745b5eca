/*
 * napkin presets: list the GPU, model and scenario presets (and where each came from), show
 * one as napkin resolved it, check files. The library (src/presets) never prints: this is
 * where its errors and warnings are written out.
 *
 *   napkin presets list [gpus|models|scenarios]
 *   napkin presets show ID|FILE
 *   napkin presets check FILE...     exit 0 when all are good, 2 with every error listed
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cli.h"
#include "i18n.h"

#define CHECK_MAX_ERRORS 64

static void usage(FILE *f)
{
	/* TRANSLATORS: the command lines stay; align them under the first one's "napkin" */
	fputs(_("usage: napkin presets list [gpus|models|scenarios]\n"
		"       napkin presets show ID|FILE\n"
		"       napkin presets check FILE...\n\n"),
	      f);
	fprintf(f, "  list    %s\n", _("every preset: id, name, where it came from, key figures"));
	fprintf(f, "  show    %s\n",
		_("one preset (or a file: GPU, model, config.json or scenario) as napkin resolves it, in YAML"));
	fprintf(f, "  check   %s\n\n", _("checks files; prints each mistake as file:line:col: message, exits 2 if any"));
	fputs(_("options:\n"), f);
	fprintf(f, "  --presets DIR   %s\n", _("also search DIR (its gpus/, models/, scenarios/), last, so it wins"));
	fprintf(f, "  --builtin       %s\n", _("only the presets compiled into napkin (no search path)"));
	cli_print_lang(f, 15);
	fprintf(f, "  --help          %s\n\n", _("this help"));
	fputs(_("Search order (later wins): built in, the share directory, $XDG_CONFIG_HOME/napkin\n"
		"(~/.config/napkin), ./presets, --presets DIR. The formats are in presets/README.md.\n"),
	      f);
}

/* One warning ("file:line:col: warning: ..."), after "napkin presets: " on stderr. */
static void print_warning(FILE *f, const char *w)
{
	if (f == stderr)
		fprintf(f, _("napkin presets: %s\n"), w);
	else
		fprintf(f, "%s\n", w);
}

static void print_warnings(struct preset_registry *reg, FILE *f)
{
	size_t i;

	for (i = 0; i < preset_warning_count(reg); i++)
		print_warning(f, preset_warning(reg, i));
	preset_warnings_clear(reg);
}

/* The warnings, less those that say a search-path file was skipped when skip_broken. */
static void print_warnings_but(struct preset_registry *reg, FILE *f, bool skip_broken)
{
	size_t i, b;

	for (i = 0; i < preset_warning_count(reg); i++) {
		const char *w = preset_warning(reg, i);
		bool broken = false;
		for (b = 0; b < preset_broken_count(reg) && skip_broken && !broken; b++) {
			const char *file = preset_broken(reg, b)->file;
			broken = strncmp(w, file, strlen(file)) == 0 && w[strlen(file)] == ':';
		}
		if (!broken)
			print_warning(f, w);
	}
	preset_warnings_clear(reg);
}

/* ------------------------------------------------------------ list */

static const char *const kind_titles[PRESET_KIND_COUNT] = {NC_("presets list", "GPUs"), NC_("presets list", "Models"),
							    NC_("presets list", "Scenarios")};

static int kind_arg(const char *s, enum preset_kind *k)
{
	static const char *const names[PRESET_KIND_COUNT][2] = {{"gpus", "gpu"}, {"models", "model"},
								 {"scenarios", "scenario"}};
	int i;

	for (i = 0; i < PRESET_KIND_COUNT; i++)
		if (strcmp(s, names[i][0]) == 0 || strcmp(s, names[i][1]) == 0) {
			*k = (enum preset_kind)i;
			return 0;
		}
	return -1;
}

/* One line per preset: id, name, origin, summary, in columns by display width (a name or a
 * summary may be Chinese: printf's %-*s counts bytes). */
static void list_kind(struct preset_registry *reg, enum preset_kind kind)
{
	size_t i, n = preset_count(reg, kind), wid = 2, wname = 4, worigin = 8;
	char name[200], origin[80], sum[300], tail[1400];
	int width = cli_width(stdout);
	size_t sum_col, col;

	for (i = 0; i < n; i++) {
		const struct preset_info *p = preset_at(reg, kind, i);
		const char *o = C_("preset origin", preset_origin_name(p->origin));
		if (strlen(p->id) > wid)
			wid = strlen(p->id);
		if (util_text_width(p->name) > wname)
			wname = util_text_width(p->name);
		if (util_text_width(o) > worigin)
			worigin = util_text_width(o);
	}
	if (wname > 44)
		wname = 44;
	if (worigin > 20)
		worigin = 20;
	printf(C_("presets list", "%s (%zu)\n"), C_("presets list", kind_titles[kind]), n);
	sum_col = col = 2 + wid + 2 + wname + 2 + worigin + 2;
	for (i = 0; i < n; i++) {
		const struct preset_info *p = preset_at(reg, kind, i);
		size_t at = 0, pos = 0, room, k;
		if (sum_col - 2 > (size_t)width) { /* id, name and origin wider than the width: the id alone */
			printf("  %s\n    %s  %s\n", p->id, p->name, C_("preset origin", preset_origin_name(p->origin)));
			col = 4;
		} else if (col + 30 > (size_t)width) {
			printf("  %-*s  %s  %s\n", (int)wid, p->id, util_text_pad(name, sizeof name, p->name, wname),
			       C_("preset origin", preset_origin_name(p->origin)));
			col = 4 + wid;
		} else
			printf("  %-*s  %s  %s", (int)wid, p->id, util_text_pad(name, sizeof name, p->name, wname),
			       util_text_pad(origin, sizeof origin, C_("preset origin", preset_origin_name(p->origin)), worigin));
		util_bprintf(tail, sizeof tail, &pos, "%s", preset_summary(reg, p, sum, sizeof sum));
		if (p->origin != PRESET_BUILTIN)
			util_bprintf(tail, sizeof tail, &pos, "  [%s]", p->path);
		/* the summary (and the file) wrapped under its column; when that column leaves less
		 * than 30 columns, on lines of their own under the name */
		room = (size_t)width > col + 10 ? (size_t)width - col : 10;
		for (k = 0; tail[at] != '\0'; k++) {
			size_t b = util_text_break(tail + at, room, NULL);
			if (b == 0)
				b = strlen(tail + at);
			if (k == 0 && col == sum_col)
				printf("  %.*s\n", (int)b, tail + at);
			else
				printf("%*s%.*s\n", (int)col, "", (int)b, tail + at);
			at += b;
			while (tail[at] == ' ')
				at++;
		}
		col = sum_col;
	}
}

static int do_list(struct preset_registry *reg, int argc, char **argv)
{
	enum preset_kind k;
	int i;

	if (argc > 1) {
		fputs(_("napkin presets: list takes at most one kind (gpus, models or scenarios)\n"), stderr);
		return CLI_EXIT_USAGE;
	}
	if (argc == 1) {
		if (kind_arg(argv[0], &k) != 0) {
			fprintf(stderr, _("napkin presets: unknown kind '%s' (gpus, models or scenarios)\n"), argv[0]);
			return CLI_EXIT_USAGE;
		}
		list_kind(reg, k);
		return CLI_EXIT_OK;
	}
	for (i = 0; i < PRESET_KIND_COUNT; i++) {
		if (i > 0)
			printf("\n");
		list_kind(reg, (enum preset_kind)i);
	}
	return CLI_EXIT_OK;
}

/* ------------------------------------------------------------ show */

static int show_gpu(const struct engine_gpu *g, const char *where)
{
	char *text = NULL, ridge[40];
	size_t len;
	struct napkin_err err;
	double peak = g->peak[ENGINE_DT_BF16] > 0 ? g->peak[ENGINE_DT_BF16] : g->peak[ENGINE_DT_FP16];

	if (preset_gpu_to_yaml(g, &text, &len, &err) != NAPKIN_OK) {
		cli_error("presets", &err);
		return CLI_EXIT_FAIL;
	}
	/* the YAML below is the presets' format (English, what a program reads); the comments
	 * above it are for a person */
	if (g->id[0])
		/* TRANSLATORS: a comment line of napkin presets show: the id, where it came from */
		printf(_("# gpu %s (%s)\n"), g->id, where);
	else
		printf(_("# gpu from a file (%s)\n"), where);
	if (peak > 0 && g->bandwidth > 0) {
		snprintf(ridge, sizeof ridge, "%.0f", peak / g->bandwidth);
		printf(_("# ridge point: %s FLOP/B at the 16-bit peak (peak / bandwidth)\n"), ridge);
	}
	fwrite(text, 1, len, stdout);
	free(text);
	return CLI_EXIT_OK;
}

static int show_model(const struct engine_model *m, const char *where)
{
	char *text = NULL, total[40], pub[40], act[40];
	size_t len;
	struct napkin_err err;
	struct engine_params p;
	double n, active;

	engine_model_params(m, &p);
	n = p.total;
	active = p.active;

	if (preset_model_to_yaml(m, &text, &len, &err) != NAPKIN_OK) {
		cli_error("presets", &err);
		return CLI_EXIT_FAIL;
	}
	if (m->id[0])
		/* TRANSLATORS: a comment line of napkin presets show: the id, where it came from */
		printf(_("# model %s (%s)\n"), m->id, where);
	else
		printf(_("# model from a file (%s)\n"), where);
	if (n > 0) {
		engine_fmt_int(n, total, sizeof total);
		/* TRANSLATORS: a comment line of napkin presets show, then the clauses below */
		printf(_("# parameters: %s as napkin counts them"), total);
		if (m->params_published > 0) {
			engine_fmt_int(m->params_published, pub, sizeof pub);
			printf(m->params_published == n ? _("; published %s (exact)") : _("; published %s"), pub);
		}
		if (m->experts > 1) {
			engine_fmt_int(active, act, sizeof act);
			printf(_("; %s active per token"), act);
		}
		printf("\n");
	}
	fwrite(text, 1, len, stdout);
	free(text);
	return CLI_EXIT_OK;
}

static int show_scenario(struct preset_registry *reg, const char *id_or_path, const char *where)
{
	struct engine_scenario sc;
	struct napkin_err err;
	char *text = NULL, summary[200];
	size_t len;

	engine_scenario_default(&sc);
	sc.tr = &cli_tr; /* its errors and summary in the interface's language */
	if (preset_scenario_load(reg, id_or_path, &sc, &err) != NAPKIN_OK) {
		cli_error("presets", &err);
		return CLI_EXIT_USAGE;
	}
	if (preset_scenario_to_yaml(reg, &sc, &text, &len, &err) != NAPKIN_OK) {
		cli_error("presets", &err);
		return CLI_EXIT_FAIL;
	}
	engine_scenario_summary(&sc, summary, sizeof summary);
	/* TRANSLATORS: a comment line of napkin presets show: the id or file, where it came
	 * from, the scenario's summary */
	printf(_("# scenario %s (%s): %s\n"), id_or_path, where, summary);
	fputs(_("# every knob, as loaded onto napkin's default scenario\n"), stdout);
	fwrite(text, 1, len, stdout);
	free(text);
	return CLI_EXIT_OK;
}

static bool is_file(const char *path)
{
	struct stat st;

	return stat(path, &st) == 0 && S_ISREG(st.st_mode);
}

static int show_file(struct preset_registry *reg, const char *path)
{
	struct napkin_err errs[CHECK_MAX_ERRORS], err;
	struct engine_gpu g;
	struct engine_model m;
	char line[1200];
	size_t n = preset_check_file(reg, path, errs, CHECK_MAX_ERRORS), i;

	if (n > 0) {
		for (i = 0; i < n && i < CHECK_MAX_ERRORS; i++)
			fprintf(stderr, "%s\n", util_err_format(&errs[i], line, sizeof line));
		return CLI_EXIT_USAGE;
	}
	preset_warnings_clear(reg);
	/* it checked out as one of the kinds: the first that loads is it */
	if (preset_gpu(reg, path, &g, &err) == NAPKIN_OK)
		return show_gpu(&g, path);
	if (preset_model(reg, path, &m, &err) == NAPKIN_OK)
		return show_model(&m, path);
	return show_scenario(reg, path, path);
}

static int do_show(struct preset_registry *reg, int argc, char **argv)
{
	const char *arg;
	const struct preset_info *hits[PRESET_KIND_COUNT];
	enum preset_kind k;
	int i, nh = 0, rc = CLI_EXIT_OK;
	char where[600];
	const char *slash;

	if (argc != 1) {
		fputs(_("napkin presets: show takes one preset id or file (napkin presets list shows the ids)\n"), stderr);
		return CLI_EXIT_USAGE;
	}
	arg = argv[0];
	/* "gpus/h100-sxm" picks the kind when two kinds share an id */
	slash = strchr(arg, '/');
	if (slash != NULL && strchr(slash + 1, '/') == NULL && !is_file(arg)) {
		char kind[32];
		size_t kl = (size_t)(slash - arg);
		if (kl < sizeof kind) {
			memcpy(kind, arg, kl);
			kind[kl] = '\0';
			if (kind_arg(kind, &k) == 0 && preset_find(reg, k, slash + 1) != NULL) {
				hits[nh++] = preset_find(reg, k, slash + 1);
				arg = slash + 1;
			}
		}
	}
	if (nh == 0)
		for (i = 0; i < PRESET_KIND_COUNT; i++)
			if (preset_find(reg, (enum preset_kind)i, arg) != NULL)
				hits[nh++] = preset_find(reg, (enum preset_kind)i, arg);
	if (nh == 0) {
		if (is_file(arg))
			return show_file(reg, arg);
		fprintf(stderr, _("napkin presets: no preset '%s' and no such file (napkin presets list shows the ids)\n"),
			arg);
		return CLI_EXIT_USAGE;
	}
	for (i = 0; i < nh && rc == CLI_EXIT_OK; i++) {
		const struct preset_info *p = hits[i];
		struct napkin_err err;
		if (i > 0)
			printf("---\n");
		if (p->origin == PRESET_BUILTIN)
			snprintf(where, sizeof where, "%s", C_("preset origin", preset_origin_name(p->origin)));
		else
			/* TRANSLATORS: where a preset came from: its origin (user, local, ...), its file */
			snprintf(where, sizeof where, C_("preset origin", "%s: %s"),
				 C_("preset origin", preset_origin_name(p->origin)), p->path);
		if (p->kind == PRESET_GPU) {
			struct engine_gpu g;
			if (preset_gpu(reg, p->id, &g, &err) != NAPKIN_OK) {
				cli_error("presets", &err);
				return CLI_EXIT_FAIL;
			}
			rc = show_gpu(&g, where);
		} else if (p->kind == PRESET_MODEL) {
			struct engine_model m;
			if (preset_model(reg, p->id, &m, &err) != NAPKIN_OK) {
				cli_error("presets", &err);
				return CLI_EXIT_FAIL;
			}
			rc = show_model(&m, where);
		} else {
			rc = show_scenario(reg, p->id, where);
		}
	}
	return rc;
}

/* ------------------------------------------------------------ check */

/* Whether two paths name the same file. */
static bool same_file(const char *a, const char *b)
{
	struct stat sa, sb;

	return stat(a, &sa) == 0 && stat(b, &sb) == 0 && sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino;
}

static int do_check(struct preset_registry *reg, const struct napkin_err *search_err, int argc, char **argv)
{
	struct napkin_err errs[CHECK_MAX_ERRORS];
	char line[1200];
	size_t total = 0, b;
	int i;

	if (argc == 0) {
		fputs(_("napkin presets: check takes one or more files\n"), stderr);
		return CLI_EXIT_USAGE;
	}
	if (search_err != NULL) {
		printf("%s\n", util_err_format(search_err, line, sizeof line));
		total++;
	}
	/* a broken file on the search path is a mistake too (the other commands skip it with a
	 * warning); the files given are checked anyway, and each said once */
	for (b = 0; b < preset_broken_count(reg); b++) {
		const struct napkin_err *e = preset_broken(reg, b);
		bool given = false;
		for (i = 0; i < argc && !given; i++)
			given = same_file(e->file, argv[i]);
		if (given)
			continue;
		printf("%s\n", util_err_format(e, line, sizeof line));
		total++;
	}
	for (i = 0; i < argc; i++) {
		size_t n = preset_check_file(reg, argv[i], errs, CHECK_MAX_ERRORS), j;
		for (j = 0; j < n && j < CHECK_MAX_ERRORS; j++)
			printf("%s\n", util_err_format(&errs[j], line, sizeof line));
		if (n > CHECK_MAX_ERRORS)
			printf(P_("%s: %zu more error\n", "%s: %zu more errors\n", n - CHECK_MAX_ERRORS), argv[i],
			       n - CHECK_MAX_ERRORS);
		print_warnings(reg, stdout);
		if (n == 0)
			printf(_("%s: ok\n"), argv[i]);
		total += n;
	}
	return total > 0 ? CLI_EXIT_USAGE : CLI_EXIT_OK;
}

/* ------------------------------------------------------------ the command */

int cmd_presets(int argc, char **argv)
{
	struct preset_registry *reg = NULL;
	struct preset_options opts = {false, NULL};
	struct napkin_err err, search_err;
	char **rest;
	int i, n = 0, rc;
	bool searched_ok = true;

	rest = calloc((size_t)argc + 1, sizeof *rest);
	if (rest == NULL) {
		fputs(_("napkin presets: out of memory\n"), stderr);
		return CLI_EXIT_FAIL;
	}
	for (i = 1; i < argc; i++) {
		if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0) {
			struct cli_fit ft; /* the help at the terminal's width (cli_fit) */
			usage(cli_fit_begin(&ft, stdout, cli_width(stdout)));
			cli_fit_end(&ft);
			free(rest);
			return CLI_EXIT_OK;
		} else if (strcmp(argv[i], "--builtin") == 0) {
			opts.no_search = true;
		} else if (strcmp(argv[i], "--presets") == 0 || strncmp(argv[i], "--presets=", 10) == 0) {
			if (argv[i][9] == '=') {
				opts.extra_dir = argv[i] + 10;
			} else if (i + 1 < argc) {
				opts.extra_dir = argv[++i];
			} else {
				fputs(_("napkin presets: --presets needs a directory\n"), stderr);
				free(rest);
				return CLI_EXIT_USAGE;
			}
		} else if (strncmp(argv[i], "--", 2) == 0 && argv[i][2] != '\0') {
			fprintf(stderr, _("napkin presets: unknown option %s (napkin presets --help)\n"), argv[i]);
			free(rest);
			return CLI_EXIT_USAGE;
		} else {
			rest[n++] = argv[i];
		}
	}
	if (n == 0) {
		usage(stderr);
		free(rest);
		return CLI_EXIT_USAGE;
	}
	if (strcmp(rest[0], "list") != 0 && strcmp(rest[0], "show") != 0 && strcmp(rest[0], "check") != 0) {
		fprintf(stderr, _("napkin presets: unknown subcommand '%s' (list, show or check)\n"), rest[0]);
		free(rest);
		return CLI_EXIT_USAGE;
	}
	if (preset_registry_new(&reg, &opts, &err) != NAPKIN_OK) {
		if (strcmp(rest[0], "check") != 0 || opts.no_search) {
			cli_error("presets", &err);
			free(rest);
			return CLI_EXIT_FAIL;
		}
		/* check the files against the built-in presets, and report the broken one too */
		search_err = err;
		searched_ok = false;
		opts.no_search = true;
		opts.extra_dir = NULL;
		if (preset_registry_new(&reg, &opts, &err) != NAPKIN_OK) {
			cli_error("presets", &err);
			free(rest);
			return CLI_EXIT_FAIL;
		}
	}
	/* check prints the skipped files as its errors, not as warnings too */
	print_warnings_but(reg, stderr, strcmp(rest[0], "check") == 0);
	if (strcmp(rest[0], "list") == 0)
		rc = do_list(reg, n - 1, rest + 1);
	else if (strcmp(rest[0], "show") == 0)
		rc = do_show(reg, n - 1, rest + 1);
	else
		rc = do_check(reg, searched_ok ? NULL : &search_err, n - 1, rest + 1);
	print_warnings(reg, stderr);
	preset_registry_free(reg);
	free(rest);
	return rc;
}
