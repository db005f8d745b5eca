/*
 * The memory traffic and FLOPs of one layer's forward (roofline inputs for inference and
 * serving): a matmul [M,K]×[K,N] costs 2·M·K·N FLOPs and moves its operands once
 * (Williams, Waterman & Patterson 2009 count bytes this way); the attention core adds
 * 4·s·(heads·head_dim) FLOPs per token (Chowdhery et al. 2022, appendix B).
 */
#include <math.h>

#include "internal.h"

/* One layer's forward on one TP rank for M tokens of sequences of length s_attn (the
 * training step is step.c's): each op of the layer table (layer.c) at its share. The
 * linears are read at their stored size (a weight format's bits: w_attn, w_mlp); a routed
 * expert's weights are read if one of the M tokens reaches it, 1 − (1 − k/E)^M of them on
 * average (as serve_step.c times them; all of them for a long prompt), each multiplying its
 * top-k share of the rows. Under expert parallelism a GPU holds E/ep of the routed experts
 * and computes them for the tokens of ep replicas, each replica as loaded as this one: the
 * same FLOPs, 1/ep of the experts' weights, reached by ep·M tokens. */
void eng_layer_traffic(const struct engine_scenario *sc, const struct eng_dims *dm, const struct eng_bytes *b,
		       double M, double s_attn, struct eng_traffic *t)
{
	const struct eng_layer *ly = &dm->ly;
	double tp = (double)sc->tp, e = b->act, ep = sc->ep > 1 && dm->E > 1.0 ? (double)sc->ep : 1.0;
	double seqs = M / eng_max(s_attn, 1.0);
	const struct eng_layer_params *lp = &dm->lp;
	int i, j;

	for (i = 0; i < ly->n; i++) {
		const struct eng_op *op = &ly->op[i];
		double sh = op->share, heads = op->heads / tp;
		if (op->kind == ENG_OP_LINEAR) {
			/* ops that read the same input read it once (q, k, v; gate, up) */
			double K = op->split == ENG_SPLIT_ROW ? op->K / tp : op->K, N = 0.0, rows = M * op->rows * op->copies;
			for (j = i; j < ly->n && (j == i || eng_op_fused(op, &ly->op[j])); j++) {
				const struct eng_op *o = &ly->op[j];
				double n = o->split == ENG_SPLIT_COL ? o->N / tp
					   : o->split == ENG_SPLIT_KV ? o->N * (dm->nkv >= tp ? 1.0 / tp : 1.0 / dm->nkv)
								      : o->N;
				N += n;
				double read = o->part == ENG_PART_EXPERT && o->copies > 1.0
						      ? (1.0 - pow(1.0 - o->rows, ep * M)) / ep
						      : 1.0;
				t->bytes += sh * o->copies * K * n *
					    (o->part == ENG_PART_MLP || o->part == ENG_PART_EXPERT ? b->w_mlp : b->w_attn) * read;
			}
			t->flops += sh * 2.0 * rows * K * N;
			t->bytes += sh * e * (rows * K + rows * N);
			i = j - 1;
		} else if (op->kind == ENG_OP_ATTN) {
			double kvh = (op->kv_heads >= tp ? op->kv_heads / tp : 1.0) * (op->qk_dim + op->v_dim) / 2.0;
			/* the attention core: 2·s·(d_qk + d_v) FLOPs per head and token; Q, K, V in,
			 * O out */
			t->flops += sh * 2.0 * M * s_attn * heads * (op->qk_dim + op->v_dim);
			t->bytes += sh * e * M * (heads * (op->qk_dim + op->v_dim) + 2.0 * kvh);
			if (!sc->flash_attention) /* scores written and read, softmax written and read */
				t->bytes += sh * 4.0 * e * seqs * heads * s_attn * s_attn;
		} else if (op->kind == ENG_OP_LINATTN) {
			/* gated DeltaNet: its recurrent FLOPs (layer.c), q, k, v in, o out, and each
			 * sequence's state read and written once */
			t->flops += sh * M * 6.0 * heads * op->qk_dim * op->v_dim;
			t->bytes += sh * e * (M * heads * (2.0 * op->qk_dim + 2.0 * op->v_dim) + 2.0 * seqs * op->state_elems / tp);
		}
	}
	/* element-wise: the norms (read, write), two residual adds (2 reads, 1 write), the
	 * activation function (gated: 2 reads, 1 write) */
	t->bytes += e * M * ((2.0 * dm->norms + 6.0) * dm->d + lp->mlp_width * (dm->gated ? 3.0 : 2.0) / tp);
}
