/*
 * One layer as a table of ops: every calculation that needs to know what a layer is —
 * its parameters (model.c), what TP and EP leave on a GPU (memory.c), its FLOPs
 * (compute.c), its bytes (traffic.c), the time of each of its matmuls (step.c), what it
 * caches (serving.c) and the per-op report (report --ops) — reads it from here.
 *
 * A model whose layers differ (DeepSeek-V3's first 3 dense MLPs of 61, Gemma 3's five
 * local layers to one global, Qwen3-Next's three linear-attention layers to one full)
 * is described by its average layer: each op carries the share of the layers that have
 * it, so a sum over the layers is L × the sum over the ops × their shares, and a model
 * whose layers are all alike has shares of 1.
 *
 * Modules and shapes as Hugging Face's modelling code builds them (transformers,
 * src/transformers/models/<arch>/modeling_<arch>.py):
 *  - attention (modeling_llama.py LlamaAttention): q_proj d → heads·head_dim, k_proj and
 *    v_proj d → kv_heads·head_dim, o_proj back to d; biases where the config says
 *    (Qwen2's q/k/v, gpt-oss's all four); Qwen3 and Gemma 3 add q_norm and k_norm over
 *    head_dim; gpt-oss a learned sink logit per head (modeling_gpt_oss.py `sinks`);
 *    Qwen3-Next's q_proj also makes a gate for the output (attn_output_gate: 2× its width).
 *  - multi-head latent attention (DeepSeek-V2 §2.1, modeling_deepseek_v3.py
 *    DeepseekV3Attention): q_a_proj d → q_lora_rank, q_a_layernorm, q_b_proj →
 *    heads·(qk_nope + qk_rope) (or one q_proj when q_lora_rank is 0, as V2-Lite);
 *    kv_a_proj_with_mqa d → kv_lora_rank + qk_rope, kv_a_layernorm, kv_b_proj →
 *    heads·(qk_nope + v_head_dim); o_proj heads·v_head_dim → d. A token caches its
 *    kv_lora_rank latent and its qk_rope key: kv_lora_rank + qk_rope elements per layer.
 *  - gated DeltaNet (Yang et al. 2024; modeling_qwen3_next.py Qwen3NextGatedDeltaNet):
 *    in_proj_qkvz d → 2·key_dim + 2·value_dim, in_proj_ba d → 2·v_heads, a depthwise
 *    conv1d over q, k, v of conv_kernel taps (no bias), dt_bias and A_log per v head, a
 *    gated RMSNorm over v_head_dim, out_proj value_dim → d; the state per sequence is
 *    v_heads × k_dim × v_dim (plus the conv's last kernel − 1 inputs).
 *  - MLP: gated gate_proj and up_proj d → f, down_proj f → d (SwiGLU/GeGLU), or plain
 *    c_fc / c_proj; biases where the config says.
 *  - MoE (modeling_mixtral.py, modeling_deepseek_v3.py, modeling_qwen3_moe.py,
 *    modeling_gpt_oss.py): a router d → E (gpt-oss: with a bias), E routed experts of
 *    width moe_intermediate_size each reached by top_k of E tokens' rows, shared experts
 *    every token goes through (Qwen2-MoE's with a sigmoid gate d → 1), the first
 *    first_k_dense_replace layers and, with decoder_sparse_step n, all but every n-th
 *    keeping a dense MLP of intermediate_size.
 *  - norms: two per layer (input and post-attention), four in Gemma 2/3 (also after the
 *    attention and the MLP): d each for RMSNorm, 2d for LayerNorm.
 * TP splits as Megatron-LM does (Shoeybi et al. 2019, §3): q, k, v, gate, up, the
 * experts' first linears, in_proj column-parallel; o_proj, down_proj, out_proj
 * row-parallel; MLA's down-projections (q_a, kv_a) and the router replicated (Megatron-LM
 * megatron/core/transformer/multi_latent_attention.py: linear_q_down_proj and
 * linear_kv_down_proj are not tensor-parallel); EP splits the routed experts.
 */
