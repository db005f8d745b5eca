/*
 * The drafter of speculative decoding as memory and serving count it: its shape (a draft
 * model, or one layer of the target for EAGLE's head and an MTP module), its weights and
 * its KV a token on one GPU, and the tokens a verification step gains. Timing it is
 * serve_spec.c's; memory.c reads the sizes from here without the step model.
 *
 * Sources: as serve_spec.c's (Leviathan et al. 2023 eq. 1; EAGLE, Li et al. 2024 §4.1;
 * DeepSeek-V3 §2.2).
 */
#include <math.h>
#include <stddef.h>
#include <string.h>

#include "serve_internal.h"

double eng_spec_tokens_per_step(double alpha, double k)
{
	if (!(k > 0))
		return 1.0;
	if (alpha >= 1.0)
		return k + 1.0;
	if (alpha <= 0.0)
		return 1.0;
	return (1.0 - pow(alpha, k + 1.0)) / (1.0 - alpha);
}

/* KV bytes a token on one TP rank, as serve_batch.c takes the target's. */
static double kv_rank_of(const struct engine_scenario *sc, const struct eng_dims *dm, const struct eng_bytes *b)
{
	double t = (double)sc->tp, per = dm->L * dm->lp.kv_elems * b->kv;

	if (dm->kv_rank > 0.0)
		return per;
	if (dm->nkv < t)
		return 2.0 * dm->L * dm->dh * b->kv;
	return per / t;
}

void eng_spec_init(const struct engine_scenario *sc, const struct eng_dims *dm, const struct eng_bytes *b,
		   struct eng_spec *sp)
{
	double t = (double)sc->tp;
	struct engine_params p;

	/* the drafter's shape and step (ddm, dctx: nearly all of the struct's 8 KB) are read only
	 * with a drafter on (serve_spec.c): without one, the fields before them alone are set
	 * (eng_memory and engine_solve_max_params come here at every trial) */
	memset(sp, 0, offsetof(struct eng_spec, ddm));
	sp->method = sc->speculative;
	sp->tokens = 1.0;
	sp->verify = 1.0;
	if (sc->speculative == ENGINE_SPEC_NONE || sc->spec_tokens < 1)
		return;
	memset(&sp->ddm, 0, sizeof *sp - offsetof(struct eng_spec, ddm));
	sp->on = true;
	sp->k = (double)sc->spec_tokens;
	sp->alpha = sc->spec_accept;
	sp->tokens = eng_spec_tokens_per_step(sp->alpha, sp->k);
	sp->verify = sp->k + 1.0;
	if (sc->speculative == ENGINE_SPEC_DRAFT) {
		struct engine_model m;
		struct napkin_err err;
		if (sc->spec_draft.layers > 0)
			m = sc->spec_draft; /* a preset or a file (spec_draft) */
		else if (engine_model_from_params(sc->spec_draft_params, &m, &err) != NAPKIN_OK)
			engine_model_llama2_7b(&m); /* not reached: the knob's range is within the shapes' */
		eng_dims_from_model(&m, &sp->ddm);
		eng_params(&sp->ddm, &p);
		sp->weight_bytes = p.total * b->w_linear / t;
		sp->fc_bytes = 0.0;
	} else {
		/* one layer of the target (an MoE target's MTP block is an MoE layer) */
		sp->ddm = *dm;
		sp->ddm.L = 1.0;
		if (dm->E > 1.0)
			sp->ddm.moe_share = 1.0;
		sp->ddm.lin_share = 0.0;
		eng_dims_refresh(&sp->ddm);
		/* the 2d → d projection, on every rank (it is small: 2d² weights) */
		sp->fc_bytes = 2.0 * dm->d * dm->d * b->w_linear;
		sp->weight_bytes = sp->ddm.lp.total * b->w_linear / t + sp->fc_bytes;
	}
	sp->kv_per_token = kv_rank_of(sc, &sp->ddm, b);
}

