/*
 * What a training step keeps for the backward, tensor by tensor, for the two kinds of code
 * that run a model (the `kernels` knob). Every term below was measured: tests/torch/
 * runs the reference models (tests/torch/models.py) through PyTorch and counts what
 * autograd saves (saved_tensors_hooks, by storage) and the peak a real step allocates;
 * the configuration names in the comments are the harness's (tests/torch/configs.py).
 *
 * fused: Megatron-LM / Transformer Engine / Apex kernels. Korthikanti et al. 2022
 *   ("Reducing Activation Recomputation in Large Transformer Models"), §4 and table 2:
 *   s·b·h·(34 + 5·a·s/h) bytes per layer with 16-bit activations and 1-byte dropout
 *   masks, generalised to GQA, gated MLPs, any ffn width and dtype, models without dropout;
 *   reproduced exactly with their GPT configuration (tests/unit/test_engine.c). A fused
 *   SwiGLU keeps gate and up (Megatron's bias_swiglu recomputes silu(gate)); a fused
 *   norm keeps its input (its per-row statistics are left out, as Korthikanti leaves them).
 *   Harness: "fused llama ..." (models.FusedRMSNormFn, FusedAttentionFn, FusedSwiGLUFn,
 *   FusedCrossEntropyFn).
 * eager: PyTorch modules as Hugging Face's modelling code writes them (harness: "llama ...",
 *   Hugging Face's modeling_llama.py; "gpt2 ...", nanoGPT's model.py):
 *   - LlamaRMSNorm keeps the fp32 upcast of its input (pow and mul save it), 1/rms (rsqrt
 *     saves its output) and the normalised tensor cast back (weight * x saves it);
 *     nn.LayerNorm (native_layer_norm) keeps its input, mean and 1/std;
 *   - repeat_kv materialises K and V at the full head count before the matmuls save them:
 *     GQA saves nothing;
 *   - softmax(dim=-1, dtype=torch.float32) keeps an fp32 output, and .to(q.dtype) a
 *     16-bit copy for ×V (CUDA autocast runs nanoGPT's softmax in fp32 too): 4 + 2 bytes
 *     per score; with dropout the copy goes and the mask and dropout's output stay;
 *     nanoGPT's (and Hugging Face's GPT-2) softmax without autocast runs in the input's
 *     dtype and keeps one output of that dtype ("gpt2 bf16 ...");
 *   - silu(gate) * up keeps gate (silu saves its input), silu(gate) and up (mul saves
 *     both), and down_proj its input: 4 tensors of the MLP's width;
 *   - F.cross_entropy keeps its log-probabilities (log_softmax saves its output), in fp32
 *     under autocast (log_softmax and nll_loss are on CUDA autocast's fp32 list) and for
 *     the Llama family, whose Hugging Face loss (ForCausalLMLoss) upcasts the logits to
 *     fp32 first; in the logits' dtype for nanoGPT's GPT-2 without autocast; and the loop
 *     keeps the logits (nanoGPT's `logits, loss = model(X, Y)`, Hugging Face's
 *     outputs.logits).
 * loss chunked (either kernels): the LM head and the loss a chunk of tokens at a time
 *   (Liger Kernel's fused linear cross-entropy): the hidden states' gradient and the head
 *   weight's, made in the forward; no logits (harness: "... chunked").
 * Both, under autocast (amp-bf16/fp16): the residual stream stays fp32 (the embedding's
 *   output is fp32 and every `x + f(x)` promotes), so norm inputs and checkpoints are fp32,
 *   and each linear keeps its own 16-bit cast of its input (autocast caches casts of leaf
 *   weights only): q, k, v and gate, up cast the norm's output separately (GPT-2's c_attn
 *   and c_fc are one linear each: one cast).
 * Dropout masks are CUDA's: native_dropout keeps 1 byte per element (the CPU's F.dropout
 *   keeps the input's dtype; the harness converts).
 * FlashAttention (Dao et al. 2022; eager + flash is PyTorch's scaled_dot_product_attention):
 *   no s×s tensor; the backward keeps the output and an fp32 log-sum-exp per row.
 */
#include <math.h>

#include "internal.h"

