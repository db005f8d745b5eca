/*
 * Memory per GPU: weights, master weights, gradients, optimizer states, activations,
 * logits and loss, KV cache, and the CUDA context, for the binding pipeline stage.
 *
 * Sources:
 *  - ZeRO (Rajbhandari et al. 2019, §5): mixed-precision Adam keeps 2Ψ + 2Ψ + 12Ψ bytes;
 *    stage 1 shards the optimizer states (with the fp32 master), stage 2 also the
 *    gradients, stage 3 also the parameters, each divided by the data-parallel degree.
 *    Megatron-LM with bf16 parameters keeps 2Ψ + 4Ψ + 12Ψ (its fp32 main_grad, eng_bytes);
 *    its distributed optimizer is zero 1 here: it shards the master and the states, not
 *    the grad buffer ("[no] distribute model gradients", 6 + 12/d bytes per parameter,
 *    docs/distrib_optimizer.md); zero 2 and 3 shard that buffer too, as ZeRO-2 does.
 *  - Korthikanti et al. 2022 ("Reducing Activation Recomputation in Large Transformer
 *    Models"), §4 and table 2: activations per layer s·b·h·(34 + 5·a·s/h) bytes with
 *    16-bit activations and 1-byte dropout masks; the tensor-parallel, sequence-parallel,
 *    selective- and full-recomputation variants; 1F1B pipelining keeps p micro-batches in
 *    flight on the first stage. napkin generalises their tensor-by-tensor count to GQA,
 *    gated MLPs, any ffn width, any activation dtype and models without dropout; with
 *    their GPT configuration it reproduces their formulas exactly (tests/unit).
 *  - FlashAttention (Dao et al. 2022): the s×s score matrices are never stored; the
 *    backward keeps the output and a per-row log-sum-exp (fp32).
 *  - KV cache: 2 (K and V) · layers · batch · context · kv_heads · head_dim · bytes.
 */
#include <math.h>
#include <string.h>

#include "serve_internal.h"

/* Per recipe: weights, gradients, master, optimizer states, activations, matmuls.
 * -1: none (no master copy). */
enum { RW, RG, RM, RS, RA, RMM, RCOUNT };
static const int8_t recipes[ENGINE_PREC_COUNT][RCOUNT] = {
	[ENGINE_PREC_FP32] = {ENGINE_DT_FP32, ENGINE_DT_FP32, -1, ENGINE_DT_FP32, ENGINE_DT_FP32, ENGINE_DT_FP32},
	[ENGINE_PREC_AMP_BF16] = {ENGINE_DT_FP32, ENGINE_DT_FP32, -1, ENGINE_DT_FP32, ENGINE_DT_BF16, ENGINE_DT_BF16},
	[ENGINE_PREC_AMP_FP16] = {ENGINE_DT_FP32, ENGINE_DT_FP32, -1, ENGINE_DT_FP32, ENGINE_DT_FP16, ENGINE_DT_FP16},
	[ENGINE_PREC_MIXED_BF16] = {ENGINE_DT_BF16, ENGINE_DT_BF16, ENGINE_DT_FP32, ENGINE_DT_FP32, ENGINE_DT_BF16,
				    ENGINE_DT_BF16},
	[ENGINE_PREC_MIXED_FP16] = {ENGINE_DT_FP16, ENGINE_DT_FP16, ENGINE_DT_FP32, ENGINE_DT_FP32, ENGINE_DT_FP16,
				    ENGINE_DT_FP16},
	[ENGINE_PREC_BF16] = {ENGINE_DT_BF16, ENGINE_DT_BF16, -1, ENGINE_DT_BF16, ENGINE_DT_BF16, ENGINE_DT_BF16},
	[ENGINE_PREC_FP8_MIXED] = {ENGINE_DT_BF16, ENGINE_DT_BF16, ENGINE_DT_FP32, ENGINE_DT_FP32, ENGINE_DT_BF16,
				   ENGINE_DT_FP8_E4M3},
};

int eng_recipe_dtype(enum engine_precision p, int which)
{
	if ((int)p < 0 || p >= ENGINE_PREC_COUNT || which < 0 || which >= RCOUNT)
		return ENGINE_DT_FP32;
	return recipes[p][which];
}

static double dt_bytes(int dt)
{
	return dt < 0 ? 0.0 : engine_dtype_info((enum engine_dtype)dt)->bytes;
}

static int pick(int override, int recipe)
{
	return override != ENGINE_DT_AUTO ? override : recipe;
}

