/*
 * One serving engine step on one TP rank: the matmuls of every token it carries (prefill
 * chunks and one decode token a running sequence), each at its shape's efficiency, the
 * weight and KV-cache reads at the bandwidth streaming kernels reach, the attention, the
 * element-wise passes, the TP all-reduces at the small-message latency of an inference
 * all-reduce, and the engine's fixed cost a step.
 *
 * Sources:
 *  - Each matmul on the roofline: the larger of its FLOPs at the GEMM curve of its shape
 *    (gemm.c's eng_gemm_efficiency, the training step model's: tiles, waves and a short K;
 *    under 64 rows the decode GEMM's split-K/GEMV kernels instead, FEW_ROWS below) and its
 *    bytes (the weights at their stored size, the activations in and out) at the 78% of the
 *    datasheet bandwidth a kernel-boundary-free weight stream reaches (STREAM_BW below,
 *    Spector et al. 2025). A decode step's matmuls have a few rows and are bound by their
 *    weights (GEMV), a prefill chunk's by FLOPs.
 *  - W8A8 FP8 (vLLM's and TensorRT-LLM's fp8 checkpoints on cards with FP8 tensor cores):
 *    the matmuls at the FP8 peak on the FP8 curve the training step's FP8 linears take
 *    (gemm.c's eng_gemm_efficiency_q with the FP8 K step: anchored at the family's best FP8
 *    GEMM measured, H100/H200 65.1% sustained (MSMF), MI300X 44.3% (hipBLASLt on Azure's ND
 *    MI300X v5); the 16-bit curve's fraction of the FP8 peak on a card without an FP8
 *    measurement); each linear's input is quantised to FP8 first, one more pass over it
 *    (read 16 bits, write 8). vLLM's per-tensor FP8 linears are torch._scaled_mm (hipBLASLt
 *    or cuBLASLt: vllm/model_executor/layers/quantization/utils/w8a8_utils.py), the kernel
 *    those measurements time.
 *  - W4A4 (NVFP4 or MXFP4 weights on a card with FP4 tensor cores, matmul_dtype fp4, which
 *    adapt.c sets for them): the matmuls at the FP4 peak, on the card's FP8 curve where it has
 *    an FP8 measurement, else the 16-bit curve's fraction (no FP4 GEMM measured on a large
 *    shape), with the FP4 main loop's K step, 4× the 16-bit one (PTX ISA, mma.sync
 *    .kind::mxf4nvf4 m16n8k64 against .m16n8k16 for bf16; tcgen05.mma kind::mxf4nvf4 K 64
 *    against 16); each input quantised first, as W8A8's: read 16 bits, write 4 and the block
 *    scale (NVFP4 an e4m3 byte per 16 elements, MXFP4 an e8m0 byte per 32; quant.c).
 *  - W4A16 (AWQ, GPTQ with the Marlin kernels): 4-bit weights read, dequantised in
 *    registers, the multiply at the 16-bit peak (Frantar et al. 2024, MARLIN, §3: near the
 *    4× bandwidth saving up to batch 16-32, then the 16-bit compute roof).
 *  - NF4 (bitsandbytes): a step with more than one row dequantises each weight to 16 bits
 *    in memory and multiplies in 16 bits (bitsandbytes functional.dequantize_4bit, then
 *    torch.matmul): 2 bytes written and read again per weight; one row runs its 4-bit GEMV.
 *  - Attention: the prefill's causal span at FlashAttention's rate (gemm.c's fam->flash,
 *    Dao 2023; Shah et al. 2024), its keys read; a decode token reads its sequence's whole
 *    KV cache (paged attention, Kwon et al. 2023; FlashInfer, Ye et al. 2025), bound by
 *    bandwidth at what the engine's decode kernel reaches where it is measured (A100, H100:
 *    DEC_ATTN below), and by the CUDA-core FLOP rate of a kernel that runs on CUDA cores; a
 *    sliding window caps both.
 *  - Stragglers (straggler.c, docs/step-time.md): a TP group waits for its slowest GPU at every
 *    all-reduce and a pipeline for its slowest stage, so the matmuls' FLOPs run at the
 *    slowest of the replica's tp × pp GPUs, as the training step's tensor-core work does at
 *    the slowest of the job's (×1.010 at 2 GPUs, ×1.026 at 8); reads are left as they are.
 *  - Megatron TP: two all-reduces of the step's hidden states a layer (Shoeybi et al. 2019),
 *    M × d × 2 bytes each: KB to a few MB, where a collective is bound by its latency. The
 *    engines run a custom all-reduce over NVLink for them (vLLM csrc/custom_all_reduce.cuh,
 *    CustomAllreduce::allreduce; SGLang's copy of it; TensorRT-LLM customAllReduceKernels.cu):
 *    one-shot (cross_device_reduce_1stage: a barrier, each rank reads every peer's whole
 *    buffer and sums, (t − 1) × bytes over its links) at 2 ranks, or under 512 KB at up to 4
 *    and 256 KB at up to 8; two-shot otherwise (cross_device_reduce_2stage: a reduce-scatter
 *    and an all-gather, each behind a barrier, 2(t − 1)/t × bytes); NCCL's ring above the
 *    custom buffer's 8 MB (vllm/distributed/device_communicators/custom_all_reduce.py,
 *    max_size = 8192 × 1024) or without NVLink: eng_infer_allreduce_seconds (serving.c).
 *  - Element-wise work (norms, residual adds, the activation, RoPE) at bandwidth: per layer
 *    8 passes over the hidden state and 3 over the MLP's intermediate.
 *  - Expert parallelism (ep > 1: vLLM's --enable-expert-parallel with --data-parallel-size,
 *    SGLang's --ep-size with DP attention): the routed experts are split over ep replicas, as
 *    memory.c holds them (a GPU keeps E/ep experts, each TP-sharded in its replica), while
 *    attention and the dense layers stay each replica's own. Each expert on a GPU serves the
 *    tokens of all ep replicas routed to it: M·ep·k/E rows on average, so a decode step reads
 *    1/ep of the experts' weights for ep times the rows. Every MoE layer dispatches each
 *    token's hidden state to its k experts and combines the results: two all-to-alls of
 *    (M/tp)·k·d values from each GPU over the ep group (DeepSeek-V3 §3.2.2; DeepEP's
 *    dispatch and combine), as the training step charges them (NCCL's all-to-all,
 *    eng_coll_seconds).
 *  - MoE layers (moe_padded, moe_passes below): each routed expert's rows padded to the
 *    grouped GEMM's M tile (vLLM's moe_align_block_size, DeepGEMM's contiguous layout); the
 *    permutation and the weighted combine over k copies of each token's hidden state
 *    (TensorRT-LLM's expandInputRows and finalizeMoeRouting, vLLM's moe_sum); the routing
 *    kernels' boundaries.
 *  - Verifying a speculative draft (Leviathan et al. 2023, §3.3): each decoding sequence
 *    puts dec_q = k + 1 tokens through every linear and the LM head, and their queries read
 *    the sequence's cache once (a short causal chunk, as vLLM's and FlashInfer's kernels
 *    run it).
 */
