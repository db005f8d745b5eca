/*
 * Speculative decoding in a serving step: a drafter proposes k tokens a decoding sequence,
 * the target verifies them in one forward of k + 1 tokens a sequence, and a sequence gains
 * on average E = (1 − α^(k+1)) ÷ (1 − α) tokens a step (k + 1 when α = 1).
 *
 * Sources:
 *  - Leviathan, Kalman and Matias 2023, "Fast Inference from Transformers via Speculative
 *    Decoding", §3.1 eq. 1: with each drafted token accepted with probability α,
 *    independently, the expected tokens a run of the algorithm generates are
 *    (1 − α^(γ+1)) ÷ (1 − α), γ = k the tokens drafted; the target computes γ + 1 positions
 *    in parallel (§3.3) and the draft model runs γ times one after another.
 *  - EAGLE (Li et al. 2024, §4.1): the draft head is one FC layer from 2d (the target's
 *    feature and the next token's embedding) to d, one decoder layer of the target's shape
 *    and the target's own LM head; it runs once a drafted token. DeepSeek-V3's multi-token
 *    prediction module (DeepSeek-AI 2024, §2.2: a projection 2d → d, one transformer block,
 *    the shared embedding and output head) has the same shape; vLLM and SGLang reuse it for
 *    each of the k drafted tokens. Both are timed here as one layer of the target and its
 *    LM head; their weights are the layer's and the projection's.
 *  - A draft model (vLLM's speculative_config with a model): the preset or file spec_draft
 *    names, else the standard dense shape of spec_draft_params (engine_model_from_params,
 *    as the `params` knob), in the target's
 *    formats and TP degree (vLLM runs the draft at the target's tensor-parallel size unless
 *    told otherwise), with its own KV cache for every sequence.
 *  - The drafter's forwards carry no per-step fixed cost of their own: the engines run them
 *    inside the target's step, in CUDA graphs (vLLM V1's EAGLE proposer).
 */
#include "serve_internal.h"

void eng_spec_ctx(const struct engine_scenario *sc, const struct eng_bytes *b, struct eng_spec *sp)
{
	if (sp->on)
		eng_serve_ctx_init(sc, &sp->ddm, b, sp->kv_per_token, 0.0, &sp->dctx);
}

double eng_spec_draft_seconds(const struct eng_spec *sp, double dec, double ctx)
{
	struct eng_serve_step st;
	double fc = 0.0;

	if (!sp->on || !(dec > 0))
		return 0.0;
	eng_serve_step_time(&sp->dctx, 0.0, 0.0, dec, ctx, &st);
	if (sp->fc_bytes > 0)
		/* the projection: 2 FLOPs a weight a row, its weights read once */
		fc = eng_max(2.0 * dec * sp->fc_bytes / eng_max(sp->dctx.b->w_linear, 1e-9) / sp->dctx.peak_mm,
			     sp->fc_bytes / sp->dctx.hbm);
	return sp->k * (st.seconds + fc);
}
