/*
 * Explanations of the parameter count and the memory results: weights, master weights,
 * gradients, optimizer state, activations, logits, KV cache, overhead, the total, and the
 * solves (largest batch, fewest GPUs, largest model). explain.c dispatches to them.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "explain_internal.h"

void eng_ex_params(struct eng_ex *x, const struct engine_scenario *sc, const struct engine_result *r, bool active)
{
	struct eng_dims dm;
	struct eng_layer_params lp;
	char a[NB], b[NB], c[NB], d[NB], e[NB];
	double final_norm;

	eng_dims_from_model(&sc->model, &dm);
	eng_layer_params(&dm, &lp);
	final_norm = dm.layernorm ? 2.0 * dm.d : dm.d;
	eng_ex_head(x, active ? "model.params_active" : "model.params_total",
		    active ? N_("parameters each token passes through") : N_("parameters of the model"));
	/* each op of the layer table (layer.c), as the modelling code names its module */
	{
		const struct eng_layer *ly = &dm.ly;
		int i;
		eng_ex_line(x, N_("  per layer  the modules of one layer (layer.c), as the modelling code names them:"));
		for (i = 0; i < ly->n; i++) {
			const struct eng_op *op = &ly->op[i];
			char shape[64], where[64];
			if (op->kind == ENG_OP_ATTN || op->kind == ENG_OP_LINATTN || !(op->params > 0))
				continue;
			if (op->kind == ENG_OP_LINEAR && op->copies > 1.0)
				snprintf(shape, sizeof shape, "%.0f × %.0f·%.0f%s", op->copies, op->K, op->N,
					 op->bias > 0 ? " + b" : "");
			else if (op->kind == ENG_OP_LINEAR)
				snprintf(shape, sizeof shape, "%.0f·%.0f%s", op->K, op->N, op->bias > 0 ? " + b" : "");
			else
				snprintf(shape, sizeof shape, "%.0f", op->params);
			where[0] = '\0';
			if (op->share < 1.0)
				snprintf(where, sizeof where, EX_(x, N_(" in %.0f of the %.0f layers")), op->share * dm.L, dm.L);
			if (active && op->part == ENG_PART_EXPERT)
				eng_ex_line(x, N_("             %-26s %s = %s, %s per token (top %.0f of %.0f)%s"), op->name, shape,
					    CNT(op->params, a), CNT(op->params * op->rows, b), dm.k, dm.E, where);
			else
				eng_ex_line(x, N_("             %-26s %s = %s%s"), op->name, shape, CNT(op->params, a), where);
		}
	}
	eng_ex_line(x, N_("  layers     %.0f × %s = %s"), dm.L, CNT(active ? lp.active : lp.total, a),
		    CNT(dm.L * (active ? lp.active : lp.total), b));
	eng_ex_line(x, N_("  embedding  V·d = %.0f·%.0f = %s%s"), dm.V, dm.d, CNT(dm.V * dm.d, c),
		    dm.learned ? EX_(x, N_(" (+ learned positions P·d)")) : "");
	if (dm.learned)
		eng_ex_line(x, N_("             positions P·d = %.0f·%.0f = %s"), dm.P, dm.d, CNT(dm.P * dm.d, c));
	eng_ex_line(x, N_("  final norm %s"), CNT(final_norm, d));
	if (dm.tied)
		eng_ex_line(x, N_("  LM head    tied to the embedding (no new parameters; still a V·d matmul)"));
	else
		eng_ex_line(x, N_("  LM head    %s"), CNT(dm.V * dm.d, e));
	eng_ex_line(x, N_("  total      %s = %.0f"), CNT(active ? r->params.active : r->params.total, a),
		    active ? r->params.active : r->params.total);
	if (!active && sc->model.params_published > 0)
		eng_ex_line(x, N_("  published  %.0f (%s)"), sc->model.params_published,
			    fabs(sc->model.params_published - r->params.total) < 0.5 ? EX_(x, N_("exact match")) : EX_(x, N_("differs")));
	eng_ex_line(x, N_("  non-embedding (Kaplan's N) %s"), CNT(r->params.non_embedding, a));
	/* a preset's source is cited as written; napkin's own note (engine_model_from_params) is a msgid */
	eng_ex_line(x, N_("  source: the modules of the Hugging Face implementation; %s"),
		    sc->model.source[0] ? EX_(x, sc->model.source) : "DESIGN.md formulas");
}

