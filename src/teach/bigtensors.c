/*
 * Where a scenario's big tensors come from: every parameter tensor (Hugging Face Llama
 * module names; nn.Linear stores its weight as [out_features, in_features]), the tensors
 * one transformer layer keeps for the backward pass, the KV cache and the logits, with
 * shapes named after the architecture's fields.
 *
 * They mirror the engine's accounting so the totals agree (tests/unit/test_teach_tensor.c):
 *  - weights: src/engine/model.c (one row per module the engine counts);
 *  - activations: what the `kernels` profile keeps, tensor by tensor, as
 *    src/engine/activations.c counts it (fused: Korthikanti et al. 2022, table 2,
 *    generalised; eager: Hugging Face's modelling code, measured in tests/torch);
 *  - KV cache: 2 · layers · batch · context · kv_heads · head_dim · bytes;
 *  - logits: the final norm's and LM head's inputs, the logits the loop keeps (eager)
 *    and what the loss keeps.
 */
#include <stdio.h>
#include <string.h>

#include "i18n.h"
#include "tensor.h"

struct list {
	struct teach_big_tensor *out;
	size_t max, n;
};

#define DIMS(...) ((const char *const[]){__VA_ARGS__})
#define SIZES(...) ((const int64_t[]){__VA_ARGS__})

static void add(struct list *l, const char *name, const char *what, enum teach_tensor_role role, int dt,
		double count, int ndim, const int64_t *sizes, const char *const *names)
{
	struct teach_big_tensor *b;

	if (l->n >= l->max || count <= 0)
		return;
	b = &l->out[l->n];
	memset(b, 0, sizeof *b);
	if (teach_tensor_make(&b->t, dt < 0 ? ENGINE_DT_FP32 : (enum engine_dtype)dt, ndim, sizes, names, NULL) !=
	    NAPKIN_OK)
		return;
	b->t.device = TEACH_DEV_CUDA; /* the scenario's tensors live in the GPU's memory */
	util_strlcpy(b->name, name, sizeof b->name);
	b->what = what;
	b->role = role;
	b->count = count;
	b->bytes = teach_tensor_bytes(&b->t);
	b->total_bytes = count * b->bytes;
	l->n++;
}

const char *teach_role_name(enum teach_tensor_role role)
{
	static const char *const names[TEACH_ROLE_COUNT] = {
		[TEACH_ROLE_WEIGHT] = N_("weights"),
		[TEACH_ROLE_ACTIVATION] = N_("activations (one layer)"),
		[TEACH_ROLE_KV_CACHE] = N_("KV cache"),
		[TEACH_ROLE_LOGITS] = N_("logits and loss"),
	};
	return (int)role >= 0 && role < TEACH_ROLE_COUNT ? names[role] : "";
}