void eng_bytes(const struct engine_scenario *sc, struct eng_bytes *b)
{
	const int8_t *r = recipes[sc->precision];
	bool amp = sc->precision == ENGINE_PREC_AMP_BF16 || sc->precision == ENGINE_PREC_AMP_FP16;

	memset(b, 0, sizeof *b);
	b->weight_dt = pick(sc->weight_dtype, r[RW]);
	b->grad_dt = pick(sc->grad_dtype, r[RG]);
	/* Megatron-LM (kernels fused) keeps its gradients in an fp32 buffer, param.main_grad,
	 * when the parameters are bf16: megatron/training/arguments.py turns on
	 * accumulate_allreduce_grads_in_fp32 for --bf16 (unless --grad-reduce-in-bf16),
	 * param_and_grad_buffer.py then allocates the grad buffer in torch.float, and its
	 * linears accumulate their weight gradients straight into it; no 16-bit .grad exists
	 * (docs/distrib_optimizer.md: "bf16 param, fp32 grads", 18 bytes per parameter with
	 * Adam). With fp16 parameters the flag stays off: 16-bit gradients. DeepSpeed and
	 * PyTorch loops (kernels eager) keep the recipe's 16-bit ones. */
	if (sc->kernels == ENGINE_KERNELS_FUSED && sc->grad_dtype == ENGINE_DT_AUTO &&
	    (sc->precision == ENGINE_PREC_MIXED_BF16 || sc->precision == ENGINE_PREC_FP8_MIXED))
		b->grad_dt = ENGINE_DT_FP32;
	b->state_dt = pick(sc->optimizer_dtype, r[RS]);
	b->activation_dt = pick(sc->activation_dtype, r[RA]);
	b->kv_dt = pick(sc->kv_dtype, b->activation_dt);
	b->matmul_dt = pick(sc->matmul_dtype, r[RMM]);
	/* W8A8: served fp8 checkpoints run their linears on the FP8 tensor cores (vLLM's and
	 * TensorRT-LLM's fp8 schemes quantise the activations too; serve_step.c), so the
	 * roofline's peak and the TTFT and TPOT bounds are the FP8 ones, never above the steady
	 * state that runs them */
	if (sc->mode == ENGINE_MODE_INFER && sc->weight_format == ENGINE_WF_FP8 && sc->matmul_dtype == ENGINE_DT_AUTO &&
	    engine_gpu_peak(&sc->gpu, ENGINE_DT_FP8_E4M3) > 0)
		b->matmul_dt = ENGINE_DT_FP8_E4M3;
	/* A master copy exists when the recipe keeps one and the weights are narrower. */
	b->master_dt = r[RM];
	if (b->master_dt >= 0 && dt_bytes(b->weight_dt) >= dt_bytes(b->master_dt))
		b->master_dt = -1;
	b->w = dt_bytes(b->weight_dt);
	b->g = dt_bytes(b->grad_dt);
	b->master = dt_bytes(b->master_dt);
	b->act = dt_bytes(b->activation_dt);
	b->kv = dt_bytes(b->kv_dt);
	b->w_linear = b->w_embed = b->w_head = b->w;
	if (sc->mode == ENGINE_MODE_INFER && sc->weight_format != ENGINE_WF_DTYPE) {
		/* a weight-only format stores the blocks' linears (and for GGUF the embedding
		 * and the head) at its bits per weight; the rest stays 16-bit (quant.c) */
		const struct engine_weight_format_info *fi = engine_weight_format_info((enum engine_weight_format)sc->weight_format);
		double sixteen = dt_bytes(ENGINE_DT_BF16);
		b->w_linear = engine_weight_format_bits((enum engine_weight_format)sc->weight_format, &sc->model) / 8.0;
		b->w_embed = fi->embed_bits > 0 ? fi->embed_bits / 8.0 : sixteen;
		b->w_head = fi->head_bits > 0 ? fi->head_bits / 8.0 : sixteen;
		b->w = sixteen; /* norms and biases */
	}
	/* by part: gpt-oss's checkpoints keep the attention and the router in bf16 and the MLPs
	 * (experts) in MXFP4, so what a decode step reads depends on which experts it routes to */
	b->w_attn = b->w_mlp = b->w_linear;
	if (sc->mode == ENGINE_MODE_INFER && sc->weight_format == ENGINE_WF_MXFP4_EXPERTS) {
		b->w_attn = dt_bytes(ENGINE_DT_BF16);
		b->w_mlp = engine_weight_format_info(ENGINE_WF_MXFP4_EXPERTS)->linear_bits / 8.0;
	}
	/* Autocast keeps 16-bit copies of the weights it casts for the backward pass
	 * (PyTorch torch.autocast's weight cast cache). */
	b->autocast_copy = amp ? dt_bytes(r[RA]) : 0.0;
	b->autocast_dt = amp ? r[RA] : -1;

	switch (sc->optimizer) {
	case ENGINE_OPT_ADAMW:
	case ENGINE_OPT_ADAM:
		/* first and second moments (Kingma & Ba 2015; Loshchilov & Hutter 2019) */
		b->states = 2;
		b->state_bytes = 2.0 * dt_bytes(b->state_dt);
		break;
	case ENGINE_OPT_SGD:
		b->states = 0;
		b->state_bytes = 0;
		break;
	case ENGINE_OPT_SGD_MOMENTUM:
	case ENGINE_OPT_LION:
		/* one momentum buffer (Lion: Chen et al. 2023) */
		b->states = 1;
		b->state_bytes = dt_bytes(b->state_dt);
		break;
	case ENGINE_OPT_ADAM_8BIT:
		/* two 8-bit states plus an fp32 absmax per 2048-element block (Dettmers et al.
		 * 2022, bitsandbytes) */
		b->states = 2;
		b->state_bytes = 2.0 * (1.0 + 4.0 / ENG_ADAM8_BLOCK);
		b->state_dt = ENGINE_DT_INT8;
		break;
	case ENGINE_OPT_ADAFACTOR:
		/* factored second moment (Shazeer & Stern 2018): rows + columns per matrix;
		 * eng_memory computes it from the shapes; no first moment by default */
		b->states = -1;
		b->state_bytes = 0;
		break;
	default:
		break;
	}
}

