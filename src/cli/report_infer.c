/* The text report's inference section: the roofline bounds of one prompt and one decode
 * step, and, with an engine, the continuous-batching steady state (serve_batch.c) as
 * serving people quote it. Split from report_text.c, which calls it. */
#include <math.h>
#include <string.h>

#include "cli.h"
#include "i18n.h"
#include "report_internal.h"

/* " ±46%" after a figure that has a serving band (serving.band[], serve_band.c): its half-width */
void report_with_band(char *buf, size_t n, const struct engine_serve_band *b)
{
	size_t len = strlen(buf);

	if (b->level != ENGINE_BAND_NONE && len < n)
		snprintf(buf + len, n - len, " \xc2\xb1%.0f%%", 100.0 * b->relative);
}

/* The validated error of the figures above (serving.band[], docs/serving-validation.md,
 * "Error bands"): each band in words. */
static void band_line(FILE *f, const struct engine_result *r)
{
	char t[ENGINE_SM_COUNT][256];
	int m;

	for (m = 0; m < ENGINE_SM_COUNT; m++)
		engine_serve_band_text(&r->serving.band[m], &cli_tr, t[m], sizeof t[m]);
	fprintf(f, _("  bands    %s · %s · %s · %s (±: the 80th percentile of |predicted ÷ published − 1| in napkin's "
		     "serving validation)\n"),
		t[ENGINE_SM_TTFT], t[ENGINE_SM_ITL], t[ENGINE_SM_TPUT], t[ENGINE_SM_CAP]);
}

/* Disaggregated prefill and decode (serve_pd.c): the split, each pool's load over the most it
 * completes (the one nearer 1 is the bottleneck), the KV hand-off. */
static void pd_line(FILE *f, const struct engine_serving *sv)
{
	char a[NB], b[NB], c[NB], d[NB];
	bool pre = sv->pd_prefill_util >= sv->pd_decode_util;

	engine_fmt_seconds_tr(sv->pd_kv_transfer_seconds, &cli_tr, a, sizeof a);
	engine_fmt_bytes(sv->pd_kv_transfer_bytes, true, b, sizeof b);
	engine_fmt_bytes(sv->pd_kv_transfer_bw, true, c, sizeof c);
	engine_fmt_seconds_tr(sv->pd_prefill_seconds, &cli_tr, d, sizeof d);
	/* TRANSLATORS: x prefill replicas, y decode replicas (xPyD); the prefill pool's load over its most (%), the
	 * decode pool's (%), which pool binds; the KV hand-off: its time, a GPU's bytes, the rate; of TTFT the prefill */
	fprintf(f, _("  pd       %.0fP%.0fD, disaggregated: prefill pool at %.0f%% of its most, decode pool at %.0f%% (%s binds "
		     "first) · KV hand-off %s a request (%s a GPU at %s/s, after the prefill) · of TTFT, the prefill "
		     "replica's queue and prefill %s\n"),
		sv->pd_prefill_replicas, sv->pd_decode_replicas, 100.0 * sv->pd_prefill_util, 100.0 * sv->pd_decode_util,
		pre ? _("prefill") : _("decode"), a, b, c, sv->rate_saturated ? "-" : d);
}

/* A front end's dispatch batching (serve_dispatch.c): its window, the replicas it sends to,
 * the burst a replica receives and what it adds to the TTFT; or why it does not apply. */
static void dispatch_line(FILE *f, const struct engine_scenario *sc, const struct engine_serving *sv)
{
	char w[NB], p[NB], h[NB], s[NB], b[NB];

	engine_fmt_seconds_tr(sv->dispatch_window > 0 ? sv->dispatch_window : sc->dispatch_window, &cli_tr, w, sizeof w);
	if (sv->dispatch_window > 0) {
		engine_fmt_seconds_tr(sv->dispatch_burst / sv->rate, &cli_tr, p, sizeof p);
		engine_fmt_seconds_tr(sv->dispatch_hold_seconds, &cli_tr, h, sizeof h);
		engine_fmt_seconds_tr(sv->dispatch_step_seconds, &cli_tr, s, sizeof s);
		engine_fmt_seconds_tr(sv->dispatch_prefill_seconds, &cli_tr, b, sizeof b);
		/* TRANSLATORS: the window; the replicas; requests a burst; seconds between two bursts to a replica; of
		 * TTFT: the hold, the step under way, the burst's prefill */
		fprintf(f, _("  batcher  a %s window sent to %.0f replicas in turn: %.1f requests a burst every %s a replica · of "
			     "TTFT, the hold %s, the step under way %s, the burst's prefill %s\n"),
			w, sv->dispatch_replicas, sv->dispatch_burst, p, h, s, b);
	} else if (sc->rate <= 0)
		fprintf(f, _("  batcher  dispatch_window %s: not used, a closed loop of users has no arrivals to hold (set a "
			     "rate)\n"),
			w);
	else if (sv->pd_prefill_replicas > 0)
		fprintf(f, _("  batcher  dispatch_window %s: not modelled under xPyD\n"), w);
}

