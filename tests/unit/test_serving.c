/*
 * Serving against published figures and definitions: the weight formats' bits per weight
 * from their storage layouts and the checkpoint sizes published for them, the KV cache of
 * a sliding window, how many sequences fit (weights + KV arithmetic worked by hand), time to
 * first token and per output token against their roofline bounds, the causal prefill count,
 * and the property that a smaller prefill chunk never raises the activations.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "engine.h"
#include "serving_scenarios.h"
#include "testengine.h"
#include "testutil.h"

/* ------------------------------------------------------------ weight formats */

static void test_format_bits(void **state)
{
	struct engine_model m;

	(void)state;
	engine_model_llama2_7b(&m);
	/* GPTQ / AWQ int4, group 128: 4 bits + (fp16 scale + 4-bit zero) per 128 weights */
	assert_close(engine_weight_format_bits(ENGINE_WF_GPTQ_INT4, &m), 4.15625, 1e-12);
	assert_close(engine_weight_format_bits(ENGINE_WF_AWQ_INT4, &m), 4.15625, 1e-12);
	/* NF4: 4 bits + an fp32 absmax per 64 = 4.5; double quantisation: QLoRA §3's 0.127 bits
	 * of constants, 8/64 + 32/(64·256) */
	assert_close(engine_weight_format_bits(ENGINE_WF_NF4, &m), 4.5, 1e-12);
	assert_close(engine_weight_format_bits(ENGINE_WF_NF4_DQ, &m), 4.127, 2e-4);
	/* GGUF Q8_0: 32 int8 + one fp16 per block = 34 bytes per 32 weights */
	assert_close(engine_weight_format_bits(ENGINE_WF_GGUF_Q8_0, &m), 8.5, 1e-12);
	/* Q4_K_M on Llama-2-7B: Q4_K (4.5) everywhere but attn_v and ffn_down of the 16 of 32
	 * layers use_more_bits picks, in Q6_K (6.5625):
	 * 4.5 + 0.5 · (4096·4096 + 11008·4096) · 2.0625 / (4·4096² + 3·4096·11008) */
	assert_close(engine_weight_format_bits(ENGINE_WF_GGUF_Q4_K_M, &m),
		     4.5 + 0.5 * (4096.0 * 4096.0 + 11008.0 * 4096.0) * 2.0625 /
				   (4.0 * 4096.0 * 4096.0 + 3.0 * 4096.0 * 11008.0),
		     1e-12);
	/* fp8 e4m3: 8 bits, one scale per tensor */
	assert_close(engine_weight_format_bits(ENGINE_WF_FP8, &m), 8.0, 1e-12);
}

/* The checkpoint sizes published for Llama-2-7B (TheBloke's model cards, file sizes in GB):
 * llama-2-7b.Q4_K_M.gguf 4.08 GB, llama-2-7b.Q8_0.gguf 7.16 GB, the GPTQ main branch (4 bits,
 * group 128) 3.90 GB (its g_idx and fp16 norms add under 0.01 GB). */
static void test_format_checkpoint_sizes(void **state)
{
	struct engine_scenario sc;
	struct engine_result r;

	(void)state;
	llama2_7b_infer(&sc);
	te_set(&sc, "weight_format", "q4_k_m");
	te_evaluate(&sc, &r);
	assert_close(r.memory.weights, 4.08e9, 0.004);
	te_set(&sc, "weight_format", "q8_0");
	te_evaluate(&sc, &r);
	assert_close(r.memory.weights, 7.16e9, 0.004);
	te_set(&sc, "weight_format", "gptq-int4");
	te_evaluate(&sc, &r);
	assert_close(r.memory.weights, 3.90e9, 0.005);
	/* bf16: 2 bytes for each of 6,738,415,616 parameters */
	te_set(&sc, "weight_format", "dtype");
	te_evaluate(&sc, &r);
	assert_close(r.memory.weights, 2.0 * 6738415616.0, 1e-9);
	/* the decode step reads the weights as stored: at batch 1 it is memory-bound, so the
	 * Q4_K_M step is the int4 bytes over the bandwidth, not the bf16 ones */
	te_set(&sc, "weight_format", "q4_k_m");
	te_set(&sc, "prompt", "1");
	te_set(&sc, "generate", "1");
	te_evaluate(&sc, &r);
	/* a context of 1: the KV cache is 2 tokens; the embedding's rows are not read */
	assert_true(r.inference.decode_seconds_per_token < 4.08e9 * 1.01 / 3.35e12);
	assert_true(r.inference.decode_seconds_per_token >= (4.08e9 - 32000.0 * 4096 * 4.5 / 8.0) * 0.99 / 3.35e12);
}