#include <math.h>
#include <string.h>

#include "serve_internal.h"

/* Kernel-boundary bubbles a layer: Spector et al., "Look Ma, No Bubbles! Designing a
 * Low-Latency Megakernel for Llama-1B" (Hazy Research, 2025-05-27): Llama-3.2-1B decoding one
 * sequence on an H100, vLLM and SGLang use at most 50% of the memory bandwidth, a megakernel
 * without kernel boundaries 78%. The bf16 weights read a token (1.24 B parameters, the tied
 * embedding read once by the LM head: 2.47 GB) take 0.738 ms at 3.35 TB/s, so the boundaries
 * of its forward (about a hundred kernels, 16 layers) cost 0.738 × (1/0.50 − 1/0.78) =
 * 0.530 ms: 33 µs a layer (5.3 µs a kernel). Not fitted to napkin's cases. */
#define LAYER_BUBBLE (0.738e-3 * (1.0 / 0.50 - 1.0 / STREAM_BW) / 16.0)

/* The weight stream of a step's matmuls: the same measurement's megakernel, with no kernel
 * boundaries, reaches 78% of the H100's datasheet bandwidth decoding Llama-1B, so the
 * matmuls between the boundaries above stream their weights at 78% (not BabelStream's 90%:
 * the boundaries were derived against 78%, and with 90% napkin's Llama-1B step is 9% short of
 * the 50% it is derived from). Cross-check, not fitted: gpt-fast (pytorch-labs/gpt-fast
 * README, A100-80GB, torch.compile with CUDA graphs, batch 1) decodes Llama-2-7B at 104.9
 * tokens/s, 9.53 ms a token; 13.2 GB read at 78% of 2.04 TB/s is 8.30 ms, with 32 layers'
 * boundaries 9.36 ms (-1.8%). */
#define STREAM_BW 0.78

