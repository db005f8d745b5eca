/*
 * Explanations of the serving results: capacity (max_concurrent and the KV cache a
 * sequence holds), time to first token, time per output token, and the two prefill FLOPs
 * counts (serving.c computes them); with an engine, the continuous-batching steady state
 * (serve_batch.c): TTFT, the time between tokens, the output rate and the SLA concurrency;
 * with a rate, the open load (serve_open.c).
 */
#include <math.h>
#include <string.h>

#include "explain_internal.h"

/* serving.band[m] (serve_band.c): what validation measured for figures like this one */
/* A power limit's clock, where it slows the compute (power.c): said beside the times it moves. */
static void ex_power(struct eng_ex *x, const struct engine_scenario *sc)
{
	char pw[512];

	engine_power_note(sc, pw, sizeof pw);
	if (pw[0] != '\0')
		eng_ex_line(x, N_("  power    %s"), pw);
}

static void ex_band(struct eng_ex *x, const struct engine_serving *sv, int m)
{
	const struct engine_serve_band *b = &sv->band[m];
	char t[256], lo[NB], hi[NB];

	engine_serve_band_text(b, x->tr, t, sizeof t);
	if (b->level == ENGINE_BAND_NONE) {
		eng_ex_line(x, N_("  band     none: %s"), t);
		return;
	}
	if (m == ENGINE_SM_TTFT || m == ENGINE_SM_ITL) {
		SECS(b->low, lo);
		SECS(b->high, hi);
	} else if (m == ENGINE_SM_TPUT) {
		engine_unit_format_tr(ENGINE_UNIT_TOKENS_PER_S, b->low, x->tr, lo, sizeof lo);
		engine_unit_format_tr(ENGINE_UNIT_TOKENS_PER_S, b->high, x->tr, hi, sizeof hi);
	} else {
		CNT(b->low, lo);
		CNT(b->high, hi);
	}
	/* the validation's own words name no repository path (a reader of --explain has none) */
	eng_ex_line(x, N_("  band     %s to %s: %s, signed median %+.0f%%; ± is the 80th percentile of |predicted ÷ "
			  "published − 1| over those published cases, napkin's serving validation"),
		    lo, hi, t, fabs(b->bias) < 0.005 ? 0.0 : 100.0 * b->bias); /* no "-0%" */
}

static void ex_capacity(struct eng_ex *x, const struct engine_scenario *sc, const struct engine_result *r)
{
	const struct engine_inference *in = &r->inference;
	const struct engine_memory *m = &r->memory;
	char a[NB], b[NB], c[NB], d[NB];

	eng_ex_head(x, "inference.max_concurrent", N_("the most sequences one replica serves at once at this context"));
	eng_ex_line(x, N_("  formula  largest n with weights + overhead + n × KV per sequence + one step's activations ≤ capacity"));
	eng_ex_line(x, N_("  per GPU  weights %s + overhead %s; capacity %s"), GIB(m->weights, a), GIB(m->overhead, b),
		    GIB(m->capacity, c));
	util_count(c, sizeof c, (double)(sc->tp * sc->pp), EX_(x, N_("GPU")), EX_(x, N_("GPUs")));
	if (sc->model.sliding_window > 0)
		eng_ex_line(x, N_("  KV       %.0f tokens a sequence a layer (context %.0f in blocks of %lld, at most the "
				  "window's blocks where a layer slides one) × %s a token over %s"),
			    in->kv_tokens_per_sequence, in->context, (long long)sc->kv_block, GIB(in->kv_bytes_per_token, d), c);
	else
		eng_ex_line(x, N_("  KV       %.0f tokens a sequence a layer (context %.0f in blocks of %lld) × %s a token over %s"),
			    in->kv_tokens_per_sequence, in->context, (long long)sc->kv_block, GIB(in->kv_bytes_per_token, d), c);
	util_count(c, sizeof c, in->prefill_chunk, EX_(x, N_("token")), EX_(x, N_("tokens")));
	eng_ex_line(x, N_("  step     one %s of %s and one decode token for each other sequence (not every prompt at once)"),
		    sc->prefill_chunk > 0 ? EX_(x, N_("prefill chunk")) : EX_(x, N_("whole prompt")), c);
	engine_fmt_max_batch_tr(in->max_concurrent, x->tr, a, sizeof a);
	eng_ex_line(x, N_("  result   %s per replica (%.0f %s in the job)"), a, in->replicas,
		    in->replicas == 1 ? EX_(x, N_("replica")) : EX_(x, N_("replicas")));
	if (sc->mode == ENGINE_MODE_INFER && r->serving.running_max > (double)in->max_concurrent + 0.5)
		eng_ex_line(x, N_("  running  up to %.0f at once: the engine books a sequence's blocks as they fill (%.0f tokens on "
				  "average: the prompt, half the output and the share of the rest it books ahead), not its "
				  "whole context at admission"),
			    r->serving.running_max, r->serving.held_tokens);
	if (sc->mode == ENGINE_MODE_INFER && sc->serve_engine != ENGINE_SERVE_NONE)
		ex_band(x, &r->serving, ENGINE_SM_CAP);
	eng_ex_line(x, N_("  source   Kwon et al. 2023 (vLLM, paged attention); Agrawal et al. 2023 (SARATHI, chunked prefill)"));
}