double eng_matmul_peak(const struct engine_scenario *sc, const struct eng_bytes *b)
{
	if (sc->peak_flops > 0)
		return sc->peak_flops;
	return engine_gpu_peak(&sc->gpu, (enum engine_dtype)b->matmul_dt);
}

/* Adafactor's factored state count for the whole model: a matrix [r, c] keeps r + c
 * numbers, a vector its own size. */
static double adafactor_states(const struct eng_dims *dm)
{
	const struct eng_layer *ly = &dm->ly;
	double layer = 0.0;
	int i;

	for (i = 0; i < ly->n; i++) {
		const struct eng_op *op = &ly->op[i];
		if (op->kind == ENG_OP_LINEAR)
			layer += op->share * op->copies * (op->K + op->N + op->bias);
		else
			layer += op->share * op->params;
	}
	return dm->L * layer + (dm->V + dm->d) + (dm->learned ? dm->P + dm->d : 0.0) +
	       (dm->tied ? 0.0 : dm->V + dm->d) + (dm->layernorm ? 2.0 : 1.0) * dm->d;
}

/* Parameters one GPU of a stage holds under TP (Megatron: column- and row-parallel
 * linears split, vocab-parallel embedding and head, norms replicated) and PP. */
struct stage_params {
	double first, last;          /* total */
	double first_lin, last_lin;  /* the blocks' linears (attention, MLP, router) */
	double first_emb, last_emb;  /* token and position embeddings */
	double first_head, last_head;/* the LM head (a tied one on a later stage keeps its copy) */
	double first_mm, last_mm;    /* matmul weights (what autocast copies) */
	double layer;                /* one layer on one TP rank */
};

static void stage_params(const struct engine_scenario *sc, const struct eng_dims *dm, struct stage_params *sp)
{
	double t = (double)sc->tp, ep = (double)sc->ep;
	double lps = eng_layers_per_stage(dm->L, sc->pp);
	double final_norm = dm->layernorm ? 2.0 * dm->d : dm->d;
	double mm = 0.0, layer, emb, head;

	/* each op of the layer table on one TP rank, the E/ep experts of one EP rank */
	layer = eng_layer_params_rank(&dm->lp, t, ep, dm->nkv, &mm);
	emb = dm->V * dm->d / t + dm->P * dm->d;
	head = dm->tied ? 0.0 : dm->V * dm->d / t;
	sp->layer = layer;
	if (sc->pp <= 1) {
		sp->first = sp->last = dm->L * layer + emb + final_norm + head;
		sp->first_mm = sp->last_mm = dm->L * mm + dm->V * dm->d / t;
		sp->first_lin = sp->last_lin = dm->L * mm;
		sp->first_emb = sp->last_emb = emb;
		sp->first_head = sp->last_head = head;
	} else {
		sp->first = lps * layer + emb;
		sp->first_mm = lps * mm;
		/* the last stage holds the head; a tied head keeps its own copy of the embedding */
		sp->last = lps * layer + final_norm + (dm->tied ? dm->V * dm->d / t : head);
		sp->last_mm = lps * mm + dm->V * dm->d / t;
		sp->first_lin = sp->last_lin = lps * mm;
		sp->first_emb = emb;
		sp->last_emb = 0.0;
		sp->first_head = 0.0;
		sp->last_head = dm->tied ? dm->V * dm->d / t : head;
	}
}

