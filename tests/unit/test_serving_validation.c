/*
 * Serving against published measurements (docs/serving-validation.md): each case printed
 * with the published figure, napkin's prediction, the error and the source, then each
 * metric's count, median |error| and signed median; the test holds each median to the
 * bound the model reaches today. test_bands recomputes serving's error bands
 * (src/engine/serve_band.c: the modelled cases by metric x engine, the 80th percentile of
 * |error|, the median and the signed median) and fails when a row of the engine's table
 * disagrees; it prints the rows in the table's C syntax to paste.
 *
 * Sources:
 *  - NeMo Framework's Llama-2 inference table (docs.nvidia.com/nemo-framework/user-guide/
 *    latest/performance/llama.html, "Configuration 1: Chatbot Conversation", TensorRT-LLM
 *    engines): average latency of a request, 128 tokens in, 20 out, batch 1-8, TP 1-8, on
 *    A100 80GB SXM4 and H100 80GB HBM3; Llama-2-7B (16 rows) and Llama-2-13B (the 11 rows
 *    the page prints in full: TP 1 and 2, TP 4 batch 1-4).
 *  - MLPerf Inference v4.1, closed division, NVIDIA, Llama-2-70B (github.com/mlcommons/
 *    inference_results_v4.1, closed/NVIDIA): results/<system>/llama2-70b-*\/{Offline,Server}/
 *    performance/run_1/mlperf_log_summary.txt for the figures, configs/llama2-70b/{Offline,
 *    Server}/__init__.py for the layout (TensorRT-LLM, FP8 weights, H100-SXM TP2 x4 replicas
 *    with gpu_batch_size 896 offline, H200-SXM TP1 x8 with 806). Output tokens a request:
 *    the summary's tokens/s over samples/s (290.3). Server: the mean first-token latency and
 *    the mean time to output token at the scheduled rate (napkin: an open load at that rate a
 *    replica, the `rate` knob, as the LoadGen's Poisson arrivals send it); the completed
 *    tokens/s within MLPerf's limits (TTFT 2 s, TPOT 200 ms at the 99th percentile; napkin's
 *    SLA holds the means to them, so it should read high).
 *    The same from MLPerf Inference v4.0 (github.com/mlcommons/inference_results_v4.0) for
 *    H200-SXM TP1 x8: 293 output tokens a request.
 *  - The same Server summaries' 99th percentiles of first-token latency and time to output
 *    token (serving_cases_tails.h), against napkin's percentiles of an open load
 *    (serve_pct.c): test_published_percentiles.
 *  - The SGLang team's SGLang v0.3 against vLLM v0.6 runs (TTFT, TPOT, offline tokens/s) and
 *    the vLLM paper's KV cache slots and third-party vLLM, TensorRT-LLM and TGI startup logs
 *    and memory tables (capacity); MLPerf v4.1's other submitters' systems (L40S,
 *    H100 PCIe and NVL, Mixtral, Dell's MI300X) and AMD's MLPerf v5.1 runs (counted apart):
 *    at their tables in serving_cases.h.
 *  - The OpenOrca set (mlcommons/inference language/llama2-70b/processorca.py, run with
 *    --seqlen_limit=1024 --num_total_samples=24576 in its README): 24,576 samples drawn
 *    equally from the COT, NIV, FLAN and T0 parts, prompts and reference outputs each under
 *    1024 tokens (filter_seqlen_oob: tok_input_length < 1024, tok_output_length < 1024),
 *    outputs of 3 tokens or more. The reference run's mean output is 294.45 tokens a sample
 *    (the README's "Accuracy Target", docs/index.md); the submission checker holds a
 *    llama2-70b-99.9 one to 90-110% of it (tools/submission/submission_checker/
 *    constants.py). The cases' 290-293 are the results' own, within 1.5% of it. The prompts'
 *    mean is printed nowhere in that repository or the result files; two third-party files
 *    list the set's tok_input_length column (HBFSim's calibration protocol: sum 5,463,976,
 *    min 48, max 1021 over 24,576 rows; openshift-psap/performance-dashboard's
 *    llama2-70b-99.csv, one length a sample, the same sum): 222.33 tokens, MLPERF_PROMPT
 *    222 (median 152, 95th percentile 614). Mixtral's set averages 427.39 (the dashboard's
 *    mixtral-8x7b.csv), MIXTRAL_PROMPT 427. serving_cases.h cites both at their commits.
 */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine.h"
#include "presets.h"
#include "testengine.h"
#include "testpresets.h"
#include "testutil.h"

#include "serving_cases.h"

