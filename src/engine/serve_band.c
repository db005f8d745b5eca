/*
 * Serving's error bands: what validation measured for figures like the scenario's.
 *
 * Source: the published serving cases of tests/unit/test_serving_validation.c (its tables in
 * tests/unit/serving_cases.h; docs/serving-validation.md lists them with their sources), each
 * predicted as napkin predicts any scenario and compared in the published unit, error =
 * predicted ÷ published − 1. Only the modelled cases count, as in that test's modelled
 * medians: not those excluded (faster than their weights' bandwidth bound), those at a rate
 * napkin's replica does not sustain, nor those apart (a setting napkin does not model). They
 * are grouped by metric × engine; each row below is a group's count, the 80th percentile of
 * |error| (nearest rank: the ⌈0.8·n⌉-th smallest), the median |error| and the signed median,
 * as the training step's bands (step_band.c). The test recomputes every row from the cases
 * and fails when one disagrees, so the table cannot drift from the validation. Nothing here
 * is tuned: a row is a measurement of the model.
 *
 * A scenario takes its engine's row when it has at least ENGINE_BAND_MIN_RUNS cases (the
 * step band's minimum, for the same reason: fewer make an 80th percentile of one or two
 * cases); otherwise the metric's row over every engine, and says which. No band, and the
 * text says "no validation", where the validation has nothing like the figure: without an
 * engine (every case ran one), or an open load beyond the rate the replica completes (no
 * steady state; the validation counts those cases apart). A sustained open load's output
 * tokens/s is its rate × the tokens a request, set by the `rate` knob: no band either.
 * Every TTFT and ITL case is an open load (MLPerf's server runs, the SGLang team's runs at a
 * rate); a closed loop's TTFT and ITL take their band, the same step model under a different
 * queue (docs/serving-validation.md says so).
 *
 * The request latency (serving.e2e_seconds) is validated too (NeMo's TensorRT-LLM table),
 * but its cases are one batch of 128-token prompts and 20 output tokens: no row here.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "internal.h"

#define ANY (-1)
#define VLLM ENGINE_SERVE_VLLM
#define SGL ENGINE_SERVE_SGLANG
#define TRT ENGINE_SERVE_TRTLLM
#define TGI ENGINE_SERVE_TGI
#define TTFT ENGINE_SM_TTFT
#define ITL ENGINE_SM_ITL
#define TPUT ENGINE_SM_TPUT
#define CAP ENGINE_SM_CAP
#define ANYL ENGINE_SLOAD_ANY
#define LIGHT ENGINE_SLOAD_LIGHT
#define HEAVY ENGINE_SLOAD_HEAVY

/* metric, engine, load, n, q80 |error|, median |error|, signed median: test_serving_validation's
 * test_bands prints these rows from the cases */
static const struct engine_serve_band_row rows[] = {
	/* tests/unit/test_serving_validation.c: the modelled cases (docs/serving-validation.md) */
	{TTFT, ANY, ANYL, 33, 0.516, 0.203, -0.191},
	{TTFT, VLLM, ANYL, 12, 0.203, 0.166, -0.166},
	{TTFT, SGL, ANYL, 4, 0.069, 0.054, 0.020},
	{TTFT, TRT, ANYL, 17, 0.630, 0.439, -0.402},
	{TTFT, ANY, LIGHT, 9, 0.176, 0.098, -0.098},
	{TTFT, VLLM, LIGHT, 5, 0.176, 0.156, -0.156},
	{TTFT, SGL, LIGHT, 4, 0.069, 0.054, 0.020},
	{TTFT, ANY, HEAVY, 24, 0.605, 0.390, -0.338},
	{TTFT, VLLM, HEAVY, 7, 0.378, 0.168, -0.168},
	{TTFT, TRT, HEAVY, 17, 0.630, 0.439, -0.402},
	{ITL, ANY, ANYL, 37, 0.431, 0.190, -0.128},
	{ITL, VLLM, ANYL, 12, 0.292, 0.176, -0.060},
	{ITL, SGL, ANYL, 8, 0.128, 0.046, -0.001},
	{ITL, TRT, ANYL, 17, 0.548, 0.384, -0.384},
	{ITL, ANY, LIGHT, 13, 0.149, 0.056, -0.009},
	{ITL, VLLM, LIGHT, 5, 0.162, 0.075, -0.015},
	{ITL, SGL, LIGHT, 8, 0.128, 0.046, -0.001},
	{ITL, ANY, HEAVY, 24, 0.548, 0.311, -0.285},
	{ITL, VLLM, HEAVY, 7, 0.362, 0.251, -0.215},
	{ITL, TRT, HEAVY, 17, 0.548, 0.384, -0.384},
	{TPUT, ANY, ANYL, 66, 0.290, 0.146, 0.142},
	{TPUT, VLLM, ANYL, 34, 0.290, 0.134, 0.109},
	{TPUT, SGL, ANYL, 2, 0.555, 0.495, 0.495},
	{TPUT, TRT, ANYL, 30, 0.274, 0.163, 0.163},
	{CAP, ANY, ANYL, 25, 0.139, 0.059, 0.044},
	{CAP, VLLM, ANYL, 20, 0.078, 0.055, 0.041},
	{CAP, TRT, ANYL, 1, 0.154, 0.154, 0.154},
	{CAP, TGI, ANYL, 4, 0.657, 0.274, 0.274},
};