static double layer_activations(const struct engine_scenario *sc, const struct eng_dims *dm, double e, double b,
				bool selective)
{
	return eng_layer_activations(sc, dm, e, b, selective, NULL);
}

/* The weights of the last layer's MLP on one GPU (their gradients are made first): the
 * dense MLP's or shared experts' split by TP, the E/ep routed experts this GPU holds. */
static double last_mlp_grads(const struct engine_scenario *sc, const struct eng_dims *dm)
{
	return dm->lp.dense_w / (double)sc->tp + dm->lp.expert_w / ((double)sc->tp * (double)sc->ep);
}

/* The transient working set of one layer's forward in inference (nothing is kept for a
 * backward pass): the input and residual, the widest intermediate, and the scores, for the
 * tokens one serving step computes (eng_step_tokens: one prefill chunk, or one whole
 * prompt, and the others' decode tokens; not every sequence's whole prompt at once, which
 * no continuous-batching server does). Without FlashAttention the chunk's scores span
 * the prompt so far: chunk × prompt per head. */
static double infer_working(const struct engine_scenario *sc, const struct eng_dims *dm, double e, double b)
{
	double s = (double)sc->prompt, t = (double)sc->tp;
	double tok = eng_step_tokens(sc, b);
	double chunk = tok - (b - 1.0);
	const struct eng_layer_params *lp = &dm->lp;
	double kvr = dm->nkv >= t ? dm->nkv / t : 1.0;
	double qkv, mlp;

	qkv = dm->kv_rank > 0.0 ? (lp->q_width + lp->kv_width) / t : lp->q_width / t + 2.0 * dm->dh * kvr;
	mlp = lp->mlp_width * (dm->gated ? 3.0 : 2.0) / t;
	double span = dm->W > 0 && dm->wfrac >= 1.0 ? eng_min(s, dm->W) : s;
	double scores = sc->flash_attention ? 0.0 : e * dm->nh / t * chunk * span;

	return e * tok * (2.0 * dm->d + eng_max(qkv, mlp)) + scores;
}

void eng_memory(const struct engine_scenario *sc, const struct eng_dims *dm, double dp, double batch,
		struct eng_mem *m)
{
	struct eng_bytes by;
	struct stage_params sp;
	struct engine_params pp_all;
	bool train = sc->mode == ENGINE_MODE_TRAIN;
	double t = (double)sc->tp, p = (double)sc->pp;
	double e, s = (double)sc->seq, lps = eng_layers_per_stage(dm->L, sc->pp);
	double state_per_param, inflight;
	int stage;

	eng_bytes(sc, &by);
	stage_params(sc, dm, &sp);
	eng_params(dm, &pp_all);
	e = by.act;
	if (by.states < 0)
		state_per_param = 4.0 * adafactor_states(dm) / pp_all.total * (by.state_dt == ENGINE_DT_BF16 ? 0.5 : 1.0);
	else
		state_per_param = by.state_bytes;
	inflight = sc->pp > 1 ? eng_min(p, (double)sc->grad_accum) : 1.0;