void eng_ex_weights(struct eng_ex *x, const struct engine_scenario *sc, const struct engine_result *r)
{
	struct eng_bytes by;
	char a[NB], b[NB];
	double dp = (double)r->dp;
	bool z3 = sc->mode == ENGINE_MODE_TRAIN && sc->zero >= 3;

	eng_bytes(sc, &by);
	eng_ex_head(x, "memory.weights", N_("the parameters on one GPU"));
	eng_ex_line(x, N_("  formula  params on this GPU × bytes per weight%s"), z3 ? " ÷ dp (ZeRO-3)" : "");
	if (sc->mode == ENGINE_MODE_TRAIN && sc->finetune == ENGINE_FT_QLORA)
		eng_ex_line(x, N_("  values   QLoRA: the layers' linears at %.4g bits (NF4, double quantisation), embeddings, head "
			       "and norms in bf16, the adapters at %g B, + one linear dequantised to bf16 (%s)"),
			    r->memory.bits_per_base_weight, by.w, GIB(r->memory.dequant_buffer, b));
	else if (sc->mode == ENGINE_MODE_INFER && sc->weight_format != ENGINE_WF_DTYPE) {
		/* a weight format stores the linears (and some the embedding and head) at its bits:
		 * eng_bytes (memory.c) */
		const struct engine_weight_format_info *fi =
			engine_weight_format_info((enum engine_weight_format)sc->weight_format);
		eng_ex_line(x, N_("  values   %s: the blocks' linears at %g bytes a weight (%s), the embedding at %g and the "
				  "LM head at %g, norms and biases at %g (16-bit)"),
			    CNT(r->params.per_gpu, a), by.w_linear, EX_(x, fi->label), by.w_embed, by.w_head, by.w);
	} else
		eng_ex_line(x, N_("  values   %s × %g bytes (%s)%s%s"), CNT(r->params.per_gpu, a), by.w, engine_dtype_prose(by.weight_dt, x->tr),
			    z3 ? " ÷ " : "", z3 ? CNT(dp, b) : "");
	if (sc->mode == ENGINE_MODE_TRAIN && sc->finetune == ENGINE_FT_LORA)
		eng_ex_line(x, N_("           + the adapters' %s parameters at %g B"), CNT(r->params.adapters, a), by.w);
	if (sc->mode == ENGINE_MODE_TRAIN && engine_offload_weights(sc->offload))
		eng_ex_line(x, N_("  offload %s: only the module in use and the next stay on the GPU, a layer or, where larger, the "
				  "embedding or the LM head (memory.%s)"),
			    engine_offload_name(sc->offload),
			    sc->offload == ENGINE_OFFLOAD_NVME_PARAMS ? "nvme_bytes" : "host_bytes");
	if (by.autocast_copy > 0)
		eng_ex_line(x, N_("  (autocast's %g-byte copies of the matmul weights are their own line: memory.autocast_copies)"),
			    by.autocast_copy);
	if (r->memory.zero3_buffer > 0)
		eng_ex_line(x, N_("           + one layer gathered to compute (ZeRO-3): %s"), GIB(r->memory.zero3_buffer, a));
	if (sc->mode == ENGINE_MODE_INFER && r->serving.spec_weight_bytes > 0)
		eng_ex_line(x, N_("           + the speculative drafter's weights: %s (serving.spec_weight_bytes)"),
			    GIB(r->serving.spec_weight_bytes, a));
	if (sc->tp > 1 || sc->pp > 1)
		eng_ex_line(x, N_("  params on this GPU: the model split %lld ways by TP (embedding, head and linears; norms "
			"replicated) and %lld by PP (the busiest stage)"),
		     (long long)sc->tp, (long long)sc->pp);
	eng_ex_line(x, N_("  result   %s (%s)"), GIB(r->memory.weights, a), GB(r->memory.weights, b));
	eng_ex_line(x, N_("  source   ZeRO (Rajbhandari et al. 2019): 2Ψ bytes for 16-bit parameters; Megatron-LM TP/PP layout"));
}

void eng_ex_autocast(struct eng_ex *x, const struct engine_scenario *sc, const struct engine_result *r)
{
	struct eng_bytes by;
	char a[NB], b[NB];

	eng_bytes(sc, &by);
	eng_ex_head(x, "memory.autocast_copies", N_("autocast's 16-bit copies of the matmul weights"));
	if (by.autocast_copy <= 0) {
		eng_ex_line(x, N_("  recipe %s runs no autocast: no copies (mixed-bf16 keeps 16-bit weights and an fp32 master "
			"instead)"), engine_precision_name(sc->precision));
		return;
	}
	eng_ex_line(x, N_("  torch.autocast casts each fp32 weight to %s for its matmul and keeps the cast for the backward"),
		    engine_dtype_prose(by.autocast_dt, x->tr));
	eng_ex_line(x, N_("  formula  matmul weights on this GPU × %g B (embeddings and norms stay fp32: not cast)"), by.autocast_copy);
	eng_ex_line(x, N_("  per parameter, averaged: %.4g B"), r->memory.autocast_bytes_per_param);
	eng_ex_line(x, N_("  result   %s (%s)"), GIB(r->memory.autocast_copies, a), GB(r->memory.autocast_copies, b));
	eng_ex_line(x, N_("  source   PyTorch torch.autocast (the weight cast cache, kept while autograd needs it)"));
}

