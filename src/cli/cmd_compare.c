/* napkin compare: one knob's values (GPUs by default use) side by side: every figure a
 * row, the best of each row marked where the figure has a better side (the result table's
 * `better`), the others against the first column. Each column is the scenario `napkin
 * report` builds from the same flags with that one value; a value that makes the scenario
 * invalid (tp 3 on 8 GPUs) is a column that says why, as napkin sweep keeps such a point.
 * The table fits the terminal's width (util_term_width): columns that do not fit beside
 * each other come in groups below, each with the row labels. */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "i18n.h"
#include "emit.h"
#include "plot.h"
#include "tradeoff.h"

#define MAX_COLS 16
#define MAX_ROWS 160
#define CELL 64

struct column {
	const char *value;
	struct cli_setup s;
	struct engine_result r;
	bool set;     /* s is set up (free it) */
	bool valid;   /* the scenario is valid and evaluated (r holds its results) */
	bool fits;    /* valid and memory.fits */
	char why[256]; /* not valid: the reason */
};

/* argv with the list flag's value replaced by one value (argv[li] is "--k=list" or the
 * value after "--k"). Returns 0 (the column set up, valid or not) or an exit status: a
 * value that does not parse (a GPU that does not exist) is refused. */
static int column_setup(int argc, char **argv, int li, bool joined, const char *flag, const char *value,
			bool json, struct column *c)
{
	char **av = malloc(((size_t)argc + 1) * sizeof *av);
	char joined_arg[512];
	struct napkin_err err, invalid;
	int rc, i;

	if (av == NULL)
		return CLI_EXIT_FAIL;
	for (i = 0; i < argc; i++)
		av[i] = argv[i];
	av[argc] = NULL;
	if (joined) {
		snprintf(joined_arg, sizeof joined_arg, "--%s=%s", flag, value);
		av[li] = joined_arg;
	} else {
		av[li] = (char *)(uintptr_t)value;
	}
	rc = cli_setup_keep_invalid("compare", argc, av, &c->s, &invalid);
	free(av);
	if (rc != 0)
		return rc;
	c->set = true;
	if (json)
		c->s.sc.tr = NULL; /* the JSON contract is English: warnings, verdicts and errors too */
	util_err_clear(&err);
	if (invalid.code != NAPKIN_OK) {
		/* validated again in the output's language (cli_setup said it in the user's) */
		if (engine_validate(&c->s.sc, &err) == NAPKIN_OK)
			err = invalid;
		util_strlcpy(c->why, err.msg, sizeof c->why);
		return 0;
	}
	if (engine_evaluate(&c->s.sc, &c->r, &err) != NAPKIN_OK) {
		util_strlcpy(c->why, err.msg, sizeof c->why);
		return 0;
	}
	c->valid = true;
	c->fits = c->r.memory.fits;
	return 0;
}

/* ---------------------------------------------------------------- the text table */

/* the groups in the order of the report; a row's group is its key's first part */
static const char *const group_names[] = {"model", "memory", "compute", "inference", "roofline", "data_loading"};
#define NGROUPS (int)(sizeof group_names / sizeof group_names[0])
/* what a reader sees in a language other than English, where the keys are words of another
 * language (the explorer's compare view shows its labels too); English keeps the keys */
static const char *const group_labels[] = {N_("model"), N_("memory per GPU"), N_("compute and time"),
					   N_("inference"), N_("roofline"), N_("data loading")};
_Static_assert(sizeof group_labels / sizeof group_labels[0] == NGROUPS, "a label for each group");

static bool by_label(void)
{
	return i18n_get() != I18N_EN;
}

static int group_of(const char *key)
{
	int g;

	for (g = 0; g < NGROUPS; g++) {
		size_t n = strlen(group_names[g]);
		if (strncmp(key, group_names[g], n) == 0 && key[n] == '.')
			return g;
	}
	return NGROUPS;
}

struct row {
	struct engine_metric m;
	int group;
	char cell[MAX_COLS][CELL];
};

