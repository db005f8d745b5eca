/*
 * Models: presets/models/<id>.yaml in napkin's format (Hugging Face config.json key names
 * plus `architecture` and explicit traits), or a Hugging Face config.json as it is (told
 * apart by its `model_type`; its other keys are ignored).
 *
 * Each model_type implies traits, read from the Hugging Face transformers modelling code
 * of that family (modeling_<type>.py and configuration_<type>.py): the MLP (gated with a
 * gate projection, or plain), the norm (RMSNorm weight, or LayerNorm weight and bias),
 * which linears carry biases, the default of tie_word_embeddings, and the positions
 * (rotary, or a learned table).
 */
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "i18n.h"
#include "internal.h"

enum { B_QKV = 1, B_O = 2, B_MLP = 4, B_ALL = 7 };

struct family {
	const char *type;
	enum engine_mlp mlp;
	enum engine_norm norm;
	int bias;
	bool tied;
	enum engine_position position;
	bool dropout;           /* trained with dropout by default */
	int pos_offset;         /* rows of the learned position table beyond max_position_embeddings */
	const char *dropout_key; /* the config key holding the residual dropout probability */
};

static const struct family families[] = {
	/* GPT2Model: Conv1D c_attn/c_proj/c_fc with biases, LayerNorm, wpe; tie_word_embeddings
	 * defaults to true; resid_pdrop 0.1 */
	{"gpt2", ENGINE_MLP_PLAIN, ENGINE_NORM_LAYER, B_ALL, true, ENGINE_POS_LEARNED, true, 0, "resid_pdrop"},
	/* GPTNeoX (Pythia): query_key_value and dense with biases, LayerNorm, rotary, untied embed_out */
	{"gpt_neox", ENGINE_MLP_PLAIN, ENGINE_NORM_LAYER, B_ALL, false, ENGINE_POS_ROPE, false, 0, "hidden_dropout"},
	/* Llama, Mistral, Mixtral: SwiGLU (gate, up, down), RMSNorm, no biases, rotary, untied */
	{"llama", ENGINE_MLP_GATED, ENGINE_NORM_RMS, 0, false, ENGINE_POS_ROPE, false, 0, "attention_dropout"},
	{"mistral", ENGINE_MLP_GATED, ENGINE_NORM_RMS, 0, false, ENGINE_POS_ROPE, false, 0, "attention_dropout"},
	{"mixtral", ENGINE_MLP_GATED, ENGINE_NORM_RMS, 0, false, ENGINE_POS_ROPE, false, 0, "attention_dropout"},
	/* Qwen2: as Llama, with biases on q_proj, k_proj and v_proj only; Qwen2-MoE the same */
	{"qwen2", ENGINE_MLP_GATED, ENGINE_NORM_RMS, B_QKV, false, ENGINE_POS_ROPE, false, 0, "attention_dropout"},
	{"qwen2_moe", ENGINE_MLP_GATED, ENGINE_NORM_RMS, B_QKV, false, ENGINE_POS_ROPE, false, 0, "attention_dropout"},
	/* Qwen3, Qwen3-MoE, Qwen3-Next: no biases (attention_bias false), q/k norms (model_arch.c) */
	{"qwen3", ENGINE_MLP_GATED, ENGINE_NORM_RMS, 0, false, ENGINE_POS_ROPE, false, 0, "attention_dropout"},
	{"qwen3_moe", ENGINE_MLP_GATED, ENGINE_NORM_RMS, 0, false, ENGINE_POS_ROPE, false, 0, "attention_dropout"},
	{"qwen3_next", ENGINE_MLP_GATED, ENGINE_NORM_RMS, 0, false, ENGINE_POS_ROPE, false, 0, "attention_dropout"},
	/* DeepSeek-V2/V3 and Kimi K2 (DeepseekV3ForCausalLM): SwiGLU experts, RMSNorm, MLA, untied */
	{"deepseek_v2", ENGINE_MLP_GATED, ENGINE_NORM_RMS, 0, false, ENGINE_POS_ROPE, false, 0, "attention_dropout"},
	{"deepseek_v3", ENGINE_MLP_GATED, ENGINE_NORM_RMS, 0, false, ENGINE_POS_ROPE, false, 0, "attention_dropout"},
	{"kimi_k2", ENGINE_MLP_GATED, ENGINE_NORM_RMS, 0, false, ENGINE_POS_ROPE, false, 0, "attention_dropout"},
	/* Llama 4's text model: experts and a shared expert (model_arch.c), chunked attention */
	{"llama4_text", ENGINE_MLP_GATED, ENGINE_NORM_RMS, 0, false, ENGINE_POS_ROPE, false, 0, "attention_dropout"},
	/* gpt-oss: biases on q, k, v and o (attention_bias true), experts with biases, sinks */
	{"gpt_oss", ENGINE_MLP_GATED, ENGINE_NORM_RMS, B_QKV | B_O, false, ENGINE_POS_ROPE, false, 0, "attention_dropout"},
	/* Gemma: GeGLU (gated), RMSNorm, no biases, head_dim given, embeddings tied */
	{"gemma", ENGINE_MLP_GATED, ENGINE_NORM_RMS, 0, true, ENGINE_POS_ROPE, false, 0, "attention_dropout"},
	{"gemma2", ENGINE_MLP_GATED, ENGINE_NORM_RMS, 0, true, ENGINE_POS_ROPE, false, 0, "attention_dropout"},
	/* Gemma 3's text model (gemma3_text, in a Gemma 3 config's text_config): as Gemma 2, q/k norms */
	{"gemma3_text", ENGINE_MLP_GATED, ENGINE_NORM_RMS, 0, true, ENGINE_POS_ROPE, false, 0, "attention_dropout"},
	/* Phi-3: fused qkv_proj and gate_up_proj (gated), RMSNorm, no biases, untied */
	{"phi3", ENGINE_MLP_GATED, ENGINE_NORM_RMS, 0, false, ENGINE_POS_ROPE, false, 0, "resid_pdrop"},
	/* OPT: fc1/fc2 with biases (enable_bias), LayerNorm, learned positions with an offset of
	 * 2 rows (OPTLearnedPositionalEmbedding), tied; dropout 0.1 */
	{"opt", ENGINE_MLP_PLAIN, ENGINE_NORM_LAYER, B_ALL, true, ENGINE_POS_LEARNED, true, 2, "dropout"},
};