void eng_ex_state(struct eng_ex *x, const struct engine_scenario *sc, const struct engine_result *r, const char *key)
{
	struct eng_bytes by;
	char a[NB], b[NB], c[NB];
	bool train = sc->mode == ENGINE_MODE_TRAIN;
	double dp = (double)r->dp;

	eng_bytes(sc, &by);
	if (strcmp(key, "memory.master_weights") == 0) {
		eng_ex_head(x, key, N_("an fp32 copy of 16-bit weights, which the optimizer updates"));
		eng_ex_line(x, N_("  formula  params on this GPU × %g B%s"), by.master, sc->zero >= 1 ? EX_(x, N_(" ÷ dp (ZeRO-1 and up)")) : "");
		eng_ex_line(x, N_("  values   %s × %g bytes%s%s = %s"), CNT(r->params.per_gpu, a), by.master, sc->zero >= 1 ? " ÷ " : "",
			    sc->zero >= 1 ? CNT(dp, b) : "", GIB(r->memory.master, c));
		if (by.master == 0)
			eng_ex_line(x, N_("  (recipe %s keeps no master copy: the weights are already %s)"),
				    engine_precision_name(sc->precision), engine_dtype_prose(by.weight_dt, x->tr));
		eng_ex_line(x, N_("  source   Micikevicius et al. 2018 (mixed precision); ZeRO's K = 12 includes it"));
	} else if (strcmp(key, "memory.gradients") == 0) {
		eng_ex_head(x, key, N_("one gradient per parameter"));
		eng_ex_line(x, N_("  formula  params on this GPU × bytes per gradient%s"), sc->zero >= 2 ? EX_(x, N_(" ÷ dp (ZeRO-2 and up)")) : "");
		eng_ex_line(x, N_("  values   %s × %g bytes (%s)%s%s = %s"), CNT(r->params.per_gpu, a), by.g, engine_dtype_prose(by.grad_dt, x->tr),
			    sc->zero >= 2 ? " ÷ " : "", sc->zero >= 2 ? CNT(dp, b) : "", GIB(r->memory.gradients, c));
		if (!train)
			eng_ex_line(x, N_("  inference keeps no gradients"));
		else if (sc->offload != ENGINE_OFFLOAD_NONE)
			eng_ex_line(x, N_("  offload %s: the GPU keeps only the gradients the backward makes at once (one layer's, or at "
					  "its start the LM head's and the last layer's MLP's), on their way to the host"),
				    engine_offload_name(sc->offload));
		if (train && sc->kernels == ENGINE_KERNELS_FUSED && sc->grad_dtype == ENGINE_DT_AUTO &&
		    by.grad_dt == ENGINE_DT_FP32 && by.weight_dt != ENGINE_DT_FP32)
			eng_ex_line(x, N_("  Megatron-LM accumulates bf16 parameters' gradients in an fp32 buffer, param.main_grad "
					  "(accumulate_allreduce_grads_in_fp32, on for --bf16); its distributed optimizer (zero 1) "
					  "shards the master and the states, not this buffer (docs/distrib_optimizer.md: 6 + 12/d B)"));
		eng_ex_line(x, N_("  source   ZeRO (Rajbhandari et al. 2019): 2Ψ bytes for 16-bit gradients"));
	} else {
		eng_ex_head(x, key, N_("the optimizer's per-parameter state"));
		switch (sc->optimizer) {
		case ENGINE_OPT_ADAMW:
		case ENGINE_OPT_ADAM:
			eng_ex_line(x, N_("  %s keeps two moments m and v per parameter, %g B each (%s)"), engine_optimizer_name(sc->optimizer),
				    eng_ex_dtype_bytes(by.state_dt), engine_dtype_prose(by.state_dt, x->tr));
			break;
		case ENGINE_OPT_SGD: eng_ex_line(x, N_("  plain SGD keeps no state")); break;
		case ENGINE_OPT_SGD_MOMENTUM:
		case ENGINE_OPT_LION:
			eng_ex_line(x, N_("  %s keeps one momentum per parameter, %g B (%s)"), engine_optimizer_name(sc->optimizer),
				    eng_ex_dtype_bytes(by.state_dt), engine_dtype_prose(by.state_dt, x->tr));
			break;
		case ENGINE_OPT_ADAM_8BIT:
			eng_ex_line(x, N_("  8-bit Adam keeps m and v in 1 byte each, plus an fp32 scale per 2048-value block: "
				"2 × (1 + 4/2048) = %.5f B"), by.state_bytes);
			break;
		case ENGINE_OPT_ADAFACTOR:
			eng_ex_line(x, N_("  Adafactor factors the second moment: a matrix [r, c] keeps r + c numbers, not r·c "
				"(no first moment)"));
			break;
		default: break;
		}
		eng_ex_line(x, N_("  formula  params on this GPU × state bytes per parameter%s"), sc->zero >= 1 ? EX_(x, N_(" ÷ dp (ZeRO-1 and up)")) : "");
		eng_ex_line(x, N_("  values   %s × %.4g bytes%s%s = %s"), CNT(r->params.per_gpu, a), r->memory.state_bytes_per_param,
			    sc->zero >= 1 ? " ÷ " : "", sc->zero >= 1 ? CNT(dp, b) : "", GIB(r->memory.optimizer, c));
		if (!train)
			eng_ex_line(x, N_("  inference keeps no optimizer state"));
		if (r->memory.autocast_bytes_per_param > 0)
			eng_ex_line(x, N_("  per parameter, unsharded: %.4g B = weights %g + autocast copies %.4g + gradients %g + "
				"master %g + states %.4g"),
				    r->memory.bytes_per_param, by.w, r->memory.autocast_bytes_per_param, by.g, by.master,
				    r->memory.state_bytes_per_param);
		else
			eng_ex_line(x, N_("  per parameter, unsharded: %.4g B = weights %g + gradients %g + master %g + states %.4g%s"),
				    r->memory.bytes_per_param, by.w, by.g, by.master, r->memory.state_bytes_per_param,
				    fabs(r->memory.bytes_per_param - 16.0) >= 1e-9 ? ""
				    /* the chapter's 16 is FP32 AdamW: weights 4 + gradients 4 + moments 4 + 4, no master */
				    : by.master == 0 ? EX_(x, N_("  (the chapter's 16 bytes per parameter)"))
						     : EX_(x, N_("  (the same total as the chapter's 16 bytes per parameter, other parts: its "
								"FP32 AdamW is 4 + 4 + 4 + 4, no master)")));
		eng_ex_line(x, N_("  source   Kingma & Ba 2015; Loshchilov & Hutter 2019; Dettmers et al. 2022; Shazeer & Stern 2018; "
			"ZeRO stage 1 (Rajbhandari et al. 2019)"));
	}
}