static bool is_amp(const struct engine_scenario *sc)
{
	return sc->precision == ENGINE_PREC_AMP_BF16 || sc->precision == ENGINE_PREC_AMP_FP16;
}

/* Bytes per element of the residual stream: fp32 under autocast, else the activations'. */
static double residual_bytes(const struct engine_scenario *sc, double e)
{
	return is_amp(sc) ? 4.0 : e;
}

/* What one norm keeps of a [s·b, d] input, and its per-row statistics (bytes per row). */
static double norm_kept(const struct engine_scenario *sc, const struct eng_dims *dm, double r, double *stats)
{
	bool eager = sc->kernels == ENGINE_KERNELS_EAGER;

	if (!eager) {
		*stats = 0.0;
		return r; /* the input */
	}
	if (dm->layernorm) {
		*stats = 8.0; /* fp32 mean and 1/std */
		return r;
	}
	/* fp32 upcast (the input itself when it is fp32) + the normalised tensor in the
	 * input's dtype; 1/rms in fp32 */
	*stats = 4.0;
	return 4.0 + r;
}

/* What the linears reading a norm's output keep of it (bytes per element of [s·b, d]):
 * one shared tensor, or under autocast one 16-bit cast per linear. */
static double norm_out_kept(const struct engine_scenario *sc, double r, double e, double linears)
{
	return is_amp(sc) ? linears * e : r;
}

/* LoRA/QLoRA: what a frozen base no longer keeps (measured with the harness's eager Llama
 * and PEFT-style adapters, base(x) + B(A(dropout(x))), every base parameter frozen):
 *   - RMSNorm's normalised tensor, which weight * x saves only for the weight's gradient;
 *   - a linear's input, which it saves only for its weight's gradient, unless an adapter
 *     without dropout reads the same tensor (A saves it); with lora_dropout A saves the
 *     dropout's output instead (eng_lora_activations counts it);
 *   - so: the attention norm's output unless q, k or v is adapted without dropout; the MLP
 *     norm's unless gate or up is; the output projection's input unless o is (FlashAttention
 *     keeps its output for its own backward); down_proj's input unless down is.
 *   Under autocast the kept copies are the adapted linears' own 16-bit casts.
 * The norms' tensors are the replicated ones: under sequence parallelism (Korthikanti et
 * al. 2022, §4.2.2) each TP rank keeps its s/t rows of them, and the column-parallel
 * linear keeps its s/t-row input, all-gathering it again in the backward (Megatron-LM's
 * LinearWithGradAccumulationAndAsyncCommunication); what the frozen base gives back is
 * those same s/t rows, so the frees of the replicated parts are divided by t with them
 * (a full-sequence free took more than the rank kept: negative activations), and an
 * adapter that reads the same tensor keeps that shard too. The output projection's and
 * down_proj's inputs are split by TP already (row-parallel). Never below zero: each free
 * is a tensor counted above. */
static void lora_frees(const struct engine_scenario *sc, const struct eng_dims *dm, double e, double r, double sb,
		       double attn_linears, double mlp_width, struct eng_act_parts *p)
{
	int tg = sc->lora_targets;
	bool nodrop = !(sc->lora_dropout > 0.0), eager = sc->kernels == ENGINE_KERNELS_EAGER;
	double t = (double)sc->tp;
	int qkv = ((tg & ENGINE_LORA_Q) ? 1 : 0) + ((tg & ENGINE_LORA_K) ? 1 : 0) + ((tg & ENGINE_LORA_V) ? 1 : 0);
	int gu = (((tg & ENGINE_LORA_GATE) && dm->gated) ? 1 : 0) + ((tg & ENGINE_LORA_UP) ? 1 : 0);
	double attn_kept = nodrop ? (attn_linears > 1.0 ? qkv : (qkv > 0 ? 1 : 0)) : 0;
	double mlp_linears = !dm->layernorm && dm->gated ? 2.0 : 1.0;
	double mlp_kept = nodrop ? (mlp_linears > 1.0 ? gu : (gu > 0 ? 1 : 0)) : 0;
	/* rows of the replicated tensors this rank keeps */
	double rows = sc->sequence_parallel && sc->tp > 1 ? sb / t : sb;

	if (eager && !dm->layernorm)
		p->norms_inputs -= rows * dm->d * 2.0 * r;
	if (is_amp(sc)) {
		p->casts = rows * dm->d * e * (attn_kept + mlp_kept);
	} else {
		if (attn_kept == 0)
			p->norms_inputs -= rows * dm->d * r;
		if (mlp_kept == 0)
			p->norms_inputs -= rows * dm->d * r;
	}
	if (!((tg & ENGINE_LORA_O) && nodrop) && !sc->flash_attention)
		p->attn_out = 0.0;
	if (!((tg & ENGINE_LORA_DOWN) && nodrop))
		p->mlp -= sb * e * mlp_width / t;
}