#include <string.h>

#include "internal.h"

static const struct eng_op zero_op;
static const struct eng_layer_params zero_lp;

static struct eng_op *add(struct eng_layer *ly, const char *name, enum eng_op_kind kind, enum eng_op_part part,
			  enum eng_op_split split, double share)
{
	struct eng_op *op;

	if (ly->n >= ENG_LAYER_OPS || !(share > 0.0))
		return NULL;
	op = &ly->op[ly->n++];
	*op = zero_op; /* a copy, not memset: rep stos costs more than the op's few hundred bytes */
	op->name = name;
	op->kind = kind;
	op->part = part;
	op->split = split;
	op->share = share;
	op->copies = 1.0;
	op->rows = 1.0;
	return op;
}

static void linear(struct eng_layer *ly, const char *name, enum eng_op_part part, enum eng_op_split split,
		   double share, double K, double N, double bias, int lora)
{
	struct eng_op *op = add(ly, name, ENG_OP_LINEAR, part, split, share);

	if (op == NULL)
		return;
	op->K = K;
	op->N = N;
	op->bias = bias;
	op->lora = lora;
	op->params = K * N + bias;
}

static struct eng_op *param(struct eng_layer *ly, const char *name, enum eng_op_kind kind, enum eng_op_part part,
			    enum eng_op_split split, double share, double n)
{
	struct eng_op *op = add(ly, name, kind, part, split, share);

	if (op != NULL)
		op->params = op->elems = n;
	return op;
}

/* A norm of n weights over elems elements a token. */
static void norm(struct eng_layer *ly, const char *name, double share, double n, double elems)
{
	struct eng_op *op = param(ly, name, ENG_OP_NORM, ENG_PART_NORM, ENG_SPLIT_NONE, share, n);

	if (op != NULL)
		op->elems = elems;
}

static void core(struct eng_layer *ly, const char *name, double share, double heads, double kvh, double qk,
		 double v, double window, double kv)
{
	struct eng_op *op = add(ly, name, ENG_OP_ATTN, ENG_PART_ATTN, ENG_SPLIT_COL, share);

	if (op == NULL)
		return;
	op->heads = heads;
	op->kv_heads = kvh;
	op->qk_dim = qk;
	op->v_dim = v;
	op->window = window;
	op->kv_elems = kv;
	op->dec_dim = qk + v;
}

