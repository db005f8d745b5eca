/* napkin sweep over the users of a serving replica (batch, mode infer): the SLA targets as
 * lines on the TTFT and ITL charts, and the throughput-vs-latency table serving people read
 * (each concurrency's time between tokens, first token and output tokens/s per GPU, the
 * points within the targets marked), from the same steady state the report prints. */
#include <math.h>
#include <string.h>

#include "cli.h"
#include "figure.h"
#include "i18n.h"
#include "sweep_out.h"

double sweep_slo_line(const struct sweep_out *o, const char *key, char *label, size_t n)
{
	const struct engine_scenario *sc = &o->s->sc;
	char b[48];

	if (sc->mode != ENGINE_MODE_INFER)
		return NAN;
	if (sc->tpot_slo > 0 && (strcmp(key, "serving.itl_seconds") == 0 || strcmp(key, "inference.tpot_seconds") == 0)) {
		engine_fmt_seconds_tr(sc->tpot_slo, &cli_tr, b, sizeof b);
		snprintf(label, n, _("ITL target %s"), b);
		return sc->tpot_slo;
	}
	if (sc->ttft_slo > 0 && (strcmp(key, "serving.ttft_seconds") == 0 || strcmp(key, "inference.ttft_seconds") == 0)) {
		engine_fmt_seconds_tr(sc->ttft_slo, &cli_tr, b, sizeof b);
		snprintf(label, n, _("TTFT target %s"), b);
		return sc->ttft_slo;
	}
	return NAN;
}

static long metric_index(const struct sweep_out *o, const char *key)
{
	size_t j;

	for (j = 0; j < o->nm; j++)
		if (strcmp(o->sw->metrics[j].key, key) == 0)
			return (long)j;
	return -1;
}

static void pad(FILE *f, const char *text, int width)
{
	int w = (int)util_text_width(text);

	for (; w < width; w++)
		fputc(' ', f);
	fputs(text, f);
}

void sweep_out_text_serving(const struct sweep_out *o, FILE *f)
{
	const struct engine_scenario *sc = &o->s->sc;
	long it = metric_index(o, "serving.itl_seconds"), tt = metric_index(o, "serving.ttft_seconds");
	long tg = metric_index(o, "serving.tokens_per_s_gpu");
	bool slo = sc->ttft_slo > 0 || sc->tpot_slo > 0;
	long best = -1;
	size_t p;
	char a[48], b[48], c[48];

	if (sc->mode != ENGINE_MODE_INFER || o->sw->nrange != 1 || strcmp(o->sw->range[0].knob->key, "batch") != 0 ||
	    it < 0 || tg < 0)
		return;
	fprintf(f, _("\nthroughput against latency (one replica's steady state at each number of users)\n"));
	/* the heads right-aligned over their columns by display width (Chinese is two columns a character) */
	fputs("  ", f);
	pad(f, _("users"), 8);
	fputs("  ", f);
	pad(f, _("ITL"), 12);
	fputs("  ", f);
	pad(f, tt >= 0 ? _("TTFT") : "", 12);
	fputs("  ", f);
	pad(f, _("tokens/s per GPU"), 16);
	fprintf(f, "%s\n", slo ? _("  within the targets") : "");
	for (p = 0; p < o->nx; p++) {
		double itl = o->values[p * o->nm + (size_t)it], gpu = o->values[p * o->nm + (size_t)tg];
		double ttft = tt >= 0 ? o->values[p * o->nm + (size_t)tt] : NAN;
		bool ok;
		if (o->rc[p] != 0)
			continue;
		ok = (sc->tpot_slo <= 0 || itl <= sc->tpot_slo) && (sc->ttft_slo <= 0 || tt < 0 || ttft <= sc->ttft_slo);
		engine_fmt_seconds_tr(itl, &cli_tr, a, sizeof a);
		if (tt >= 0)
			engine_fmt_seconds_tr(ttft, &cli_tr, b, sizeof b);
		else
			b[0] = '\0';
		engine_fmt_count(gpu, c, sizeof c);
		fprintf(f, "  %8.0f  %12s  %12s  %16s%s\n", o->xs[p], a, b, c, slo ? (ok ? "  ✓" : "  ✗") : "");
		if (slo && ok && (best < 0 || gpu > o->values[(size_t)best * o->nm + (size_t)tg]))
			best = (long)p;
	}
	if (slo) {
		struct engine_result r;
		struct napkin_err err;
		engine_fmt_seconds_tr(sc->ttft_slo, &cli_tr, a, sizeof a);
		engine_fmt_seconds_tr(sc->tpot_slo, &cli_tr, b, sizeof b);
		util_err_clear(&err);
		/* the report's SLA concurrency: the most users within both, found by bisection; on
		 * the means, as the sweep's closed-loop marks hold them, whatever slo_percentile says */
		struct engine_scenario means = *sc;
		means.slo_percentile = ENGINE_SLO_MEAN;
		if (engine_compute(&means, &r, &err) == NAPKIN_OK) {
			engine_fmt_count(r.serving.sla_tokens_per_s_gpu, c, sizeof c);
			fprintf(f, _("  SLA      mean TTFT ≤ %s and mean ITL ≤ %s: at most %.0f concurrent users a replica (%s output tokens/s "
				     "per GPU)\n"),
				sc->ttft_slo > 0 ? a : _("any"), sc->tpot_slo > 0 ? b : _("any"), r.serving.sla_concurrency, c);
		}
		if (best < 0)
			fprintf(f, _("  no point of the sweep meets the targets\n"));
	}
}

void sweep_pareto(const struct sweep_out *o, struct figure_curve *c, char *label, size_t n)
{
	size_t j;
	bool x = false, y = false;

	if (o->s->sc.mode != ENGINE_MODE_INFER || o->sw->nrange != 1 || strcmp(o->sw->range[0].knob->key, "batch") != 0)
		return;
	for (j = 0; j < c->ns; j++) {
		if (strcmp(c->s[j].key, "serving.itl_seconds") == 0) {
			c->pareto_x = j;
			x = true;
		} else if (strcmp(c->s[j].key, "serving.tokens_per_s_gpu") == 0) {
			c->pareto_y = j;
			y = true;
		}
	}
	c->pareto = x && y;
	c->pareto_line = sweep_slo_line(o, "serving.itl_seconds", label, n);
	c->pareto_line_label = label;
}