/* Activation bytes of one transformer layer for one micro-batch on one GPU, with no
 * recomputation of the layer as a whole, part by part. */
double eng_layer_activations(const struct engine_scenario *sc, const struct eng_dims *dm, double e, double b,
			     bool selective, struct eng_act_parts *parts)
{
	double s = (double)sc->seq, t = (double)sc->tp;
	const struct eng_layer_params *lp = &dm->lp;
	double hq, kvr = dm->nkv >= t ? dm->nkv / t : 1.0;
	double sb = s * b;
	double mask = dm->dropout ? 1.0 : 0.0;
	bool eager = sc->kernels == ENGINE_KERNELS_EAGER;
	double r = residual_bytes(sc, e);
	double stats, norm = norm_kept(sc, dm, r, &stats);
	/* linears that read each norm's output, each with its own cast under autocast (Hugging
	 * Face's Llama-family code projects q, k, v and gate, up separately; its GPT-2 code
	 * has one c_attn and one c_fc). Megatron fuses QKV, but runs without autocast. */
	double attn_linears = !dm->layernorm ? 3.0 : 1.0;
	double mlp_linears = !dm->layernorm && dm->gated ? 2.0 : 1.0;
	double out_attn = norm_out_kept(sc, r, e, attn_linears), out_mlp = norm_out_kept(sc, r, e, mlp_linears);
	struct eng_act_parts p;

	hq = lp->q_width;
	/* Replicated across TP ranks unless sequence parallel (Korthikanti's "10"): two norm
	 * inputs, the QKV and MLP inputs (norm outputs), two dropout masks. With autocast the
	 * norms' outputs are the linears' casts (p.casts). */
	p.norms_inputs = sb * dm->d * 2.0 * norm;
	p.casts = is_amp(sc) ? sb * dm->d * (out_attn + out_mlp) : 0.0;
	p.norms_inputs += is_amp(sc) ? 0.0 : sb * dm->d * (out_attn + out_mlp);
	p.stats = sb * 2.0 * stats;
	p.masks = sb * dm->d * 2.0 * mask;
	if (sc->sequence_parallel && sc->tp > 1) {
		p.norms_inputs /= t;
		p.casts /= t;
		p.stats /= t;
		p.masks /= t;
	}
	/* Split across TP ranks (Korthikanti's "24/t"): Q, K, V (eager: K and V at the full
	 * head count, repeat_kv), the attention output that enters the output projection, and
	 * the MLP intermediates for each routed expert: gated eager gate, up, act(gate),
	 * product; gated fused gate, up, product; plain fc1 output and activation output. */
	if (dm->kv_rank > 0.0) {
		/* MLA (DeepSeek-V2 §2.1): the decompressed Q, K, V per head (split by TP) and the
		 * latents the up-projections read (replicated): counted from the modules, not
		 * measured with the harness */
		p.qkv = sb * e * ((lp->q_width + lp->kv_width) / t + dm->kv_rank + dm->d_rope + dm->q_rank);
		p.attn_out = sb * e * dm->nh * dm->d_v / t;
	} else {
		p.qkv = sb * e * (eager ? 3.0 * hq / t : hq / t + 2.0 * dm->dh * kvr);
		p.attn_out = sb * e * hq / t;
	}
	p.mlp = sb * e * (dm->gated ? (eager ? 4.0 : 3.0) : 2.0) * lp->mlp_width / t;
	/* The attention scores (Korthikanti's "5·a·s/h"): fused: the softmax output, and with
	 * dropout its mask and output; eager: an fp32 softmax output, then its 16-bit copy or
	 * (dropout) the mask and dropout's output; but nanoGPT's and Hugging Face's GPT-2
	 * attention (the layernorm family) without autocast runs softmax in the input's dtype
	 * (only the Llama family passes dtype=torch.float32): the fused count (harness: "gpt2
	 * bf16 ..."). FlashAttention keeps only an fp32 log-sum-exp per row; selective
	 * recomputation keeps nothing. */
	if (selective)
		p.scores = 0.0;
	else if (sc->flash_attention)
		p.scores = 4.0 * sb * dm->nh / t;
	else if (eager && (is_amp(sc) || !dm->layernorm))
		p.scores = dm->nh / t * s * s * b * (4.0 + (mask > 0.0 ? 1.0 + e : (e < 4.0 ? e : 0.0)));
	else
		p.scores = dm->nh / t * s * s * b * (e + mask * (1.0 + e));
	if (sc->mode == ENGINE_MODE_TRAIN && sc->finetune != ENGINE_FT_FULL)
		lora_frees(sc, dm, e, r, sb, attn_linears, lp->mlp_width, &p);
	p.adapters = sc->mode == ENGINE_MODE_TRAIN ? eng_lora_activations(sc, dm, e, sb) : 0.0;
	if (parts != NULL)
		*parts = p;
	return p.norms_inputs + p.casts + p.stats + p.masks + p.qkv + p.attn_out + p.mlp + p.scores + p.adapters;
}