/* Assumed for an unknown model_type (the most common decoder today). */
static const struct family family_default = {
	"", ENGINE_MLP_GATED, ENGINE_NORM_RMS, 0, false, ENGINE_POS_ROPE, false, 0, NULL,
};

static const struct family *family_of(const char *type)
{
	size_t i;

	for (i = 0; i < sizeof families / sizeof families[0]; i++)
		if (strcmp(type, families[i].type) == 0)
			return &families[i];
	return NULL;
}

static const char *const model_keys[] = {
	"name", "architecture", "vocab_size", "hidden_size", "num_hidden_layers", "num_attention_heads",
	"num_key_value_heads", "head_dim", "intermediate_size", "tie_word_embeddings", "max_position_embeddings",
	"num_local_experts", "num_experts_per_tok", "mlp", "norm", "bias", "position", "dropout",
	"params_published", "source", "sliding_window", "window_layers",
	/* MoE as built, MLA, attention extras, linear attention (model_arch.c) */
	"n_routed_experts", "num_experts", "experts_per_token", "moe_intermediate_size", "n_shared_experts",
	"shared_expert_intermediate_size", "shared_expert_gate", "first_k_dense_replace", "decoder_sparse_step",
	"interleave_moe_layer_step", "moe_layer_freq", "router_bias", "expert_bias", "q_lora_rank", "kv_lora_rank",
	"qk_nope_head_dim", "qk_rope_head_dim", "v_head_dim", "num_nextn_predict_layers", "qk_norm", "sinks",
	"attn_output_gate", "norms_per_layer", "linear_layers", "linear_num_key_heads", "linear_num_value_heads",
	"linear_key_head_dim", "linear_value_head_dim", "linear_conv_kernel_dim", "intermediate_size_mlp",
	"checkpoint_format",
	/* GPT-2's and OPT's names for the same fields */
	"n_embd", "n_layer", "n_head", "n_inner", "n_positions", "ffn_dim", NULL,
};