static void ex_ttft(struct eng_ex *x, const struct engine_scenario *sc, const struct engine_result *r)
{
	const struct engine_inference *in = &r->inference;
	char a[NB], b[NB];

	eng_ex_head(x, "inference.ttft_seconds", N_("time to first token: one prompt's prefill on an idle replica, at the roofline"));
	util_count(b, sizeof b, in->prefill_chunk, EX_(x, N_("token")), EX_(x, N_("tokens")));
	eng_ex_line(x, N_("  chunks   %.0f of %s (prefill_chunk %lld; 0 is the whole prompt)"), in->prefill_chunks, b,
		    (long long)sc->prefill_chunk);
	eng_ex_line(x, N_("  a chunk  max(FLOPs ÷ peak, bytes ÷ bandwidth) on one TP rank + 2 all-reduces a layer"));
	eng_ex_line(x, N_("           FLOPs: 2 a weight a token + causal attention over the keys before it (4·nh·dh a key a layer)"));
	eng_ex_line(x, N_("           bytes: every weight once, the chunk's activations, the earlier chunks' KV read, its own written"));
	eng_ex_line(x, N_("  result   %s (the whole batch's prompts at once, static batching: %s)"), SECS(in->ttft_seconds, a),
		    SECS(in->prefill_seconds, b));
	eng_ex_line(x, N_("  smaller chunks bound the activations to one chunk but read the weights once a chunk: more TTFT"));
}

static void ex_tpot(struct eng_ex *x, const struct engine_scenario *sc, const struct engine_result *r)
{
	const struct engine_inference *in = &r->inference;
	char a[NB], b[NB], c[NB];

	eng_ex_head(x, "inference.tpot_seconds", N_("time per output token: one decode step of the batch"));
	eng_ex_line(x, N_("  formula  decode step (roofline) + 2·L all-reduces of batch × hidden values (Megatron TP)"));
	eng_ex_line(x, N_("  a collective  the engines' custom all-reduce on NVLink (vLLM custom_all_reduce.cuh): one-shot, "
			  "(t−1) × bytes ÷ the links' bus bandwidth + a stage, at 2 ranks or under 512 KB (256 KB at 8); "
			  "two-shot, 2(t−1)/t × bytes + 2 stages, above; NCCL's ring over 8 MB, across nodes or without "
			  "NVLink (+ %.0f µs a call)"),
		    ENG_AR_LATENCY * 1e6);
	if (eng_family(&sc->gpu)->ar_latency > 0)
		eng_ex_line(x, N_("  this card's NCCL-library all-reduce (above the custom kernel's buffer) pays %.0f µs a call, as "
				  "measured on it (gemm.c)"),
			    eng_family(&sc->gpu)->ar_latency * 1e6);
	eng_ex_line(x, N_("  values   %s + %s (tp %lld)"), SECS(in->decode_seconds_per_token, a), SECS(in->tp_comm_seconds_per_step, b),
		    (long long)sc->tp);
	eng_ex_line(x, N_("  result   %s; %s tokens/s a sequence"), SECS(in->tpot_seconds, c), CNT(in->decode_tokens_per_s_sequence, a));
}

static void ex_prefill_flops(struct eng_ex *x, const struct engine_scenario *sc, const struct engine_result *r)
{
	const struct engine_inference *in = &r->inference;
	char a[NB], b[NB];

	eng_ex_head(x, "inference.prefill_flops_causal", N_("one prompt's prefill FLOPs, two conventions"));
	eng_ex_line(x, N_("  causal   2·N_mm·s + 4·L·nh·dh·Σ min(i, window): query i sees the i keys before it, s(s+1)/2 = %s"),
		    SI(in->prefill_flops_causal, "FLOP", a));
	eng_ex_line(x, N_("  PaLM     2·N_mm·s + 4·L·nh·dh·s²: every query against every key, as MFU counts it = %s"),
		    SI(in->prefill_flops_palm, "FLOP", b));
	eng_ex_line(x, N_("  TTFT uses the causal count (what a FlashAttention kernel computes); MFU the PaLM one (s = %lld)"),
		    (long long)sc->prompt);
	eng_ex_line(x, N_("  source   Chowdhery et al. 2022 (PaLM), appendix B"));
}

/* Without an engine the steady state is not computed: say how to get it (every key
 * explains itself in every mode). */
static bool ex_no_engine(struct eng_ex *x, const struct engine_scenario *sc, const char *key, const char *what)
{
	if (sc->mode == ENGINE_MODE_INFER && sc->serve_engine != ENGINE_SERVE_NONE)
		return false;
	eng_ex_head(x, key, what);
	eng_ex_line(x, N_("  not computed here: the steady state of continuous batching needs inference with an engine (%s %s "
			  "%s %s)"),
		    "--mode", "infer", "--engine", "vllm|sglang|trtllm|tgi");
	eng_ex_line(x, N_("  source   Yu et al. 2022 (Orca, iteration-level scheduling); Agrawal et al. 2024 (Sarathi-Serve)"));
	return true;
}

/* A front end's dispatch batching (serve_dispatch.c): what it adds to the TTFT, or why it
 * does not apply. */
