/* napkin sweep: the scenario along one knob (a curve) or two (a heatmap), one row a point,
 * as text (a table and the chart), CSV or JSON. The engine does the sweep (tradeoff.h). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "i18n.h"
#include "emit.h"
#include "plot.h"
#include "sweep_out.h"
#include "tradeoff.h"

#define MAX_Y SWEEP_MAX_Y
#define MAX_POINTS 65536 /* a 256 x 256 heatmap */

enum sweep_format { SW_TEXT, SW_CSV, SW_JSON, SW_SVG, SW_PNG };

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
	const char *format = "text", *yopt = NULL, *pos[3], *output = NULL;
	bool stack = false, strong = false, force = false;
	struct cli_opt opts[] = {
		{"y", "RESULT,...", &yopt, NULL, N_("results to compute (JSON report keys; default memory.total,memory.fits,compute.step_seconds; in "
		    "mode infer serving.tokens_per_s_gpu,serving.itl_seconds,serving.ttft_seconds, and over batch the "
		    "throughput-vs-latency table)")},
		{"format", "text|csv|json|svg|png", &format, NULL,
		 N_("output format (text: a table and the chart; svg: the curves, or the heatmap of the first result, for slides; "
		    "png: the same through rsvg-convert)")},
		{"output", "FILE", &output, NULL, N_("write to FILE instead of stdout (-o FILE; a file that exists needs --force)")},
		{"force", NULL, NULL, &force, N_("--output may replace a file that exists")},
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
					"[KNOBS] [--format text|csv|json|svg|png] [--output FILE [--force]]");
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
	else if (strcmp(format, "svg") == 0)
		fmt = SW_SVG;
	else if (strcmp(format, "png") == 0)
		fmt = SW_PNG;
	else {
		fprintf(stderr, _("napkin %s: --format: '%s' is not a format; allowed: %s\n"), "sweep", format, "text, csv, json, svg, png");
		goto out;
	}
	if (fmt != SW_SVG && fmt != SW_PNG && (output != NULL || force)) {
		fprintf(stderr, _("napkin sweep: --%s goes with --format svg\n"), output != NULL ? "output" : "force");
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
	/* mode infer: serving's throughput and latencies by default (a training step's time means
	 * nothing there); over the users, batch, also the throughput-vs-latency table */
	if (yopt == NULL && npos == 1 && s.sc.mode == ENGINE_MODE_INFER)
		yopt = "serving.tokens_per_s_gpu,serving.itl_seconds,serving.ttft_seconds,memory.fits";
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
	if (fmt == SW_CSV || fmt == SW_JSON)
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
	if (fmt == SW_SVG || fmt == SW_PNG) {
		rc = sweep_out_svg(&o, output, force, fmt == SW_PNG);
		goto out;
	}
	if (fmt == SW_CSV)
		sweep_out_csv(&o);
	else if (fmt == SW_JSON)
		sweep_out_json(&o);
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
			sweep_out_text_curve(&o, f, width);
		else
			sweep_out_text_grid(&o, f);
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