static const char *const mlp_names[] = {"gated", "plain", NULL};
static const char *const norm_names[] = {"rmsnorm", "layernorm", NULL};
static const char *const pos_names[] = {"rope", "learned", "none", NULL};
static const char *const bias_names[] = {"none", "qkv", "attn", "all", NULL};
static const int bias_ladder[] = {0, B_QKV, B_QKV | B_O, B_ALL};
static const char *const bias_parts[] = {"qkv", "o", "mlp", NULL};

bool pmodel_looks_like(const struct ydoc_node *root)
{
	static const char *const keys[] = {"model_type", "architecture", "hidden_size", "num_hidden_layers",
					   "n_embd", "vocab_size", NULL};
	size_t i;

	for (i = 0; keys[i] != NULL; i++)
		if (ydoc_get(root, keys[i]) != NULL)
			return true;
	return false;
}

/* The value of the first key present (a field with another family's name); two that
 * disagree are an error. null counts as absent. */
static const struct ydoc_node *alias(struct pdiag *d, const struct ydoc_node *root, const char *a, const char *b)
{
	const struct ydoc_node *x = pd_field(d, root, a, false, true);
	const struct ydoc_node *y = b != NULL ? pd_field(d, root, b, false, true) : NULL;

	if (x != NULL && y != NULL && strcmp(x->text ? x->text : "", y->text ? y->text : "") != 0) {
		pd_bad(d, y, NAPKIN_ESCHEMA, N_("%s and %s disagree: give one of them"), a, b);
		return NULL;
	}
	return x != NULL ? x : y;
}

/* A required field that has two names: reports it missing (or null) once. */
static const struct ydoc_node *required_alias(struct pdiag *d, const struct ydoc_node *root, const char *a,
					      const char *b)
{
	size_t n0 = d->n;
	const struct ydoc_node *x = alias(d, root, a, b);

	if (x == NULL && d->n == n0)
		pd_field(d, root, ydoc_get(root, a) == NULL && ydoc_get(root, b) != NULL ? b : a, true, true);
	return x;
}

static int arch_int(struct pdiag *d, const struct ydoc_node *n, const char *knob, int64_t *out)
{
	const struct engine_knob *k = engine_knob_find(knob);

	return pd_int(d, n, k->unit == ENGINE_UNIT_TOKENS ? ENGINE_UNIT_TOKENS : ENGINE_UNIT_COUNT, k->min, k->max,
		      out);
}

static int parse_bias(struct pdiag *d, const struct ydoc_node *n, int *out)
{
	size_t i;
	int mask = 0, c;

	if (n->kind == YDOC_SEQ) {
		for (i = 0; i < n->n; i++) {
			if (pd_choice(d, n->items[i], bias_parts, &c) != 0)
				return -1;
			mask |= 1 << c;
		}
		*out = mask;
		return 0;
	}
	if (n->kind == YDOC_SCALAR && strcasecmp(n->text, "off") == 0) {
		*out = 0;
		return 0;
	}
	if (pd_choice(d, n, bias_names, &c) != 0)
		return -1;
	*out = bias_ladder[c];
	return 0;
}

/* dropout: on/off, or a probability (0: off). */
static int parse_dropout(struct pdiag *d, const struct ydoc_node *n, bool *out)
{
	double p;
	struct napkin_err e;

	if (n->kind == YDOC_SCALAR && engine_unit_parse(ENGINE_UNIT_NONE, n->text, &p, &e) == NAPKIN_OK) {
		if (p < 0 || p >= 1) {
			pd_bad(d, n, NAPKIN_EINVAL, N_("a dropout probability is in [0, 1) (got %.40s)"), n->text);
			return -1;
		}
		*out = p > 0;
		return 0;
	}
	return pd_bool(d, n, out);
}