/* Softmax attention over the share sh of the layers: GQA (MHA, MQA) or MLA. */
static void attention(const struct eng_dims *dm, struct eng_layer *ly, double sh)
{
	double wsh = dm->W > 0.0 ? dm->wfrac : 0.0;
	int i;

	if (dm->kv_rank > 0.0) {
		double qk = dm->d_nope + dm->d_rope, hq = dm->nh * qk;
		if (dm->q_rank > 0.0) {
			linear(ly, "q_a_proj", ENG_PART_ATTN, ENG_SPLIT_NONE, sh, dm->d, dm->q_rank, 0.0, 0);
			norm(ly, "q_a_layernorm", sh, dm->q_rank, dm->q_rank);
			linear(ly, "q_b_proj", ENG_PART_ATTN, ENG_SPLIT_COL, sh, dm->q_rank, hq, 0.0, ENGINE_LORA_Q);
		} else {
			linear(ly, "q_proj", ENG_PART_ATTN, ENG_SPLIT_COL, sh, dm->d, hq, 0.0, ENGINE_LORA_Q);
		}
		linear(ly, "kv_a_proj_with_mqa", ENG_PART_ATTN, ENG_SPLIT_NONE, sh, dm->d, dm->kv_rank + dm->d_rope, 0.0,
		       0);
		norm(ly, "kv_a_layernorm", sh, dm->kv_rank, dm->kv_rank);
		linear(ly, "kv_b_proj", ENG_PART_ATTN, ENG_SPLIT_COL, sh, dm->kv_rank, dm->nh * (dm->d_nope + dm->d_v),
		       0.0, ENGINE_LORA_K | ENGINE_LORA_V);
		core(ly, "attention", sh * (1.0 - wsh), dm->nh, dm->nh, qk, dm->d_v, 0.0, dm->kv_rank + dm->d_rope);
		core(ly, "attention (window)", sh * wsh, dm->nh, dm->nh, qk, dm->d_v, dm->W, dm->kv_rank + dm->d_rope);
		for (i = 0; i < ly->n; i++)
			if (ly->op[i].kind == ENG_OP_ATTN)
				ly->op[i].dec_dim = 2.0 * dm->kv_rank + dm->d_rope;
		linear(ly, "o_proj", ENG_PART_ATTN, ENG_SPLIT_ROW, sh, dm->nh * dm->d_v, dm->d, dm->o_bias ? dm->d : 0.0,
		       ENGINE_LORA_O);
		return;
	}
	{
		double hq = dm->nh * dm->dh, hkv = dm->nkv * dm->dh;
		linear(ly, "q_proj", ENG_PART_ATTN, ENG_SPLIT_COL, sh, dm->d, dm->attn_gate ? 2.0 * hq : hq,
		       dm->qkv_bias ? hq : 0.0, ENGINE_LORA_Q);
		linear(ly, "k_proj", ENG_PART_ATTN, ENG_SPLIT_KV, sh, dm->d, hkv, dm->qkv_bias ? hkv : 0.0, ENGINE_LORA_K);
		linear(ly, "v_proj", ENG_PART_ATTN, ENG_SPLIT_KV, sh, dm->d, hkv, dm->qkv_bias ? hkv : 0.0, ENGINE_LORA_V);
		if (dm->qk_norm) {
			norm(ly, "q_norm", sh, dm->dh, hq); /* over each head's q and k */
			norm(ly, "k_norm", sh, dm->dh, hkv);
		}
		if (dm->sinks)
			param(ly, "sinks", ENG_OP_PARAM, ENG_PART_ATTN, ENG_SPLIT_COL, sh, dm->nh);
		core(ly, "attention", sh * (1.0 - wsh), dm->nh, dm->nkv, dm->dh, dm->dh, 0.0, 2.0 * hkv);
		core(ly, "attention (window)", sh * wsh, dm->nh, dm->nkv, dm->dh, dm->dh, dm->W, 2.0 * hkv);
		linear(ly, "o_proj", ENG_PART_ATTN, ENG_SPLIT_ROW, sh, hq, dm->d, dm->o_bias ? dm->d : 0.0, ENGINE_LORA_O);
	}
}

/* Gated DeltaNet over the share sh of the layers (Qwen3-Next). */
static void linear_attention(const struct eng_dims *dm, struct eng_layer *ly, double sh)
{
	double kd = dm->lk_heads * dm->lk_dim, vd = dm->lv_heads * dm->lv_dim, conv = 2.0 * kd + vd;
	struct eng_op *op;

	linear(ly, "in_proj_qkvz", ENG_PART_ATTN, ENG_SPLIT_COL, sh, dm->d, 2.0 * kd + 2.0 * vd, 0.0, ENGINE_LORA_Q);
	linear(ly, "in_proj_ba", ENG_PART_ATTN, ENG_SPLIT_COL, sh, dm->d, 2.0 * dm->lv_heads, 0.0, 0);
	param(ly, "conv1d", ENG_OP_PARAM, ENG_PART_ATTN, ENG_SPLIT_COL, sh, conv * dm->l_conv);
	param(ly, "dt_bias, A_log", ENG_OP_PARAM, ENG_PART_ATTN, ENG_SPLIT_COL, sh, 2.0 * dm->lv_heads);
	norm(ly, "norm", sh, dm->lv_dim, vd);
	op = add(ly, "chunk_gated_delta_rule", ENG_OP_LINATTN, ENG_PART_ATTN, ENG_SPLIT_COL, sh);
	if (op != NULL) {
		op->heads = dm->lv_heads;
		op->kv_heads = dm->lk_heads;
		op->qk_dim = dm->lk_dim;
		op->v_dim = dm->lv_dim;
		op->state_elems = dm->lv_heads * dm->lk_dim * dm->lv_dim + conv * (dm->l_conv > 1.0 ? dm->l_conv - 1.0 : 0.0);
	}
	linear(ly, "out_proj", ENG_PART_ATTN, ENG_SPLIT_ROW, sh, vd, dm->d, 0.0, ENGINE_LORA_O);
}

