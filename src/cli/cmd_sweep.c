/* napkin sweep: the scenario along one knob (a curve) or two (a heatmap), one row a point,
 * as text (a table and the chart), CSV or JSON. The engine does the sweep (tradeoff.h). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "i18n.h"
#include "emit.h"
#include "plot.h"
#include "tradeoff.h"

#define MAX_Y 16
#define MAX_POINTS 65536 /* a 256 x 256 heatmap */

enum sweep_format { SW_TEXT, SW_CSV, SW_JSON };

static void list_metrics(FILE *f)
{
	struct engine_metric m;
	size_t i;

	fputs(_("results (--y):"), f);
	for (i = 0; engine_metric_at(i, &m); i++)
		fprintf(f, "%s %s", i == 0 ? "" : ",", m.key);
	fputc('\n', f);
}

/* "memory.total,compute.step_seconds" into metrics; the defaults when text is NULL. */
static int parse_y(const char *text, const struct engine_tr *tr, struct engine_metric *m, size_t *n)
{
	char buf[1024], *p, *save = NULL;
	struct napkin_err err;

	*n = 0;
	util_strlcpy(buf, text != NULL ? text : "memory.total,memory.fits,compute.step_seconds", sizeof buf);
	for (p = strtok_r(buf, ",", &save); p != NULL; p = strtok_r(NULL, ",", &save)) {
		while (*p == ' ')
			p++;
		if (*n == MAX_Y) {
			fprintf(stderr, _("napkin sweep: --y: at most %d results\n"), MAX_Y);
			return CLI_EXIT_USAGE;
		}
		if (engine_metric_find_tr(p, tr, &m[*n], &err) != NAPKIN_OK) {
			struct cli_fit ft;
			FILE *f = cli_fit_begin(&ft, stderr, cli_width(stderr)); /* the list breaks at the width */
			fprintf(f, _("napkin sweep: --y: %s\n"), err.msg);
			list_metrics(f);
			cli_fit_end(&ft);
			return CLI_EXIT_USAGE;
		}
		(*n)++;
	}
	if (*n == 0) {
		fprintf(stderr, _("napkin sweep: --y: name at least one result, e.g. --y memory.total\n"));
		return CLI_EXIT_USAGE;
	}
	return 0;
}

/* s right-aligned in cols display columns (%22s counts bytes; 是 is 3 bytes, 2 columns) */
static const char *ralign(char *buf, size_t n, const char *s, int cols)
{
	int pad = cols - (int)util_text_width(s);

	snprintf(buf, n, "%*s%s", pad > 0 ? pad : 0, "", s);
	return buf;
}

static void fmt_metric(const struct engine_metric *m, double v, bool valid, char *buf, size_t n)
{
	if (m->kind == ENGINE_METRIC_COST && valid && isnan(v))
		util_strlcpy(buf, _("no price"), n); /* as the report says; CSV leaves it empty, JSON null */
	else if (m->kind == ENGINE_METRIC_FITS)
		util_strlcpy(buf, isnan(v) ? "-" : v > 0.5 ? _("yes") : _("no"), n); /* the text table only: CSV and JSON say true/false */
	else
		plot_value(m->unit, v, buf, n);
}

struct sweep_out {
	const struct cli_setup *s;
	const struct engine_sweep *sw;
	const double *xs, *ys, *values;
	const int *rc;
	size_t nx, ny, nm, shown; /* nm metrics computed, the first `shown` asked for */
	long fits;                /* index of memory.fits among the metrics */
	size_t part0[MAX_Y], nparts[MAX_Y]; /* --stack: result j's parts are metrics part0 .. */
};

/* The message of an invalid point (computed again: the sweep keeps only the first). */
static void point_error(const struct sweep_out *o, size_t p, char *buf, size_t n)
{
	const struct engine_knob *k[2] = {o->sw->range[0].knob, o->sw->range[1].knob};
	double v[2] = {o->xs[p % o->nx], o->sw->nrange == 2 ? o->ys[p / o->nx] : 0.0};
	struct engine_scenario sc;
	struct engine_result r;
	struct napkin_err err;

	util_err_clear(&err);
	if (engine_sweep_point_kept(&o->s->sc, k, v, (size_t)o->sw->nrange, o->sw->keep_global_batch, false, &sc, &r,
				    &err) != NAPKIN_OK)
		util_strlcpy(buf, err.msg, n);
	else
		buf[0] = '\0';
}