const struct engine_serve_band_row *engine_serve_bands(size_t *n)
{
	*n = sizeof rows / sizeof rows[0];
	return rows;
}

const char *engine_serve_metric_name(int metric)
{
	static const char *const names[ENGINE_SM_COUNT] = {"ttft", "itl", "tokens_per_s", "capacity"};

	return metric >= 0 && metric < ENGINE_SM_COUNT ? names[metric] : "?";
}

static const struct engine_serve_band_row *find(int metric, int engine, int load)
{
	size_t i;

	for (i = 0; i < sizeof rows / sizeof rows[0]; i++)
		if (rows[i].metric == metric && rows[i].engine == engine && rows[i].load == load && rows[i].count > 0)
			return &rows[i];
	return NULL;
}

/* The row a band takes: its engine's at its load, else every engine's at its load; a figure
 * without a load of its own (ENGINE_SLOAD_ANY), or a load without enough cases, the same over
 * every load. *level: ENGINE_BAND_GROUP or ENGINE_BAND_ALL; NULL without enough cases. */
static const struct engine_serve_band_row *pick(int metric, int engine, int *load, int *level)
{
	int pass;

	for (pass = 0; pass < 2; pass++) {
		const struct engine_serve_band_row *r;
		if (pass == 1)
			*load = ENGINE_SLOAD_ANY;
		else if (*load == ENGINE_SLOAD_ANY)
			continue;
		*level = ENGINE_BAND_GROUP;
		if ((r = find(metric, engine, *load)) != NULL && r->count >= ENGINE_BAND_MIN_RUNS)
			return r;
		*level = ENGINE_BAND_ALL;
		if ((r = find(metric, ANY, *load)) != NULL && r->count >= ENGINE_BAND_MIN_RUNS)
			return r;
	}
	return NULL;
}

static double figure(const struct engine_serving *sv, int metric)
{
	switch (metric) {
	case ENGINE_SM_TTFT: return sv->ttft_seconds;
	case ENGINE_SM_ITL: return sv->itl_seconds;
	case ENGINE_SM_TPUT: return sv->tokens_per_s_replica;
	default: return (double)sv->max_concurrent;
	}
}

void eng_serve_band(const struct engine_scenario *sc, struct engine_serving *sv)
{
	int m;

	for (m = 0; m < ENGINE_SM_COUNT; m++) {
		struct engine_serve_band *b = &sv->band[m];
		const struct engine_serve_band_row *r;
		double f = figure(sv, m);

		memset(b, 0, sizeof *b);
		b->load = ENGINE_SLOAD_ANY;
		b->metric = m;
		b->engine = (int)sc->serve_engine;
		b->level = ENGINE_BAND_NONE;
		if (sc->serve_engine == ENGINE_SERVE_NONE) {
			b->why = ENGINE_SBW_NO_ENGINE;
			continue;
		}
		if (m != ENGINE_SM_CAP && sc->rate > 0 && sv->rate_saturated) {
			b->why = ENGINE_SBW_SATURATED;
			continue;
		}
		/* a sustained open load completes what arrives: its output rate is λ × generate, set
		 * by the knob, not predicted (the throughput cases are closed loops and SLA limits) */
		if (m == ENGINE_SM_TPUT && sc->rate > 0) {
			b->why = ENGINE_SBW_RATE_SET;
			continue;
		}
		/* xPyD (serve_pd.c): the cases all ran aggregated replicas; the decode replica's KV
		 * cache is the aggregated one's, so capacity keeps its band */
		if (m != ENGINE_SM_CAP && sc->prefill_replicas > 0) {
			b->why = ENGINE_SBW_PD;
			continue;
		}
		/* TTFT and ITL under an open load: the cases at a like load (their errors grow with
		 * it: near the most the replica completes, a step a few percent off moves the queue's
		 * times many times that; docs/serving-validation.md, "Error bands") */
		b->load = ENGINE_SLOAD_ANY;
		if ((m == ENGINE_SM_TTFT || m == ENGINE_SM_ITL) && sc->rate > 0 && sv->rate_max > 0) {
			b->utilization = sv->rate / sv->rate_max;
			b->load = b->utilization < ENGINE_SERVE_LOAD_SPLIT ? ENGINE_SLOAD_LIGHT : ENGINE_SLOAD_HEAVY;
		}
		r = pick(m, b->engine, &b->load, &b->level);
		if (b->load == ENGINE_SLOAD_ANY)
			b->utilization = 0.0; /* the band's cases are every load's */
		if (r == NULL || r->q80 >= 1.0 || !isfinite(f)) {
			b->level = ENGINE_BAND_NONE;
			b->load = ENGINE_SLOAD_ANY;
			b->why = ENGINE_SBW_NO_CASES;
			continue;
		}
		b->count = r->count;
		b->relative = r->q80;
		b->median = r->median;
		b->bias = r->bias;
		/* published = predicted ÷ (1 + error): |error| ≤ q puts it in [f/(1+q), f/(1−q)] */
		b->low = f / (1.0 + r->q80);
		b->high = f / (1.0 - r->q80);
	}
}