static void weights(const struct engine_model *m, int dt, struct list *l)
{
	double L = (double)m->layers;
	double E = m->experts > 1 ? (double)m->experts : 1.0;
	int64_t d = m->hidden, V = m->vocab, f = m->ffn;
	int64_t hq = m->heads * m->head_dim, hkv = m->kv_heads * m->head_dim;
	bool ln = m->norm == ENGINE_NORM_LAYER;
	const enum teach_tensor_role W = TEACH_ROLE_WEIGHT;

	add(l, "embed_tokens.weight", N_("token embedding: one row of hidden numbers per vocabulary entry"), W, dt, 1, 2,
	    SIZES(V, d), DIMS("vocab", "hidden"));
	if (m->position == ENGINE_POS_LEARNED)
		add(l, "embed_positions.weight", N_("learned position embedding"), W, dt, 1, 2, SIZES(m->max_positions, d),
		    DIMS("positions", "hidden"));
	add(l, "input_layernorm.weight", N_("the attention block's norm (per layer)"), W, dt, L, 1, SIZES(d),
	    DIMS("hidden"));
	if (ln)
		add(l, "input_layernorm.bias", N_("LayerNorm's bias (per layer)"), W, dt, L, 1, SIZES(d), DIMS("hidden"));
	add(l, "q_proj.weight", N_("queries: hidden -> heads × head_dim (per layer)"), W, dt, L, 2, SIZES(hq, d),
	    DIMS("q_dim", "hidden"));
	add(l, "k_proj.weight", N_("keys: hidden -> kv_heads × head_dim (per layer; GQA shrinks it)"), W, dt, L, 2,
	    SIZES(hkv, d), DIMS("kv_dim", "hidden"));
	add(l, "v_proj.weight", N_("values: hidden -> kv_heads × head_dim (per layer)"), W, dt, L, 2, SIZES(hkv, d),
	    DIMS("kv_dim", "hidden"));
	if (m->qkv_bias) {
		add(l, "q_proj.bias", N_("query bias (per layer)"), W, dt, L, 1, SIZES(hq), DIMS("q_dim"));
		add(l, "k_proj.bias", N_("key bias (per layer)"), W, dt, L, 1, SIZES(hkv), DIMS("kv_dim"));
		add(l, "v_proj.bias", N_("value bias (per layer)"), W, dt, L, 1, SIZES(hkv), DIMS("kv_dim"));
	}
	add(l, "o_proj.weight", N_("attention output: heads × head_dim -> hidden (per layer)"), W, dt, L, 2, SIZES(d, hq),
	    DIMS("hidden", "q_dim"));
	if (m->o_bias)
		add(l, "o_proj.bias", N_("output bias (per layer)"), W, dt, L, 1, SIZES(d), DIMS("hidden"));
	add(l, "post_attention_layernorm.weight", N_("the MLP block's norm (per layer)"), W, dt, L, 1, SIZES(d),
	    DIMS("hidden"));
	if (ln)
		add(l, "post_attention_layernorm.bias", N_("LayerNorm's bias (per layer)"), W, dt, L, 1, SIZES(d),
		    DIMS("hidden"));
	if (E > 1.0)
		add(l, "router.weight", N_("MoE router: a score per expert (per layer)"), W, dt, L, 2, SIZES(m->experts, d),
		    DIMS("experts", "hidden"));
	if (m->mlp == ENGINE_MLP_GATED) {
		add(l, "gate_proj.weight", N_("gated MLP gate: hidden -> ffn (per layer and expert)"), W, dt, L * E, 2,
		    SIZES(f, d), DIMS("ffn", "hidden"));
		add(l, "up_proj.weight", N_("gated MLP up: hidden -> ffn (per layer and expert)"), W, dt, L * E, 2,
		    SIZES(f, d), DIMS("ffn", "hidden"));
		add(l, "down_proj.weight", N_("gated MLP down: ffn -> hidden (per layer and expert)"), W, dt, L * E, 2,
		    SIZES(d, f), DIMS("hidden", "ffn"));
		if (m->mlp_bias) {
			add(l, "gate_proj.bias", N_("gate bias"), W, dt, L * E, 1, SIZES(f), DIMS("ffn"));
			add(l, "up_proj.bias", N_("up bias"), W, dt, L * E, 1, SIZES(f), DIMS("ffn"));
		}
	} else {
		add(l, "fc_in.weight", N_("MLP in: hidden -> ffn (per layer and expert)"), W, dt, L * E, 2, SIZES(f, d),
		    DIMS("ffn", "hidden"));
		add(l, "fc_out.weight", N_("MLP out: ffn -> hidden (per layer and expert)"), W, dt, L * E, 2, SIZES(d, f),
		    DIMS("hidden", "ffn"));
		if (m->mlp_bias)
			add(l, "fc_in.bias", N_("MLP in bias"), W, dt, L * E, 1, SIZES(f), DIMS("ffn"));
	}
	if (m->mlp_bias)
		add(l, m->mlp == ENGINE_MLP_GATED ? "down_proj.bias" : "fc_out.bias", N_("MLP out bias"), W, dt, L * E, 1,
		    SIZES(d), DIMS("hidden"));
	add(l, "norm.weight", N_("the final norm"), W, dt, 1, 1, SIZES(d), DIMS("hidden"));
	if (ln)
		add(l, "norm.bias", N_("the final norm's bias"), W, dt, 1, 1, SIZES(d), DIMS("hidden"));
	if (!m->tied)
		add(l, "lm_head.weight", N_("LM head: hidden -> a score per vocabulary entry (untied)"), W, dt, 1, 2,
		    SIZES(V, d), DIMS("vocab", "hidden"));
}

/* One norm of a layer (or the final one), as the `kernels` profile keeps it
 * (src/engine/activations.c): eager RMSNorm keeps the fp32 upcast, 1/rms and the
 * normalised tensor; LayerNorm its input, mean and 1/std; a fused norm its input. */
static void norm_tensors(const struct engine_scenario *sc, const char *prefix, int r, struct list *l,
			 enum teach_tensor_role role)
{
	const struct engine_model *m = &sc->model;
	int64_t b = sc->batch, s = sc->seq, d = m->hidden;
	char name[3][48];
	bool eager = sc->kernels == ENGINE_KERNELS_EAGER;