static void out_csv(const struct sweep_out *o)
{
	size_t p, j;
	char e[512];

	printf("%s", o->sw->range[0].knob->key);
	if (o->sw->nrange == 2)
		printf(",%s", o->sw->range[1].knob->key);
	for (j = 0; j < o->shown; j++)
		printf(",%s", o->sw->metrics[j].key);
	printf(",error\n");
	for (p = 0; p < o->nx * o->ny; p++) {
		printf("%.17g", o->xs[p % o->nx]);
		if (o->sw->nrange == 2)
			printf(",%.17g", o->ys[p / o->nx]);
		for (j = 0; j < o->shown; j++) {
			double v = o->values[p * o->nm + j];
			if (isnan(v))
				printf(",");
			else if (o->sw->metrics[j].kind == ENGINE_METRIC_FITS)
				printf(",%s", v > 0.5 ? "true" : "false");
			else
				printf(",%.17g", v);
		}
		if (o->rc[p] != 0) {
			char *c;
			point_error(o, p, e, sizeof e);
			for (c = e; *c; c++)
				if (*c == '"')
					*c = '\'';
			printf(",\"%s\"\n", e);
		} else {
			printf(",\n");
		}
	}
}

static void out_json(const struct sweep_out *o)
{
	struct emit e;
	size_t p, j;
	int i;
	char s[256];

	emit_begin(&e, stdout, EMIT_JSON);
	emit_int(&e, "schema", 1);
	engine_scenario_summary(&o->s->sc, s, sizeof s);
	emit_str(&e, "summary", s);
	if (o->sw->keep_global_batch > 0)
		emit_num(&e, "strong_global_batch", o->sw->keep_global_batch);
	emit_array(&e, "knobs");
	for (i = 0; i < o->sw->nrange; i++) {
		const struct engine_range *r = &o->sw->range[i];
		emit_object(&e, NULL);
		emit_str(&e, "key", r->knob->key);
		emit_num(&e, "from", r->from);
		emit_num(&e, "to", r->to);
		emit_str(&e, "scale", r->geometric ? "geometric" : "linear");
		emit_num(&e, r->geometric ? "factor" : "step", r->step);
		emit_int(&e, "points", (int64_t)(i == 0 ? o->nx : o->ny));
		emit_end(&e);
	}
	emit_end(&e);
	emit_array(&e, "results");
	for (j = 0; j < o->shown; j++)
		emit_str(&e, NULL, o->sw->metrics[j].key);
	emit_end(&e);
	emit_array(&e, "points");
	for (p = 0; p < o->nx * o->ny; p++) {
		emit_object(&e, NULL);
		emit_num(&e, o->sw->range[0].knob->key, o->xs[p % o->nx]);
		if (o->sw->nrange == 2)
			emit_num(&e, o->sw->range[1].knob->key, o->ys[p / o->nx]);
		if (o->rc[p] != 0) {
			char msg[512];
			point_error(o, p, msg, sizeof msg);
			emit_str(&e, "error", msg);
		} else {
			for (j = 0; j < o->shown; j++) {
				const struct engine_metric *m = &o->sw->metrics[j];
				double v = o->values[p * o->nm + j];
				if (m->kind == ENGINE_METRIC_FITS)
					emit_bool(&e, m->key, v > 0.5);
				else if (m->def != NULL && m->def->is_int)
					emit_int(&e, m->key, (int64_t)v);
				else
					emit_num(&e, m->key, v);
			}
		}
		emit_end(&e);
	}
	emit_end(&e);
	emit_finish(&e);
}