/* Full recomputation (torch.utils.checkpoint per layer; Megatron's "full"): a layer keeps
 * the input it recomputes from, the residual stream (fp32 under autocast). Harness:
 * "... full". */
double eng_layer_checkpoint(const struct engine_scenario *sc, const struct eng_dims *dm, double e, double b)
{
	double in = residual_bytes(sc, e) * (double)sc->seq * b * dm->d;

	if (sc->sequence_parallel && sc->tp > 1)
		in /= (double)sc->tp;
	return in;
}

/*
 * torchtitan's per-op selective activation checkpointing (recompute selective-op):
 * torchtitan/distributed/activation_checkpoint.py, SelectiveAC (torchtitan commit
 * b5bcd76, 2026; before it _apply_op_sac with each model's _op_sac_save_list). Each block
 * runs under torch.utils.checkpoint with create_selective_checkpoint_contexts and a policy
 * that MUST_SAVEs the outputs of the ops in its save list and recomputes every other op:
 * the save list is PyTorch's compute-intensive ops (torch/_functorch/partitioners.py,
 * get_default_op_list: mm, bmm, addmm, the SDPA flash and efficient kernels, ...), the
 * cuDNN/math SDPA, FlexAttention, max (FP8's amax), topk and the reduce-scatter and
 * all-to-all collectives; "except every second mm/linear": a counter of the block's
 * aten.mm / aten.linear calls (the MoE router's gate forced to recompute and not counted)
 * saves the odd ones and recomputes the even ones. In a Llama block (wq, wk, wv, wo, w1,
 * w3, w2 in that order) it keeps wq's, wv's, w1's and w2's outputs and recomputes wk, wo
 * and w3; the routed experts' grouped GEMMs (torch._grouped_mm) are in no list and are
 * recomputed. A block keeps its input (the checkpoint's), those outputs, and attention's:
 * FlashAttention's output and fp32 log-sum-exp, or without it the two batched matmuls'
 * outputs, the s×s scores QKᵀ (before scaling, mask and softmax, which are recomputed)
 * and P·V. A linear model's fused QKV (GPT-2's c_attn) is one mm. Harness: "... selective-op".
 * `saved[i]`: op i's output is kept. */
