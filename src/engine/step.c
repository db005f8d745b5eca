/*
 * The step-time model: one optimizer step of the binding GPU, predicted from the work.
 * Every formula is in docs/step-time.md with its source; gemm.c holds the calibration.
 *
 *  - Each matmul on the roofline at its shape's efficiency: forward Y = XW (M×N×K),
 *    backward dX = dY·Wᵀ (M×K×N) and dW = Xᵀ·dY (K×N×M), shapes per GPU after TP
 *    (columns or rows split), CP (tokens split) and EP (experts split).
 *  - Attention: FlashAttention is compute-bound at its own rate and skips the masked half
 *    of a causal score matrix (Dao et al. 2022, 2023); without it QKᵀ and AV are batched
 *    GEMMs over every score, and the s×s scores go through HBM (written, read and written
 *    by the fused softmax, read by AV; the backward reads and writes them again).
 *  - Element-wise work at streaming bandwidth: two norms, two residual adds (with dropout:
 *    its 1-byte mask), the MLP activation, rotary embeddings, the loss over fp32 logits;
 *    without sequence parallelism each TP rank repeats the norms and residuals over the
 *    whole hidden size (Korthikanti et al. 2022, §4.2.2); the backward moves twice the
 *    forward's bytes.
 *  - Recomputation adds its forward to the backward: full, the whole layer (TP
 *    all-reduces included), in recompute_layers of a stage's layers when given (Megatron's
 *    block method, torchtitan's every k-th block); selective, the attention core
 *    (Korthikanti et al. 2022, §5); selective-op, all but the ops torchtitan's policy
 *    saves (every second matmul, attention: activations.c);
 *    FlashAttention already recomputes its scores inside its backward.
 *  - Communication per collective (gemm.c, nccl-tests' conventions): TP two all-reduces
 *    of b·s·h per layer forward and two backward (Shoeybi et al. 2019, §3; with sequence
 *    parallelism a reduce-scatter and an all-gather each, the same time); DP one
 *    all-reduce of the gradients per step, or ZeRO-1/2's reduce-scatter + all-gather,
 *    hidden behind the backward of the last micro-batch when `overlap` is on except the
 *    last layer's bucket; ZeRO-3 gathers each parameter tensor before its forward and its
 *    backward and reduce-scatters its gradient every micro-batch, 1.5× the DP volume
 *    (Rajbhandari et al. 2019, §7), hidden behind compute only when `overlap` is on; PP
 *    sends b·s·h/t activations forward and gradients back per micro-batch per virtual
 *    stage; CP all-gathers K and V per layer (and reduce-scatters their gradients),
 *    overlapped with attention (ring attention); EP dispatches and combines each token's
 *    top-k copies with an all-to-all per MoE layer, forward and backward.
 *  - Pipeline: 1F1B takes (m + p − 1) micro-batch slots of the binding stage, the
 *    interleaved schedule (m + (p − 1)/v) (Narayanan et al. 2021, §2.2). When pp does not
 *    divide the layers, the extra layers sit on the middle stages and the last stage
 *    keeps the LM head; the heaviest stage binds the step.
 *  - The optimizer step reads and writes its states and master weights, reads the
 *    gradients and writes the weights of this GPU's shard, at streaming bandwidth.
 */
#include <math.h>
#include <string.h>

#include "internal.h"

/* A stage's work per micro-batch, split into the breakdown's buckets (seconds). */
struct stage {
	double mm_f, mm_b, attn_f, attn_b, elem_f, elem_b, tp_f, tp_b, cp, ep_f, ep_b, pp;
	double recompute;
	double flops, bytes;  /* per micro-batch, hardware */
	double mm_flops, mm_time; /* the matmuls' achieved fraction of peak */
	double fwd_mm_flops;      /* the matmuls' forward FLOPs (what full recomputation repeats) */
	double rc_flops;          /* the FLOPs recomputation adds (in `flops` too) */
	double thinnest;
};

struct ctx {
	const struct engine_scenario *sc;
	const struct eng_dims *dm;
	const struct eng_bytes *b;
	const struct eng_family *fam;
	double peak, hbm_bw;
	double peak16;  /* what stays in 16 bits when the linears run in FP8: attention, the LM head, the router */
	double kq;      /* the linears' main-loop K step (gemm.c): 2 for FP8 operands */
	bool fp8;       /* the layers' linears in FP8 (fp8-mixed, or matmul_dtype fp8 in training) */
	bool eager;     /* eager PyTorch modules: the element-wise work unfused */
	struct eng_group tp, cp, ep, dp, pp;
	bool frozen; /* LoRA/QLoRA: the base linears get no weight gradient */
};

