/*
 * Where a scenario's big tensors come from: every parameter tensor (Hugging Face Llama
 * module names; nn.Linear stores its weight as [out_features, in_features]), the tensors
 * one transformer layer keeps for the backward pass, the KV cache and the logits, with
 * shapes named after the architecture's fields.
 *
 * They mirror the engine's accounting so the totals agree (tests/unit/test_teach_tensor.c):
 *  - weights: src/engine/model.c (one row per module the engine counts);
 *  - activations: Korthikanti et al. 2022, table 2, tensor by tensor as
 *    src/engine/memory.c generalises it (GQA, gated MLPs, FlashAttention's fp32
 *    log-sum-exp per row; selective recomputation drops the attention scores);
 *  - KV cache: 2 · layers · batch · context · kv_heads · head_dim · bytes;
 *  - logits: the final norm's and LM head's inputs, the logits in the activation dtype
 *    and the loss's fp32 log-probabilities.
 */
#include <string.h>

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
		[TEACH_ROLE_WEIGHT] = "weights",
		[TEACH_ROLE_ACTIVATION] = "activations (one layer)",
		[TEACH_ROLE_KV_CACHE] = "KV cache",
		[TEACH_ROLE_LOGITS] = "logits and loss",
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

	add(l, "embed_tokens.weight", "token embedding: one row of hidden numbers per vocabulary entry", W, dt, 1, 2,
	    SIZES(V, d), DIMS("vocab", "hidden"));
	if (m->position == ENGINE_POS_LEARNED)
		add(l, "embed_positions.weight", "learned position embedding", W, dt, 1, 2, SIZES(m->max_positions, d),
		    DIMS("positions", "hidden"));
	add(l, "input_layernorm.weight", "the attention block's norm (per layer)", W, dt, L, 1, SIZES(d),
	    DIMS("hidden"));
	if (ln)
		add(l, "input_layernorm.bias", "LayerNorm's bias (per layer)", W, dt, L, 1, SIZES(d), DIMS("hidden"));
	add(l, "q_proj.weight", "queries: hidden -> heads × head_dim (per layer)", W, dt, L, 2, SIZES(hq, d),
	    DIMS("q_dim", "hidden"));
	add(l, "k_proj.weight", "keys: hidden -> kv_heads × head_dim (per layer; GQA shrinks it)", W, dt, L, 2,
	    SIZES(hkv, d), DIMS("kv_dim", "hidden"));
	add(l, "v_proj.weight", "values: hidden -> kv_heads × head_dim (per layer)", W, dt, L, 2, SIZES(hkv, d),
	    DIMS("kv_dim", "hidden"));
	if (m->qkv_bias) {
		add(l, "q_proj.bias", "query bias (per layer)", W, dt, L, 1, SIZES(hq), DIMS("q_dim"));
		add(l, "k_proj.bias", "key bias (per layer)", W, dt, L, 1, SIZES(hkv), DIMS("kv_dim"));
		add(l, "v_proj.bias", "value bias (per layer)", W, dt, L, 1, SIZES(hkv), DIMS("kv_dim"));
	}
	add(l, "o_proj.weight", "attention output: heads × head_dim -> hidden (per layer)", W, dt, L, 2, SIZES(d, hq),
	    DIMS("hidden", "q_dim"));
	if (m->o_bias)
		add(l, "o_proj.bias", "output bias (per layer)", W, dt, L, 1, SIZES(d), DIMS("hidden"));
	add(l, "post_attention_layernorm.weight", "the MLP block's norm (per layer)", W, dt, L, 1, SIZES(d),
	    DIMS("hidden"));
	if (ln)
		add(l, "post_attention_layernorm.bias", "LayerNorm's bias (per layer)", W, dt, L, 1, SIZES(d),
		    DIMS("hidden"));
	if (E > 1.0)
		add(l, "router.weight", "MoE router: a score per expert (per layer)", W, dt, L, 2, SIZES(m->experts, d),
		    DIMS("experts", "hidden"));
	if (m->mlp == ENGINE_MLP_GATED) {
		add(l, "gate_proj.weight", "gated MLP gate: hidden -> ffn (per layer and expert)", W, dt, L * E, 2,
		    SIZES(f, d), DIMS("ffn", "hidden"));
		add(l, "up_proj.weight", "gated MLP up: hidden -> ffn (per layer and expert)", W, dt, L * E, 2,
		    SIZES(f, d), DIMS("ffn", "hidden"));
		add(l, "down_proj.weight", "gated MLP down: ffn -> hidden (per layer and expert)", W, dt, L * E, 2,
		    SIZES(d, f), DIMS("hidden", "ffn"));
		if (m->mlp_bias) {
			add(l, "gate_proj.bias", "gate bias", W, dt, L * E, 1, SIZES(f), DIMS("ffn"));
			add(l, "up_proj.bias", "up bias", W, dt, L * E, 1, SIZES(f), DIMS("ffn"));
		}
	} else {
		add(l, "fc_in.weight", "MLP in: hidden -> ffn (per layer and expert)", W, dt, L * E, 2, SIZES(f, d),
		    DIMS("ffn", "hidden"));
		add(l, "fc_out.weight", "MLP out: ffn -> hidden (per layer and expert)", W, dt, L * E, 2, SIZES(d, f),
		    DIMS("hidden", "ffn"));
		if (m->mlp_bias)
			add(l, "fc_in.bias", "MLP in bias", W, dt, L * E, 1, SIZES(f), DIMS("ffn"));
	}
	if (m->mlp_bias)
		add(l, m->mlp == ENGINE_MLP_GATED ? "down_proj.bias" : "fc_out.bias", "MLP out bias", W, dt, L * E, 1,
		    SIZES(d), DIMS("hidden"));
	add(l, "norm.weight", "the final norm", W, dt, 1, 1, SIZES(d), DIMS("hidden"));
	if (ln)
		add(l, "norm.bias", "the final norm's bias", W, dt, 1, 1, SIZES(d), DIMS("hidden"));
	if (!m->tied)
		add(l, "lm_head.weight", "LM head: hidden -> a score per vocabulary entry (untied)", W, dt, 1, 2,
		    SIZES(V, d), DIMS("vocab", "hidden"));
}