struct traits_given {
	bool mlp, norm, bias, tied, position;
};

/* The traits napkin assumed for an unknown architecture, each a whole phrase, in a list a
 * translator can punctuate: "a gated MLP, RMSNorm, no biases, untied embeddings, rotary
 * positions". */
static void assumed_traits(const struct engine_model *m, int bias, char *buf, size_t n)
{
	const char *t[5];
	size_t pos = 0, i;

	buf[0] = '\0';
	t[0] = m->mlp == ENGINE_MLP_GATED ? _("a gated MLP") : _("a plain MLP");
	t[1] = m->norm == ENGINE_NORM_RMS ? "RMSNorm" : "LayerNorm";
	t[2] = bias == 0 ? _("no biases") : _("some biases");
	t[3] = m->tied ? _("tied embeddings") : _("untied embeddings");
	t[4] = m->position == ENGINE_POS_ROPE	 ? _("rotary positions")
	       : m->position == ENGINE_POS_LEARNED ? _("learned positions")
						   : _("no positions");
	for (i = 0; i < 5; i++)
		/* TRANSLATORS: between the items of a list ("a gated MLP, RMSNorm, no biases") */
		util_bprintf(buf, n, &pos, "%s%s", i > 0 ? C_("list", ", ") : "", t[i]);
}

int pmodel_from_doc(struct pdiag *d, const struct ydoc_node *root, const char *id, const char *path,
		    struct engine_model *out)
{
	struct engine_model m;
	const struct ydoc_node *v, *arch_node, *heads_node = NULL, *kv_node = NULL, *hidden_node = NULL;
	const struct ydoc_node *ffn_node = NULL, *outer = root;
	const struct family *fam;
	struct traits_given given = {false, false, false, false, false};
	size_t n0 = d->n;
	bool hf;
	int c, bias, rc;
	double x;

	memset(&m, 0, sizeof m);
	if ((rc = pd_root(d, root, _("model keys (architecture, hidden_size, ...)"), id, m.id, sizeof m.id)) != NAPKIN_OK)
		return rc;
	hf = ydoc_get(root, "model_type") != NULL;
	if (!hf)
		pd_unknown_keys(d, root, model_keys, NULL);

	/* the family, and its traits */
	arch_node = pd_field(d, root, hf ? "model_type" : "architecture", true, true);
	if (arch_node != NULL && pd_string(d, arch_node, m.arch, sizeof m.arch) != 0)
		arch_node = NULL;
	if (arch_node != NULL && pmodel_arch_unsupported(d, arch_node, m.arch) != 0)
		return NAPKIN_ESCHEMA;
	/* a multimodal wrapper (Gemma 3, Llama 4, Mistral 3): the text model is in
	 * text_config, with its own model_type; the vision tower is not counted */
	if (hf) {
		const struct ydoc_node *tc = ydoc_get(root, "text_config");
		if (tc != NULL && tc->kind == YDOC_MAP && ydoc_get(root, "vocab_size") == NULL) {
			const struct ydoc_node *tt = ydoc_get(tc, "model_type");
			root = tc;
			if (tt != NULL && tt->kind == YDOC_SCALAR && pd_string(d, tt, m.arch, sizeof m.arch) == 0)
				arch_node = tt;
			if (arch_node != NULL && pmodel_arch_unsupported(d, arch_node, m.arch) != 0)
				return NAPKIN_ESCHEMA;
			if (ydoc_get(outer, "vision_config") != NULL)
				pd_warn(d, tc->line, tc->col,
					N_("the text model (text_config) is counted; the vision tower (vision_config) is not"));
		}
	}
	fam = family_of(m.arch);
	if (fam == NULL)
		fam = &family_default;
	m.mlp = fam->mlp;
	m.norm = fam->norm;
	bias = fam->bias;
	m.tied = fam->tied;
	m.position = fam->position;
	m.dropout = fam->dropout;