/* Forward, data-gradient and weight-gradient GEMMs of Y[M,N] = X[M,K]·W[K,N], `count` times. */
static void gemm3x(const struct ctx *c, double M, double N, double K, double count, bool main, struct stage *st,
		   double *fwd_out, const struct eng_tpov *ov)
{
	/* `main`: a layer linear (FP8 under an FP8 recipe); the others (router, LM head,
	 * adapters) stay in 16 bits */
	bool f8 = main && c->fp8;
	double e = f8 ? 1.0 : c->b->act, eff, fwd, bwd, f = 2.0 * M * N * K, passes;
	double pk = f8 || !c->fp8 ? c->peak : c->peak16, kq = f8 ? c->kq : 1.0;
	const struct engine_gpu *g = &c->sc->gpu;

	if (!(M > 0 && N > 0 && K > 0) || count <= 0)
		return;
	fwd = ov->fchunks * ov->fslow * eng_gemm_seconds_q(g, c->fam, pk, M / ov->fchunks, N, K, e, kq, &eff);
	if (main && eff < st->thinnest)
		st->thinnest = eff;
	/* the data gradient, and the weight gradient unless the weight is frozen (LoRA) */
	bwd = ov->dchunks * eng_gemm_seconds_q(g, c->fam, pk, M / ov->dchunks, K, N, e, kq, NULL) +
	      (c->frozen ? 0.0 : eng_gemm_seconds_q(g, c->fam, pk, K, N, M, e, kq, NULL));
	passes = c->frozen ? 2.0 : 3.0;
	st->mm_flops += passes * f * count;
	st->mm_time += (fwd + bwd) * count; /* on the roofline, launch gaps apart */
	st->mm_f += (fwd + ov->fchunks * ENG_KERNEL_GAP) * count;
	st->mm_b += (bwd + (passes - 2.0 + ov->dchunks) * ENG_KERNEL_GAP) * count;
	st->flops += passes * f * count;
	st->fwd_mm_flops += f * count;
	st->bytes += passes * e * (M * K + K * N + M * N) * count;
	if (fwd_out != NULL)
		*fwd_out += fwd * count;
}

static void gemm3(const struct ctx *c, double M, double N, double K, double count, bool main, struct stage *st,
		  double *fwd_out)
{
	static const struct eng_tpov none = {1.0, 1.0, 1.0};

	gemm3x(c, M, N, K, count, main, st, fwd_out, &none);
}

/* The shape of a linear op on one GPU: its input and output features after TP (columns,
 * rows, or KV heads split; a replicated op whole), the rows each copy multiplies and the
 * copies this GPU holds (the E/ep routed experts, each reached by the top-k rows of every
 * EP rank's tokens: M·k·ep/E). */
struct lin_shape {
	double K, N, rows, copies;
};

static void lin_shape(const struct ctx *c, const struct eng_op *op, double M, struct lin_shape *ls)
{
	const struct engine_scenario *sc = c->sc;
	double t = (double)sc->tp, ep = (double)sc->ep, nkv = c->dm->nkv;

	ls->K = op->split == ENG_SPLIT_ROW ? op->K / t : op->K;
	ls->N = op->split == ENG_SPLIT_COL ? op->N / t
		: op->split == ENG_SPLIT_KV ? op->N * (nkv >= t ? 1.0 / t : 1.0 / nkv)
					    : op->N;
	if (op->part == ENG_PART_EXPERT) {
		ls->rows = M * op->rows * ep;
		ls->copies = op->copies / ep;
	} else {
		ls->rows = M * op->rows;
		ls->copies = op->copies;
	}
}

/* LoRA's adapters on one layer: for each adapted linear (in → out), A: [M,in]·[in,r] and
 * B: [M,r]·[r,out], trained (all three GEMMs each), on the rows through it. */
static void adapters(const struct ctx *c, const struct eng_layer *ly, double M, struct stage *st, double *fwd_out)
{
	double r = (double)c->sc->lora_rank;
	int tg = c->sc->lora_targets, i;
	struct ctx tc = *c;

	tc.frozen = false;
	for (i = 0; i < ly->n; i++) {
		const struct eng_op *op = &ly->op[i];
		struct lin_shape ls;
		if (op->kind != ENG_OP_LINEAR || !(tg & op->lora))
			continue;
		lin_shape(c, op, M, &ls);
		/* every copy's rows together (the routed experts' k rows of each token) */
		gemm3(&tc, M * op->rows * op->copies, r, ls.K, op->share, false, st, fwd_out);
		gemm3(&tc, M * op->rows * op->copies, ls.N, r, op->share, false, st, fwd_out);
	}
}

static double stream(const struct ctx *c, double bytes)
{
	return bytes / c->hbm_bw;
}

/* One transformer layer for one micro-batch on one GPU: each op of the layer table
 * (layer.c) at the share of the layers that have it. */