/* The continuous-batching steady state (serve_batch.c): the figures serving people quote. */
static void serving_lines(FILE *f, const struct engine_scenario *sc, const struct engine_result *r)
{
	const struct engine_serving *sv = &r->serving;
	char a[NB], b[NB], c[NB], d[NB], e[NB];
	bool pd = sv->pd_prefill_replicas > 0;

	engine_fmt_count(sv->budget, a, sizeof a);
	engine_fmt_seconds_tr(sv->step_overhead, &cli_tr, b, sizeof b);
	if (sc->serve_engine == ENGINE_SERVE_NONE)
		fprintf(f, _("  engine   none: no token budget, the whole card, no cost a step\n"));
	else if (pd)
		/* TRANSLATORS: the engine; its token budget; its fixed cost a step */
		fprintf(f, _("  engine   %s: %s prompt tokens a step on the prefill replicas, decode-only steps on the decode "
			     "replicas · %s a step of fixed cost\n"),
			_(engine_serve_engine_label(sc->serve_engine)), a, b);
	else if (sv->prefill_apart)
		/* TRANSLATORS: the engine; its token budget; where the schedule comes from; its fixed cost a step */
		fprintf(f, _("  engine   %s: %s tokens a prefill step (prefill steps first, apart from the decode steps; %s) · "
			     "%s a step of fixed cost\n"),
			_(engine_serve_engine_label(sc->serve_engine)), a, _(engine_serve_prefill_from(sv)), b);
	else
		fprintf(f, _("  engine   %s: %s tokens a step (decode first, then prefill chunks) · %s a step of fixed cost\n"),
			_(engine_serve_engine_label(sc->serve_engine)), a, b);
	if (sv->pd_prefill_replicas > 0)
		pd_line(f, sv);
	engine_fmt_seconds_tr(sv->ttft_seconds, &cli_tr, a, sizeof a);
	engine_fmt_seconds_tr(sv->itl_seconds, &cli_tr, b, sizeof b);
	report_with_band(a, sizeof a, &sv->band[ENGINE_SM_TTFT]);
	report_with_band(b, sizeof b, &sv->band[ENGINE_SM_ITL]);
	engine_fmt_seconds_tr(sv->e2e_seconds, &cli_tr, c, sizeof c);
	engine_fmt_seconds_tr(sv->queue_seconds, &cli_tr, d, sizeof d);
	if (sv->rate > 0) {
		/* an open load: the arrivals, and the mean state they keep (serve_open.c; under xPyD
		 * the group's, serve_pd.c); beyond the most it completes, no steady state and no time */
		char w[NB], r0[NB], r1[NB], r2[NB], r3[NB];
		engine_fmt_seconds_tr(sv->wait_seconds, &cli_tr, w, sizeof w);
		engine_fmt_count_tr(sv->rate, &cli_tr, r0, sizeof r0);
		engine_fmt_count_tr(sv->rate_max, &cli_tr, r1, sizeof r1);
		engine_fmt_count_tr(sv->pd_prefill_rate_max, &cli_tr, r2, sizeof r2);
		engine_fmt_count_tr(sv->pd_decode_rate_max, &cli_tr, r3, sizeof r3);
		if (pd && sv->rate_saturated)
			/* TRANSLATORS: the rate; the group's most; prefill replicas × each one's most; decode replicas × theirs */
			fprintf(f, _("  open     %s requests/s arriving at the group (Poisson): saturated, it completes at most %s "
				     "(%.0fP × %s, %.0fD × %s requests/s); the queue grows without bound\n"),
				r0, r1, sv->pd_prefill_replicas, r2, sv->pd_decode_replicas, r3);
		else if (pd)
			fprintf(f, _("  open     %s requests/s arriving at the group (Poisson; at most %s): %.1f requests in the "
				     "group on average, %.1f decoding in a decode replica, a wait of %s for a prefill or decode "
				     "slot\n"),
				r0, r1, sv->in_system, sv->in_engine, w);
		else if (sv->rate_saturated)
			fprintf(f, _("  open     %s requests/s arriving (Poisson): saturated, the replica completes at most %s "
			     "requests/s with its %.0f admitted requests; the queue grows without bound\n"),
			r0, r1, sv->rate_limit);
		else
			fprintf(f, _("  open     %s requests/s arriving (Poisson; at most %s with %.0f admitted): %.1f requests in "
			     "the replica on average, %.1f admitted, a wait of %s before admission\n"),
			r0, r1, sv->rate_limit, sv->in_system, sv->in_engine, w);
	}
	if (sc->dispatch_window > 0)
		dispatch_line(f, sc, sv);
	if (sv->rate > 0 && !sv->rate_saturated) {
		char w[NB];
		engine_fmt_seconds_tr(sv->itl_median_seconds, &cli_tr, w, sizeof w);
		if (sc->generate <= 1)
			/* one output token: no gap between tokens to time */
			fprintf(f, _("  steady   TTFT %s (of it %s waiting) · no ITL (one output token a request) · request %s "
				     "(Little)\n"),
				a, d, c);
		else if (pd)
			fprintf(f, _("  steady   TTFT %s (of it %s waiting) · ITL %s (median %s) · request %s (in the group ÷ "
				     "rate, Little)\n"),
				a, d, b, w, c);
		else
			fprintf(f, _("  steady   TTFT %s (of it %s waiting) · ITL %s (median %s) · request %s (in the replica ÷ "
				     "rate, Little)\n"),
				a, d, b, w, c);
		{
			char t50[NB], t90[NB], t99[NB], o99[NB], i99[NB];
			engine_fmt_seconds_tr(sv->ttft_p50_seconds, &cli_tr, t50, sizeof t50);
			engine_fmt_seconds_tr(sv->ttft_p90_seconds, &cli_tr, t90, sizeof t90);
			engine_fmt_seconds_tr(sv->ttft_p99_seconds, &cli_tr, t99, sizeof t99);
			engine_fmt_seconds_tr(sv->tpot_p99_seconds, &cli_tr, o99, sizeof o99);
			engine_fmt_seconds_tr(sv->itl_p99_seconds, &cli_tr, i99, sizeof i99);
			if (sc->generate <= 1)
				fprintf(f, _("  tails    TTFT p50 %s · p90 %s · p99 %s (every request with the mean prompt)\n"), t50,
					t90, t99);
			else
				fprintf(f, _("  tails    TTFT p50 %s · p90 %s · p99 %s · TPOT p99 %s (a request's mean gap) · ITL p99 "
					     "%s (a gap; every request with the mean prompt and output)\n"),
					t50, t90, t99, o99, i99);
		}
	} else if (sv->rate <= 0) {
		char m[NB];
		snprintf(e, sizeof e, P_("%lld user", "%lld users", sc->batch), (long long)sc->batch);
		engine_fmt_seconds_tr(sv->itl_median_seconds, &cli_tr, m, sizeof m);
		if (sc->generate <= 1)
			fprintf(f, _("  steady   %s: TTFT %s (of it %s waiting) · no ITL (one output token a request) · request %s = "
				     "TTFT\n"),
				e, a, d, c);
		else
			fprintf(f, _("  steady   %s: TTFT %s (of it %s waiting) · ITL %s (median %s) · request %s = TTFT + %lld × "
				     "ITL\n"),
				e, a, d, b, m, c, (long long)(sc->generate - 1));
	}
	engine_fmt_count(sv->tokens_per_s_user, a, sizeof a);
	if (sv->rate_saturated)
		util_strlcpy(a, "-", sizeof a); /* a request that never ends has no rate of its own */
	engine_fmt_count(sv->tokens_per_s_replica, b, sizeof b);
	report_with_band(b, sizeof b, &sv->band[ENGINE_SM_TPUT]);
	engine_fmt_count(sv->tokens_per_s_gpu, c, sizeof c);
	engine_fmt_count(sv->tokens_per_s_job, d, sizeof d);
	if (pd)
		fprintf(f, _("  output   tokens/s %s per user · %s per group (%.2f requests/s × %lld) · %s per GPU of the group · %s "
			     "for the job\n"),
			a, b, sv->requests_per_s, (long long)sc->generate, c, d);
	else
		fprintf(f, _("  output   tokens/s %s per user · %s per replica (%.2f requests/s × %lld) · %s per GPU · %s for the "
			     "job\n"),
			a, b, sv->requests_per_s, (long long)sc->generate, c, d);
	engine_fmt_count(sv->prefill_tokens_step, a, sizeof a);
	engine_fmt_seconds_tr(sv->mixed_step_seconds, &cli_tr, b, sizeof b);
	engine_fmt_seconds_tr(sv->decode_step_seconds, &cli_tr, c, sizeof c);
	/* a step's mix is the closed loop's at `batch` users; an open load's states vary */
	if (pd) {
		engine_fmt_count(sv->chunk, d, sizeof d);
		/* TRANSLATORS: prompt tokens a prefill step; its time; sequences decoding; a decode step's time */
		fprintf(f, _("  a step   a prefill replica's: %s prompt tokens, %s, no decode · a decode replica's: %.1f decoding, "
			     "%s, no prefill\n"),
			d, b, sv->decoding, c);
	} else if (sv->rate <= 0 && sc->generate <= 1) {
		/* nothing decodes: a request's one token comes out of its last prefill step */
		fprintf(f, _("  a step   %s prefill tokens on average, %s; none decodes (one output token a request)%s\n"), a, b,
			!sv->saturated ? "" : sv->prefill_apart ? _("; prefill takes every step") : _("; the budget binds"));
	} else if (sv->rate <= 0 && sv->prefill_apart) {
		engine_fmt_count(sv->chunk, d, sizeof d);
		fprintf(f, _("  a step   %.1f decoding, %s prefill tokens a decode step on average; a prefill step of %s tokens %s, "
			     "a decode step %s (%.0f%% of steps prefill)%s\n"),
			sv->decoding, a, d, b, c, 100.0 * sv->mixed_fraction, sv->saturated ? _("; prefill takes every step") : "");
	} else if (sv->rate <= 0) {
		fprintf(f, _("  a step   %.1f decoding + %s prefill tokens on average; with a chunk %s, decode only %s (%.0f%% of steps "
			     "carry prefill)%s\n"),
			sv->decoding, a, b, c, 100.0 * sv->mixed_fraction, sv->saturated ? _("; the budget binds") : "");
	}
	if (sv->ep_comm_seconds > 0) {
		engine_fmt_seconds_tr(sv->ep_comm_seconds, &cli_tr, a, sizeof a);
		fprintf(f, _("  experts  ep %lld: the routed experts split over %lld replicas, a GPU's share computed for all "
			     "their tokens; dispatch and combine %s a mixed step\n"),
			(long long)sc->ep, (long long)sc->ep, a);
	}
	if (sv->prefix_tokens > 0)
		fprintf(f, _("  prefix   %.0f of %lld prompt tokens cached (a prefix every request shares, its KV held once a "
			     "replica): %.0f prefilled a request\n"),
			sv->prefix_tokens, (long long)sc->prompt, sv->prefill_tokens_request);
	if (sv->speculative != ENGINE_SPEC_NONE) {
		static const char *const drafter[] = {"", N_("a draft model"), N_("an EAGLE head"), N_("the MTP module")};
		char who[160];
		engine_fmt_seconds_tr(sv->spec_draft_seconds, &cli_tr, a, sizeof a);
		engine_fmt_bytes(sv->spec_weight_bytes, true, b, sizeof b);
		if (sv->speculative == ENGINE_SPEC_DRAFT && sc->spec_draft.layers > 0)
			snprintf(who, sizeof who, "%s (%s)", _(drafter[sv->speculative]),
				 sc->spec_draft.name[0] ? sc->spec_draft.name : sc->spec_draft.id);
		else if (sv->speculative == ENGINE_SPEC_DRAFT) {
			engine_fmt_count(sc->spec_draft_params, c, sizeof c);
			snprintf(who, sizeof who, _("%s (a standard %s shape)"), _(drafter[sv->speculative]), c);
		} else
			util_strlcpy(who, _(drafter[sv->speculative]), sizeof who);
		fprintf(f, _("  speculative  %s, k %lld, α %.2f: %.3f tokens a step (the target verifies %.0f a sequence) · "
			     "drafting %s a step · drafter %s per GPU · ITL %.2f× faster than without\n"),
			who, (long long)sc->spec_tokens, sc->spec_accept, sv->spec_tokens_per_step,
			sv->spec_verify_tokens, a, b, sv->spec_speedup);
	}
	if ((sc->ttft_slo > 0 || sc->tpot_slo > 0) && sc->slo_percentile != ENGINE_SLO_MEAN) {
		static const char *const pct[] = {"mean", "p50", "p90", "p99"};
		const char *p = pct[sc->slo_percentile & 3];
		char r0[NB];
		engine_fmt_seconds_tr(sc->ttft_slo, &cli_tr, a, sizeof a);
		engine_fmt_seconds_tr(sc->tpot_slo, &cli_tr, b, sizeof b);
		engine_fmt_count(sv->sla_tokens_per_s_gpu, c, sizeof c);
		engine_fmt_count_tr(sv->sla_rate, &cli_tr, r0, sizeof r0);
		if (pd)
			fprintf(f, _("  SLA      %s TTFT ≤ %s and %s TPOT ≤ %s (an open load, Poisson): at most %s requests/s the "
				     "group, %.0f in it on average (%s output tokens/s per GPU)\n"),
				p, sc->ttft_slo > 0 ? a : _("any"), p, sc->tpot_slo > 0 ? b : _("any"), r0, sv->sla_concurrency, c);
		else
			fprintf(f, _("  SLA      %s TTFT ≤ %s and %s TPOT ≤ %s (an open load, Poisson, as MLPerf's Server): at most %s "
				     "requests/s a replica, %.0f in it on average (%s output tokens/s per GPU)\n"),
				p, sc->ttft_slo > 0 ? a : _("any"), p, sc->tpot_slo > 0 ? b : _("any"), r0, sv->sla_concurrency, c);
	} else if (sc->ttft_slo > 0 || sc->tpot_slo > 0) {
		engine_fmt_seconds_tr(sc->ttft_slo, &cli_tr, a, sizeof a);
		engine_fmt_seconds_tr(sc->tpot_slo, &cli_tr, b, sizeof b);
		engine_fmt_count(sv->sla_tokens_per_s_gpu, c, sizeof c);
		if (pd) {
			char r0[NB];
			engine_fmt_count_tr(sv->sla_rate, &cli_tr, r0, sizeof r0);
			fprintf(f, _("  SLA      mean TTFT ≤ %s and mean ITL ≤ %s: at most %s requests/s the group, %.0f in it on "
				     "average (%s output tokens/s per GPU)\n"),
				sc->ttft_slo > 0 ? a : _("any"), sc->tpot_slo > 0 ? b : _("any"), r0, sv->sla_concurrency, c);
		} else
			fprintf(f, _("  SLA      mean TTFT ≤ %s and mean ITL ≤ %s: at most %.0f concurrent users a replica (%s output "
				     "tokens/s per GPU)\n"),
				sc->ttft_slo > 0 ? a : _("any"), sc->tpot_slo > 0 ? b : _("any"), sv->sla_concurrency, c);
	}
	if (sc->target_rate > 0) {
		char t0[NB], r1[NB], n0[NB], g0[NB];
		engine_fmt_count_tr(sc->target_rate, &cli_tr, t0, sizeof t0);
		engine_fmt_count_tr(sv->sizing_rate_replica, &cli_tr, r1, sizeof r1);
		engine_fmt_count(sv->sizing_replicas, n0, sizeof n0);
		engine_fmt_count(sv->sizing_gpus, g0, sizeof g0);
		if (sv->sizing_replicas <= 0)
			/* TRANSLATORS: the target rate */
			fprintf(f, _("  sizing   %s requests/s: no replica meets the SLA at any load\n"), t0);
		else if (pd) {
			char p0[NB], d0[NB];
			engine_fmt_count_tr(sv->pd_prefill_rate_max, &cli_tr, p0, sizeof p0);
			engine_fmt_count_tr(sv->pd_decode_rate_max, &cli_tr, d0, sizeof d0);
			/* TRANSLATORS: the target rate; "within the SLA" or "at each replica's most"; prefill replicas,
			 * decode replicas (xPyD); GPUs; the most requests/s a prefill replica and a decode replica complete */
			fprintf(f, _("  sizing   %s requests/s %s: %.0fP%.0fD, GPUs %s (a prefill replica completes at most %s "
				     "requests/s, a decode replica %s)\n"),
				t0, sv->sizing_sla ? _("within the SLA") : _("at each replica's most"), sv->pd_sizing_prefill,
				sv->pd_sizing_decode, g0, p0, d0);
		} else if (sv->sizing_sla)
			/* TRANSLATORS: the target rate; replicas; GPUs; the requests/s each takes within the SLA */
			fprintf(f, _("  sizing   %s requests/s within the SLA: replicas %s, GPUs %s (%s requests/s each)\n"), t0, n0,
				g0, r1);
		else
			fprintf(f, _("  sizing   %s requests/s: replicas %s, GPUs %s at each one's most, %s requests/s (no latency "
				     "target: the queue grows without bound there; give ttft_slo or tpot_slo)\n"),
				t0, n0, g0, r1);
		if (sv->sizing_replicas > 0 && sc->price > 0) {
			snprintf(e, sizeof e, "%.3g", sc->price * sv->sizing_gpus);
			/* TRANSLATORS: price × GPUs, in the price's currency */
			fprintf(f, _("           %s an hour for those GPUs (price × GPUs)\n"), e);
		}
	}
	if (sv->cost_per_mtok > 0) {
		snprintf(e, sizeof e, "%.3g", sv->cost_per_mtok);
		fprintf(f, _("  cost     %s per million output tokens\n"), e);
	}
}