/* Decode attention's kernels, measured (the FlashInfer team, "Accelerating Self-Attentions for
 * LLM Serving with FlashInfer", flashinfer-ai.github.io, 2024-02-02: nvbench, the L2 flushed,
 * fp16; bandwidth utilisation = the bytes a kernel reads ÷ its time ÷ the datasheet bandwidth,
 * H100 SXM 3352 GB/s, A100 PCIe 80GB 1935 GB/s; read off the plotted points):
 *  - Figure 9, batch GQA decode, Llama-2-70B at TP 2 (32 query heads, 4 KV heads, head dim 128),
 *    batch 64 × 8192 tokens (1.07 GB read): FlashInfer's tensor-core kernel 88.5% on the H100,
 *    79% on the A100; its CUDA-core kernel 51% and 43.5%; vLLM 0.2.6's PagedAttention v2 (CUDA
 *    cores, no engine napkin models runs it by default) 28.5% and 26.5%.
 *  - Figure 6, batch MHA decode, Llama-2-7B (32 and 32 heads): FlashInfer's CUDA-core kernel at
 *    the largest reads (batch 1 × 65536 and batch 64 × 1024 tokens, 1.07 GB) 88% on the H100,
 *    87% on the A100 (vLLM's PagedAttention v2 82.5-84.5% and 79.5-81%).
 * A CUDA-core kernel's work grows with the query heads sharing a KV head (g): per key and KV
 * head it reads 2 × 128 × 2 = 512 bytes and does g × 2 × 2 × 128 FLOPs (q·k and the weighted
 * v, napkin's decode FLOPs), 8 a byte at g = 8, where it is bound by them: 0.51 × 3352 GB/s × 8
 * = 13.7 TFLOP/s on the H100, 0.435 × 1935 GB/s × 8 = 6.7 TFLOP/s on the A100 (the same SMs
 * and clocks on the H200, H800 and GH200, and on the A100 SXM; the H100 PCIe and NVL, fewer SMs
 * or lower clocks, take the SXM's). At g = 1 it is bound by the bytes at the MHA figure. Cross-checks, not used: vAttention (Prabhu et al., ASPLOS 2025,
 * §7.2): FlashAttention's paged kernel up to 2.85× faster than vLLM 0.2.7's (Yi-6B, GQA 8,
 * 16K context), 2.85 × 26.5% = 75.5% against FlashInfer's 79% on an A100; FlashAttention-2's
 * paged decode on an H100 SXM (onnxruntime PR 21414, nvbench, Llama-3-70B's 64 and 8 heads,
 * batch 64 × 256 tokens, 65 MiB) 47.4%, FlashInfer's tensor-core kernel 47% at the same read.
 * The engines' kernels (their code): vLLM V1 on NVIDIA runs FlashAttention (its GQA group as
 * the MMA's rows, the tensor-core class); SGLang FlashInfer's tensor-core kernel for an FP8
 * cache or g ≥ 4, its CUDA-core one below (python/sglang/srt/layers/attention/
 * flashinfer_backend.py, should_use_tensor_core); TGI FlashInfer (launcher resolve_attention:
 * "flashinfer" by default) with use_tensor_cores = g not in {1, 2, 4, 8}
 * (server/text_generation_server/layers/attention/flashinfer.py@4097a20); TensorRT-LLM XQA for
 * GQA (tensor cores; no third-party measurement: the tensor-core class taken) and its CUDA-core
 * masked MHA kernel at g = 1. No kernel-level measurement of ROCm's paged attention, of MLA's
 * kernels or of another GPU family was found: those keep the streaming fraction (fam->hbm). */
struct eng_dec_attn_fig {
	const char *id;     /* the GPU presets' id prefix (the PCIe and NVL cards share their SXM's kernels) */
	double tc;          /* tensor-core decode: fraction of the datasheet bandwidth */
	double cc;          /* CUDA-core decode at g = 1: the same */
	double cc_flops;    /* CUDA-core decode: the FLOP rate that bounds it */
};

#define DEC_H100 0.885, 0.88, 0.51 * 3352e9 * 8.0
#define DEC_A100 0.79, 0.87, 0.435 * 1935e9 * 8.0

static const struct eng_dec_attn_fig DEC_ATTN[] = {
	{"h100", DEC_H100}, {"h200", DEC_H100}, {"h800", DEC_H100}, {"gh200", DEC_H100},
	{"a100", DEC_A100}, {"a800", DEC_A100},
};

/* Whether the engine's default decode kernel runs on CUDA cores for g query heads a KV head
 * (kv: bytes a cached element). */