void eng_sac_saved_ops(const struct eng_dims *dm, bool saved[ENG_LAYER_OPS])
{
	const struct eng_layer *ly = &dm->ly;
	int i, count = 0;

	for (i = 0; i < ly->n && i < ENG_LAYER_OPS; i++) {
		const struct eng_op *op = &ly->op[i];
		saved[i] = false;
		if (op->kind != ENG_OP_LINEAR || op->part == ENG_PART_ROUTER || op->part == ENG_PART_EXPERT)
			continue;
		/* the same mm as the op before it (GPT-2's c_attn: q, k and v in one linear) */
		if (dm->layernorm && i > 0 && eng_op_fused(&ly->op[i - 1], op)) {
			saved[i] = saved[i - 1];
			continue;
		}
		count++;
		saved[i] = count % 2 == 1;
	}
}

double eng_layer_selective_op(const struct engine_scenario *sc, const struct eng_dims *dm, double e, double b)
{
	const struct eng_layer *ly = &dm->ly;
	double s = (double)sc->seq, t = (double)sc->tp, sb = s * b, nkv = dm->nkv;
	double kept = eng_layer_checkpoint(sc, dm, e, b);
	bool saved[ENG_LAYER_OPS];
	int i;

	eng_sac_saved_ops(dm, saved);
	for (i = 0; i < ly->n && i < ENG_LAYER_OPS; i++) {
		const struct eng_op *op = &ly->op[i];
		double N, heads = op->heads / t;
		if (op->kind == ENG_OP_LINEAR && saved[i]) {
			/* the mm's output on this rank: columns (or KV heads) split, a row-parallel
			 * output whole (its partial sums, before the reduction) */
			N = op->split == ENG_SPLIT_COL ? op->N / t
			    : op->split == ENG_SPLIT_KV ? op->N * (nkv >= t ? 1.0 / t : 1.0 / nkv)
							: op->N;
			kept += op->share * sb * op->rows * op->copies * N * e;
		} else if (op->kind == ENG_OP_ATTN) {
			double out = sb * heads * op->v_dim * e;
			kept += op->share * (sc->flash_attention ? out + 4.0 * sb * heads
								 : out + heads * s * s * b * e);
		} else if (op->kind == ENG_OP_LINATTN) {
			kept += op->share * sb * heads * op->v_dim * e;
		}
	}
	/* sequence parallelism: the row-parallel outputs' reduce-scatters are saved too */
	if (sc->sequence_parallel && sc->tp > 1)
		kept += 2.0 * sb / t * dm->d * e;
	return kept;
}

/* Layers of a stage of `lps` that recompute whole from their input: recompute full's
 * recompute_layers of them (0: all; uniform: all, in chunks); selective-op recomputes
 * every layer, but apart. */
double eng_recompute_layers(const struct engine_scenario *sc, double lps)
{
	if (sc->recompute != ENGINE_RECOMP_FULL)
		return 0.0;
	if (sc->recompute_method == ENGINE_RCM_UNIFORM)
		return lps; /* every layer, in chunks */
	return sc->recompute_layers > 0 ? eng_min((double)sc->recompute_layers, lps) : lps;
}

/* Liger Kernel's chunk of tokens (fused_linear_cross_entropy.py,
 * fused_linear_cross_entropy_forward): inc_factor = cdiv(V, H), chunk_size =
 * next_power_of_2(cdiv(BT, inc_factor)), a chunk's logits about the hidden states' size. */
static double chunk_tokens(double bt, double d, double v)
{
	double inc = ceil(v / d), n = ceil(bt / inc), c = 1.0;

	while (c < n)
		c *= 2.0;
	return eng_min(c, bt);
}

void eng_head_activations(const struct engine_scenario *sc, const struct eng_dims *dm, double e, double b, double w,
			  struct eng_head *h)
{
	double s = (double)sc->seq, t = (double)sc->tp, sb = s * b;
	double r = residual_bytes(sc, e);
	double stats, norm = norm_kept(sc, dm, r, &stats);
	bool chunked = sc->loss == ENGINE_LOSS_CHUNKED, full_ft = sc->finetune == ENGINE_FT_FULL;
	/* the LM head's input, or with a chunked loss the hidden states' gradient that it
	 * keeps instead (the same shape and dtype) */
	double head_in = chunked ? r : norm_out_kept(sc, r, e, 1.0);
	double rep = sb * (dm->d * (norm + head_in) + stats);
	double sbv = sb * dm->V / t;