static void ex_dispatch(struct eng_ex *x, const struct engine_scenario *sc, const struct engine_serving *sv)
{
	char a[NB], b[NB], c[NB], d[NB], e[NB], f[NB], g[NB];

	if (!(sc->dispatch_window > 0))
		return;
	SECS(sc->dispatch_window, a);
	if (sc->rate <= 0) {
		eng_ex_line(x, N_("  batcher  not used: dispatch_window %s holds arrivals, and a closed loop of `batch` users has "
				  "none (set a rate)"),
			    a);
		return;
	}
	if (sc->prefill_replicas > 0 && sc->decode_replicas > 0) {
		eng_ex_line(x, N_("  batcher  not modelled under xPyD: the group is solved without dispatch_window %s"), a);
		return;
	}
	if (sv->rate_saturated || !(sv->dispatch_window > 0))
		return;
	eng_ex_line(x, N_("  batcher  a front end holds the arrivals W_eff = min(dispatch_window, dispatch_batch ÷ (λ R)) and "
			  "sends them together to the R data-parallel replicas (gpus ÷ (tp × pp)) in turn: a replica "
			  "receives n = min(λ R W, dispatch_batch) requests every n ÷ λ seconds"));
	eng_ex_line(x, N_("  formula  TTFT = W_q + W_eff ÷ 2 (the hold, uniform) + the step under way (half a decode step) + "
			  "the burst's prefill (each request's first token at the end of its prefill step; a request's "
			  "burst is itself and Poisson(λ R W) others, capped)"));
	eng_ex_line(x, N_("  values   W_eff %s, R %.0f, n %.1f every %s: hold %s + step %s + prefill %s + W_q %s = %s"),
		    SECS(sv->dispatch_window, a),
		    sv->dispatch_replicas, sv->dispatch_burst, SECS(sv->dispatch_burst / sv->rate, b),
		    SECS(sv->dispatch_hold_seconds, c), SECS(sv->dispatch_step_seconds, d),
		    SECS(sv->dispatch_prefill_seconds, e), SECS(sv->wait_seconds, f), SECS(sv->ttft_seconds, g));
	if (sv->dispatch_window < sc->dispatch_window)
		eng_ex_line(x, N_("  cap      dispatch_batch %lld binds: a dispatch leaves full after %s, before the window"),
			    (long long)sc->dispatch_batch, SECS(sv->dispatch_window, a));
	eng_ex_line(x, N_("  ITL      unchanged: the same prompts are prefilled a second, in fewer, larger steps, so the mean "
			  "gap and the throughput are the engine's own; prefill apart, a burst's steps are one long gap (the "
			  "ITL's tail)"));
	eng_ex_line(x, N_("  tails    a state's TTFT one uniform with the mean and variance of the hold U[0, W_eff], the "
			  "step under way and the burst's prefill over its size (an approximation)"));
	eng_ex_line(x, N_("  source   MLPerf Inference v4.1 AMD and Dell vLLM harnesses (VllmFp8/sync_sut.py, async_sut.py: "
			  "batch_samples_loop, next_device_id); Triton's dynamic batcher (max_queue_delay_microseconds)"));
}

/* An open load (serve_open.c): the birth–death process over the closed steady state. */
static void ex_open(struct eng_ex *x, const struct engine_scenario *sc, const struct engine_result *r, const char *key)
{
	const struct engine_serving *sv = &r->serving;
	char a[NB], b[NB], c[NB], d[NB];

	if (ex_no_engine(x, sc, key, N_("an open load: requests arriving at a rate (Poisson)")))
		return;
	eng_ex_head(x, key, N_("an open load: requests arriving at a rate (Poisson)"));
	eng_ex_line(x, N_("  model    n requests in the replica: births at λ, deaths at X(n) = the closed steady state's "
			  "requests/s at n users, X(limit) beyond the %.0f the engine admits (the rest wait outside)"),
		    sv->rate_limit);
	eng_ex_line(x, N_("  formula  p(n) ∝ Π_{k≤n} λ ÷ X(k), a geometric tail past the limit; L = Σ n p(n); W = L ÷ λ; "
			  "wait W_q = Σ (n − limit)⁺ p(n) ÷ λ"));
	eng_ex_line(x, N_("  formula  TTFT = W_q + Σ p(n) TTFT(the state an arrival joins); ITL = Σ p(n) d(n) ÷ Σ (p(n) "
			  "d(n) ÷ ITL(n)) (over the decode tokens)"));
	if (sc->rate <= 0) {
		eng_ex_line(x, N_("  not used: rate is 0 (the closed loop of `batch` users)"));
	} else if (sv->rate_saturated) {
		eng_ex_line(x, N_("  result   λ %s requests/s ≥ X(limit) %s: saturated, no stationary distribution (the "
				  "queue grows without bound)"),
			    CNT(sv->rate, a), CNT(sv->rate_max, b));
	} else {
		eng_ex_line(x, N_("  values   λ %s requests/s, X(limit) %s: L %.1f (%.1f admitted), W_q %s"), CNT(sv->rate, b),
			    CNT(sv->rate_max, c), sv->in_system, sv->in_engine, SECS(sv->wait_seconds, a));
		eng_ex_line(x, N_("  result   TTFT %s · ITL %s · request %s · %s output tokens/s a replica (λ × %lld)"),
			    SECS(sv->ttft_seconds, b), SECS(sv->itl_seconds, c), SECS(sv->e2e_seconds, d),
			    CNT(sv->tokens_per_s_replica, a), (long long)sc->generate);
		eng_ex_line(x, N_("  median   ITL %s: each state's median gap, averaged over the decode tokens as ITL is"),
			    SECS(sv->itl_median_seconds, a));
		eng_ex_line(x, N_("  p99      TTFT %s · TPOT %s · ITL %s (serving.ttft_p99_seconds explains them)"),
			    SECS(sv->ttft_p99_seconds, a), SECS(sv->tpot_p99_seconds, b), SECS(sv->itl_p99_seconds, c));
	}
	if (strcmp(key, "serving.ttft_seconds") == 0)
		ex_dispatch(x, sc, sv);
	else if (sv->dispatch_window > 0 && sv->prefill_apart)
		eng_ex_line(x, N_("  batcher  prefill apart, the bursts' prompts share each prefill step's weight reads: the "
				  "replica's time a request is its share of the decode steps plus the bursts' %s of prefill "
				  "(1 ÷ X = (g − 1) t_dec ÷ d + that), not the engine's own prompt steps; X and the gap "
				  "follow"),
			    SECS(sv->dispatch_prefill_request_seconds, a));
	if (sc->rate > 0 && (strcmp(key, "serving.ttft_seconds") == 0 || strcmp(key, "serving.itl_seconds") == 0 ||
			     strcmp(key, "serving.itl_median_seconds") == 0 || strcmp(key, "serving.tokens_per_s_replica") == 0))
		ex_band(x, sv, strcmp(key, "serving.ttft_seconds") == 0 ? ENGINE_SM_TTFT
			       : strcmp(key, "serving.tokens_per_s_replica") == 0 ? ENGINE_SM_TPUT
										 : ENGINE_SM_ITL);
	eng_ex_line(x, N_("  source   Kleinrock 1975 (Queueing Systems vol. 1, §3: birth–death processes); Harchol-Balter "
			  "2013 (ch. 22, state-dependent service); Little 1961; Wolff 1982 (PASTA)"));
}

