/*
 * Explanations of the serving results: capacity (max_concurrent and the KV cache a
 * sequence holds), time to first token, time per output token, and the two prefill FLOPs
 * counts (serving.c computes them).
 */
#include <string.h>

#include "explain_internal.h"

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
	eng_ex_line(x, N_("  a collective  2(t−1)/t × bytes ÷ NCCL's bus bandwidth on the links + %.0f µs a call (the step-time "
		       "model's, docs/step-time.md)"),
		    ENG_COLL_LATENCY * 1e6);
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

bool eng_ex_serving(struct eng_ex *x, const struct engine_scenario *sc, const struct engine_result *r, const char *key)
{
	if (strcmp(key, "inference.max_concurrent") == 0 || strcmp(key, "inference.kv_tokens_per_sequence") == 0 ||
	    strcmp(key, "inference.kv_bytes_per_sequence") == 0)
		ex_capacity(x, sc, r);
	else if (strcmp(key, "inference.ttft_seconds") == 0 || strcmp(key, "inference.prefill_chunks") == 0)
		ex_ttft(x, sc, r);
	else if (strcmp(key, "inference.tpot_seconds") == 0 || strcmp(key, "inference.tp_comm_seconds_per_step") == 0)
		ex_tpot(x, sc, r);
	else if (strcmp(key, "inference.prefill_flops_causal") == 0 || strcmp(key, "inference.prefill_flops_palm") == 0)
		ex_prefill_flops(x, sc, r);
	else
		return false;
	return true;
}
