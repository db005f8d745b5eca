/*
 * Weight-only quantisation formats for inference, each with its true bits per weight
 * (the scales and zero points included) derived from its storage layout:
 *
 *  - GPTQ int4, group 128 (AutoGPTQ's QuantLinear): qweight packs 8 int4 in an int32
 *    (4 bits per weight); per group of 128 input rows and per output column one fp16 scale
 *    (16 bits) and one 4-bit zero point packed 8 to an int32 in qzeros (4 bits):
 *    4 + (16 + 4) / 128 = 4.15625 bits. With act-order, g_idx adds one int32 per input row,
 *    32 / out_features bits per weight (under 0.01 for 4096 outputs): left out.
 *  - AWQ int4, group 128 (AutoAWQ's GEMM layout): the same qweight, qzeros and fp16 scales:
 *    4 + 20 / 128 = 4.15625 bits.
 *  - bitsandbytes NF4 (Dettmers et al. 2023, QLoRA §3): 4-bit codes, one fp32 absmax per
 *    block of 64: 4 + 32 / 64 = 4.5 bits. With double quantisation the absmax constants are
 *    themselves quantised to 8 bits in blocks of 256 with one fp32 constant each:
 *    4 + 8 / 64 + 32 / (64 · 256) = 4.127 bits (the paper's 0.127 bits of constants).
 *    bitsandbytes quantises nn.Linear only: embeddings and the LM head stay 16-bit.
 *  - llama.cpp GGUF Q8_0 (ggml-common.h, block_q8_0): one fp16 d and 32 int8 per block:
 *    (2 + 32) bytes / 32 weights = 8.5 bits, for every 2-D tensor (embedding and output too).
 *  - llama.cpp GGUF Q4_K_M: a mix chosen by llama_tensor_get_type (src/llama-quant.cpp).
 *    Q4_K (block_q4_K: fp16 d and dmin, 12 bytes of 6-bit sub-block scales and mins, 128
 *    bytes of 4-bit codes per 256 weights) = 144 · 8 / 256 = 4.5 bits; Q6_K (block_q6_K:
 *    128 bytes of low 4 bits, 64 of high 2 bits, 16 int8 sub-block scales, fp16 d) =
 *    210 · 8 / 256 = 6.5625 bits. Q4_K_M stores attn_v and ffn_down in Q6_K in the layers
 *    where use_more_bits(i, n) holds (i < n/8 || i >= 7n/8 || (i - n/8) % 3 == 2, integer
 *    division: half the layers of a 32- or 80-layer model), output.weight in Q6_K, and
 *    everything else, token_embd included, in Q4_K.
 *  - fp8 (e4m3) with one fp32 scale per tensor (vLLM's and TensorRT-LLM's fp8 checkpoints):
 *    8 bits; the embedding and the LM head stay 16-bit.
 *  - NVFP4 (NVIDIA technical blog "Introducing NVFP4 for Efficient and Accurate Low-Precision
 *    Inference", 2025; TensorRT Model Optimizer's NVFP4): FP4 E2M1 elements, one FP8 E4M3
 *    scale per block of 16, and one fp32 scale per tensor: 4 + 8 / 16 = 4.5 bits (the
 *    per-tensor scale, 32 bits for millions of weights, left out). ModelOpt quantises the
 *    linears of the blocks; the embedding and the LM head stay 16-bit.
 *  - MXFP4 (OCP Microscaling Formats (MX) Specification v1.0, 2023, §5: the MXFP4 format):
 *    blocks of 32 FP4 E2M1 elements sharing one E8M0 scale (8 bits, a power of two):
 *    4 + 8 / 32 = 4.25 bits.
 *  - mxfp4-experts: gpt-oss's checkpoints (openai/gpt-oss-20b and -120b config.json,
 *    quantization_config {quant_method: mxfp4, modules_to_not_convert: self_attn, router,
 *    embed_tokens, lm_head}) store the MoE experts in MXFP4 and keep the attention, the router,
 *    the embedding and the head in bf16: the blocks' linears average
 *    (16 · (attention + router) + 4.25 · experts) / (attention + router + experts) bits.
 *    That is the weights' memory exactly; what a step reads is counted op by op (the
 *    attention and the router at 16 bits, each expert it routes to at 4.25: eng_bytes'
 *    w_attn and w_mlp), so a decode step's average is higher (gpt-oss-20b: 6.73 bits over
 *    the active linears against 4.63 over all).
 */
#include <string.h>

#include "internal.h"

#define Q4_K_BITS (144.0 * 8.0 / 256.0) /* 4.5 */
#define Q6_K_BITS (210.0 * 8.0 / 256.0) /* 6.5625 */
#define Q8_0_BITS (34.0 * 8.0 / 32.0)   /* 8.5 */
#define NVFP4_BITS (4.0 + 8.0 / 16.0)   /* 4.5 */
#define MXFP4_BITS (4.0 + 8.0 / 32.0)   /* 4.25 */