/* Latency percentiles (serve_pct.c): the laws behind the means, and what they leave out. */
static void ex_pct(struct eng_ex *x, const struct engine_scenario *sc, const struct engine_result *r, const char *key)
{
	const struct engine_serving *sv = &r->serving;
	char a[NB], b[NB], c[NB], d[NB], e[NB], f[NB], g[NB], h[NB];

	if (ex_no_engine(x, sc, key, N_("latency percentiles: TTFT, a request's TPOT and a gap between tokens")))
		return;
	eng_ex_head(x, key, N_("latency percentiles: TTFT, a request's TPOT and a gap between tokens"));
	eng_ex_line(x, N_("  formula  TTFT: Σ p(n) U[TTFT(n) ± phase(n)] over the arrivals (PASTA; the step under way, "
			  "uniform), those that find the engine full waiting Exp(X(limit) − λ) first (the M/M/1 tail); "
			  "its mean is the TTFT reported"));
	eng_ex_line(x, N_("  formula  TPOT: a request's mean gap, its state's ITL(n) weighted by p(n) d(n) (the state "
			  "frozen over its life: an approximation); ITL: each state's decode-only and chunk-carrying steps "
			  "over the tokens"));
	if (sc->rate > 0 && sv->rate_saturated) {
		eng_ex_line(x, N_("  not computed: λ ≥ X(limit), no stationary distribution"));
		return;
	}
	if (sc->rate > 0 && sv->dispatch_window > 0)
		eng_ex_line(x, N_("  batcher  the TTFT's law the bursts' (serving.ttft_seconds explains them): each state one "
				  "uniform with the mean and variance of the hold U[0, %s], the step under way and the burst's "
				  "prefill over its size"),
			    SECS(sv->dispatch_window, a));
	if (sc->rate <= 0)
		eng_ex_line(x, N_("  closed   no rate: every request sees the one state of `batch` users, so the TTFT spreads "
				  "over the step under way alone and a request's TPOT is the mean gap; a rate gives the "
				  "queue's spread"));
	eng_ex_line(x, N_("  result   TTFT p50 %s · p90 %s · p99 %s (mean %s) · TPOT p50 %s · p99 %s · ITL p50 %s · p99 %s"),
		    SECS(sv->ttft_p50_seconds, a), SECS(sv->ttft_p90_seconds, b), SECS(sv->ttft_p99_seconds, c),
		    SECS(sv->ttft_seconds, d), SECS(sv->tpot_p50_seconds, e), SECS(sv->tpot_p99_seconds, f),
		    SECS(sv->itl_p50_seconds, g), SECS(sv->itl_p99_seconds, h));
	if (sc->prompt_cv > 0) {
		eng_ex_line(x, N_("  prompts  CV %.2f (prompt_cv): lengths a gamma law around the mean prompt %lld (an "
				  "assumption; MLPerf's OpenOrca set measures 0.77), 10 points; each TTFT's own chunks "
				  "scale with its length, the waits and the step under way do not: the mean is unchanged"),
			    sc->prompt_cv, (long long)sc->prompt);
		eng_ex_line(x, N_("  leaves   the outputs' spread (every request has the mean output) and the budget queue's "
				  "own spread: published p99s run wider"));
	} else {
		eng_ex_line(x, N_("  prompts  every prompt the mean, %lld (prompt_cv 0; MLPerf's OpenOrca set measures 0.77)"),
			    (long long)sc->prompt);
		eng_ex_line(x, N_("  leaves   the prompts' and outputs' spread (every request has the mean prompt and output) and "
				  "the budget queue's own spread: published p99s run wider"));
	}
	eng_ex_line(x, N_("  source   Kleinrock 1975 (§3.2 the M/M/1 waiting time, §5.2 a uniform phase); Wolff 1982 "
			  "(PASTA); MLPerf Inference LoadGen (p99 TTFT and TPOT)"));
	if (sc->prompt_cv > 0)
		eng_ex_line(x, N_("  source   the gamma law's two-moment fit: Johnson, Kotz and Balakrishnan 1994 ch. 17"));
}