static const char *metric_label(const struct engine_tr *tr, int metric)
{
	switch (metric) {
	case ENGINE_SM_TTFT: return eng_tr(tr, N_("TTFT"));
	case ENGINE_SM_ITL: return eng_tr(tr, N_("ITL"));
	case ENGINE_SM_TPUT: return eng_tr(tr, N_("throughput"));
	default: return eng_tr(tr, N_("capacity"));
	}
}

void engine_serve_band_text(const struct engine_serve_band *b, const struct engine_tr *tr, char *buf, size_t n)
{
	const char *ml = metric_label(tr, b->metric);
	const char *el = eng_tr(tr, engine_serve_engine_label(b->engine));

	/* by the load of the cases (pick above): every load, under half, half and more; the two
	 * loads' words end with this load's share (a format that does not read it ignores it) */
	static const char *const own[3] = {
		N_("±%.0f%% from %lld %s %s cases (median |error| %.0f%%)"),
		N_("±%.0f%% from %lld %s %s cases at under half their replica's most requests/s (median |error| %.0f%%; "
		   "this load %.0f%%)"),
		N_("±%.0f%% from %lld %s %s cases at half their replica's most requests/s or more (median |error| "
		   "%.0f%%; this load %.0f%%)"),
	};
	static const char *const every[3] = {
		N_("±%.0f%% from all %lld %s cases (%s: fewer than %d; median |error| %.0f%%)"),
		N_("±%.0f%% from all %lld %s cases at under half their replica's most requests/s (%s: fewer than %d; "
		   "median |error| %.0f%%; this load %.0f%%)"),
		N_("±%.0f%% from all %lld %s cases at half their replica's most requests/s or more (%s: fewer than %d; "
		   "median |error| %.0f%%; this load %.0f%%)"),
	};
	int li = b->load - ENGINE_SLOAD_ANY;

	switch (b->level) {
	case ENGINE_BAND_GROUP:
		snprintf(buf, n, eng_tr(tr, own[li]), 100.0 * b->relative, (long long)b->count, el, ml, 100.0 * b->median,
			 100.0 * b->utilization);
		break;
	case ENGINE_BAND_ALL:
		snprintf(buf, n, eng_tr(tr, every[li]), 100.0 * b->relative, (long long)b->count, ml, el, ENGINE_BAND_MIN_RUNS,
			 100.0 * b->median, 100.0 * b->utilization);
		break;
	default:
		if (b->why == ENGINE_SBW_NO_ENGINE)
			snprintf(buf, n, eng_tr(tr, N_("no validation for %s without an engine")), ml);
		else if (b->why == ENGINE_SBW_SATURATED)
			snprintf(buf, n, eng_tr(tr, N_("no validation for %s beyond the rate the replica completes")), ml);
		else if (b->why == ENGINE_SBW_PD)
			snprintf(buf, n, eng_tr(tr, N_("no validation for %s of disaggregated prefill and decode")), ml);
		else if (b->why == ENGINE_SBW_RATE_SET)
			snprintf(buf, n, eng_tr(tr, N_("no band for %s: an open load's output is its rate × the tokens a request")),
				 ml);
		else
			snprintf(buf, n, eng_tr(tr, N_("no validation for %s on %s")), ml, el);
		break;
	}
}