/* --stack: result j's parts as stacked bands under its curve (the same axes and marks) */
static void out_text_stack(const struct sweep_out *o, size_t j, const struct plot_curve *c, int pw, FILE *f)
{
	size_t np = o->nparts[j], p, k;
	double *v = malloc(o->nx * np * sizeof *v);
	const char *names[16];
	char title[200];
	struct plot_stack st;

	if (v == NULL || np > 16) {
		free(v);
		return;
	}
	for (k = 0; k < np; k++) {
		const char *key = o->sw->metrics[o->part0[j] + k].key;
		names[k] = strrchr(key, '.') != NULL ? strrchr(key, '.') + 1 : key;
	}
	for (p = 0; p < o->nx; p++)
		for (k = 0; k < np; k++)
			v[p * np + k] = o->rc[p] == 0 ? o->values[p * o->nm + o->part0[j] + k] : NAN;
	snprintf(title, sizeof title,
		 strncmp(o->sw->metrics[j].key, "memory.", 7) == 0 ? _("\n%s stacked by part (every part at once, per GPU)")
		 : strcmp(o->sw->metrics[j].key, "compute.step_seconds") == 0
			 ? _("\n%s stacked by part (the predicted step's parts, per step); they add up to step_seconds_predicted")
			 : _("\n%s stacked by part (the predicted step's parts, per step)"),
		 o->sw->metrics[j].key);
	memset(&st, 0, sizeof st);
	st.title = title;
	st.x = o->xs;
	st.v = v;
	st.n = o->nx;
	st.np = np;
	st.names = names;
	st.log_x = c->log_x;
	st.x_unit = c->x_unit;
	st.y_unit = c->y_unit;
	st.x_name = c->x_name;
	st.line = c->line;
	st.line_label = c->line_label;
	st.mark = c->mark;
	st.current = c->current;
	st.at = c->current >= 0 ? c->current : (long)o->nx - 1;
	plot_stack(f, &st, pw, 12);
	free(v);
}