static void layer(const struct ctx *c, struct stage *st)
{
	const struct engine_scenario *sc = c->sc;
	const struct eng_dims *dm = c->dm;
	const struct eng_layer *ly = &dm->ly;
	double t = (double)sc->tp, cp = (double)sc->cp, e = c->b->act;
	double s = (double)sc->seq, B = (double)sc->batch;
	double M = B * s / cp;                    /* tokens this GPU computes */
	double d = dm->d;
	double rep = sc->sequence_parallel && sc->tp > 1 ? 1.0 / t : 1.0;
	double fwd_mm = 0.0, attn_f = 0.0, attn_b = 0.0, elem, tpv, attn_core_f = 0.0, attn_core_mm = 0.0, deq = 0.0;
	double fwd_flops0 = st->fwd_mm_flops, attn_core_flops = 0.0, kv_rank = 0.0, rot = 0.0;
	double moe = dm->E > 1.0 ? dm->moe_share : 0.0;
	const struct eng_layer_params *lp = &dm->lp;
	double mm_f0 = st->mm_f, mm_b0 = st->mm_b;
	int i;

	/* linear layers: ops that read the same input run as one GEMM (q, k, v; gate, up) */
	for (i = 0; i < ly->n; i++) {
		const struct eng_op *op = &ly->op[i];
		struct lin_shape ls;
		struct eng_tpov ov;
		double N;
		int j;
		if (op->kind != ENG_OP_LINEAR)
			continue;
		lin_shape(c, op, M, &ls);
		N = ls.N;
		for (j = i + 1; j < ly->n && eng_op_fused(op, &ly->op[j]); j++) {
			struct lin_shape lj;
			lin_shape(c, &ly->op[j], M, &lj);
			N += lj.N;
		}
		eng_tp_overlap_shape(sc, op, &ov); /* step_comm.c */
		gemm3x(c, ls.rows, N, ls.K, ls.copies * op->share, op->part != ENG_PART_ROUTER, st, &fwd_mm, &ov);
		i = j - 1;
	}
	if (c->frozen)
		adapters(c, ly, M, st, &fwd_mm);

	/* attention cores */
	for (i = 0; i < ly->n; i++) {
		const struct eng_op *op = &ly->op[i];
		double sh = op->share, heads = op->heads / t;
		double span = op->window > 0.0 && op->window < s ? op->window : s;
		double kvh = (op->kv_heads >= t ? op->kv_heads / t : 1.0) * (op->qk_dim + op->v_dim) / 2.0;
		if (op->kind == ENG_OP_LINATTN) {
			/* gated DeltaNet's chunked kernel: its recurrent FLOPs at FlashAttention's
			 * rate, the backward 2.5× (as the attention below; not calibrated on its own
			 * kernels), q, k, v and the output through HBM */
			double f = M * 6.0 * heads * op->qk_dim * op->v_dim;
			double rate = c->peak16 * eng_min(c->fam->flash * c->fam->sustained, 0.5);
			attn_f += sh * f / rate;
			attn_b += sh * 2.5 * f / rate;
			st->flops += sh * 3.5 * f;
			st->bytes += sh * 3.0 * e * M * heads * (2.0 * op->qk_dim + 2.0 * op->v_dim);
			attn_core_flops += sh * f;
			continue;
		}
		if (op->kind != ENG_OP_ATTN)
			continue;
		kv_rank += sh * 2.0 * kvh;
		rot += sh * (heads * op->qk_dim + kvh);
		if (sc->flash_attention) {
			/* causal: the tiles above the diagonal are skipped, so the kernel executes f,
			 * half of the forward's 2·b·(s/c)·s·a·(d_qk + d_v)/t (a window of W: W
			 * keys); its backward recomputes the scores, five matmuls to the forward's
			 * two: 2.5 f (Dao 2023 §3; FlashAttention's benchmark counts fwd + bwd as
			 * 3.5× the forward). The family's rate is on those executed FLOPs; napkin
			 * counts the whole score matrix (PaLM's and Megatron-LM's MFU and HFU), twice
			 * what runs, so its rate on napkin's count, 2 × flash × sustained, is held at
			 * the peak: HFU never exceeds 1 (docs/step-time.md). */
			double f = 2.0 * B * (s / cp) * span * heads * (op->qk_dim + op->v_dim) * 0.5;
			double rate = c->peak16 * eng_min(c->fam->flash * c->fam->sustained, 0.5);
			attn_f += sh * f / rate;
			attn_b += sh * 2.5 * f / rate;
			st->flops += sh * 3.5 * 2.0 * f; /* as HFU counts them: the whole matrix, the recomputed scores */
			st->bytes += sh * 3.0 * e * M * (heads * (op->qk_dim + op->v_dim) + 2.0 * kvh);
			attn_core_flops += sh * 2.0 * 2.0 * f; /* its backward recomputes the scores itself */
		} else {
			double bh = B * heads, rows = s / cp;
			double fq = 2.0 * bh * rows * s * op->qk_dim, fv = 2.0 * bh * rows * s * op->v_dim;
			double qk, av, sc_bytes, drop = dm->dropout ? 2.0 * e + 1.0 : 0.0, core_f;
			/* QKᵀ: [rows, d_qk]×[d_qk, s] per head; AV: [rows, s]×[s, d_v] per head, batched */
			qk = eng_max(fq / (c->peak16 * eng_gemm_efficiency(&sc->gpu, c->fam, bh * rows, s, op->qk_dim)),
				     e * bh * (rows * op->qk_dim + s * op->qk_dim + rows * s) / c->hbm_bw);
			av = eng_max(fv / (c->peak16 * eng_gemm_efficiency(&sc->gpu, c->fam, bh * rows, op->v_dim, s)),
				     e * bh * (rows * s + s * op->v_dim + rows * op->v_dim) / c->hbm_bw);
			sc_bytes = bh * rows * s;
			core_f = qk + av + stream(c, sc_bytes * (2.0 * e + drop));
			attn_f += sh * core_f;
			attn_b += sh * (2.0 * (qk + av) + stream(c, sc_bytes * (3.0 * e + drop)));
			st->flops += sh * 3.0 * (fq + fv); /* QKᵀ and AV, forward and backward */
			st->bytes += sh * (3.0 * e * bh * (rows * (op->qk_dim + op->v_dim) + s * (op->qk_dim + op->v_dim) +
						    2.0 * rows * s) +
					   sc_bytes * (5.0 * e + 2.0 * drop));
			attn_core_f += sh * core_f;
			attn_core_mm += sh * (qk + av);
			attn_core_flops += sh * (fq + fv);
		}
	}

	/* element-wise, forward; the backward moves twice the bytes: each norm reads and
	 * writes d, the two residual adds read two and write one, the MLP's activation.
	 * Eager modules move more (Hugging Face's modeling_llama.py, one kernel per torch op):
	 * LlamaRMSNorm upcasts to fp32, squares, takes the mean, scales, casts back and
	 * multiplies by its weight, (e + 4) + 8 + 4 + 8 + (4 + e) + 2e = 28 + 4e bytes an
	 * element against a fused norm's 2e (LayerNorm is one ATen kernel either way); the
	 * SwiGLU product act(gate) · up is two kernels, 5e against 3e; apply_rotary_pos_emb
	 * (x·cos + rotate_half(x)·sin: a negation, a cat, two products and a sum) 10e against
	 * 2e. torch.compile fuses each chain into one kernel: the fused count. */
	{
		double norm_b = c->eager && !dm->layernorm ? 28.0 + 4.0 * e : 2.0 * e;
		double act_b = dm->gated ? (c->eager ? 5.0 : 3.0) * e : 2.0 * e;
		elem = M * ((dm->norms * norm_b + 6.0 * e) * d * rep + lp->mlp_width * act_b / t) +
		       (dm->dropout ? M * 2.0 * d * rep : 0.0);
		if (!dm->learned && dm->nh > 0) /* rotary: q and k read and written */
			elem += (c->eager ? 5.0 : 1.0) * e * M * 2.0 * rot;
	}
	if (c->fp8) {
		/* FP8 linears: each input cast to e4m3 with its transpose for the weight gradient
		 * (read 2, write 1 + 1), each output gradient likewise, each weight once per step
		 * (Megatron: Transformer Engine keeps the cast weights across micro-batches,
		 * is_first_microbatch) or every micro-batch (torchtitan's float8 and Accelerate's
		 * te.Linear); dynamic tensorwise scaling (torchtitan) reads each tensor once more
		 * for its amax, delayed scaling (Transformer Engine) takes it from the last step's
		 * history, inside the cast. Under Megatron the norms write their outputs in FP8
		 * (LayerNormLinear): the q/k/v and gate/up inputs cost only their transpose
		 * (Micikevicius et al. 2022, FP8 formats; NVIDIA Transformer Engine docs, "FP8
		 * primer") */
		bool meg = sc->stack == ENGINE_STACK_MEGATRON, dyn = sc->stack == ENGINE_STACK_TORCHTITAN;
		double per = dyn ? 6.0 : 4.0, xin = 0.0, dy = 0.0, w = 0.0, m = (double)sc->grad_accum;
		for (i = 0; i < ly->n; i++) {
			const struct eng_op *op = &ly->op[i];
			struct lin_shape ls;
			double wr;
			if (op->kind != ENG_OP_LINEAR || op->part == ENG_PART_ROUTER)
				continue;
			lin_shape(c, op, M, &ls);
			/* the ops a norm feeds are the ones that read the layer's or the attention's input */
			bool norm_fed = (op->split == ENG_SPLIT_COL || op->split == ENG_SPLIT_KV) && op->part != ENG_PART_EXPERT;
			xin += op->share * ls.rows * ls.copies * ls.K * (meg && norm_fed ? 1.0 : per) *
			       (i > 0 && eng_op_fused(&ly->op[i - 1], op) ? 0.0 : 1.0);
			dy += op->share * ls.rows * ls.N * ls.copies * per;
			(void)eng_op_params_rank(op, t, (double)sc->ep, dm->nkv, &wr);
			w += wr * per / (meg ? m : 1.0);
		}
		st->elem_f += stream(c, xin + w) + 2.0 * ENG_KERNEL_GAP * (dyn ? 2.0 : 1.0) * 4.0;
		st->elem_b += stream(c, dy) + 2.0 * ENG_KERNEL_GAP * (dyn ? 2.0 : 1.0) * 4.0;
		st->bytes += xin + w + dy;
	}
	st->bytes += 3.0 * elem;

	/* communication */
	tpv = M * d * e;
	if (sc->tp_overlap && sc->tp > 1) {
		/* Megatron-Core's tp_comm_overlap (Transformer Engine's userbuffers, step_comm.c):
		 * sequence parallelism's all-gathers and reduce-scatters pipelined with the GEMMs
		 * that consume or produce them. Forward: the ring exchange hides the all-gathers
		 * behind the chunked GEMMs, the pipelined reduce-scatters all but their last of 4
		 * splits (what that costs the GEMMs is in their shapes and SMs); backward: bulk
		 * overlaps, their CTAs beside the GEMMs' (ENG_OVERLAP_TAX); what the GEMMs cannot
		 * hide stays */
		double ar = 2.0 * eng_coll_seconds(&c->tp, COLL_ALL_REDUCE, tpv);
		double rs_tail = 2.0 * eng_coll_seconds(&c->tp, COLL_REDUCE_SCATTER, tpv) / 4.0;
		st->tp_f += ar - eng_min(ar - rs_tail, eng_max(st->mm_f - mm_f0, 0.0));
		st->tp_b += eng_overlapped(ar, st->mm_b - mm_b0);
	} else {
		st->tp_f += 2.0 * eng_coll_seconds(&c->tp, COLL_ALL_REDUCE, tpv);
		st->tp_b += 2.0 * eng_coll_seconds(&c->tp, COLL_ALL_REDUCE, tpv);
	}
	if (sc->cp > 1) {
		double kv = B * s * kv_rank * e;
		double cpt = 2.0 * eng_coll_seconds(&c->cp, COLL_ALL_GATHER, kv) +
			     eng_coll_seconds(&c->cp, COLL_REDUCE_SCATTER, kv);
		st->cp += eng_overlapped(cpt, attn_f + attn_b); /* ring attention overlaps it */
	}
	if (moe > 0.0 && sc->ep > 1) {
		double a2a = M * dm->k * d * e;
		st->ep_f += moe * 2.0 * eng_coll_seconds(&c->ep, COLL_ALL_TO_ALL, a2a);
		st->ep_b += moe * 2.0 * eng_coll_seconds(&c->ep, COLL_ALL_TO_ALL, a2a);
	}

	/* kernel launch gaps: FlashAttention is one kernel forward and one backward, the
	 * unfused path four and eight; the element-wise work ~10 kernels forward, ~20 back */
	st->attn_f += attn_f + (sc->flash_attention ? 1.0 : 4.0) * ENG_KERNEL_GAP;
	st->attn_b += attn_b + (sc->flash_attention ? 1.0 : 8.0) * ENG_KERNEL_GAP;
	/* eager: RMSNorm 7 kernels each, rotary ~6 for q and for k, SwiGLU 2 */
	st->elem_f += stream(c, elem) + (c->eager ? 30.0 : 10.0) * ENG_KERNEL_GAP;
	st->elem_b += stream(c, 2.0 * elem) + (c->eager ? 60.0 : 20.0) * ENG_KERNEL_GAP;
	if (c->frozen && sc->finetune == ENGINE_FT_QLORA) {
		/* QLoRA: every linear's NF4 weight is dequantised to bf16 before its forward and
		 * again for its data gradient (bitsandbytes' dequantize_4bit): the packed weight
		 * and its constants read (4.127 bits), the bf16 weight written; a recomputed
		 * forward dequantises once more */
		for (i = 0; i < ly->n; i++) {
			double w;
			if (ly->op[i].kind != ENG_OP_LINEAR || ly->op[i].part == ENG_PART_ROUTER)
				continue;
			(void)eng_op_params_rank(&ly->op[i], t, (double)sc->ep, dm->nkv, &w);
			deq += w;
		}
		deq *= ENG_NF4_BITS / 8.0 + 2.0;
		st->elem_f += stream(c, deq) + 7.0 * ENG_KERNEL_GAP;
		st->elem_b += stream(c, deq) + 7.0 * ENG_KERNEL_GAP;
		st->bytes += 2.0 * deq;
	}

	/* recomputation: the forward again, inside the backward (full: of every layer here;
	 * eng_step keeps recompute_layers of them) */
	if (sc->recompute == ENGINE_RECOMP_FULL) {
		if (deq > 0.0) {
			st->recompute += stream(c, deq) + 7.0 * ENG_KERNEL_GAP;
			st->bytes += deq;
		}
		st->recompute += fwd_mm + attn_f + stream(c, elem) + 2.0 * eng_coll_seconds(&c->tp, COLL_ALL_REDUCE, tpv) +
				 (moe > 0.0 && sc->ep > 1
					  ? moe * 2.0 * eng_coll_seconds(&c->ep, COLL_ALL_TO_ALL, M * dm->k * d * e)
					  : 0.0);
		/* the forward's FLOPs again, the linears' and the attention core's, as HFU counts them */
		st->rc_flops = st->fwd_mm_flops - fwd_flops0 + attn_core_flops;
		st->flops += st->rc_flops;
	} else if (sc->recompute == ENGINE_RECOMP_SELECTIVE_OP) {
		/* torchtitan's selective-op policy (activations.c): the forward again but for the
		 * ops it saved: every second matmul (wk, wo, w3 of a Llama block, each its own
		 * GEMM as torchtitan's modules run them; the routed experts' whole), the
		 * element-wise work, the softmax without FlashAttention (QKᵀ and P·V saved; with it
		 * the kernel's output is saved: nothing), the TP all-reduces (no all_reduce in its
		 * list) or sequence parallelism's all-gathers (its reduce-scatters are saved) */
		bool saved[ENG_LAYER_OPS];
		double rc = 0.0, rf = 0.0;
		eng_sac_saved_ops(dm, saved);
		for (i = 0; i < ly->n; i++) {
			const struct eng_op *op = &ly->op[i];
			struct lin_shape ls;
			bool f8 = c->fp8 && op->part != ENG_PART_ROUTER;
			if (op->kind != ENG_OP_LINEAR || saved[i])
				continue;
			lin_shape(c, op, M, &ls);
			rc += ls.copies * op->share *
			      (eng_gemm_seconds_q(&sc->gpu, c->fam, f8 || !c->fp8 ? c->peak : c->peak16, ls.rows, ls.N, ls.K,
						  f8 ? 1.0 : e, f8 ? c->kq : 1.0, NULL) +
			       ENG_KERNEL_GAP);
			rf += ls.copies * op->share * 2.0 * ls.rows * ls.N * ls.K;
		}
		if (deq > 0.0)
			rc += stream(c, deq) + 7.0 * ENG_KERNEL_GAP;
		rc += stream(c, elem) + (c->eager ? 30.0 : 10.0) * ENG_KERNEL_GAP + attn_core_f - attn_core_mm +
		      2.0 * (sc->sequence_parallel && sc->tp > 1 ? eng_coll_seconds(&c->tp, COLL_ALL_GATHER, tpv)
								 : eng_coll_seconds(&c->tp, COLL_ALL_REDUCE, tpv));
		st->recompute += rc;
		st->rc_flops = rf;
		st->flops += rf;
	} else if (sc->recompute == ENGINE_RECOMP_SELECTIVE) {
		st->recompute += attn_core_f;
		/* HFU counts selective recomputation as Korthikanti et al. 2022 do (s/(6h) → s/(3h): the
		 * core's forward and backward again); FlashAttention's own is in its backward */
		if (!sc->flash_attention)
			st->flops += 3.0 * attn_core_flops;
	}
}

