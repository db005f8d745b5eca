/*
 * Every result explains itself: what it is, the formula, the formula with today's values,
 * the result, and the source. Text only (snprintf into the caller's buffer): the front
 * ends decide how to show it.
 */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "internal.h"

struct ex {
	char *buf;
	size_t n, pos;
};

static void line(struct ex *x, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void line(struct ex *x, const char *fmt, ...)
{
	va_list ap;
	int w;

	if (x->n == 0 || x->pos >= x->n - 1)
		return;
	va_start(ap, fmt);
	w = vsnprintf(x->buf + x->pos, x->n - x->pos, fmt, ap);
	va_end(ap);
	if (w < 0)
		return;
	x->pos = (size_t)w >= x->n - x->pos ? x->n - 1 : x->pos + (size_t)w;
	if (x->pos < x->n - 1) {
		x->buf[x->pos++] = '\n';
		x->buf[x->pos] = '\0';
	}
}

/* Number formatting into short-lived local buffers. */
#define NB 48
#define GIB(v, b) (engine_fmt_bytes((v), true, (b), NB), (b))
#define GB(v, b) (engine_fmt_bytes((v), false, (b), NB), (b))
#define CNT(v, b) (engine_fmt_count((v), (b), NB), (b))
#define SI(v, u, b) (engine_fmt_si((v), (u), (b), NB), (b))
#define SECS(v, b) (engine_fmt_seconds((v), (b), NB), (b))

static const char *dtn(int dt)
{
	return dt < 0 ? "none" : engine_dtype_info((enum engine_dtype)dt)->name;
}

static double dtb(int dt)
{
	return dt < 0 ? 0.0 : engine_dtype_info((enum engine_dtype)dt)->bytes;
}

static void head(struct ex *x, const char *key, const char *title)
{
	line(x, "%s: %s", key, title);
}

static void ex_params(struct ex *x, const struct engine_scenario *sc, const struct engine_result *r, bool active)
{
	struct eng_dims dm;
	struct eng_layer_params lp;
	char a[NB], b[NB], c[NB], d[NB], e[NB];
	double final_norm;

	eng_dims_from_model(&sc->model, &dm);
	eng_layer_params(&dm, &lp);
	final_norm = dm.layernorm ? 2.0 * dm.d : dm.d;
	head(x, active ? "model.params_active" : "model.params_total",
	     active ? "parameters each token passes through" : "parameters of the model");
	line(x, "  per layer  attention d·(nh·dh) + 2·d·(nkv·dh) + (nh·dh)·d = %.0f·%.0f + 2·%.0f·%.0f + %.0f·%.0f = %s",
	     dm.d, dm.nh * dm.dh, dm.d, dm.nkv * dm.dh, dm.nh * dm.dh, dm.d, CNT(lp.attn_w, a));
	if (lp.attn_b_col + lp.attn_b_row > 0)
		line(x, "             attention biases = %s", CNT(lp.attn_b_col + lp.attn_b_row, a));
	line(x, "             MLP %s %.0f·d·f = %.0f·%.0f·%.0f = %s%s", dm.gated ? "gated" : "plain", dm.gated ? 3.0 : 2.0,
	     dm.gated ? 3.0 : 2.0, dm.d, dm.f, CNT(lp.mlp_w, a),
	     dm.E > 1 ? (active ? " per expert, top-k of them" : " per expert") : "");
	if (dm.E > 1)
		line(x, "             %s: %.0f × MLP + router d·E = %s", active ? "routed experts" : "experts",
		     active ? dm.k : dm.E, CNT((active ? dm.k : dm.E) * (lp.mlp_w + lp.mlp_b_col + lp.mlp_b_row) + lp.router, a));
	if (lp.mlp_b_col + lp.mlp_b_row > 0)
		line(x, "             MLP biases = %s", CNT(lp.mlp_b_col + lp.mlp_b_row, a));
	line(x, "             2 %s = %s", dm.layernorm ? "LayerNorms (weight and bias) 2·2d" : "RMSNorms 2·d", CNT(lp.norms, a));
	line(x, "  layers     %.0f × %s = %s", dm.L, CNT(active ? lp.active : lp.total, a),
	     CNT(dm.L * (active ? lp.active : lp.total), b));
	line(x, "  embedding  V·d = %.0f·%.0f = %s%s", dm.V, dm.d, CNT(dm.V * dm.d, c),
	     dm.learned ? " (+ learned positions P·d)" : "");
	if (dm.learned)
		line(x, "             positions P·d = %.0f·%.0f = %s", dm.P, dm.d, CNT(dm.P * dm.d, c));
	line(x, "  final norm %s", CNT(final_norm, d));
	line(x, "  LM head    %s", dm.tied ? "tied to the embedding (no new parameters; still a V·d matmul)" : CNT(dm.V * dm.d, e));
	line(x, "  total      %s = %.0f", CNT(active ? r->params.active : r->params.total, a),
	     active ? r->params.active : r->params.total);
	if (!active && sc->model.params_published > 0)
		line(x, "  published  %.0f (%s)", sc->model.params_published,
		     fabs(sc->model.params_published - r->params.total) < 0.5 ? "exact match" : "differs");
	line(x, "  non-embedding (Kaplan's N) %s", CNT(r->params.non_embedding, a));
	line(x, "  source: the modules of the Hugging Face implementation; %s", sc->model.source[0] ? sc->model.source : "DESIGN.md formulas");
}

static void ex_weights(struct ex *x, const struct engine_scenario *sc, const struct engine_result *r)
{
	struct eng_bytes by;
	char a[NB], b[NB];
	double dp = (double)r->dp;
	bool z3 = sc->mode == ENGINE_MODE_TRAIN && sc->zero >= 3;

	eng_bytes(sc, &by);
	head(x, "memory.weights", "the parameters on one GPU");
	line(x, "  formula  params on this GPU × bytes per weight%s", z3 ? " ÷ dp (ZeRO-3)" : "");
	line(x, "  values   %s × %g B (%s)%s%s", CNT(r->params.per_gpu, a), by.w, dtn(by.weight_dt), z3 ? " ÷ " : "",
	     z3 ? CNT(dp, b) : "");
	if (by.autocast_copy > 0)
		line(x, "           + autocast's %g-byte copies of the matmul weights, kept for the backward", by.autocast_copy);
	if (r->memory.zero3_buffer > 0)
		line(x, "           + one layer gathered to compute (ZeRO-3): %s", GIB(r->memory.zero3_buffer, a));
	if (sc->tp > 1 || sc->pp > 1)
		line(x, "  params on this GPU: the model split %lld ways by TP (embedding, head and linears; norms "
			"replicated) and %lld by PP (the busiest stage)",
		     (long long)sc->tp, (long long)sc->pp);
	line(x, "  result   %s (%s)", GIB(r->memory.weights, a), GB(r->memory.weights, b));
	line(x, "  source   ZeRO (Rajbhandari et al. 2019): 2Ψ bytes for 16-bit parameters; Megatron-LM TP/PP layout");
}

static void ex_state(struct ex *x, const struct engine_scenario *sc, const struct engine_result *r, const char *key)
{
	struct eng_bytes by;
	char a[NB], b[NB], c[NB];
	bool train = sc->mode == ENGINE_MODE_TRAIN;
	double dp = (double)r->dp;

	eng_bytes(sc, &by);
	if (strcmp(key, "memory.master_weights") == 0) {
		head(x, key, "an fp32 copy of 16-bit weights, which the optimizer updates");
		line(x, "  formula  params on this GPU × %g B%s", by.master, sc->zero >= 1 ? " ÷ dp (ZeRO-1 and up)" : "");
		line(x, "  values   %s × %g B%s%s = %s", CNT(r->params.per_gpu, a), by.master, sc->zero >= 1 ? " ÷ " : "",
		     sc->zero >= 1 ? CNT(dp, b) : "", GIB(r->memory.master, c));
		if (by.master == 0)
			line(x, "  (recipe %s keeps no master copy: the weights are already %s)",
			     engine_precision_name(sc->precision), dtn(by.weight_dt));
		line(x, "  source   Micikevicius et al. 2018 (mixed precision); ZeRO's K = 12 includes it");
	} else if (strcmp(key, "memory.gradients") == 0) {
		head(x, key, "one gradient per parameter");
		line(x, "  formula  params on this GPU × bytes per gradient%s", sc->zero >= 2 ? " ÷ dp (ZeRO-2 and up)" : "");
		line(x, "  values   %s × %g B (%s)%s%s = %s", CNT(r->params.per_gpu, a), by.g, dtn(by.grad_dt),
		     sc->zero >= 2 ? " ÷ " : "", sc->zero >= 2 ? CNT(dp, b) : "", GIB(r->memory.gradients, c));
		if (!train)
			line(x, "  inference keeps no gradients");
		line(x, "  source   ZeRO (Rajbhandari et al. 2019): 2Ψ bytes for 16-bit gradients");
	} else {
		head(x, key, "the optimizer's per-parameter state");
		switch (sc->optimizer) {
		case ENGINE_OPT_ADAMW:
		case ENGINE_OPT_ADAM:
			line(x, "  %s keeps two moments m and v per parameter, %g B each (%s)", engine_optimizer_name(sc->optimizer),
			     dtb(by.state_dt), dtn(by.state_dt));
			break;
		case ENGINE_OPT_SGD: line(x, "  plain SGD keeps no state"); break;
		case ENGINE_OPT_SGD_MOMENTUM:
		case ENGINE_OPT_LION:
			line(x, "  %s keeps one momentum per parameter, %g B (%s)", engine_optimizer_name(sc->optimizer),
			     dtb(by.state_dt), dtn(by.state_dt));
			break;
		case ENGINE_OPT_ADAM_8BIT:
			line(x, "  8-bit Adam keeps m and v in 1 byte each, plus an fp32 scale per 2048-value block: "
				"2 × (1 + 4/2048) = %.5f B", by.state_bytes);
			break;
		case ENGINE_OPT_ADAFACTOR:
			line(x, "  Adafactor factors the second moment: a matrix [r, c] keeps r + c numbers, not r·c "
				"(no first moment)");
			break;
		default: break;
		}
		line(x, "  formula  params on this GPU × state bytes per parameter%s", sc->zero >= 1 ? " ÷ dp (ZeRO-1 and up)" : "");
		line(x, "  values   %s × %.4g B%s%s = %s", CNT(r->params.per_gpu, a), r->memory.state_bytes_per_param,
		     sc->zero >= 1 ? " ÷ " : "", sc->zero >= 1 ? CNT(dp, b) : "", GIB(r->memory.optimizer, c));
		if (!train)
			line(x, "  inference keeps no optimizer state");
		line(x, "  per parameter, unsharded: %.4g B = weights %g + gradients %g + master %g + states %.4g%s",
		     r->memory.bytes_per_param, by.w, by.g, by.master, r->memory.state_bytes_per_param,
		     fabs(r->memory.bytes_per_param - 16.0) < 1e-9 ? "  (the chapter's 16 bytes per parameter)" : "");
		line(x, "  source   Kingma & Ba 2015; Loshchilov & Hutter 2019; Dettmers et al. 2022; Shazeer & Stern 2018; "
			"ZeRO stage 1 (Rajbhandari et al. 2019)");
	}
}

static void ex_activations(struct ex *x, const struct engine_scenario *sc, const struct engine_result *r)
{
	struct eng_bytes by;
	struct eng_dims dm;
	char a[NB], b[NB];
	double s = (double)sc->seq, bt = (double)sc->batch, t = (double)sc->tp;

	eng_bytes(sc, &by);
	eng_dims_from_model(&sc->model, &dm);
	head(x, "memory.activations", "tensors kept from the forward pass for the backward");
	if (!sc->activations) {
		line(x, "  not counted (activations = off): the napkin estimate that ignores them");
		return;
	}
	if (sc->mode == ENGINE_MODE_INFER) {
		line(x, "  inference keeps nothing for a backward pass: this is one layer's transient working set");
		line(x, "  formula  e·b·prompt·(2d + max(qkv width, MLP width))%s", sc->flash_attention ? "" : " + e·heads·b·prompt² (scores)");
		line(x, "  result   %s", GIB(r->memory.activations, a));
		return;
	}
	line(x, "  Korthikanti et al. 2022, table 2, per layer (16-bit, 1-byte dropout masks): s·b·h·(34 + 5·a·s/h)");
	line(x, "  napkin counts the same tensors for this architecture (e = %g B, %s), one layer, one micro-batch:",
	     by.act, dtn(by.activation_dt));
	{
		struct eng_act_parts p;
		char c[NB];
		eng_layer_activations(sc, &dm, by.act, bt, sc->recompute == ENGINE_RECOMP_SELECTIVE, &p);
		line(x, "    %-10s %s   norm inputs and the QKV/MLP inputs: 4·e·s·b·d%s", "inputs", GIB(p.norms_inputs, c),
		     sc->sequence_parallel && sc->tp > 1 ? " ÷ t (sequence parallel)" : "");
		if (dm.dropout)
			line(x, "    %-10s %s   two 1-byte dropout masks: 2·s·b·d", "masks", GIB(p.masks, c));
		line(x, "    %-10s %s   Q, K, V: e·s·b·(nh + 2·nkv)·dh/t", "qkv", GIB(p.qkv, c));
		line(x, "    %-10s %s   attention output: e·s·b·nh·dh/t", "attn out", GIB(p.attn_out, c));
		line(x, "    %-10s %s   %s%s", "mlp", GIB(p.mlp, c),
		     dm.gated ? "gate, up, act(gate), product: 4·e·s·b·f/t" : "fc1 output, activation output: 2·e·s·b·f/t",
		     dm.E > 1 ? " × top-k" : "");
		if (sc->recompute == ENGINE_RECOMP_SELECTIVE)
			line(x, "    %-10s %s   recomputed (selective recomputation)", "scores", GIB(p.scores, c));
		else if (sc->flash_attention)
			line(x, "    %-10s %s   FlashAttention keeps only a log-sum-exp: 4·s·b·nh/t", "scores", GIB(p.scores, c));
		else
			line(x, "    %-10s %s   softmax output e·nh·s²·b/t%s", "scores", GIB(p.scores, c),
			     dm.dropout ? " + dropout mask and output" : "");
	}
	line(x, "  values   s = %.0f, b = %.0f, d = %.0f, nh = %.0f, nkv = %.0f, dh = %.0f, f = %.0f, t = %.0f", s, bt, dm.d,
	     dm.nh, dm.nkv, dm.dh, dm.f, t);
	line(x, "           one layer, one micro-batch: %s", GIB(r->memory.activations_per_layer, a));
	if (sc->recompute == ENGINE_RECOMP_FULL)
		line(x, "  full recomputation keeps only each layer's input (e·s·b·d) and recomputes one layer at a time: "
			"%g micro-batches × %g layers × input + one layer", r->memory.inflight_microbatches,
		     r->memory.layers_per_stage);
	else
		line(x, "  stage    %g micro-batch(es) in flight × %g layers × per layer%s", r->memory.inflight_microbatches,
		     r->memory.layers_per_stage, sc->pp > 1 ? " (1F1B: the first stage holds min(p, m) micro-batches)" : "");
	line(x, "  result   %s (%s)", GIB(r->memory.activations, a), GB(r->memory.activations, b));
	line(x, "  source   Korthikanti et al. 2022 §4 and table 2; Dao et al. 2022 (FlashAttention)");
}

static void ex_simple_mem(struct ex *x, const struct engine_scenario *sc, const struct engine_result *r, const char *key)
{
	struct eng_bytes by;
	struct eng_dims dm;
	char a[NB], b[NB], c[NB];

	eng_bytes(sc, &by);
	eng_dims_from_model(&sc->model, &dm);
	if (strcmp(key, "memory.logits") == 0) {
		head(x, key, "the LM head's output and what the loss keeps");
		line(x, "  formula  s·b·V/t·(e + 4): logits in the compute dtype and fp32 log-probabilities for cross-entropy, "
			"+ the final norm and LM head inputs");
		line(x, "  values   %lld·%lld·%.0f/%lld·(%g + 4)", (long long)(sc->mode == ENGINE_MODE_TRAIN ? sc->seq : 1),
		     (long long)sc->batch, dm.V, (long long)sc->tp, by.act);
		line(x, "  result   %s", GIB(r->memory.logits, a));
		line(x, "  source   Korthikanti et al. 2022 §4.3 (cross-entropy logits in 32 bits); PyTorch's "
			"F.cross_entropy keeps log_softmax's output");
	} else if (strcmp(key, "memory.kv_cache") == 0) {
		head(x, key, "keys and values of every past token, so decoding never recomputes them");
		line(x, "  formula  2 · layers · batch · context · kv_heads · head_dim · bytes ÷ (tp·pp)");
		line(x, "  values   2 · %.0f · %lld · %lld · %.0f · %.0f · %g B ÷ %lld", dm.L, (long long)sc->batch,
		     (long long)(sc->prompt + sc->generate), dm.nkv, dm.dh, by.kv, (long long)(sc->tp * sc->pp));
		line(x, "  uses the KV heads (%.0f), not the query heads (%.0f): GQA/MQA shrink the cache by %.0f×", dm.nkv, dm.nh,
		     dm.nh / dm.nkv);
		line(x, "  result   %s%s", GIB(r->memory.kv_cache, a), sc->mode == ENGINE_MODE_TRAIN ? " (training keeps no KV cache)" : "");
		line(x, "  source   Pope et al. 2022, \"Efficiently Scaling Transformer Inference\"");
	} else if (strcmp(key, "memory.overhead") == 0) {
		head(x, key, "the CUDA context and library workspaces (cuBLAS, NCCL) each process holds");
		line(x, "  value    %s, from the GPU profile (napkin probe measures it on a real GPU)", GIB(r->memory.overhead, a));
	} else if (strcmp(key, "memory.total") == 0 || strcmp(key, "memory.headroom") == 0 ||
		   strcmp(key, "memory.capacity") == 0) {
		head(x, "memory.total", "everything on the busiest GPU, against one card's capacity");
		line(x, "  weights %s + master %s + gradients %s", GIB(r->memory.weights, a), GIB(r->memory.master, b),
		     GIB(r->memory.gradients, c));
		line(x, "  + optimizer %s + activations %s + logits %s", GIB(r->memory.optimizer, a),
		     GIB(r->memory.activations, b), GIB(r->memory.logits, c));
		line(x, "  + KV cache %s + overhead %s", GIB(r->memory.kv_cache, a), GIB(r->memory.overhead, b));
		line(x, "  = %s of %s (%s): %s", GIB(r->memory.total, a), GIB(r->memory.capacity, b), GB(r->memory.capacity, c),
		     r->memory.fits ? "fits" : "DOES NOT FIT");
		line(x, "  headroom %s", GIB(r->memory.headroom, a));
		line(x, "  capacity is one card's, never a sum over cards; GiB = 2^30 bytes, GB = 10^9");
	}
}

static void ex_solves(struct ex *x, const struct engine_scenario *sc, const struct engine_result *r, const char *key)
{
	char a[NB];

	if (strcmp(key, "memory.max_batch") == 0) {
		head(x, key, "the largest micro-batch that fits");
		line(x, "  memory is affine in the batch (activations, logits and KV cache grow with it):");
		line(x, "  total(b) = fixed + b × per-sequence; the largest b with total(b) ≤ capacity");
		line(x, "  result   %lld (at %lld now)", (long long)r->memory.max_batch, (long long)sc->batch);
	} else if (strcmp(key, "memory.min_gpus") == 0) {
		head(x, key, "the fewest GPUs at which this fits");
		line(x, "  keeps the ZeRO stage (%lld) and the micro-batch; searches TP (dividing the heads, within a node "
			"of %lld) and PP (dividing the layers), and the data-parallel degree ZeRO needs",
		     (long long)sc->zero, (long long)sc->gpus_per_node);
		if (r->memory.min_gpus > 0)
			line(x, "  result   %lld GPUs = tp %lld × pp %lld × dp %lld", (long long)r->memory.min_gpus,
			     (long long)r->memory.min_gpus_tp, (long long)r->memory.min_gpus_pp, (long long)r->memory.min_gpus_dp);
		else
			line(x, "  result   none up to 1,048,576 GPUs (a ZeRO stage or recomputation may help)");
	} else {
		head(x, key, "the largest model of this shape that fits");
		line(x, "  scales depth and width together (layers, hidden, ffn, heads), keeping the vocabulary, head size "
			"and every other knob");
		line(x, "  result   %s parameters", CNT(r->memory.max_params, a));
		line(x, "  (the chapter: 8 GPUs × 80 GB ÷ 16 bytes per parameter = 40B, ignoring activations)");
	}
}

static void ex_flops(struct ex *x, const struct engine_scenario *sc, const struct engine_result *r, const char *key)
{
	struct eng_dims dm;
	char a[NB], b[NB], c[NB];
	const struct engine_compute *cp = &r->compute;

	eng_dims_from_model(&sc->model, &dm);
	if (strcmp(key, "compute.flops_per_token_forward") == 0 || strcmp(key, "compute.flops_per_token_6n") == 0) {
		head(x, "compute.flops_per_token_forward", "forward FLOPs per token");
		line(x, "  a matmul [M,K]×[K,N] costs 2·M·K·N FLOPs: every weight costs 2 FLOPs per token");
		line(x, "  formula  2 · matmul weights (LM head included) + 4·L·s·nh·dh (QKᵀ and AV)");
		line(x, "  values   2 · %s + 4·%.0f·%lld·%.0f·%.0f = %s + %s", CNT(r->params.matmul_active, a), dm.L,
		     (long long)sc->seq, dm.nh, dm.dh, SI(2.0 * r->params.matmul_active, "FLOP", b),
		     SI(cp->attention_flops_per_token, "FLOP", c));
		line(x, "  result   %s per token", SI(cp->flops_per_token_forward, "FLOP", a));
		line(x, "  beside   the shorthand 2·N = %s, 6·N = %s per training token (N = %s)", SI(cp->flops_per_token_6n / 3.0, "FLOP", a),
		     SI(cp->flops_per_token_6n, "FLOP", b), CNT(r->params.active, c));
		line(x, "  source   Kaplan et al. 2020 §2.1; PaLM appendix B (Chowdhery et al. 2022)");
	} else {
		head(x, "compute.flops_per_token_train", "training FLOPs per token");
		line(x, "  forward %s + backward (twice the forward) %s = %s (model FLOPs)", SI(cp->flops_per_token_forward, "FLOP", a),
		     SI(cp->flops_per_token_backward, "FLOP", b), SI(cp->flops_per_token_train, "FLOP", c));
		line(x, "  forward : backward = 1 : 2 (the backward computes gradients for inputs and for weights)");
		if (cp->flops_per_token_hw > cp->flops_per_token_train)
			line(x, "  recomputation adds %s: hardware FLOPs %s (counted in HFU, not MFU)",
			     SI(cp->flops_per_token_hw - cp->flops_per_token_train, "FLOP", a), SI(cp->flops_per_token_hw, "FLOP", b));
		line(x, "  6·N shorthand: %s (%+.1f%%)", SI(cp->flops_per_token_6n, "FLOP", a),
		     100.0 * (cp->flops_per_token_6n / cp->flops_per_token_train - 1.0));
		line(x, "  source   Kaplan et al. 2020; Korthikanti et al. 2022 appendix A; Dao et al. 2022");
	}
}

static void ex_time(struct ex *x, const struct engine_scenario *sc, const struct engine_result *r, const char *key)
{
	const struct engine_compute *cp = &r->compute;
	char a[NB], b[NB], c[NB], d[NB];

	(void)key;
	head(x, "compute.train_seconds", "how long the training run takes");
	line(x, "  formula  time = tokens × FLOPs per token ÷ (GPUs × peak × MFU)");
	if (cp->source == ENGINE_TPUT_MFU)
		line(x, "  values   %s × %s ÷ (%lld × %s × %.3g)", CNT(sc->tokens, a), SI(cp->flops_per_token_used, "FLOP", b),
		     (long long)sc->gpus, SI(cp->peak, "FLOP/s", c), cp->mfu);
	else
		line(x, "  values   %s tokens ÷ %s (measured throughput)", CNT(sc->tokens, a),
		     SI(cp->tokens_per_s, "tokens/s", b));
	line(x, "           = %s ÷ %s", SI(cp->train_flops, "FLOP", a), SI((double)sc->gpus * cp->peak * cp->mfu, "FLOP/s", b));
	line(x, "  result   %s = %.2f days = %s GPU-hours", SECS(cp->train_seconds, a), cp->train_days,
	     CNT(floor(cp->gpu_hours + 0.5), d));
	line(x, "  FLOPs per token: %s count (%s); 6·N·D would give %s", sc->flops_formula == ENGINE_FLOPS_6N ? "the 6·N" : "the exact",
	     SI(cp->flops_per_token_used, "FLOP", b), SI(cp->train_flops_6n, "FLOP", c));
	line(x, "  source   CS336 lecture 2 (70B on 15T tokens, 1024 H100s, MFU 0.5: 143.9 days); Hoffmann et al. 2022");
}

static void ex_mfu(struct ex *x, const struct engine_scenario *sc, const struct engine_result *r)
{
	const struct engine_compute *cp = &r->compute;
	char a[NB], b[NB], c[NB];

	head(x, "compute.mfu", "model FLOPs utilisation: achieved model FLOP/s ÷ peak");
	line(x, "  formula  MFU = tokens/s × model FLOPs per token ÷ (GPUs × peak)   (PaLM appendix B)");
	line(x, "           HFU counts the hardware FLOPs (recomputation included)");
	switch (cp->source) {
	case ENGINE_TPUT_MFU: line(x, "  assumed  mfu = %.3g (no measurement given)", sc->mfu); break;
	case ENGINE_TPUT_TOKENS: line(x, "  measured tokens_per_s = %s", SI(sc->tokens_per_s, "tokens/s", a)); break;
	case ENGINE_TPUT_STEP:
		line(x, "  measured step_time = %s: tokens/s = %s tokens per step ÷ step", SECS(sc->step_time, a),
		     CNT(cp->tokens_per_step, b));
		break;
	case ENGINE_TPUT_FLOPS:
		line(x, "  measured achieved_flops = %s per GPU (hardware): tokens/s = achieved × GPUs ÷ hardware FLOPs per token",
		     SI(sc->achieved_flops, "FLOP/s", a));
		break;
	}
	line(x, "  values   %s × %s ÷ (%lld × %s)", SI(cp->tokens_per_s, "tokens/s", a), SI(cp->flops_per_token_used, "FLOP", b),
	     (long long)sc->gpus, SI(cp->peak, "FLOP/s", c));
	line(x, "  result   MFU %.1f%%, HFU %.1f%%", 100.0 * cp->mfu, 100.0 * cp->hfu);
	line(x, "  the chapter: peak 1000 TFLOP/s, 500 achieved -> 50%%");
}

static void ex_roofline(struct ex *x, const struct engine_scenario *sc, const struct engine_result *r, int pt)
{
	const struct engine_roofline *rl = &r->roofline;
	const struct engine_roofline_point *p = &rl->points[pt];
	char a[NB], b[NB], c[NB], v[200];

	engine_roofline_verdict(sc, r, (enum engine_point)pt, v, sizeof v);
	line(x, "roofline.%s: %s", p->name, p->label);
	line(x, "  intensity = FLOPs ÷ bytes moved to and from HBM = %s ÷ %s = %.3g FLOP/B", SI(p->flops, "FLOP", a),
	     GB(p->bytes, b), p->intensity);
	line(x, "  ridge     = peak ÷ bandwidth = %s ÷ %s = %.0f FLOP/B", SI(rl->peak, "FLOP/s", a),
	     SI(rl->bandwidth, "B/s", b), rl->ridge);
	line(x, "  attainable = min(peak, intensity × bandwidth) = %s", SI(p->attainable, "FLOP/s", c));
	line(x, "  verdict   %s", v);
	switch (pt) {
	case ENGINE_PT_TRAIN:
		line(x, "  what      one optimizer step on one GPU: every layer's matmuls forward and backward (matrix × "
			"matrix), attention, norms, the update");
		break;
	case ENGINE_PT_PREFILL:
		line(x, "  what      the prompt's forward pass: %lld × %lld tokens through every weight at once (matrix × matrix)",
		     (long long)sc->batch, (long long)sc->prompt);
		break;
	case ENGINE_PT_DECODE:
		line(x, "  what      one new token for each of %lld sequences: every weight is read for only %lld tokens "
			"(matrix × vector at batch 1), plus the KV cache",
		     (long long)sc->batch, (long long)sc->batch);
		line(x, "            batch 1 reads ~2 bytes per 2 FLOPs: intensity ≈ 1; raising the batch reuses each weight "
			"read, until the ridge");
		break;
	default:
		line(x, "  what      a ReLU: 1 FLOP per element, one read and one write of %g bytes each", 
		     dtb(r->memory.activation_dt));
		break;
	}
	line(x, "  source    Williams, Waterman & Patterson 2009 (the roofline model)");
}

static void ex_inference(struct ex *x, const struct engine_scenario *sc, const struct engine_result *r, const char *key)
{
	const struct engine_inference *in = &r->inference;
	char a[NB], b[NB], c[NB], d[NB];

	if (strcmp(key, "inference.prefill_seconds") == 0) {
		head(x, key, "time to process the prompt (first token), at the roofline");
		line(x, "  formula  max(FLOPs ÷ (tp × peak), bytes ÷ (tp × bandwidth))");
		line(x, "  values   max(%s ÷ %s, %s ÷ %s)", SI(in->prefill_flops, "FLOP", a), SI((double)sc->tp * r->compute.peak, "FLOP/s", b),
		     GB(in->prefill_bytes, c), SI((double)sc->tp * sc->gpu.bandwidth, "B/s", d));
		line(x, "  result   %s (%s-bound)", SECS(in->prefill_seconds, a), in->prefill_memory_bound ? "memory" : "compute");
	} else {
		head(x, "inference.decode_seconds_per_token", "one decoding step for the whole batch, at the roofline");
		line(x, "  every step reads all the weights once%s and each sequence's KV cache",
		     sc->model.experts > 1 ? " (MoE: the experts its tokens route to)" : "");
		line(x, "  bytes    weights + batch × context × KV bytes per token = %s", GB(in->decode_bytes, a));
		line(x, "  FLOPs    batch × (2 × matmul weights + 4·L·context·nh·dh) = %s", SI(in->decode_flops, "FLOP", a));
		line(x, "  time     max(%s ÷ (tp·peak), %s ÷ (tp·bandwidth)) = %s", SI(in->decode_flops, "FLOP", a),
		     GB(in->decode_bytes, b), SECS(in->decode_seconds_per_token, c));
		line(x, "  tokens/s batch × replicas ÷ step = %lld × %lld ÷ %s = %s", (long long)sc->batch,
		     (long long)(sc->gpus / (sc->tp * sc->pp)), SECS(in->decode_seconds_per_token, a),
		     SI(in->decode_tokens_per_s, "tokens/s", b));
		line(x, "  context  the average over the generation: prompt + (generate + 1)/2 = %.1f", in->decode_context);
		line(x, "  the chapter: decoding is matrix × vector, memory-bound: its speed is the bandwidth's");
	}
}

static void ex_data(struct ex *x, const struct engine_scenario *sc, const struct engine_result *r)
{
	const struct engine_data_loading *d = &r->data;
	char a[NB], b[NB], c[NB], e[NB];

	head(x, "data_loading", "copying each step's batch from host memory to the GPU over PCIe");
	line(x, "  bytes    micro-batch × seq × grad_accum × 16 B (int64 token ids and labels) = %lld × %lld × %lld × 16 = %s",
	     (long long)sc->batch, (long long)sc->seq, (long long)sc->grad_accum, GB(d->bytes_per_step, a));
	line(x, "  pinned   %s at %s = %s", GB(d->bytes_per_step, a), SI(d->pinned_bw, "B/s", b), SECS(d->pinned_seconds, c));
	line(x, "  pageable %s at %s = %s (staged through a pinned buffer; ~half the rate)", GB(d->bytes_per_step, a),
	     SI(d->pageable_bw, "B/s", b), SECS(d->pageable_seconds, e));
	line(x, "  step     %s: the copy is %.3g%% of it%s", SECS(d->step_seconds, a), 100.0 * d->fraction,
	     d->overlapped ? ", and with pinned memory it overlaps compute (non_blocking=True)"
			   : ", and pageable copies are synchronous");
	line(x, "  source   NVIDIA, \"How to Optimize Data Transfers in CUDA C/C++\" (Harris 2012); PyTorch pin_memory");
}

static void ex_technique(struct ex *x, const struct engine_result *r, const char *name)
{
	int i;
	char a[NB], b[NB], c[NB];

	for (i = 0; i < ENGINE_TECH_COUNT; i++) {
		const struct engine_technique *t = &r->techniques[i];
		if (t->name == NULL || strcmp(t->name, name) != 0)
			continue;
		line(x, "techniques.%s: %s (%s)", t->name, t->label, t->compare);
		if (!t->applies) {
			line(x, "  does not apply to this scenario");
			return;
		}
		line(x, "  memory per GPU   %s (×%.2f)", GIB(t->delta_memory_bytes, a), t->ratio_memory);
		line(x, "  FLOPs per token  %s", SI(t->delta_flops, "FLOP", b));
		line(x, "  HBM traffic      %s per step", GB(t->delta_bytes_moved, c));
		line(x, "  time             %s%s (×%.2f), at the same hardware utilisation", t->delta_seconds < 0 ? "-" : "+",
		     SECS(fabs(t->delta_seconds), a), t->ratio_seconds);
		line(x, "  (with minus without; negative saves)");
		return;
	}
	line(x, "techniques.%s: unknown technique", name);
}

static const char *const keys[] = {
	"model.params_total", "model.params_active", "memory.weights", "memory.master_weights", "memory.gradients",
	"memory.optimizer", "memory.activations", "memory.logits", "memory.kv_cache", "memory.overhead",
	"memory.total", "memory.max_batch", "memory.min_gpus", "memory.max_params",
	"compute.flops_per_token_forward", "compute.flops_per_token_train", "compute.train_seconds",
	"compute.mfu", "inference.prefill_seconds", "inference.decode_seconds_per_token", "roofline.train_step",
	"roofline.prefill", "roofline.decode", "roofline.elementwise", "data_loading",
	"techniques.mixed_precision", "techniques.selective_recompute", "techniques.full_recompute",
	"techniques.flash_attention", "techniques.kv_cache", "techniques.zero1", "techniques.zero2",
	"techniques.zero3", "techniques.tensor_parallel", "techniques.pipeline_parallel", NULL,
};

const char *const *engine_explain_keys(void)
{
	return keys;
}

static bool starts(const char *s, const char *p)
{
	return strncmp(s, p, strlen(p)) == 0;
}

bool engine_explain(const struct engine_scenario *sc, const struct engine_result *r, const char *key, char *buf,
		    size_t n)
{
	struct ex x = {buf, n, 0};

	if (n > 0)
		buf[0] = '\0';
	if (strcmp(key, "model.params_total") == 0 || strcmp(key, "model.params_non_embedding") == 0)
		ex_params(&x, sc, r, false);
	else if (strcmp(key, "model.params_active") == 0)
		ex_params(&x, sc, r, true);
	else if (strcmp(key, "memory.weights") == 0)
		ex_weights(&x, sc, r);
	else if (strcmp(key, "memory.master_weights") == 0 || strcmp(key, "memory.gradients") == 0 ||
		 strcmp(key, "memory.optimizer") == 0 || strcmp(key, "memory.bytes_per_param") == 0)
		ex_state(&x, sc, r, strcmp(key, "memory.bytes_per_param") == 0 ? "memory.optimizer" : key);
	else if (strcmp(key, "memory.activations") == 0 || strcmp(key, "memory.activations_per_layer") == 0)
		ex_activations(&x, sc, r);
	else if (strcmp(key, "memory.logits") == 0 || strcmp(key, "memory.kv_cache") == 0 ||
		 strcmp(key, "memory.overhead") == 0 || strcmp(key, "memory.total") == 0 ||
		 strcmp(key, "memory.headroom") == 0 || strcmp(key, "memory.capacity") == 0)
		ex_simple_mem(&x, sc, r, key);
	else if (strcmp(key, "memory.max_batch") == 0 || strcmp(key, "memory.min_gpus") == 0 ||
		 strcmp(key, "memory.max_params") == 0)
		ex_solves(&x, sc, r, key);
	else if (strcmp(key, "compute.flops_per_token_forward") == 0 || strcmp(key, "compute.flops_per_token_6n") == 0 ||
		 strcmp(key, "compute.flops_per_token_train") == 0 || strcmp(key, "compute.flops_per_token_hw") == 0 ||
		 strcmp(key, "compute.flops_per_token_backward") == 0)
		ex_flops(&x, sc, r, key);
	else if (strcmp(key, "compute.train_seconds") == 0 || strcmp(key, "compute.train_days") == 0 ||
		 strcmp(key, "compute.gpu_hours") == 0 || strcmp(key, "compute.train_flops") == 0 ||
		 strcmp(key, "compute.train_flops_6n") == 0 || strcmp(key, "compute.steps") == 0)
		ex_time(&x, sc, r, key);
	else if (strcmp(key, "compute.mfu") == 0 || strcmp(key, "compute.hfu") == 0 ||
		 strcmp(key, "compute.tokens_per_s") == 0 || strcmp(key, "compute.step_seconds") == 0 ||
		 strcmp(key, "compute.achieved_flops") == 0 || strcmp(key, "compute.peak_flops") == 0)
		ex_mfu(&x, sc, r);
	else if (strcmp(key, "inference.prefill_seconds") == 0 || strcmp(key, "inference.prefill_flops") == 0)
		ex_inference(&x, sc, r, "inference.prefill_seconds");
	else if (starts(key, "inference."))
		ex_inference(&x, sc, r, "inference.decode_seconds_per_token");
	else if (strcmp(key, "roofline.train_step") == 0)
		ex_roofline(&x, sc, r, ENGINE_PT_TRAIN);
	else if (strcmp(key, "roofline.prefill") == 0)
		ex_roofline(&x, sc, r, ENGINE_PT_PREFILL);
	else if (strcmp(key, "roofline.decode") == 0 || strcmp(key, "roofline.ridge_flops_per_byte") == 0 ||
		 strcmp(key, "roofline.peak_flops") == 0 || strcmp(key, "roofline.bandwidth_bytes_per_s") == 0)
		ex_roofline(&x, sc, r, sc->mode == ENGINE_MODE_TRAIN && strcmp(key, "roofline.decode") != 0 ? ENGINE_PT_TRAIN
													    : ENGINE_PT_DECODE);
	else if (strcmp(key, "roofline.elementwise") == 0)
		ex_roofline(&x, sc, r, ENGINE_PT_ELEMENTWISE);
	else if (starts(key, "data_loading"))
		ex_data(&x, sc, r);
	else if (starts(key, "techniques."))
		ex_technique(&x, r, key + strlen("techniques."));
	else {
		line(&x, "%s: no explanation (try one of: memory.total, compute.train_seconds, roofline.decode, ...)", key);
		return false;
	}
	return true;
}

void engine_roofline_verdict(const struct engine_scenario *sc, const struct engine_result *r, enum engine_point pt,
			     char *buf, size_t n)
{
	const struct engine_roofline_point *p = &r->roofline.points[pt];
	char what[80];

	switch (pt) {
	case ENGINE_PT_DECODE: snprintf(what, sizeof what, "decode at batch %lld", (long long)sc->batch); break;
	case ENGINE_PT_PREFILL: snprintf(what, sizeof what, "prefill of %lld tokens", (long long)sc->prompt); break;
	case ENGINE_PT_TRAIN: snprintf(what, sizeof what, "the training step"); break;
	default: snprintf(what, sizeof what, "an element-wise op"); break;
	}
	snprintf(buf, n, "%s is %s-bound: intensity %.3g FLOP/B, ridge %.0f", what, p->memory_bound ? "memory" : "compute",
		 p->intensity, r->roofline.ridge);
}