static bool dec_cuda_cores(int engine, double g, double kv)
{
	double gi = floor(g + 0.5);
	bool whole = fabs(g - gi) < 1e-9;

	switch (engine) {
	case ENGINE_SERVE_SGLANG:
		return kv > 2.0 || (kv == 2.0 && g < 4.0);
	case ENGINE_SERVE_TGI:
		return whole && (gi == 1.0 || gi == 2.0 || gi == 4.0 || gi == 8.0);
	case ENGINE_SERVE_TRTLLM:
		return g <= 1.0;
	default:
		return false; /* vLLM: FlashAttention */
	}
}

/* The card's row of DEC_ATTN, by its id (the PCIe and NVL cards have GEMM rows of their own in
 * gemm.c but the same decode kernels and, as a fraction of their bandwidth, their rates); NULL
 * when none is measured. Looked up once a scenario (eng_serve_ctx_init), not every step. */
static const struct eng_dec_attn_fig *dec_attn_row(const char *id)
{
	size_t i;

	for (i = 0; i < sizeof DEC_ATTN / sizeof DEC_ATTN[0]; i++)
		if (strncmp(id, DEC_ATTN[i].id, strlen(DEC_ATTN[i].id)) == 0)
			return &DEC_ATTN[i];
	return NULL;
}

void eng_dec_attn_rates(const struct eng_serve_ctx *c, const struct eng_op *op, double *bw, double *flops)
{
	double t = (double)c->sc->tp, heads = op->heads / t, kvh = op->kv_heads >= t ? op->kv_heads / t : 1.0;
	const struct eng_dec_attn_fig *f = c->dec_attn;

	*bw = c->hbm;
	*flops = c->peak_attn * c->fam->flash;
	/* the bound has no kernel in the way; MLA's absorbed kernels are not measured */
	if (f == NULL || c->sc->serve_engine == ENGINE_SERVE_NONE || op->dec_dim != op->qk_dim + op->v_dim ||
	    !(kvh > 0))
		return;
	if (dec_cuda_cores(c->sc->serve_engine, heads / kvh, c->b->kv)) {
		*bw = c->sc->gpu.bandwidth * f->cc;
		*flops = f->cc_flops;
	} else {
		*bw = c->sc->gpu.bandwidth * f->tc;
	}
}

/* A linear op's shape on one TP rank (as step.c's: columns, rows or KV heads split). */
static void rank_shape(const struct eng_serve_ctx *c, const struct eng_op *op, double *K, double *N)
{
	double t = (double)c->sc->tp, nkv = c->dm->nkv;

	*K = op->split == ENG_SPLIT_ROW ? op->K / t : op->K;
	*N = op->split == ENG_SPLIT_COL ? op->N / t
	     : op->split == ENG_SPLIT_KV ? op->N * (nkv >= t ? 1.0 / t : 1.0 / nkv)
					 : op->N;
}

/* Below one 64-row tile a matmul runs as a decode GEMM (cuBLAS's and the engines' split-K and
 * GEMV kernels), not on the training step's tile-and-wave curve (gemm.c: 128×256 tiles, whose
 * wave floor charged Llama-3-8B's decode linears 14 ms on an A100 against a 9.4 ms weight read). */
#define FEW_ROWS 64.0