static void activations(const struct engine_scenario *sc, int e, struct list *l)
{
	const struct engine_model *m = &sc->model;
	int64_t b = sc->batch, s = sc->seq, d = m->hidden, f = m->ffn, nh = m->heads, nkv = m->kv_heads,
		dh = m->head_dim;
	double k = m->experts > 1 ? (double)m->top_k : 1.0;
	const enum teach_tensor_role A = TEACH_ROLE_ACTIVATION;

	add(l, "attn_norm.input", "the residual stream entering the layer (kept for the norm's backward)", A, e, 1, 3,
	    SIZES(b, s, d), DIMS("batch", "seq", "hidden"));
	add(l, "attn_norm.output", "the input of the Q, K, V projections", A, e, 1, 3, SIZES(b, s, d),
	    DIMS("batch", "seq", "hidden"));
	add(l, "q", "queries", A, e, 1, 4, SIZES(b, s, nh, dh), DIMS("batch", "seq", "heads", "head_dim"));
	add(l, "k", "keys", A, e, 1, 4, SIZES(b, s, nkv, dh), DIMS("batch", "seq", "kv_heads", "head_dim"));
	add(l, "v", "values", A, e, 1, 4, SIZES(b, s, nkv, dh), DIMS("batch", "seq", "kv_heads", "head_dim"));
	if (sc->recompute != ENGINE_RECOMP_SELECTIVE) {
		if (sc->flash_attention) {
			add(l, "attn.logsumexp", "FlashAttention keeps one fp32 log-sum-exp per row, never the scores", A,
			    ENGINE_DT_FP32, 1, 3, SIZES(b, nh, s), DIMS("batch", "heads", "seq"));
		} else {
			add(l, "attn.probs", "softmax(QK^T / sqrt(head_dim)): seq × seq per head", A, e, 1, 4,
			    SIZES(b, nh, s, s), DIMS("batch", "heads", "seq_q", "seq_k"));
			if (m->dropout) {
				add(l, "attn.dropout_mask", "attention dropout mask (1 byte per element, torch.bool)", A,
				    ENGINE_DT_INT8, 1, 4, SIZES(b, nh, s, s), DIMS("batch", "heads", "seq_q", "seq_k"));
				add(l, "attn.dropout_output", "attention probabilities after dropout", A, e, 1, 4,
				    SIZES(b, nh, s, s), DIMS("batch", "heads", "seq_q", "seq_k"));
			}
		}
	}
	add(l, "attn.output", "the attention output, o_proj's input", A, e, 1, 4, SIZES(b, s, nh, dh),
	    DIMS("batch", "seq", "heads", "head_dim"));
	if (m->dropout)
		add(l, "attn.residual_dropout_mask", "dropout mask after o_proj (1 byte, torch.bool)", A, ENGINE_DT_INT8, 1,
		    3, SIZES(b, s, d), DIMS("batch", "seq", "hidden"));
	add(l, "mlp_norm.input", "the residual stream after attention", A, e, 1, 3, SIZES(b, s, d),
	    DIMS("batch", "seq", "hidden"));
	add(l, "mlp_norm.output", "the MLP's input", A, e, 1, 3, SIZES(b, s, d), DIMS("batch", "seq", "hidden"));
	if (m->mlp == ENGINE_MLP_GATED) {
		add(l, "mlp.gate", "gate_proj output (× top-k experts per token)", A, e, k, 3, SIZES(b, s, f),
		    DIMS("batch", "seq", "ffn"));
		add(l, "mlp.up", "up_proj output", A, e, k, 3, SIZES(b, s, f), DIMS("batch", "seq", "ffn"));
		add(l, "mlp.act", "act(gate), e.g. SiLU", A, e, k, 3, SIZES(b, s, f), DIMS("batch", "seq", "ffn"));
		add(l, "mlp.product", "act(gate) · up, down_proj's input", A, e, k, 3, SIZES(b, s, f),
		    DIMS("batch", "seq", "ffn"));
	} else {
		add(l, "mlp.fc_in", "fc_in output (× top-k experts per token)", A, e, k, 3, SIZES(b, s, f),
		    DIMS("batch", "seq", "ffn"));
		add(l, "mlp.act", "the activation's output, fc_out's input", A, e, k, 3, SIZES(b, s, f),
		    DIMS("batch", "seq", "ffn"));
	}
	if (m->dropout)
		add(l, "mlp.residual_dropout_mask", "dropout mask after the MLP (1 byte, torch.bool)", A, ENGINE_DT_INT8,
		    1, 3, SIZES(b, s, d), DIMS("batch", "seq", "hidden"));
	/* the final norm and the loss */
	add(l, "norm.input", "the final norm's input", TEACH_ROLE_LOGITS, e, 1, 3, SIZES(b, s, d),
	    DIMS("batch", "seq", "hidden"));
	add(l, "lm_head.input", "the LM head's input", TEACH_ROLE_LOGITS, e, 1, 3, SIZES(b, s, d),
	    DIMS("batch", "seq", "hidden"));
	add(l, "logits", "a score per vocabulary entry for every position", TEACH_ROLE_LOGITS, e, 1, 3,
	    SIZES(b, s, m->vocab), DIMS("batch", "seq", "vocab"));
	add(l, "log_probs", "cross-entropy's fp32 log-softmax, kept for the backward", TEACH_ROLE_LOGITS,
	    ENGINE_DT_FP32, 1, 3, SIZES(b, s, m->vocab), DIMS("batch", "seq", "vocab"));
}

static void inference(const struct engine_scenario *sc, int e, int kv, struct list *l)
{
	const struct engine_model *m = &sc->model;
	int64_t b = sc->batch, ctx = sc->prompt + sc->generate;

	add(l, "key_cache", "past keys, one tensor per layer (GQA: kv_heads, not heads)", TEACH_ROLE_KV_CACHE, kv,
	    (double)m->layers, 4, SIZES(b, m->kv_heads, ctx, m->head_dim), DIMS("batch", "kv_heads", "context", "head_dim"));
	add(l, "value_cache", "past values, one tensor per layer", TEACH_ROLE_KV_CACHE, kv, (double)m->layers, 4,
	    SIZES(b, m->kv_heads, ctx, m->head_dim), DIMS("batch", "kv_heads", "context", "head_dim"));
	add(l, "logits", "the last position's scores, one row per sequence", TEACH_ROLE_LOGITS, e, 1, 2,
	    SIZES(b, m->vocab), DIMS("batch", "vocab"));
	add(l, "probs", "the sampler's fp32 softmax", TEACH_ROLE_LOGITS, ENGINE_DT_FP32, 1, 2, SIZES(b, m->vocab),
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