/* The LM head and the loss, for one micro-batch on the last stage. */
static void head(const struct ctx *c, struct stage *st)
{
	const struct engine_scenario *sc = c->sc;
	double t = (double)sc->tp, M = (double)sc->batch * (double)sc->seq / (double)sc->cp;
	double logits = M * c->dm->V / t;
	struct ctx hc = *c;

	/* the LM head stays in 16 bits under FP8 (Megatron's output layer is no TE linear;
	 * torchtitan's float8 conversion skips `output`) */
	hc.fp8 = false;
	hc.peak = c->peak16;
	gemm3(&hc, M, c->dm->V / t, c->dm->d, 1.0, true, st, NULL);
	/* fp32 logits: written, read by the softmax cross-entropy, gradient written */
	st->elem_f += stream(c, 2.0 * 4.0 * logits);
	st->elem_b += stream(c, 2.0 * 4.0 * logits);
	st->bytes += 4.0 * 4.0 * logits;
}

static void scale(struct stage *st, const struct stage *one, double k)
{
	st->mm_f += k * one->mm_f;
	st->mm_b += k * one->mm_b;
	st->attn_f += k * one->attn_f;
	st->attn_b += k * one->attn_b;
	st->elem_f += k * one->elem_f;
	st->elem_b += k * one->elem_b;
	st->tp_f += k * one->tp_f;
	st->tp_b += k * one->tp_b;
	st->cp += k * one->cp;
	st->ep_f += k * one->ep_f;
	st->ep_b += k * one->ep_b;
	st->recompute += k * one->recompute;
	st->rc_flops += k * one->rc_flops;
	st->flops += k * one->flops;
	st->bytes += k * one->bytes;
	st->mm_flops += k * one->mm_flops;
	st->mm_time += k * one->mm_time;
	st->fwd_mm_flops += k * one->fwd_mm_flops;
	if (k > 0 && one->thinnest < st->thinnest)
		st->thinnest = one->thinnest;
}

