/*
 * What today's architectures add to a dense decoder, read from a model file under the
 * names Hugging Face's configuration classes give them (napkin's model files use the
 * same names): MoE as it is built, multi-head latent attention, q/k norms, attention
 * sinks, four norms a layer, linear-attention layers, and which layers slide a window or
 * chunk (pmodel_hf_window_layers). The engine's layer table
 * (src/engine/layer.c) turns them into ops.
 *
 * Sources, per key (transformers, src/transformers/models/<type>/configuration_<type>.py
 * and modeling_<type>.py):
 *  - experts: num_local_experts (Mixtral, gpt-oss, Llama 4), n_routed_experts (DeepSeek-V2/V3,
 *    Kimi K2), num_experts (Qwen2/3-MoE, Qwen3-Next); num_experts_per_tok (gpt-oss also
 *    experts_per_token).
 *  - moe_intermediate_size: a routed expert's width (DeepSeek, Qwen-MoE); Llama 4's experts
 *    use intermediate_size and its dense layers intermediate_size_mlp; gpt-oss's experts
 *    intermediate_size.
 *  - shared experts: n_shared_experts of moe_intermediate_size each (DeepSeek), or one of
 *    shared_expert_intermediate_size with a sigmoid gate (Qwen2-MoE, Qwen3-Next), or one of
 *    intermediate_size (Llama 4's shared_expert).
 *  - which layers are MoE: first_k_dense_replace (DeepSeek), decoder_sparse_step (Qwen-MoE),
 *    moe_layer_freq (DeepSeek-V2), interleave_moe_layer_step (Llama 4).
 *  - MLA: q_lora_rank (null: a plain q_proj), kv_lora_rank, qk_nope_head_dim,
 *    qk_rope_head_dim, v_head_dim; num_nextn_predict_layers (MTP, DeepSeek-V3).
 *  - linear attention (Qwen3-Next): layer_types "linear_attention" or full_attention_interval,
 *    linear_num_key_heads, linear_num_value_heads, linear_key_head_dim,
 *    linear_value_head_dim, linear_conv_kernel_dim; attn_output_gate.
 */
#include <string.h>

#include "i18n.h"
#include "internal.h"

/* Traits of a family beyond the dense decoder's, from its modelling code. */
struct arch_traits {
	const char *type;
	bool qk_norm;      /* q_norm / k_norm over head_dim */
	bool sinks;        /* GptOssAttention.sinks: one per head */
	int norms;         /* norms per layer (0: 2) */
	bool router_bias;  /* gpt-oss's router bias; DeepSeek-V3's e_score_correction_bias, stored
			    * in the checkpoint */
	bool expert_bias;  /* GptOssExperts' gate_up_proj_bias and down_proj_bias */
	bool shared_gate;  /* Qwen2MoeSparseMoeBlock.shared_expert_gate */
	bool attn_gate;    /* Qwen3NextAttention: q_proj makes the output gate too (default on) */
	bool llama4;       /* Llama 4's experts and dense widths */
};

static const struct arch_traits traits[] = {
	{"qwen3", true, false, 0, false, false, false, false, false},
	{"qwen3_moe", true, false, 0, false, false, false, false, false},
	{"qwen3_next", true, false, 0, false, false, true, true, false},
	{"qwen2_moe", false, false, 0, false, false, true, false, false},
	{"gemma2", false, false, 4, false, false, false, false, false},
	{"gemma3_text", true, false, 4, false, false, false, false, false},
	{"gpt_oss", false, true, 0, true, true, false, false, false},
	{"deepseek_v3", false, false, 0, true, false, false, false, false},
	{"kimi_k2", false, false, 0, true, false, false, false, false},
	{"llama4_text", false, false, 0, false, false, false, false, true},
	{"olmo2", true, false, 0, false, false, false, false, false},
};

/* Architectures napkin cannot count yet, named with what it lacks: never blamed on the file. */
static const struct {
	const char *type, *what;
} unsupported[] = {
	{"kimi_linear", N_("Kimi-Linear's Kimi Delta Attention layers")},
	{"jamba", N_("Jamba's Mamba layers")},
	{"nemotron_h", N_("Nemotron-H's Mamba2 layers")},
	{"falcon_h1", N_("Falcon-H1's Mamba2 heads")},
	{"mamba", N_("Mamba's state-space layers")},
	{"mamba2", N_("Mamba2's state-space layers")},
	{"zamba2", N_("Zamba2's Mamba2 layers")},
	{"granitemoehybrid", N_("Granite 4's Mamba2 layers")},
	{"minimax", N_("MiniMax's lightning attention layers")},
	{"rwkv", N_("RWKV's recurrent layers")},
};