static void value_text(const struct column *c, const struct engine_metric *m, double x, char *buf, size_t n)
{
	if (m->kind == ENGINE_METRIC_FITS)
		util_strlcpy(buf, x > 0.5 ? _("yes") : _("no"), n);
	else if (m->kind == ENGINE_METRIC_COST && !(c->s.sc.price > 0))
		util_strlcpy(buf, _("no price"), n); /* JSON says null */
	else
		plot_value(m->unit, x, buf, n);
}

/* Row m's cells: the value, its change against the first column where both print
 * differently, and * on the best where the figure has a better side, the columns that can
 * have it (valid; for a figure of a run, fitting too) print at least two different values,
 * and not all of them are best. Values that print the same are the same: "0.0% (+117%)"
 * was a change too small to print. A share's change is in percentage points. */
static void fill_row(const struct column *c, int n, struct row *rw)
{
	const struct engine_metric *m = &rw->m;
	double x[MAX_COLS], best = NAN;
	char v[MAX_COLS][CELL], best_text[CELL] = "";
	bool can[MAX_COLS], run = engine_metric_of_run(m);
	int j, ncan = 0, nbest = 0;

	for (j = 0; j < n; j++) {
		can[j] = c[j].valid && (!run || c[j].fits);
		x[j] = can[j] ? engine_metric_value(&c[j].r, m) : NAN;
		if (isnan(x[j]))
			can[j] = false;
		if (can[j])
			value_text(&c[j], m, x[j], v[j], sizeof v[j]);
		else
			util_strlcpy(v[j], "-", sizeof v[j]);
		if (!can[j])
			continue;
		ncan++;
		if (m->better != ENGINE_BETTER_NEITHER &&
		    (isnan(best) || (m->better == ENGINE_BETTER_HIGHER ? x[j] > best : x[j] < best))) {
			best = x[j];
			util_strlcpy(best_text, v[j], sizeof best_text);
		}
	}
	for (j = 0; j < n; j++)
		nbest += can[j] && strcmp(v[j], best_text) == 0;
	for (j = 0; j < n; j++) {
		size_t pos = 0;
		rw->cell[j][0] = '\0';
		util_bprintf(rw->cell[j], CELL, &pos, "%s", v[j]);
		if (!can[j])
			continue;
		if (j > 0 && can[0] && x[0] != 0 && strcmp(v[j], v[0]) != 0 && m->kind != ENGINE_METRIC_FITS &&
		    strcmp(v[0], _("no price")) != 0) {
			/* a change that rounds to nothing is not printed ("-0%") */
			double pp = 100.0 * (x[j] - x[0]), rel = pp / fabs(x[0]);
			if (m->unit == ENGINE_UNIT_FRACTION && fabs(pp) >= 0.05)
				util_bprintf(rw->cell[j], CELL, &pos, " %+.1fpp", pp);
			else if (m->unit != ENGINE_UNIT_FRACTION && fabs(rel) >= 0.5)
				util_bprintf(rw->cell[j], CELL, &pos, " %+.0f%%", rel);
		}
		if (m->better != ENGINE_BETTER_NEITHER && nbest < ncan &&
		    strcmp(v[j], best_text) == 0)
			util_bprintf(rw->cell[j], CELL, &pos, " *");
	}
}

/* the rows shown, each group once, in the report's order (memory.fits with memory, the
 * cost and the step's parts with compute); inference rows in inference mode only */
static int collect_rows(bool train, struct row *rows)
{
	struct engine_metric m;
	size_t i;
	int g, n = 0;

	for (g = 0; g <= NGROUPS; g++)
		for (i = 0; engine_metric_at(i, &m) && n < MAX_ROWS; i++) {
			if (group_of(m.key) != g)
				continue;
			if ((train && g == 3) || (!train && g == 2))
				continue;
			rows[n].m = m;
			rows[n].group = g;
			n++;
		}
	return n;
}

/* text into f wrapped at width columns (util_text_break), every line after the first
 * indented by indent spaces */