void eng_serve_ctx_init(const struct engine_scenario *sc, const struct eng_dims *dm, const struct eng_bytes *b,
			double kv_rank, double step_overhead, struct eng_serve_ctx *c)
{
	double p16 = engine_gpu_peak(&sc->gpu, ENGINE_DT_BF16);
	double p8 = engine_gpu_peak(&sc->gpu, ENGINE_DT_FP8_E4M3);
	bool w8a8 = sc->weight_format == ENGINE_WF_FP8 && p8 > 0 &&
		    (sc->matmul_dtype == ENGINE_DT_AUTO || sc->matmul_dtype == ENGINE_DT_FP8_E4M3);
	bool w4a4 = (sc->weight_format == ENGINE_WF_NVFP4 || sc->weight_format == ENGINE_WF_MXFP4) &&
		    sc->matmul_dtype == ENGINE_DT_FP4 && engine_gpu_peak(&sc->gpu, ENGINE_DT_FP4) > 0;

	if (p16 <= 0)
		p16 = engine_gpu_peak(&sc->gpu, ENGINE_DT_FP16);
	c->sc = sc;
	c->dm = dm;
	c->b = b;
	c->fam = eng_family(&sc->gpu);
	c->peak_attn = p16 > 0 ? p16 : eng_matmul_peak(sc, b);
	if (sc->peak_flops > 0)
		c->peak_mm = sc->peak_flops;
	else if (w8a8)
		c->peak_mm = p8;
	else if (sc->matmul_dtype != ENGINE_DT_AUTO)
		c->peak_mm = eng_matmul_peak(sc, b);
	else
		c->peak_mm = c->peak_attn;
	/* a power limit slows the compute, not HBM (power.c, eng_power_clock) */
	{
		double clock = eng_power_clock(sc, c->fam);
		c->peak_attn *= clock;
		c->peak_mm *= clock;
	}
	c->hbm = sc->gpu.bandwidth * c->fam->hbm;
	c->dec_attn = dec_attn_row(sc->gpu.id);
	/* FP8 operands (W8A8, or an FP8 matmul_dtype): the FP8 curve, as the training step's */
	c->kq = p8 > 0 && sc->peak_flops <= 0 &&
			(w8a8 || sc->matmul_dtype == ENGINE_DT_FP8_E4M3 || sc->matmul_dtype == ENGINE_DT_FP8_E5M2)
		? 2.0
		: 1.0;
	if (w4a4 && sc->peak_flops <= 0)
		c->kq = 4.0; /* FP4 operands: 4× the 16-bit K a main-loop step */
	c->gemm_anchor = eng_gemm_anchor(&sc->gpu, c->fam, c->kq);
	{
		const struct eng_layer *ly = &dm->ly;
		int i, j;
		c->nlin = 0;
		for (i = 0; i < ly->n; i++) {
			const struct eng_op *op = &ly->op[i];
			struct eng_serve_lin *l = &c->lin[c->nlin];
			if (op->kind != ENG_OP_LINEAR)
				continue;
			l->op = i;
			rank_shape(c, op, &l->K, &l->N);
			for (j = i + 1; j < ly->n && eng_op_fused(op, &ly->op[j]); j++) {
				double K2, N2;
				rank_shape(c, &ly->op[j], &K2, &N2);
				l->N += N2;
			}
			l->wb = op->part == ENG_PART_EXPERT ? b->w_mlp
				: (op->part == ENG_PART_ATTN || op->part == ENG_PART_ROUTER) ? b->w_attn : b->w_mlp;
			c->nlin++;
			i = j - 1;
		}
	}
	/* a TP group waits for its slowest GPU at every all-reduce, a pipeline for its slowest
	 * stage: the matmuls' FLOPs at the slowest of the replica's GPUs (straggler.c, as the
	 * training step's); the bound has none */
	c->straggler = sc->serve_engine == ENGINE_SERVE_NONE ? 1.0 : eng_straggler_factor((double)(sc->tp * sc->pp));
	c->w_bytes = b->w_linear;
	c->deq_bytes = 0.0;
	/* the inputs quantised first: FP8 one byte, FP4 half a byte and its block scale's share */
	c->act_q = w8a8 ? 1.0 : !w4a4 ? 0.0 : 0.5 + (sc->weight_format == ENGINE_WF_NVFP4 ? 1.0 / 16.0 : 1.0 / 32.0);
	if (sc->weight_format == ENGINE_WF_NF4 || sc->weight_format == ENGINE_WF_NF4_DQ)
		c->deq_bytes = 4.0;
	c->kv_rank = kv_rank;
	c->ep = sc->ep > 1 && dm->E > 1.0 ? (double)sc->ep : 1.0;
	c->step_overhead = step_overhead;
	c->dec_q = 1.0;
	/* the bound (no engine) has nothing in the way */
	c->bubble = sc->serve_engine == ENGINE_SERVE_NONE ? 0.0 : LAYER_BUBBLE;
	c->flash = c->peak_attn * c->fam->flash;
	c->kv_layer = kv_rank / eng_max(1.0, dm->L);
	c->stream = sc->gpu.bandwidth * STREAM_BW;
	c->few_eff = c->kq > 1.0 && c->fam->fp8_best > 0 ? c->fam->fp8_best : c->fam->gemm_best;
	{
		/* matmul_g's figures for one group (g = 1), in its order of operations */
		int i;
		for (i = 0; i < c->nlin; i++) {
			struct eng_serve_lin *l = &c->lin[i];
			l->kn_wb = 1.0 * l->K * l->N * l->wb;
			l->k_plus_n = l->K + l->N;
			l->few_tc = 2.0 * 1.0 * FEW_ROWS * l->K * l->N / (c->peak_mm * c->few_eff) * c->straggler;
		}
	}
	{
		const struct eng_layer *ly = &dm->ly;
		double t = (double)sc->tp;
		int i;
		c->nattn = 0;
		for (i = 0; i < ly->n; i++) {
			const struct eng_op *op = &ly->op[i];
			struct eng_serve_attn *a = &c->attn[c->nattn];
			if (op->kind != ENG_OP_ATTN)
				continue;
			a->op = i;
			a->heads = op->heads / t;
			a->per_key = 2.0 * a->heads * (op->qk_dim + op->v_dim);
			eng_dec_attn_rates(c, op, &a->dec_bw, &a->dec_flops);
			c->nattn++;
		}
	}
}