/* What a configuration class assumes for a key its config.json leaves out (Gemma 3's
 * text_config omits vocab_size and the context: Gemma3TextConfig's defaults). */
static const struct {
	const char *type, *key;
	int64_t value;
} defaults[] = {
	{"gemma3_text", "vocab_size", 262208},
	{"gemma3_text", "max_position_embeddings", 131072},
	{"gemma3_text", "sliding_window_pattern", 6},
	{"gemma3_text", "head_dim", 256},
	{"gemma3_text", "num_attention_heads", 8},
	{"gemma3_text", "num_key_value_heads", 4},
};

int64_t pmodel_arch_default(const char *type, const char *key)
{
	size_t i;

	for (i = 0; i < sizeof defaults / sizeof defaults[0]; i++)
		if (strcmp(defaults[i].type, type) == 0 && strcmp(defaults[i].key, key) == 0)
			return defaults[i].value;
	return 0;
}

static const struct arch_traits *traits_of(const char *type)
{
	size_t i;

	for (i = 0; i < sizeof traits / sizeof traits[0]; i++)
		if (strcmp(traits[i].type, type) == 0)
			return &traits[i];
	return NULL;
}

/* The first of the keys present (null is absent), or NULL. */
static const struct ydoc_node *first_of(struct pdiag *d, const struct ydoc_node *root, const char *const *keys)
{
	size_t i;
	const struct ydoc_node *v;

	for (i = 0; keys[i] != NULL; i++)
		if ((v = pd_field(d, root, keys[i], false, true)) != NULL)
			return v;
	return NULL;
}

static int count(struct pdiag *d, const struct ydoc_node *v, double min, int64_t *out)
{
	return pd_int(d, v, ENGINE_UNIT_COUNT, min, 1e9, out);
}

/* An integer key into *out when present; its node. */
static const struct ydoc_node *int_key(struct pdiag *d, const struct ydoc_node *root, const char *key, double min,
				       int64_t *out)
{
	const struct ydoc_node *v = pd_field(d, root, key, false, true);

	if (v != NULL && count(d, v, min, out) != 0)
		return NULL;
	return v;
}

static void bool_key(struct pdiag *d, const struct ydoc_node *root, const char *key, bool *out)
{
	const struct ydoc_node *v = pd_field(d, root, key, false, true);

	if (v != NULL)
		(void)pd_bool(d, v, out);
}

int pmodel_arch_unsupported(struct pdiag *d, const struct ydoc_node *type_node, const char *type)
{
	size_t i;

	for (i = 0; i < sizeof unsupported / sizeof unsupported[0]; i++)
		if (strcmp(unsupported[i].type, type) == 0) {
			pd_bad(d, type_node, NAPKIN_ESCHEMA,
			       N_("model_type '%s': %s are not supported by napkin yet (it counts softmax attention, "
				  "MLA, gated DeltaNet, dense and MoE MLPs)"),
			       type, _(unsupported[i].what));
			return -1;
		}
	return 0;
}

/* Which layers of a Hugging Face config slide the window, when it has one.
 *  - layer_types (transformers 4.53 and later: Gemma 3, gpt-oss, Qwen3, ...): one entry a layer,
 *    "sliding_attention" or "full_attention";
 *  - else Qwen2/Qwen3's max_window_layers: layer i slides when use_sliding_window is true and
 *    i >= max_window_layers (Qwen2Config and Qwen3Config build layer_types that way; their
 *    defaults are use_sliding_window false and max_window_layers 28);
 *  - else every layer (Mistral, Phi-3).
 * m->window_layers is how many slide (0: every one); m->sliding_window becomes 0 when none does. */