void eng_ex_activations(struct eng_ex *x, const struct engine_scenario *sc, const struct engine_result *r)
{
	struct eng_bytes by;
	struct eng_dims dm;
	char a[NB], b[NB];
	double s = (double)sc->seq, bt = (double)sc->batch, t = (double)sc->tp;

	eng_bytes(sc, &by);
	eng_dims_from_model(&sc->model, &dm);
	eng_ex_head(x, "memory.activations", N_("tensors kept from the forward pass for the backward"));
	if (!sc->activations) {
		eng_ex_line(x, N_("  not counted (activations = off): the napkin estimate that ignores them"));
		return;
	}
	if (sc->mode == ENGINE_MODE_INFER) {
		eng_ex_line(x, N_("  inference keeps nothing for a backward pass: this is one layer's transient working set"));
		eng_ex_line(x, N_("  formula  e·b·prompt·(2d + max(qkv width, MLP width))%s"), sc->flash_attention ? "" : " + e·heads·b·prompt² (scores)");
		eng_ex_line(x, N_("  result   %s"), GIB(r->memory.activations, a));
		return;
	}
	if (sc->kernels == ENGINE_KERNELS_FUSED) {
		eng_ex_line(x, N_("  kernels fused (Megatron-LM, TE, Apex): Korthikanti et al. 2022, table 2, per layer (16-bit, "
			"1-byte dropout masks): s·b·h·(34 + 5·a·s/h)"));
		eng_ex_line(x, N_("  napkin counts the same tensors for this architecture (e = %g B, %s), one layer, one micro-batch:"),
			    by.act, engine_dtype_prose(by.activation_dt, x->tr));
	} else {
		eng_ex_line(x, N_("  kernels eager (PyTorch modules as Hugging Face writes them; measured on PyTorch steps): "
			"RMSNorm keeps its fp32 upcast, softmax keeps fp32, repeat_kv expands K and V"));
		if (sc->precision == ENGINE_PREC_AMP_BF16 || sc->precision == ENGINE_PREC_AMP_FP16)
			eng_ex_line(x, N_("  per tensor (e = %g B, %s; autocast: fp32 residual stream, a cast per linear), one "
					  "layer, one micro-batch:"),
				    by.act, engine_dtype_prose(by.activation_dt, x->tr));
		else
			eng_ex_line(x, N_("  per tensor (e = %g B, %s), one layer, one micro-batch:"), by.act,
				    engine_dtype_prose(by.activation_dt, x->tr));
	}
	{
		struct eng_act_parts p;
		char c[NB], val[NB], lab[48];
		bool amp = sc->precision == ENGINE_PREC_AMP_BF16 || sc->precision == ENGINE_PREC_AMP_FP16;
/* a tensor's row label, translated and padded to 10 display columns (a CJK character is two) */
#define ROW(label) util_text_pad(lab, sizeof lab, EX_(x, (label)), 10)
/* a tensor's bytes right-aligned in 9 columns ("2.00 GiB" under "256.0 KiB"): the descriptions line up */
#define VAL(v) (GIB((v), c), snprintf(val, sizeof val, "%9s", c), val)
		eng_layer_activations(sc, &dm, by.act, bt, sc->recompute == ENGINE_RECOMP_SELECTIVE, &p);
		eng_ex_line(x, N_("    %-10s %s   what the two norms keep and the QKV/MLP inputs%s"), ROW(N_("norms")), VAL(p.norms_inputs),
			    sc->sequence_parallel && sc->tp > 1 ? EX_(x, N_(" ÷ t (sequence parallel)")) : "");
		if (p.casts > 0)
			eng_ex_line(x, N_("    %-10s %s   autocast's 16-bit cast of a norm's output for each linear"), ROW(N_("casts")),
				    VAL(p.casts));
		if (p.stats > 0)
			eng_ex_line(x, N_("    %-10s %s   the norms' fp32 statistics per row (1/rms; LayerNorm also the mean)"), ROW(N_("stats")),
				    VAL(p.stats));
		if (dm.dropout)
			eng_ex_line(x, N_("    %-10s %s   two 1-byte dropout masks: 2·s·b·d"), ROW(N_("masks")), VAL(p.masks));
		eng_ex_line(x, N_("    %-10s %s   Q, K, V: %s"), "qkv", VAL(p.qkv),
			    sc->kernels == ENGINE_KERNELS_EAGER ? EX_(x, N_("e·s·b·3·nh·dh/t (repeat_kv: K and V at every head)"))
								: "e·s·b·(nh + 2·nkv)·dh/t");
		eng_ex_line(x, N_("    %-10s %s   attention output: e·s·b·nh·dh/t"), ROW(N_("attn out")), VAL(p.attn_out));
		eng_ex_line(x, N_("    %-10s %s   %s%s"), "mlp", VAL(p.mlp),
			    !dm.gated ? EX_(x, N_("fc1 output, activation output: 2·e·s·b·f/t"))
			    : sc->kernels == ENGINE_KERNELS_EAGER ? EX_(x, N_("gate, up, act(gate), product: 4·e·s·b·f/t"))
								  : EX_(x, N_("gate, up, product (fused SwiGLU): 3·e·s·b·f/t")),
			    dm.E > 1 ? " × top-k" : "");
		if (sc->recompute == ENGINE_RECOMP_SELECTIVE)
			eng_ex_line(x, N_("    %-10s %s   recomputed (selective recomputation)"), ROW(N_("scores")), VAL(p.scores));
		else if (sc->flash_attention)
			eng_ex_line(x, N_("    %-10s %s   FlashAttention keeps only a log-sum-exp: 4·s·b·nh/t"), ROW(N_("scores")), VAL(p.scores));
		else if (sc->kernels == ENGINE_KERNELS_EAGER && !amp && dm.layernorm)
			/* nanoGPT's / Hugging Face's GPT-2 softmax without autocast (activations.c) */
			eng_ex_line(x, N_("    %-10s %s   softmax output e·nh·s²·b/t (GPT-2's softmax runs in the input's dtype "
					  "without autocast)%s"), ROW(N_("scores")), VAL(p.scores),
				    dm.dropout ? EX_(x, N_(" + dropout mask and output")) : "");
		else
			eng_ex_line(x, N_("    %-10s %s   softmax output %s·nh·s²·b/t%s"), ROW(N_("scores")), VAL(p.scores),
				    sc->kernels == ENGINE_KERNELS_EAGER ? EX_(x, N_("(4 + its 16-bit copy)")) : "e",
				    dm.dropout ? EX_(x, N_(" + dropout mask and output")) : "");
	}
#undef ROW
#undef VAL
	eng_ex_line(x, N_("  values   s = %.0f, b = %.0f, d = %.0f, nh = %.0f, nkv = %.0f, dh = %.0f, f = %.0f, t = %.0f"), s, bt, dm.d,
		    dm.nh, dm.nkv, dm.dh, dm.f, t);
	eng_ex_line(x, N_("           one layer, one micro-batch: %s"), GIB(r->memory.activations_per_layer, a));
	if (sc->recompute == ENGINE_RECOMP_SELECTIVE_OP) {
		char c[NB];
		eng_ex_line(x, N_("  selective-op (torchtitan) keeps each layer's input, the outputs of every second matmul "
				  "(a Llama layer: q, v, gate, down) and attention's output: %s a layer; it recomputes the rest in the "
				  "backward, one layer at a time"),
			    GIB(eng_layer_selective_op(sc, &dm, by.act, bt), c));
	} else if (sc->recompute == ENGINE_RECOMP_FULL && sc->recompute_layers > 1 &&
		   sc->recompute_method == ENGINE_RCM_UNIFORM)
		eng_ex_line(x, N_("  recompute_layers %lld, uniform (Megatron): one checkpoint at the input of each chunk of "
				  "that many layers, the chunk recomputed whole in the backward; per layer is the average"),
			    (long long)sc->recompute_layers);
	else if (sc->recompute == ENGINE_RECOMP_FULL && sc->recompute_layers > 0 &&
		 sc->recompute_method != ENGINE_RCM_UNIFORM && (double)sc->recompute_layers < r->memory.layers_per_stage)
		eng_ex_line(x, N_("  recompute_layers %lld: that many of a stage's %g layers keep only their input (the "
				  "residual stream, s·b·d), the others keep everything; per layer is their average (%s)"),
			    (long long)sc->recompute_layers, r->memory.layers_per_stage,
			    sc->recompute_method == ENGINE_RCM_EVERY ? EX_(x, N_("every k-th, torchtitan"))
								   : EX_(x, N_("the first ones, Megatron's block")));
	else if (sc->recompute == ENGINE_RECOMP_FULL)
		eng_ex_line(x, N_("  full recomputation keeps only each layer's input (the residual stream, s·b·d) and recomputes "
			"one layer at a time: %g %s × %g %s × input + one layer less its input"), r->memory.inflight_microbatches,
			    util_plural(r->memory.inflight_microbatches, EX_(x, N_("micro-batch")), EX_(x, N_("micro-batches"))), r->memory.layers_per_stage,
			    util_plural(r->memory.layers_per_stage, EX_(x, N_("layer")), EX_(x, N_("layers"))));
	else
		eng_ex_line(x, N_("  stage    %g %s in flight × %g %s × per layer%s"), r->memory.inflight_microbatches,
			    util_plural(r->memory.inflight_microbatches, EX_(x, N_("micro-batch")), EX_(x, N_("micro-batches"))), r->memory.layers_per_stage,
			    util_plural(r->memory.layers_per_stage, EX_(x, N_("layer")), EX_(x, N_("layers"))),
			    sc->pp > 1 ? EX_(x, N_(" (1F1B: the first stage holds min(p, m) micro-batches)")) : "");
	eng_ex_line(x, N_("  result   %s (%s)"), GIB(r->memory.activations, a), GB(r->memory.activations, b));
	eng_ex_line(x, N_("  source   Korthikanti et al. 2022 §4 and table 2; Dao et al. 2022 (FlashAttention); measured "
		"PyTorch steps"));
}

