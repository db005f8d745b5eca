/*
 * The step-time model's work per layer (docs/step-time.md): one transformer layer's and the
 * LM head's matmuls on the roofline at their shapes' efficiency, attention, element-wise
 * work at streaming bandwidth, TP/CP/EP communication and recomputation, for one
 * micro-batch on this GPU. step.c puts the layers into stages, the pipeline and the step.
 */
#include <math.h>
#include <string.h>

#include "step_internal.h"

/* Forward, data-gradient and weight-gradient GEMMs of Y[M,N] = X[M,K]·W[K,N], `count` times. */
static void gemm3x(const struct ctx *c, double M, double N, double K, double count, bool main, struct stage *st,
		   double *fwd_out, const struct eng_tpov *ov)
{
	/* `main`: a layer linear (FP8 under an FP8 recipe); the others (router, LM head,
	 * adapters) stay in 16 bits */
	bool f8 = main && c->fp8;
	double e = f8 ? 1.0 : c->b->act, eff, fwd, bwd, f = 2.0 * M * N * K, passes;
	double pk = f8 || !c->fp8 ? c->peak : c->peak16, kq = f8 ? c->kq : 1.0, an = f8 ? c->anchor_kq : c->anchor_1;
	const struct engine_gpu *g = &c->sc->gpu;

	if (!(M > 0 && N > 0 && K > 0) || count <= 0)
		return;
	fwd = ov->fchunks * ov->fslow * eng_gemm_seconds_a(g, c->fam, pk, M / ov->fchunks, N, K, e, kq, an, &eff);
	if (main && eff < st->thinnest)
		st->thinnest = eff;
	/* the data gradient, and the weight gradient unless the weight is frozen (LoRA) */
	bwd = ov->dchunks * eng_gemm_seconds_a(g, c->fam, pk, M / ov->dchunks, K, N, e, kq, an, NULL) +
	      (c->frozen ? 0.0 : eng_gemm_seconds_a(g, c->fam, pk, K, N, M, e, kq, an, NULL));
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

double eng_step_stream(const struct ctx *c, double bytes)
{
	return bytes / c->hbm_bw;
}

/* One transformer layer for one micro-batch on one GPU: each op of the layer table
 * (layer.c) at the share of the layers that have it. */
void eng_step_layer(const struct ctx *c, struct stage *st)
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
			qk = eng_max(fq / (c->peak16 *
					   eng_gemm_efficiency_a(&sc->gpu, c->fam, bh * rows, s, op->qk_dim, 1.0, c->anchor_1)),
				     e * bh * (rows * op->qk_dim + s * op->qk_dim + rows * s) / c->hbm_bw);
			av = eng_max(fv / (c->peak16 *
					   eng_gemm_efficiency_a(&sc->gpu, c->fam, bh * rows, op->v_dim, s, 1.0, c->anchor_1)),
				     e * bh * (rows * s + s * op->v_dim + rows * op->v_dim) / c->hbm_bw);
			sc_bytes = bh * rows * s;
			core_f = qk + av + eng_step_stream(c, sc_bytes * (2.0 * e + drop));
			attn_f += sh * core_f;
			attn_b += sh * (2.0 * (qk + av) + eng_step_stream(c, sc_bytes * (3.0 * e + drop)));
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
	if (eng_nanotron(sc, c->b) && dm->nh > 0) {
		/* nanotron's Llama layer (models/llama.py at e24d2483): GLUActivation runs act(gate)
		 * and the product as two kernels (lines 194-201: 5e an element against the fused 3e
		 * counted above); CausalSelfAttention lays q, k and v out for flash_attn_varlen_func
		 * by copies (lines 459-473, 655-657): without GQA qkv.permute(2, 1, 0, 3, 4)
		 * .contiguous(), then torch.cat of k and v and kv.permute(1, 2, 0, 3, 4)
		 * .contiguous(), each a read and a write; with GQA q, k and v each
		 * transpose(0, 1).contiguous(), a copy when the micro-batch is over one sequence.
		 * The backward lays the gradients back, one copy of q, k, v and one of k, v */
		double kv = M * 2.0 * dm->nkv * dm->dh / t, qkv = M * dm->nh * dm->dh / t + kv;
		bool gqa = dm->nkv != dm->nh;
		double cf = gqa ? (B > 1.0 ? 2.0 * e * qkv : 0.0) : 2.0 * e * (qkv + 2.0 * kv);
		double cb = gqa ? cf : 2.0 * e * (qkv + kv);
		double glu = dm->gated ? 2.0 * e * M * lp->mlp_width / t : 0.0;
		st->elem_f += eng_step_stream(c, cf + glu) + 4.0 * ENG_KERNEL_GAP;
		st->elem_b += eng_step_stream(c, cb + 2.0 * glu) + 4.0 * ENG_KERNEL_GAP;
		st->bytes += cf + cb + 3.0 * glu;
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
		st->elem_f += eng_step_stream(c, xin + w) + 2.0 * ENG_KERNEL_GAP * (dyn ? 2.0 : 1.0) * 4.0;
		st->elem_b += eng_step_stream(c, dy) + 2.0 * ENG_KERNEL_GAP * (dyn ? 2.0 : 1.0) * 4.0;
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
	st->elem_f += eng_step_stream(c, elem) + (c->eager ? 30.0 : 10.0) * ENG_KERNEL_GAP;
	st->elem_b += eng_step_stream(c, 2.0 * elem) + (c->eager ? 60.0 : 20.0) * ENG_KERNEL_GAP;
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
		st->elem_f += eng_step_stream(c, deq) + 7.0 * ENG_KERNEL_GAP;
		st->elem_b += eng_step_stream(c, deq) + 7.0 * ENG_KERNEL_GAP;
		st->bytes += 2.0 * deq;
	}

	/* recomputation: the forward again, inside the backward (full: of every layer here;
	 * eng_step keeps recompute_layers of them) */
	if (sc->recompute == ENGINE_RECOMP_FULL) {
		if (deq > 0.0) {
			st->recompute += eng_step_stream(c, deq) + 7.0 * ENG_KERNEL_GAP;
			st->bytes += deq;
		}
		st->recompute += fwd_mm + attn_f + eng_step_stream(c, elem) + 2.0 * eng_coll_seconds(&c->tp, COLL_ALL_REDUCE, tpv) +
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
			      (eng_gemm_seconds_a(&sc->gpu, c->fam, f8 || !c->fp8 ? c->peak : c->peak16, ls.rows, ls.N, ls.K,
						  f8 ? 1.0 : e, f8 ? c->kq : 1.0, f8 ? c->anchor_kq : c->anchor_1, NULL) +
			       ENG_KERNEL_GAP);
			rf += ls.copies * op->share * 2.0 * ls.rows * ls.N * ls.K;
		}
		if (deq > 0.0)
			rc += eng_step_stream(c, deq) + 7.0 * ENG_KERNEL_GAP;
		rc += eng_step_stream(c, elem) + (c->eager ? 30.0 : 10.0) * ENG_KERNEL_GAP + attn_core_f - attn_core_mm +
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
void eng_step_head(const struct ctx *c, struct stage *st)
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
	/* nanotron's loss (stack hf's trainer; its cast_to_fp32 block and _ShardedCrossEntropy,
	 * src/nanotron/parallel/tensor_parallel/functional.py lines 31-107 at e24d2483, one
	 * PyTorch op a pass, adapted from Megatron's unfused vocab-parallel cross-entropy):
	 * forward x.float() 2 + 4, max 4, sub 4 + 4, exp in place 4 + 4, sum 4, div_ 4 + 4 = 38
	 * bytes a logit; backward mul_ 4 + 4 and the cast's gradient 4 + 2 = 14. Otherwise a
	 * fused cross-entropy: the fp32 logits written and read, their gradient written */
	{
		bool nt = eng_nanotron(sc, c->b);
		double bf = nt ? 38.0 : 8.0, bb = nt ? 14.0 : 8.0;
		st->elem_f += eng_step_stream(c, bf * logits) + (nt ? 8.0 : 0.0) * ENG_KERNEL_GAP;
		st->elem_b += eng_step_stream(c, bb * logits) + (nt ? 3.0 : 0.0) * ENG_KERNEL_GAP;
		st->bytes += (bf + bb) * logits;
	}
}