static void out_text_curve(const struct sweep_out *o, FILE *f, int width)
{
	const struct engine_range *rx = &o->sw->range[0];
	const struct engine_knob *k = rx->knob;
	size_t p, j, from;
	int lw, sw, cw[MAX_Y], total, ngroups = 0, pw;
	long first_over = -1, current = -1;
	double *y = malloc(o->nx * sizeof *y);
	char b[64], cap[96], mark[200];

	if (y == NULL)
		return;
	/* the table: each column as wide as its widest cell; the results that do not fit beside
	 * each other in the width come in groups below, each with the rows' knob values, as
	 * compare's columns do; a point that does not fit or is invalid marked ✗ as compare
	 * marks its columns (the reason of an invalid one after the last group) */
	lw = (int)util_text_width(k->key);
	sw = 0;
	for (p = 0; p < o->nx; p++) {
		const char *st = o->rc[p] != 0 ? _("✗ invalid") : o->values[p * o->nm + (size_t)o->fits] < 0.5 ? _("✗ does not fit") : "";
		plot_value(k->unit, o->xs[p], b, sizeof b);
		if ((int)util_text_width(b) > lw)
			lw = (int)util_text_width(b);
		if ((int)util_text_width(st) > sw)
			sw = (int)util_text_width(st);
	}
	total = lw + (sw > 0 ? 2 + sw : 0);
	for (j = 0; j < o->shown; j++) {
		cw[j] = (int)util_text_width(o->sw->metrics[j].key);
		for (p = 0; p < o->nx; p++) {
			fmt_metric(&o->sw->metrics[j], o->values[p * o->nm + j], o->rc[p] == 0, b, sizeof b);
			if ((int)util_text_width(b) > cw[j])
				cw[j] = (int)util_text_width(b);
		}
		total += 2 + cw[j];
	}
	for (from = 0; from < o->shown; ngroups++) {
		size_t to = from + 1;
		int w = lw + 2 + cw[from] + (sw > 0 ? 2 + sw : 0);
		while (to < o->shown && w + 2 + cw[to] <= width)
			w += 2 + cw[to++];
		from = to;
	}
	if (ngroups > 1) {
		fprintf(f, _("%d columns do not fit beside each other in %d: they come in %d groups, each with the row labels "
			 "(COLUMNS=%d puts them in one)."),
			(int)o->shown, width, ngroups, total);
		fputs("\n\n", f);
	}
	for (from = 0; from < o->shown;) {
		size_t to = from + 1;
		int w = lw + 2 + cw[from] + (sw > 0 ? 2 + sw : 0);
		char cell[96];
		while (to < o->shown && w + 2 + cw[to] <= width)
			w += 2 + cw[to++];
		if (from > 0)
			fprintf(f, "\n");
		fprintf(f, "%s", ralign(cell, sizeof cell, k->key, lw));
		for (j = from; j < to; j++)
			fprintf(f, "  %s", ralign(cell, sizeof cell, o->sw->metrics[j].key, cw[j]));
		fprintf(f, "\n");
		for (p = 0; p < o->nx; p++) {
			bool over = o->rc[p] == 0 && o->values[p * o->nm + (size_t)o->fits] < 0.5;
			plot_value(k->unit, o->xs[p], b, sizeof b);
			fprintf(f, "%s", ralign(cell, sizeof cell, b, lw));
			for (j = from; j < to; j++) {
				fmt_metric(&o->sw->metrics[j], o->values[p * o->nm + j], o->rc[p] == 0, b, sizeof b);
				fprintf(f, "  %s", ralign(cell, sizeof cell, b, cw[j]));
			}
			if (o->rc[p] != 0)
				fprintf(f, "  %s", _("✗ invalid"));
			else if (over)
				fprintf(f, "  %s", _("✗ does not fit"));
			if (o->rc[p] != 0 && to == o->shown) {
				char msg[512];
				point_error(o, p, msg, sizeof msg);
				fprintf(f, ": %s", msg);
			}
			fprintf(f, "\n");
		}
		from = to;
	}
	for (p = 0; p < o->nx; p++) {
		if (first_over < 0 && o->rc[p] == 0 && o->values[p * o->nm + (size_t)o->fits] < 0.5)
			first_over = (long)p;
		if (o->xs[p] == engine_knob_value(&o->s->sc, k))
			current = (long)p;
	}
	engine_unit_format(ENGINE_UNIT_BYTES, o->s->sc.gpu.memory_bytes, b, sizeof b);
	snprintf(cap, sizeof cap, "← capacity %s", b);
	/* the charts as wide as the width leaves beside the axis (14) and the capacity's label,
	 * 60 at most, 16 at least */
	pw = width - 14 - 1 - (int)util_text_width(cap);
	pw = pw > 60 ? 60 : pw < 16 ? 16 : pw;
	mark[0] = '\0';
	if (first_over >= 0) {
		size_t pos = 0;
		plot_value(k->unit, o->xs[first_over], b, sizeof b);
		util_bprintf(mark, sizeof mark, &pos, _("%s %s: the first point that does not fit"), k->key, b);
		if (strcmp(k->key, "batch") == 0) {
			char mb[40];
			engine_fmt_max_batch_tr(engine_solve_max_batch(&o->s->sc), &cli_tr, mb, sizeof mb);
			util_bprintf(mark, sizeof mark, &pos, _(" (memory.max_batch: %s)"), mb);
		}
	}
	/* a chart per result (memory.fits is said by the mark) */
	for (j = 0; j < o->shown; j++) {
		const struct engine_metric *m = &o->sw->metrics[j];
		struct plot_curve c;
		char title[160];
		bool memory = m->unit == ENGINE_UNIT_BYTES && strncmp(m->key, "memory.", 7) == 0;
		if (m->kind == ENGINE_METRIC_FITS)
			continue;
		for (p = 0; p < o->nx; p++)
			y[p] = o->values[p * o->nm + j];
		/* the label is the engine's msgid (the CSV and JSON keep the key and English) */
		snprintf(title, sizeof title, _("\n%s (%s)%s"), m->key, _(m->label),
			 memory ? _(", per GPU") : m->unit == ENGINE_UNIT_SECONDS ? _(", per step") : "");
		memset(&c, 0, sizeof c);
		c.title = title;
		c.x = o->xs;
		c.y = y;
		c.n = o->nx;
		c.log_x = rx->geometric;
		c.x_unit = k->unit;
		c.y_unit = m->unit;
		c.x_name = k->key;
		c.line = memory && strcmp(m->key, "memory.total") == 0 ? o->s->sc.gpu.memory_bytes : NAN;
		c.line_label = cap;
		c.mark = first_over;
		c.mark_label = mark[0] ? mark : NULL;
		c.current = current;
		plot_curve(f, &c, pw, 12);
		if (o->nparts[j] > 0)
			out_text_stack(o, j, &c, pw, f);
	}
	if (first_over >= 0)
		fprintf(f, "\n%s\n", mark);
	free(y);
}

