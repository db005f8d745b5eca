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
 *    keeps the LM head (nanotron places them by its own cost estimate); the heaviest
 *    stage binds the step.
 *  - The optimizer step reads and writes its states and master weights, reads the
 *    gradients and writes the weights of this GPU's shard, at streaming bandwidth.
 *  - Stragglers (straggler.c): the step waits for the slowest of the job's GPUs, so the
 *    tensor-core work (matmuls, attention, recomputation) runs at the slowest of N draws of
 *    the per-GPU speed, and the pipeline's slots, hence its bubble, with it; the streaming
 *    work and the network are left alone.
 */
#include <math.h>
#include <string.h>

#include "internal.h"
#include "step_internal.h"

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

/*
 * nanotron's pipeline placement (stack hf: its pipeline engine is nanotron's). build_model
 * (src/nanotron/models/base.py, e24d2483, lines 216-236) walks the model's PipelineBlocks in
 * order, puts each on the current rank and moves to the next rank after the block whose
 * cumulative cost passes (rank + 1)/pp of the total. The costs are
 * LlamaModel.get_block_compute_costs (src/nanotron/models/llama.py, lines 913-925): a decoder
 * layer 4·nh·(h/nh)·h + 3·f·h, the LM head V·h, every other block (embedding, final norm,
 * loss) 0. The estimate leaves out attention's s-dependent FLOPs and the loss, so the
 * head's stage takes fewer layers than its share of the work and the first stages more than
 * an even split: 1.34B at PP 2 runs 11 and 5 + head, not 8 and 8 + head. Out: the most
 * layers on a stage without the head (mid) and the head's stage's layers (last).
 */
static void nanotron_stages(const struct eng_dims *dm, int64_t pp, double *mid, double *last)
{
	double dq = floor(dm->d / eng_max(dm->nh, 1.0));
	double layer = 4.0 * dm->nh * dq * dm->d + 3.0 * dm->f * dm->d, head = dm->V * dm->d;
	double total = dm->L * layer + head, cum = 0.0, n = 0.0;
	int64_t rank = 0, i, L = (int64_t)dm->L;

	*mid = 0.0;
	for (i = 0; i <= L; i++) {
		/* blocks 0..L-1 the decoder layers, L the LM head */
		cum += i < L ? layer : head;
		if (i == L)
			break;
		n += 1.0;
		if (cum > total * (double)(rank + 1) / (double)pp && rank < pp - 1) {
			*mid = eng_max(*mid, n);
			n = 0.0;
			rank++;
		}
	}
	*last = n;
}

/*
 * What stack hf's trainer (nanotron's, trainer.py training_step at e24d2483) does after the
 * schedule beside the optimizer's own update, in bytes through HBM:
 *  - clip_grad_norm (optim/clip_grads.py, lines 13-96: norms 65-72, mul_ 88-94;
 *    clip_grad 1.0 in the benchmark config): a vector_norm of every gradient (with
 *    accumulate_grad_in_fp32 the fp32 buffer of every parameter on the GPU, ZeRO-1 or
 *    not), then mul_ of each by the clip coefficient:
 *    one read for the norm, a read and a write for the scale, 3 × the gradient's bytes a
 *    parameter (torch.nn.utils.clip_grad_norm_, the HF Trainer's max_grad_norm 1.0, does
 *    the same passes);
 *  - with fp32 gradients, zero_grad zeroes the contiguous fp32 buffer of every parameter
 *    (FP32GradientAccumulator.zero_grad, optim/gradient_accumulator.py line 276): 4 bytes;
 *  - ZeRO-1: all_gather_coalesced's update_output copies every gathered slice back into its
 *    parameter (distributed.py, lines 208-216): 2 bytes read, 2 written a parameter.
 */
static double hf_step_tail(const struct engine_scenario *sc, const struct eng_bytes *b, const struct eng_mem *mem,
			   double dp)
{
	double P = mem->trainable_gpu, bytes = 3.0 * b->g * P + 4.0 * P;

	if (sc->zero == 1 && dp > 1.0)
		bytes += 2.0 * b->w * P;
	return bytes;
}

