/*
 * Architectures and their exact parameter counts.
 *
 * Counts follow the modules a Hugging Face implementation creates (weights and biases of
 * every nn.Linear, nn.Embedding and norm); non-persistent buffers (rotary inv_freq,
 * GPT-2's causal mask) are not parameters. Checked against published counts in
 * tests/unit/test_params.c (shared reference: models.yaml).
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "internal.h"

void eng_dims_from_model(const struct engine_model *m, struct eng_dims *dm)
{
	dm->V = (double)m->vocab;
	dm->d = (double)m->hidden;
	dm->L = (double)m->layers;
	dm->nh = (double)m->heads;
	dm->nkv = (double)m->kv_heads;
	dm->dh = (double)m->head_dim;
	dm->f = (double)m->ffn;
	dm->E = m->experts > 1 ? (double)m->experts : 1.0;
	dm->k = m->experts > 1 ? (double)m->top_k : 1.0;
	dm->P = m->position == ENGINE_POS_LEARNED ? (double)m->max_positions : 0.0;
	dm->gated = m->mlp == ENGINE_MLP_GATED;
	dm->layernorm = m->norm == ENGINE_NORM_LAYER;
	dm->qkv_bias = m->qkv_bias;
	dm->o_bias = m->o_bias;
	dm->mlp_bias = m->mlp_bias;
	dm->tied = m->tied;
	dm->learned = m->position == ENGINE_POS_LEARNED;
	dm->dropout = m->dropout;
	dm->W = m->sliding_window > 0 ? (double)m->sliding_window : 0.0;
	dm->wfrac = m->sliding_window <= 0 || m->layers <= 0 ? 0.0
		    : m->window_layers > 0 && m->window_layers < m->layers ? (double)m->window_layers / (double)m->layers
									    : 1.0;
	dm->fe = m->moe_ffn > 0 ? (double)m->moe_ffn : dm->f;
	dm->ns = m->experts > 1 && m->shared_experts > 0 ? (double)m->shared_experts : 0.0;
	dm->fs = m->shared_ffn > 0 ? (double)m->shared_ffn : dm->fe;
	dm->shared_gate = m->shared_gate;
	dm->moe_share = 0.0;
	if (m->experts > 1 && m->layers > 0) {
		/* layer i is MoE when i >= first_k_dense_replace and (i + 1) % step == 0
		 * (modeling_deepseek_v3.py, modeling_qwen2_moe.py's decoder_sparse_step, Llama 4's
		 * interleave_moe_layer_step): floor(L/n) - floor(k/n) of them */
		int64_t n = m->moe_every > 1 ? m->moe_every : 1, k = m->dense_layers > 0 ? m->dense_layers : 0;
		int64_t moe = m->layers / n - (k < m->layers ? k : m->layers) / n;
		dm->moe_share = moe > 0 ? (double)moe / (double)m->layers : 0.0;
	}
	dm->router_bias = m->router_bias;
	dm->expert_bias = m->expert_bias;
	dm->q_rank = m->kv_lora_rank > 0 ? (double)m->q_lora_rank : 0.0;
	dm->kv_rank = (double)m->kv_lora_rank;
	dm->d_nope = (double)m->qk_nope_dim;
	dm->d_rope = (double)m->qk_rope_dim;
	dm->d_v = m->v_head_dim > 0 ? (double)m->v_head_dim : dm->dh;
	dm->qk_norm = m->qk_norm;
	dm->sinks = m->sinks;
	dm->attn_gate = m->attn_gate;
	dm->norms = m->norms_per_layer > 0 ? (double)m->norms_per_layer : 2.0;
	dm->mtp = (double)m->mtp_layers;
	dm->lin_share = m->linear_layers > 0 && m->layers > 0
				? (double)(m->linear_layers < m->layers ? m->linear_layers : m->layers) / (double)m->layers
				: 0.0;
	dm->lk_heads = (double)m->lin_k_heads;
	dm->lv_heads = (double)m->lin_v_heads;
	dm->lk_dim = (double)m->lin_k_dim;
	dm->lv_dim = (double)m->lin_v_dim;
	dm->l_conv = (double)m->lin_conv;
	eng_dims_refresh(dm);
}

void eng_dims_scale(struct eng_dims *dm, double s)
{
	dm->d *= s;
	dm->f *= s;
	dm->nh *= s;
	dm->nkv *= s;
	dm->L *= s;
	dm->fe *= s;
	dm->fs *= s;
	dm->q_rank *= s;
	dm->kv_rank *= s;
	dm->lk_heads *= s;
	dm->lv_heads *= s;
	eng_dims_refresh(dm);
}