	snprintf(name[0], sizeof name[0], "%s.input", prefix);
	snprintf(name[1], sizeof name[1], "%s.rstd", prefix);
	snprintf(name[2], sizeof name[2], "%s.%s", prefix, m->norm == ENGINE_NORM_LAYER ? "mean" : "normalized");
	if (eager && m->norm == ENGINE_NORM_RMS) {
		add(l, name[0], N_("the residual stream upcast to fp32 (the input itself when fp32): pow and mul keep it"),
		    role, ENGINE_DT_FP32, 1, 3, SIZES(b, s, d), DIMS("batch", "seq", "hidden"));
		add(l, name[1], N_("1/rms per row (fp32), kept by the multiply"), role, ENGINE_DT_FP32, 1, 2, SIZES(b, s),
		    DIMS("batch", "seq"));
		add(l, name[2], N_("x·1/rms cast back to the input's dtype, kept by weight·x"), role, r, 1, 3, SIZES(b, s, d),
		    DIMS("batch", "seq", "hidden"));
		return;
	}
	add(l, name[0], N_("the residual stream entering the norm (kept for its backward)"), role, r, 1, 3, SIZES(b, s, d),
	    DIMS("batch", "seq", "hidden"));
	if (eager) {
		add(l, name[2], N_("LayerNorm's mean per row (fp32)"), role, ENGINE_DT_FP32, 1, 2, SIZES(b, s),
		    DIMS("batch", "seq"));
		add(l, name[1], N_("LayerNorm's 1/std per row (fp32)"), role, ENGINE_DT_FP32, 1, 2, SIZES(b, s),
		    DIMS("batch", "seq"));
	}
}

/* What the linears reading a norm's output keep: the output itself, or under autocast a
 * 16-bit cast of it per linear. */
static void norm_out_tensors(const struct engine_scenario *sc, const char *out_name, const char *const *linears,
			     int n, int r, int e, struct list *l, enum teach_tensor_role role)
{
	int64_t b = sc->batch, s = sc->seq, d = sc->model.hidden;
	bool amp = sc->precision == ENGINE_PREC_AMP_BF16 || sc->precision == ENGINE_PREC_AMP_FP16;
	int i;

	if (!amp) {
		add(l, out_name, N_("the norm's output, the next linears' input"), role, r, 1, 3, SIZES(b, s, d),
		    DIMS("batch", "seq", "hidden"));
		return;
	}
	for (i = 0; i < n; i++)
		add(l, linears[i], N_("autocast's 16-bit cast of the norm's output, one per linear"), role, e, 1, 3,
		    SIZES(b, s, d), DIMS("batch", "seq", "hidden"));
}