void pmodel_hf_window_layers(struct pdiag *d, const struct ydoc_node *root, struct engine_model *m)
{
	static const char *const qwen[] = {"qwen2", "qwen2_moe", "qwen3", "qwen3_moe", NULL};
	const struct ydoc_node *lt = pd_field(d, root, "layer_types", false, true);
	int64_t sliding;
	size_t i;
	bool is_qwen = false;

	for (i = 0; qwen[i] != NULL; i++)
		is_qwen = is_qwen || strcmp(m->arch, qwen[i]) == 0;
	if (lt != NULL) {
		const char *other = NULL;
		size_t n_other = 0;
		int64_t linear = 0;
		if (lt->kind != YDOC_SEQ) {
			pd_bad(d, lt, NAPKIN_ESCHEMA, N_("layer_types must be a list with one attention type per layer"));
			return;
		}
		if ((int64_t)lt->n != m->layers) {
			pd_bad(d, lt, NAPKIN_ESCHEMA, N_("layer_types has %zu entries for %lld layers"), lt->n,
			       (long long)m->layers);
			return;
		}
		sliding = 0;
		for (i = 0; i < lt->n; i++) {
			const struct ydoc_node *t = lt->items[i];
			if (t->kind != YDOC_SCALAR) {
				pd_bad(d, t, NAPKIN_ESCHEMA, N_("layer_types must be a list with one attention type per layer"));
				return;
			}
			/* Llama 4's chunked_attention layers are counted as windows of the chunk */
			if (strcmp(t->text, "sliding_attention") == 0 || strcmp(t->text, "chunked_attention") == 0) {
				sliding++;
			} else if (strcmp(t->text, "linear_attention") == 0) {
				linear++; /* Qwen3-Next's gated DeltaNet layers */
			} else if (strcmp(t->text, "full_attention") != 0) {
				if (other == NULL)
					other = t->text;
				n_other++;
			}
		}
		m->linear_layers = linear;
		if (other != NULL)
			pd_warn(d, lt->line, lt->col,
				N_("layer_types: %zu of %lld layers are of a type napkin does not model yet ('%.40s'): "
				   "counted as full attention"),
				n_other, (long long)m->layers, other);
		if (m->sliding_window <= 0)
			return;
	} else if (m->sliding_window <= 0) {
		return;
	} else if (is_qwen) {
		const struct ydoc_node *use = ydoc_get(root, "use_sliding_window");
		const struct ydoc_node *mw = pd_field(d, root, "max_window_layers", false, true);
		double x = 28;
		if (use == NULL || use->kind != YDOC_SCALAR || strcmp(use->text, "true") != 0) {
			m->sliding_window = 0;
			return;
		}
		if (mw != NULL && pd_number(d, mw, ENGINE_UNIT_LAYERS, 0, 1e9, &x) != 0)
			return;
		sliding = (int64_t)x >= m->layers ? 0 : m->layers - (int64_t)x;
	} else {
		/* every n-th layer global, the others local: Gemma 3's sliding_window_pattern
		 * (Gemma3TextConfig: layer i slides unless (i + 1) % 6 == 0), Llama 4's NoPE
		 * layers (no_rope_layer_interval 4: every fourth layer is global) */
		const struct ydoc_node *pat = pd_field(d, root, "sliding_window_pattern", false, true);
		int64_t n = pmodel_arch_default(m->arch, "sliding_window_pattern");
		double x;
		if (pat != NULL && pd_number(d, pat, ENGINE_UNIT_COUNT, 1, 1e6, &x) == 0)
			n = (int64_t)x;
		if (n <= 0 && strcmp(m->arch, "llama4_text") == 0)
			n = 4;
		if (n <= 0)
			return;
		sliding = m->layers - m->layers / n;
	}
	if (sliding == 0)
		m->sliding_window = 0;
	m->window_layers = sliding >= m->layers ? 0 : sliding;
}

