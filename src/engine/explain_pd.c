/*
 * Explanations of disaggregated prefill and decode, xPyD (serve_pd.c): TTFT, the time between
 * tokens, each pool's load and the KV hand-off, with their formulas and sources. eng_ex_serving
 * (explain_serving.c) asks here first when the scenario splits its replicas.
 */
#include <math.h>
#include <string.h>

#include "explain_internal.h"

static void ex_pd_ttft(struct eng_ex *x, const struct engine_scenario *sc, const struct engine_result *r)
{
	const struct engine_serving *sv = &r->serving;
	char a[NB], b[NB], c[NB], d[NB];
	double wait = sv->ttft_seconds - sv->pd_prefill_seconds - sv->pd_kv_transfer_seconds;

	eng_ex_head(x, "serving.ttft_seconds", N_("time to first token, prefill and decode on replicas of their own (xPyD)"));
	eng_ex_line(x, N_("  formula  the prefill pool's queue and prefill + the KV hand-off (bytes a GPU ÷ rate + latency) + the "
			  "wait for a decode slot"));
	eng_ex_line(x, N_("  prefill  a pool of %.0f: prompt-only steps of %s tokens while busy (a step %s); a birth-death "
			  "queue of prompts behind a least-loaded router, at %.0f%% of its most: %s"),
		    sv->pd_prefill_replicas, CNT(sv->chunk, a), SECS(sv->mixed_step_seconds, b), 100.0 * sv->pd_prefill_util,
		    SECS(sv->pd_prefill_seconds, c));
	eng_ex_line(x, N_("  hand-off %s a GPU at %s/s + %s: %s (the decode replica streams the tokens once the KV lands)"),
		    GIB(sv->pd_kv_transfer_bytes, a), GIB(sv->pd_kv_transfer_bw, b), SECS(ENG_COLL_LATENCY, c),
		    SECS(sv->pd_kv_transfer_seconds, d));
	eng_ex_line(x, N_("  decode   the wait for a decode replica's KV room or sequence limit: %s"), SECS(eng_max(wait, 0.0), a));
	if (sc->rate > 0)
		eng_ex_line(x, N_("  result   %s at %s requests/s arriving at the group"), SECS(sv->ttft_seconds, a), CNT(sc->rate, b));
	else
		eng_ex_line(x, N_("  result   %s (users a decode replica: %lld)"), SECS(sv->ttft_seconds, a), (long long)sc->batch);
	eng_ex_line(x, N_("  source   DistServe (Zhong et al., OSDI 2024) §3.1, a prefill instance as a queue of prompts; "
			  "Splitwise (Patel et al., ISCA 2024) §4, the KV sent by each TP rank; SGLang's disaggregation (the "
			  "decode server runs the request once the KV is written); Kleinrock 1975 §3.5 (pooled servers)"));
}

static void ex_pd_itl(struct eng_ex *x, const struct engine_scenario *sc, const struct engine_result *r)
{
	const struct engine_serving *sv = &r->serving;
	char a[NB], b[NB], c[NB], d[NB], e[NB];

	(void)sc;
	eng_ex_head(x, "serving.itl_seconds", N_("the time between tokens on a decode-only replica (xPyD)"));
	eng_ex_line(x, N_("  formula  the decode step at the sequences a decode replica runs, no prefill chunk in it (÷ the "
			  "tokens a step gains when speculating)"));
	eng_ex_line(x, N_("  values   a pool of %.0f, %.1f decoding in each replica on average, a step %s; at %.0f%% of its "
			  "most"),
		    sv->pd_decode_replicas, sv->decoding, SECS(sv->decode_step_seconds, a), 100.0 * sv->pd_decode_util);
	eng_ex_line(x, N_("  result   %s (median %s, p99 %s)"), SECS(sv->itl_seconds, b), SECS(sv->itl_median_seconds, c),
		    SECS(sv->itl_p99_seconds, d));
	eng_ex_line(x, N_("  prefill  its steps are on the prefill replicas: %s a step there, not here"),
		    SECS(sv->mixed_step_seconds, e));
	eng_ex_line(x, N_("  source   DistServe (Zhong et al., OSDI 2024) §2-§3: apart, a decode step holds no prompt "
			  "(no interference)"));
}

static void ex_pd_pools(struct eng_ex *x, const struct engine_scenario *sc, const struct engine_result *r, const char *key)
{
	const struct engine_serving *sv = &r->serving;
	char a[NB], b[NB], c[NB], d[NB];
	bool pre = sv->pd_prefill_util >= sv->pd_decode_util;

	(void)sc;
	eng_ex_head(x, key, N_("the two pools of disaggregated serving (xPyD) and the KV hand-off between them"));
	eng_ex_line(x, N_("  formula  a pool's load = the requests/s a replica of it takes ÷ the most it completes; the "
			  "hand-off = prompt × a GPU's KV bytes a token ÷ rate + latency"));
	eng_ex_line(x, N_("  values   %.0fP%.0fD; a prefill replica completes at most %s requests/s, a decode replica %s; "
			  "loads %.0f%% and %.0f%%: %s binds first"),
		    sv->pd_prefill_replicas, sv->pd_decode_replicas, CNT(sv->pd_prefill_rate_max, a),
		    CNT(sv->pd_decode_rate_max, b), 100.0 * sv->pd_prefill_util, 100.0 * sv->pd_decode_util,
		    pre ? EX_(x, N_("prefill")) : EX_(x, N_("decode")));
	eng_ex_line(x, N_("  hand-off %s a GPU at %s/s: %s a request"), GIB(sv->pd_kv_transfer_bytes, c),
		    GIB(sv->pd_kv_transfer_bw, d), SECS(sv->pd_kv_transfer_seconds, a));
	if (sv->pd_sizing_prefill > 0)
		eng_ex_line(x, N_("  sizing   %.0fP%.0fD: the fewest replicas found one at a time from each pool's most, "
				  "in the pool that binds"),
			    sv->pd_sizing_prefill, sv->pd_sizing_decode);
	eng_ex_line(x, N_("  source   DistServe (Zhong et al., OSDI 2024) §3-§4, each phase sized on its own; Mooncake's "
			  "and NIXL's GPUDirect RDMA at NCCL's share of line rate (0.90)"));
}

bool eng_ex_pd(struct eng_ex *x, const struct engine_scenario *sc, const struct engine_result *r, const char *key)
{
	if (r->serving.pd_prefill_replicas <= 0)
		return false;
	if (strcmp(key, "serving.ttft_seconds") == 0 || strcmp(key, "serving.queue_seconds") == 0 ||
	    strcmp(key, "serving.pd_prefill_seconds") == 0)
		ex_pd_ttft(x, sc, r);
	else if (strcmp(key, "serving.itl_seconds") == 0 || strcmp(key, "serving.itl_median_seconds") == 0 ||
		 strcmp(key, "serving.decode_step_seconds") == 0)
		ex_pd_itl(x, sc, r);
	else if (strncmp(key, "serving.pd_", 11) == 0)
		ex_pd_pools(x, sc, r, key);
	else
		return false;
	return true;
}