/*
 * Whole model: L layers + token embedding V·d (+ learned positions P·d) + final norm +
 * LM head V·d unless tied. Non-embedding excludes both embeddings and an untied head
 * (Kaplan et al. 2020's N). For FLOPs, the weights multiplied per token are the layers'
 * matrices (top-k experts) and the LM head, tied or not: the embedding lookup is a
 * gather, the LM head a matmul (2 FLOPs per multiply-add).
 */
void eng_params(const struct eng_dims *dm, struct engine_params *p)
{
	const struct eng_layer_params *lp = &dm->lp;
	double final_norm = dm->layernorm ? 2.0 * dm->d : dm->d;

	p->per_layer = lp->total;
	p->embedding = dm->V * dm->d + dm->P * dm->d;
	p->lm_head = dm->tied ? 0.0 : dm->V * dm->d;
	p->total = dm->L * lp->total + p->embedding + final_norm + p->lm_head;
	p->non_embedding = p->total - p->embedding - p->lm_head;
	p->active = dm->L * lp->active + p->embedding + final_norm + p->lm_head;
	p->matmul_active = dm->L * (lp->attn_w + lp->dense_w + lp->expert_active + lp->router) + dm->V * dm->d;
	if (dm->L == floor(dm->L)) {
		/* a real model's counts are whole: the layer table's shares (count ÷ L) leave a
		 * rounding error of a fraction of one parameter */
		p->total = floor(p->total + 0.5);
		p->active = floor(p->active + 0.5);
		p->non_embedding = floor(p->non_embedding + 0.5);
		p->matmul_active = floor(p->matmul_active + 0.5);
	}
	p->per_gpu = p->total;
	p->mtp = 0.0;
	if (dm->mtp > 0.0) {
		/* DeepSeek-V3's MTP module (its README_WEIGHTS.md): enorm and hnorm, eh_proj 2d → d,
		 * one MoE layer and shared_head.norm; its embedding and head are the main model's
		 * (the checkpoint stores copies of them; they are not counted again here) */
		struct eng_dims one = *dm;
		struct eng_layer_params ml;
		one.moe_share = dm->E > 1.0 ? 1.0 : 0.0;
		one.lin_share = 0.0;
		eng_dims_refresh(&one);
		eng_layer_params(&one, &ml);
		p->mtp = floor(dm->mtp * (ml.total + 2.0 * dm->d * dm->d + 3.0 * final_norm) + 0.5);
	}
}

void engine_model_params(const struct engine_model *m, struct engine_params *out)
{
	struct eng_dims dm;

	eng_dims_from_model(m, &dm);
	eng_params(&dm, out);
}

/* ------------------------------------------------------------ built-in presets */

/* Llama-2-7B: HF meta-llama/Llama-2-7b-hf config.json; 6,738,415,616 parameters
 * (Touvron et al. 2023; keras-hub llama2_7b_en). */
void engine_model_llama2_7b(struct engine_model *m)
{
	memset(m, 0, sizeof *m);
	util_strlcpy(m->id, "llama-2-7b", sizeof m->id);
	util_strlcpy(m->name, "Llama-2-7B", sizeof m->name);
	util_strlcpy(m->arch, "llama", sizeof m->arch);
	m->vocab = 32000;
	m->hidden = 4096;
	m->layers = 32;
	m->heads = 32;
	m->kv_heads = 32;
	m->head_dim = 128;
	m->ffn = 11008;
	m->mlp = ENGINE_MLP_GATED;
	m->norm = ENGINE_NORM_RMS;
	m->position = ENGINE_POS_ROPE;
	m->max_positions = 4096;
	m->experts = 1;
	m->top_k = 1;
	m->params_published = 6738415616.0;
	/* the same words as presets/models/llama-2-7b.yaml: a report of the default and of a
	 * scenario naming llama-2-7b (which loads that file) must be the same report */
	util_strlcpy(m->source,
		     "HF meta-llama/Llama-2-7b-hf config.json; Touvron et al. 2023; count: keras-hub llama2_7b_en "
		     "(HF safetensors total less 32 x 64 rotary inv_freq)",
		     sizeof m->source);
}

/* H100 SXM5 80GB: NVIDIA H100 Tensor Core GPU datasheet (dense = half the starred sparse
 * figures); 81,559 MiB as nvidia-smi reports it. */