/* ------------------------------------------------------------ KV cache */

static void test_sliding_window_kv(void **state)
{
	struct engine_scenario sc;
	struct engine_result r;
	/* Mistral-7B: 2 (K, V) · 32 layers · 8 KV heads · 128 · 2 bytes = 131,072 bytes a token */
	const double per_token = 2.0 * 32 * 8 * 128 * 2;

	(void)state;
	mistral_7b(&sc);
	te_set(&sc, "kv_block", "1");
	te_set(&sc, "prompt", "16384");
	te_set(&sc, "generate", "16384");
	te_evaluate(&sc, &r);
	/* a rolling buffer of W = 4096 positions (Jiang et al. 2023, §2): 4096 · 128 KiB = 512
	 * MiB at any context beyond the window */
	assert_close(r.memory.kv_cache, 4096.0 * per_token, 1e-12);
	assert_close(r.inference.kv_bytes_per_sequence, 4096.0 * per_token, 1e-12);
	/* within the window nothing changes */
	te_set(&sc, "prompt", "1024");
	te_set(&sc, "generate", "1024");
	te_evaluate(&sc, &r);
	assert_close(r.memory.kv_cache, 2048.0 * per_token, 1e-12);
	/* paged in vLLM's blocks of 16: the window straddles at most 4096/16 + 1 blocks */
	te_set(&sc, "kv_block", "16");
	te_set(&sc, "prompt", "16384");
	te_set(&sc, "generate", "16384");
	te_evaluate(&sc, &r);
	assert_close(r.memory.kv_cache, 4112.0 * per_token, 1e-12);
	/* Gemma 2's pattern: the window on half the layers, full attention on the others */
	te_set(&sc, "kv_block", "1");
	te_set(&sc, "window_layers", "16");
	te_evaluate(&sc, &r);
	assert_close(r.memory.kv_cache, (16.0 * 4096.0 + 16.0 * 32768.0) / 32.0 * per_token, 1e-12);
	/* no window: the whole context */
	te_set(&sc, "sliding_window", "0");
	te_evaluate(&sc, &r);
	assert_close(r.memory.kv_cache, 32768.0 * per_token, 1e-12);
}

static void test_paged_kv_waste(void **state)
{
	struct engine_scenario sc;
	struct engine_result r;
	/* Llama-2-7B: 2 · 32 · 32 · 128 · 2 = 524,288 bytes a token */
	const double per_token = 524288.0;

	(void)state;
	llama2_7b_infer(&sc);
	te_set(&sc, "prompt", "1000");
	te_set(&sc, "generate", "1");
	te_set(&sc, "kv_block", "16");
	te_evaluate(&sc, &r);
	/* 1001 tokens in blocks of 16: 63 blocks, 1008 tokens (under one block wasted) */
	assert_close(r.memory.kv_cache, 1008.0 * per_token, 1e-12);
	assert_true(r.memory.kv_cache - 1001.0 * per_token < 16.0 * per_token);
	te_set(&sc, "kv_block", "1");
	te_evaluate(&sc, &r);
	assert_close(r.memory.kv_cache, 1001.0 * per_token, 1e-12);
	/* fp8 KV cache: one byte an element, half of bf16 */
	te_set(&sc, "kv_dtype", "fp8");
	te_evaluate(&sc, &r);
	assert_close(r.memory.kv_cache, 1001.0 * per_token / 2.0, 1e-12);
}