	if ((v = pd_field(d, root, "mlp", false, true)) != NULL && pd_choice(d, v, mlp_names, &c) == 0) {
		m.mlp = (enum engine_mlp)(c == 0 ? ENGINE_MLP_GATED : ENGINE_MLP_PLAIN);
		given.mlp = true;
	}
	if ((v = pd_field(d, root, "norm", false, true)) != NULL && pd_choice(d, v, norm_names, &c) == 0) {
		m.norm = (enum engine_norm)(c == 0 ? ENGINE_NORM_RMS : ENGINE_NORM_LAYER);
		given.norm = true;
	}
	if ((v = pd_field(d, root, "position", false, true)) != NULL && pd_choice(d, v, pos_names, &c) == 0) {
		m.position = (enum engine_position)(c == 0 ? ENGINE_POS_ROPE : c == 1 ? ENGINE_POS_LEARNED : ENGINE_POS_NONE);
		given.position = true;
	}
	if (hf) {
		/* the families' own bias switches */
		if ((v = pd_field(d, root, "attention_bias", false, true)) != NULL) {
			bool on;
			if (pd_bool(d, v, &on) == 0)
				bias = (bias & ~(B_QKV | B_O)) | (on ? B_QKV | B_O : 0);
		}
		if ((v = pd_field(d, root, "mlp_bias", false, true)) != NULL) {
			bool on;
			if (pd_bool(d, v, &on) == 0)
				bias = (bias & ~B_MLP) | (on ? B_MLP : 0);
		}
		if (strcmp(m.arch, "opt") == 0 && (v = pd_field(d, root, "enable_bias", false, true)) != NULL) {
			bool on;
			if (pd_bool(d, v, &on) == 0)
				bias = on ? B_ALL : 0;
		}
		if (fam->dropout_key != NULL && strcmp(fam->dropout_key, "dropout") != 0 &&
		    (v = pd_field(d, root, fam->dropout_key, false, true)) != NULL)
			parse_dropout(d, v, &m.dropout);
	}
	if ((v = pd_field(d, root, "bias", false, true)) != NULL && parse_bias(d, v, &bias) == 0)
		given.bias = true;
	m.qkv_bias = (bias & B_QKV) != 0;
	m.o_bias = (bias & B_O) != 0;
	m.mlp_bias = (bias & B_MLP) != 0;
	if ((v = pd_field(d, root, "tie_word_embeddings", false, true)) != NULL && pd_bool(d, v, &m.tied) == 0)
		given.tied = true;
	if ((v = pd_field(d, root, "dropout", false, true)) != NULL)
		parse_dropout(d, v, &m.dropout);