static void wrap(FILE *f, const char *text, int width, int indent)
{
	const char *p = text;
	bool first = true;

	while (*p != '\0') {
		int room = width - (first ? 0 : indent);
		size_t n = util_text_break(p, (size_t)(room > 10 ? room : 10), NULL);
		fprintf(f, "%*s%.*s\n", first ? 0 : indent, "", (int)n, p);
		p += n;
		while (*p == ' ')
			p++;
		first = false;
	}
}

/* A row's label: its key after the group ("memory.total": "total"); the group's length in
 * *glen, and for a key of three parts ("compute.step_breakdown.matmul") the middle one's in
 * *slen (the label is then the last part), else 0. */
static const char *row_label(const char *key, size_t *glen, size_t *slen)
{
	const char *dot = strchr(key, '.'), *dot2 = dot != NULL ? strchr(dot + 1, '.') : NULL;

	if (glen != NULL)
		*glen = dot != NULL ? (size_t)(dot - key) : 0;
	if (slen != NULL)
		*slen = dot2 != NULL ? (size_t)(dot2 - dot - 1) : 0;
	return dot2 != NULL ? dot2 + 1 : dot != NULL ? dot + 1 : key;
}

/* the knob's name over the columns: its label in the reader's language (the explorer's, in
 * the "knob" context: the knob GPU is not the counted word 张 GPU), else its key */
static const char *knob_name(const struct engine_knob *k)
{
	const char *t;

	if (!by_label() || k->label == NULL)
		return k->key;
	t = i18n_pgettext("knob", k->label);
	return t != k->label ? t : _(k->label);
}

/* the row's name as shown: its label in the reader's language, else its key's last part */
static const char *row_name(const struct engine_metric *m, size_t *glen, size_t *slen)
{
	const char *lab = row_label(m->key, glen, slen);

	return by_label() && m->label != NULL ? _(m->label) : lab;
}

/* one line of the table, built up and printed without trailing spaces */
struct line {
	char buf[MAX_COLS * (CELL + 2) + 256];
	size_t pos;
};

static void line_cell(struct line *l, const char *sep, const char *s, int w)
{
	char pad[CELL * 2];

	util_bprintf(l->buf, sizeof l->buf, &l->pos, "%s%s", sep, util_text_pad(pad, sizeof pad, s, (size_t)w));
}

static void line_put(struct line *l)
{
	while (l->pos > 0 && l->buf[l->pos - 1] == ' ')
		l->buf[--l->pos] = '\0';
	printf("%s\n", l->buf);
	l->pos = 0;
	l->buf[0] = '\0';
}

