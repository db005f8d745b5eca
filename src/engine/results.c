/* The result table: every scalar result once, with its key (the JSON path), unit and a
 * line of help. Reports, the TUI's change highlighting and the finiteness check read it. */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "internal.h"

#define R(f) offsetof(struct engine_result, f)
#define D(key, label, g, u, f, help) {key, label, g, u, R(f), false, help}
#define I(key, label, g, u, f, help) {key, label, g, u, R(f), true, help}

static const struct engine_result_def defs[] = {
	D("model.params_total", "parameters", ENGINE_RG_MODEL, ENGINE_UNIT_COUNT, params.total, "every parameter"),
	D("model.params_non_embedding", "non-embedding", ENGINE_RG_MODEL, ENGINE_UNIT_COUNT, params.non_embedding,
	  "parameters outside the embeddings and an untied LM head"),
	D("model.params_active", "active per token", ENGINE_RG_MODEL, ENGINE_UNIT_COUNT, params.active,
	  "parameters a token passes through (MoE: top-k experts)"),
	D("model.params_per_layer", "per layer", ENGINE_RG_MODEL, ENGINE_UNIT_COUNT, params.per_layer,
	  "one transformer layer"),
	D("model.params_per_gpu", "per GPU", ENGINE_RG_MODEL, ENGINE_UNIT_COUNT, params.per_gpu,
	  "parameters on the busiest GPU after TP and PP (before ZeRO-3)"),

	D("model.params_adapters", "adapters", ENGINE_RG_MODEL, ENGINE_UNIT_COUNT, params.adapters,
	  "LoRA/QLoRA: the adapters' parameters, whole model (PEFT's all params = total + these)"),
	D("model.params_trainable", "trainable", ENGINE_RG_MODEL, ENGINE_UNIT_COUNT, params.trainable,
	  "what the optimizer updates: every parameter (full) or the adapters (LoRA/QLoRA)"),

	D("memory.weights", "weights", ENGINE_RG_MEMORY, ENGINE_UNIT_BYTES, memory.weights, "the parameters"),
	D("memory.autocast_copies", "autocast copies", ENGINE_RG_MEMORY, ENGINE_UNIT_BYTES, memory.autocast_copies,
	  "AMP: autocast's 16-bit copies of the matmul weights, kept for the backward"),
	D("memory.autocast_bytes_per_param", "autocast bytes per parameter", ENGINE_RG_MEMORY,
	  ENGINE_UNIT_BYTES_PER_PARAM, memory.autocast_bytes_per_param, "the copies per parameter, before sharding"),
	D("memory.master_weights", "master weights", ENGINE_RG_MEMORY, ENGINE_UNIT_BYTES, memory.master,
	  "fp32 copy of 16-bit weights"),
	D("memory.gradients", "gradients", ENGINE_RG_MEMORY, ENGINE_UNIT_BYTES, memory.gradients, "one per parameter"),
	D("memory.optimizer", "optimizer states", ENGINE_RG_MEMORY, ENGINE_UNIT_BYTES, memory.optimizer,
	  "Adam's two moments, momentum, ..."),
	D("memory.activations", "activations", ENGINE_RG_MEMORY, ENGINE_UNIT_BYTES, memory.activations,
	  "tensors the backward pass needs"),
	D("memory.logits", "logits and loss", ENGINE_RG_MEMORY, ENGINE_UNIT_BYTES, memory.logits,
	  "the LM head's output and the loss's log-probabilities"),
	D("memory.scratch", "step scratch", ENGINE_RG_MEMORY, ENGINE_UNIT_BYTES, memory.scratch,
	  "the most one moment of a step adds: the loss's or attention's gradients, the optimizer's buffer"),
	D("memory.kv_cache", "KV cache", ENGINE_RG_MEMORY, ENGINE_UNIT_BYTES, memory.kv_cache,
	  "keys and values of past tokens (inference)"),
	D("memory.overhead", "CUDA overhead", ENGINE_RG_MEMORY, ENGINE_UNIT_BYTES, memory.overhead,
	  "CUDA context and library workspaces"),
	D("memory.dequant_buffer", "dequantised weight", ENGINE_RG_MEMORY, ENGINE_UNIT_BYTES, memory.dequant_buffer,
	  "QLoRA: the linear being computed, dequantised to bf16 (in weights)"),
	D("memory.bits_per_base_weight", "bits per base weight", ENGINE_RG_MEMORY, ENGINE_UNIT_NONE,
	  memory.bits_per_base_weight, "storage of a frozen linear's weight (QLoRA: NF4 + its constants, 4.127)"),
	D("memory.host_bytes", "host memory", ENGINE_RG_MEMORY, ENGINE_UNIT_BYTES, memory.host_bytes,
	  "offload: what one GPU's process keeps in host (CPU) memory"),
	D("memory.nvme_bytes", "NVMe", ENGINE_RG_MEMORY, ENGINE_UNIT_BYTES, memory.nvme_bytes,
	  "offload nvme: what one GPU's process keeps on NVMe (master and states; nvme-params: weights)"),
	D("memory.total", "total", ENGINE_RG_MEMORY, ENGINE_UNIT_BYTES, memory.total, "everything on one GPU"),
	D("memory.peak", "peak", ENGINE_RG_MEMORY, ENGINE_UNIT_BYTES, memory.peak,
	  "the most allocated at one moment of a step (memory.peak_phase says when)"),
	D("memory.capacity", "capacity", ENGINE_RG_MEMORY, ENGINE_UNIT_BYTES, memory.capacity, "one GPU's memory"),
	D("memory.headroom", "headroom", ENGINE_RG_MEMORY, ENGINE_UNIT_BYTES, memory.headroom,
	  "capacity minus total (negative: over)"),
	D("memory.activations_per_layer", "activations per layer", ENGINE_RG_MEMORY, ENGINE_UNIT_BYTES,
	  memory.activations_per_layer, "one layer, one micro-batch"),
	D("memory.bytes_per_param", "bytes per parameter", ENGINE_RG_MEMORY, ENGINE_UNIT_BYTES_PER_PARAM,
	  memory.bytes_per_param, "weights + autocast copies + gradients + master + states, before sharding"),
	I("memory.max_batch", "largest micro-batch", ENGINE_RG_MEMORY, ENGINE_UNIT_COUNT, memory.max_batch,
	  "the largest micro-batch that fits"),
	I("memory.min_gpus", "fewest GPUs", ENGINE_RG_MEMORY, ENGINE_UNIT_GPUS, memory.min_gpus,
	  "the fewest GPUs that fit (searching TP and PP)"),
	D("memory.max_params", "largest model", ENGINE_RG_MEMORY, ENGINE_UNIT_COUNT, memory.max_params,
	  "the largest model of this shape that fits"),

	D("compute.flops_per_token_forward", "forward FLOPs/token", ENGINE_RG_COMPUTE, ENGINE_UNIT_FLOP,
	  compute.flops_per_token_forward, "2 per weight + attention"),
	D("compute.flops_per_token_backward", "backward FLOPs/token", ENGINE_RG_COMPUTE, ENGINE_UNIT_FLOP,
	  compute.flops_per_token_backward, "twice the forward"),
	D("compute.flops_per_token_train", "training FLOPs/token", ENGINE_RG_COMPUTE, ENGINE_UNIT_FLOP,
	  compute.flops_per_token_train, "forward + backward (model FLOPs)"),
	D("compute.flops_per_token_hw", "hardware FLOPs/token", ENGINE_RG_COMPUTE, ENGINE_UNIT_FLOP,
	  compute.flops_per_token_hw, "model FLOPs + recomputation"),
	D("compute.flops_per_token_6n", "6·N FLOPs/token", ENGINE_RG_COMPUTE, ENGINE_UNIT_FLOP,
	  compute.flops_per_token_6n, "the shorthand"),
	D("compute.train_flops", "training FLOPs", ENGINE_RG_COMPUTE, ENGINE_UNIT_FLOP, compute.train_flops,
	  "tokens × FLOPs per token"),
	D("compute.train_flops_6n", "6·N·D", ENGINE_RG_COMPUTE, ENGINE_UNIT_FLOP, compute.train_flops_6n,
	  "the shorthand total"),
	D("compute.peak_flops", "peak per GPU", ENGINE_RG_COMPUTE, ENGINE_UNIT_FLOP_PER_S, compute.peak,
	  "dense peak of the matmul dtype"),
	D("compute.mfu", "MFU", ENGINE_RG_COMPUTE, ENGINE_UNIT_FRACTION, compute.mfu, "model FLOPs ÷ peak"),
	D("compute.hfu", "HFU", ENGINE_RG_COMPUTE, ENGINE_UNIT_FRACTION, compute.hfu, "hardware FLOPs ÷ peak"),
	D("compute.tokens_per_s", "throughput", ENGINE_RG_COMPUTE, ENGINE_UNIT_TOKENS_PER_S, compute.tokens_per_s,
	  "tokens per second, whole job"),
	D("compute.achieved_flops", "achieved per GPU", ENGINE_RG_COMPUTE, ENGINE_UNIT_FLOP_PER_S,
	  compute.achieved_flops, "hardware FLOP/s per GPU"),
	D("compute.step_seconds", "step time", ENGINE_RG_COMPUTE, ENGINE_UNIT_SECONDS, compute.step_seconds,
	  "one optimizer step"),
	D("compute.tokens_per_step", "tokens per step", ENGINE_RG_COMPUTE, ENGINE_UNIT_COUNT, compute.tokens_per_step,
	  "global batch × sequence"),
	D("compute.global_batch", "global batch", ENGINE_RG_COMPUTE, ENGINE_UNIT_COUNT, compute.global_batch,
	  "micro-batch × grad_accum × dp"),
	D("compute.offload_pcie_bytes", "offload PCIe traffic", ENGINE_RG_COMPUTE, ENGINE_UNIT_BYTES,
	  compute.offload_pcie_bytes, "offload: bytes over PCIe per step per GPU, both directions"),
	D("compute.offload_pcie_seconds", "offload PCIe time", ENGINE_RG_COMPUTE, ENGINE_UNIT_SECONDS,
	  compute.offload_pcie_seconds, "offload: the longer direction's transfer per step, pinned (not in step time)"),
	D("compute.offload_cpu_seconds", "CPU optimizer step", ENGINE_RG_COMPUTE, ENGINE_UNIT_SECONDS,
	  compute.offload_cpu_seconds, "offload: the CPU's optimizer step at host memory bandwidth (not in step time)"),
	D("compute.offload_nvme_bytes", "offload NVMe traffic", ENGINE_RG_COMPUTE, ENGINE_UNIT_BYTES,
	  compute.offload_nvme_bytes, "offload nvme: bytes read and written on NVMe per step per GPU"),
	D("compute.offload_nvme_seconds", "offload NVMe time", ENGINE_RG_COMPUTE, ENGINE_UNIT_SECONDS,
	  compute.offload_nvme_seconds, "offload nvme: the NVMe reads and writes per step (not in step time)"),
	D("compute.steps", "optimizer steps", ENGINE_RG_COMPUTE, ENGINE_UNIT_COUNT, compute.steps, "tokens ÷ tokens per step"),
	D("compute.train_seconds", "training time", ENGINE_RG_COMPUTE, ENGINE_UNIT_SECONDS, compute.train_seconds,
	  "wall clock"),
	D("compute.train_days", "training days", ENGINE_RG_COMPUTE, ENGINE_UNIT_DAYS, compute.train_days, "wall clock"),
	D("compute.gpu_hours", "GPU-hours", ENGINE_RG_COMPUTE, ENGINE_UNIT_GPU_HOURS, compute.gpu_hours,
	  "time × GPUs"),
	D("compute.step_seconds_predicted", "predicted step", ENGINE_RG_COMPUTE, ENGINE_UNIT_SECONDS,
	  compute.step_seconds_predicted, "the step-time model's step (the sum of step_breakdown)"),
	D("compute.mfu_predicted", "predicted MFU", ENGINE_RG_COMPUTE, ENGINE_UNIT_FRACTION, compute.mfu_predicted,
	  "model FLOPs ÷ (predicted step × GPUs × peak)"),
	D("compute.hfu_predicted", "predicted HFU", ENGINE_RG_COMPUTE, ENGINE_UNIT_FRACTION, compute.hfu_predicted,
	  "hardware FLOPs ÷ (predicted step × GPUs × peak)"),
	D("compute.gemm_efficiency", "GEMM efficiency", ENGINE_RG_COMPUTE, ENGINE_UNIT_FRACTION, compute.gemm_efficiency,
	  "the fraction of peak the matmuls achieve: their FLOPs ÷ (their roofline time × peak)"),
	D("compute.bubble_fraction", "bubble share", ENGINE_RG_COMPUTE, ENGINE_UNIT_FRACTION, compute.bubble_fraction,
	  "pipeline bubble ÷ predicted step"),
	D("compute.dp_exposed_fraction", "exposed DP comm share", ENGINE_RG_COMPUTE, ENGINE_UNIT_FRACTION,
	  compute.dp_exposed_fraction, "exposed data-parallel communication ÷ predicted step"),
	D("compute.network_bytes_per_s", "network per GPU", ENGINE_RG_COMPUTE, ENGINE_UNIT_BYTES_PER_S, compute.network_bw,
	  "scale-out bandwidth per GPU per direction the model used"),

	D("inference.context", "context", ENGINE_RG_INFERENCE, ENGINE_UNIT_TOKENS, inference.context,
	  "prompt + generate"),
	D("inference.kv_bytes_per_token", "KV bytes per token", ENGINE_RG_INFERENCE, ENGINE_UNIT_BYTES,
	  inference.kv_bytes_per_token, "per sequence, all layers"),
	D("inference.prefill_flops", "prefill FLOPs", ENGINE_RG_INFERENCE, ENGINE_UNIT_FLOP, inference.prefill_flops,
	  "the prompt's forward"),
	D("inference.prefill_seconds", "prefill time", ENGINE_RG_INFERENCE, ENGINE_UNIT_SECONDS,
	  inference.prefill_seconds, "the batch's prompts at once (static batching; bound)"),
	D("inference.prefill_flops_causal", "prefill FLOPs (causal)", ENGINE_RG_INFERENCE, ENGINE_UNIT_FLOP,
	  inference.prefill_flops_causal, "one prompt, causal mask: each token attends to those before it"),
	D("inference.prefill_flops_palm", "prefill FLOPs (PaLM)", ENGINE_RG_INFERENCE, ENGINE_UNIT_FLOP,
	  inference.prefill_flops_palm, "one prompt, PaLM's model-FLOPs count (full s² attention, as MFU counts)"),
	I("inference.max_concurrent", "max concurrent", ENGINE_RG_INFERENCE, ENGINE_UNIT_COUNT,
	  inference.max_concurrent, "per replica: most sequences at this context that fit (weights + KV + step)"),
	D("inference.kv_tokens_per_sequence", "KV tokens per sequence", ENGINE_RG_INFERENCE, ENGINE_UNIT_TOKENS,
	  inference.kv_tokens_per_sequence, "per layer, averaged: paged blocks, sliding windows"),
	D("inference.kv_bytes_per_sequence", "KV per sequence", ENGINE_RG_INFERENCE, ENGINE_UNIT_BYTES,
	  inference.kv_bytes_per_sequence, "one sequence's cache, whole model"),
	D("inference.prefill_chunks", "prefill chunks", ENGINE_RG_INFERENCE, ENGINE_UNIT_COUNT,
	  inference.prefill_chunks, "steps to prefill one prompt"),
	D("inference.ttft_seconds", "time to first token", ENGINE_RG_INFERENCE, ENGINE_UNIT_SECONDS,
	  inference.ttft_seconds, "one prompt's prefill in chunks + TP all-reduces (bound)"),
	D("inference.tpot_seconds", "time per output token", ENGINE_RG_INFERENCE, ENGINE_UNIT_SECONDS,
	  inference.tpot_seconds, "one decode step at the batch + TP all-reduces (bound)"),
	D("inference.tp_comm_seconds_per_step", "TP all-reduces/step", ENGINE_RG_INFERENCE, ENGINE_UNIT_SECONDS,
	  inference.tp_comm_seconds_per_step, "2 per layer: fixed latency + 2(t-1)/t × bytes ÷ link"),
	D("inference.decode_flops", "decode FLOPs/step", ENGINE_RG_INFERENCE, ENGINE_UNIT_FLOP, inference.decode_flops,
	  "one token for the whole batch"),
	D("inference.decode_bytes", "decode bytes/step", ENGINE_RG_INFERENCE, ENGINE_UNIT_BYTES, inference.decode_bytes,
	  "weights + KV cache one replica reads per step, over all its GPUs (per GPU: ÷ tp × pp)"),
	D("inference.decode_seconds_per_token", "decode per token", ENGINE_RG_INFERENCE, ENGINE_UNIT_SECONDS,
	  inference.decode_seconds_per_token, "one step (bound)"),
	D("inference.decode_tokens_per_s", "decode tokens/s", ENGINE_RG_INFERENCE, ENGINE_UNIT_TOKENS_PER_S,
	  inference.decode_tokens_per_s, "the whole job: every sequence of every replica"),
	D("inference.decode_tokens_per_s_replica", "decode tokens/s per replica", ENGINE_RG_INFERENCE,
	  ENGINE_UNIT_TOKENS_PER_S, inference.decode_tokens_per_s_replica, "one replica (tp × pp GPUs): batch ÷ TPOT"),
	D("inference.decode_tokens_per_s_sequence", "decode tokens/s per sequence", ENGINE_RG_INFERENCE,
	  ENGINE_UNIT_TOKENS_PER_S, inference.decode_tokens_per_s_sequence, "one sequence: 1 ÷ TPOT"),
	D("inference.decode_tokens_per_s_gpu", "decode tokens/s per GPU", ENGINE_RG_INFERENCE,
	  ENGINE_UNIT_TOKENS_PER_S, inference.decode_tokens_per_s_gpu, "the job's ÷ GPUs"),
	D("inference.replicas", "replicas", ENGINE_RG_INFERENCE, ENGINE_UNIT_COUNT, inference.replicas,
	  "model copies serving in parallel: gpus ÷ (tp × pp)"),
	D("inference.generate_seconds", "request time", ENGINE_RG_INFERENCE, ENGINE_UNIT_SECONDS,
	  inference.generate_seconds, "prefill + generate × TPOT"),

	D("roofline.peak_flops", "peak", ENGINE_RG_ROOFLINE, ENGINE_UNIT_FLOP_PER_S, roofline.peak, "compute roof"),
	D("roofline.bandwidth_bytes_per_s", "bandwidth", ENGINE_RG_ROOFLINE, ENGINE_UNIT_BYTES_PER_S,
	  roofline.bandwidth, "memory roof's slope"),
	D("roofline.ridge_flops_per_byte", "ridge", ENGINE_RG_ROOFLINE, ENGINE_UNIT_FLOP_PER_BYTE, roofline.ridge,
	  "peak ÷ bandwidth"),
	D("roofline.train_step", "training step", ENGINE_RG_ROOFLINE, ENGINE_UNIT_FLOP_PER_BYTE,
	  roofline.points[ENGINE_PT_TRAIN].intensity, "FLOPs ÷ bytes of one step"),
	D("roofline.prefill", "prefill", ENGINE_RG_ROOFLINE, ENGINE_UNIT_FLOP_PER_BYTE,
	  roofline.points[ENGINE_PT_PREFILL].intensity, "FLOPs ÷ bytes of the prefill"),
	D("roofline.decode", "decode step", ENGINE_RG_ROOFLINE, ENGINE_UNIT_FLOP_PER_BYTE,
	  roofline.points[ENGINE_PT_DECODE].intensity, "FLOPs ÷ bytes of one decode step"),
	D("roofline.elementwise", "element-wise", ENGINE_RG_ROOFLINE, ENGINE_UNIT_FLOP_PER_BYTE,
	  roofline.points[ENGINE_PT_ELEMENTWISE].intensity, "a ReLU: 1 FLOP per read + write"),

	D("data_loading.bytes_per_step", "batch bytes", ENGINE_RG_DATA, ENGINE_UNIT_BYTES, data.bytes_per_step,
	  "token ids and labels per GPU per step"),
	D("data_loading.pinned_seconds", "pinned copy", ENGINE_RG_DATA, ENGINE_UNIT_SECONDS, data.pinned_seconds,
	  "host to device from pinned memory"),
	D("data_loading.pageable_seconds", "pageable copy", ENGINE_RG_DATA, ENGINE_UNIT_SECONDS, data.pageable_seconds,
	  "host to device from pageable memory"),
	D("data_loading.seconds", "copy time", ENGINE_RG_DATA, ENGINE_UNIT_SECONDS, data.seconds, "with this setting"),
	D("data_loading.fraction_of_step", "share of a step", ENGINE_RG_DATA, ENGINE_UNIT_FRACTION, data.fraction,
	  "copy time ÷ step time"),
};

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

/* A warning on the result, in words (at most ENGINE_WARN_MAX are kept). */
void eng_warn(struct engine_result *r, const char *fmt, ...)
{
	va_list ap;

	if (r->n_warnings >= ENGINE_WARN_MAX)
		return;
	va_start(ap, fmt);
	vsnprintf(r->warnings[r->n_warnings], sizeof r->warnings[0], fmt, ap);
	va_end(ap);
	r->n_warnings++;
}