static double stage_total(const struct stage *st)
{
	return st->mm_f + st->mm_b + st->attn_f + st->attn_b + st->elem_f + st->elem_b + st->tp_f + st->tp_b + st->cp +
	       st->ep_f + st->ep_b + st->pp + st->recompute;
}

static void group(struct eng_group *g, double n, double per_node, const struct engine_scenario *sc, double net,
		  const struct eng_family *fam)
{
	g->n = n;
	g->per_node = eng_max(1.0, eng_min(n, per_node));
	g->link_bw = sc->gpu.link_bw > 0 ? sc->gpu.link_bw : sc->gpu.pcie_bw > 0 ? sc->gpu.pcie_bw : ENG_FALLBACK_BW;
	g->link_eff = sc->gpu.link_bw > 0 ? fam->link : 0.80;
	g->network_bw = net;
	g->net_eff = ENG_NET_EFF;
}

void eng_step(const struct engine_scenario *sc, const struct eng_dims *dm, const struct eng_bytes *b,
	      const struct eng_mem *mem, double dp, double peak, struct eng_step *out)
{
	struct ctx c;
	struct stage one, mid, last, *bind;
	double gpn = (double)sc->gpus_per_node, t = (double)sc->tp, cpd = (double)sc->cp;
	double p = (double)sc->pp, v = (double)sc->vpp, m = (double)sc->grad_accum;
	double net, L = dm->L, q, heavy, last_layers, T_mb, bwd_mb, dp_t = 0.0, shard;
	struct engine_step_breakdown *pt = &out->part;

	memset(out, 0, sizeof *out);
	memset(&c, 0, sizeof c);
	c.sc = sc;
	c.dm = dm;
	c.b = b;
	c.fam = eng_family(&sc->gpu);
	c.peak = peak;
	c.hbm_bw = sc->gpu.bandwidth * c.fam->hbm;
	c.fp8 = sc->mode == ENGINE_MODE_TRAIN &&
		(b->matmul_dt == ENGINE_DT_FP8_E4M3 || b->matmul_dt == ENGINE_DT_FP8_E5M2) && sc->peak_flops <= 0;
	c.kq = c.fp8 ? 2.0 : 1.0;
	{
		double p16 = engine_gpu_peak(&sc->gpu, ENGINE_DT_BF16);
		if (p16 <= 0)
			p16 = engine_gpu_peak(&sc->gpu, ENGINE_DT_FP16);
		c.peak16 = c.fp8 && p16 > 0 ? p16 : peak;
	}
	c.eager = sc->kernels == ENGINE_KERNELS_EAGER;
	c.frozen = sc->mode == ENGINE_MODE_TRAIN && sc->finetune != ENGINE_FT_FULL;
	net = sc->gpu.network_bw > 0 ? sc->gpu.network_bw : sc->gpu.pcie_bw > 0 ? sc->gpu.pcie_bw : ENG_FALLBACK_BW;
	out->network_bw = net;
	/* rank order tp, cp, dp (ep within dp), pp: each group's members per node */
	group(&c.tp, t, gpn, sc, net, c.fam);
	group(&c.cp, cpd, gpn / t, sc, net, c.fam);
	group(&c.dp, dp, gpn / (t * cpd), sc, net, c.fam);
	group(&c.ep, (double)sc->ep, gpn / (t * cpd), sc, net, c.fam);
	group(&c.pp, 2.0, t * cpd * dp < gpn ? 2.0 : 1.0, sc, net, c.fam);
	out->tp_spans_nodes = sc->tp > sc->gpus_per_node;

	memset(&one, 0, sizeof one);
	one.thinnest = 1.0;
	layer(&c, &one);

	/* stages: q layers each, the remainder on the middle stages */
	q = floor(L / p);
	heavy = eng_layers_per_stage(L, sc->pp);
	last_layers = (heavy > q && sc->pp > 2 && L - q * p <= p - 2.0) ? q : heavy;
	memset(&mid, 0, sizeof mid);
	memset(&last, 0, sizeof last);
	mid.thinnest = last.thinnest = 1.0;
	scale(&mid, &one, heavy);
	scale(&last, &one, last_layers);
	if (sc->recompute == ENGINE_RECOMP_FULL && sc->recompute_layers > 0) {
		/* recompute_layers of each stage's layers recompute, the others keep all */
		double xm = heavy - eng_recompute_layers(sc, heavy), xl = last_layers - eng_recompute_layers(sc, last_layers);
		mid.recompute -= xm * one.recompute;
		mid.flops -= xm * one.rc_flops;
		mid.rc_flops -= xm * one.rc_flops;
		last.recompute -= xl * one.recompute;
		last.flops -= xl * one.rc_flops;
		last.rc_flops -= xl * one.rc_flops;
	}
	head(&c, &last);
	if (eng_grad_acc_bytes(sc, b) > 0.0) {
		/* each micro-batch's 16-bit gradients added into fp32 ones after the backward, on
		 * the compute stream (DeepSpeed's BF16_Optimizer, nanotron's: step_comm.c) */
		double bytes = eng_grad_acc_bytes(sc, b) * mem->trainable_gpu, acc = stream(&c, bytes);
		mid.elem_b += acc;
		last.elem_b += acc;
		mid.bytes += bytes;
		last.bytes += bytes;
	}
	if (sc->pp > 1) {
		/* activations forward, gradients back, per virtual stage (scatter-gather: 1/t) */
		double S = (double)sc->batch * (double)sc->seq / cpd * dm->d * b->act / t;
		double pp_t = 2.0 * v * eng_coll_seconds(&c.pp, COLL_P2P, S);
		/* overlap_p2p_comm: the interleaved schedule posts each send and receive
		 * beside the next chunk's compute (Megatron-Core schedules.py) */
		mid.pp = last.pp = sc->pp_overlap && sc->vpp > 1 ? eng_overlapped(pp_t, stage_total(&mid)) : pp_t;
	}
	bind = sc->pp > 1 && stage_total(&mid) > stage_total(&last) ? &mid : &last;
	T_mb = stage_total(bind);
	bwd_mb = bind->mm_b + bind->attn_b + bind->elem_b + bind->tp_b + bind->ep_b + bind->recompute;

	pt->matmul = m * (bind->mm_f + bind->mm_b);
	pt->attention = m * (bind->attn_f + bind->attn_b);
	pt->elementwise = m * (bind->elem_f + bind->elem_b);
	pt->recompute = m * bind->recompute;
	pt->tp_comm = m * (bind->tp_f + bind->tp_b);
	pt->cp_comm = m * bind->cp;
	pt->ep_comm = m * (bind->ep_f + bind->ep_b);
	pt->pp_comm = m * bind->pp;
	pt->bubble = sc->pp > 1 ? (p - 1.0) / v * T_mb : 0.0;

	/* data parallelism (step_dp.c) */
	if (sc->mode == ENGINE_MODE_TRAIN && dp > 1.0)
		dp_t = eng_dp_seconds(sc, dm, b, mem, &c.dp, heavy, T_mb, bwd_mb);
	pt->dp_comm = dp_t;

	/* the optimizer step on this GPU's shard */
	if (sc->mode == ENGINE_MODE_TRAIN) {
		shard = mem->trainable_gpu / (sc->zero >= 1 ? dp : 1.0);
		pt->optimizer = stream(&c, 2.0 * (mem->master + mem->optimizer) + shard * (b->g + b->w));
		out->bytes += 2.0 * (mem->master + mem->optimizer) + shard * (b->g + b->w);
		if (sc->offload != ENGINE_OFFLOAD_NONE) {
			/* ZeRO-Offload (Ren et al. 2021, §4.2): the gradients' copy to the host
			 * overlaps the backward, the parameter fetches (params) the compute; the
			 * CPU's step and the updated parameters' copy back do not overlap.
			 * ZeRO-Infinity's NVMe tier (Rajbhandari et al. 2021, overlap-centric
			 * design): the states' reads and writes overlap the CPU's step, the
			 * weights' reads (nvme-params) the compute, as their PCIe copies do */
			struct eng_offload_t ot;
			eng_offload_parts(sc, b, mem, &ot);
			pt->optimizer = 0.0;
			pt->offload = eng_max(ot.cpu, ot.nvme_states) + ot.h2d_update + eng_max(0.0, ot.d2h - m * bwd_mb) +
				      eng_max(0.0, eng_max(ot.h2d_fetch, ot.nvme_fetch) - m * T_mb);
		}
	}

	out->seconds = pt->matmul + pt->attention + pt->elementwise + pt->recompute + pt->optimizer + pt->tp_comm +
		       pt->cp_comm + pt->ep_comm + pt->pp_comm + pt->dp_comm + pt->bubble + pt->offload;
	out->flops += m * bind->flops;
	out->bytes += m * bind->bytes;
	out->gemm_eff = bind->mm_time > 0 ? bind->mm_flops / (bind->mm_time * peak) : c.fam->gemm_best;
	out->thinnest_eff = bind->thinnest;
}
