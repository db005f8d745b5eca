/*
 * The per-op table: each op of the layer table (layer.c) on one GPU, in each phase, on
 * the roofline (Williams, Waterman & Patterson 2009: attainable = min(peak, I × bandwidth)),
 * the table LLM-Viewer prints per layer (Yuan et al. 2024, "LLM Inference Unveiled: Survey
 * and Roofline Model Insights", §3): FLOPs, bytes, intensity, bound and time at 100% of
 * the peak and of the bandwidth. The step-time model (step.c) times the same ops with its
 * measured efficiencies; this table is the bound they sit under.
 *
 *  - A linear [R,K]×[K,N] (R rows: a routed expert's top-k share of the tokens, summed over
 *    the experts) costs 2·R·K·N FLOPs and moves its input, its output and its weight once;
 *    the backward computes the data gradient and, unless the weight is frozen (LoRA), the
 *    weight gradient: twice the FLOPs, the activations' bytes twice, the weight read and
 *    its gradient written.
 *  - The attention core: 2·(d_qk + d_v) FLOPs per key per head per token; FlashAttention's
 *    causal kernel executes half the keys (a window: the window), its backward 2.5× the
 *    forward (Dao 2023, §3); without it the s×s scores are written and read. Decode
 *    attends over the average context, reading every key's cache; MLA in its absorbed form.
 *  - A norm: about 4 FLOPs per element (square, mean, scale, weight), its input read and
 *    its output written.
 */
#include <math.h>
#include <string.h>

#include "internal.h"

struct phase_in {
	double M;      /* tokens this GPU computes */
	double keys;   /* keys a query attends to, at most */
	double seqs;   /* sequences */
	double expert_read; /* the share of a layer's routed experts whose weights are read */
	bool decode, backward;
};

static void linear_work(const struct engine_scenario *sc, const struct eng_dims *dm, const struct eng_bytes *b,
			const struct eng_op *op, const struct phase_in *ph, bool frozen, double *F, double *B)
{
	double t = (double)sc->tp, K = op->split == ENG_SPLIT_ROW ? op->K / t : op->K;
	double N = op->split == ENG_SPLIT_COL ? op->N / t
		   : op->split == ENG_SPLIT_KV ? op->N * (dm->nkv >= t ? 1.0 / t : 1.0 / dm->nkv)
					       : op->N;
	double R = ph->M * op->rows * op->copies, e = b->act;
	double copies = op->part == ENG_PART_EXPERT ? op->copies * ph->expert_read : op->copies;
	double wb = op->part == ENG_PART_MLP || op->part == ENG_PART_EXPERT ? b->w_mlp : b->w_attn;
	double w = K * N * copies * (sc->mode == ENGINE_MODE_INFER ? wb : b->w);

	*F = 2.0 * R * K * N;
	*B = e * R * (K + N) + w;
	if (ph->backward) {
		*F *= frozen ? 1.0 : 2.0;
		*B = (frozen ? 1.0 : 2.0) * e * R * (K + N) + w + (frozen ? 0.0 : K * N * copies * b->g);
	}
}

static void attn_work(const struct engine_scenario *sc, const struct eng_dims *dm, const struct eng_bytes *b,
		      const struct eng_op *op, const struct phase_in *ph, double *F, double *B)
{
	double t = (double)sc->tp, e = b->act, heads = op->heads / t;
	double span = op->window > 0.0 && op->window < ph->keys ? op->window : ph->keys;
	double kvh = (op->kv_heads >= t ? op->kv_heads / t : 1.0) * (op->qk_dim + op->v_dim) / 2.0;

	if (op->kind == ENG_OP_LINATTN) {
		*F = ph->M * 6.0 * heads * op->qk_dim * op->v_dim;
		*B = e * (ph->M * heads * (2.0 * op->qk_dim + 2.0 * op->v_dim) + 2.0 * ph->seqs * op->state_elems / t);
	} else if (ph->decode) {
		/* one query per sequence against its cache: GQA's heads split by TP, MLA's
		 * latent whole on every rank */
		double kv = dm->kv_rank > 0.0 ? op->kv_elems : op->kv_elems / dm->nkv * (dm->nkv >= t ? dm->nkv / t : 1.0);
		*F = 2.0 * ph->M * span * heads * op->dec_dim;
		*B = e * ph->M * heads * (op->qk_dim + op->v_dim) + b->kv * ph->M * span * kv;
	} else {
		double keys = sc->flash_attention && !(op->window > 0.0 && op->window < ph->keys) ? span / 2.0 : span;
		*F = 2.0 * ph->M * keys * heads * (op->qk_dim + op->v_dim);
		*B = e * ph->M * (heads * (op->qk_dim + op->v_dim) + 2.0 * kvh);
		if (!sc->flash_attention) /* the scores written and read, the softmax written and read */
			*B += 4.0 * e * ph->M * heads * span;
	}
	if (ph->backward) {
		*F *= sc->flash_attention ? 2.5 : 2.0;
		*B *= 2.0;
	}
}

static void row_set(struct engine_op_row *row, int ph, double F, double B, double peak, double bw)
{
	row->flops[ph] = F;
	row->bytes[ph] = B;
	row->seconds[ph] = eng_max(F / peak, B / bw);
	row->memory_bound[ph] = B > 0 && F / B < peak / bw;
}

static const char *kind_name(enum eng_op_kind k)
{
	switch (k) {
	case ENG_OP_LINEAR: return "linear";
	case ENG_OP_ATTN: return "attention";
	case ENG_OP_LINATTN: return "linear_attention";
	case ENG_OP_NORM: return "norm";
	default: return "other";
	}
}