static int cmp(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

static double median(double *v, size_t n)
{
	qsort(v, n, sizeof v[0], cmp);
	return n == 0 ? 0.0 : n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

static void scenario(struct engine_scenario *sc, const struct vcase *c, const struct engine_catalog *cat)
{
	struct napkin_err e;

	engine_scenario_default(sc);
	util_err_clear(&e);
	if (engine_knob_set(sc, engine_knob_find("model"), c->model, cat, &e) != 0)
		fail_msg("model: %s", e.msg);
	if (engine_knob_set(sc, engine_knob_find("gpu"), c->gpu, cat, &e) != 0)
		fail_msg("gpu: %s", e.msg);
	te_set(sc, "mode", "infer");
	te_set(sc, "engine", c->engine ? c->engine : "trtllm");
	te_set(sc, "gpus", c->tp);
	te_set(sc, "tp", c->tp);
	if (c->weights)
		te_set(sc, "weight_format", c->weights);
	te_set(sc, "prompt", c->prompt);
	te_set(sc, "generate", c->generate);
	if (c->knobs) {
		char buf[256], *save = NULL, *kv;
		snprintf(buf, sizeof buf, "%s", c->knobs);
		for (kv = strtok_r(buf, ";", &save); kv; kv = strtok_r(NULL, ";", &save)) {
			char *eq = strchr(kv, '=');
			if (!eq)
				fail_msg("knob without a value: %s", kv);
			*eq = '\0';
			if (strcmp(kv, "link") == 0 && strcmp(eq + 1, "pcie") == 0)
				sc->gpu.link_bw = 0.0; /* no NVLink: the TP all-reduce over PCIe */
			else if (strcmp(kv, "itl") == 0)
				continue; /* which statistic the case reads (predict) */
			else
				te_set(sc, kv, eq + 1);
		}
	}
}

static void set_batch(struct engine_scenario *sc, double users)
{
	char v[32];
	snprintf(v, sizeof v, "%.0f", users);
	te_set(sc, "batch", v);
}

/* The prediction in the published unit; *bound_ms: the weights read once a generated token
 * at the datasheet bandwidth; *saturated: the published rate is beyond the most the
 * predicted replica completes; *load: a sustained rate's enum engine_serve_load, as the
 * serving bands class it (serve_band.c), ENGINE_SLOAD_ANY otherwise. */
static double predict(const struct vcase *c, const struct engine_catalog *cat, double *bound_ms, bool *saturated,
		      int *load)
{
	struct engine_scenario sc;
	struct engine_result r;

	*saturated = false;
	*load = ENGINE_SLOAD_ANY;
	scenario(&sc, c, cat);
	if (c->load == L_BATCH) {
		set_batch(&sc, c->batch_or_rate);
		te_evaluate(&sc, &r);
	} else if (c->load == L_RATE) {
		/* an open load: Poisson arrivals at the published rate a replica (serve_open.c) */
		char v[32];
		snprintf(v, sizeof v, "%.17g", c->batch_or_rate);
		te_set(&sc, "rate", v);
		te_evaluate(&sc, &r);
		*saturated = r.serving.rate_saturated;
		if (!*saturated)
			*load = r.serving.rate < ENGINE_SERVE_LOAD_SPLIT * r.serving.rate_max ? ENGINE_SLOAD_LIGHT
												  : ENGINE_SLOAD_HEAVY;
	}
	if (c->load == L_RATE && *saturated) {
		/* beyond the most the replica completes: no steady state; printed with the closed
		 * loop's fewest users that complete the rate (a queue that grows without bound),
		 * counted apart from the modelled median */
		double lo = 1.0, hi = 8192.0;
		te_set(&sc, "rate", "0");
		while (hi - lo > 1.0) {
			double mid = floor(0.5 * (lo + hi));
			set_batch(&sc, mid);
			te_evaluate(&sc, &r);
			if (r.serving.requests_per_s >= c->batch_or_rate)
				hi = mid;
			else
				lo = mid;
		}
		set_batch(&sc, hi);
		te_evaluate(&sc, &r);
	} else if (c->load == L_SLA) {
		te_set(&sc, "ttft_slo", "2");
		te_set(&sc, "tpot_slo", "0.2");
		set_batch(&sc, 1.0);
		te_evaluate(&sc, &r);
		return r.serving.sla_tokens_per_s_gpu * (double)sc.tp * c->replicas;
	}
	*bound_ms = strtod(c->generate, NULL) * r.memory.weights / sc.gpu.bandwidth * 1e3;
	switch (c->metric) {
	case M_E2E:
		return r.serving.e2e_seconds * 1e3;
	case M_TTFT:
		return r.serving.ttft_seconds * 1e3;
	case M_ITL:
		return (c->knobs && strstr(c->knobs, MEDIAN_ITL) ? r.serving.itl_median_seconds : r.serving.itl_seconds) * 1e3;
	case M_CAP:
		return r.serving.kv_tokens;
	default:
		return r.serving.tokens_per_s_replica * c->replicas;
	}
}

#define MAXC 256

/* The modelled cases (neither excluded, saturated nor apart) as the serving error bands
 * group them (src/engine/serve_band.c): metric, engine and error, kept for test_bands. */
static struct {
	int metric, engine; /* enum engine_serve_metric (-1: request latency, no band), enum engine_serve_engine */
	int load;           /* enum engine_serve_load: TTFT and ITL at a rate */
	double err;
} modelled[MAXC];
static size_t nmodelled;
static bool ran;

static int band_metric(enum metric m)
{
	switch (m) {
	case M_TTFT: return ENGINE_SM_TTFT;
	case M_ITL: return ENGINE_SM_ITL;
	case M_TPUT: return ENGINE_SM_TPUT;
	case M_CAP: return ENGINE_SM_CAP;
	default: return -1;
	}
}

static int band_engine(const struct vcase *c)
{
	const char *name = c->engine ? c->engine : "trtllm";
	int e;

	for (e = 0; e < ENGINE_SERVE_COUNT; e++)
		if (strcmp(engine_serve_engine_name(e), name) == 0)
			return e;
	fail_msg("case %s: engine %s is not one of napkin's", c->label, name);
	return -1;
}

static void test_published_serving(void **state)
{
	static struct vcase cases[MAXC];
	static char labels[MAXC][64];
	static double err[M_COUNT][MAXC], sig[M_COUNT][MAXC], merr[M_COUNT][MAXC], msig[M_COUNT][MAXC];
	double med[M_COUNT], smed[M_COUNT], mmed[M_COUNT], msmed[M_COUNT], e7[64] = {0};
	size_t n = 0, cnt[M_COUNT] = {0}, mcnt[M_COUNT] = {0}, n7 = 0, i, excluded = 0, saturated = 0, apart = 0;
	int m, g;
	struct preset_registry *reg = tp_builtin();
	struct engine_catalog cat = preset_catalog(reg);

	(void)state;
	nmodelled = 0;
	ran = true;
	for (g = 0; g < 2; g++)
		for (i = 0; i < sizeof rows7b / sizeof rows7b[0] + sizeof rows13b / sizeof rows13b[0]; i++) {
			bool is7 = i < sizeof rows7b / sizeof rows7b[0];
			const struct nemo_row *row = is7 ? &rows7b[i] : &rows13b[i - sizeof rows7b / sizeof rows7b[0]];
			struct vcase *c = &cases[n];
			snprintf(labels[n], sizeof labels[n], "%s %s tp%s batch %s e2e ms", is7 ? "7B" : "13B",
				 g ? "H100" : "A100", row->tp, row->batch);
			c->metric = M_E2E;
			c->label = labels[n];
			c->model = is7 ? "llama-2-7b" : "llama-2-13b";
			c->gpu = g ? "h100-sxm" : "a100-80gb-sxm";
			c->tp = row->tp;
			c->weights = NULL;
			c->prompt = "128";
			c->generate = "20";
			c->load = L_BATCH;
			c->batch_or_rate = strtod(row->batch, NULL);
			c->replicas = 1;
			c->published = g ? row->h100_ms : row->a100_ms;
			c->source = "NeMo Llama-2 inference table";
			c->engine = NULL;
			c->knobs = NULL;
			c->apart = NULL;
			n++;
		}
	for (i = 0; i < sizeof mlperf / sizeof mlperf[0]; i++)
		cases[n++] = mlperf[i];
	for (i = 0; i < sizeof amd / sizeof amd[0]; i++)
		cases[n++] = amd[i];
	for (i = 0; i < sizeof mlperf41 / sizeof mlperf41[0]; i++)
		cases[n++] = mlperf41[i];
	for (i = 0; i < sizeof amd51 / sizeof amd51[0]; i++)
		cases[n++] = amd51[i];
	for (i = 0; i < sizeof dell51 / sizeof dell51[0]; i++)
		cases[n++] = dell51[i];
	for (i = 0; i < sizeof sglang / sizeof sglang[0]; i++)
		cases[n++] = sglang[i];
	for (i = 0; i < sizeof azure / sizeof azure[0]; i++)
		cases[n++] = azure[i];
	for (i = 0; i < sizeof capacity / sizeof capacity[0]; i++)
		cases[n++] = capacity[i];
	for (i = 0; i < sizeof capacity_mi300 / sizeof capacity_mi300[0]; i++)
		cases[n++] = capacity_mi300[i];
	for (i = 0; i < sizeof capacity_llmd / sizeof capacity_llmd[0]; i++)
		cases[n++] = capacity_llmd[i];
	for (i = 0; i < sizeof capacity_tgi / sizeof capacity_tgi[0]; i++)
		cases[n++] = capacity_tgi[i];
	for (i = 0; i < sizeof capacity_dlee / sizeof capacity_dlee[0]; i++)
		cases[n++] = capacity_dlee[i];

	printf("%-32s %10s %10s %7s  %s\n", "case", "published", "predicted", "error", "source");
	for (i = 0; i < n; i++) {
		const struct vcase *c = &cases[i];
		double bound = 0.0, pred, e;
		int load;
		bool sat;
		pred = predict(c, &cat, &bound, &sat, &load);
		e = pred / c->published - 1.0;
		if (c->metric == M_E2E && c->published < bound) {
			printf("%-32s %10.1f %10.1f %7s  %s (excluded: below the weights' bandwidth bound %.0f ms)\n", c->label,
			       c->published, pred, "", c->source, bound);
			excluded++;
			continue;
		}
		printf("%-32s %10.1f %10.1f %+6.1f%%  %s%s%s%s%s\n", c->label, c->published, pred, 100.0 * e, c->source,
		       sat ? " (napkin saturates below this rate)" : "", c->apart ? " (apart: " : "",
		       c->apart ? c->apart : "", c->apart ? ")" : "");
		saturated += sat;
		apart += c->apart != NULL;
		err[c->metric][cnt[c->metric]] = fabs(e);
		sig[c->metric][cnt[c->metric]++] = e;
		if (!sat && !c->apart) {
			merr[c->metric][mcnt[c->metric]] = fabs(e);
			msig[c->metric][mcnt[c->metric]++] = e;
			modelled[nmodelled].metric = band_metric(c->metric);
			modelled[nmodelled].engine = band_engine(c);
			modelled[nmodelled].load = c->metric == M_TTFT || c->metric == M_ITL ? load : ENGINE_SLOAD_ANY;
			modelled[nmodelled++].err = e;
		}
		if (strncmp(c->label, "7B ", 3) == 0)
			e7[n7++] = fabs(e);
	}
	preset_registry_free(reg);
	printf("\n%-16s %4s %14s %14s   %4s %14s %14s\n", "metric", "n", "median |error|", "signed median", "n",
	       "modelled |err|", "signed");
	for (m = 0; m < M_COUNT; m++) {
		med[m] = median(err[m], cnt[m]);
		smed[m] = median(sig[m], cnt[m]);
		mmed[m] = median(merr[m], mcnt[m]);
		msmed[m] = median(msig[m], mcnt[m]);
		printf("%-16s %4zu %13.1f%% %+13.1f%%   %4zu %13.1f%% %+13.1f%%\n", metric_name[m], cnt[m], 100.0 * med[m],
		       100.0 * smed[m], mcnt[m], 100.0 * mmed[m], 100.0 * msmed[m]);
	}
	printf("%zu cases excluded (faster than their weights' bandwidth bound), %zu at a rate napkin does not sustain,"
	       " %zu apart (a setting napkin does not model); modelled: neither of the last two\n",
	       excluded, saturated, apart);
	/* today's model (docs/serving-validation.md); each bound a little above what it reaches.
	 * With the decode GEMM's weight stream at 78% and no wave floor under 64 rows
	 * (serve_step.c STREAM_BW, FEW_ROWS) and gpt-fast's 32 µs an all-reduce (serving.c
	 * ENG_AR_LATENCY): request latency 10.0% -> 6.8% (7B rows 8.7% -> 6.0%), TTFT 26.4% -> 24.0%
	 * (modelled 19.5% -> 14.6%), ITL 21.4% -> 11.2% (modelled 17.4% -> 8.5%), throughput
	 * 24.7% -> 23.5%. With the 78% stream alone and the 8 µs all-reduce: request latency 24.0%,
	 * TTFT 32.0%: the floor had stood in for the all-reduces' cost. With MLPerf v4.1's other
	 * systems (serving_cases.h mlperf41: L40S TP 4, H100 PCIe and NVL, Mixtral, Dell's MI300X),
	 * no constant changed: TTFT modelled 14.6% -> 24.0%, ITL modelled 8.5% -> 16.0%, throughput
	 * 23.5% -> 22.1% (the new cases' errors, docs/serving-validation.md); NVIDIA's v4.1 cases
	 * with their FP8 KV cache: throughput 21.3%; AMD's v5.1 runs, all apart: TTFT 62.5% and
	 * ITL 22.1% over every case, the modelled medians unchanged; Dell's v5.1 H200 runs, whose
	 * server and interactive rates napkin does not sustain: TTFT 82.4%, ITL 21.3%, throughput
	 * 22.9% (modelled 22.1%). With the MoE layers' padding to the grouped GEMM's 128-row tile,
	 * their permutation and combine and their routing kernels (serve_step.c moe_padded,
	 * moe_passes): throughput 22.6% -> 22.1% (modelled 22.1% -> 21.3%), the other medians
	 * unchanged; Mixtral's offline tokens/s +18.6% -> +10.3% (H100), +26.6% -> +21.3% (H200). */
	assert_true(n - excluded >= 198);
	assert_true(cnt[M_TTFT] >= 34 && cnt[M_ITL] >= 38 && cnt[M_TPUT] >= 66 && cnt[M_CAP] >= 25);
	assert_true(median(e7, n7) <= 0.07);
	assert_true(med[M_E2E] <= 0.08);
	/* the MLPerf, SGLang and vLLM rate cases as an open load (Poisson arrivals at the published
	 * rate a replica, serve_open.c) where they read the fewest closed-loop users that complete
	 * the rate: TTFT 82.4% -> 82.1% (modelled 24.0% -> 23.9%), ITL 21.3% -> 20.6% (modelled
	 * 16.0% -> 15.3%); where napkin's replica sustains the rate (ρ = λ ÷ X(limit) 0.12-0.88) the
	 * mean in the replica is within 2% of those users (Mixtral H100 451 against 449, AMD's
	 * MI300X Turin 359 against 355): napkin's X(n) climbs steeply there, so the open queue's
	 * spread adds little; the gap to the published TTFT and TPOT is the replica's speed, not the
	 * load's model. Bounds tightened to what the open load reaches. */
	/* The MLPerf prompts at their sourced means (serving_cases.h: 222 and 427 tokens, not the
	 * 512 assumed until then) took the ITL median from 20.6% to 45.6% (modelled 15.3% ->
	 * 39.9%), TTFT modelled from 23.9% over 17 cases to 54.5% over 28, throughput from 25.4% to
	 * 38.7%: the assumption had hidden a replica too fast on those systems. Then, no case
	 * fitted: W8A8 on the FP8 GEMM curve (serve_step.c), the AMD GEMM rows and CDNA 3's
	 * measured HBM (gemm.c), SGLang's prefill steps apart from its decode steps and the median
	 * ITL its bench prints (serve_batch.c), the decode attention kernels' measured rates and
	 * the PCIe cards' GEMM rows, the slowest of a replica's GPUs (straggler.c): ITL 28.6%
	 * (modelled 24.8%), TTFT 47.5% (modelled 45.5%), throughput 25.9% (modelled 27.6%), 8
	 * cases at a rate napkin does not sustain. The bounds
	 * were loosened to that because the data changed, not the model: docs/serving-validation.md
	 * ("The MLPerf prompt lengths"). */
	assert_true(med[M_ITL] <= 0.30);
	/* throughput was held to 22.5% (21.6% over 48 cases); the 18 offline vLLM runs of
	 * Microsoft's AI-benchmarking-guide on Azure ND MI300X v5 (serving_cases.h azure: Llama
	 * 3.1 8B at TP 1, 70B and 405B at TP 8, FP8, 1000 prompts at once) all read high, +44% to
	 * +80%, and move the median to 25.4% (modelled 21.2% -> 23.6%, signed -4.2% -> +13.8%);
	 * loosened to what it reaches with them, not fitted (docs/serving-validation.md) */
	assert_true(med[M_TPUT] <= 0.26);
	/* capacity: the vLLM paper's 3 (6.4%), 2 third-party startup logs (Llama-3.1-8B: vLLM
	 * 0.15 on an A100 40GB +6.9%, TensorRT-LLM 0.19 FP8 on an RTX 5090 +15.4%) and 6 vLLM 0.6.4 runs on MI300X (the preset now holds the 191.98
	 * GiB the card reports: +1.8% to +5.9%, Mixtral +4.4% and +3.7%): 11 cases, 5.8%, signed +3.8%;
	 * with vLLM 0.11's H100 memory table (llm-d-benchmark: +7.0% to +13.9%, Qwen3-32B at TP 1
	 * +83.6%, its 4.45 GiB of KV the difference of two large numbers), vLLM 0.10.1.1's Qwen2-7B
	 * logs at gpu_memory_utilization 0.25 and 0.5 (+1.8% to +13.2%) and four TGI logs (0.9
	 * +0.5%, 1.0 +35.8%, 2.x +142% and +136%: docs/serving-validation.md, the warm-up's
	 * prefill logits): 25 cases, 6.4%, signed +5.3%; the vLLM 0.15 log at the token budget it
	 * prints (max_num_batched_tokens 8192, not napkin's A100 default 2048): +6.9% -> +3.8%,
	 * 25 cases 5.9%, signed +4.4% */
	assert_true(med[M_CAP] <= 0.07);
	/* vLLM's multi-step runs are modelled (scheduler_steps); apart: AMD's MLPerf v5.1 runs
	 * (a max_num_seqs napkin's vLLM V0 cannot take, AMD's own scheduler), 20 cases; with each
	 * yaml's max_num_seqs as a knob (serving_cases_v51.h amd51) the 10 on AMD's scheduler alone */
	assert_true(apart <= 20 && mcnt[M_TTFT] >= 17);
	assert_true(mmed[M_TTFT] <= 0.46);
	assert_true(mmed[M_ITL] <= 0.26);
	/* TTFT at MLPerf's server rates: the rate is at or beyond the most napkin's replica
	 * completes with its admission limit full (the open load has no steady state; the case
	 * prints the closed loop's fewest users that complete the rate, a queue without bound)
	 * at NVIDIA's four, Red Hat's L40S run,
	 * Fujitsu's L40S TP 4, ASUSTeK's bridgeless H100 NVL TP 2, AMD's v5.1 server runs (8 of
	 * them apart) and Dell's v5.1 H200 and H200 NVL server and interactive runs, 30 cases at
	 * the assumed 512-token prompts (a replica that completes fewer requests than the rate:
	 * its KV cache, its step, the PCIe all-reduce, or in the interactive runs a 256-token step
	 * budget shared by the running decodes), so its TTFT there is a queue and those cases set
	 * the unmodelled median; the count may only fall. At the sourced means (MLPERF_PROMPT 222,
	 * MIXTRAL_PROMPT 427, serving_cases.h) 6 remain, all apart, and four bounds above fail,
	 * not loosened (docs/serving-validation.md, "The MLPerf prompt lengths"): ITL 20.6% ->
	 * 45.6% (<= 21%), throughput 25.4% -> 38.7% (<= 26%), modelled TTFT 23.9% -> 54.5%
	 * (<= 24.5%), modelled ITL 15.3% -> 39.9% (<= 16%); TTFT 82.1% -> 54.5% */
	assert_true(saturated <= 30);
	/* at the sourced prompt lengths 8, all AMD's v5.1 server runs (counted apart: their
	 * max_num_seqs and scheduler): held there, and the TTFT median with them. With each yaml's
	 * max_num_seqs (650-4096, where napkin's V0 default had held 256) none: TTFT 47.5% -> 42.3% */
	assert_true(saturated <= 8);
	assert_true(med[M_TTFT] <= 0.48);
}

/* The tails (serving_cases_tails.h): each Server run's p99 TTFT and p99 TPOT against napkin's
 * percentiles at the published rate (serve_pct.c), and the shape apart from the level: the
 * published p99 ÷ mean against napkin's p99 ÷ its own mean, which the mean's own error does
 * not move. */
static void test_published_percentiles(void **state)
{
	struct preset_registry *reg = tp_builtin();
	struct engine_catalog cat = preset_catalog(reg);
	double err[2][32], sig[2][32], shape[2][32], pub_ratio[2][32], pred_ratio[2][32], sla[2][32];
	size_t i, n = 0, ns = 0;
	int m;

	(void)state;
	printf("%-32s %10s %10s %7s %8s %8s  %s\n", "case", "published", "predicted", "error", "p99/mean", "napkin",
	       "source");
	for (i = 0; i < sizeof tails / sizeof tails[0]; i++) {
		const struct pcase *p = &tails[i];
		struct vcase c = {M_TTFT, p->label, p->model, p->gpu, p->tp, "fp8", p->prompt, p->generate, L_RATE,
				  p->rate, 1, 0.0, p->source, p->engine, p->knobs, NULL};
		struct engine_scenario sc;
		static struct engine_result r;
		char v[32];
		scenario(&sc, &c, &cat);
		/* the set's prompts spread around their mean (serving_cases.h): the TTFT's law a
		 * mixture over their lengths (serve_pct.c) */
		te_set(&sc, "prompt_cv", p->prompt_cv);
		snprintf(v, sizeof v, "%.17g", p->rate);
		te_set(&sc, "rate", v);
		te_evaluate(&sc, &r);
		assert_false(r.serving.rate_saturated);
		for (m = 0; m < 2; m++) {
			double pub = m ? p->tpot_p99 : p->ttft_p99, mean = m ? p->tpot_mean : p->ttft_mean;
			double pred = (m ? r.serving.tpot_p99_seconds : r.serving.ttft_p99_seconds) * 1e3;
			double pmean = (m ? r.serving.itl_seconds : r.serving.ttft_seconds) * 1e3;
			char lab[64];
			snprintf(lab, sizeof lab, "%s %s", p->label, m ? "p99 TPOT" : "p99 TTFT");
			err[m][n] = fabs(pred / pub - 1.0);
			sig[m][n] = pred / pub - 1.0;
			pub_ratio[m][n] = pub / mean;
			pred_ratio[m][n] = pred / pmean;
			shape[m][n] = pred_ratio[m][n] / pub_ratio[m][n] - 1.0;
			printf("%-32s %10.1f %10.1f %+6.1f%% %8.2f %8.2f  %s\n", lab, pub, pred, 100.0 * sig[m][n], pub_ratio[m][n],
			       pred_ratio[m][n], p->source);
		}
		n++;
	}
	/* the server throughput within MLPerf's limits (the L_SLA rows of the same systems): napkin's
	 * SLA on the means (closed-loop users, as the M_TPUT cases read it) beside its SLA on the
	 * p99s of an open load (slo_percentile p99), printed, not counted */
	printf("\n%-32s %10s %10s %10s  %s\n", "server tok/s (TTFT 2 s, TPOT 200 ms)", "published", "SLA mean", "SLA p99",
	       "source");
	for (i = 0; i < sizeof tails / sizeof tails[0]; i++) {
		const struct pcase *p = &tails[i];
		const struct vcase *const tabs[] = {mlperf, amd, mlperf41};
		const size_t lens[] = {sizeof mlperf / sizeof mlperf[0], sizeof amd / sizeof amd[0],
				       sizeof mlperf41 / sizeof mlperf41[0]};
		size_t t, j;
		for (t = 0; t < 3; t++)
			for (j = 0; j < lens[t]; j++) {
				const struct vcase *c = &tabs[t][j];
				struct engine_scenario sc;
				static struct engine_result r;
				double mean_tps, p99_tps;
				if (c->load != L_SLA || strcmp(c->source, p->source) != 0 || strcmp(c->model, p->model) != 0)
					continue;
				scenario(&sc, c, &cat);
				te_set(&sc, "ttft_slo", "2");
				te_set(&sc, "tpot_slo", "0.2");
				set_batch(&sc, 1.0);
				te_evaluate(&sc, &r);
				mean_tps = r.serving.sla_tokens_per_s_gpu * (double)sc.tp * c->replicas;
				te_set(&sc, "slo_percentile", "p99");
				te_set(&sc, "prompt_cv", p->prompt_cv); /* the p99s of the set's spread prompts */
				te_evaluate(&sc, &r);
				p99_tps = r.serving.sla_tokens_per_s_gpu * (double)sc.tp * c->replicas;
				printf("%-32s %10.1f %10.1f %10.1f  %s\n", c->label, c->published, mean_tps, p99_tps, c->source);
				sla[0][ns] = fabs(mean_tps / c->published - 1.0);
				sla[1][ns++] = fabs(p99_tps / c->published - 1.0);
				/* the p99s sit above the means: the SLA on them admits less (not with a batcher,
				 * whose bursts only the p99 SLA's open load has: serve_dispatch.c) */
				if (!c->knobs || !strstr(c->knobs, "dispatch_window"))
					assert_true(p99_tps <= mean_tps * 1.001 || mean_tps == 0.0);
			}
	}
	printf("%-16s %4zu median |error| SLA on the means %5.1f%%, on the p99s %5.1f%%\n\n", "server tok/s", ns,
	       100.0 * median(sla[0], ns), 100.0 * median(sla[1], ns));
	/* MLPerf holds the p99s: napkin's SLA on them reads 2-12% below its SLA on the means and
	 * nearer the published throughput (40.8% -> 35.8% at the median); what remains is the
	 * replica's speed (the M_TPUT SLA rows read high) */
	assert_true(ns == 14 && median(sla[1], ns) <= 0.37 && median(sla[1], ns) < median(sla[0], ns));
	preset_registry_free(reg);
	{
		double e[2], sg[2], sh[2], pr[2], pd[2];
		for (m = 0; m < 2; m++) {
			e[m] = median(err[m], n);
			sg[m] = median(sig[m], n);
			sh[m] = median(shape[m], n);
			pr[m] = median(pub_ratio[m], n);
			pd[m] = median(pred_ratio[m], n);
			printf("%-16s %4zu median |error| %5.1f%%, signed %+5.1f%%; p99 ÷ mean published %.2f, napkin %.2f (shape "
			       "%+5.1f%%)\n",
			       m ? "p99 TPOT" : "p99 TTFT", n, 100.0 * e[m], 100.0 * sg[m], pr[m], pd[m], 100.0 * sh[m]);
		}
		/* what the model reaches (docs/serving-validation.md, "Tails"): the p99s' errors are
		 * mostly the means' (napkin's replica reads fast on these systems: the M_TTFT and M_ITL
		 * rows, -68% and -62% on DGX-H100); the shape, p99 ÷ mean, is what the percentiles add.
		 * A request's TPOT: napkin's 1.15 against 1.21 published, within 7% at the median. The
		 * TTFT: 1.65 against 2.10, 17% narrow at the median. With every prompt the mean it
		 * read 1.38 (-35%, p99 median |error| 75.8%); the sets' prompts spread (prompt_cv,
		 * OpenOrca's 0.77: a gamma law, serve_pct.c) lengthen a long prompt's share of its
		 * step and take it to 1.65 (69.8%). What stays narrow: the budget's M/D/1 wait is
		 * held at its mean, and the step's decodes and other prompts do not scale with the
		 * prompt (serve_batch.c prompt_part); scaling the whole step with it would read 2.80,
		 * 37% wide. Bounds a little beyond what it reaches today. */
		assert_true(n == 14);
		assert_true(e[0] <= 0.72 && e[1] <= 0.50);
		assert_true(sh[1] >= -0.07 && sh[1] <= 0.07);
		assert_true(sh[0] >= -0.19 && sh[0] <= 0.0 && pd[0] > 1.55 && pd[1] > 1.05);
	}
}

struct stats {
	int n;
	double q80, median, bias;
};

/* A group's count, 80th percentile of |error| (nearest rank: the ceil(0.8 n)-th smallest),
 * median |error| and signed median; engine -1 for any, load ENGINE_SLOAD_ANY for every load. */
static struct stats group_stats(int metric, int engine, int load)
{
	static double a[MAXC], sgn[MAXC];
	struct stats st = {0, 0.0, 0.0, 0.0};
	size_t i;

	for (i = 0; i < nmodelled; i++) {
		if (modelled[i].metric != metric || (engine >= 0 && modelled[i].engine != engine) ||
		    (load != ENGINE_SLOAD_ANY && modelled[i].load != load))
			continue;
		a[st.n] = fabs(modelled[i].err);
		sgn[st.n++] = modelled[i].err;
	}
	if (st.n == 0)
		return st;
	st.median = median(a, (size_t)st.n); /* sorts a */
	st.q80 = a[(int)ceil(0.8 * st.n) - 1];
	st.bias = median(sgn, (size_t)st.n);
	return st;
}

static const char *const band_metric_macro[ENGINE_SM_COUNT] = {"TTFT", "ITL", "TPUT", "CAP"};
static const char *const band_engine_macro[ENGINE_SERVE_COUNT] = {"VLLM", "SGL", "TRT", "TGI", "NONE"};
static const char *const band_load_macro[3] = {"ANYL", "LIGHT", "HEAVY"};
static const char *const band_load_name[3] = {"any", "under half", "half or more"};

/* Every group the modelled cases fall in (TTFT and ITL also by their load), and each metric
 * over every engine: their statistics recomputed here must be the engine's serving band
 * table, row for row (as test_step_runs does for the step band). */
static void test_bands(void **state)
{
	size_t nb, i, checked = 0;
	const struct engine_serve_band_row *rows = engine_serve_bands(&nb);
	int m, e, l, pass;

	if (!ran)
		test_published_serving(state);
	for (pass = 0; pass < 3; pass++) {
		if (pass == 0)
			printf("\n| metric | engine | load (rate ÷ the most) | cases | median |error| | signed median | ± (p80 "
			       "|error|) |\n|---|---|---|---|---|---|---|\n");
		else if (pass == 1)
			printf("\nthe engine's table (src/engine/serve_band.c):\n");
		for (m = 0; m < ENGINE_SM_COUNT; m++)
			for (l = ENGINE_SLOAD_ANY; l <= (m == ENGINE_SM_TTFT || m == ENGINE_SM_ITL ? ENGINE_SLOAD_HEAVY : ENGINE_SLOAD_ANY); l++)
				for (e = -1; e < ENGINE_SERVE_COUNT; e++) {
					struct stats st = group_stats(m, e, l);
					const struct engine_serve_band_row *r = NULL;
					const char *en = e < 0 ? "any" : engine_serve_engine_name(e);
					if (st.n == 0)
						continue;
					if (pass == 0) {
						printf("| %s | %s | %s | %d | %.1f%% | %+.1f%% | %.1f%% |\n", engine_serve_metric_name(m),
						       en, band_load_name[l + 1], st.n, 100.0 * st.median, 100.0 * st.bias, 100.0 * st.q80);
						continue;
					}
					if (pass == 1) {
						printf("\t{%s, %s, %s, %d, %.3f, %.3f, %.3f},\n", band_metric_macro[m],
						       e < 0 ? "ANY" : band_engine_macro[e], band_load_macro[l + 1], st.n, st.q80, st.median,
						       st.bias);
						continue;
					}
					for (i = 0; i < nb; i++)
						if (rows[i].metric == m && rows[i].engine == e && rows[i].load == l)
							r = &rows[i];
					if (r == NULL)
						fail_msg("serving group %s/%s/%s (%d cases) is not in the engine's band table",
							 engine_serve_metric_name(m), en, band_load_name[l + 1], st.n);
					if (r->count != st.n || fabs(r->q80 - st.q80) > 0.0006 || fabs(r->median - st.median) > 0.0006 ||
					    fabs(r->bias - st.bias) > 0.0006)
						fail_msg("serving group %s/%s/%s: the table has %d cases ±%.3f (median %.3f, bias %.3f), "
							 "validation measures %d cases ±%.3f (median %.3f, bias %.3f)",
							 engine_serve_metric_name(m), en, band_load_name[l + 1], r->count, r->q80, r->median,
							 r->bias, st.n, st.q80, st.median, st.bias);
					checked++;
				}
	}
	/* and no row the validation does not measure */
	assert_int_equal(checked, nb);
	/* the load matters: TTFT and ITL read closer at light load than at heavy, over every engine
	 * (the reason the bands split by it) */
	for (m = ENGINE_SM_TTFT; m <= ENGINE_SM_ITL; m++) {
		struct stats lo = group_stats(m, -1, ENGINE_SLOAD_LIGHT), hi = group_stats(m, -1, ENGINE_SLOAD_HEAVY);
		assert_true(lo.n >= ENGINE_BAND_MIN_RUNS && hi.n >= ENGINE_BAND_MIN_RUNS);
		assert_true(lo.q80 < hi.q80);
	}
}

static const struct CMUnitTest tests[] = {
	cmocka_unit_test(test_published_serving),
	cmocka_unit_test(test_published_percentiles),
	cmocka_unit_test(test_bands),
};

TESTUTIL_MAIN("serving_validation", tests)