static void ex_steady_ttft(struct eng_ex *x, const struct engine_scenario *sc, const struct engine_result *r)
{
	const struct engine_serving *sv = &r->serving;
	char a[NB], b[NB], c[NB], d[NB];

	if (ex_no_engine(x, sc, "serving.ttft_seconds", N_("time to first token in the steady state of continuous batching")))
		return;
	eng_ex_head(x, "serving.ttft_seconds", N_("time to first token in the steady state of continuous batching"));
	util_count(c, sizeof c, sv->chunk, EX_(x, N_("token")), EX_(x, N_("tokens")));
	if (sv->prefill_apart) {
		eng_ex_line(x, N_("  formula  (⌈prompt ÷ chunk⌉ − 1) × the prefill step + the last one, with the prompts that "
				  "join it + the wait for the prompts ahead (M/D/1, prefill steps first) + half a step + "
				  "the wait for KV room"));
		eng_ex_line(x, N_("  values   prompt %lld in prefill steps of at most %s; a prefill step %s, the last %s; "
				  "waiting %s"),
			    (long long)sc->prompt, c, SECS(sv->mixed_step_seconds, a), SECS(sv->ttft_step_seconds, d),
			    SECS(sv->queue_seconds, b));
	} else {
		eng_ex_line(x, N_("  formula  (⌈prompt ÷ chunk⌉ − 1) × the mixed step + the last one, with the prompts that "
				  "join it + the wait for the budget (M/D/1) + half a step + the wait for KV room"));
		eng_ex_line(x, N_("  values   prompt %lld in chunks of at most %s; a mixed step %s, the last %s; waiting %s"),
			    (long long)sc->prompt, c, SECS(sv->mixed_step_seconds, a), SECS(sv->ttft_step_seconds, d),
			    SECS(sv->queue_seconds, b));
	}
	eng_ex_line(x, N_("  last     the prompts join the steps at random, so the step that carries a prompt's last chunk "
			  "carries the others' average too: 1 + r prompts where an average step carries r (a Poisson "
			  "count, size-biased; Feller 1971 vol. II §I.4), up to the budget"));
	if (sv->prefix_tokens > 0)
		eng_ex_line(x, N_("  prefix   %.0f of the prompt's tokens cached (prefix_hit): %.0f prefilled"), sv->prefix_tokens,
			    sv->prefill_tokens_request);
	if (sc->scheduler_steps > 1)
		eng_ex_line(x, N_("  multi-step: a scheduling decision every %lld decode steps; the waiting includes the rest of "
				  "the running ones, (%lld − 1)/2 × the decode step %s (vLLM 0.6's --num-scheduler-steps)"),
			    (long long)sc->scheduler_steps, (long long)sc->scheduler_steps, SECS(sv->decode_step_seconds, c));
	eng_ex_line(x, N_("  result   %s (users a replica: %lld)"), SECS(sv->ttft_seconds, d), (long long)sc->batch);
	ex_band(x, sv, ENGINE_SM_TTFT);
	ex_dispatch(x, sc, sv);
	if (sv->prefill_apart && sv->engine == ENGINE_SERVE_SGLANG && sv->prefill_from == ENGINE_PREFILL_ENGINE)
		eng_ex_line(x, N_("  source   SGLang's scheduler (a new prefill batch runs before the running decodes; "
				  "--enable-mixed-chunk off by default); Kleinrock 1975 §5.7 (M/D/1 wait)"));
	else if (sv->prefill_apart)
		eng_ex_line(x, N_("  source   prefill apart (%s): the waiting prompts run whole before the running decodes "
				  "(vLLM V0 without chunked prefill, vllm/core/scheduler.py; SGLang without "
				  "--enable-mixed-chunk); Kleinrock 1975 §5.7 (M/D/1 wait)"),
			    EX_(x, engine_serve_prefill_from(sv)));
	else
		eng_ex_line(x, N_("  source   Agrawal et al. 2024 (Sarathi-Serve §4, decode first, then prefill chunks in the "
				  "budget); Kleinrock 1975 §5.7 (M/D/1 wait)"));
}