static void out_text_grid(const struct sweep_out *o, FILE *f)
{
	size_t j, p, n = o->nx * o->ny;
	double *v = malloc(2 * n * sizeof *v), *fit;

	if (v == NULL)
		return;
	fit = v + n;
	for (p = 0; p < n; p++) /* memory.fits is always computed (o->fits) */
		fit[p] = o->values[p * o->nm + (size_t)o->fits];
	for (j = 0; j < o->shown; j++) {
		const struct engine_metric *m = &o->sw->metrics[j];
		for (p = 0; p < n; p++)
			v[p] = o->values[p * o->nm + j];
		fprintf(f, "%s", j > 0 ? "\n" : "");
		plot_heatmap(f, m->key, o->xs, o->nx, o->ys, o->ny, v, fit, o->sw->range[0].knob->unit,
			     o->sw->range[1].knob->unit, m->unit, o->sw->range[0].knob->key, o->sw->range[1].knob->key,
			     m->kind == ENGINE_METRIC_FITS);
	}
	free(v);
}

/* A point's price: the swept value where price is swept, else the scenario's. */
static double point_price(const struct cli_setup *s, const struct engine_sweep *sw, double x, double y)
{
	if (strcmp(sw->range[0].knob->key, "price") == 0)
		return x;
	if (sw->nrange == 2 && strcmp(sw->range[1].knob->key, "price") == 0)
		return y;
	return s->sc.price;
}

/* --strong: the global batch to keep, the scenario's (batch × grad_accum × dp); where the
 * scenario's own layout is not valid (gpus swept from 64 with tp 4 × pp 4 over the
 * default 8 GPUs), the first valid point's. 0 when no point is valid. */
static double strong_global_batch(const struct cli_setup *s, const struct engine_sweep *sw, const double *xs, size_t nx,
				  const double *ys, size_t ny)
{
	const struct engine_knob *k[2] = {sw->range[0].knob, sw->range[1].knob};
	struct engine_scenario sc;
	struct engine_result r;
	struct napkin_err err;
	size_t p;

	util_err_clear(&err);
	if (s->valid && engine_compute(&s->sc, &r, &err) == NAPKIN_OK)
		return r.compute.global_batch;
	for (p = 0; p < nx * ny; p++) {
		double v[2] = {xs[p % nx], sw->nrange == 2 ? ys[p / nx] : 0.0};
		if (engine_sweep_point(&s->sc, k, v, (size_t)sw->nrange, false, &sc, &r, &err) == NAPKIN_OK)
			return r.compute.global_batch;
	}
	return 0.0;
}