/* ------------------------------------------------------------ capacity */

/* Worked by hand: one H100 SXM holds 81,559 MiB = 85,520,809,984 bytes, napkin reserves
 * 768 MiB of CUDA context; the sequences that fit are the free memory over one sequence's
 * KV cache, less at most one for the step's activations (one prefill chunk). */
static int64_t kv_only(double weights_per_gpu, double kv_per_sequence_per_gpu)
{
	return (int64_t)floor((81559.0 * 1048576.0 - 768.0 * 1048576.0 - weights_per_gpu) / kv_per_sequence_per_gpu);
}

static void test_max_concurrent(void **state)
{
	struct engine_scenario sc;
	struct engine_result r;
	/* Llama-3-70B, 70,553,706,496 parameters, 1,050,673,152 each in the embedding and the
	 * LM head (128256 × 8192); KV per token 2 · 80 · 8 · 128 = 163,840 elements, half on
	 * each TP rank */
	const double P = 70553706496.0, emb = 128256.0 * 8192.0;
	const double ctx = 32768.0;
	int64_t want;

	(void)state;
	llama3_70b_tp2(&sc);
	te_set(&sc, "prompt", "31744");
	te_set(&sc, "generate", "1024");
	te_set(&sc, "prefill_chunk", "2048");
	/* bf16 weights and KV: 70.55 GB per GPU, 5.37 GB of KV per sequence per GPU */
	want = kv_only(P, ctx * 163840.0 / 2.0 * 2.0);
	assert_int_equal(want, 2);
	te_evaluate(&sc, &r);
	assert_true(r.inference.max_concurrent == want || r.inference.max_concurrent == want - 1);
	/* fp8 weights (the linears in 1 byte, embedding and head kept in 16 bits) and an fp8
	 * KV cache: about 18 sequences at 32k, the KV arithmetic's answer */
	te_set(&sc, "weight_format", "fp8");
	te_set(&sc, "kv_dtype", "fp8");
	want = kv_only(((P - 2.0 * emb) * 1.0 + 2.0 * emb * 2.0) / 2.0, ctx * 163840.0 / 2.0 * 1.0);
	assert_int_equal(want, 18);
	te_evaluate(&sc, &r);
	assert_true(r.inference.max_concurrent == want || r.inference.max_concurrent == want - 1);
	/* not every sequence's whole prompt at once: even unchunked, one prompt's activations
	 * (a few GB at 31,744 tokens) cost at most a couple of sequences, never 2/3 of them */
	te_set(&sc, "prefill_chunk", "0");
	te_evaluate(&sc, &r);
	assert_true(r.inference.max_concurrent >= want - 2);
	/* Llama-2-70B (68,976,648,192 parameters) in bf16 at 4k: 2 · 80 · 8 · 128 · 2 bytes = 320
	 * KiB a token, 640 MiB a sequence over 2 GPUs */
	te_set(&sc, "vocab", "32000");
	te_set(&sc, "ffn", "28672");
	te_set(&sc, "weight_format", "dtype");
	te_set(&sc, "kv_dtype", "auto");
	te_set(&sc, "prompt", "3072");
	te_set(&sc, "generate", "1024");
	te_set(&sc, "prefill_chunk", "512");
	want = kv_only(68976648192.0, 4096.0 * 163840.0 / 2.0 * 2.0);
	assert_int_equal(want, 23);
	te_evaluate(&sc, &r);
	assert_true(r.inference.max_concurrent == want || r.inference.max_concurrent == want - 1);
}