static void ex_steady_itl(struct eng_ex *x, const struct engine_scenario *sc, const struct engine_result *r)
{
	const struct engine_serving *sv = &r->serving;
	char a[NB], b[NB], c[NB], d[NB], e[NB];

	if (ex_no_engine(x, sc, "serving.itl_seconds", N_("the time between tokens a decoding user sees (ITL, TPOT)")))
		return;
	eng_ex_head(x, "serving.itl_seconds", N_("the time between tokens a decoding user sees (ITL, TPOT)"));
	if (sv->prefill_apart) {
		double np = sv->mixed_fraction < 1.0 ? sv->mixed_fraction / (1.0 - sv->mixed_fraction) : 0.0;
		eng_ex_line(x, N_("  formula  the decode step + n × the prefill step; n = the prefill tokens a decode step ÷ a "
				  "prefill step's tokens (prefill steps pause the decodes)"));
		eng_ex_line(x, N_("  values   n %.3f; prefill %s, decode %s, with %.1f decoding and %s prefill tokens a decode step"),
			    np, SECS(sv->mixed_step_seconds, a), SECS(sv->decode_step_seconds, b), sv->decoding,
			    CNT(sv->prefill_tokens_step, c));
		eng_ex_line(x, N_("  apart    prefill in steps of its own: %s (the knob mixed_prefill sets it)"),
			    EX_(x, engine_serve_prefill_from(sv)));
		eng_ex_line(x, N_("  prefill  matmuls %s, weights and KV reads %s, attention %s, TP all-reduces %s, fixed cost %s"),
			    SECS(sv->matmul_seconds, a), SECS(sv->weight_seconds, b), SECS(sv->attention_seconds, c),
			    SECS(sv->comm_seconds, d), SECS(sv->step_overhead, e));
	} else {
		eng_ex_line(x, N_("  formula  f × the mixed step + (1 − f) × the decode-only step; f: the steps that carry prefill"));
		eng_ex_line(x, N_("  values   f %.2f; mixed %s, decode only %s, with %.1f decoding and %s prefill tokens a step"),
			    sv->mixed_fraction, SECS(sv->mixed_step_seconds, a), SECS(sv->decode_step_seconds, b),
			    sv->decoding, CNT(sv->prefill_tokens_step, c));
		eng_ex_line(x, N_("  mixed    matmuls %s, weights and KV reads %s, attention %s, TP all-reduces %s, fixed cost %s"),
			    SECS(sv->matmul_seconds, a), SECS(sv->weight_seconds, b), SECS(sv->attention_seconds, c),
			    SECS(sv->comm_seconds, d), SECS(sv->step_overhead, e));
	}
	eng_ex_line(x, N_("  element  norms, residual adds and the MLP's activation %s a step, each a pass over the tokens' "
			  "activations at the streaming bandwidth"),
		    SECS(sv->other_seconds, a));
	if (sv->ep_comm_seconds > 0)
		eng_ex_line(x, N_("  ep       %lld: this GPU's routed experts serve %lld replicas' tokens; dispatch and "
				  "combine %s a mixed step (two all-to-alls a MoE layer, DeepSeek-V3 §3.2.2)"),
			    (long long)sc->ep, (long long)sc->ep, SECS(sv->ep_comm_seconds, a));
	if (sv->moe_seconds > 0)
		eng_ex_line(x, N_("  experts  each expert's rows padded to the kernel's row tile (64 or 128, in the matmuls); the "
				  "permutation, the combine and the routing kernels %s a mixed step"),
			    SECS(sv->moe_seconds, a));
	eng_ex_line(x, N_("  bubbles  kernel boundaries %s a step, 33 µs a layer (Spector et al. 2025, Hazy "
			  "Research: vLLM and SGLang reach 50%% of an H100's bandwidth on Llama-1B, no boundaries 78%%)"),
		    SECS(sv->bubble_seconds, a));
	if (sv->straggler > 1.0)
		eng_ex_line(x, N_("  stragglers the matmuls' FLOPs ×%.3f: the slowest of the replica's %lld GPUs (as the "
				  "training step's, docs/step-time.md)"),
			    sv->straggler, (long long)(sc->tp * sc->pp));
	ex_power(x, sc);
	if (sv->speculative != ENGINE_SPEC_NONE)
		eng_ex_line(x, N_("  speculative  each step also drafts (%s) and gains E = %.3f tokens: ITL = the step ÷ E"),
			    SECS(sv->spec_draft_seconds, a), sv->spec_tokens_per_step);
	eng_ex_line(x, N_("  result   %s"), SECS(sv->itl_seconds, a));
	if (sv->prefill_apart)
		eng_ex_line(x, N_("  median   %s: a gap holds n prefill steps on average, spread evenly: the median gap holds n "
				  "rounded (the decode step alone while n < 1/2)"),
			    SECS(sv->itl_median_seconds, a));
	else
		eng_ex_line(x, N_("  median   %s: the step a median gap is, the decode-only step while under half the steps "
				  "carry a chunk (f < 1/2), else the mixed step"),
			    SECS(sv->itl_median_seconds, a));
	ex_band(x, sv, ENGINE_SM_ITL);
	eng_ex_line(x, N_("  source   Yu et al. 2022 (Orca); Kwon et al. 2023 (paged attention reads the whole cache a "
			  "token)"));
}

static void ex_steady_rate(struct eng_ex *x, const struct engine_scenario *sc, const struct engine_result *r)
{
	const struct engine_serving *sv = &r->serving;
	char a[NB], b[NB], c[NB];

	if (ex_no_engine(x, sc, "serving.tokens_per_s_replica", N_("output tokens a second from one replica in the steady state")))
		return;
	eng_ex_head(x, "serving.tokens_per_s_replica", N_("output tokens a second from one replica in the steady state"));
	eng_ex_line(x, N_("  formula  requests/s × tokens a request; requests/s = users ÷ request time (Little's law)"));
	eng_ex_line(x, N_("  values   users %lld ÷ %s = %.2f requests/s; × %lld tokens"), (long long)sc->batch,
		    SECS(sv->e2e_seconds, a), sv->requests_per_s, (long long)sc->generate);
	eng_ex_line(x, N_("  result   %s a replica, %s a GPU, %s a user"), CNT(sv->tokens_per_s_replica, a),
		    CNT(sv->tokens_per_s_gpu, b), CNT(sv->tokens_per_s_user, c));
	ex_band(x, sv, ENGINE_SM_TPUT);
	eng_ex_line(x, N_("  source   Little 1961 (L = λW)"));
}

static void ex_sla(struct eng_ex *x, const struct engine_scenario *sc, const struct engine_result *r)
{
	const struct engine_serving *sv = &r->serving;
	char a[NB], b[NB], c[NB];

	if (ex_no_engine(x, sc, "serving.sla_concurrency", N_("the most users a replica serves within the TTFT and ITL targets")))
		return;
	eng_ex_head(x, "serving.sla_concurrency", N_("the most users a replica serves within the TTFT and ITL targets"));
	if (sc->slo_percentile != ENGINE_SLO_MEAN && (sc->ttft_slo > 0 || sc->tpot_slo > 0)) {
		static const char *const pct[] = {"mean", "p50", "p90", "p99"};
		const char *p = pct[sc->slo_percentile & 3];
		eng_ex_line(x, N_("  formula  the largest λ whose open load (Poisson) has %s TTFT ≤ %s and %s TPOT ≤ %s (both "
				  "grow with λ: bisection below X(limit)), as MLPerf's Server holds its limits"),
			    p, "ttft_slo", p, "tpot_slo");
		eng_ex_line(x, N_("  targets  %s TTFT ≤ %s, %s TPOT ≤ %s"), p,
			    sc->ttft_slo > 0 ? SECS(sc->ttft_slo, a) : EX_(x, N_("any")), p,
			    sc->tpot_slo > 0 ? SECS(sc->tpot_slo, b) : EX_(x, N_("any")));
		eng_ex_line(x, N_("  result   %s requests/s a replica, %.1f in it on average; %s output tokens/s a GPU there"),
			    CNT(sv->sla_rate, a), sv->sla_concurrency, CNT(sv->sla_tokens_per_s_gpu, c));
		eng_ex_line(x, N_("  source   the open load at each λ (serve_open.c) and its percentiles (serve_pct.c)"));
		return;
	}
	eng_ex_line(x, N_("  formula  the largest n whose steady-state TTFT ≤ %s and ITL ≤ %s (both grow with n: doubling, "
			  "then bisection)"),
		    "ttft_slo", "tpot_slo");
	if (sc->ttft_slo <= 0 && sc->tpot_slo <= 0) {
		eng_ex_line(x, N_("  not computed: no target given (%s and %s are 0)"), "ttft_slo", "tpot_slo");
		return;
	}
	eng_ex_line(x, N_("  targets  TTFT ≤ %s, ITL ≤ %s"), sc->ttft_slo > 0 ? SECS(sc->ttft_slo, a) : EX_(x, N_("any")),
		    sc->tpot_slo > 0 ? SECS(sc->tpot_slo, b) : EX_(x, N_("any")));
	eng_ex_line(x, N_("  result   users a replica: %.0f; %s output tokens/s a GPU there"), sv->sla_concurrency,
		    CNT(sv->sla_tokens_per_s_gpu, c));
	eng_ex_line(x, N_("  means    the targets hold the steady state's mean TTFT and ITL of closed-loop users; "
			  "slo_percentile p50, p90 or p99 holds an open load's percentiles instead"));
	eng_ex_line(x, N_("  source   the steady state at each n (napkin's serving engine model)"));
}