void pmodel_arch(struct pdiag *d, const struct ydoc_node *root, bool hf, struct engine_model *m)
{
	static const char *const experts_keys[] = {"num_local_experts", "n_routed_experts", "num_experts", NULL};
	static const char *const topk_keys[] = {"num_experts_per_tok", "experts_per_token", NULL};
	static const char *const every_keys[] = {"decoder_sparse_step", "interleave_moe_layer_step", "moe_layer_freq",
						 NULL};
	const struct arch_traits *tr = traits_of(m->arch);
	const struct ydoc_node *experts_node, *topk_node, *v;
	int64_t x;

	m->experts = 1;
	m->top_k = 1;
	if (tr != NULL) {
		m->qk_norm = tr->qk_norm;
		m->sinks = tr->sinks;
		m->norms_per_layer = tr->norms;
		m->router_bias = tr->router_bias;
		m->expert_bias = tr->expert_bias;
		m->shared_gate = tr->shared_gate;
		m->attn_gate = tr->attn_gate;
	}

	/* MoE */
	if ((experts_node = first_of(d, root, experts_keys)) != NULL)
		(void)count(d, experts_node, 1, &m->experts);
	if ((topk_node = first_of(d, root, topk_keys)) != NULL)
		(void)count(d, topk_node, 1, &m->top_k);
	if (m->experts <= 1)
		m->top_k = 1; /* a dense model's num_experts_per_tok means nothing */
	else if (topk_node == NULL)
		pd_bad(d, experts_node, NAPKIN_ESCHEMA, N_("num_experts_per_tok is required with %s"), experts_node->key);
	else if (m->top_k > m->experts)
		pd_bad(d, topk_node, NAPKIN_EINVAL, N_("%lld experts per token exceed the %lld experts"),
		       (long long)m->top_k, (long long)m->experts);
	if (m->experts > 1) {
		(void)int_key(d, root, "moe_intermediate_size", 1, &m->moe_ffn);
		(void)int_key(d, root, "n_shared_experts", 0, &m->shared_experts);
		x = 0;
		if (int_key(d, root, "shared_expert_intermediate_size", 0, &x) != NULL && x > 0) {
			m->shared_experts = 1;
			m->shared_ffn = x;
		}
		(void)int_key(d, root, "first_k_dense_replace", 0, &m->dense_layers);
		if ((v = first_of(d, root, every_keys)) != NULL)
			(void)count(d, v, 1, &m->moe_every);
		if (hf && tr != NULL && tr->llama4) {
			/* Llama4TextMoe: experts and the shared expert of intermediate_size; the
			 * dense layers' Llama4TextMLP of intermediate_size_mlp */
			int64_t dense = 0;
			m->moe_ffn = m->ffn;
			m->shared_experts = 1;
			m->shared_ffn = m->ffn;
			if (int_key(d, root, "intermediate_size_mlp", 1, &dense) != NULL)
				m->ffn = dense;
		}
		if ((v = pd_field(d, root, "mlp_only_layers", false, true)) != NULL && v->kind == YDOC_SEQ && v->n > 0)
			pd_warn(d, v->line, v->col,
				N_("mlp_only_layers: %zu dense layers among the MoE ones are counted as MoE"), v->n);
		bool_key(d, root, "router_bias", &m->router_bias);
		bool_key(d, root, "expert_bias", &m->expert_bias);
		bool_key(d, root, "shared_expert_gate", &m->shared_gate);
		if (m->dense_layers > m->layers)
			m->dense_layers = m->layers;
	}

	/* multi-head latent attention */
	if (int_key(d, root, "kv_lora_rank", 1, &m->kv_lora_rank) != NULL) {
		const struct ydoc_node *nope = int_key(d, root, "qk_nope_head_dim", 1, &m->qk_nope_dim);
		const struct ydoc_node *rope = int_key(d, root, "qk_rope_head_dim", 1, &m->qk_rope_dim);
		(void)int_key(d, root, "q_lora_rank", 1, &m->q_lora_rank);
		if (int_key(d, root, "v_head_dim", 1, &m->v_head_dim) == NULL)
			m->v_head_dim = m->qk_nope_dim;
		if (nope == NULL || rope == NULL)
			pd_bad(d, pd_field(d, root, "kv_lora_rank", false, true), NAPKIN_ESCHEMA,
			       N_("multi-head latent attention needs qk_nope_head_dim and qk_rope_head_dim"));
		else
			m->head_dim = m->qk_nope_dim + m->qk_rope_dim;
	}
	(void)int_key(d, root, "num_nextn_predict_layers", 0, &m->mtp_layers);

	/* attention extras a napkin file may set */
	bool_key(d, root, "qk_norm", &m->qk_norm);
	bool_key(d, root, "sinks", &m->sinks);
	bool_key(d, root, "attn_output_gate", &m->attn_gate);
	if ((v = pd_field(d, root, "norms_per_layer", false, true)) != NULL) {
		int64_t n = 0;
		if (pd_int(d, v, ENGINE_UNIT_COUNT, 1, 8, &n) == 0)
			m->norms_per_layer = (int)n;
	}

	/* linear attention: gated DeltaNet's shape; its layers from layer_types (model.c) or
	 * full_attention_interval (Qwen3NextConfig: layer i is full when (i + 1) % n == 0) */
	if (int_key(d, root, "linear_num_value_heads", 1, &m->lin_v_heads) != NULL) {
		(void)int_key(d, root, "linear_num_key_heads", 1, &m->lin_k_heads);
		(void)int_key(d, root, "linear_key_head_dim", 1, &m->lin_k_dim);
		(void)int_key(d, root, "linear_value_head_dim", 1, &m->lin_v_dim);
		m->lin_conv = 4;
		(void)int_key(d, root, "linear_conv_kernel_dim", 1, &m->lin_conv);
		if (ydoc_get(root, "layer_types") == NULL) {
			int64_t n = 4;
			if ((v = pd_field(d, root, "full_attention_interval", false, true)) != NULL)
				(void)count(d, v, 1, &n);
			m->linear_layers = m->layers - m->layers / n;
		}
		if (m->lin_k_heads <= 0)
			m->lin_k_heads = m->lin_v_heads;
	}
	(void)int_key(d, root, "linear_layers", 0, &m->linear_layers);

	/* a napkin model file says its checkpoint's weight format by name (a config.json by its
	 * quantization_config, model_hf.c): served in it unless weight_format is given */
	if (!hf && (v = pd_field(d, root, "checkpoint_format", false, true)) != NULL) {
		const char *names[ENGINE_WF_COUNT + 1];
		int f, c;
		for (f = 0; f < ENGINE_WF_COUNT; f++)
			names[f] = engine_weight_format_info((enum engine_weight_format)f)->name;
		names[ENGINE_WF_COUNT] = NULL;
		if (pd_choice(d, v, names, &c) == 0)
			m->checkpoint_format = c;
	}
}