/* A smaller chunk never raises the activations nor the total, and never lowers capacity. */
static void test_chunk_property(void **state)
{
	static const char *const chunks[] = {"0", "8192", "4096", "2048", "512", "256", "64", "16", "1"};
	static const char *const prompts[] = {"100", "4096", "30000"};
	struct engine_scenario sc;
	struct engine_result r;
	size_t i, j, f;

	(void)state;
	for (f = 0; f < 2; f++)
		for (j = 0; j < sizeof prompts / sizeof prompts[0]; j++) {
			double act = INFINITY, total = INFINITY;
			int64_t cap = -1;
			llama2_7b_infer(&sc);
			te_set(&sc, "max_positions", "65536");
			te_set(&sc, "flash_attention", f ? "on" : "off");
			te_set(&sc, "batch", "4");
			te_set(&sc, "prompt", prompts[j]);
			for (i = 0; i < sizeof chunks / sizeof chunks[0]; i++) {
				te_set(&sc, "prefill_chunk", chunks[i]);
				te_evaluate(&sc, &r);
				assert_true(r.memory.activations <= act);
				assert_true(r.memory.total <= total);
				assert_true(r.inference.max_concurrent >= cap);
				act = r.memory.activations;
				total = r.memory.total;
				cap = r.inference.max_concurrent;
			}
		}
}

/* ------------------------------------------------------------ latency */

static void test_ttft_roofline(void **state)
{
	struct engine_scenario sc;
	struct engine_result r;
	/* Llama-2-7B, a 2048-token prompt: the linears 2 · 6,476,267,520 FLOPs a token (6.738 B
	 * less the embedding and head, 2 · 32000 · 4096, and the norms), causal attention
	 * 4 · 32 · 4096 · (2048 · 2049 / 2); on an H100 (989.5 TFLOP/s bf16) compute-bound. Then
	 * the LM head for the last token alone: memory-bound, its 32000 · 4096 bf16 weights read
	 * at 3.35 TB/s (78 µs) */
	const double lin = 6738415616.0 - 2.0 * 32000 * 4096 - (2.0 * 32 + 1) * 4096;
	const double flops = 2.0 * lin * 2048 + 4.0 * 32 * 4096 * (2048.0 * 2049.0 / 2.0);
	const double head = 32000.0 * 4096 * 2 / 3.35e12;
	double whole;

	(void)state;
	llama2_7b_infer(&sc);
	te_set(&sc, "prompt", "2048");
	te_evaluate(&sc, &r);
	assert_close(r.inference.ttft_seconds, flops / 989.5e12 + head, 0.002);
	assert_close(r.inference.prefill_chunks, 1, 0);
	whole = r.inference.ttft_seconds;
	/* chunks of 256: 8 steps, each reading the blocks' 12.95 GB of linears (3.87 ms at
	 * 3.35 TB/s) and computing an eighth (3.5 ms): memory-bound, at least 8 weight reads */
	te_set(&sc, "prefill_chunk", "256");
	te_evaluate(&sc, &r);
	assert_close(r.inference.prefill_chunks, 8, 0);
	assert_true(r.inference.ttft_seconds >= 8.0 * 2.0 * lin / 3.35e12);
	assert_true(r.inference.ttft_seconds > whole);
	/* and at most the whole prompt's compute plus 8 steps of weights and activation traffic */
	assert_true(r.inference.ttft_seconds < whole + 8.0 * 2.0 * lin / 3.35e12 * 1.25);
}

/* Chunked prefill, worked by hand: Llama-2-7B on an H100, an 8192-token prompt in 4
 * chunks of 2048. Chunk i's queries sit at positions 2048·i + 1 .. 2048·(i + 1) and each
 * sees every key up to its own (causal): 2048 · (2048·i + 2049/2) query-key pairs, at
 * 4 · 32 layers · 4096 (QKᵀ and AV) FLOPs each:
 *     i = 0: 1.100 TFLOP, 1: 3.299, 2: 5.498, 3: 7.697; together 17.594 TFLOP
 *   = 4 · 32 · 4096 · 8192 · 8193 / 2, the whole prompt's causal count: chunking moves no
 * attention work, it splits it. The linears: 2 · 6,476,005,376 FLOPs a token, 106.10 TFLOP.
 * Each chunk is compute-bound (its 26.5 TFLOP of linears take 26.8 ms at 989.5 TFLOP/s;
 * the weights, 12.95 GB, 3.9 ms at 3.35 TB/s, the KV before it at most 3 GiB, 1 ms), so
 * TTFT = (106.10 + 17.59) TFLOP / 989.5 TFLOP/s + the LM head for the last token, the same
 * as unchunked: only the activations shrink (test_chunk_property). */