static void ex_sizing(struct eng_ex *x, const struct engine_scenario *sc, const struct engine_result *r)
{
	const struct engine_serving *sv = &r->serving;
	char a[NB], b[NB];

	if (ex_no_engine(x, sc, "serving.sizing_replicas", N_("the replicas and GPUs a service of target_rate requests/s needs")))
		return;
	eng_ex_head(x, "serving.sizing_replicas", N_("the replicas and GPUs a service of target_rate requests/s needs"));
	eng_ex_line(x, N_("  formula  replicas = ⌈target_rate ÷ the requests/s one replica takes⌉; GPUs = replicas × tp × pp; "
			  "a replica takes, within the SLA, its SLA users ÷ their request time (Little) or, with slo_percentile, "
			  "the open load's SLA rate; without a target TTFT or TPOT, the most it completes (its admission limit "
			  "full)"));
	if (!(sc->target_rate > 0)) {
		eng_ex_line(x, N_("  not computed: no target_rate given"));
		return;
	}
	eng_ex_line(x, N_("  values   target %s requests/s, a replica %s requests/s (%s), %lld GPUs a replica"),
		    CNT(sc->target_rate, a), CNT(sv->sizing_rate_replica, b),
		    sv->sizing_sla ? EX_(x, N_("within the SLA")) : EX_(x, N_("its most, no SLA")),
		    (long long)(sc->tp * sc->pp));
	if (sv->sizing_replicas > 0)
		eng_ex_line(x, N_("  result   %.0f replicas, %.0f GPUs"), sv->sizing_replicas, sv->sizing_gpus);
	else
		eng_ex_line(x, N_("  result   none: no load of a replica meets the SLA"));
	eng_ex_line(x, N_("  source   Little 1961 (L = λW); the SLA search above (serving.sla_concurrency)"));
}

static void ex_prefix(struct eng_ex *x, const struct engine_scenario *sc, const struct engine_result *r)
{
	const struct engine_serving *sv = &r->serving;
	const struct engine_inference *in = &r->inference;
	char a[NB], b[NB];

	if (ex_no_engine(x, sc, "serving.prefix_tokens", N_("a prompt's tokens a shared prefix cache holds")))
		return;
	eng_ex_head(x, "serving.prefix_tokens", N_("a prompt's tokens a shared prefix cache holds"));
	eng_ex_line(x, N_("  formula  prefilled = max(1, prompt × (1 − prefix_hit)); cached = prompt − prefilled"));
	eng_ex_line(x, N_("  values   prompt %lld × prefix_hit %.2f: %.0f cached, %.0f prefilled"), (long long)sc->prompt,
		    sc->prefix_hit, sv->prefix_tokens, sv->prefill_tokens_request);
	eng_ex_line(x, N_("  time     the prefilled tokens' chunks only; their queries still read the cached keys"));
	eng_ex_line(x, N_("  memory   the prefix is one every request shares (a system prompt): its whole blocks held once "
			  "a replica, each sequence the rest"));
	engine_fmt_max_batch_tr(in->max_concurrent, x->tr, a, sizeof a);
	eng_ex_line(x, N_("  result   %.0f tokens not prefilled; TTFT %s; %s sequences a replica"), sv->prefix_tokens,
		    SECS(sv->ttft_seconds, b), a);
	eng_ex_line(x, N_("  source   vLLM docs, Automatic Prefix Caching (blocks shared by hash); Zheng et al. 2024 (SGLang, "
			  "RadixAttention §3)"));
}