/* A grouped matmul: g groups (routed experts) of K×N weights stored at wb bytes each, M rows
 * in all, computed as Mp rows (each group's rows padded to the kernel's M tile): max(FLOPs at
 * the curve of one group's Mp/g rows, bytes at bandwidth). One dense matmul is g = 1, Mp = M. */
static double matmul_g(const struct eng_serve_ctx *c, double g, double M, double Mp, double K, double N, double wb,
		       bool *compute_bound)
{
	double e = c->b->act, eff, flops, bytes, tc, tm;

	if (!(M > 0 && K > 0 && N > 0 && g > 0))
		return 0.0;
	if (M / g < FEW_ROWS) {
		/* a decode GEMM: split-K/GEMV kernels spread the weights over every SM, no wave
		 * floor; its rows padded to one tile at the best GEMM rate (memory-bound in practice) */
		eff = c->few_eff;
		flops = 2.0 * g * FEW_ROWS * K * N;
	} else {
		eff = eng_gemm_efficiency_a(&c->sc->gpu, c->fam, Mp / g, N, K, c->kq, c->gemm_anchor);
		flops = 2.0 * Mp * K * N;
	}
	bytes = g * K * N * wb + M * (K + N) * e;
	if (c->deq_bytes > 0 && M > 1.0)
		bytes += g * K * N * c->deq_bytes; /* NF4: dequantised to 16 bits and read again */
	if (c->act_q > 0)
		bytes += M * K * (e + c->act_q); /* W8A8, W4A4: the input quantised (read e bytes, write act_q) */
	tc = flops / (c->peak_mm * eff) * c->straggler;
	tm = bytes / c->stream;
	*compute_bound = tc > tm;
	return eng_max(tc, tm);
}

/* One of the layer's dense GEMMs (c->lin) over M rows: matmul_g at g = 1, its parts that do
 * not change with M read from the context (the same figures: a step times each linear
 * twice for every trial of the steady state's solve). */
static double matmul_lin(const struct eng_serve_ctx *c, const struct eng_serve_lin *l, double M, bool *compute_bound)
{
	double K = l->K, N = l->N, e = c->b->act, tc, tm, bytes;

	if (!(M > 0 && K > 0 && N > 0))
		return 0.0;
	if (M < FEW_ROWS) {
		tc = l->few_tc;
	} else {
		double eff = eng_gemm_efficiency_a(&c->sc->gpu, c->fam, M, N, K, c->kq, c->gemm_anchor);
		tc = 2.0 * M * K * N / (c->peak_mm * eff) * c->straggler;
	}
	bytes = l->kn_wb + M * l->k_plus_n * e;
	if (c->deq_bytes > 0 && M > 1.0)
		bytes += 1.0 * K * N * c->deq_bytes;
	if (c->act_q > 0)
		bytes += M * K * (e + c->act_q);
	tm = bytes / c->stream;
	*compute_bound = tc > tm;
	return eng_max(tc, tm);
}

/* One matmul of M rows, K×N weights stored at wb bytes each. */
static double matmul(const struct eng_serve_ctx *c, double M, double K, double N, double wb, bool *compute_bound)
{
	return matmul_g(c, 1.0, M, M, K, N, wb, compute_bound);
}

/* The rows a routed expert's grouped GEMM computes for r real rows. The engines' MoE GEMMs
 * tile each expert's rows separately, so an expert's last tile is padded to the kernel's M
 * tile: vLLM's moe_align_block_size pads each expert's count to a multiple of BLOCK_SIZE_M
 * (moe_align_block_size.py:63@05be992, tl.cdiv(token_cnt, block_size) * block_size) and
 * fused_moe_kernel computes every block below num_tokens_post_padded, its padding rows
 * masked (fused_moe.py, fused_experts_impl@000d145); DeepGEMM's contiguous grouped layout
 * aligns each expert to 128 rows (deep_gemm/jit_kernels/utils.py:46-54@a6d97a1); a CUTLASS
 * grouped GEMM (TensorRT-LLM's moeGemm) tiles each problem's M. BLOCK_SIZE_M is 128 in vLLM's
 * tuned Mixtral FP8 config on H100 from 256 tokens a step (configs/E=8,N=14336,
 * device_name=NVIDIA_H100_80GB_HBM3,dtype=fp8_w8a8.json:91@a0aaf7f; 64 at 128 tokens and
 * below, line 83, where an expert's rows are under FEW_ROWS and matmul_g already pads them to
 * one 64-row tile). With the experts' loads spread by more than a tile, the last tile is half
 * empty on average: r + 128/2 rows, and never less than one tile. The bound (no engine) pads
 * nothing. */