/* One MLP of width f named from names[] (gate, up, down): copies of it, each reached by
 * `rows` of every token's rows. */
static void mlp(const struct eng_dims *dm, struct eng_layer *ly, const char *const names[3], enum eng_op_part part,
		double sh, double f, double copies, double rows, bool bias)
{
	int first = ly->n, i;

	if (dm->gated)
		linear(ly, names[0], part, ENG_SPLIT_COL, sh, dm->d, f, bias ? f : 0.0, ENGINE_LORA_GATE);
	linear(ly, names[1], part, ENG_SPLIT_COL, sh, dm->d, f, bias ? f : 0.0, ENGINE_LORA_UP);
	linear(ly, names[2], part, ENG_SPLIT_ROW, sh, f, dm->d, bias ? dm->d : 0.0, ENGINE_LORA_DOWN);
	for (i = first; i < ly->n; i++) {
		ly->op[i].copies = copies;
		ly->op[i].rows = rows;
		ly->op[i].params *= copies;
	}
}

static const char *const dense_names[3] = {"gate_proj", "up_proj", "down_proj"};
static const char *const plain_names[3] = {"", "c_fc", "c_proj"};
static const char *const expert_names[3] = {"experts.gate_proj", "experts.up_proj", "experts.down_proj"};
static const char *const shared_names[3] = {"shared_experts.gate_proj", "shared_experts.up_proj",
					     "shared_experts.down_proj"};

void eng_layer_build(const struct eng_dims *dm, struct eng_layer *ly)
{
	double lin = dm->lin_share > 0.0 ? dm->lin_share : 0.0;
	double moe = dm->E > 1.0 ? dm->moe_share : 0.0;

	ly->n = 0;
	ly->mlp_mats = dm->gated ? 3.0 : 2.0;
	ly->q_width = dm->kv_rank > 0.0 ? dm->nh * (dm->d_nope + dm->d_rope) : dm->nh * dm->dh;
	ly->kv_width = dm->kv_rank > 0.0 ? dm->nh * (dm->d_nope + dm->d_rope + dm->d_v) : 2.0 * dm->nkv * dm->dh;
	norm(ly, dm->layernorm ? "ln_1, ln_2" : "norms", 1.0, dm->norms * (dm->layernorm ? 2.0 * dm->d : dm->d),
	     dm->norms * dm->d);
	attention(dm, ly, 1.0 - lin);
	if (lin > 0.0)
		linear_attention(dm, ly, lin);
	mlp(dm, ly, dm->gated ? dense_names : plain_names, ENG_PART_MLP, 1.0 - moe, dm->f, 1.0, 1.0, dm->mlp_bias);
	if (moe > 0.0) {
		linear(ly, "router", ENG_PART_ROUTER, ENG_SPLIT_NONE, moe, dm->d, dm->E, 0.0, 0);
		if (dm->router_bias)
			param(ly, "router.bias", ENG_OP_PARAM, ENG_PART_ROUTER, ENG_SPLIT_NONE, moe, dm->E);
		mlp(dm, ly, expert_names, ENG_PART_EXPERT, moe, dm->fe, dm->E, dm->k / dm->E,
		    dm->expert_bias || dm->mlp_bias);
		if (dm->ns > 0.0) {
			mlp(dm, ly, shared_names, ENG_PART_MLP, moe, dm->fs, dm->ns, 1.0, false);
			if (dm->shared_gate)
				linear(ly, "shared_expert_gate", ENG_PART_ROUTER, ENG_SPLIT_NONE, moe, dm->d, 1.0, 0.0, 0);
		}
	}
	ly->attn_per_key = eng_layer_attn_flops(ly, 1.0, 0.0);
	ly->lin_flops = eng_layer_attn_flops(ly, 0.0, 0.0);
	ly->attn_per_key -= ly->lin_flops;
}