static void test_chunked_prefill_worked(void **state)
{
	struct engine_scenario sc;
	struct engine_result whole, ch;
	const double lin = 6738415616.0 - 2.0 * 32000 * 4096 - (2.0 * 32 + 1) * 4096;
	const double att = 4.0 * 32 * 4096;
	const double head = 32000.0 * 4096 * 2 / 3.35e12;
	double pairs = 0.0, flops;
	int i;

	(void)state;
	for (i = 0; i < 4; i++)
		pairs += 2048.0 * (2048.0 * i + 2049.0 / 2.0);
	assert_close(pairs, 8192.0 * 8193.0 / 2.0, 1e-15);
	flops = 2.0 * lin * 8192 + att * pairs;
	llama2_7b_infer(&sc);
	te_set(&sc, "prompt", "8192");
	te_set(&sc, "generate", "1");
	te_set(&sc, "max_positions", "16384");
	te_evaluate(&sc, &whole);
	te_set(&sc, "prefill_chunk", "2048");
	te_evaluate(&sc, &ch);
	assert_close(ch.inference.prefill_chunks, 4, 0);
	assert_close(ch.inference.ttft_seconds, flops / 989.5e12 + head, 0.002);
	assert_close(ch.inference.ttft_seconds, whole.inference.ttft_seconds, 1e-9);
	/* the causal count does not depend on the chunk; the activations do */
	assert_close(ch.inference.prefill_flops_causal, whole.inference.prefill_flops_causal, 1e-15);
	assert_close(ch.inference.prefill_flops_causal, flops + 2.0 * 32000.0 * 4096 * 8192, 1e-9);
	assert_true(ch.memory.activations < whole.memory.activations);
	/* a remainder chunk: 8192 = 3 · 2500 + 692; the last one's pairs 692 · (7500 + 693/2);
	 * still compute-bound, still the same total */
	te_set(&sc, "prefill_chunk", "2500");
	te_evaluate(&sc, &ch);
	assert_close(ch.inference.prefill_chunks, 4, 0);
	assert_close(ch.inference.ttft_seconds, whole.inference.ttft_seconds, 1e-9);
}

