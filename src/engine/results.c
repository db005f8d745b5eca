/* The result table: every scalar result once, with its key (the JSON path), unit, which way
 * is better and a line of help. Reports, the TUI's change highlighting, the finiteness check
 * and the best marks of napkin compare and the explorer's compare view read it. */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "internal.h"
#include "tradeoff.h"

#define R(f) offsetof(struct engine_result, f)
#define D(key, label, g, u, f, b, help) {key, label, g, u, R(f), false, ENGINE_BETTER_##b, help}
#define I(key, label, g, u, f, b, help) {key, label, g, u, R(f), true, ENGINE_BETTER_##b, help}

/* Which way is better (b): memory and time LOWER; headroom, capacity, throughput, MFU, the
 * largest batch or model, peaks and bandwidths HIGHER; NEITHER for what describes the work
 * rather than how well it runs (parameters, FLOPs per token, tokens per step, arithmetic
 * intensities, the ridge), and for HFU and achieved FLOP/s, which recomputation raises
 * without making a step shorter. */

static const struct engine_result_def defs[] = {
	D("model.params_total", N_("parameters"), ENGINE_RG_MODEL, ENGINE_UNIT_COUNT, params.total, NEITHER,
	  N_("every parameter")),
	D("model.params_non_embedding",
	  N_("non-embedding"), ENGINE_RG_MODEL, ENGINE_UNIT_COUNT, params.non_embedding, NEITHER,
	  N_("parameters outside the embeddings and an untied LM head")),
	D("model.params_active", N_("active per token"), ENGINE_RG_MODEL, ENGINE_UNIT_COUNT, params.active, NEITHER,
	  N_("parameters a token passes through (MoE: top-k experts)")),
	D("model.params_per_layer", N_("per layer"), ENGINE_RG_MODEL, ENGINE_UNIT_COUNT, params.per_layer, NEITHER,
	  N_("one transformer layer")),
	D("model.params_per_gpu", N_("per GPU"), ENGINE_RG_MODEL, ENGINE_UNIT_COUNT, params.per_gpu, NEITHER,
	  N_("parameters on the busiest GPU after TP and PP (before ZeRO-3)")),

	D("model.params_adapters", N_("adapters"), ENGINE_RG_MODEL, ENGINE_UNIT_COUNT, params.adapters, NEITHER,
	  N_("LoRA/QLoRA: the adapters' parameters, whole model (PEFT's all params = total + these)")),
	D("model.params_trainable", N_("trainable"), ENGINE_RG_MODEL, ENGINE_UNIT_COUNT, params.trainable, NEITHER,
	  N_("what the optimizer updates: every parameter (full) or the adapters (LoRA/QLoRA)")),

	D("memory.weights", N_("weights"), ENGINE_RG_MEMORY, ENGINE_UNIT_BYTES, memory.weights, LOWER,
	  N_("the parameters")),
	D("memory.autocast_copies",
	  N_("autocast copies"), ENGINE_RG_MEMORY, ENGINE_UNIT_BYTES, memory.autocast_copies, LOWER,
	  N_("AMP: autocast's 16-bit copies of the matmul weights, kept for the backward")),
	D("memory.autocast_bytes_per_param", N_("autocast bytes per parameter"), ENGINE_RG_MEMORY,
	  ENGINE_UNIT_BYTES_PER_PARAM, memory.autocast_bytes_per_param, LOWER,
	  N_("the copies per parameter, before sharding")),
	D("memory.master_weights", N_("master weights"), ENGINE_RG_MEMORY, ENGINE_UNIT_BYTES, memory.master, LOWER,
	  N_("fp32 copy of 16-bit weights")),
	D("memory.gradients", N_("gradients"), ENGINE_RG_MEMORY, ENGINE_UNIT_BYTES, memory.gradients, LOWER,
	  N_("one per parameter")),
	D("memory.optimizer", N_("optimizer states"), ENGINE_RG_MEMORY, ENGINE_UNIT_BYTES, memory.optimizer, LOWER,
	  N_("Adam's two moments, momentum, ...")),
	D("memory.activations", N_("activations"), ENGINE_RG_MEMORY, ENGINE_UNIT_BYTES, memory.activations, LOWER,
	  N_("tensors the backward pass needs")),
	D("memory.logits", N_("logits and loss"), ENGINE_RG_MEMORY, ENGINE_UNIT_BYTES, memory.logits, LOWER,
	  N_("the LM head's output and the loss's log-probabilities")),
	D("memory.scratch", N_("step scratch"), ENGINE_RG_MEMORY, ENGINE_UNIT_BYTES, memory.scratch, LOWER,
	  N_("the most one moment of a step adds: the loss's or attention's gradients, the optimizer's buffer")),
	D("memory.kv_cache", N_("KV cache"), ENGINE_RG_MEMORY, ENGINE_UNIT_BYTES, memory.kv_cache, LOWER,
	  N_("keys and values of past tokens (inference)")),
	D("memory.kv_sequences", N_("KV sequences"), ENGINE_RG_MEMORY, ENGINE_UNIT_COUNT, memory.kv_sequences, NEITHER,
	  N_("the sequences the KV cache holds: batch, or an open load's mean in the engine (inference)")),
	D("memory.overhead", N_("CUDA overhead"), ENGINE_RG_MEMORY, ENGINE_UNIT_BYTES, memory.overhead, LOWER,
	  N_("CUDA context and library workspaces")),
	D("memory.dequant_buffer",
	  N_("dequantised weight"), ENGINE_RG_MEMORY, ENGINE_UNIT_BYTES, memory.dequant_buffer, LOWER,
	  N_("QLoRA: the linear being computed, dequantised to bf16 (in weights)")),
	D("memory.bits_per_base_weight", N_("bits per base weight"), ENGINE_RG_MEMORY, ENGINE_UNIT_NONE,
	  memory.bits_per_base_weight, LOWER,
	  N_("storage of a frozen linear's weight (QLoRA: NF4 + its constants, 4.127)")),
	D("memory.host_bytes", N_("host memory"), ENGINE_RG_MEMORY, ENGINE_UNIT_BYTES, memory.host_bytes, LOWER,
	  N_("offload: what one GPU's process keeps in host (CPU) memory")),
	D("memory.nvme_bytes", N_("NVMe"), ENGINE_RG_MEMORY, ENGINE_UNIT_BYTES, memory.nvme_bytes, LOWER,
	  N_("offload nvme: what one GPU's process keeps on NVMe (master and states; nvme-params: weights)")),
	D("memory.total", N_("total"), ENGINE_RG_MEMORY, ENGINE_UNIT_BYTES, memory.total, LOWER,
	  N_("everything on one GPU")),
	D("memory.peak", N_("peak"), ENGINE_RG_MEMORY, ENGINE_UNIT_BYTES, memory.peak, LOWER,
	  N_("the most allocated at one moment of a step (memory.peak_phase says when)")),
	D("memory.capacity", N_("capacity"), ENGINE_RG_MEMORY, ENGINE_UNIT_BYTES, memory.capacity, HIGHER,
	  N_("one GPU's memory")),
	D("memory.headroom", N_("headroom"), ENGINE_RG_MEMORY, ENGINE_UNIT_BYTES, memory.headroom, HIGHER,
	  N_("capacity minus total (negative: over)")),
	D("memory.activations_per_layer", N_("activations per layer"), ENGINE_RG_MEMORY, ENGINE_UNIT_BYTES,
	  memory.activations_per_layer, LOWER, N_("one layer, one micro-batch")),
	D("memory.bytes_per_param", N_("bytes per parameter"), ENGINE_RG_MEMORY, ENGINE_UNIT_BYTES_PER_PARAM,
	  memory.bytes_per_param, LOWER,
	  N_("weights + autocast copies + gradients + master + states, before sharding")),
	I("memory.max_batch", N_("largest micro-batch"), ENGINE_RG_MEMORY, ENGINE_UNIT_COUNT, memory.max_batch, HIGHER,
	  N_("the largest micro-batch that fits")),
	I("memory.min_gpus", N_("fewest GPUs"), ENGINE_RG_MEMORY, ENGINE_UNIT_GPUS, memory.min_gpus, LOWER,
	  N_("the fewest GPUs that fit (searching TP and PP)")),
	D("memory.max_params", N_("largest model"), ENGINE_RG_MEMORY, ENGINE_UNIT_COUNT, memory.max_params, HIGHER,
	  N_("the largest model of this shape that fits")),

	D("compute.flops_per_token_forward", N_("forward FLOPs/token"), ENGINE_RG_COMPUTE, ENGINE_UNIT_FLOP,
	  compute.flops_per_token_forward, NEITHER, N_("2 per weight + attention")),
	D("compute.flops_per_token_backward", N_("backward FLOPs/token"), ENGINE_RG_COMPUTE, ENGINE_UNIT_FLOP,
	  compute.flops_per_token_backward, NEITHER, N_("twice the forward")),
	D("compute.flops_per_token_train", N_("training FLOPs/token"), ENGINE_RG_COMPUTE, ENGINE_UNIT_FLOP,
	  compute.flops_per_token_train, NEITHER, N_("forward + backward (model FLOPs)")),
	D("compute.flops_per_token_hw", N_("hardware FLOPs/token"), ENGINE_RG_COMPUTE, ENGINE_UNIT_FLOP,
	  compute.flops_per_token_hw, NEITHER, N_("model FLOPs + recomputation")),
	D("compute.flops_per_token_6n", N_("6·N FLOPs/token"), ENGINE_RG_COMPUTE, ENGINE_UNIT_FLOP,
	  compute.flops_per_token_6n, NEITHER, N_("the shorthand")),
	D("compute.train_flops",
	  N_("training FLOPs"), ENGINE_RG_COMPUTE, ENGINE_UNIT_FLOP, compute.train_flops, NEITHER,
	  N_("tokens × FLOPs per token")),
	D("compute.train_flops_6n", N_("6·N·D"), ENGINE_RG_COMPUTE, ENGINE_UNIT_FLOP, compute.train_flops_6n, NEITHER,
	  N_("the shorthand total")),
	D("compute.peak_flops", N_("peak per GPU"), ENGINE_RG_COMPUTE, ENGINE_UNIT_FLOP_PER_S, compute.peak, HIGHER,
	  N_("dense peak of the matmul dtype")),
	D("compute.power_w", N_("power per GPU"), ENGINE_RG_COMPUTE, ENGINE_UNIT_WATTS, compute.power_w, NEITHER,
	  N_("the watts a GPU runs at: power_limit, else its TDP (0: unknown)")),
	D("compute.power_clock", N_("clock under the power"), ENGINE_RG_COMPUTE, ENGINE_UNIT_FRACTION, compute.power_clock,
	  HIGHER, N_("the compute clock the power leaves, of the clock napkin's figures hold (1: not limited)")),
	D("compute.mfu", N_("MFU"), ENGINE_RG_COMPUTE, ENGINE_UNIT_FRACTION, compute.mfu, HIGHER,
	  N_("model FLOPs ÷ peak")),
	D("compute.hfu", N_("HFU"), ENGINE_RG_COMPUTE, ENGINE_UNIT_FRACTION, compute.hfu, NEITHER,
	  N_("hardware FLOPs ÷ peak")),
	D("compute.tokens_per_s",
	  N_("throughput"), ENGINE_RG_COMPUTE, ENGINE_UNIT_TOKENS_PER_S, compute.tokens_per_s, HIGHER,
	  N_("tokens per second, whole job")),
	D("compute.achieved_flops", N_("achieved per GPU"), ENGINE_RG_COMPUTE, ENGINE_UNIT_FLOP_PER_S,
	  compute.achieved_flops, NEITHER, N_("hardware FLOP/s per GPU")),
	D("compute.step_seconds", N_("step time"), ENGINE_RG_COMPUTE, ENGINE_UNIT_SECONDS, compute.step_seconds, LOWER,
	  N_("one optimizer step")),
	D("compute.step_band.low", N_("step band low"), ENGINE_RG_COMPUTE, ENGINE_UNIT_SECONDS, compute.band.low, LOWER,
	  N_("the step time's band from validation, low end: step ÷ (1 + the 80th-percentile error); 0: no band")),
	D("compute.step_band.high", N_("step band high"), ENGINE_RG_COMPUTE, ENGINE_UNIT_SECONDS, compute.band.high, LOWER,
	  N_("the band's high end: step ÷ (1 − the 80th-percentile error); 0: no band")),
	D("compute.step_band.relative", N_("step band ±"), ENGINE_RG_COMPUTE, ENGINE_UNIT_FRACTION, compute.band.relative,
	  LOWER, N_("the 80th percentile of |error| over the published runs of the band's group")),
	I("compute.step_band.count", N_("step band runs"), ENGINE_RG_COMPUTE, ENGINE_UNIT_COUNT, compute.band.count,
	  NEITHER, N_("published runs behind the band (0: no validation for this stack, GPU and precision)")),
	D("compute.tokens_per_step",
	  N_("tokens per step"), ENGINE_RG_COMPUTE, ENGINE_UNIT_COUNT, compute.tokens_per_step, NEITHER,
	  N_("global batch × sequence")),
	D("compute.global_batch",
	  N_("global batch"), ENGINE_RG_COMPUTE, ENGINE_UNIT_COUNT, compute.global_batch, NEITHER,
	  N_("micro-batch × grad_accum × dp")),
	D("compute.offload_pcie_bytes", N_("offload PCIe traffic"), ENGINE_RG_COMPUTE, ENGINE_UNIT_BYTES,
	  compute.offload_pcie_bytes, LOWER, N_("offload: bytes over PCIe per step per GPU, both directions")),
	D("compute.offload_pcie_seconds", N_("offload PCIe time"), ENGINE_RG_COMPUTE, ENGINE_UNIT_SECONDS,
	  compute.offload_pcie_seconds, LOWER,
	  N_("offload: the longer direction's transfer per step, pinned (not in step time)")),
	D("compute.offload_cpu_seconds", N_("CPU optimizer step"), ENGINE_RG_COMPUTE, ENGINE_UNIT_SECONDS,
	  compute.offload_cpu_seconds, LOWER,
	  N_("offload: the CPU's optimizer step at host memory bandwidth (not in step time)")),
	D("compute.offload_nvme_bytes", N_("offload NVMe traffic"), ENGINE_RG_COMPUTE, ENGINE_UNIT_BYTES,
	  compute.offload_nvme_bytes, LOWER, N_("offload nvme: bytes read and written on NVMe per step per GPU")),
	D("compute.offload_nvme_seconds", N_("offload NVMe time"), ENGINE_RG_COMPUTE, ENGINE_UNIT_SECONDS,
	  compute.offload_nvme_seconds, LOWER,
	  N_("offload nvme: the NVMe reads and writes per step (not in step time)")),
	D("compute.steps", N_("optimizer steps"), ENGINE_RG_COMPUTE, ENGINE_UNIT_COUNT, compute.steps, NEITHER,
	  N_("tokens ÷ tokens per step")),
	D("compute.train_seconds",
	  N_("training time"), ENGINE_RG_COMPUTE, ENGINE_UNIT_SECONDS, compute.train_seconds, LOWER,
	  N_("wall clock")),
	D("compute.train_days", N_("training days"), ENGINE_RG_COMPUTE, ENGINE_UNIT_DAYS, compute.train_days, LOWER,
	  N_("wall clock")),
	D("compute.gpu_hours", N_("GPU-hours"), ENGINE_RG_COMPUTE, ENGINE_UNIT_GPU_HOURS, compute.gpu_hours, LOWER,
	  N_("time × GPUs")),
	D("compute.step_seconds_predicted", N_("predicted step"), ENGINE_RG_COMPUTE, ENGINE_UNIT_SECONDS,
	  compute.step_seconds_predicted, LOWER, N_("the step-time model's step (the sum of step_breakdown)")),
	D("compute.mfu_predicted",
	  N_("predicted MFU"), ENGINE_RG_COMPUTE, ENGINE_UNIT_FRACTION, compute.mfu_predicted, HIGHER,
	  N_("model FLOPs ÷ (predicted step × GPUs × peak)")),
	D("compute.hfu_predicted",
	  N_("predicted HFU"), ENGINE_RG_COMPUTE, ENGINE_UNIT_FRACTION, compute.hfu_predicted, NEITHER,
	  N_("hardware FLOPs ÷ (predicted step × GPUs × peak)")),
	D("compute.gemm_efficiency",
	  N_("GEMM efficiency"), ENGINE_RG_COMPUTE, ENGINE_UNIT_FRACTION, compute.gemm_efficiency, HIGHER,
	  N_("the fraction of peak the matmuls achieve: their FLOPs ÷ (their roofline time × peak)")),
	D("compute.straggler", N_("straggler factor"), ENGINE_RG_COMPUTE, ENGINE_UNIT_NONE, compute.straggler, LOWER,
	  N_("the tensor-core work's slowdown to the slowest of the job's GPUs: 1 ÷ (1 − σ·E[largest of N normals])")),
	D("compute.straggler_seconds", N_("straggler time"), ENGINE_RG_COMPUTE, ENGINE_UNIT_SECONDS,
	  compute.straggler_seconds, LOWER, N_("what waiting for the slowest GPU adds to the predicted step")),
	D("compute.bubble_fraction",
	  N_("bubble share"), ENGINE_RG_COMPUTE, ENGINE_UNIT_FRACTION, compute.bubble_fraction, LOWER,
	  N_("pipeline bubble ÷ predicted step")),
	D("compute.dp_exposed_fraction", N_("exposed DP comm share"), ENGINE_RG_COMPUTE, ENGINE_UNIT_FRACTION,
	  compute.dp_exposed_fraction, LOWER, N_("exposed data-parallel communication ÷ predicted step")),
	D("compute.network_bytes_per_s",
	  N_("network per GPU"), ENGINE_RG_COMPUTE, ENGINE_UNIT_BYTES_PER_S, compute.network_bw, HIGHER,
	  N_("scale-out bandwidth per GPU per direction the model used")),

	D("inference.context", N_("context"), ENGINE_RG_INFERENCE, ENGINE_UNIT_TOKENS, inference.context, NEITHER,
	  N_("prompt + generate")),
	D("inference.kv_bytes_per_token", N_("KV bytes per token"), ENGINE_RG_INFERENCE, ENGINE_UNIT_BYTES,
	  inference.kv_bytes_per_token, LOWER, N_("per sequence, all layers")),
	D("inference.prefill_flops",
	  N_("prefill FLOPs"), ENGINE_RG_INFERENCE, ENGINE_UNIT_FLOP, inference.prefill_flops, NEITHER,
	  N_("the prompt's forward")),
	D("inference.prefill_seconds", N_("prefill time"), ENGINE_RG_INFERENCE, ENGINE_UNIT_SECONDS,
	  inference.prefill_seconds, LOWER, N_("the batch's prompts at once (static batching; bound)")),
	D("inference.prefill_flops_causal", N_("prefill FLOPs (causal)"), ENGINE_RG_INFERENCE, ENGINE_UNIT_FLOP,
	  inference.prefill_flops_causal, NEITHER,
	  N_("one prompt, causal mask: each token attends to those before it")),
	D("inference.prefill_flops_palm", N_("prefill FLOPs (PaLM)"), ENGINE_RG_INFERENCE, ENGINE_UNIT_FLOP,
	  inference.prefill_flops_palm, NEITHER,
	  N_("one prompt, PaLM's model-FLOPs count (full s² attention, as MFU counts)")),
	I("inference.max_concurrent", N_("max concurrent"), ENGINE_RG_INFERENCE, ENGINE_UNIT_COUNT,
	  inference.max_concurrent, HIGHER,
	  N_("per replica: most sequences at this context that fit (weights + KV + step)")),
	D("inference.kv_tokens_per_sequence", N_("KV tokens per sequence"), ENGINE_RG_INFERENCE, ENGINE_UNIT_TOKENS,
	  inference.kv_tokens_per_sequence, LOWER, N_("per layer, averaged: paged blocks, sliding windows")),
	D("inference.kv_bytes_per_sequence", N_("KV per sequence"), ENGINE_RG_INFERENCE, ENGINE_UNIT_BYTES,
	  inference.kv_bytes_per_sequence, LOWER, N_("one sequence's cache, whole model")),
	D("inference.prefill_chunks", N_("prefill chunks"), ENGINE_RG_INFERENCE, ENGINE_UNIT_COUNT,
	  inference.prefill_chunks, NEITHER, N_("steps to prefill one prompt")),
	D("inference.ttft_seconds", N_("time to first token"), ENGINE_RG_INFERENCE, ENGINE_UNIT_SECONDS,
	  inference.ttft_seconds, LOWER, N_("one prompt's prefill in chunks + TP all-reduces (bound)")),
	D("inference.tpot_seconds", N_("time per output token"), ENGINE_RG_INFERENCE, ENGINE_UNIT_SECONDS,
	  inference.tpot_seconds, LOWER, N_("one decode step at the batch + TP all-reduces (bound)")),
	D("inference.tp_comm_seconds_per_step", N_("TP all-reduces/step"), ENGINE_RG_INFERENCE, ENGINE_UNIT_SECONDS,
	  inference.tp_comm_seconds_per_step, LOWER, N_("2 per layer: the engines' custom all-reduce (one-shot or two-shot), NCCL's over 8 MB")),
	D("inference.decode_flops",
	  N_("decode FLOPs/step"), ENGINE_RG_INFERENCE, ENGINE_UNIT_FLOP, inference.decode_flops, NEITHER,
	  N_("one token for the whole batch")),
	D("inference.decode_bytes",
	  N_("decode bytes/step"), ENGINE_RG_INFERENCE, ENGINE_UNIT_BYTES, inference.decode_bytes, LOWER,
	  N_("weights + KV cache one replica reads per step, over all its GPUs (per GPU: ÷ tp × pp)")),
	D("inference.decode_seconds_per_token", N_("decode per token"), ENGINE_RG_INFERENCE, ENGINE_UNIT_SECONDS,
	  inference.decode_seconds_per_token, LOWER, N_("one step (bound)")),
	D("inference.decode_tokens_per_s", N_("decode tokens/s"), ENGINE_RG_INFERENCE, ENGINE_UNIT_TOKENS_PER_S,
	  inference.decode_tokens_per_s, HIGHER, N_("the whole job: every sequence of every replica")),
	D("inference.decode_tokens_per_s_replica", N_("decode tokens/s per replica"), ENGINE_RG_INFERENCE,
	  ENGINE_UNIT_TOKENS_PER_S, inference.decode_tokens_per_s_replica, HIGHER,
	  N_("one replica (tp × pp GPUs): batch ÷ TPOT")),
	D("inference.decode_tokens_per_s_sequence", N_("decode tokens/s per sequence"), ENGINE_RG_INFERENCE,
	  ENGINE_UNIT_TOKENS_PER_S, inference.decode_tokens_per_s_sequence, HIGHER, N_("one sequence: 1 ÷ TPOT")),
	D("inference.decode_tokens_per_s_gpu", N_("decode tokens/s per GPU"), ENGINE_RG_INFERENCE,
	  ENGINE_UNIT_TOKENS_PER_S, inference.decode_tokens_per_s_gpu, HIGHER, N_("the job's ÷ GPUs")),
	D("inference.replicas", N_("replicas"), ENGINE_RG_INFERENCE, ENGINE_UNIT_COUNT, inference.replicas, NEITHER,
	  N_("model copies serving in parallel: gpus ÷ (tp × pp)")),
	D("inference.generate_seconds", N_("request time"), ENGINE_RG_INFERENCE, ENGINE_UNIT_SECONDS,
	  inference.generate_seconds, LOWER, N_("prefill + generate × TPOT")),

	/* serving as an engine runs it (serve_batch.c) */
	D("serving.ttft_seconds", N_("TTFT"), ENGINE_RG_INFERENCE, ENGINE_UNIT_SECONDS, serving.ttft_seconds, LOWER,
	  N_("arrival to first token under continuous batching at this concurrency: waiting and the prompt's chunks")),
	D("serving.itl_seconds", N_("time between tokens"), ENGINE_RG_INFERENCE, ENGINE_UNIT_SECONDS, serving.itl_seconds,
	  LOWER, N_("ITL/TPOT: the average engine step a decoding sequence sees, other users' prefill chunks included")),
	D("serving.itl_median_seconds", N_("median time between tokens"), ENGINE_RG_INFERENCE, ENGINE_UNIT_SECONDS,
	  serving.itl_median_seconds, LOWER,
	  N_("the median gap between a user's tokens (benchmarks' median ITL): a decode step alone while under half the gaps hold a prefill")),
	/* latency percentiles (serve_pct.c): an open load's over its stationary distribution; a
	 * closed load's over the one state (the step under way, the step kinds) */
	D("serving.ttft_p50_seconds", N_("TTFT p50"), ENGINE_RG_INFERENCE, ENGINE_UNIT_SECONDS, serving.ttft_p50_seconds,
	  LOWER, N_("the median time to first token over the requests")),
	D("serving.ttft_p90_seconds", N_("TTFT p90"), ENGINE_RG_INFERENCE, ENGINE_UNIT_SECONDS, serving.ttft_p90_seconds,
	  LOWER, N_("the 90th percentile of the time to first token over the requests")),
	D("serving.ttft_p99_seconds", N_("TTFT p99"), ENGINE_RG_INFERENCE, ENGINE_UNIT_SECONDS, serving.ttft_p99_seconds,
	  LOWER, N_("the 99th percentile of the time to first token over the requests (MLPerf's Server limit)")),
	D("serving.itl_p50_seconds", N_("ITL p50"), ENGINE_RG_INFERENCE, ENGINE_UNIT_SECONDS, serving.itl_p50_seconds,
	  LOWER, N_("the median gap between tokens over the tokens: a decode step or one with a prefill chunk")),
	D("serving.itl_p90_seconds", N_("ITL p90"), ENGINE_RG_INFERENCE, ENGINE_UNIT_SECONDS, serving.itl_p90_seconds,
	  LOWER, N_("the 90th percentile of the gap between tokens over the tokens")),
	D("serving.itl_p99_seconds", N_("ITL p99"), ENGINE_RG_INFERENCE, ENGINE_UNIT_SECONDS, serving.itl_p99_seconds,
	  LOWER, N_("the 99th percentile of the gap between tokens over the tokens")),
	D("serving.tpot_p50_seconds", N_("TPOT p50"), ENGINE_RG_INFERENCE, ENGINE_UNIT_SECONDS, serving.tpot_p50_seconds,
	  LOWER, N_("the median of a request's mean gap between tokens over the requests")),
	D("serving.tpot_p90_seconds", N_("TPOT p90"), ENGINE_RG_INFERENCE, ENGINE_UNIT_SECONDS, serving.tpot_p90_seconds,
	  LOWER, N_("the 90th percentile of a request's mean gap between tokens over the requests")),
	D("serving.tpot_p99_seconds", N_("TPOT p99"), ENGINE_RG_INFERENCE, ENGINE_UNIT_SECONDS, serving.tpot_p99_seconds,
	  LOWER, N_("the 99th percentile of a request's mean gap between tokens over the requests (MLPerf's Server limit)")),
	D("serving.e2e_seconds", N_("request time"), ENGINE_RG_INFERENCE, ENGINE_UNIT_SECONDS, serving.e2e_seconds, LOWER,
	  N_("arrival to last token: TTFT + (generate - 1) x ITL")),
	D("serving.queue_seconds", N_("queueing"), ENGINE_RG_INFERENCE, ENGINE_UNIT_SECONDS, serving.queue_seconds, LOWER,
	  N_("of TTFT: waiting for the token budget or for room in the KV cache")),
	D("serving.requests_per_s", N_("requests/s"), ENGINE_RG_INFERENCE, ENGINE_UNIT_COUNT, serving.requests_per_s,
	  HIGHER, N_("one replica: users / request time (Little's law)")),
	D("serving.tokens_per_s_replica", N_("output tokens/s per replica"), ENGINE_RG_INFERENCE,
	  ENGINE_UNIT_TOKENS_PER_S, serving.tokens_per_s_replica, HIGHER, N_("requests/s x generate")),
	D("serving.tokens_per_s_gpu", N_("output tokens/s per GPU"), ENGINE_RG_INFERENCE, ENGINE_UNIT_TOKENS_PER_S,
	  serving.tokens_per_s_gpu, HIGHER, N_("per replica / its GPUs")),
	D("serving.tokens_per_s_user", N_("output tokens/s per user"), ENGINE_RG_INFERENCE, ENGINE_UNIT_TOKENS_PER_S,
	  serving.tokens_per_s_user, HIGHER, N_("generate / request time")),
	D("serving.tokens_per_s_job", N_("output tokens/s (job)"), ENGINE_RG_INFERENCE, ENGINE_UNIT_TOKENS_PER_S,
	  serving.tokens_per_s_job, HIGHER, N_("every replica")),
	D("serving.decoding", N_("decoding a step"), ENGINE_RG_INFERENCE, ENGINE_UNIT_COUNT, serving.decoding, NEITHER,
	  N_("sequences decoding in an average step")),
	D("serving.prefill_tokens_step", N_("prefill tokens a step"), ENGINE_RG_INFERENCE, ENGINE_UNIT_TOKENS,
	  serving.prefill_tokens_step, NEITHER, N_("prefill tokens an average step carries")),
	D("serving.mixed_step_seconds", N_("mixed step"), ENGINE_RG_INFERENCE, ENGINE_UNIT_SECONDS,
	  serving.mixed_step_seconds, LOWER, N_("a step with a prefill chunk and the decode tokens")),
	D("serving.ttft_step_seconds", N_("a prompt's last step"), ENGINE_RG_INFERENCE, ENGINE_UNIT_SECONDS,
	  serving.ttft_step_seconds, LOWER,
	  N_("the step that carries a prompt's last chunk, with the other prompts that join it (TTFT's)")),
	D("serving.decode_step_seconds", N_("decode step"), ENGINE_RG_INFERENCE, ENGINE_UNIT_SECONDS,
	  serving.decode_step_seconds, LOWER, N_("a step of decode tokens only")),
	D("serving.ep_comm_seconds", N_("expert dispatch"), ENGINE_RG_INFERENCE, ENGINE_UNIT_SECONDS,
	  serving.ep_comm_seconds, LOWER, N_("the mixed step's two all-to-alls a MoE layer under expert parallelism")),
	D("serving.budget", N_("token budget"), ENGINE_RG_INFERENCE, ENGINE_UNIT_TOKENS, serving.budget, NEITHER,
	  N_("tokens a step computes at most (0: no budget)")),
	D("serving.kv_budget_bytes", N_("KV budget"), ENGINE_RG_INFERENCE, ENGINE_UNIT_BYTES, serving.kv_budget_bytes,
	  HIGHER, N_("per GPU: what the engine leaves for its KV cache")),
	D("serving.activation_peak", N_("profiled activations"), ENGINE_RG_INFERENCE, ENGINE_UNIT_BYTES,
	  serving.activation_peak, LOWER, N_("per GPU: the forward of the token budget and the sampler the engine profiles")),
	D("serving.sla_concurrency", N_("SLA concurrency"), ENGINE_RG_INFERENCE, ENGINE_UNIT_COUNT,
	  serving.sla_concurrency, HIGHER, N_("most users a replica serves within ttft_slo and tpot_slo (0: no target, or none meets it)")),
	D("serving.sla_rate", N_("SLA rate"), ENGINE_RG_INFERENCE, ENGINE_UNIT_COUNT, serving.sla_rate, HIGHER,
	  N_("a percentile SLA: the most requests/s a replica takes with its TTFT and TPOT percentiles within the targets (0: none)")),
	D("serving.sizing_replicas", N_("replicas needed"), ENGINE_RG_INFERENCE, ENGINE_UNIT_COUNT, serving.sizing_replicas,
	  LOWER, N_("replicas that take target_rate requests/s, each within the SLA (0: no target, or none meets it)")),
	D("serving.sizing_gpus", N_("GPUs needed"), ENGINE_RG_INFERENCE, ENGINE_UNIT_COUNT, serving.sizing_gpus, LOWER,
	  N_("those replicas' GPUs: replicas x tp x pp")),
	D("serving.sizing_rate_replica", N_("requests/s a replica"), ENGINE_RG_INFERENCE, ENGINE_UNIT_COUNT,
	  serving.sizing_rate_replica, HIGHER,
	  N_("sizing: the requests/s one replica takes within the SLA (without one: the most it completes)")),
	D("serving.rate", N_("request rate"), ENGINE_RG_INFERENCE, ENGINE_UNIT_COUNT, serving.rate, NEITHER,
	  N_("an open load: requests/s arriving at a replica, Poisson (0: none, the closed batch users)")),
	D("serving.rate_max", N_("most requests/s"), ENGINE_RG_INFERENCE, ENGINE_UNIT_COUNT, serving.rate_max, HIGHER,
	  N_("an open load: the most requests/s a replica completes, its admission limit full (0: no rate)")),
	D("serving.rate_limit", N_("admitted at most"), ENGINE_RG_INFERENCE, ENGINE_UNIT_COUNT, serving.rate_limit,
	  NEITHER, N_("an open load: requests the engine admits at most, min(capacity, max_num_seqs); more wait")),
	D("serving.in_system", N_("mean in system"), ENGINE_RG_INFERENCE, ENGINE_UNIT_COUNT, serving.in_system, LOWER,
	  N_("an open load: mean requests in a replica, waiting or admitted (birth-death stationary distribution)")),
	D("serving.in_engine", N_("mean admitted"), ENGINE_RG_INFERENCE, ENGINE_UNIT_COUNT, serving.in_engine, NEITHER,
	  N_("an open load: of them admitted to the engine")),
	D("serving.busy", N_("busy share"), ENGINE_RG_INFERENCE, ENGINE_UNIT_FRACTION, serving.busy, NEITHER,
	  N_("an open load: the share of the time a replica holds a request, 1 − p(0)")),
	D("serving.wait_seconds", N_("wait for admission"), ENGINE_RG_INFERENCE, ENGINE_UNIT_SECONDS,
	  serving.wait_seconds, LOWER, N_("an open load: mean wait before the engine admits a request (Little: waiting / rate)")),
	/* a front end's dispatch batching (serve_dispatch.c): 0 without */
	D("serving.dispatch_window", N_("dispatch window"), ENGINE_RG_INFERENCE, ENGINE_UNIT_SECONDS, serving.dispatch_window,
	  LOWER, N_("dispatch batching: seconds a dispatch gathers, min(dispatch_window, dispatch_batch / (rate x replicas)) (0: off)")),
	D("serving.dispatch_replicas", N_("dispatch replicas"), ENGINE_RG_INFERENCE, ENGINE_UNIT_COUNT,
	  serving.dispatch_replicas, NEITHER, N_("dispatch batching: the data-parallel replicas the dispatches go to in turn")),
	D("serving.dispatch_burst", N_("requests a dispatch"), ENGINE_RG_INFERENCE, ENGINE_UNIT_COUNT, serving.dispatch_burst,
	  NEITHER, N_("dispatch batching: requests a dispatch brings a replica, min(rate x replicas x window, dispatch_batch)")),
	D("serving.dispatch_hold_seconds", N_("dispatch hold"), ENGINE_RG_INFERENCE, ENGINE_UNIT_SECONDS,
	  serving.dispatch_hold_seconds, LOWER, N_("dispatch batching: of TTFT, a request's mean hold in the front end (window / 2)")),
	D("serving.dispatch_step_seconds", N_("step under way"), ENGINE_RG_INFERENCE, ENGINE_UNIT_SECONDS,
	  serving.dispatch_step_seconds, LOWER, N_("dispatch batching: of TTFT, the wait for the engine's step under way")),
	D("serving.dispatch_prefill_seconds", N_("burst prefill"), ENGINE_RG_INFERENCE, ENGINE_UNIT_SECONDS,
	  serving.dispatch_prefill_seconds, LOWER, N_("dispatch batching: of TTFT, the burst's prefill to a request's first token")),
	D("serving.dispatch_prefill_request_seconds", N_("burst prefill a request"), ENGINE_RG_INFERENCE,
	  ENGINE_UNIT_SECONDS, serving.dispatch_prefill_request_seconds, LOWER,
	  N_("dispatch batching: the bursts' prefill seconds a request (prefill apart: the decodes pause that long a request)")),
	/* disaggregated prefill and decode, xPyD (serve_pd.c): 0 without */
	D("serving.pd_prefill_replicas", N_("prefill replicas"), ENGINE_RG_INFERENCE, ENGINE_UNIT_COUNT,
	  serving.pd_prefill_replicas, NEITHER, N_("xPyD: replicas that only prefill (0: aggregated serving)")),
	D("serving.pd_decode_replicas", N_("decode replicas"), ENGINE_RG_INFERENCE, ENGINE_UNIT_COUNT,
	  serving.pd_decode_replicas, NEITHER, N_("xPyD: replicas that only decode (0: aggregated serving)")),
	D("serving.pd_prefill_util", N_("prefill pool load"), ENGINE_RG_INFERENCE, ENGINE_UNIT_FRACTION,
	  serving.pd_prefill_util, NEITHER, N_("xPyD: the requests/s a prefill replica takes / the most it completes")),
	D("serving.pd_decode_util", N_("decode pool load"), ENGINE_RG_INFERENCE, ENGINE_UNIT_FRACTION,
	  serving.pd_decode_util, NEITHER, N_("xPyD: the requests/s a decode replica takes / the most it completes")),
	D("serving.pd_prefill_seconds", N_("prefill pool time"), ENGINE_RG_INFERENCE, ENGINE_UNIT_SECONDS,
	  serving.pd_prefill_seconds, LOWER, N_("xPyD: of TTFT, the prefill pool's queue and the prompt's prefill")),
	D("serving.pd_kv_transfer_seconds", N_("KV hand-off"), ENGINE_RG_INFERENCE, ENGINE_UNIT_SECONDS,
	  serving.pd_kv_transfer_seconds, LOWER, N_("xPyD: a request's KV from the prefill to the decode replica: bytes / rate + latency")),
	D("serving.pd_kv_transfer_bytes", N_("KV handed off"), ENGINE_RG_INFERENCE, ENGINE_UNIT_BYTES,
	  serving.pd_kv_transfer_bytes, LOWER, N_("xPyD: the KV bytes one GPU sends a request (its shard of the prompt's)")),
	D("serving.pd_kv_transfer_bw", N_("KV hand-off rate"), ENGINE_RG_INFERENCE, ENGINE_UNIT_BYTES_PER_S,
	  serving.pd_kv_transfer_bw, HIGHER, N_("xPyD: bytes/s a GPU sends its KV at (kv_transfer_bw, or NVLink or the network)")),
	D("serving.pd_prefill_rate_max", N_("prefill replica's most"), ENGINE_RG_INFERENCE, ENGINE_UNIT_COUNT,
	  serving.pd_prefill_rate_max, HIGHER, N_("xPyD: the most requests/s one prefill replica completes")),
	D("serving.pd_decode_rate_max", N_("decode replica's most"), ENGINE_RG_INFERENCE, ENGINE_UNIT_COUNT,
	  serving.pd_decode_rate_max, HIGHER, N_("xPyD: the most requests/s one decode replica completes")),
	D("serving.pd_sizing_prefill", N_("prefill replicas needed"), ENGINE_RG_INFERENCE, ENGINE_UNIT_COUNT,
	  serving.pd_sizing_prefill, LOWER, N_("xPyD with target_rate: the prefill replicas it needs within the SLA")),
	D("serving.pd_sizing_decode", N_("decode replicas needed"), ENGINE_RG_INFERENCE, ENGINE_UNIT_COUNT,
	  serving.pd_sizing_decode, LOWER, N_("xPyD with target_rate: the decode replicas it needs within the SLA")),
	D("serving.cost_per_mtok", N_("cost per 1M tokens"), ENGINE_RG_INFERENCE, ENGINE_UNIT_NONE, serving.cost_per_mtok,
	  LOWER, N_("price x GPU-hours per million output tokens (0 without a price)")),
	D("serving.prefix_tokens", N_("cached prefix"), ENGINE_RG_INFERENCE, ENGINE_UNIT_TOKENS, serving.prefix_tokens,
	  NEITHER, N_("a prompt's tokens the shared prefix cache holds: not prefilled (prefix_hit x prompt)")),
	D("serving.prefill_tokens_request", N_("prefilled a request"), ENGINE_RG_INFERENCE, ENGINE_UNIT_TOKENS,
	  serving.prefill_tokens_request, LOWER, N_("a prompt's tokens prefilled: prompt - cached, at least 1")),
	D("serving.spec_tokens_per_step", N_("tokens a step"), ENGINE_RG_INFERENCE, ENGINE_UNIT_COUNT,
	  serving.spec_tokens_per_step, HIGHER,
	  N_("tokens a decoding sequence gains a step: (1 - a^(k+1)) / (1 - a) with speculation (Leviathan et al. 2023), else 1")),
	D("serving.spec_draft_seconds", N_("drafting"), ENGINE_RG_INFERENCE, ENGINE_UNIT_SECONDS, serving.spec_draft_seconds,
	  LOWER, N_("of each step: the drafter's k forwards")),
	D("serving.spec_weight_bytes", N_("drafter weights"), ENGINE_RG_INFERENCE, ENGINE_UNIT_BYTES,
	  serving.spec_weight_bytes, LOWER, N_("per GPU: the draft model's or head's weights")),
	D("serving.spec_speedup", N_("speculation speed-up"), ENGINE_RG_INFERENCE, ENGINE_UNIT_NONE, serving.spec_speedup,
	  HIGHER, N_("time between tokens without speculation / with it, at this concurrency")),

	D("roofline.peak_flops", N_("peak"), ENGINE_RG_ROOFLINE, ENGINE_UNIT_FLOP_PER_S, roofline.peak, HIGHER,
	  N_("compute roof")),
	D("roofline.bandwidth_bytes_per_s", N_("bandwidth"), ENGINE_RG_ROOFLINE, ENGINE_UNIT_BYTES_PER_S,
	  roofline.bandwidth, HIGHER, N_("memory roof's slope")),
	D("roofline.ridge_flops_per_byte",
	  N_("ridge"), ENGINE_RG_ROOFLINE, ENGINE_UNIT_FLOP_PER_BYTE, roofline.ridge, NEITHER,
	  N_("peak ÷ bandwidth")),
	D("roofline.train_step", N_("training step"), ENGINE_RG_ROOFLINE, ENGINE_UNIT_FLOP_PER_BYTE,
	  roofline.points[ENGINE_PT_TRAIN].intensity, NEITHER, N_("FLOPs ÷ bytes of one step")),
	D("roofline.prefill", N_("prefill"), ENGINE_RG_ROOFLINE, ENGINE_UNIT_FLOP_PER_BYTE,
	  roofline.points[ENGINE_PT_PREFILL].intensity, NEITHER, N_("FLOPs ÷ bytes of the prefill")),
	D("roofline.decode", N_("decode step"), ENGINE_RG_ROOFLINE, ENGINE_UNIT_FLOP_PER_BYTE,
	  roofline.points[ENGINE_PT_DECODE].intensity, NEITHER, N_("FLOPs ÷ bytes of one decode step")),
	D("roofline.elementwise", N_("element-wise"), ENGINE_RG_ROOFLINE, ENGINE_UNIT_FLOP_PER_BYTE,
	  roofline.points[ENGINE_PT_ELEMENTWISE].intensity, NEITHER, N_("a ReLU: 1 FLOP per read + write")),

	D("data_loading.bytes_per_step",
	  N_("batch bytes"), ENGINE_RG_DATA, ENGINE_UNIT_BYTES, data.bytes_per_step, NEITHER,
	  N_("token ids and labels per GPU per step")),
	D("data_loading.pinned_seconds",
	  N_("pinned copy"), ENGINE_RG_DATA, ENGINE_UNIT_SECONDS, data.pinned_seconds, LOWER,
	  N_("host to device from pinned memory")),
	D("data_loading.pageable_seconds",
	  N_("pageable copy"), ENGINE_RG_DATA, ENGINE_UNIT_SECONDS, data.pageable_seconds, LOWER,
	  N_("host to device from pageable memory")),
	D("data_loading.seconds", N_("copy time"), ENGINE_RG_DATA, ENGINE_UNIT_SECONDS, data.seconds, LOWER,
	  N_("with this setting")),
	D("data_loading.fraction_of_step",
	  N_("share of a step"), ENGINE_RG_DATA, ENGINE_UNIT_FRACTION, data.fraction, LOWER,
	  N_("copy time ÷ step time")),
	D("data_loading.dataset_bytes", N_("dataset file"), ENGINE_RG_DATA, ENGINE_UNIT_BYTES, data.dataset_bytes, NEITHER,
	  N_("dataset tokens × bytes per stored id, on disk")),
	D("data_loading.file_bytes_per_step", N_("file read a step"), ENGINE_RG_DATA, ENGINE_UNIT_BYTES,
	  data.file_bytes_per_step, NEITHER, N_("ids one GPU reads from the file a step (seq + 1 a sequence)")),
	D("data_loading.memmap_resident_bytes", N_("memmap in RAM"), ENGINE_RG_DATA, ENGINE_UNIT_BYTES, data.resident_bytes,
	  LOWER, N_("the file's pages a step touches through np.memmap, at most")),
	D("data_loading.read_all_seconds", N_("read whole file"), ENGINE_RG_DATA, ENGINE_UNIT_SECONDS, data.read_all_seconds,
	  LOWER, N_("the whole file into RAM at the NVMe read bandwidth (np.fromfile instead of np.memmap)")),
};