void eng_layer_params_of(const struct eng_layer *ly, struct eng_layer_params *lp)
{
	int i;

	*lp = zero_lp;
	lp->mlp_mats = ly->mlp_mats;
	lp->q_width = ly->q_width;
	lp->kv_width = ly->kv_width;
	lp->attn_per_key = ly->attn_per_key;
	lp->lin_flops = ly->lin_flops;
	for (i = 0; i < ly->n; i++) {
		const struct eng_op *op = &ly->op[i];
		double sh = op->share, w = sh * op->copies * op->K * op->N, b = sh * op->copies * op->bias;
		bool col = op->split == ENG_SPLIT_COL || op->split == ENG_SPLIT_KV;
		int ex = op->part == ENG_PART_EXPERT ? 1 : 0;

		if (op->kind == ENG_OP_LINEAR) {
			lp->split_w[ex][op->split] += w;
			lp->split_b[ex][op->split] += b;
		} else {
			lp->split_b[ex][op->split] += sh * op->params;
		}

		switch (op->kind) {
		case ENG_OP_LINEAR:
			switch (op->part) {
			case ENG_PART_ATTN:
				lp->attn_w += w;
				*(col ? &lp->attn_b_col : &lp->attn_b_row) += b;
				break;
			case ENG_PART_MLP:
				lp->dense_w += w;
				*(col ? &lp->dense_b_col : &lp->dense_b_row) += b;
				break;
			case ENG_PART_EXPERT:
				lp->expert_w += w;
				lp->expert_active += w * op->rows;
				*(col ? &lp->expert_b_col : &lp->expert_b_row) += b;
				break;
			default:
				lp->router += w;
				lp->other += b;
				break;
			}
			if (op->split == ENG_SPLIT_ROW && (op->part == ENG_PART_MLP || op->part == ENG_PART_EXPERT)) {
				lp->mlp_width += sh * op->copies * op->rows * op->K;
				lp->down_w += w;
			}
			break;
		case ENG_OP_NORM:
			lp->norms += sh * op->params;
			break;
		case ENG_OP_PARAM:
			lp->other += sh * op->params;
			break;
		case ENG_OP_ATTN:
			lp->kv_elems += sh * op->kv_elems;
			break;
		case ENG_OP_LINATTN:
			lp->state_elems += sh * op->state_elems;
			break;
		}
	}
	lp->total = lp->attn_w + lp->attn_b_col + lp->attn_b_row + lp->dense_w + lp->dense_b_col + lp->dense_b_row +
		    lp->expert_w + lp->expert_b_col + lp->expert_b_row + lp->router + lp->norms + lp->other;
	lp->active = lp->total - lp->expert_w - lp->expert_b_col - lp->expert_b_row + lp->expert_active;
	if (lp->expert_w > 0.0)
		lp->active += (lp->expert_b_col + lp->expert_b_row) * lp->expert_active / lp->expert_w;
}

void eng_layer_params(const struct eng_dims *dm, struct eng_layer_params *lp)
{
	*lp = dm->lp;
}

void eng_dims_refresh(struct eng_dims *dm)
{
	eng_layer_build(dm, &dm->ly);
	eng_layer_params_of(&dm->ly, &dm->lp);
}

/* Keys a query of a context of s tokens attends to, as the full-matrix FLOP count takes
 * them (PaLM's 12·L·H·Q·T): s, or the window. */
static double span(const struct eng_op *op, double s)
{
	return op->window > 0.0 && op->window < s ? op->window : s;
}

static double per_key(const struct eng_op *op)
{
	return op->share * 2.0 * op->heads * (op->qk_dim + op->v_dim);
}