static void put_int(struct pbuf *b, int indent, const char *key, int64_t v)
{
	if (v > 0)
		pbuf_printf(b, "%*s%s: %lld\n", indent, "", key, (long long)v);
}

static void put_bool(struct pbuf *b, int indent, const char *key, bool v, bool family)
{
	if (v != family)
		pbuf_printf(b, "%*s%s: %s\n", indent, "", key, v ? "true" : "false");
}

void pmodel_arch_yaml(struct pbuf *b, const struct engine_model *m, int indent)
{
	const struct arch_traits *tr = traits_of(m->arch);
	static const struct arch_traits none;

	if (tr == NULL)
		tr = &none;
	if (m->experts > 1) {
		put_int(b, indent, "moe_intermediate_size", m->moe_ffn);
		put_int(b, indent, "n_shared_experts", m->shared_ffn > 0 ? 0 : m->shared_experts);
		put_int(b, indent, "shared_expert_intermediate_size", m->shared_ffn);
		put_int(b, indent, "first_k_dense_replace", m->dense_layers);
		put_int(b, indent, "decoder_sparse_step", m->moe_every > 1 ? m->moe_every : 0);
		put_bool(b, indent, "router_bias", m->router_bias, tr->router_bias);
		put_bool(b, indent, "expert_bias", m->expert_bias, tr->expert_bias);
		put_bool(b, indent, "shared_expert_gate", m->shared_gate, tr->shared_gate);
	}
	if (m->kv_lora_rank > 0) {
		put_int(b, indent, "q_lora_rank", m->q_lora_rank);
		put_int(b, indent, "kv_lora_rank", m->kv_lora_rank);
		put_int(b, indent, "qk_nope_head_dim", m->qk_nope_dim);
		put_int(b, indent, "qk_rope_head_dim", m->qk_rope_dim);
		put_int(b, indent, "v_head_dim", m->v_head_dim);
	}
	put_int(b, indent, "num_nextn_predict_layers", m->mtp_layers);
	put_bool(b, indent, "qk_norm", m->qk_norm, tr->qk_norm);
	put_bool(b, indent, "sinks", m->sinks, tr->sinks);
	put_bool(b, indent, "attn_output_gate", m->attn_gate, tr->attn_gate);
	if (m->norms_per_layer > 0 && m->norms_per_layer != (tr->norms > 0 ? tr->norms : 2))
		put_int(b, indent, "norms_per_layer", m->norms_per_layer);
	if (m->checkpoint_format > ENGINE_WF_DTYPE && m->checkpoint_format < ENGINE_WF_COUNT)
		pbuf_printf(b, "%*scheckpoint_format: %s\n", indent, "",
			    engine_weight_format_info((enum engine_weight_format)m->checkpoint_format)->name);
	if (m->linear_layers > 0) {
		put_int(b, indent, "linear_layers", m->linear_layers);
		put_int(b, indent, "linear_num_key_heads", m->lin_k_heads);
		put_int(b, indent, "linear_num_value_heads", m->lin_v_heads);
		put_int(b, indent, "linear_key_head_dim", m->lin_k_dim);
		put_int(b, indent, "linear_value_head_dim", m->lin_v_dim);
		put_int(b, indent, "linear_conv_kernel_dim", m->lin_conv);
	}
}
