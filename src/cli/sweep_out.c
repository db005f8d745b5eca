/* napkin sweep's output: CSV, JSON, and the text table, curves and heatmaps (sweep_out.h). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "emit.h"
#include "i18n.h"
#include "plot.h"
#include "sweep_out.h"

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

void sweep_out_csv(const struct sweep_out *o)
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

void sweep_out_json(const struct sweep_out *o)
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

/* Sweeping a replica's users with an engine set: the sequences the engine runs at once
 * (serving.running_max: its KV cache within its memory share over what a sequence holds,
 * at most its sequence limit, serve_batch.c), past which users wait their turn; -1
 * otherwise (memory.fits says what fits). */
static double engine_admits(const struct sweep_out *o, const struct engine_knob *k)
{
	struct engine_result *r;
	struct napkin_err err;
	double n = -1.0;

	if (strcmp(k->key, "batch") != 0 || o->s->sc.mode != ENGINE_MODE_INFER || o->s->sc.serve_engine == ENGINE_SERVE_NONE)
		return -1.0;
	r = malloc(sizeof *r);
	if (r == NULL)
		return -1.0;
	util_err_clear(&err);
	if (engine_evaluate(&o->s->sc, r, &err) == NAPKIN_OK && r->serving.running_max >= 1.0)
		n = r->serving.running_max;
	free(r);
	return n;
}

/* A point past what fits: over the engine's capacity when admits ≥ 0, else memory.fits. */
static bool point_over(const struct sweep_out *o, size_t p, double admits)
{
	if (o->rc[p] != 0)
		return false;
	return admits >= 0 ? o->xs[p] > admits : o->values[p * o->nm + (size_t)o->fits] < 0.5;
}

void sweep_out_text_curve(const struct sweep_out *o, FILE *f, int width)
{
	const struct engine_range *rx = &o->sw->range[0];
	const struct engine_knob *k = rx->knob;
	size_t p, j, from;
	int lw, sw, cw[SWEEP_MAX_Y], total, ngroups = 0, pw;
	long first_over = -1, current = -1;
	double *y = malloc(o->nx * sizeof *y);
	char b[64], cap[96], mark[200], slo[96];
	double admits;
	const char *over_word;

	if (y == NULL)
		return;
	admits = engine_admits(o, k);
	over_word = admits >= 0 ? _("✗ beyond capacity") : _("✗ does not fit");
	/* the table: each column as wide as its widest cell; the results that do not fit beside
	 * each other in the width come in groups below, each with the rows' knob values, as
	 * compare's columns do; a point that does not fit or is invalid marked ✗ as compare
	 * marks its columns (the reason of an invalid one after the last group) */
	lw = (int)util_text_width(k->key);
	sw = 0;
	for (p = 0; p < o->nx; p++) {
		const char *st = o->rc[p] != 0 ? _("✗ invalid") : point_over(o, p, admits) ? over_word : "";
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
			bool over = point_over(o, p, admits);
			plot_value(k->unit, o->xs[p], b, sizeof b);
			fprintf(f, "%s", ralign(cell, sizeof cell, b, lw));
			for (j = from; j < to; j++) {
				fmt_metric(&o->sw->metrics[j], o->values[p * o->nm + j], o->rc[p] == 0, b, sizeof b);
				fprintf(f, "  %s", ralign(cell, sizeof cell, b, cw[j]));
			}
			if (o->rc[p] != 0)
				fprintf(f, "  %s", _("✗ invalid"));
			else if (over)
				fprintf(f, "  %s", over_word);
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
		if (first_over < 0 && point_over(o, p, admits))
			first_over = (long)p;
		if (o->xs[p] == engine_knob_value(&o->s->sc, k))
			current = (long)p;
	}
	engine_unit_format(ENGINE_UNIT_BYTES, o->s->sc.gpu.memory_bytes, b, sizeof b);
	snprintf(cap, sizeof cap, _("← capacity %s"), b);
	/* the charts as wide as the width leaves beside the axis (14) and the capacity's label,
	 * 60 at most, 16 at least */
	pw = width - 14 - 1 - (int)util_text_width(cap);
	pw = pw > 60 ? 60 : pw < 16 ? 16 : pw;
	mark[0] = '\0';
	if (first_over >= 0) {
		size_t pos = 0;
		plot_value(k->unit, o->xs[first_over], b, sizeof b);
		if (admits >= 0)
			util_bprintf(mark, sizeof mark, &pos,
				     _("%s %s: the first point past what the engine runs at once (serving.running_max: %.0f; "
				       "the users over it wait)"),
				     k->key, b, admits);
		else
			util_bprintf(mark, sizeof mark, &pos, _("%s %s: the first point that does not fit"), k->key, b);
		if (admits < 0 && strcmp(k->key, "batch") == 0) {
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
			 memory ? _(", per GPU")
			 : m->unit == ENGINE_UNIT_SECONDS && strncmp(m->key, "serving.", 8) != 0 ? _(", per step")
										   : "");
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
		if (isnan(c.line)) {
			c.line = sweep_slo_line(o, m->key, slo, sizeof slo);
			c.line_label = slo;
		}
		c.mark = first_over;
		c.mark_label = mark[0] ? mark : NULL;
		c.current = current;
		plot_curve(f, &c, pw, 12);
		if (o->nparts[j] > 0)
			out_text_stack(o, j, &c, pw, f);
	}
	if (first_over >= 0)
		fprintf(f, "\n%s\n", mark);
	sweep_out_text_serving(o, f);
	free(y);
}