double eng_layer_attn_flops(const struct eng_layer *ly, double s, double less)
{
	double f = 0.0;
	int i;

	for (i = 0; i < ly->n; i++) {
		const struct eng_op *op = &ly->op[i];
		if (op->kind == ENG_OP_ATTN)
			/* QKᵀ: 2·qk per key per head; AV: 2·v (Chowdhery et al. 2022, appendix B) */
			f += per_key(op) * (span(op, s) - less);
		else if (op->kind == ENG_OP_LINATTN)
			/* the recurrent form per head and token: kᵀS, the rank-one update and Sq,
			 * 2·k·v FLOPs each (Yang et al. 2024, eq. 4) */
			f += op->share * 6.0 * op->heads * op->qk_dim * op->v_dim;
	}
	return f;
}

double eng_layer_decode_flops(const struct eng_layer *ly, double ctx, double less)
{
	double f = ly->lin_flops;
	int i;

	for (i = 0; i < ly->n; i++) {
		const struct eng_op *op = &ly->op[i];
		if (op->kind == ENG_OP_ATTN)
			f += op->share * 2.0 * op->heads * op->dec_dim * (span(op, ctx) - less);
	}
	return f;
}

double eng_op_params_rank(const struct eng_op *op, double t, double ep, double nkv, double *weights)
{
	double sh = op->share * (op->part == ENG_PART_EXPERT && ep > 1.0 ? 1.0 / ep : 1.0);
	double fw = 1.0, fb = 1.0, w, b;

	switch (op->split) {
	case ENG_SPLIT_COL:
		fw = fb = 1.0 / t;
		break;
	case ENG_SPLIT_ROW: /* the weight's input rows split; the bias is on every rank */
		fw = 1.0 / t;
		break;
	case ENG_SPLIT_KV: /* KV heads per rank ÷ all of them (one, replicated, below one a rank) */
		fw = fb = nkv >= t ? 1.0 / t : 1.0 / nkv;
		break;
	default:
		break;
	}
	if (op->kind != ENG_OP_LINEAR) {
		w = 0.0;
		b = sh * op->params * fb;
	} else {
		w = sh * op->copies * op->K * op->N * fw;
		b = sh * op->copies * op->bias * fb;
	}
	if (weights != NULL)
		*weights = w;
	return w + b;
}

bool eng_op_fused(const struct eng_op *a, const struct eng_op *b)
{
	bool ca = a->split == ENG_SPLIT_COL || a->split == ENG_SPLIT_KV;
	bool cb = b->split == ENG_SPLIT_COL || b->split == ENG_SPLIT_KV;

	return a->kind == ENG_OP_LINEAR && b->kind == ENG_OP_LINEAR && a->K == b->K && a->part == b->part &&
	       a->copies == b->copies && a->rows == b->rows && a->share == b->share && ca && cb && a->lora != 0 &&
	       b->lora != 0;
}

double eng_layer_params_rank(const struct eng_layer_params *lp, double t, double ep, double nkv, double *weights)
{
	/* as eng_op_params_rank: COL splits weights and biases, ROW the weights only, KV both
	 * by the KV heads a rank holds, NONE neither; EP divides the routed experts */
	double kv = nkv >= t ? 1.0 / t : 1.0 / nkv, w = 0.0, b = 0.0;
	int ex;

	for (ex = 0; ex < 2; ex++) {
		double e = ex == 1 && ep > 1.0 ? 1.0 / ep : 1.0;
		w += e * (lp->split_w[ex][ENG_SPLIT_COL] / t + lp->split_w[ex][ENG_SPLIT_ROW] / t +
			  lp->split_w[ex][ENG_SPLIT_KV] * kv + lp->split_w[ex][ENG_SPLIT_NONE]);
		b += e * (lp->split_b[ex][ENG_SPLIT_COL] / t + lp->split_b[ex][ENG_SPLIT_ROW] +
			  lp->split_b[ex][ENG_SPLIT_KV] * kv + lp->split_b[ex][ENG_SPLIT_NONE]);
	}
	if (weights != NULL)
		*weights = w;
	return w + b;
}