void engine_gpu_h100_sxm(struct engine_gpu *g)
{
	memset(g, 0, sizeof *g);
	util_strlcpy(g->id, "h100-sxm", sizeof g->id);
	util_strlcpy(g->name, "H100 SXM", sizeof g->name);
	util_strlcpy(g->vendor, "nvidia", sizeof g->vendor);
	g->memory_bytes = 81559.0 * 1048576.0;
	g->bandwidth = 3.35e12;
	g->peak[ENGINE_DT_FP64] = 34e12;
	g->peak[ENGINE_DT_FP32] = 67e12;
	g->peak[ENGINE_DT_TF32] = 494.5e12;
	g->peak[ENGINE_DT_BF16] = 989.5e12;
	g->peak[ENGINE_DT_FP16] = 989.5e12;
	g->peak[ENGINE_DT_FP8_E4M3] = 1979e12;
	g->peak[ENGINE_DT_INT8] = 1979e12;
	g->pcie_bw = 64e9;
	g->link_bw = 450e9;
	g->network_bw = 50e9; /* DGX H100: 8 × 400 Gb/s NDR InfiniBand for 8 GPUs */
	util_strlcpy(g->link_name, "nvlink", sizeof g->link_name);
	g->tdp_w = 700;
	g->sm_count = 132;
	g->overhead_bytes = 768.0 * 1048576.0;
	/* the same words as presets/gpus/h100-sxm.yaml (see the model's source above) */
	util_strlcpy(g->source,
		     "NVIDIA H100 Tensor Core GPU datasheet, launched 2022 (sparse figures halved); as napkin's "
		     "built-in h100-sxm; level V (verified against the datasheet)",
		     sizeof g->source);
}

double engine_gpu_peak(const struct engine_gpu *gpu, enum engine_dtype dt)
{
	if (dt == ENGINE_DT_FP8_E5M2)
		dt = ENGINE_DT_FP8_E4M3;
	if ((int)dt < 0 || dt >= ENGINE_DT_COUNT)
		return 0.0;
	return gpu->peak[dt];
}

/* ------------------------------------------------------------ shapes from a size */

/*
 * Anchor shapes of well-known dense models (hidden, layers, heads of 128, kv heads):
 * GPT-3 table 2.1 (Brown et al. 2020) for 125M-175B, LLaMA (Touvron et al. 2023) for
 * 7B-70B, Llama 3.1 405B. For a requested size, the anchor whose fitted ffn/hidden ratio
 * is nearest 2.75 (SwiGLU's usual 8/3 to 3.5) is taken, and ffn solves the count.
 *
 * Rounded as real configs are: hidden a multiple of 128, heads of 128 (64 below the
 * smallest anchor), and ffn a multiple of 256, Llama's `multiple_of` (meta-llama/llama
 * model.py: Llama-2-70B's 28672 = 112 × 256), or of 128 or 64 where a small model would
 * miss its count by more than ENG_SHAPE_TOL with 256. GPT-3 Large's 16 heads of 96 are
 * 12 of 128 here: the same d, the same count.
 */
#define ENG_SHAPE_TOL 0.01
struct shape_anchor {
	int64_t hidden, layers, heads, kv_heads, head_dim;
};

static const struct shape_anchor anchors[] = {
	{768, 12, 12, 12, 64},     {1024, 24, 16, 16, 64},   {1536, 24, 12, 12, 128},
	{2048, 24, 16, 16, 128},   {2560, 32, 20, 20, 128},  {4096, 32, 32, 32, 128},
	{5120, 40, 40, 40, 128},   {6656, 60, 52, 52, 128},  {8192, 80, 64, 8, 128},
	{12288, 96, 96, 8, 128},   {16384, 126, 128, 8, 128},
};

static double shape_fixed(const struct engine_model *m)
{
	struct engine_model t = *m;
	struct eng_dims dm;
	struct engine_params p;

	t.ffn = 0;
	eng_dims_from_model(&t, &dm);
	eng_params(&dm, &p);
	return p.total;
}

static void shape_set(struct engine_model *m, int64_t hidden, int64_t layers, int64_t heads,
		      int64_t kv_heads, int64_t head_dim)
{
	m->hidden = hidden;
	m->layers = layers;
	m->heads = heads;
	m->kv_heads = kv_heads;
	m->head_dim = head_dim;
}