static void activations(const struct engine_scenario *sc, int e, struct list *l)
{
	const struct engine_model *m = &sc->model;
	int64_t b = sc->batch, s = sc->seq, d = m->hidden, f = m->ffn, nh = m->heads, nkv = m->kv_heads,
		dh = m->head_dim;
	double k = m->experts > 1 ? (double)m->top_k : 1.0;
	bool amp = sc->precision == ENGINE_PREC_AMP_BF16 || sc->precision == ENGINE_PREC_AMP_FP16;
	bool eager = sc->kernels == ENGINE_KERNELS_EAGER, rms = m->norm == ENGINE_NORM_RMS;
	bool gated = m->mlp == ENGINE_MLP_GATED, fp32_softmax = eager && (amp || rms);
	bool chunked = sc->loss == ENGINE_LOSS_CHUNKED;
	bool upcast = !amp && rms && engine_dtype_info((enum engine_dtype)e)->bytes < 4.0;
	int r = amp ? ENGINE_DT_FP32 : e; /* autocast: the residual stream stays fp32 */
	int64_t kvh = eager ? nh : nkv;
	const enum teach_tensor_role A = TEACH_ROLE_ACTIVATION;
	static const char *const qkv3[] = {"q_proj.input", "k_proj.input", "v_proj.input"};
	static const char *const qkv1[] = {"qkv_proj.input"};
	static const char *const gu[] = {"gate_proj.input", "up_proj.input"};
	static const char *const fc1[] = {"fc_in.input"};

	if (sc->recompute == ENGINE_RECOMP_FULL) {
		add(l, "layer.input", N_("the input each layer keeps; the rest is recomputed in the backward"), A, r, 1, 3,
		    SIZES(b, s, d), DIMS("batch", "seq", "hidden"));
	} else {
		norm_tensors(sc, "attn_norm", r, l, A);
		if (rms)
			norm_out_tensors(sc, "attn_norm.output", qkv3, 3, r, e, l, A);
		else
			norm_out_tensors(sc, "attn_norm.output", qkv1, 1, r, e, l, A);
		add(l, "q", N_("queries"), A, e, 1, 4, SIZES(b, s, nh, dh), DIMS("batch", "seq", "heads", "head_dim"));
		add(l, "k", eager && nkv < nh ? N_("keys, repeated to every head (repeat_kv)") : N_("keys"), A, e, 1, 4,
		    SIZES(b, s, kvh, dh), DIMS("batch", "seq", eager ? "heads" : "kv_heads", "head_dim"));
		add(l, "v", eager && nkv < nh ? N_("values, repeated to every head (repeat_kv)") : N_("values"), A, e, 1, 4,
		    SIZES(b, s, kvh, dh), DIMS("batch", "seq", eager ? "heads" : "kv_heads", "head_dim"));
		if (sc->recompute != ENGINE_RECOMP_SELECTIVE) {
			if (sc->flash_attention) {
				add(l, "attn.logsumexp", N_("FlashAttention keeps one fp32 log-sum-exp per row, never the scores"), A,
				    ENGINE_DT_FP32, 1, 3, SIZES(b, nh, s), DIMS("batch", "heads", "seq"));
			} else {
				/* nanoGPT's / Hugging Face's GPT-2 softmax without autocast: the
				 * input's dtype (src/engine/activations.c) */
				if (fp32_softmax)
					add(l, "attn.probs_fp32", N_("softmax(QK^T / sqrt(head_dim), dtype=float32): seq × seq per head"),
					    A, ENGINE_DT_FP32, 1, 4, SIZES(b, nh, s, s), DIMS("batch", "heads", "seq_q", "seq_k"));
				else
					add(l, "attn.probs", N_("the fused softmax's output: seq × seq per head"), A, e, 1, 4,
					    SIZES(b, nh, s, s), DIMS("batch", "heads", "seq_q", "seq_k"));
				if (m->dropout) {
					add(l, "attn.dropout_mask", N_("attention dropout mask (1 byte per element, torch.bool)"), A,
					    ENGINE_DT_INT8, 1, 4, SIZES(b, nh, s, s), DIMS("batch", "heads", "seq_q", "seq_k"));
					add(l, "attn.dropout_output", N_("attention probabilities after dropout"), A, e, 1, 4,
					    SIZES(b, nh, s, s), DIMS("batch", "heads", "seq_q", "seq_k"));
				} else if (fp32_softmax && engine_dtype_info((enum engine_dtype)e)->bytes < 4.0) {
					add(l, "attn.probs", N_("the probabilities cast back (.to(q.dtype)) for × V"), A, e, 1, 4,
					    SIZES(b, nh, s, s), DIMS("batch", "heads", "seq_q", "seq_k"));
				}
			}
		}
		add(l, "attn.output", N_("the attention output, o_proj's input"), A, e, 1, 4, SIZES(b, s, nh, dh),
		    DIMS("batch", "seq", "heads", "head_dim"));
		if (m->dropout)
			add(l, "attn.residual_dropout_mask", N_("dropout mask after o_proj (1 byte, torch.bool)"), A,
			    ENGINE_DT_INT8, 1, 3, SIZES(b, s, d), DIMS("batch", "seq", "hidden"));
		norm_tensors(sc, "mlp_norm", r, l, A);
		if (rms && gated)
			norm_out_tensors(sc, "mlp_norm.output", gu, 2, r, e, l, A);
		else
			norm_out_tensors(sc, "mlp_norm.output", fc1, 1, r, e, l, A);
		if (gated) {
			add(l, "mlp.gate", N_("gate_proj output (× top-k experts per token)"), A, e, k, 3, SIZES(b, s, f),
			    DIMS("batch", "seq", "ffn"));
			add(l, "mlp.up", N_("up_proj output"), A, e, k, 3, SIZES(b, s, f), DIMS("batch", "seq", "ffn"));
			if (eager)
				add(l, "mlp.act", N_("act(gate), e.g. SiLU (a fused SwiGLU recomputes it)"), A, e, k, 3,
				    SIZES(b, s, f), DIMS("batch", "seq", "ffn"));
			add(l, "mlp.product", N_("act(gate) · up, down_proj's input"), A, e, k, 3, SIZES(b, s, f),
			    DIMS("batch", "seq", "ffn"));
		} else {
			add(l, "mlp.fc_in", N_("fc_in output (× top-k experts per token)"), A, e, k, 3, SIZES(b, s, f),
			    DIMS("batch", "seq", "ffn"));
			add(l, "mlp.act", N_("the activation's output, fc_out's input"), A, e, k, 3, SIZES(b, s, f),
			    DIMS("batch", "seq", "ffn"));
		}
		if (m->dropout)
			add(l, "mlp.residual_dropout_mask", N_("dropout mask after the MLP (1 byte, torch.bool)"), A,
			    ENGINE_DT_INT8, 1, 3, SIZES(b, s, d), DIMS("batch", "seq", "hidden"));
	}
	/* the final norm and the loss */
	norm_tensors(sc, "norm", r, l, TEACH_ROLE_LOGITS);
	if (chunked) {
		/* Liger Kernel's fused linear cross-entropy: no logits; the hidden states'
		 * gradient, made in the forward (the head weight's gradient is a gradient) */
		add(l, "lm_head.input_grad", N_("the hidden states' gradient, made chunk by chunk in the forward"),
		    TEACH_ROLE_LOGITS, r, 1, 3, SIZES(b, s, d), DIMS("batch", "seq", "hidden"));
		return;
	}
	add(l, "lm_head.input", N_("the LM head's input"), TEACH_ROLE_LOGITS, amp ? e : r, 1, 3, SIZES(b, s, d),
	    DIMS("batch", "seq", "hidden"));
	if (eager) {
		add(l, "logits", N_("a score per vocabulary entry for every position (the loop keeps it)"), TEACH_ROLE_LOGITS,
		    e, 1, 3, SIZES(b, s, m->vocab), DIMS("batch", "seq", "vocab"));
		add(l, "log_probs",
		    upcast ? N_("log-softmax of Hugging Face's fp32 upcast of the logits, kept for the backward")
			   : N_("cross-entropy's log-softmax (fp32 under autocast), kept for the backward"),
		    TEACH_ROLE_LOGITS, amp || upcast ? ENGINE_DT_FP32 : e, 1, 3, SIZES(b, s, m->vocab),
		    DIMS("batch", "seq", "vocab"));
	} else {
		add(l, "loss.softmax", N_("the fused cross-entropy's fp32 softmax (the logits themselves are not kept)"),
		    TEACH_ROLE_LOGITS, ENGINE_DT_FP32, 1, 3, SIZES(b, s, m->vocab), DIMS("batch", "seq", "vocab"));
	}
}