	/* the shape */
	if (hf && ydoc_get(root, "vocab_size") == NULL && pmodel_arch_default(m.arch, "vocab_size") > 0)
		m.vocab = pmodel_arch_default(m.arch, "vocab_size");
	else if ((v = pd_field(d, root, "vocab_size", true, true)) != NULL)
		arch_int(d, v, "vocab", &m.vocab);
	if ((hidden_node = required_alias(d, root, "hidden_size", "n_embd")) != NULL)
		arch_int(d, hidden_node, "hidden", &m.hidden);
	if ((v = required_alias(d, root, "num_hidden_layers", "n_layer")) != NULL)
		arch_int(d, v, "layers", &m.layers);
	if (hf && ydoc_get(root, "num_attention_heads") == NULL && pmodel_arch_default(m.arch, "num_attention_heads") > 0)
		m.heads = pmodel_arch_default(m.arch, "num_attention_heads");
	else if ((heads_node = required_alias(d, root, "num_attention_heads", "n_head")) != NULL)
		arch_int(d, heads_node, "heads", &m.heads);
	m.kv_heads = m.heads;
	if (hf && pmodel_arch_default(m.arch, "num_key_value_heads") > 0)
		m.kv_heads = pmodel_arch_default(m.arch, "num_key_value_heads");
	if ((kv_node = pd_field(d, root, "num_key_value_heads", false, true)) != NULL)
		arch_int(d, kv_node, "kv_heads", &m.kv_heads);
	if ((v = pd_field(d, root, "head_dim", false, true)) != NULL) {
		arch_int(d, v, "head_dim", &m.head_dim);
	} else if (hf && pmodel_arch_default(m.arch, "head_dim") > 0) {
		m.head_dim = pmodel_arch_default(m.arch, "head_dim");
	} else if (m.heads > 0 && m.hidden > 0) {
		if (m.hidden % m.heads != 0)
			pd_bad(d, heads_node, NAPKIN_ESCHEMA,
			       N_("hidden size %lld is not a multiple of %lld heads: give head_dim"), (long long)m.hidden,
			       (long long)m.heads);
		m.head_dim = m.hidden / m.heads;
	}
	ffn_node = alias(d, root, "intermediate_size", "n_inner");
	if (ffn_node == NULL)
		ffn_node = pd_field(d, root, "ffn_dim", false, true);
	if (ffn_node != NULL) {
		arch_int(d, ffn_node, "ffn", &m.ffn);
	} else if (strcmp(m.arch, "gpt2") == 0) {
		m.ffn = 4 * m.hidden; /* GPT2MLP: n_inner None means 4 × n_embd */
	} else {
		pd_field(d, root, "intermediate_size", true, true);
	}
	v = alias(d, root, "max_position_embeddings", "n_positions");
	if (v == NULL && hf)
		v = pd_field(d, root, "n_ctx", false, true);
	if (v != NULL) {
		if (arch_int(d, v, "max_positions", &m.max_positions) == 0 && m.position == ENGINE_POS_LEARNED)
			m.max_positions += fam->pos_offset;
	} else if (hf && pmodel_arch_default(m.arch, "max_position_embeddings") > 0) {
		m.max_positions = pmodel_arch_default(m.arch, "max_position_embeddings");
	} else if (m.position == ENGINE_POS_LEARNED) {
		pd_error(d, root->line, root->col, root, NAPKIN_ESCHEMA,
			 N_("missing required field 'max_position_embeddings' (learned positions need the table's size)"));
	} else {
		m.max_positions = 4096;
	}
	pmodel_arch(d, root, hf, &m);

	/* what the rest of the engine checks across fields, with positions */
	if (m.kv_heads > 0 && m.heads > 0 && kv_node != NULL) {
		if (m.kv_heads > m.heads)
			pd_bad(d, kv_node, NAPKIN_EINVAL, N_("%lld key/value heads exceed the %lld attention heads"),
			       (long long)m.kv_heads, (long long)m.heads);
		else if (m.heads % m.kv_heads != 0)
			pd_bad(d, kv_node, NAPKIN_EINVAL, N_("%lld key/value heads do not divide the %lld attention heads"),
			       (long long)m.kv_heads, (long long)m.heads);
	}

	/* name, published count, source */
	if ((v = pd_field(d, root, "name", false, true)) != NULL)
		pd_string(d, v, m.name, sizeof m.name);
	if ((v = pd_field(d, root, "params_published", false, true)) != NULL &&
	    pd_number(d, v, ENGINE_UNIT_COUNT, 0, 1e15, &x) == 0)
		m.params_published = x;
	if ((v = pd_field(d, root, "source", false, true)) != NULL)
		pd_string(d, v, m.source, sizeof m.source);
	else if (hf)
		snprintf(m.source, sizeof m.source, "Hugging Face config.json (model_type %.31s)", m.arch);