void eng_ex_simple_mem(struct eng_ex *x, const struct engine_scenario *sc, const struct engine_result *r, const char *key)
{
	struct eng_bytes by;
	struct eng_dims dm;
	char a[NB], b[NB], c[NB];

	eng_bytes(sc, &by);
	eng_dims_from_model(&sc->model, &dm);
	if (strcmp(key, "memory.logits") == 0) {
		eng_ex_head(x, key, N_("the final norm, the LM head's input, the logits and what the loss keeps"));
		if (sc->mode != ENGINE_MODE_TRAIN)
			eng_ex_line(x, N_("  formula  b·V/t·(e + 4): the last position's logits and the sampler's fp32 softmax"));
		else if (sc->loss == ENGINE_LOSS_CHUNKED)
			eng_ex_line(x, N_("  formula  loss chunked (Liger Kernel's fused linear cross-entropy): no logits, the LM head "
				"and the loss a chunk of tokens at a time; kept: the final norm and the hidden states' gradient "
				"(s·b·d), made in the forward; the head weight's gradient and one chunk's logits (16-bit and "
				"fp32) are the step's scratch at the end of the forward"));
		else if (sc->kernels == ENGINE_KERNELS_EAGER) {
			bool amp = sc->precision == ENGINE_PREC_AMP_BF16 || sc->precision == ENGINE_PREC_AMP_FP16;
			eng_ex_line(x, N_("  formula  s·b·V/t·(e + log-probs): the logits the loop keeps (alive at the peak) and "
				"F.cross_entropy's log-probabilities (fp32 under autocast), + the final norm and LM head inputs"));
			if (!amp && !dm.layernorm && by.act < 4.0)
				eng_ex_line(x, N_("  Hugging Face's loss (ForCausalLMLoss) upcasts the logits to fp32 first: fp32 "
					"log-probabilities, two fp32 gradients at the start of the backward, and the fp32 copy "
					"alive while log_softmax runs"));
		} else
			eng_ex_line(x, N_("  formula  s·b·V/t·4: the fused cross-entropy's fp32 softmax (the logits are not kept), "
				"+ the final norm and LM head inputs"));
		eng_ex_line(x, N_("  values   s = %lld, b = %lld, V = %.0f, t = %lld, e = %g B"),
			    (long long)(sc->mode == ENGINE_MODE_TRAIN ? sc->seq : 1), (long long)sc->batch, dm.V,
			    (long long)sc->tp, by.act);
		eng_ex_line(x, N_("  result   %s"), GIB(r->memory.logits, a));
		eng_ex_line(x, N_("  source   log_softmax keeps its output; Megatron's vocab_parallel_cross_entropy its fp32 "
			"softmax; measured PyTorch steps"));
	} else if (strcmp(key, "memory.peak") == 0 || strcmp(key, "memory.scratch") == 0) {
		eng_ex_head(x, "memory.peak", N_("the most a training step holds at one moment, and when"));
		eng_ex_line(x, N_("  the larger of: the end of the forward, the start of the backward (the loss's gradients), "
			"the last layer's attention backward, the tied embedding's gradient sum, the optimizer step "
			"(every gradient; foreach AdamW's buffer)"));
		eng_ex_line(x, N_("  result   %s, %s; the step's scratch at its largest %s"), GIB(r->memory.peak, a),
			    EX_(x, engine_peak_phase_text(r->memory.peak_phase)), GIB(r->memory.scratch, b));
		eng_ex_line(x, N_("  the logits %s at the peak; the total (%s) has every part at once"),
			    r->memory.logits_alive ? EX_(x, N_("are alive")) : EX_(x, N_("are not kept")), GIB(r->memory.total, c));
		eng_ex_line(x, N_("  source   measured PyTorch steps (an allocator shim counting live bytes: the CPU's "
			"torch.cuda.max_memory_allocated)"));
	} else if (strcmp(key, "memory.kv_cache") == 0) {
		eng_ex_head(x, key, N_("keys and values of every past token, so decoding never recomputes them"));
		eng_ex_line(x, N_("  formula  2 · layers · batch · context · kv_heads · head_dim · bytes ÷ (tp·pp)"));
		eng_ex_line(x, N_("  values   2 · %.0f · %.4g · %.0f · %.0f · %.0f · %g B ÷ %lld"), dm.L,
			    sc->mode == ENGINE_MODE_INFER ? r->memory.kv_sequences : (double)sc->batch,
			    sc->mode == ENGINE_MODE_INFER && sc->serve_engine != ENGINE_SERVE_NONE ? r->serving.held_tokens
												     : (double)(sc->prompt + sc->generate),
			    dm.nkv, dm.dh, by.kv, (long long)(sc->tp * sc->pp));
		if (dm.nkv < dm.nh)
			eng_ex_line(x, N_("  uses the KV heads (%.0f), not the query heads (%.0f): %s shrinks the cache %.0f×"), dm.nkv,
				    dm.nh, dm.nkv == 1 ? "MQA" : "GQA", dm.nh / dm.nkv);
		else
			eng_ex_line(x, N_("  uses the KV heads (%.0f), as many as the query heads: multi-head attention, no GQA saving"),
				    dm.nkv);
		if (sc->mode == ENGINE_MODE_INFER && sc->rate > 0)
			eng_ex_line(x, N_("  batch    under an open load (rate), the sequences the engine holds on average (its limit "
					  "when saturated), not the batch knob"));
		else if (sc->mode == ENGINE_MODE_INFER && sc->serve_engine != ENGINE_SERVE_NONE)
			eng_ex_line(x, N_("  batch    the sequences the engine runs (at most its limit; the users beyond wait outside), "
					  "each the tokens it holds on average: its blocks booked whole, or filled as it goes"));
		if (sc->mode == ENGINE_MODE_INFER && r->serving.prefix_tokens > 0)
			eng_ex_line(x, N_("  prefix   the cached prefix's whole blocks (of %.0f tokens) held once, not once a sequence "
					  "(prefix_hit)"),
				    r->serving.prefix_tokens);
		if (sc->mode == ENGINE_MODE_INFER && r->serving.speculative != ENGINE_SPEC_NONE)
			eng_ex_line(x, N_("  drafter  + %lld lookahead slots a sequence and the drafter's KV, %s a token"),
				    (long long)sc->spec_tokens, GIB(r->serving.spec_kv_bytes_per_token, b));
		eng_ex_line(x, N_("  result   %s%s"), GIB(r->memory.kv_cache, a), sc->mode == ENGINE_MODE_TRAIN ? EX_(x, N_(" (training keeps no KV cache)")) : "");
		eng_ex_line(x, N_("  source   Pope et al. 2022, \"Efficiently Scaling Transformer Inference\""));
	} else if (strcmp(key, "memory.overhead") == 0) {
		eng_ex_head(x, key, N_("the CUDA context and library workspaces (cuBLAS, NCCL) each process holds"));
		eng_ex_line(x, N_("  value    %s, from the GPU profile (napkin probe measures it on a real GPU)"), GIB(r->memory.overhead, a));
	} else if (strcmp(key, "memory.total") == 0 || strcmp(key, "memory.headroom") == 0 ||
		   strcmp(key, "memory.capacity") == 0) {
		eng_ex_head(x, "memory.total", N_("everything on the busiest GPU, against one card's capacity"));
		eng_ex_line(x, N_("  weights %s + master %s + gradients %s"), GIB(r->memory.weights, a), GIB(r->memory.master, b),
			    GIB(r->memory.gradients, c));
		if (r->memory.autocast_copies > 0)
			eng_ex_line(x, N_("  + autocast copies %s"), GIB(r->memory.autocast_copies, a));
		eng_ex_line(x, N_("  + optimizer %s + activations %s + logits %s"), GIB(r->memory.optimizer, a),
			    GIB(r->memory.activations, b), GIB(r->memory.logits, c));
		eng_ex_line(x, N_("  + step scratch %s + KV cache %s + overhead %s"), GIB(r->memory.scratch, c),
			    GIB(r->memory.kv_cache, a), GIB(r->memory.overhead, b));
		eng_ex_line(x, N_("  = %s of %s (%s): %s"), GIB(r->memory.total, a), GIB(r->memory.capacity, b), GB(r->memory.capacity, c),
			    r->memory.fits ? EX_(x, N_("fits")) : EX_(x, N_("DOES NOT FIT")));
		eng_ex_line(x, N_("  headroom %s"), GIB(r->memory.headroom, a));
		eng_ex_line(x, N_("  capacity is one card's, never a sum over cards; GiB = 2^30 bytes, GB = 10^9"));
	}
}