static void text_table(const struct column *c, int n, const char *knob, const char *kname, int width)
{
	static struct row rows[MAX_ROWS];
	const char *head[MAX_COLS] = {NULL}, *status[MAX_COLS];
	int nrows, i, j, lw, cw[MAX_COLS], from, ngroups = 0, total;
	const char *sub = NULL;
	bool any_over = false, any_invalid = false;
	static struct line ln;
	char buf[512];

	for (j = 0; j < n; j++) {
		/* a name column is headed by what it resolved to ("h200" is h200-sxm) */
		head[j] = strcmp(knob, "gpu") == 0 && c[j].set && c[j].s.sc.gpu.id[0]	   ? c[j].s.sc.gpu.id
			  : strcmp(knob, "model") == 0 && c[j].set && c[j].s.sc.model.id[0] ? c[j].s.sc.model.id
										       : c[j].value;
		status[j] = !c[j].valid ? _("✗ invalid") : !c[j].fits ? _("✗ does not fit") : "";
		any_over = any_over || (c[j].valid && !c[j].fits);
		any_invalid = any_invalid || !c[j].valid;
	}
	{
		const struct column *first = &c[0];
		for (j = 0; j < n && !first->valid; j++)
			first = &c[j];
		nrows = collect_rows(first->s.sc.mode == ENGINE_MODE_TRAIN, rows);
	}
	lw = (int)util_text_width(kname);
	for (j = 0; j < n; j++) {
		cw[j] = (int)util_text_width(head[j]);
		if ((int)util_text_width(status[j]) > cw[j])
			cw[j] = (int)util_text_width(status[j]);
	}
	for (i = 0; i < nrows; i++) {
		size_t glen, slen;
		const char *lab = row_name(&rows[i].m, &glen, &slen);
		int w = (slen > 0 ? 4 : 2) + (int)util_text_width(lab);
		if (w > lw)
			lw = w;
		fill_row(c, n, &rows[i]);
		for (j = 0; j < n; j++)
			if ((int)util_text_width(rows[i].cell[j]) > cw[j])
				cw[j] = (int)util_text_width(rows[i].cell[j]);
	}
	/* the columns in groups that fit the width: as many beside the labels as fit, one at least */
	total = lw;
	for (j = 0; j < n; j++)
		total += 2 + cw[j];
	for (from = 0; from < n; ngroups++) {
		int to = from + 1, w = lw + 2 + cw[from];
		while (to < n && w + 2 + cw[to] <= width)
			w += 2 + cw[to++];
		from = to;
	}
	if (ngroups > 1) {
		snprintf(buf, sizeof buf,
			 _("%d columns do not fit beside each other in %d: they come in %d groups, each with the row labels "
			   "(COLUMNS=%d puts them in one)."),
			 n, width, ngroups, total);
		wrap(stdout, buf, width, 0);
		printf("\n");
	}
	for (from = 0; from < n;) {
		int to = from + 1, w = lw + 2 + cw[from], g = -1;
		while (to < n && w + 2 + cw[to] <= width)
			w += 2 + cw[to++];
		if (from > 0)
			printf("\n");
		line_cell(&ln, "", kname, lw);
		for (j = from; j < to; j++)
			line_cell(&ln, "  ", head[j], cw[j]);
		line_put(&ln);
		for (j = from; j < to && status[j][0] == '\0'; j++)
			;
		if (j < to) { /* a status under the columns that have one */
			line_cell(&ln, "", "", lw);
			for (j = from; j < to; j++)
				line_cell(&ln, "  ", status[j], cw[j]);
			line_put(&ln);
		}
		for (i = 0; i < nrows; i++) {
			size_t glen, slen;
			const char *lab = row_name(&rows[i].m, &glen, &slen);
			if (rows[i].group != g) { /* each group once: its name over its rows */
				g = rows[i].group;
				sub = NULL;
				if (glen > 0 && by_label() && g < NGROUPS)
					printf("%s\n", _(group_labels[g]));
				else if (glen > 0)
					printf("%.*s\n", (int)glen, rows[i].m.key);
			}
			if (slen > 0 && (sub == NULL || strncmp(sub, rows[i].m.key, glen + 1 + slen + 1) != 0)) {
				sub = rows[i].m.key; /* compute.step_breakdown.*: its parts under one line */
				if (by_label())
					printf("  %s\n", _("step time by part"));
				else
					printf("  %.*s\n", (int)slen, rows[i].m.key + glen + 1);
			}
			line_cell(&ln, slen > 0 ? "    " : "  ", lab, lw - (slen > 0 ? 4 : 2));
			for (j = from; j < to; j++)
				line_cell(&ln, "  ", rows[i].cell[j], cw[j]);
			line_put(&ln);
		}
		from = to;
	}
	printf("\n");
	snprintf(buf, sizeof buf,
		 _("* the best of a row, where a figure has a better side (lower memory and time; higher headroom, "
		   "throughput, MFU and bandwidth) and the columns differ; none for what just is (parameters, FLOPs "
		   "per token, the ridge). (+n%%) against %s; a share's change in percentage points (pp)."),
		 n > 0 && head[0] != NULL ? head[0] : "");
	wrap(stdout, buf, width, 2);
	if (any_over)
		wrap(stdout,
		     _("✗ does not fit: the layout needs more memory per GPU than the GPU has, so it cannot run: its time, "
		       "throughput and shares are -, and it is never the best of them."),
		     width, 2);
	for (j = 0; any_invalid && j < n; j++)
		if (!c[j].valid) {
			snprintf(buf, sizeof buf, _("✗ %s %s is not valid: %s"), knob, c[j].value, c[j].why);
			wrap(stdout, buf, width, 2);
		}
}