	/* sliding-window attention (Jiang et al. 2023, "Mistral 7B", §2; Phi-3; Gemma 2's local
	 * layers, every other one: Gemma2DecoderLayer uses the window when layer_idx % 2 == 0).
	 * null or use_sliding_window: false (Qwen2) is none. Read before the error check, so a
	 * window that is not a number of tokens is an error at its position, never dropped. */
	{
		const struct ydoc_node *use = ydoc_get(root, "use_sliding_window");
		bool off = use != NULL && use->kind == YDOC_SCALAR && strcmp(use->text, "false") == 0;
		if ((v = pd_field(d, root, "sliding_window", false, true)) != NULL && !off &&
		    pd_number(d, v, ENGINE_UNIT_TOKENS, 1, 1e9, &x) == 0)
			m.sliding_window = (int64_t)x;
		/* Llama 4's chunked attention (attention_chunk_size): a query sees the keys of its
		 * chunk, at most the chunk's length, and a layer caches at most one chunk: counted
		 * as a window of that length */
		if (m.sliding_window == 0 && hf && (v = pd_field(d, root, "attention_chunk_size", false, true)) != NULL &&
		    pd_number(d, v, ENGINE_UNIT_TOKENS, 1, 1e9, &x) == 0)
			m.sliding_window = (int64_t)x;
		if (m.sliding_window > 0 && strcmp(m.arch, "gemma2") == 0)
			m.window_layers = (m.layers + 1) / 2;
		if (hf)
			pmodel_hf_window_layers(d, root, &m);
		if ((v = pd_field(d, root, "window_layers", false, true)) != NULL &&
		    pd_number(d, v, ENGINE_UNIT_LAYERS, 0, (double)(m.layers > 0 ? m.layers : 1), &x) == 0)
			m.window_layers = (int64_t)x;
	}

	if (d->n > n0)
		return d->errs != NULL && d->max > 0 ? d->errs[0].code : NAPKIN_ESCHEMA;

	if (m.name[0] == '\0')
		pmodel_default_name(outer, hf, path, id, &m);

	/* warnings: traits napkin assumed, or could not represent, or does not know */
	if (hf)
		pmodel_hf_serving(d, outer, &m);
	if (arch_node != NULL && family_of(m.arch) == NULL &&
	    !(given.mlp && given.norm && given.bias && given.tied && given.position)) {
		char traits[300];
		assumed_traits(&m, bias, traits, sizeof traits);
		if (hf)
			pd_warn(d, arch_node->line, arch_node->col,
				N_("unknown model_type '%s': assumed %s (set mlp, norm, bias, tie_word_embeddings and "
				   "position to say otherwise)"),
				m.arch, traits);
		else
			pd_warn(d, arch_node->line, arch_node->col,
				N_("unknown architecture '%s': assumed %s (set mlp, norm, bias, tie_word_embeddings and "
				   "position to say otherwise)"),
				m.arch, traits);
	}
	if (hf && strcmp(m.arch, "opt") == 0) {
		int64_t proj = 0;
		bool before = true;
		if ((v = pd_field(d, root, "word_embed_proj_dim", false, true)) != NULL && v->kind == YDOC_SCALAR &&
		    engine_unit_parse(ENGINE_UNIT_NONE, v->text, &x, NULL) == NAPKIN_OK)
			proj = (int64_t)x;
		if (proj > 0 && proj != m.hidden)
			pd_warn(d, v->line, v->col,
				N_("word_embed_proj_dim %lld differs from hidden_size: the project_in/out matrices "
				   "(2 x %lld x %lld) are not counted"),
				(long long)proj, (long long)proj, (long long)m.hidden);
		if ((v = pd_field(d, root, "do_layer_norm_before", false, true)) != NULL && v->kind == YDOC_SCALAR &&
		    pd_bool(d, v, &before) == 0 && !before)
			pd_warn(d, v->line, v->col,
				N_("do_layer_norm_before is false: this OPT has no final LayerNorm, napkin counts one "
				   "(%lld parameters)"),
				(long long)(2 * m.hidden));
	}
	*out = m;
	return NAPKIN_OK;
}

static void indent_to(struct pbuf *b, int indent)
{
	pbuf_printf(b, "%*s", indent, "");
}