static const struct engine_weight_format_info formats[ENGINE_WF_COUNT] = {
	[ENGINE_WF_DTYPE] = {"dtype", N_("plain dtype (weight_dtype)"), 0, 0, 0, false, N_("no scales"), "-"},
	[ENGINE_WF_GPTQ_INT4] = {"gptq-int4", N_("GPTQ int4, group 128"), 4.0 + (16.0 + 4.0) / 128.0, 0, 0, false,
				 N_("per 128 input rows and output column: an fp16 scale and a 4-bit zero (qzeros)"),
				 "Frantar et al. 2022; AutoGPTQ QuantLinear"},
	[ENGINE_WF_AWQ_INT4] = {"awq-int4", N_("AWQ int4, group 128"), 4.0 + (16.0 + 4.0) / 128.0, 0, 0, false,
				N_("per 128 input rows and output column: an fp16 scale and a 4-bit zero (qzeros)"),
				"Lin et al. 2023; AutoAWQ GEMM layout"},
	[ENGINE_WF_NF4] = {"nf4", N_("bitsandbytes NF4, block 64"), 4.0 + 32.0 / 64.0, 0, 0, false,
			   N_("one fp32 absmax per 64 weights"), "Dettmers et al. 2023; bitsandbytes Params4bit"},
	[ENGINE_WF_NF4_DQ] = {"nf4-dq", N_("bitsandbytes NF4 + double quantisation"), 4.0 + 8.0 / 64.0 + 32.0 / (64.0 * 256.0),
			      0, 0, false, N_("an 8-bit absmax per 64 weights, an fp32 constant per 256 of those"),
			      "Dettmers et al. 2023 (QLoRA), §3 double quantisation"},
	[ENGINE_WF_GGUF_Q8_0] = {"q8_0", N_("GGUF Q8_0"), Q8_0_BITS, Q8_0_BITS, Q8_0_BITS, false,
				 N_("one fp16 scale per 32 weights, inside each block"), "llama.cpp ggml-common.h block_q8_0"},
	[ENGINE_WF_GGUF_Q4_K_M] = {"q4_k_m", N_("GGUF Q4_K_M (Q4_K + Q6_K)"), Q4_K_BITS, Q4_K_BITS, Q6_K_BITS, true,
				   N_("per 256-weight super-block an fp16 scale and min, 6-bit scales per 32"),
				   "llama.cpp src/llama-quant.cpp llama_tensor_get_type; ggml-common.h block_q4_K, block_q6_K"},
	[ENGINE_WF_FP8] = {"fp8", N_("fp8 e4m3, per-tensor scale"), 8.0, 0, 0, false, N_("one fp32 scale per tensor"),
			   "vLLM fp8 quantisation; Micikevicius et al. 2022"},
	[ENGINE_WF_NVFP4] = {"nvfp4", N_("NVFP4 (fp4 e2m1, block 16)"), NVFP4_BITS, 0, 0, false,
			     N_("an fp8 e4m3 scale per 16 weights, an fp32 scale per tensor"),
			     "NVIDIA technical blog: Introducing NVFP4 (2025); TensorRT Model Optimizer"},
	[ENGINE_WF_MXFP4] = {"mxfp4", N_("MXFP4 (fp4 e2m1, block 32)"), MXFP4_BITS, 0, 0, false,
			     N_("an 8-bit power-of-two (e8m0) scale per 32 weights"),
			     "OCP Microscaling Formats (MX) Specification v1.0 (2023)"},
	[ENGINE_WF_MXFP4_EXPERTS] = {"mxfp4-experts", N_("MXFP4 experts, bf16 attention (gpt-oss)"), MXFP4_BITS, 0, 0, true,
				     N_("the MLP's (experts') weights: an e8m0 scale per 32; attention and router in bf16"),
				     "OCP MX v1.0; openai/gpt-oss config.json quantization_config"},
};

_Static_assert(sizeof formats / sizeof formats[0] == ENGINE_WF_COUNT, "one row per weight format");

const struct engine_weight_format_info *engine_weight_format_info(enum engine_weight_format f)
{
	if ((int)f < 0 || f >= ENGINE_WF_COUNT)
		return &formats[ENGINE_WF_DTYPE];
	return &formats[f];
}

/* llama.cpp's use_more_bits(i, n), with its integer divisions. */
static bool more_bits(int64_t i, int64_t n)
{
	return i < n / 8 || i >= 7 * n / 8 || (i - n / 8) % 3 == 2;
}

double engine_weight_format_bits(enum engine_weight_format f, const struct engine_model *m)
{
	const struct engine_weight_format_info *fi = engine_weight_format_info(f);
	struct eng_dims dm;
	struct eng_layer_params lp;
	double v, down, more = 0.0;
	int64_t i;

	if (!fi->mixed || m->layers <= 0)
		return fi->linear_bits;
	eng_dims_from_model(m, &dm);
	eng_layer_params(&dm, &lp);
	if (f == ENGINE_WF_MXFP4_EXPERTS) {
		/* the MLPs (the experts) in MXFP4, the attention and the router in bf16 */
		double sixteen = lp.attn_w + lp.router, experts = lp.dense_w + lp.expert_w;
		if (sixteen + experts <= 0)
			return fi->linear_bits;
		return (16.0 * sixteen + MXFP4_BITS * experts) / (sixteen + experts);
	}
	for (i = 0; i < m->layers; i++)
		more += more_bits(i, m->layers) ? 1.0 : 0.0;
	more /= (double)m->layers;
	/* attn_v is d × (nkv·dh) (MLA has none); ffn_down f × d per expert */
	v = dm.kv_rank > 0.0 ? 0.0 : dm.d * dm.nkv * dm.dh;
	down = lp.down_w;
	if (lp.attn_w + lp.dense_w + lp.expert_w <= 0)
		return fi->linear_bits;
	return Q4_K_BITS + more * (v + down) * (Q6_K_BITS - Q4_K_BITS) / (lp.attn_w + lp.dense_w + lp.expert_w);
}