static void test_tpot_roofline(void **state)
{
	struct engine_scenario sc;
	struct engine_result r;
	double one;

	(void)state;
	/* batch 1 on one GPU: memory-bound, every weight but the embedding (only its rows are
	 * looked up) read once a step, 13.22 GB at 3.35 TB/s = 3.95 ms, plus the KV cache of the
	 * average context and the new token (512 + 513/2 + 1 = 769.5 tokens × 512 KiB); no TP
	 * collectives */
	llama2_7b_infer(&sc);
	te_evaluate(&sc, &r);
	assert_close(r.inference.tpot_seconds, (2.0 * (6738415616.0 - 32000.0 * 4096) + 769.5 * 524288.0) / 3.35e12, 1e-9);
	assert_close(r.inference.tp_comm_seconds_per_step, 0, 0);
	one = r.inference.tpot_seconds;
	assert_close(r.inference.decode_tokens_per_s_sequence, 1.0 / one, 1e-12);
	/* TP 2 on 2 GPUs: half the bytes per GPU, plus 2 all-reduces a layer (Megatron) of 4096
	 * bf16 values, each the custom all-reduce the engines run on NVLink (vLLM
	 * csrc/custom_all_reduce.cuh): at 2 ranks one-shot, one call (32 µs, gpt-fast: serving.c) and the peer's
	 * 8192 B over NCCL's bus bandwidth on NVLink (82% of 450 GB/s: 8 × H200 measured
	 * 367.6 GB/s, ../shared/reference/interconnect.md) */
	te_set(&sc, "gpus", "2");
	te_set(&sc, "tp", "2");
	te_evaluate(&sc, &r);
	assert_close(r.inference.tp_comm_seconds_per_step, 64.0 * (8192.0 / (450e9 * 0.82) + 32e-6), 1e-9);
	assert_close(r.inference.tpot_seconds, r.inference.decode_seconds_per_token + 64.0 * (8192.0 / (450e9 * 0.82) + 32e-6),
		     1e-9);
	assert_true(r.inference.tpot_seconds > one / 2.0);
	/* TP 4: one-shot under 512 KB (16 rows: 128 KiB, each rank reads its 3 peers' buffers),
	 * two-shot from 512 KB (64 rows: a reduce-scatter and an all-gather in one kernel, one
	 * call and 2·3/4 of the bytes), NCCL's ring above the 8 MB buffer (1024 rows: 8 MiB + the
	 * same 32 µs a call) */
	te_set(&sc, "gpus", "4");
	te_set(&sc, "tp", "4");
	te_set(&sc, "batch", "16");
	te_evaluate(&sc, &r);
	assert_close(r.inference.tp_comm_seconds_per_step, 64.0 * (32e-6 + 3.0 * 131072.0 / (450e9 * 0.82)), 1e-9);
	te_set(&sc, "batch", "64");
	te_evaluate(&sc, &r);
	assert_close(r.inference.tp_comm_seconds_per_step, 64.0 * (32e-6 + 1.5 * 524288.0 / (450e9 * 0.82)), 1e-9);
	te_set(&sc, "batch", "1025");
	te_evaluate(&sc, &r);
	assert_true(r.inference.tp_comm_seconds_per_step > 64.0 * (32e-6 + 1.5 * 1025.0 * 8192.0 / (450e9 * 0.82)) * 0.999);
	te_set(&sc, "tp", "2");
	/* tokens/s: per sequence 1/TPOT, per replica batch/TPOT, per GPU the job's over GPUs */
	te_set(&sc, "gpus", "8");
	te_set(&sc, "batch", "16");
	te_evaluate(&sc, &r);
	assert_close(r.inference.decode_tokens_per_s_replica, 16.0 / r.inference.tpot_seconds, 1e-12);
	assert_close(r.inference.decode_tokens_per_s, 4.0 * 16.0 / r.inference.tpot_seconds, 1e-12);
	assert_close(r.inference.decode_tokens_per_s_gpu, 4.0 * 16.0 / r.inference.tpot_seconds / 8.0, 1e-12);
}

/* Causal masking: query i sees i keys, Σ = s(s+1)/2, against PaLM's s² (appendix B). */
static void test_prefill_causal_flops(void **state)
{
	struct engine_scenario sc;
	struct engine_result r;
	const double s = 4096, att = 4.0 * 32 * 4096;
	/* the linears and the LM head (no embedding, no norms), 2 FLOPs a weight a token */
	const double mm = 6738415616.0 - 32000.0 * 4096 - 65.0 * 4096;

	(void)state;
	llama2_7b_infer(&sc);
	te_set(&sc, "prompt", "4096");
	te_set(&sc, "generate", "1");
	te_set(&sc, "max_positions", "8192");
	te_evaluate(&sc, &r);
	assert_close(r.inference.prefill_flops_palm - r.inference.prefill_flops_causal, att * (s * s - s * (s + 1) / 2.0),
		     1e-9);
	/* PaLM's attention is s² a layer; the causal count's s(s+1)/2, about half */
	assert_close(r.inference.prefill_flops_palm - 2.0 * mm * s, att * s * s, 1e-12);
	assert_close((r.inference.prefill_flops_causal - 2.0 * mm * s) / (att * s * s), (s + 1.0) / (2.0 * s), 1e-12);
}