int cmd_sweep(int argc, char **argv)
{
	const char *format = "text", *yopt = NULL, *pos[3];
	bool stack = false, strong = false;
	struct cli_opt opts[] = {
		{"y", "RESULT,...", &yopt, NULL, N_("results to compute (JSON report keys; default memory.total,memory.fits,compute.step_seconds)")},
		{"format", "text|csv|json", &format, NULL, N_("output format (text: a table and the chart)")},
		{"stack", NULL, NULL, &stack,
		 N_("text: under memory.total and the step time, their parts stacked (memory's ten, the step's twelve)")},
		{"strong", NULL, NULL, &strong,
		 N_("strong scaling: keep the global batch (batch × grad_accum × dp) of the scenario, grad_accum set per point")},
		{NULL, NULL, NULL, NULL, NULL},
	};
	struct cli_setup s;
	struct engine_metric m[MAX_Y + 1 + 3 * ENGINE_STEP_PARTS];
	struct engine_sweep sw;
	struct sweep_out o;
	struct napkin_err err;
	enum sweep_format fmt;
	double *xs = NULL, *ys = NULL, *values = NULL;
	int *rcs = NULL, npos = 0, i, rc;
	size_t nm, total, p, valid = 0;

	/* the scenario need not be valid as a whole until the swept knobs take their values
	 * (gpus=64..1024 with tp 4 × pp 4: the default 8 GPUs are not a layout); each point is
	 * validated with them */
	rc = cli_setup_ex("sweep", argc, argv, opts, &s, pos, 3, &npos, CLI_SETUP_UNCHECKED);
	if (rc != 0)
		return rc;
	if (s.help) {
		/* the help at the terminal's width (cli_fit): the list of results breaks under it */
		struct cli_fit ft;
		FILE *f = cli_fit_begin(&ft, stdout, cli_width(stdout));
		cli_print_usage(f, "napkin sweep KNOB=FROM..TO[:xFACTOR|:+STEP] [KNOB2=FROM..TO...] [--y RESULT,...] "
					"[KNOBS] [--format text|csv|json]");
		cli_print_prose(f, _("A range is FROM..TO in the knob's units (seq=512..128k, gpu_memory=40GB..192GB), stepped by\n"
		       ":+STEP or :xFACTOR; a knob alone takes its default range (batch 1 .. twice the largest\n"
		       "that fits, seq 512..128k, gpus 8..4096). Two ranges make a heatmap. Each point is validated\n"
		       "with its swept values; an invalid point is a row with its reason. --strong keeps the\n"
		       "global batch (strong scaling): grad_accum is set per point, and a point where no whole\n"
		       "grad_accum keeps it is invalid.\n\n"), cli_width(stdout) < 100 ? cli_width(stdout) : 100);
		cli_print_opts(f, opts);
		fputc('\n', f);
		list_metrics(f);
		fputc('\n', f);
		cli_print_knobs(f);
		cli_fit_end(&ft);
		cli_setup_free(&s);
		return CLI_EXIT_OK;
	}
	rc = CLI_EXIT_USAGE;
	if (strcmp(format, "text") == 0)
		fmt = SW_TEXT;
	else if (strcmp(format, "csv") == 0)
		fmt = SW_CSV;
	else if (strcmp(format, "json") == 0)
		fmt = SW_JSON;
	else {
		fprintf(stderr, _("napkin %s: --format: '%s' is not a format; allowed: %s\n"), "sweep", format, "text, csv, json");
		goto out;
	}
	if (npos < 1 || npos > 2) {
		fprintf(stderr,
			npos < 1 ? _("napkin sweep: no range: give one range (a curve) or two (a heatmap), as "
				     "KNOB=FROM..TO[:xFACTOR|:+STEP], e.g. batch=1..64 or seq=512..128k:x2\n")
				 : _("napkin sweep: too many ranges: give one range (a curve) or two (a heatmap), as "
				     "KNOB=FROM..TO[:xFACTOR|:+STEP], e.g. batch=1..64 or seq=512..128k:x2\n"));
		goto out;
	}
	memset(&sw, 0, sizeof sw);
	sw.nrange = npos;
	for (i = 0; i < npos; i++) {
		const char *given;
		util_err_clear(&err);
		/* a knob's default range comes from the scenario: it has to be valid first */
		if (!s.valid && strchr(pos[i], '=') == NULL) {
			cli_error("sweep", &s.invalid);
			goto out;
		}
		if (engine_range_parse(&s.sc, pos[i], &sw.range[i], &err) != NAPKIN_OK || sw.range[i].knob == NULL) {
			fprintf(stderr, _("napkin %s: %s\n"), "sweep", err.msg);
			goto out;
		}
		/* a swept knob given as a flag too is a slip, refused as a knob given twice is */
		if ((given = cli_setup_flag(&s, sw.range[i].knob)) != NULL) {
			fprintf(stderr, _("napkin sweep: %s is swept ('%s') and given as --%s '%s': give it once\n"),
				sw.range[i].knob->key, pos[i], sw.range[i].knob->key, given);
			goto out;
		}
	}
	if (npos == 2 && sw.range[0].knob == sw.range[1].knob) {
		fprintf(stderr, _("napkin sweep: %s is swept twice: give two different knobs\n"), sw.range[0].knob->key);
		goto out;
	}
	if (stack && (fmt != SW_TEXT || npos != 1)) {
		fprintf(stderr, _("napkin sweep: --stack draws the parts under a curve in the text form (one range, "
				  "--format text); csv and json give the parts when asked: --y memory.weights,memory.activations,...\n"));
		goto out;
	}
	if (strong) {
		for (i = 0; i < npos; i++)
			if (strcmp(sw.range[i].knob->key, "grad_accum") == 0) {
				fprintf(stderr, _("napkin sweep: --strong sets grad_accum at each point to keep the global batch: "
						  "sweep another knob, or drop --strong\n"));
				goto out;
			}
		if (s.sc.mode != ENGINE_MODE_TRAIN) {
			fprintf(stderr, _("napkin sweep: --strong keeps a training step's global batch: it needs mode train\n"));
			goto out;
		}
	}
	if ((rc = parse_y(yopt, s.sc.tr, m, &nm)) != 0)
		goto out;
	rc = CLI_EXIT_USAGE;
	memset(&o, 0, sizeof o);
	o.shown = nm;
	o.fits = -1;
	for (p = 0; p < nm; p++)
		if (m[p].kind == ENGINE_METRIC_FITS)
			o.fits = (long)p;
	if (o.fits < 0) { /* the chart marks the first point that does not fit */
		(void)engine_metric_find("memory.fits", &m[nm], &err);
		o.fits = (long)nm++;
	}
	for (p = 0; stack && p < o.shown; p++) { /* the parts go after what was asked */
		size_t np = engine_metric_parts(m[p].key, NULL, 0);
		if (np == 0 || nm + np > sizeof m / sizeof m[0])
			continue;
		o.part0[p] = nm;
		o.nparts[p] = engine_metric_parts(m[p].key, &m[nm], np);
		nm += np;
	}
	sw.metrics = m;
	sw.nmetrics = nm;
	o.nx = engine_range_values(&sw.range[0], NULL, 0);
	o.ny = npos == 2 ? engine_range_values(&sw.range[1], NULL, 0) : 1;
	total = o.nx * o.ny;
	if (total > MAX_POINTS) {
		fprintf(stderr, _("napkin sweep: %zu x %zu is %zu points; at most %d (larger steps, or :x2)\n"), o.nx, o.ny,
			total, MAX_POINTS);
		goto out;
	}
	xs = malloc(o.nx * sizeof *xs);
	ys = malloc(o.ny * sizeof *ys);
	values = malloc(total * nm * sizeof *values);
	rcs = malloc(total * sizeof *rcs);
	if (xs == NULL || ys == NULL || values == NULL || rcs == NULL) {
		fprintf(stderr, _("napkin %s: out of memory\n"), "sweep");
		rc = CLI_EXIT_FAIL;
		goto out;
	}
	engine_range_values(&sw.range[0], xs, o.nx);
	ys[0] = 0.0;
	if (npos == 2)
		engine_range_values(&sw.range[1], ys, o.ny);
	if (strong)
		sw.keep_global_batch = strong_global_batch(&s, &sw, xs, o.nx, ys, o.ny);
	/* CSV and JSON are contracts: English (the points' errors too); the messages above are the user's */
	if (fmt != SW_TEXT)
		s.sc.tr = NULL;
	util_err_clear(&err);
	if (engine_sweep_run(&s.sc, &sw, xs, ys, values, rcs, total, &err) == 0) {
		fprintf(stderr, _("napkin %s: %s\n"), "sweep", err.msg);
		goto out;
	}
	for (p = 0; p < total; p++)
		valid += rcs[p] == 0;
	/* no price: no cost, as the report says (null in JSON, empty in CSV, "no price" in text) */
	for (p = 0; p < total; p++)
		for (i = 0; i < (int)nm; i++)
			if (m[i].kind == ENGINE_METRIC_COST && !(point_price(&s, &sw, xs[p % o.nx], ys[p / o.nx]) > 0))
				values[p * nm + (size_t)i] = NAN;
	if (valid == 0) {
		fprintf(stderr, _("napkin sweep: no point of the sweep is valid; the first says: %s\n"), err.msg);
		goto out;
	}
	o.s = &s;
	o.sw = &sw;
	o.xs = xs;
	o.ys = ys;
	o.values = values;
	o.rc = rcs;
	o.nm = nm;
	if (fmt == SW_CSV)
		out_csv(&o);
	else if (fmt == SW_JSON)
		out_json(&o);
	else {
		/* the text at the terminal's width (cli_fit): the table groups its columns, the
		 * charts narrow, and what is still too wide breaks by fit.c's rule */
		char sum[256];
		struct cli_fit ft;
		int width = cli_width(stdout);
		FILE *f = cli_fit_begin(&ft, stdout, width);
		engine_scenario_summary(&s.sc, sum, sizeof sum);
		fprintf(f, "%s\n\n", sum);
		if (sw.keep_global_batch > 0)
			fprintf(f,
				_("strong scaling: every point keeps the global batch of %.0f sequences (grad_accum set per "
				  "point)\n\n"),
				sw.keep_global_batch);
		if (npos == 1)
			out_text_curve(&o, f, width);
		else
			out_text_grid(&o, f);
		cli_fit_end(&ft);
	}
	rc = CLI_EXIT_OK;
	if (fflush(stdout) != 0 || ferror(stdout)) {
		cli_write_error("sweep");
		rc = CLI_EXIT_FAIL;
	}
out:
	free(xs);
	free(ys);
	free(values);
	free(rcs);
	cli_setup_free(&s);
	return rc;
}