bool engine_metric_of_run(const struct engine_metric *m)
{
	if (m->kind == ENGINE_METRIC_COST || m->kind == ENGINE_METRIC_STEP_PART)
		return true;
	if (m->kind != ENGINE_METRIC_TABLE || m->def == NULL || m->solve ||
	    (m->def->group != ENGINE_RG_COMPUTE && m->def->group != ENGINE_RG_INFERENCE && m->def->group != ENGINE_RG_DATA))
		return false;
	switch (m->unit) {
	case ENGINE_UNIT_SECONDS: case ENGINE_UNIT_DAYS: case ENGINE_UNIT_GPU_HOURS: case ENGINE_UNIT_TOKENS_PER_S:
	case ENGINE_UNIT_FLOP_PER_S: case ENGINE_UNIT_BYTES_PER_S: case ENGINE_UNIT_FRACTION:
		return true;
	default:
		return false;
	}
}

const struct engine_result_def *engine_results(size_t *count)
{
	*count = sizeof defs / sizeof defs[0];
	return defs;
}

const struct engine_result_def *engine_result_find(const char *key)
{
	size_t i;

	for (i = 0; i < sizeof defs / sizeof defs[0]; i++)
		if (strcmp(defs[i].key, key) == 0)
			return &defs[i];
	return NULL;
}