int engine_model_from_params(double params, struct engine_model *m, struct napkin_err *err)
{
	return engine_model_from_params_tr(params, NULL, m, err);
}

int engine_model_from_params_tr(double params, const struct engine_tr *tr, struct engine_model *m,
				struct napkin_err *err)
{
	size_t i, best = 0;
	double best_score = INFINITY, fixed, f;
	struct engine_model t;

	if (!(params >= 1e7 && params <= 1e15))
		return eng_err(err, tr, NAPKIN_EINVAL,
			       N_("params must be between 10M and 1000T (1e7 to 1e15); give the architecture "
				  "keys (layers, hidden, ...) for other shapes"));
	memset(&t, 0, sizeof t);
	t.vocab = 32000;
	t.mlp = ENGINE_MLP_GATED;
	t.norm = ENGINE_NORM_RMS;
	t.position = ENGINE_POS_ROPE;
	t.max_positions = 4096;
	t.experts = 1;
	t.top_k = 1;

	for (i = 0; i < sizeof anchors / sizeof anchors[0]; i++) {
		const struct shape_anchor *a = &anchors[i];
		double score;
		shape_set(&t, a->hidden, a->layers, a->heads, a->kv_heads, a->head_dim);
		fixed = shape_fixed(&t);
		f = (params - fixed) / (3.0 * (double)a->hidden * (double)a->layers);
		if (f < 1.0)
			continue;
		score = fabs(log(f / (double)a->hidden / 2.75));
		if (score < best_score) {
			best_score = score;
			best = i;
		}
	}
	if (best_score < 0.45) {
		const struct shape_anchor *a = &anchors[best];
		shape_set(&t, a->hidden, a->layers, a->heads, a->kv_heads, a->head_dim);
	} else if (params > 4e11) {
		/* Beyond the largest anchor: grow depth and width together from 405B, keeping
		 * the head count a multiple of the 8 KV heads (hidden a multiple of 8 × 128). */
		double c = cbrt(params / 4.05e11);
		int64_t hidden = (int64_t)llround(16384.0 * c / 1024.0) * 1024;
		int64_t layers = (int64_t)llround(126.0 * c);
		shape_set(&t, hidden, layers, hidden / 128, 8, 128);
	} else {
		/* Below the smallest anchor: shrink from GPT-3 Small, keeping the embeddings under
		 * half of the model. */
		double c = cbrt(params / 1.25e8);
		int64_t hidden = (int64_t)llround(768.0 * c / 128.0) * 128;
		int64_t layers = (int64_t)llround(12.0 * c);
		int64_t cap = (int64_t)(params / (4.0 * 32000.0) / 128.0) * 128;
		if (hidden > cap)
			hidden = cap;
		if (hidden < 128)
			hidden = 128;
		if (layers < 2)
			layers = 2;
		shape_set(&t, hidden, layers, hidden / 64, hidden / 64, 64);
	}
	fixed = shape_fixed(&t);
	{
		static const double mult[] = {256.0, 128.0, 64.0};
		double per = 3.0 * (double)t.hidden * (double)t.layers, exact = (params - fixed) / per;
		size_t j;
		for (j = 0; j < sizeof mult / sizeof mult[0]; j++) {
			f = floor(exact / mult[j] + 0.5) * mult[j];
			if (f < mult[j])
				f = mult[j];
			if (fabs(fixed + f * per - params) <= ENG_SHAPE_TOL * params)
				break;
		}
	}
	t.ffn = (int64_t)f;
	{
		char cnt[32];
		size_t len;
		engine_fmt_count(params, cnt, sizeof cnt);
		/* "70B dense", as model names write their size (Llama-2-70B): never "70 B", which a
		 * Chinese reader takes for bytes */
		len = strlen(cnt);
		if (len >= 3 && cnt[len - 2] == ' ')
			memmove(cnt + len - 2, cnt + len - 1, 2);
		snprintf(t.name, sizeof t.name, "%s dense", cnt);
	}
	util_strlcpy(t.arch, "llama", sizeof t.arch);
	/* napkin's own note, not a citation: the explanation shows it translated (EX_ of the source) */
	util_strlcpy(t.source,
		     N_("standard dense shape for this size: anchors from GPT-3 (Brown et al. 2020) and "
			"LLaMA (Touvron et al. 2023); ffn solved for the count, to a multiple of 256 as Llama's multiple_of"),
		     sizeof t.source);
	*m = t;
	return NAPKIN_OK;
}