void report_inference_section(FILE *f, const struct engine_scenario *sc, const struct engine_result *r)
{
	const struct engine_inference *in = &r->inference;
	bool engine = sc->serve_engine != ENGINE_SERVE_NONE;
	char a[NB], b[NB], c[NB], d[NB], e[NB];

	engine_fmt_bytes(in->kv_bytes_per_token, true, e, sizeof e);
	snprintf(a, sizeof a, P_("%lld sequence", "%lld sequences", sc->batch), (long long)sc->batch);
	snprintf(b, sizeof b, P_("%lld GPU", "%lld GPUs", sc->tp * sc->pp), (long long)(sc->tp * sc->pp));
	if (engine) {
		snprintf(a, sizeof a, P_("%lld user", "%lld users", sc->batch), (long long)sc->batch);
		if (sc->rate > 0) {
			char r0[NB];
			engine_fmt_count_tr(sc->rate, &cli_tr, r0, sizeof r0);
			snprintf(a, sizeof a, _("%s requests/s"), r0);
		}
		/* the steady state leads; the roofline figures follow as its bounds (no line quotes
		 * a throughput or a TTFT the steady state contradicts) */
		if (r->serving.pd_prefill_replicas > 0) {
			if (sc->rate <= 0)
				snprintf(a, sizeof a, P_("%lld user a decode replica", "%lld users a decode replica", sc->batch),
					 (long long)sc->batch);
			/* TRANSLATORS: prefill replicas, decode replicas, "2 GPUs", the load, prompt, generate, the engine */
			fprintf(f, _("\nInference  (%.0fP%.0fD: %.0f prefill and %.0f decode replicas, %s each, serve %s: prompt %lld + "
				     "generate %lld, as %s runs them disaggregated)\n"),
				r->serving.pd_prefill_replicas, r->serving.pd_decode_replicas, r->serving.pd_prefill_replicas,
				r->serving.pd_decode_replicas, b, a, (long long)sc->prompt, (long long)sc->generate,
				_(engine_serve_engine_label(sc->serve_engine)));
		} else if (in->replicas > 1)
			fprintf(f, _("\nInference  (each of the %.0f replicas, %s each, serves %s: prompt %lld + generate %lld, "
				     "as %s runs them)\n"),
				in->replicas, b, a, (long long)sc->prompt, (long long)sc->generate,
				_(engine_serve_engine_label(sc->serve_engine)));
		else
			fprintf(f, _("\nInference  (one replica, %s, serves %s: prompt %lld + generate %lld, as %s runs them)\n"),
				b, a, (long long)sc->prompt, (long long)sc->generate,
				_(engine_serve_engine_label(sc->serve_engine)));
		serving_lines(f, sc, r);
	} else if (in->replicas > 1)
		fprintf(f, _("\nInference  (each of the %.0f replicas, %s each, serves %s: prompt %lld + generate %lld;\n"
			     "            roofline bounds at 100%% of peak and bandwidth)\n"),
			in->replicas, b, a, (long long)sc->prompt, (long long)sc->generate);
	else
		fprintf(f, _("\nInference  (one replica, %s, serves %s: prompt %lld + generate %lld;\n"
			     "            roofline bounds at 100%% of peak and bandwidth)\n"),
			b, a, (long long)sc->prompt, (long long)sc->generate);
	if (!engine) {
		engine_fmt_seconds_tr(in->prefill_seconds, &cli_tr, a, sizeof a);
		engine_fmt_seconds_tr(in->decode_seconds_per_token, &cli_tr, b, sizeof b);
		engine_fmt_seconds_tr(in->generate_seconds, &cli_tr, d, sizeof d);
		engine_fmt_bytes(in->kv_bytes_per_token, true, e, sizeof e);
		fprintf(f, _("  prefill %s (%s) · decode %s per step (%s) · whole request %s\n"), a,
			in->prefill_memory_bound ? _("memory-bound") : _("compute-bound"), b,
			in->decode_memory_bound ? _("memory-bound") : _("compute-bound"), d);
		engine_fmt_count(in->decode_tokens_per_s_sequence, a, sizeof a);
		engine_fmt_count(in->decode_tokens_per_s_replica, b, sizeof b);
		engine_fmt_count(in->decode_tokens_per_s, c, sizeof c);
		engine_fmt_count(in->decode_tokens_per_s_gpu, d, sizeof d);
		fprintf(f, _("  tokens/s %s per sequence · %s per replica (batch %lld) · %s per GPU · %s for the job (%.0f %s)\n"), a, b,
			(long long)sc->batch, d, c, in->replicas, CP_("count", "replica", "replicas", in->replicas));
		if (sc->ttft_slo > 0 || sc->tpot_slo > 0)
			serving_lines(f, sc, r);
	}
	/* serving: time to first token, time per output token, capacity */
	engine_fmt_seconds_tr(in->ttft_seconds, &cli_tr, a, sizeof a);
	engine_fmt_seconds_tr(in->tpot_seconds, &cli_tr, b, sizeof b);
	engine_fmt_seconds_tr(in->tp_comm_seconds_per_step, &cli_tr, c, sizeof c);
	if (sc->prefill_chunk > 0)
		snprintf(d, sizeof d, P_("%.0f chunk of %.0f", "%.0f chunks of %.0f", in->prefill_chunks), in->prefill_chunks,
			 in->prefill_chunk);
	else
		util_strlcpy(d, _("the whole prompt at once"), sizeof d);
	if (engine && r->serving.speculative != ENGINE_SPEC_NONE)
		/* a drafter gains tokens a step: the bound is one plain decode step's, not the ITL's */
		fprintf(f, _("  bounds   TTFT ≥ %s (%s) · a decode step without speculation ≥ %s (TP all-reduces %s a step): "
			     "at 100%% of peak and bandwidth, nothing else in the way\n"),
			a, d, b, c);
	else if (engine && sc->rate > 0 && r->roofline.decode_at != ENGINE_DECODE_AT_BATCH)
		/* an open load decodes fewer (or more) at once than the batch knob the bound takes */
		fprintf(f, _("  bounds   TTFT ≥ %s (%s) · TPOT ≥ %s with %lld sequences decoding in one step, where this load "
			     "decodes %.1f at a time on average (TP all-reduces %s a step): at 100%% of peak and bandwidth\n"),
			a, d, b, (long long)sc->batch, r->roofline.decode_sequences, c);
	else if (engine && sc->rate <= 0 && r->serving.running + 0.5 < (double)sc->batch)
		/* the bound decodes every user at once; the engine admits fewer, so its ITL is a
		 * smaller step's and may sit under this figure */
		fprintf(f, _("  bounds   TTFT ≥ %s (%s) · TPOT ≥ %s with all %lld users decoding in one step, which the engine does "
			     "not admit (it runs %.0f; TP all-reduces %s a step): at 100%% of peak and bandwidth\n"),
			a, d, b, (long long)sc->batch, r->serving.running, c);
	else if (engine)
		fprintf(f, _("  bounds   TTFT ≥ %s (%s) · TPOT ≥ %s (TP all-reduces %s a step): at 100%% of peak and bandwidth, "
			     "nothing else in the way\n"),
			a, d, b, c);
	else
		fprintf(f, _("  serving  TTFT %s (%s) · TPOT %s (TP all-reduces %s a step)\n"), a, d, b, c);
	engine_fmt_max_batch(in->max_concurrent, a, sizeof a);
	if (sc->serve_engine == ENGINE_SERVE_NONE)
		fprintf(f, _("  capacity %s concurrent %s per replica at %.0f tokens of context (weights + KV cache + one step's "
			     "activations)\n"),
			_(a), CP_("count", "sequence", "sequences", in->max_concurrent == 1 ? 1 : 2), in->context);
	else {
		char cap[NB];
		util_strlcpy(cap, _(a), sizeof cap);
		if (in->max_concurrent > 0) /* "none fits" has no error band */
			report_with_band(cap, sizeof cap, &r->serving.band[ENGINE_SM_CAP]);
		engine_fmt_bytes(r->serving.kv_budget_bytes, true, b, sizeof b);
		engine_fmt_bytes(r->serving.activation_peak, true, c, sizeof c);
		if (in->max_concurrent > 0)
			fprintf(f, _("  capacity %s concurrent %s per replica at %.0f tokens of context, as %s admits them (KV %s "
				     "per GPU after its %.0f%% share, the weights and a profiled %s)\n"),
				cap, CP_("count", "sequence", "sequences", in->max_concurrent == 1 ? 1 : 2), in->context,
				_(engine_serve_engine_label(sc->serve_engine)), b, 100.0 * r->serving.mem_fraction, c);
		else
			fprintf(f, _("  capacity no sequence of %.0f tokens fits as %s admits them (KV %s per GPU after its %.0f%% "
				     "share, the weights and a profiled %s)\n"),
				in->context, _(engine_serve_engine_label(sc->serve_engine)), b, 100.0 * r->serving.mem_fraction, c);
		/* an engine that holds a sequence's blocks as they fill runs more than that at once */
		if (in->max_concurrent > 0 && r->serving.running_max > (double)in->max_concurrent + 0.5)
			fprintf(f, _("    it runs up to %.0f at once: a sequence holds %.0f tokens' blocks on average, filled as it "
				     "goes%s\n"),
				r->serving.running_max, r->serving.held_tokens,
				sc->serve_engine == ENGINE_SERVE_SGLANG ? _(" and a tenth of the rest booked ahead") : "");
		band_line(f, r);
	}
	engine_fmt_bytes(in->kv_bytes_per_sequence, true, a, sizeof a);
	fprintf(f, _("  KV cache %s per token of context, %.0f tokens per sequence: %s a sequence in blocks of %lld"), e,
		in->context, a, (long long)sc->kv_block);
	if (sc->model.sliding_window > 0) {
		int64_t wl = sc->model.window_layers > 0 && sc->model.window_layers < sc->model.layers ? sc->model.window_layers
												   : sc->model.layers;
		fprintf(f, _(" (window %lld on %lld of %lld layers)"), (long long)sc->model.sliding_window, (long long)wl,
			(long long)sc->model.layers);
	}
	fputc('\n', f);
	engine_fmt_si(in->prefill_flops_causal, "FLOP", a, sizeof a);
	engine_fmt_si(in->prefill_flops_palm, "FLOP", b, sizeof b);
	fprintf(f, _("  prefill FLOPs a prompt: %s causal (TTFT's) · %s PaLM's count (full s\xc2\xb2 attention, as MFU counts)\n"),
		a, b);
}