/* ---------------------------------------------------------------- the command */

static void usage(void)
{
	int width = util_term_width(STDOUT_FILENO);

	cli_print_usage(stdout, "napkin compare [KNOBS] --KNOB A,B,... [--format text|json]");
	wrap(stdout,
	     _("Columns are the values of one knob (--gpu h100-sxm,h200,mi300x,b200, --batch 1,2,4, ...); every figure "
	       "is a row, the best of each row is marked, and the other columns read against the first."),
	     width, 0);
	wrap(stdout,
	     _("A value that is a list itself (--lora-targets) joins its items with +: --lora-targets q+v,all-linear is "
	       "two columns, q+v and all-linear. A value that makes the scenario invalid is a column that says why."),
	     width, 0);
	printf("\n");
	{
		char line[400];
		snprintf(line, sizeof line, "  %-28s %s", "--format text|json",
			 _("output format (json: one report per column, as napkin report's)"));
		wrap(stdout, line, width, 31);
	}
	cli_print_opts(stdout, NULL);
	printf("\n");
	cli_print_knobs(stdout);
}

/* Splits list at its commas into values (pointers into list). Returns the count, or -1
 * (said on stderr) for an empty item or too many. */
static int split_list(char *list, const char *orig, const char *key, const char **values)
{
	char *p = list, *comma;
	int n = 0;

	for (;;) {
		comma = strchr(p, ',');
		if (comma != NULL)
			*comma = '\0';
		if (*p == '\0') {
			fprintf(stderr,
				_("napkin compare: --%s %s: an empty value; give each column's value once, comma-separated "
				  "(--batch 1,2,4)\n"),
				key, orig);
			return -1;
		}
		if (n == MAX_COLS) {
			fprintf(stderr, _("napkin compare: at most %d columns\n"), MAX_COLS);
			return -1;
		}
		values[n++] = p;
		if (comma == NULL)
			return n;
		p = comma + 1;
	}
}

static void emit_json(const struct column *cols, int n, const struct engine_knob *k, const char *const *values)
{
	struct emit e;
	int i;

	emit_begin(&e, stdout, EMIT_JSON);
	emit_int(&e, "schema", 1);
	emit_str(&e, "knob", k->key);
	emit_array(&e, "values");
	for (i = 0; i < n; i++)
		emit_str(&e, NULL, values[i]);
	emit_end(&e);
	emit_array(&e, "columns");
	for (i = 0; i < n; i++) {
		emit_object(&e, NULL);
		if (cols[i].valid)
			report_members(&e, &cols[i].s.sc, &cols[i].r, false);
		else
			emit_str(&e, "error", cols[i].why); /* a value that makes the scenario invalid */
		emit_end(&e);
	}
	emit_end(&e);
	emit_finish(&e);
}