/*
 * ... and its kernels, one launch gap each (ENG_KERNEL_GAP), per parameter tensor: nanotron's
 * Llama layer holds six (qkv_proj, o_proj, gate_up_proj, down_proj and two RMSNorm weights,
 * models/llama.py), a stage its layers' and one or two more (embedding, final norm, LM
 * head). clip_grad_norm runs a vector_norm and a mul_ per tensor; ZeRO-1's
 * _all_gather_params (optim/zero.py, lines 217-251) slices every parameter into dp pieces
 * and update_output runs a copy_ per piece, tensors × dp launches after a blocking gather.
 */
static double hf_step_launches(const struct engine_scenario *sc, double heavy, double dp)
{
	double tensors = 6.0 * heavy + 2.0, n = 2.0 * tensors;

	if (sc->zero == 1 && dp > 1.0)
		n += tensors * dp;
	return n * ENG_KERNEL_GAP;
}

/*
 * nanotron's ZeRO-1 gradient reduction (its DDP hook, optim/gradient_accumulator.py lines
 * 349-372 at e24d2483): each bucket's reduce_scatter_coalesced (distributed.py lines
 * 115-121) first flattens, for each of the dp ranks, the bucket's parameters' slices of that
 * rank into one buffer, torch.cat on the compute stream: dp kernels a bucket, the bucket's
 * fp32 gradients read and written once (8 bytes a parameter). Buckets of bucket_cap_mb =
 * 25 MiB of 16-bit .grad (ENG_DDP_BUCKET_BYTES). In the last micro-batch's backward, with
 * nothing to hide it (it is the stream's own work).
 */
static double nanotron_rs_flatten(const struct ctx *c, const struct eng_mem *mem, double dp)
{
	double buckets = eng_max(1.0, ceil(mem->trainable_gpu * c->b->w / ENG_DDP_BUCKET_BYTES));

	return eng_step_stream(c, 8.0 * mem->trainable_gpu) + buckets * dp * ENG_KERNEL_GAP;
}

/* The slowest GPU's tensor-core work (straggler.c): matmuls, attention and recomputation k×
 * the single-GPU time the microbenchmarks give; returns the seconds that adds. */
static double straggle(struct stage *st, double k)
{
	double extra = (k - 1.0) * (st->mm_f + st->mm_b + st->attn_f + st->attn_b + st->recompute);

	st->mm_f *= k;
	st->mm_b *= k;
	st->attn_f *= k;
	st->attn_b *= k;
	st->recompute *= k;
	return extra;
}

static double stage_total(const struct stage *st)
{
	return st->mm_f + st->mm_b + st->attn_f + st->attn_b + st->elem_f + st->elem_b + st->tp_f + st->tp_b + st->cp +
	       st->ep_f + st->ep_b + st->pp + st->recompute;
}