void pmodel_yaml(struct pbuf *b, const struct engine_model *m, int indent)
{
	const struct family *fam = family_of(m->arch);
	int bias = (m->qkv_bias ? B_QKV : 0) | (m->o_bias ? B_O : 0) | (m->mlp_bias ? B_MLP : 0), i;
	int64_t maxpos = m->max_positions;
	char num[40];

	if (fam != NULL && m->position == ENGINE_POS_LEARNED)
		maxpos -= fam->pos_offset;
	indent_to(b, indent);
	pbuf_printf(b, "name: ");
	pbuf_scalar(b, m->name[0] ? m->name : "custom model");
	pbuf_printf(b, "\n");
	indent_to(b, indent);
	pbuf_printf(b, "architecture: ");
	pbuf_scalar(b, m->arch[0] ? m->arch : "custom");
	pbuf_printf(b, "\n");
	indent_to(b, indent);
	pbuf_printf(b, "vocab_size: %lld\n", (long long)m->vocab);
	indent_to(b, indent);
	pbuf_printf(b, "hidden_size: %lld\n", (long long)m->hidden);
	indent_to(b, indent);
	pbuf_printf(b, "num_hidden_layers: %lld\n", (long long)m->layers);
	indent_to(b, indent);
	pbuf_printf(b, "num_attention_heads: %lld\n", (long long)m->heads);
	indent_to(b, indent);
	pbuf_printf(b, "num_key_value_heads: %lld\n", (long long)m->kv_heads);
	indent_to(b, indent);
	pbuf_printf(b, "head_dim: %lld\n", (long long)m->head_dim);
	indent_to(b, indent);
	pbuf_printf(b, "intermediate_size: %lld\n", (long long)m->ffn);
	indent_to(b, indent);
	pbuf_printf(b, "tie_word_embeddings: %s\n", m->tied ? "true" : "false");
	indent_to(b, indent);
	pbuf_printf(b, "max_position_embeddings: %lld\n", (long long)maxpos);
	if (m->experts > 1) {
		indent_to(b, indent);
		pbuf_printf(b, "num_local_experts: %lld\n", (long long)m->experts);
		indent_to(b, indent);
		pbuf_printf(b, "num_experts_per_tok: %lld\n", (long long)m->top_k);
	}
	indent_to(b, indent);
	pbuf_printf(b, "mlp: %s\n", m->mlp == ENGINE_MLP_GATED ? "gated" : "plain");
	indent_to(b, indent);
	pbuf_printf(b, "norm: %s\n", m->norm == ENGINE_NORM_RMS ? "rmsnorm" : "layernorm");
	indent_to(b, indent);
	for (i = 0; i < 4; i++)
		if (bias_ladder[i] == bias)
			break;
	if (i < 4) {
		pbuf_printf(b, "bias: %s\n", bias_names[i]);
	} else {
		pbuf_printf(b, "bias: [");
		for (i = 0; i < 3; i++)
			if (bias & (1 << i))
				pbuf_printf(b, "%s%s", (bias & ((1 << i) - 1)) ? ", " : "", bias_parts[i]);
		pbuf_printf(b, "]\n");
	}
	indent_to(b, indent);
	pbuf_printf(b, "position: %s\n", pos_names[m->position == ENGINE_POS_ROPE ? 0 : m->position == ENGINE_POS_LEARNED ? 1 : 2]);
	indent_to(b, indent);
	pbuf_printf(b, "dropout: %s\n", m->dropout ? "true" : "false");
	if (m->sliding_window > 0) {
		indent_to(b, indent);
		pbuf_printf(b, "sliding_window: %lld\n", (long long)m->sliding_window);
		if (m->window_layers > 0 && m->window_layers < m->layers) {
			indent_to(b, indent);
			pbuf_printf(b, "window_layers: %lld\n", (long long)m->window_layers);
		}
	}
	pmodel_arch_yaml(b, m, indent);
	if (m->params_published > 0) {
		pfmt_shortest(m->params_published, num, sizeof num);
		indent_to(b, indent);
		pbuf_printf(b, "params_published: %s\n", num);
	}
	if (m->source[0]) {
		indent_to(b, indent);
		pbuf_printf(b, "source: ");
		pbuf_scalar(b, m->source);
		pbuf_printf(b, "\n");
	}
}