#define MOE_TILE_M 128.0

static double moe_padded(const struct eng_serve_ctx *c, double r)
{
	if (c->sc->serve_engine == ENGINE_SERVE_NONE || r < FEW_ROWS)
		return r;
	return eng_max(MOE_TILE_M, r + MOE_TILE_M / 2.0);
}

/* What a MoE layer adds to a dense MLP's kernels beyond its GEMMs and activation, on the M
 * tokens of a step:
 *  - the permutation and the combine, passes over k copies of each token's d values.
 *    TensorRT-LLM (cpp/tensorrt_llm/kernels/mixtureOfExperts/moe_kernels.cu@03cff08,
 *    CutlassMoeFCRunner::runMoe): expandInputRowsKernel copies each token's row to its k
 *    expanded rows (k·M·d read, k·M·d written) and finalizeMoeRoutingKernel reads the k
 *    expert outputs of each token and writes their weighted sum (k·M·d read, M·d written):
 *    (3k + 1)·M·d values. vLLM's and SGLang's fused_moe gathers the rows inside the GEMM
 *    (sorted_token_ids) and writes the k outputs to intermediate_cache3, which moe_sum reads
 *    and sums (fused_moe.py, fused_experts_impl@000d145): (k + 1)·M·d values.
 *  - the extra kernels, each a boundary (KERNEL_BUBBLE): vLLM's MoE layer runs the router's
 *    GEMM, topk_softmax (fused_topk), the sorted_ids fill and moe_align_block_size, and
 *    moe_sum besides a dense MLP's GEMMs and activation: 5; TensorRT-LLM's runMoe the router
 *    GEMM, topkGatingSoftmax, the CUB sort, computeTotalRowsBeforeExpert,
 *    expandInputRows and finalizeMoeRouting: 6.
 * The router's GEMM itself is a linear of the layer table; the top-k softmax reads M·E logits
 * (a few KB), left out. None of this in the bound (no engine). */
#define KERNEL_BUBBLE (LAYER_BUBBLE * 16.0 / 100.0)

static double moe_passes(const struct eng_serve_ctx *c, double M)
{
	const struct eng_dims *dm = c->dm;
	bool trt = c->sc->serve_engine == ENGINE_SERVE_TRTLLM;
	double vals, kernels;

	if (c->sc->serve_engine == ENGINE_SERVE_NONE || !(dm->E > 1.0) || !(dm->moe_share > 0.0))
		return 0.0;
	vals = (trt ? 3.0 * dm->k + 1.0 : dm->k + 1.0) * M * dm->d;
	kernels = trt ? 6.0 : 5.0;
	return dm->L * dm->moe_share * (vals * c->b->act / c->hbm + kernels * KERNEL_BUBBLE);
}

/* Expert parallelism's dispatch and combine in every MoE layer of a step over M tokens:
 * two all-to-alls over the ep group (ranks ordered tp, then ep: a node holds
 * gpus_per_node ÷ tp of them), as step_layer.c charges the training step's. A replica's tp
 * GPUs hold the same M hidden states after the all-reduce; each dispatches its M/tp share
 * (k copies of d values a token), as one GPU a DP-attention rank does (SGLang's
 * --enable-dp-attention, vLLM's data-parallel deployment: attention TP 1 a rank). */
static double ep_alltoall(const struct eng_serve_ctx *c, double M)
{
	const struct engine_scenario *sc = c->sc;
	struct eng_group g;

	if (!(c->ep > 1.0) || !(c->dm->moe_share > 0.0))
		return 0.0;
	eng_group_init(&g, c->ep, (double)sc->gpus_per_node / (double)sc->tp, sc, eng_network_bw(sc), c->fam);
	return c->dm->L * c->dm->moe_share * 2.0 *
	       eng_coll_seconds(&g, COLL_ALL_TO_ALL, M / (double)sc->tp * c->dm->k * c->dm->d * c->b->act);
}