/* The report's prefill (the batch's prompts at once) and TTFT (one prompt) charge the same
 * attention: Llama-2-7B, one 2048-token prompt on an H100, compute-bound. With
 * FlashAttention the causal count, 4 · 32 · 4096 · 2048 · 2049 / 2 (the kernel skips masked
 * blocks); without it, eager attention computes the whole 2048 × 2048 QKᵀ and AV and masks
 * afterwards: 4 · 32 · 4096 · 2048² FLOPs, and the scores are written and read (4 passes of
 * 32 heads · 2048² bf16 values a layer), so both take longer by the same amount. */
static void test_prefill_agrees_with_ttft(void **state)
{
	struct engine_scenario sc;
	struct engine_result r;
	const double lin = 6738415616.0 - 2.0 * 32000 * 4096 - (2.0 * 32 + 1) * 4096;
	const double causal = 2.0 * lin * 2048 + 4.0 * 32 * 4096 * (2048.0 * 2049.0 / 2.0);
	double flash_prefill;

	(void)state;
	llama2_7b_infer(&sc);
	te_set(&sc, "prompt", "2048");
	te_evaluate(&sc, &r);
	/* the prefill bound has the LM head's FLOPs in its sum, TTFT as its own memory-bound step */
	assert_close(r.inference.prefill_seconds, causal / 989.5e12, 0.005);
	assert_close(r.inference.prefill_seconds, r.inference.ttft_seconds, 0.005);
	flash_prefill = r.inference.prefill_seconds;
	te_set(&sc, "flash_attention", "off");
	te_evaluate(&sc, &r);
	assert_close(r.inference.prefill_seconds, r.inference.ttft_seconds, 0.005);
	assert_true(r.inference.prefill_seconds >= (2.0 * lin * 2048 + 4.0 * 32 * 4096 * 2048.0 * 2048.0) / 989.5e12);
	assert_true(r.inference.prefill_seconds > flash_prefill);
}

/* vLLM 0.6's multi-step scheduling (--num-scheduler-steps k): a prompt waits for the running
 * bundle of k decode steps, k/2 of them on average against half a step with one decision a
 * step (vllm/engine/llm_engine.py _has_remaining_steps; the mean residual of a fixed interval):
 * (k − 1)/2 decode steps more. The SGLang team's runs (benchmark/benchmark_vllm_060) show it:
 * vLLM's median ITL there is a 10-step burst, 129.3 ms at 4 requests/s on the 8B, and its
 * TTFT 100.5 ms against SGLang's 32.0 ms, about half a burst more. */
static void test_multistep_wait(void **state)
{
	struct engine_scenario sc;
	struct engine_result one, ten;

	const char *sched[2] = {"on", "off"};
	int i;

	(void)state;
	/* the schedule held: prefill chunks in the decode steps (chunked prefill with multi-step,
	 * vLLM 0.6.3 and later) and prefill steps of their own (V0 without it, the multi-step
	 * default since serve_engine.c), so only the wait for the bundle differs */
	for (i = 0; i < 2; i++) {
		llama2_7b_infer(&sc);
		te_set(&sc, "engine", "vllm");
		te_set(&sc, "batch", "16");
		te_set(&sc, "prompt", "202");
		te_set(&sc, "generate", "194");
		te_set(&sc, "mixed_prefill", sched[i]);
		te_evaluate(&sc, &one);
		assert_true(one.serving.decode_step_seconds > 0);
		te_set(&sc, "scheduler_steps", "10");
		te_evaluate(&sc, &ten);
		/* the same users: the wait adds (10 − 1)/2 decode steps, the step itself barely moves */
		assert_float_equal(ten.serving.ttft_seconds - one.serving.ttft_seconds, 4.5 * ten.serving.decode_step_seconds,
				   0.05 * 4.5 * ten.serving.decode_step_seconds);
		assert_float_equal(ten.serving.itl_seconds, one.serving.itl_seconds, 0.05 * one.serving.itl_seconds);
		/* the default is the engine's own: one decision a step */
		te_set(&sc, "scheduler_steps", "1");
		te_evaluate(&sc, &ten);
		assert_float_equal(ten.serving.ttft_seconds, one.serving.ttft_seconds, 1e-12);
	}
}