void sweep_out_text_grid(const struct sweep_out *o, FILE *f)
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

int sweep_out_svg(const struct sweep_out *o, const char *path, bool force, bool png)
{
	struct cli_figure fg;
	size_t j;

	memset(&fg, 0, sizeof fg);
	if (o->sw->nrange == 1) {
		struct figure_curve c;
		char cap[96], b[64], slo[FIGURE_PANELS_MAX][96], plabel[96];
		memset(&c, 0, sizeof c);
		c.sc = &o->s->sc;
		c.knob = o->sw->range[0].knob;
		c.x = o->xs;
		c.n = o->nx;
		c.stride = o->nm;
		c.log_x = o->sw->range[0].geometric;
		c.fits = o->values + o->fits;
		c.rc = o->rc;
		engine_unit_format(ENGINE_UNIT_BYTES, o->s->sc.gpu.memory_bytes, b, sizeof b);
		snprintf(cap, sizeof cap, _("capacity %s"), b);
		for (j = 0; j < o->shown && c.ns < FIGURE_PANELS_MAX; j++) {
			const struct engine_metric *m = &o->sw->metrics[j];
			struct figure_series *se = &c.s[c.ns];
			if (m->kind == ENGINE_METRIC_FITS) /* said by the points' colour */
				continue;
			se->key = m->key;
			se->label = _(m->label);
			se->unit = m->unit;
			se->y = o->values + j;
			se->line = strcmp(m->key, "memory.total") == 0 ? o->s->sc.gpu.memory_bytes : NAN;
			se->line_label = cap;
			if (isnan(se->line)) {
				se->line = sweep_slo_line(o, m->key, slo[c.ns], sizeof slo[c.ns]);
				se->line_label = slo[c.ns];
			}
			c.ns++;
		}
		sweep_pareto(o, &c, plabel, sizeof plabel);
		fg.kind = FIGURE_SWEEP;
		fg.curve = &c;
		return cli_figure_out("sweep", path, force, png, &fg);
	} else {
		struct figure_heat h;
		memset(&h, 0, sizeof h);
		h.sc = &o->s->sc;
		h.kx = o->sw->range[0].knob;
		h.ky = o->sw->range[1].knob;
		h.x = o->xs;
		h.y = o->ys;
		h.nx = o->nx;
		h.ny = o->ny;
		h.stride = o->nm;
		h.fits = o->values + o->fits;
		h.rc = o->rc;
		for (j = 0; j < o->shown; j++) /* the first result that is not memory.fits (else that one) */
			if (o->sw->metrics[j].kind != ENGINE_METRIC_FITS)
				break;
		if (j == o->shown)
			j = 0;
		h.v = o->values + j;
		h.key = o->sw->metrics[j].key;
		h.label = _(o->sw->metrics[j].label);
		h.unit = o->sw->metrics[j].unit;
		fg.kind = FIGURE_HEATMAP;
		fg.heat = &h;
		return cli_figure_out("sweep", path, force, png, &fg);
	}
}