void eng_ex_solves(struct eng_ex *x, const struct engine_scenario *sc, const struct engine_result *r, const char *key)
{
	char a[NB];

	if (strcmp(key, "memory.max_batch") == 0) {
		eng_ex_head(x, key, N_("the largest micro-batch that fits"));
		eng_ex_line(x, N_("  memory is affine in the batch (activations, logits and KV cache grow with it):"));
		eng_ex_line(x, N_("  total(b) = fixed + b × per-sequence; the largest b with total(b) ≤ capacity"));
		engine_fmt_max_batch(r->memory.max_batch, a, sizeof a);
		/* a: "no limit from memory", "none fits" (msgids), or the count */
		if (r->memory.max_batch == ENGINE_NO_LIMIT)
			eng_ex_line(x, N_("  result   %s (at %lld now): nothing counted in memory grows with the batch, or more "
					  "than the knob's 10,000,000 fit"),
				    EX_(x, a), (long long)sc->batch);
		else if (r->memory.max_batch == 0)
			eng_ex_line(x, N_("  result   %s (at %lld now): not even one sequence fits"), EX_(x, a), (long long)sc->batch);
		else
			eng_ex_line(x, N_("  result   %s (at %lld now)"), a, (long long)sc->batch);
	} else if (strcmp(key, "memory.min_gpus") == 0) {
		eng_ex_head(x, key, N_("the fewest GPUs at which this fits"));
		eng_ex_line(x, N_("  keeps the ZeRO stage (%lld) and the micro-batch; searches TP (dividing the heads, within a node "
			"of %lld) and PP (dividing the layers), and the data-parallel degree ZeRO needs"),
		     (long long)sc->zero, (long long)sc->gpus_per_node);
		if (sc->cp > 1 || sc->ep > 1)
			eng_ex_line(x, N_("  keeps cp %lld (its ranks are GPUs: tp × pp × cp × dp) and ep %lld (dp a multiple of it); the "
					  "layout found validates as a scenario"),
				    (long long)sc->cp, (long long)sc->ep);
		/* virtual stages split a pipeline's stages: none to split at pp 1 (solve.c) */
		if (sc->vpp > 1)
			eng_ex_line(x, N_("  keeps vpp %lld where the layout has a pipeline (pp ≥ 2, pp × vpp ≤ %lld layers); at pp 1 there "
					  "are no stages to interleave and the layout runs with vpp 1"),
				    (long long)sc->vpp, (long long)sc->model.layers);
		if (r->memory.min_gpus > 0 && sc->cp > 1)
			eng_ex_line(x, N_("  result   %lld %s = tp %lld × pp %lld × cp %lld × dp %lld"), (long long)r->memory.min_gpus,
				    util_plural((double)r->memory.min_gpus, EX_(x, N_("GPU")), EX_(x, N_("GPUs"))),
				    (long long)r->memory.min_gpus_tp, (long long)r->memory.min_gpus_pp, (long long)sc->cp,
				    (long long)r->memory.min_gpus_dp);
		else if (r->memory.min_gpus > 0)
			eng_ex_line(x, N_("  result   %lld %s = tp %lld × pp %lld × dp %lld"), (long long)r->memory.min_gpus,
				    util_plural((double)r->memory.min_gpus, EX_(x, N_("GPU")), EX_(x, N_("GPUs"))),
				    (long long)r->memory.min_gpus_tp, (long long)r->memory.min_gpus_pp, (long long)r->memory.min_gpus_dp);
		else
			eng_ex_line(x, N_("  result   none up to 1,048,576 GPUs (a ZeRO stage or recomputation may help)"));
	} else {
		eng_ex_head(x, key, N_("the largest model of this shape that fits"));
		eng_ex_line(x, N_("  scales depth and width together (layers, hidden, ffn, heads), keeping the vocabulary, head size "
			"and every other knob"));
		if (r->memory.max_params > 0)
			eng_ex_line(x, N_("  result   %s parameters"), CNT(r->memory.max_params, a));
		else
			eng_ex_line(x, N_("  result   none fits: not even the smallest model of this shape"));
		eng_ex_line(x, N_("  (CS336, lecture 2: 8 GPUs × 80 GB ÷ 16 bytes per parameter = 4.0e10, ignoring activations)"));
	}
}