	if (sc->mode == ENGINE_MODE_TRAIN && !full_ft)
		/* LoRA: the frozen LM head keeps no input and the final norm's frozen weight no
		 * normalised tensor (harness: "... lora ..." logits) */
		rep -= sb * dm->d * ((sc->kernels == ENGINE_KERNELS_EAGER && !dm->layernorm ? r : 0.0) +
				     (chunked ? 0.0 : norm_out_kept(sc, r, e, 1.0)));
	if (sc->sequence_parallel && sc->tp > 1)
		rep /= t;
	if (chunked) {
		/* The LM head and the loss a chunk of tokens at a time (Liger Kernel's
		 * LigerFusedLinearCrossEntropyFunction, Hsu et al. 2024 §3.3; Apple's Cut
		 * Cross-Entropy, Wijmans et al. 2024, and Unsloth's chunked loss keep no
		 * full-sequence logits either): the forward computes each chunk's logits, their
		 * fp32 softmax and gradient, and from it the hidden states' gradient (kept to the
		 * backward, counted in `rep`) and the head weight's gradient (zeros_like(weight):
		 * the weights' dtype, made in the forward, alive from then on). Its scratch: one
		 * chunk's logits, 16-bit and their fp32 upcast. Harness: "... chunked". */
		double gw = full_ft ? dm->V / t * dm->d * w : 0.0;
		double chunk = chunk_tokens(sb, dm->d, dm->V / t) * dm->V / t;

		h->logits_alive = false;
		h->kept = rep;
		h->loss_grads = gw;
		h->forward_extra = gw + chunk * (e < 4.0 ? 4.0 + e : 4.0);
	} else if (sc->kernels == ENGINE_KERNELS_EAGER) {
		/* the logits the loop keeps, and F.cross_entropy's log-probabilities: fp32 under
		 * autocast, and fp32 for the Llama family's Hugging Face loss, which upcasts the
		 * logits first (transformers' loss_utils.py ForCausalLMLoss: `logits =
		 * logits.float()`; that fp32 copy is alive while log_softmax makes its output),
		 * else the logits' dtype (nanoGPT's F.cross_entropy on the logits as they are,
		 * the layernorm family's reference); the backward's first two nodes (nll_loss,
		 * log_softmax) hold a gradient of each at once. Harness: "llama ..." logits,
		 * "llama bf16 ..." (Hugging Face's loss), "gpt2 bf16 ..." (nanoGPT's). */
		bool upcast = !is_amp(sc) && !dm->layernorm && e < 4.0;
		double lp = is_amp(sc) || upcast ? 4.0 : e;
		h->logits_alive = true;
		h->kept = rep + sbv * (e + lp);
		h->loss_grads = 2.0 * lp * sbv;
		h->forward_extra = upcast ? 4.0 * sbv : 0.0;
	} else {
		/* Megatron's cross-entropy on fp32 logits keeps the fp32 softmax and turns it into
		 * the gradient in place; its cast back to 16 bits is the one new buffer; the
		 * forward returns the loss, no logits outlive it. */
		h->logits_alive = false;
		h->kept = rep + 4.0 * sbv;
		h->loss_grads = e < 4.0 ? e * sbv : 0.0;
		/* while the loss makes its softmax the logits are still alive: the step's peak
		 * can be at the end of the forward (harness: "fused llama ...") */
		h->forward_extra = e * sbv;
	}
}

const char *engine_peak_phase_name(enum engine_peak_phase p)
{
	switch (p) {
	case ENGINE_PEAK_BACKWARD:
		return "backward";
	case ENGINE_PEAK_OPTIMIZER:
		return "optimizer";
	case ENGINE_PEAK_FORWARD:
		return "forward";
	default:
		return "?";
	}
}

const char *engine_peak_phase_text(enum engine_peak_phase p)
{
	switch (p) {
	case ENGINE_PEAK_BACKWARD:
		return N_("at the start of the backward");
	case ENGINE_PEAK_OPTIMIZER:
		return N_("at the optimizer step");
	case ENGINE_PEAK_FORWARD:
		return N_("in the forward");
	default:
		return "?";
	}
}