static void ex_spec(struct eng_ex *x, const struct engine_scenario *sc, const struct engine_result *r)
{
	const struct engine_serving *sv = &r->serving;
	char a[NB], b[NB], c[NB], d[NB];

	if (ex_no_engine(x, sc, "serving.spec_tokens_per_step", N_("tokens a decoding sequence gains a step with speculative decoding")))
		return;
	eng_ex_head(x, "serving.spec_tokens_per_step", N_("tokens a decoding sequence gains a step with speculative decoding"));
	eng_ex_line(x, N_("  formula  E = (1 − α^(k+1)) ÷ (1 − α); a step: the drafter's k forwards, then the target on k + 1 "
			  "tokens a sequence; ITL = step ÷ E"));
	if (sv->speculative == ENGINE_SPEC_NONE) {
		eng_ex_line(x, N_("  not used: speculative is none (E = 1, one token a step)"));
		eng_ex_line(x, N_("  source   Leviathan et al. 2023 (Fast Inference from Transformers via Speculative Decoding, "
				  "eq. 1)"));
		return;
	}
	eng_ex_line(x, N_("  values   k %lld, α %.2f: E = %.3f; the target verifies %.0f tokens a sequence a step"),
		    (long long)sc->spec_tokens, sc->spec_accept, sv->spec_tokens_per_step, sv->spec_verify_tokens);
	eng_ex_line(x, N_("  drafter  %s: %s a step drafting; weights %s a GPU, KV %s a token a GPU"),
		    sv->speculative == ENGINE_SPEC_DRAFT ? EX_(x, N_("a draft model")) : sv->speculative == ENGINE_SPEC_EAGLE
											  ? EX_(x, N_("an EAGLE head (one decoder layer)"))
											  : EX_(x, N_("the MTP module (one layer)")),
		    SECS(sv->spec_draft_seconds, a), GIB(sv->spec_weight_bytes, b), GIB(sv->spec_kv_bytes_per_token, c));
	eng_ex_line(x, N_("  result   E %.3f; ITL %s, %.2f× faster than without speculation (users: %lld)"),
		    sv->spec_tokens_per_step, SECS(sv->itl_seconds, d), sv->spec_speedup, (long long)sc->batch);
	eng_ex_line(x, N_("  source   Leviathan et al. 2023 (eq. 1, §3.3); Li et al. 2024 (EAGLE); DeepSeek-AI 2024 "
			  "(DeepSeek-V3 §2.2, MTP)"));
}

bool eng_ex_serving(struct eng_ex *x, const struct engine_scenario *sc, const struct engine_result *r, const char *key)
{
	if (eng_ex_pd(x, sc, r, key))
		return true;
	if (strcmp(key, "inference.max_concurrent") == 0 || strcmp(key, "inference.kv_tokens_per_sequence") == 0 ||
	    strcmp(key, "inference.kv_bytes_per_sequence") == 0)
		ex_capacity(x, sc, r);
	else if (strcmp(key, "inference.ttft_seconds") == 0 || strcmp(key, "inference.prefill_chunks") == 0)
		ex_ttft(x, sc, r);
	else if (strcmp(key, "inference.tpot_seconds") == 0 || strcmp(key, "inference.tp_comm_seconds_per_step") == 0)
		ex_tpot(x, sc, r);
	else if (strcmp(key, "inference.prefill_flops_causal") == 0 || strcmp(key, "inference.prefill_flops_palm") == 0)
		ex_prefill_flops(x, sc, r);
	else if (strcmp(key, "serving.rate") == 0 || strcmp(key, "serving.rate_max") == 0 ||
		 strcmp(key, "serving.rate_limit") == 0 || strcmp(key, "serving.in_system") == 0 ||
		 strcmp(key, "serving.in_engine") == 0 || strcmp(key, "serving.wait_seconds") == 0 ||
		 (sc->rate > 0 && (strcmp(key, "serving.ttft_seconds") == 0 || strcmp(key, "serving.itl_seconds") == 0 ||
				   strcmp(key, "serving.itl_median_seconds") == 0 ||
				   strcmp(key, "serving.e2e_seconds") == 0 || strcmp(key, "serving.requests_per_s") == 0 ||
				   strcmp(key, "serving.tokens_per_s_replica") == 0)))
		ex_open(x, sc, r, key);
	else if (strcmp(key, "serving.ttft_seconds") == 0 || strcmp(key, "serving.queue_seconds") == 0)
		ex_steady_ttft(x, sc, r);
	else if (strcmp(key, "serving.itl_seconds") == 0 || strcmp(key, "serving.mixed_step_seconds") == 0 ||
		 strcmp(key, "serving.decode_step_seconds") == 0 || strcmp(key, "serving.itl_median_seconds") == 0)
		ex_steady_itl(x, sc, r);
	else if (strcmp(key, "serving.tokens_per_s_replica") == 0 || strcmp(key, "serving.tokens_per_s_gpu") == 0 ||
		 strcmp(key, "serving.tokens_per_s_user") == 0 || strcmp(key, "serving.tokens_per_s_job") == 0 ||
		 strcmp(key, "serving.requests_per_s") == 0 || strcmp(key, "serving.e2e_seconds") == 0)
		ex_steady_rate(x, sc, r);
	else if (strncmp(key, "serving.ttft_p", 14) == 0 || strncmp(key, "serving.itl_p", 13) == 0 ||
		 strncmp(key, "serving.tpot_p", 14) == 0)
		ex_pct(x, sc, r, key);
	else if (strcmp(key, "serving.sla_concurrency") == 0 || strcmp(key, "serving.sla_tokens_per_s_gpu") == 0 ||
		 strcmp(key, "serving.sla_rate") == 0)
		ex_sla(x, sc, r);
	else if (strcmp(key, "serving.sizing_replicas") == 0 || strcmp(key, "serving.sizing_gpus") == 0 ||
		 strcmp(key, "serving.sizing_rate_replica") == 0)
		ex_sizing(x, sc, r);
	else if (strcmp(key, "serving.prefix_tokens") == 0 || strcmp(key, "serving.prefill_tokens_request") == 0)
		ex_prefix(x, sc, r);
	else if (strcmp(key, "serving.spec_tokens_per_step") == 0 || strcmp(key, "serving.spec_draft_seconds") == 0 ||
		 strcmp(key, "serving.spec_weight_bytes") == 0 || strcmp(key, "serving.spec_speedup") == 0)
		ex_spec(x, sc, r);
	else
		return false;
	return true;
}