double engine_result_value(const struct engine_result *r, const struct engine_result_def *d)
{
	const char *p = (const char *)r + d->offset;

	if (d->is_int) {
		int64_t v;
		memcpy(&v, p, sizeof v);
		return (double)v;
	}
	{
		double v;
		memcpy(&v, p, sizeof v);
		return v;
	}
}

/* A warning on the result, in words (at most ENGINE_WARN_MAX are kept), in tr's language:
 * fmt is a msgid marked N_() at the call site. */
void eng_warn(struct engine_result *r, const struct engine_tr *tr, const char *fmt, ...)
{
	va_list ap;

	if (r->n_warnings >= ENGINE_WARN_MAX)
		return;
	va_start(ap, fmt);
	vsnprintf(r->warnings[r->n_warnings], sizeof r->warnings[0], eng_tr(tr, fmt), ap);
	va_end(ap);
	r->n_warnings++;
}

#undef eng_err /* the analyzer's stand-in (internal.h) */
int eng_err(struct napkin_err *err, const struct engine_tr *tr, enum napkin_errcode code, const char *fmt, ...)
{
	va_list ap;

	if (err == NULL)
		return (int)code;
	err->code = code;
	va_start(ap, fmt);
	vsnprintf(err->msg, sizeof err->msg, eng_tr(tr, fmt), ap);
	va_end(ap);
	return (int)code;
}
