/*
 * The memory traffic and FLOPs of one layer's forward (roofline inputs for inference and
 * serving): a matmul [M,K]×[K,N] costs 2·M·K·N FLOPs and moves its operands once
 * (Williams, Waterman & Patterson 2009 count bytes this way); the attention core adds
 * 4·s·(heads·head_dim) FLOPs per token (Chowdhery et al. 2022, appendix B).
 */
#include "internal.h"

/* Forward only: read X and W, write Y. */
static void mm_fwd(double M, double K, double N, double e, double w, struct eng_traffic *t)
{
	t->flops += 2.0 * M * K * N;
	t->bytes += e * (M * K + M * N) + w * K * N;
}

/* One layer's forward on one TP rank for M tokens of sequences of length s_attn (the
 * training step is step.c's). The linears are read at their stored size (a weight
 * format's bits: w_linear). */
void eng_layer_traffic(const struct engine_scenario *sc, const struct eng_dims *dm, const struct eng_bytes *b,
		       double M, double s_attn, struct eng_traffic *t)
{
	double tp = (double)sc->tp, e = b->act, w = b->w_linear;
	double hq = dm->nh * dm->dh / tp;
	double kvr = dm->nkv >= tp ? dm->nkv / tp : 1.0;
	double hkv = kvr * dm->dh;
	double fr = dm->f / tp;
	double seqs = M / eng_max(s_attn, 1.0);
	double mm_rows = M * dm->k; /* rows through the experts, all experts' weights touched */
	double elem;

	mm_fwd(M, dm->d, hq + 2.0 * hkv, e, w, t);
	mm_fwd(M, hq, dm->d, e, w, t);
	mm_fwd(mm_rows, dm->d, (dm->gated ? 2.0 : 1.0) * fr, e, 0.0, t);
	mm_fwd(mm_rows, fr, dm->d, e, 0.0, t);
	t->bytes += dm->E * (dm->gated ? 3.0 : 2.0) * dm->d * fr * w;
	if (dm->E > 1.0)
		mm_fwd(M, dm->d, dm->E, e, w, t);
	/* attention core: 4·s·hq FLOPs per token */
	t->flops += 4.0 * M * s_attn * hq;
	t->bytes += e * M * (2.0 * hq + 2.0 * hkv); /* Q, K, V in, O out */
	if (!sc->flash_attention) /* scores written and read, softmax written and read */
		t->bytes += 4.0 * e * seqs * (dm->nh / tp) * s_attn * s_attn;
	/* element-wise: two norms (read, write), two residual adds (2 reads, 1 write), the
	 * activation function (gated: 2 reads, 1 write) */
	elem = e * M * (4.0 * dm->d + 6.0 * dm->d + dm->k * (dm->gated ? 3.0 : 2.0) * fr);
	t->bytes += elem;
}