/* Sizing a service (target_rate): the replicas that take it, each at what the SLA lets one
 * replica take, checked against the figures the same evaluation gives by other paths:
 *  - the mean SLA's closed-loop users run sla_tokens_per_s_gpu × the replica's GPUs ÷ the
 *    output tokens a request: that many requests/s a replica (Little);
 *  - a p99 SLA's replica takes the open load's sla_rate;
 *  - with no target the replica's most, X(limit), which the open load at any rate reports as
 *    rate_max (serve_open.c, an independent solve);
 * and the count is the least whole number that reaches target_rate: n × per ≥ target > (n − 1)
 * × per, GPUs = n × tp × pp. */
static void test_sizing(void **state)
{
	struct engine_scenario sc;
	static struct engine_result r, o;
	double per;

	(void)state;
	llama3_70b_tp2(&sc);
	te_set(&sc, "engine", "vllm");
	te_set(&sc, "weight_format", "fp8");
	te_set(&sc, "prompt", "5000");
	te_set(&sc, "generate", "500");
	te_set(&sc, "ttft_slo", "1");
	te_set(&sc, "tpot_slo", "0.05");
	te_set(&sc, "target_rate", "20");
	te_evaluate(&sc, &r);
	per = r.serving.sla_tokens_per_s_gpu * 2.0 / 500.0;
	assert_true(per > 0.1);
	assert_true(r.serving.sizing_sla);
	assert_float_equal(r.serving.sizing_rate_replica, per, 1e-9 * per);
	assert_true(r.serving.sizing_replicas * per >= 20.0 && (r.serving.sizing_replicas - 1.0) * per < 20.0);
	assert_float_equal(r.serving.sizing_gpus, 2.0 * r.serving.sizing_replicas, 0.0);

	te_set(&sc, "slo_percentile", "p99");
	te_evaluate(&sc, &r);
	assert_true(r.serving.sla_rate > 0);
	assert_float_equal(r.serving.sizing_rate_replica, r.serving.sla_rate, 0.0);
	assert_true(r.serving.sizing_replicas * r.serving.sla_rate >= 20.0 &&
		    (r.serving.sizing_replicas - 1.0) * r.serving.sla_rate < 20.0);

	te_set(&sc, "ttft_slo", "0");
	te_set(&sc, "tpot_slo", "0");
	te_evaluate(&sc, &r);
	assert_false(r.serving.sizing_sla);
	te_set(&sc, "rate", "0.5");
	te_evaluate(&sc, &o);
	assert_true(o.serving.rate_max > 0);
	assert_float_equal(r.serving.sizing_rate_replica, o.serving.rate_max, 1e-3 * o.serving.rate_max);

	/* no target: nothing sized */
	te_set(&sc, "target_rate", "0");
	te_evaluate(&sc, &r);
	assert_true(r.serving.sizing_replicas == 0.0 && r.serving.sizing_gpus == 0.0);
}

static const struct CMUnitTest tests[] = {
	cmocka_unit_test(test_format_bits),
	cmocka_unit_test(test_format_checkpoint_sizes),
	cmocka_unit_test(test_sliding_window_kv),
	cmocka_unit_test(test_paged_kv_waste),
	cmocka_unit_test(test_max_concurrent),
	cmocka_unit_test(test_chunk_property),
	cmocka_unit_test(test_ttft_roofline),
	cmocka_unit_test(test_chunked_prefill_worked),
	cmocka_unit_test(test_tpot_roofline),
	cmocka_unit_test(test_prefill_causal_flops),
	cmocka_unit_test(test_prefill_agrees_with_ttft),
	cmocka_unit_test(test_multistep_wait),
	cmocka_unit_test(test_sizing),
};

TESTUTIL_MAIN("serving", tests)