void eng_step(const struct engine_scenario *sc, const struct eng_dims *dm, const struct eng_bytes *b,
	      const struct eng_mem *mem, double dp, double peak, struct eng_step *out)
{
	struct ctx c;
	struct stage one, mid, last, *bind;
	double gpn = (double)sc->gpus_per_node, t = (double)sc->tp, cpd = (double)sc->cp;
	double p = (double)sc->pp, v = (double)sc->vpp, m = (double)sc->grad_accum;
	double net, L = dm->L, q, heavy, last_layers, T_mb, bwd_mb, dp_t = 0.0, shard;
	double k_strag = 1.0, strag_mid = 0.0, strag_last = 0.0;
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
	c.anchor_kq = eng_gemm_anchor(&sc->gpu, c.fam, c.kq);
	c.anchor_1 = eng_gemm_anchor(&sc->gpu, c.fam, 1.0);
	{
		double p16 = engine_gpu_peak(&sc->gpu, ENGINE_DT_BF16);
		if (p16 <= 0)
			p16 = engine_gpu_peak(&sc->gpu, ENGINE_DT_FP16);
		c.peak16 = c.fp8 && p16 > 0 ? p16 : peak;
	}
	/* a power limit slows the compute, not HBM (power.c, eng_power_of); gemm_eff below
	 * stays a fraction of the datasheet peak */
	{
		eng_power_of(sc, c.fam, &out->power);
		c.peak *= out->power.clock;
		c.peak16 *= out->power.clock;
	}
	c.eager = sc->kernels == ENGINE_KERNELS_EAGER;
	c.frozen = sc->mode == ENGINE_MODE_TRAIN && sc->finetune != ENGINE_FT_FULL;
	net = eng_network_bw(sc);
	out->network_bw = net;
	/* rank order tp, cp, dp (ep within dp), pp: each group's members per node */
	eng_group_init(&c.tp, t, gpn, sc, net, c.fam);
	eng_group_init(&c.cp, cpd, gpn / t, sc, net, c.fam);
	eng_group_init(&c.dp, dp, gpn / (t * cpd), sc, net, c.fam);
	eng_group_init(&c.ep, (double)sc->ep, gpn / (t * cpd), sc, net, c.fam);
	eng_group_init(&c.pp, 2.0, t * cpd * dp < gpn ? 2.0 : 1.0, sc, net, c.fam);
	out->tp_spans_nodes = sc->tp > sc->gpus_per_node;

	memset(&one, 0, sizeof one);
	one.thinnest = 1.0;
	eng_step_layer(&c, &one);

	/* stages: q layers each, the remainder on the middle stages; nanotron's (stack hf)
	 * by its own cost estimate */
	q = floor(L / p);
	heavy = eng_layers_per_stage(L, sc->pp);
	last_layers = (heavy > q && sc->pp > 2 && L - q * p <= p - 2.0) ? q : heavy;
	if (eng_nanotron(sc, b) && sc->pp > 1 && sc->vpp <= 1)
		nanotron_stages(dm, sc->pp, &heavy, &last_layers);
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
	eng_step_head(&c, &last);
	if (eng_grad_acc_bytes(sc, b) > 0.0) {
		/* each micro-batch's 16-bit gradients added into fp32 ones after the backward, on
		 * the compute stream (DeepSpeed's BF16_Optimizer, nanotron's: step_comm.c) */
		double bytes = eng_grad_acc_bytes(sc, b) * mem->trainable_gpu, acc = eng_step_stream(&c, bytes);
		mid.elem_b += acc;
		last.elem_b += acc;
		mid.bytes += bytes;
		last.bytes += bytes;
	}
	/* a synchronous training step across the job's GPUs waits for the slowest one */
	if (sc->mode == ENGINE_MODE_TRAIN)
		k_strag = eng_straggler_factor((double)sc->gpus);
	strag_mid = straggle(&mid, k_strag);
	strag_last = straggle(&last, k_strag);
	if (sc->pp > 1) {
		/* activations forward, gradients back, per virtual stage (scatter-gather: 1/t) */
		double S = (double)sc->batch * (double)sc->seq / cpd * dm->d * b->act / t;
		double pp_t = 2.0 * v * eng_coll_seconds(&c.pp, COLL_P2P, S);
		/* overlap_p2p_comm: the interleaved schedule posts each send and receive
		 * beside the next chunk's compute (Megatron-Core schedules.py) */
		mid.pp = last.pp = sc->pp_overlap && sc->vpp > 1 ? eng_overlapped(pp_t, stage_total(&mid)) : pp_t;
		/* DeepSpeed's pipeline engine: unbatched blocking sends, partitioned tensors (step_comm.c) */
		mid.pp += v * eng_ds_pipe_p2p(sc, &c.pp, &c.tp, S * t, true);
		last.pp += v * eng_ds_pipe_p2p(sc, &c.pp, &c.tp, S * t, false);
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
	out->straggler = k_strag;
	out->straggler_seconds = (m + (sc->pp > 1 ? (p - 1.0) / v : 0.0)) * (bind == &mid ? strag_mid : strag_last);

	/* data parallelism (step_dp.c) */
	if (sc->mode == ENGINE_MODE_TRAIN && dp > 1.0)
		dp_t = eng_dp_seconds(sc, dm, b, mem, &c.dp, heavy, T_mb, bwd_mb);
	if (dp_t > 0.0 && sc->zero == 1 && eng_nanotron(sc, b))
		dp_t += nanotron_rs_flatten(&c, mem, dp);
	pt->dp_comm = dp_t;

	/* the optimizer step on this GPU's shard */
	if (sc->mode == ENGINE_MODE_TRAIN) {
		shard = mem->trainable_gpu / (sc->zero >= 1 ? dp : 1.0);
		pt->optimizer = eng_step_stream(&c, 2.0 * (mem->master + mem->optimizer) + shard * (b->g + b->w));
		out->bytes += 2.0 * (mem->master + mem->optimizer) + shard * (b->g + b->w);
		if (eng_nanotron(sc, b)) {
			double tail = hf_step_tail(sc, b, mem, dp);
			pt->optimizer += eng_step_stream(&c, tail) + hf_step_launches(sc, heavy, dp);
			out->bytes += tail;
		}
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