int engine_ops(const struct engine_scenario *sc, struct engine_ops *out, struct napkin_err *err)
{
	struct eng_dims dm;
	const struct eng_layer *ly = &dm.ly;
	struct eng_bytes by;
	struct phase_in ph[ENGINE_PHASES];
	double peak, bw, Bt = (double)sc->batch, t = (double)sc->tp;
	bool frozen = sc->mode == ENGINE_MODE_TRAIN && sc->finetune != ENGINE_FT_FULL;
	int rc, i, p;

	memset(out, 0, sizeof *out);
	if ((rc = eng_validate_inputs(sc, err)) != NAPKIN_OK)
		return rc;
	eng_dims_from_model(&sc->model, &dm);
	eng_bytes(sc, &by);
	peak = eng_matmul_peak(sc, &by);
	bw = sc->gpu.bandwidth;
	out->peak = peak;
	out->bandwidth = bw;

	memset(ph, 0, sizeof ph);
	ph[ENGINE_PHASE_FORWARD].M = Bt * (double)sc->seq / (double)sc->cp;
	ph[ENGINE_PHASE_FORWARD].keys = (double)sc->seq;
	ph[ENGINE_PHASE_FORWARD].seqs = Bt;
	ph[ENGINE_PHASE_FORWARD].expert_read = 1.0 / (double)sc->ep;
	ph[ENGINE_PHASE_BACKWARD] = ph[ENGINE_PHASE_FORWARD];
	ph[ENGINE_PHASE_BACKWARD].backward = true;
	ph[ENGINE_PHASE_PREFILL].M = Bt * (double)sc->prompt;
	ph[ENGINE_PHASE_PREFILL].keys = (double)sc->prompt;
	ph[ENGINE_PHASE_PREFILL].seqs = Bt;
	/* a GPU holds E/ep of the routed experts (expert parallelism), every one of them reached
	 * by a prompt's tokens; they compute for ep replicas' tokens, each replica as loaded as
	 * this one (traffic.c, serve_step.c) */
	ph[ENGINE_PHASE_PREFILL].expert_read = 1.0 / (double)sc->ep;
	ph[ENGINE_PHASE_DECODE].M = Bt;
	ph[ENGINE_PHASE_DECODE].keys = (double)sc->prompt + ((double)sc->generate + 1.0) / 2.0;
	ph[ENGINE_PHASE_DECODE].seqs = Bt;
	/* the experts the batch's tokens route to, on average E·(1 − (1 − k/E)^B) of E; under
	 * expert parallelism the tokens of the ep replicas reach this GPU's E/ep */
	ph[ENGINE_PHASE_DECODE].expert_read =
		dm.E > 1.0 ? (1.0 - pow(1.0 - dm.k / dm.E, Bt * (double)sc->ep)) / (double)sc->ep : 1.0;
	ph[ENGINE_PHASE_DECODE].decode = true;
	for (p = 0; p < ENGINE_PHASES; p++) {
		out->tokens[p] = ph[p].M;
		out->context[p] = ph[p].keys;
	}

	for (i = 0; i < ly->n && out->n < ENGINE_OPS_MAX - 1; i++) {
		const struct eng_op *op = &ly->op[i];
		struct engine_op_row *row = &out->row[out->n++];
		row->name = op->name;
		row->kind = kind_name(op->kind);
		row->layers = op->share * dm.L;
		if (dm.L == floor(dm.L))
			row->layers = floor(row->layers + 0.5); /* a whole count of layers (share = count ÷ L) */
		row->params = op->params;
		for (p = 0; p < ENGINE_PHASES; p++) {
			double F = 0.0, B = 0.0;
			if (op->kind == ENG_OP_LINEAR) {
				linear_work(sc, &dm, &by, op, &ph[p], frozen, &F, &B);
			} else if (op->kind == ENG_OP_ATTN || op->kind == ENG_OP_LINATTN) {
				attn_work(sc, &dm, &by, op, &ph[p], &F, &B);
			} else if (op->kind == ENG_OP_NORM) {
				F = 4.0 * ph[p].M * op->elems * (ph[p].backward ? 2.0 : 1.0);
				B = 2.0 * by.act * ph[p].M * op->elems * (ph[p].backward ? 2.0 : 1.0);
			}
			row_set(row, p, F, B, peak, bw);
		}
	}
	/* the LM head on the last stage: every position in training, the last one of each
	 * prompt in prefill, one token a sequence in decode */
	{
		struct engine_op_row *row = &out->row[out->n++];
		double w_train = dm.d * dm.V / t;
		row->name = "lm_head";
		row->kind = "linear";
		row->layers = 1.0;
		row->params = dm.V * dm.d;
		for (p = 0; p < ENGINE_PHASES; p++) {
			double R = p == ENGINE_PHASE_PREFILL || p == ENGINE_PHASE_DECODE ? Bt : ph[p].M;
			double wb = p == ENGINE_PHASE_PREFILL || p == ENGINE_PHASE_DECODE ? by.w_head : by.w;
			double F = 2.0 * R * w_train, B = by.act * R * (dm.d + dm.V / t) + w_train * wb;
			if (ph[p].backward) {
				F *= frozen ? 1.0 : 2.0;
				B = (frozen ? 1.0 : 2.0) * by.act * R * (dm.d + dm.V / t) + w_train * (wb + (frozen ? 0.0 : by.g));
			}
			row_set(row, p, F, B, peak, bw);
		}
	}
	return NAPKIN_OK;
}
