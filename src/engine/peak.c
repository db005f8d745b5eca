/*
 * The peak of a training step: the most memory live at one moment, and when (the report's
 * memory.peak and memory.peak_phase). A step after the first (the optimizer's states
 * exist; the first step allocates them at its optimizer step), with
 * zero_grad(set_to_none=True), PyTorch >= 2.0's default: gradients exist from the
 * backward to the optimizer step, and from the second micro-batch of an accumulation on.
 * Four moments compete, each measured in tests/torch (the harness's "... (optimizer
 * peak)" and "... (attention peak)" configurations put the peak in the last two):
 *  - the end of the forward: the loss computing while the logits are still alive
 *    (fused cross-entropy: the 16-bit logits beside its fp32 softmax);
 *  - the start of the backward: the loss's gradient buffers (eager: nll_loss's and
 *    log_softmax's, one each) beside every activation;
 *  - the last layer's attention backward: the s×s gradients (eager: the fp32 softmax
 *    gradient in and out, 8 bytes per score, less the 16-bit probabilities given back;
 *    fused: dP = dO·Vᵀ in the activations' dtype, which the fused softmax backward turns
 *    into dS in place, and dO, dQ, dK, dV; FlashAttention: no s×s buffer), after
 *    the head and the layer's MLP gave back what they kept and left their weights'
 *    gradients; when that layer recomputes (full, selective-op) its working set instead;
 *  - the end of the backward, with tied embeddings: the embedding's dense gradient
 *    (embedding_dense_backward) and its sum with the LM head's gradient already in .grad
 *    (AccumulateGrad out of place), two [vocab, hidden] buffers beside every gradient;
 *  - the optimizer step: weights (autocast's casts gone), states, every gradient, and
 *    the foreach implementation's one state-sized buffer (torch.optim.AdamW's
 *    _multi_tensor_adamw: exp_avg_sq_sqrt = torch._foreach_sqrt(exp_avg_sqs); Lion's
 *    update likewise).
 */
#include "internal.h"

void eng_step_peak(const struct engine_scenario *sc, const struct eng_dims *dm, const struct eng_peak_in *in,
		   struct eng_mem *c)
{
	double t = (double)sc->tp, s = (double)sc->seq, b = in->batch, e = in->e;
	double states = c->weights + c->autocast + c->master + c->optimizer;
	double grads_alive = sc->grad_accum > 1 ? c->gradients : 0.0;
	double fwd, bwd, layer, end, opt, scores_grad = 0.0, given_back, grads_made;
	double sbv = s * b * dm->V / t;

	fwd = states + in->kept + in->emb + c->logits + in->head.forward_extra + grads_alive;
	bwd = states + in->kept + in->emb + c->logits + in->head.loss_grads + grads_alive;
	/* the last layer's attention backward */
	if (sc->kernels == ENGINE_KERNELS_EAGER) {
		/* the softmax backward's fp32 gradient in and out, less the 16-bit copy of the
		 * probabilities the ×V matmul's backward gave back (harness: "llama ... s512
		 * b1 v256 (attention peak)": 7.6 and 5.8 MiB measured for 8 and 6 here);
		 * selective recomputation makes the probabilities again first (fp32 and the
		 * copy: not measured, Hugging Face's code has no selective recomputation) */
		if (!sc->flash_attention)
			scores_grad = dm->nh / t * s * s * b *
				      (8.0 - (e < 4.0 ? e : 0.0) +
				       (sc->recompute == ENGINE_RECOMP_SELECTIVE ? 4.0 + (e < 4.0 ? e : 0.0) : 0.0));
	} else {
		/* dP, and dO, dQ, dK, dV beside it (harness: "fused llama bf16 s512 b1 v256":
		 * 2.6 MiB measured for 2.5); selective recomputation makes the probabilities
		 * again first ("... selective": 4.0 MiB measured above the kept set for 4.5) */
		if (!sc->flash_attention)
			scores_grad = dm->nh / t * s * s * b * e * (sc->recompute == ENGINE_RECOMP_SELECTIVE ? 2.0 : 1.0);
		scores_grad += 4.0 * e * s * b * dm->nh * dm->dh / t;
	}
	/* activations off (the napkin estimate that ignores them) leaves out every scratch */
	if (!sc->activations)
		scores_grad = 0.0;
	given_back = in->head_layer ? c->logits - (in->head.logits_alive ? e * sbv : 0.0) : 0.0;
	grads_made = grads_alive > 0.0 ? 0.0 : in->head_layer_grads;
	/* a recomputed layer's MLP intermediates are given back before its attention's backward
	 * as the kept last layer's are (harness: "... every 2 (attention peak)", "... selective-op
	 * (attention peak)": 44.2 and 32.4 MiB measured, 47.1 and 35.4 with them counted) */
	if (in->recomputed)
		layer = states + in->kept + in->working - in->working_mlp + in->emb + c->logits - given_back + grads_made +
			scores_grad;
	else
		layer = states + in->kept - in->last_mlp + in->emb + c->logits - given_back + grads_made + scores_grad;
	layer += grads_alive;
	end = states - c->autocast + c->gradients + in->tied_sum;
	opt = states - c->autocast + c->gradients + in->opt_buffer;
	c->peak = eng_max(eng_max(eng_max(fwd, bwd), eng_max(layer, opt)), end);
	/* each moment is some of the parts and its own scratch: with the largest scratch the
	 * parts' sum (memory.total) bounds the peak */
	c->scratch = eng_max(eng_max(in->head.forward_extra, in->head.loss_grads),
			     eng_max(eng_max(scores_grad, in->tied_sum), in->opt_buffer));
	if (c->peak == opt)
		c->peak_phase = ENGINE_PEAK_OPTIMIZER;
	else if (c->peak == fwd && fwd >= bwd)
		c->peak_phase = ENGINE_PEAK_FORWARD;
	else
		c->peak_phase = ENGINE_PEAK_BACKWARD;
}