int cmd_compare(int argc, char **argv)
{
	const char *format = "text";
	struct column *cols = NULL;
	char list[1024], orig[1024], flag[64], fl[64], first_flag[64] = "";
	const char *values[MAX_COLS];
	int i, li = -1, n = 0, nvalid = 0, rc = CLI_EXIT_USAGE;
	bool joined = false;
	const struct engine_knob *k = NULL;

	/* the list flag (its value has a comma) and --format are ours; the rest is cli_setup's */
	for (i = 1; i < argc; i++) {
		const char *a = argv[i], *eq;
		size_t len;
		if (strcmp(a, "--help") == 0) {
			usage();
			return CLI_EXIT_OK;
		}
		if (strncmp(a, "--", 2) != 0)
			continue;
		eq = strchr(a, '=');
		len = eq != NULL ? (size_t)(eq - a - 2) : strlen(a + 2);
		if (len >= sizeof flag)
			continue;
		memcpy(flag, a + 2, len);
		flag[len] = '\0';
		if (strcmp(flag, "format") == 0) {
			if (eq == NULL && i + 1 >= argc) {
				fprintf(stderr, _("napkin %s: --%s needs a value\n"), "compare", "format");
				return CLI_EXIT_USAGE;
			}
			format = eq != NULL ? eq + 1 : argv[i + 1];
			/* drop it from what cli_setup sees */
			memmove(&argv[i], &argv[i + (eq != NULL ? 1 : 2)], (size_t)(argc - i - (eq != NULL ? 1 : 2)) * sizeof *argv);
			argc -= eq != NULL ? 1 : 2;
			i--;
			continue;
		}
		{
			const char *val = eq != NULL ? eq + 1 : i + 1 < argc ? argv[i + 1] : NULL;
			if (val != NULL && strchr(val, ',') != NULL && engine_knob_find(flag) != NULL) {
				if (li >= 0) {
					/* both flags as typed (--power-limit, not the key power_limit) */
					fprintf(stderr, _("napkin compare: --%s and --%s both list values: compare one knob at a time\n"),
						first_flag, flag);
					return CLI_EXIT_USAGE;
				}
				util_strlcpy(first_flag, flag, sizeof first_flag);
				k = engine_knob_find(flag);
				joined = eq != NULL;
				li = joined ? i : i + 1;
				util_strlcpy(list, val, sizeof list);
			}
			if (eq == NULL)
				i++;
		}
	}
	if (strcmp(format, "text") != 0 && strcmp(format, "json") != 0) {
		fprintf(stderr, _("napkin %s: --format: '%s' is not a format; allowed: %s\n"), "compare", format, "text, json");
		return CLI_EXIT_USAGE;
	}
	if (li < 0) {
		fprintf(stderr, _("napkin compare: give the columns as one knob's values, comma-separated: --gpu "
				  "h100-sxm,h200,mi300x or --batch 1,2,4 (napkin compare --help)\n"));
		return CLI_EXIT_USAGE;
	}
	util_strlcpy(fl, k->key, sizeof fl); /* the flag: lora_targets is --lora-targets */
	for (i = 0; fl[i]; i++)
		if (fl[i] == '_')
			fl[i] = '-';
	util_strlcpy(orig, list, sizeof orig);
	if ((n = split_list(list, orig, fl, values)) < 0)
		return CLI_EXIT_USAGE;
	if (k->flags & ENGINE_KNOB_LIST) {
		/* "q,v" is also one value of a list knob: say how to get that column */
		char plus[1024];
		size_t j;
		util_strlcpy(plus, orig, sizeof plus);
		for (j = 0; plus[j]; j++)
			if (plus[j] == ',')
				plus[j] = '+';
		fprintf(stderr,
			_("napkin compare: note: --%s %s is %d columns, one a value; one column with all of them joins "
			  "them with +: --%s %s\n"),
			fl, orig, n, fl, plus);
	}
	cols = calloc((size_t)n, sizeof *cols);
	if (cols == NULL)
		return CLI_EXIT_FAIL;
	for (i = 0; i < n; i++) {
		cols[i].value = values[i];
		if ((rc = column_setup(argc, argv, li, joined, fl, values[i], strcmp(format, "json") == 0, &cols[i])) != 0)
			goto out;
		nvalid += cols[i].valid;
	}
	if (nvalid == 0) {
		fprintf(stderr, _("napkin compare: no column is valid; the first says: %s\n"), cols[0].why);
		rc = CLI_EXIT_USAGE;
		goto out;
	}
	if (strcmp(format, "json") == 0) {
		emit_json(cols, n, k, values);
	} else {
		char s[256], line[400];
		int width = util_term_width(STDOUT_FILENO);
		for (i = 0; i < n && !cols[i].valid; i++)
			;
		engine_scenario_summary(&cols[i].s.sc, s, sizeof s);
		snprintf(line, sizeof line, _("%s; columns: %s"), s, k->key);
		wrap(stdout, line, width, 2);
		printf("\n");
		text_table(cols, n, k->key, knob_name(k), width);
	}
	rc = CLI_EXIT_OK;
	if (fflush(stdout) != 0 || ferror(stdout)) {
		cli_write_error("compare");
		rc = CLI_EXIT_FAIL;
	}
out:
	for (i = 0; i < n; i++)
		if (cols[i].set)
			cli_setup_free(&cols[i].s);
	free(cols);
	return rc;
}