	memset(m, 0, sizeof *m);
	for (stage = 0; stage < (sc->pp > 1 ? 2 : 1); stage++) {
		struct eng_mem c;
		bool first = stage == 0, last = sc->pp <= 1 || stage == 1;
		double P = first ? sp.first : sp.last;
		double Pmm = first ? sp.first_mm : sp.last_mm;
		double infl = first ? inflight : 1.0;
		double wdiv = 1.0, odiv = 1.0, gdiv = 1.0, head_grads;

		memset(&c, 0, sizeof c);
		if (train && sc->zero >= 1)
			odiv = dp;
		if (train && sc->zero >= 2)
			gdiv = dp;
		if (train && sc->zero >= 3)
			wdiv = dp;
		c.params_gpu = P;
		if (train)
			c.weights = P * by.w / wdiv;
		else {
			double lin = first ? sp.first_lin : sp.last_lin, emb = first ? sp.first_emb : sp.last_emb;
			double head = first ? sp.first_head : sp.last_head;
			c.weights = eng_weight_bytes(&by, lin, emb, head, P - lin - emb - head);
		}
		c.autocast = Pmm * by.autocast_copy / wdiv; /* a part of its own: not weights, not master */
		if (train && sc->zero >= 3 && dp > 1.0 && sc->activations) {
			/* ZeRO-3 gathers one layer's full weights at a time to compute with it: a
			 * working buffer, left out with the activations in the model-states-only
			 * estimate (activations off) */
			c.gathered = sp.layer * by.w;
			c.weights += c.gathered;
		}
		if (train) {
			c.master = P * by.master / odiv;
			c.optimizer = P * state_per_param / odiv;
			c.gradients = P * by.g / gdiv;
		}
		c.sharded = P * by.w * (train && sc->zero >= 3 ? 1.0 : 0.0) +
			    Pmm * by.autocast_copy * (train && sc->zero >= 3 ? 1.0 : 0.0) +
			    (train && sc->zero >= 1 ? P * (by.master + state_per_param) : 0.0) +
			    (train && sc->zero >= 2 ? P * by.g : 0.0);
		c.layers_per_stage = lps;
		c.inflight = infl;
		/* the gradients the backward makes before the first can go: the LM head's and the
		 * last layer's MLP weights' (the E/ep experts this GPU holds); frozen weights make
		 * none, only the last layer's adapters */
		if (sc->finetune != ENGINE_FT_FULL)
			head_grads = eng_lora_gpu_layer_adapters(sc, dm) * by.g / gdiv;
		else
			head_grads = ((last ? dm->V / t * dm->d : 0.0) + last_mlp_grads(sc, dm)) * by.g / gdiv;
		{
			double unit = first ? eng_max(sp.first_emb, sp.first_head) : eng_max(sp.last_emb, sp.last_head);
			struct eng_ft_in fi = {P, Pmm, sp.layer, wdiv, odiv, gdiv, state_per_param, head_grads, unit};
			eng_finetune_memory(sc, dm, &by, &fi, &c);
		}
		if (train) {
			bool selective = sc->recompute == ENGINE_RECOMP_SELECTIVE;
			double per_layer = layer_activations(sc, dm, e, batch, selective);
			double kept = infl * lps * per_layer, working = 0.0, emb = 0.0;
			double nrc = eng_recompute_layers(sc, lps);
			bool last_recomputed = false;
			struct eng_head head = {0.0, 0.0, 0.0, false};
			c.act_per_layer = per_layer;
			if (sc->activations) {
				if (nrc > 0.0 || sc->recompute == ENGINE_RECOMP_SELECTIVE_OP) {
					/* full: each recomputed layer keeps its input (selective-op: also
					 * the outputs its policy saves), the others everything; the layer
					 * being recomputed holds its working set once more, less that
					 * input (the same storage). The backward starts at the stage's last
					 * layer: recomputed under selective-op and full, and under a part
					 * of the layers torchtitan's every k-th (the last is a k-th) but
					 * not Megatron's block method (the first N; recompute_method). */
					double in = sc->recompute == ENGINE_RECOMP_SELECTIVE_OP
							    ? eng_layer_selective_op(sc, dm, e, batch)
							    : eng_layer_checkpoint(sc, dm, e, batch);
					/* uniform: a checkpoint at each chunk of recompute_layers layers,
					 * the chunk recomputed whole (Megatron-LM transformer_block.py
					 * _checkpointed_forward): its layers' working sets at once */
					double chunk = sc->recompute_method == ENGINE_RCM_UNIFORM && sc->recompute_layers > 1
							       ? eng_min((double)sc->recompute_layers, lps)
							       : 1.0;
					if (sc->recompute == ENGINE_RECOMP_SELECTIVE_OP)
						nrc = lps;
					kept = infl * (ceil(nrc / chunk) * in + (lps - nrc) * per_layer);
					c.act_per_layer = lps > 0.0 ? kept / (infl * lps) : in;
					last_recomputed = nrc >= lps || sc->recompute_method == ENGINE_RCM_EVERY;
					if (last_recomputed)
						working = chunk * layer_activations(sc, dm, e, batch, false) -
							  eng_layer_checkpoint(sc, dm, e, batch);
				}
				if (first && dm->dropout)
					emb = infl * s * batch * dm->d; /* embedding dropout mask */
				c.activations = kept + working + emb;
				if (last) {
					eng_head_activations(sc, dm, e, batch, by.w, &head);
					c.logits = head.kept;
				}
			}
			c.logits_alive = head.logits_alive;
			{
				struct eng_peak_in pk;
				struct eng_act_parts parts;
				double V = dm->V / t;
				memset(&pk, 0, sizeof pk);
				eng_layer_activations(sc, dm, e, batch, selective, &parts);
				pk.e = e;
				pk.batch = batch;
				pk.kept = kept;
				pk.working = working;
				pk.recomputed = last_recomputed;
				pk.working_mlp = last_recomputed && sc->activations ? parts.mlp : 0.0;
				pk.emb = emb;
				pk.last_mlp = sc->activations ? infl * parts.mlp : 0.0;
				pk.head = head;
				pk.head_layer = last && sc->activations;
				pk.head_layer_grads = head_grads;
				/* torch.optim's foreach Adam(W) and Lion: one state-sized buffer (peak.c);
				 * the fused optimizers of Apex / Transformer Engine / Megatron work in
				 * place (multi_tensor_apply) */
				if (sc->kernels == ENGINE_KERNELS_EAGER && sc->activations &&
				    (sc->optimizer == ENGINE_OPT_ADAMW || sc->optimizer == ENGINE_OPT_ADAM ||
				     sc->optimizer == ENGINE_OPT_LION))
					pk.opt_buffer = c.trainable_gpu * dt_bytes(by.state_dt) / odiv;
				/* offload: the step runs on the CPU; QLoRA: bitsandbytes' paged AdamW is
				 * a fused kernel (no foreach buffer) */
				if (sc->offload != ENGINE_OFFLOAD_NONE || sc->finetune == ENGINE_FT_QLORA)
					pk.opt_buffer = 0.0;
				if (dm->tied && sc->pp <= 1 && sc->activations && sc->finetune == ENGINE_FT_FULL)
					pk.tied_sum = 2.0 * V * dm->d * by.g / gdiv;
				eng_step_peak(sc, dm, &pk, &c);
			}
		} else {
			double ctx = (double)(sc->prompt + sc->generate);
			const struct eng_layer_params *lp = &dm->lp;
			double kv;
			/* per token and layer on this GPU: K and V of its nkv/t heads (one head,
			 * replicated, below one a rank); MLA's latent is every head's, cached whole on
			 * each TP rank (vLLM's MLA backends; DeepSeek-V2 §2.1.2) */
			kv = dm->kv_rank > 0.0 ? lp->kv_elems : lp->kv_elems / dm->nkv * (dm->nkv >= t ? dm->nkv / t : 1.0);
			/* plus linear attention's fixed state per sequence, split by heads */
			/* per layer: the context in whole kv_block blocks, at most the window where a
			 * layer slides one (serving.c) */
			/* a prefix every request shares (prefix_hit) held once; with a drafter, k
			 * lookahead slots a sequence, its KV beside the target's and its weights
			 * (serve_batch.c, serve_spec.c: the capacity counts the same) */
			double tok = eng_kv_tokens(sc, dm, ctx), shared = eng_prefix_shared(sc, tok);
			struct eng_spec spx;
			eng_spec_init(sc, dm, &by, &spx);
			c.kv_sequence = lps * ((tok - shared + spx.k) * kv + lp->state_elems / t) * by.kv +
					(tok - shared + spx.k) * spx.kv_per_token;
			c.kv_shared = lps * shared * kv * by.kv + shared * spx.kv_per_token;
			c.kv_token = lps * kv * by.kv + spx.kv_per_token;
			c.kv_cache = batch * c.kv_sequence + c.kv_shared;
			c.weights += spx.weight_bytes;
			if (sc->activations) {
				c.act_per_layer = infer_working(sc, dm, e, batch);
				c.activations = c.act_per_layer;
				if (last)
					c.logits = batch * dm->V / t * (e + 4.0);
			}
		}
		c.overhead = sc->gpu.overhead_bytes;
		c.total = c.weights + c.autocast + c.master + c.gradients + c.optimizer + c.activations + c.logits +
			  c.scratch + c.kv_cache + c.overhead;
		if (train)
			c.peak += c.overhead;
		else {
			c.peak = c.total;
			c.peak_phase = ENGINE_PEAK_FORWARD;
		}
		/* the binding stage: the larger total; the first stage stands when none is
		 * larger, so the result is always one stage's, never left zeroed */
		if (stage == 0 || c.total > m->total)
			*m = c;
	}
}