void eng_serve_step_time(const struct eng_serve_ctx *c, double pre, double pre_keys, double dec, double dec_ctx,
			 struct eng_serve_step *out)
{
	const struct engine_scenario *sc = c->sc;
	const struct eng_dims *dm = c->dm;
	const struct eng_layer *ly = &dm->ly;
	double q = c->dec_q > 1.0 ? c->dec_q : 1.0;
	double t = (double)sc->tp, e = c->b->act, M = pre + dec * q, L = dm->L;
	double mm = 0.0, wt = 0.0, at = 0.0, other, comm, head, bubbles;
	double win_ctx = dec_ctx, win_keys = pre_keys;
	int i;

	out->seconds = 0.0;
	if (!(M > 0)) {
		out->matmul = out->weights = out->attention = out->comm = out->other = out->overhead = 0.0;
		out->ep_comm = out->moe = 0.0;
		out->bubbles = 0.0;
		return;
	}
	if (dm->W > 0 && dm->wfrac > 0) {
		win_ctx = (1.0 - dm->wfrac) * dec_ctx + dm->wfrac * eng_min(dec_ctx, dm->W);
		win_keys = (1.0 - dm->wfrac) * pre_keys + dm->wfrac * eng_min(pre_keys, dm->W);
	}
	/* the linears: ops that read one input run as one GEMM (q, k, v; gate, up; c->lin) */
	for (i = 0; i < c->nlin; i++) {
		const struct eng_op *op = &ly->op[c->lin[i].op];
		double K = c->lin[i].K, N = c->lin[i].N, wb = c->lin[i].wb, rows, tokens, copies, touched, s;
		bool cb = false;
		tokens = M;
		copies = op->copies;
		if (op->part == ENG_PART_EXPERT && copies > 1.0 && c->ep > 1.0) {
			/* expert parallel: this GPU's E/ep experts see the tokens of ep replicas */
			copies /= c->ep;
			tokens *= c->ep;
		}
		rows = tokens * op->rows;
		/* routed experts: the copies at least one of the step's tokens reaches */
		touched = op->copies > 1.0 ? copies * (1.0 - pow(1.0 - op->rows, tokens)) : copies;
		if (touched > 0 && touched != copies)
			rows *= copies / touched;
		if (op->copies > 1.0)
			s = op->share * matmul_g(c, touched, touched * rows, touched * moe_padded(c, rows), K, N, wb, &cb);
		else
			s = op->share * touched * matmul_lin(c, &c->lin[i], rows, &cb);
		if (cb)
			mm += s;
		else
			wt += s;
	}
	mm *= L;
	wt *= L;
	/* attention cores: the prefill's causal span at FlashAttention's rate, its keys read;
	 * each decode token's whole cache read */
	for (i = 0; i < c->nattn; i++) {
		const struct eng_serve_attn *a = &c->attn[i];
		const struct eng_op *op = &ly->op[a->op];
		double kvh = c->kv_layer, fl, by, ctx, keys;
		ctx = op->window > 0 ? eng_min(dec_ctx, op->window) : win_ctx;
		keys = op->window > 0 ? eng_min(pre_keys, op->window) : win_keys;
		fl = pre * keys * a->per_key;
		by = pre > 0 ? (keys + pre) * kvh : 0.0;
		at += op->share * eng_max(fl / c->flash, by / c->hbm);
		/* verifying a draft: the k + 1 queries of a sequence share one read of its cache; at
		 * the engine's decode kernel's rates (DEC_ATTN) */
		fl = dec * q * ctx * 2.0 * a->heads * op->dec_dim;
		by = dec * ctx * kvh;
		at += op->share * eng_max(fl / a->dec_flops, by / a->dec_bw);
	}
	at *= L;
	/* the LM head: the decode tokens and the last position of a prefill that ends */
	{
		double rows = dec * q + (pre > 0 ? 1.0 : 0.0);
		bool cb = false;
		head = matmul(c, rows, dm->d, dm->V / t, c->b->w_head, &cb);
	}
	/* norms, residuals, the activation: at bandwidth */
	other = L * M * e * (8.0 * dm->d + 3.0 * dm->lp.mlp_width / t) / c->hbm;
	comm = 2.0 * L * eng_infer_allreduce_fam(sc, c->fam, M * dm->d * e);
	out->moe = moe_passes(c, M);
	out->ep_comm = ep_alltoall(c, M);
	out->matmul = mm;
	out->weights = wt + head;
	out->attention = at;
	out->comm = comm;
	out->other = other;
	out->overhead = c->step_overhead;
	bubbles = L * c->bubble;
	out->bubbles = bubbles;
	out->seconds = mm + wt + head + at + other + comm + out->moe + out->ep_comm + bubbles + c->step_overhead;
}