static void inference(const struct engine_scenario *sc, int e, int kv, struct list *l)
{
	const struct engine_model *m = &sc->model;
	int64_t b = sc->batch, ctx = sc->prompt + sc->generate;

	add(l, "key_cache", N_("past keys, one tensor per layer (GQA: kv_heads, not heads)"), TEACH_ROLE_KV_CACHE, kv,
	    (double)m->layers, 4, SIZES(b, m->kv_heads, ctx, m->head_dim), DIMS("batch", "kv_heads", "context", "head_dim"));
	add(l, "value_cache", N_("past values, one tensor per layer"), TEACH_ROLE_KV_CACHE, kv, (double)m->layers, 4,
	    SIZES(b, m->kv_heads, ctx, m->head_dim), DIMS("batch", "kv_heads", "context", "head_dim"));
	add(l, "logits", N_("the last position's scores, one row per sequence"), TEACH_ROLE_LOGITS, e, 1, 2,
	    SIZES(b, m->vocab), DIMS("batch", "vocab"));
	add(l, "probs", N_("the sampler's fp32 softmax"), TEACH_ROLE_LOGITS, ENGINE_DT_FP32, 1, 2, SIZES(b, m->vocab),
	    DIMS("batch", "vocab"));
}

size_t teach_scenario_tensors(const struct engine_scenario *sc, const struct engine_result *r,
			      struct teach_big_tensor *out, size_t max)
{
	struct list l = {out, max, 0};

	weights(&sc->model, r->memory.weight_dt, &l);
	if (sc->mode == ENGINE_MODE_TRAIN)
		activations(sc, r->memory.activation_dt, &l);
	else
		inference(sc, r->memory.activation_dt, r->memory.kv_dt, &l);
	return l.n;
}
