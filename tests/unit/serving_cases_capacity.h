/*
 * The capacity cases of test_serving_validation.c (docs/serving-validation.md): the KV cache
 * tokens an engine admits, from papers, startup logs and memory tables, one table per source,
 * each number with where it comes from. Included by serving_cases.h alone (its struct vcase,
 * metrics and loads).
 */
#ifndef NAPKIN_SERVING_CASES_CAPACITY_H
#define NAPKIN_SERVING_CASES_CAPACITY_H

/* The KV cache slots vLLM allots (Kwon et al., "Efficient Memory Management for Large Language
 * Model Serving with PagedAttention", SOSP 2023, Table 1): OPT-13B on one A100 (40 GB) 15.7K,
 * OPT-66B on 4 A100s 9.7K, OPT-175B on 8 A100-80GB 60.1K tokens. OPT's shapes from its configs
 * (Zhang et al. 2022, Table 1): learned positions (2048), LayerNorm, biases, ReLU MLP of 4d. */
#define OPT_KNOBS "mlp=plain;norm=layernorm;bias=all;position=learned;max_positions=2048;vocab=50272;head_dim=128"
#define VLLM_PAPER "vLLM paper (SOSP 2023) Table 1, max KV cache slots"
static const struct vcase capacity[] = {
	{M_CAP, "OPT-13B A100-40GB KV tokens", "llama-2-13b", "a100-40gb-sxm", "1", NULL, "161", "338", L_BATCH, 1, 1,
	 15.7e3, VLLM_PAPER, "vllm", OPT_KNOBS ";layers=40;hidden=5120;heads=40;kv_heads=40;ffn=20480", NULL},
	{M_CAP, "OPT-66B 4xA100-40GB KV tokens", "llama-2-13b", "a100-40gb-sxm", "4", NULL, "161", "338", L_BATCH, 1, 1,
	 9.7e3, VLLM_PAPER, "vllm", OPT_KNOBS ";layers=64;hidden=9216;heads=72;kv_heads=72;ffn=36864", NULL},
	{M_CAP, "OPT-175B 8xA100-80GB KV tokens", "llama-2-13b", "a100-80gb-sxm", "8", NULL, "161", "338", L_BATCH, 1,
	 1, 60.1e3, VLLM_PAPER, "vllm", OPT_KNOBS ";layers=96;hidden=12288;heads=96;kv_heads=96;ffn=49152", NULL},
	/* github:ilseokoh/vllm-gce README.md@ede8ee4e36cf1ed10471b3ff38514159f71dfa58 (a GCE
	 * a2-highgpu-1g, one A100 40GB): vLLM 0.15.1 (V1), meta-llama/Meta-Llama-3.1-8B-Instruct,
	 * bf16, tp 1, enforce_eager, gpu_memory_utilization 0.9 (default), max_model_len 131072,
	 * max_num_batched_tokens 8192 (the log: "Chunked prefill is enabled with
	 * max_num_batched_tokens=8192"; napkin's vLLM takes 2048 on an A100, so the case says it):
	 * "Model loading took 14.99 GiB memory", "Available KV cache
	 * memory: 19.28 GiB", "GPU KV cache size: 157,936 tokens" */
	{M_CAP, "L3.1-8B A100-40GB vllm KV tokens", "llama-3-8b", "a100-40gb-sxm", "1", NULL, "161", "338", L_BATCH, 1, 1,
	 157936, "vllm-gce README, vLLM 0.15.1 startup log", "vllm", "max_batched_tokens=8192", NULL},
	/* NVIDIA/TensorRT-LLM issue 4275, comment 2941155249 (a user's RTX 5090 run, copied in a
	 * third-party repository's notes): TensorRT-LLM 0.19.0 (tritonserver 25.05 image), engine
	 * from quantize.py --qformat fp8 --kv_cache_dtype fp8 of Llama-3.1-8B-Instruct, trtllm-build
	 * --max_num_tokens 1024 --max_seq_len 2048, kv_cache_free_gpu_mem_fraction 0.9: "Memory usage
	 * when calculating max tokens in paged kv cache: total: 31.84 GiB, available: 17.83 GiB",
	 * "[MemUsageChange] Allocated 16.05 GiB for max tokens in paged KV cache (263008)" */
	{M_CAP, "L3.1-8B RTX5090 trtllm fp8 KV tok", "llama-3-8b", "rtx-5090", "1", "fp8", "161", "338", L_BATCH, 1, 1,
	 263008, "TensorRT-LLM 0.19 RTX 5090 log (issue 4275 comment)", "trtllm", FP8KV ";max_batched_tokens=1024", NULL},
};

/* github:AUGMXNT/MI300-testing@032bd4da1080662667b9d5f77bacd6a579128c5f, notebooks of vLLM
 * v0.6.4.dev9+g5d264f4a (V0, ROCm) on a Hot Aisle 8x MI300X (README.md),
 * vllm/benchmarks/benchmark_throughput.py or benchmark_latency.py at their defaults:
 * gpu_memory_utilization 0.9, 16-bit weights and KV cache, no chunked prefill (the LLM
 * class), so the profiled forward is max_model_len tokens and max_num_seqs is V0's 256
 * (the knobs). KV tokens = "# GPU blocks" x 16, per replica. The MI300X reports 191.98 GiB
 * (00-system-info.ipynb, fastfetch), which the mi300x preset now holds (it had 192 GB
 * decimal, 178.8 GiB, and these read 1.6% to 11.0% low). */
#define MI300T "MI300-testing notebooks, vLLM 0.6.4.dev (ROCm)"
#define V0_SEQS "max_num_seqs=256;max_batched_tokens="
static const struct vcase capacity_mi300[] = {
	/* inference-vllm-fa.ipynb: Llama-2-7b-chat-hf fp16, -tp 8, max_seq_len 4096: "# GPU
	 * blocks: 167700" (a rerun: 167738) */
	{M_CAP, "L2-7B 8xMI300X vllm KV tokens", "llama-2-7b", "mi300x", "8", NULL, "161", "338", L_BATCH, 1, 1,
	 167700.0 * 16, MI300T, "vllm", V0_SEQS "4096", NULL},
	/* inference-vllm-gemm-tuning.ipynb: Meta-Llama-3-8B-Instruct bf16, tp 1, max_seq_len 8192,
	 * benchmark_latency (its second run; the first, while TunableOp tuned, had 10207):
	 * "Loading model weights took 14.9595 GB", "# GPU blocks: 78839" */
	{M_CAP, "L3-8B MI300X vllm KV tokens", "llama-3-8b", "mi300x", "1", NULL, "161", "338", L_BATCH, 1, 1,
	 78839.0 * 16, MI300T, "vllm", V0_SEQS "8192", NULL},
	/* the same notebook: Llama-3.1-8B-Instruct bf16, tp 1, max_seq_len 131072 (so a profiled
	 * forward of 131072 tokens), --num-scheduler-steps 15: "# GPU blocks: 71538" */
	{M_CAP, "L3.1-8B 128K MI300X vllm KV tok", "llama-3-8b", "mi300x", "1", NULL, "161", "338", L_BATCH, 1, 1,
	 71538.0 * 16, MI300T, "vllm", V0_SEQS "131072", NULL},
	/* the same notebook: Llama-3.1-8B-Instruct bf16, -tp 8, max_seq_len 131072: "# GPU blocks:
	 * 647379" (646723 in the runs while TunableOp tuned; 639,907-656,892 in
	 * inference-vllm-vs-vllm-rocm.ipynb's v0.6.4.dev5 runs) */
	{M_CAP, "L3.1-8B 8xMI300X vllm KV tokens", "llama-3-8b", "mi300x", "8", NULL, "161", "338", L_BATCH, 1, 1,
	 647379.0 * 16, MI300T, "vllm", V0_SEQS "131072", NULL},
	/* inference-vllm-mixtral-runpod.ipynb: Mixtral-8x7B-Instruct-v0.1 bf16, max_seq_len 32768;
	 * tp 1: "Loading model weights took 86.9985 GB", "# GPU blocks: 39212"; tp 2: "43.5064 GB",
	 * "# GPU blocks: 124518" */
	{M_CAP, "Mixtral MI300X vllm KV tokens", "mixtral-8x7b", "mi300x", "1", NULL, "161", "338", L_BATCH, 1, 1,
	 39212.0 * 16, MI300T, "vllm", V0_SEQS "32768", NULL},
	{M_CAP, "Mixtral 2xMI300X vllm KV tokens", "mixtral-8x7b", "mi300x", "2", NULL, "161", "338", L_BATCH, 1, 1,
	 124518.0 * 16, MI300T, "vllm", V0_SEQS "32768", NULL},
};

/* github:llm-d/llm-d-benchmark config_explorer/empirical-vllm-memory-results.md
 * @87ab01bebc78107815ea3bc2eccad3eb168003b0 ("vLLM Empirical Memory Profiling Results"): vLLM
 * v0.11.0 (V1, the vllm/vllm-openai:v0.11.0 image of its pod spec) on one H100 (79.18 GiB as
 * torch reports it), --gpu-memory-utilization 0.9, --max-model-len 16000, --block-size 128,
 * --enable-prefix-caching, the OpenAI server's other defaults (chunked prefill, 8192 tokens a
 * step, 1024 sequences on an H100: napkin's vLLM defaults). The table prints "Available KV cache
 * memory" in GiB per GPU; the case's KV tokens are that ÷ the model's 16-bit KV bytes a token
 * on one rank (2 × layers × KV heads ÷ TP × head_dim × 2 B), the count vLLM's own "GPU KV cache
 * size" line gives (its note on Mistral-Small: 28.20 GiB / 184,832 tokens = 163,840 B a token,
 * exact). Left out: gpt-oss-20b/120b (sliding-window layers: the pool is not full-attention
 * tokens), Mistral-Small-3.2 (a vision-language checkpoint), the failed runs. */
#define LLMD "llm-d-benchmark vLLM 0.11 H100 memory table"
#define GIB 1073741824.0
/* Qwen3-32B and Qwen3-0.6B (their config.json): the qwen3-8b preset's layout at their shapes */
#define QWEN3_32B "layers=64;hidden=5120;heads=64;kv_heads=8;head_dim=128;ffn=25600"
#define QWEN3_06B "layers=28;hidden=1024;heads=16;kv_heads=8;head_dim=128;ffn=3072;tied_embeddings=true"
static const struct vcase capacity_llmd[] = {
	/* meta-llama/Llama-3.1-8B-Instruct, TP 1: weights 14.99 GiB, KV 51.38 GiB (128 KiB a token) */
	{M_CAP, "L3.1-8B H100 vllm0.11 KV tokens", "llama-3-8b", "h100-sxm", "1", NULL, "161", "338", L_BATCH, 1, 1,
	 51.38 * GIB / 131072.0, LLMD, "vllm", NULL, NULL},
	/* RedHatAI/Llama-3.3-70B-Instruct-FP8-dynamic (FP8 weights and activations, 16-bit KV), TP 2:
	 * weights 33.88 GiB a GPU, KV 32.00 GiB (160 KiB a token on a rank) */
	{M_CAP, "L3.3-70B fp8 2xH100 vllm0.11 KV", "llama-3-70b", "h100-sxm", "2", "fp8", "161", "338", L_BATCH, 1, 1,
	 32.00 * GIB / 163840.0, LLMD, "vllm", NULL, NULL},
	/* Qwen/Qwen3-32B bf16, TP 1: weights 61.03 GiB, KV 4.45 GiB (256 KiB a token) */
	{M_CAP, "Qwen3-32B H100 vllm0.11 KV tokens", "qwen3-8b", "h100-sxm", "1", NULL, "161", "338", L_BATCH, 1, 1,
	 4.45 * GIB / 262144.0, LLMD, "vllm", QWEN3_32B, NULL},
	/* the same at TP 2: weights 30.59 GiB a GPU, KV 34.49 GiB (128 KiB a token on a rank) */
	{M_CAP, "Qwen3-32B 2xH100 vllm0.11 KV tok", "qwen3-8b", "h100-sxm", "2", NULL, "161", "338", L_BATCH, 1, 1,
	 34.49 * GIB / 131072.0, LLMD, "vllm", QWEN3_32B, NULL},
	/* Qwen/Qwen3-0.6B bf16 (tied embeddings), TP 1: weights 1.12 GiB, KV 64.45 GiB (112 KiB a
	 * token), the same at --max-model-len 32000 */
	{M_CAP, "Qwen3-0.6B H100 vllm0.11 KV tokens", "qwen3-8b", "h100-sxm", "1", NULL, "161", "338", L_BATCH, 1, 1,
	 64.45 * GIB / 114688.0, LLMD, "vllm", QWEN3_06B, NULL},
};

/* TGI's own count, "Setting max batch total tokens to N" (the KV blocks its warm-up leaves, in
 * tokens), from third-party logs of TGI versions before napkin's 3.x row (serve_engine.c): */
#define TGI_A10G "TGI 2.2.0 A10G log (a third party's EC2 write-up)"
static const struct vcase capacity_tgi[] = {
	/* huggingface/text-generation-inference issue 653 (2023-07-19): the TGI image of that day
	 * (0.9.x), meta-llama/Llama-2-7b-hf without quantization (16-bit) on one A10G,
	 * MAX_BATCH_PREFILL_TOKENS 4096: "it overwrites the max batch total tokens to 16224" */
	{M_CAP, "L2-7B A10G tgi0.9 KV tokens", "llama-2-7b", "a10", "1", NULL, "161", "338", L_BATCH, 1, 1, 16224,
	 "TGI issue 653 (TGI 0.9, A10G)", "tgi", "max_batched_tokens=4096", NULL},
	/* text-generation-inference issue 832 (2023-08-12): TGI 1.0, Llama-2-70b on 4 A100 80G
	 * (num_shard 4), "Setting max batch total tokens to 406560"; the launch arguments are not
	 * in the issue: TGI 1.0's default max_batch_prefill_tokens 4096 and 16-bit weights are
	 * assumed (no quantization is named); SXM or PCIe is not said (the same 80 GB either way) */
	{M_CAP, "L2-70B 4xA100 tgi1.0 KV tokens", "llama-2-70b", "a100-80gb-sxm", "4", NULL, "161", "338", L_BATCH, 1, 1,
	 406560, "TGI issue 832 (TGI 1.0, 4xA100 80G)", "tgi", "max_batched_tokens=4096", NULL},
	/* a third party's write-up (index file 22190908935, "HuggingFace Text Generation Inference:
	 * Main Features"; its repository could not be traced from the index): TGI 2.2.0 on an EC2
	 * g5.2xlarge (one A10G, 23028 MiB), meta-llama/Meta-Llama-3.1-8B-Instruct at the launcher's
	 * defaults (Args: quantize None, dtype None, cuda_memory_fraction 1.0; "Default
	 * `max_batch_prefill_tokens` to 4145"): "Setting max batch total tokens to 19056" */
	{M_CAP, "L3.1-8B A10G tgi2.2 KV tokens", "llama-3-8b", "a10", "1", NULL, "161", "338", L_BATCH, 1, 1, 19056,
	 TGI_A10G, "tgi", "max_batched_tokens=4145", NULL},
	/* text-generation-inference issue 2744 (2024-11-13): Llama 3.1 70B on 2 A100 80GB, "Default
	 * `max_batch_prefill_tokens` to 10049", "Setting max batch total tokens to 30816"; the TGI
	 * version and the launch arguments are not in the issue: 16-bit weights are assumed (no
	 * quantization is named), 2 shards (TP 2) as the 2 GPUs */
	{M_CAP, "L3.1-70B 2xA100 tgi KV tokens", "llama-3-70b", "a100-80gb-sxm", "2", NULL, "161", "338", L_BATCH, 1, 1,
	 30816, "TGI issue 2744 (2xA100 80GB)", "tgi", "max_batched_tokens=10049", NULL},
};

/* github:dennislee22/vLLM-benchmarking@b474d1e053c35c9aef8c02aae4efbc0d8675f033, the startup
 * logs under log/ (README.md: Qwen2-7B-Instruct, its Tests 1-5): vLLM 0.10.1.1 (V1), bf16,
 * max_model_len 16384, "Chunked prefill is enabled with max_num_batched_tokens=2048" (the
 * OpenAI server's A100 default, with 256 sequences: napkin's vLLM defaults on an A100), the
 * gpu_memory_utilization of each run's "non-default args"; "GPU KV cache size: N tokens".
 * Qwen2-7B has Qwen2.5-7B's shapes (28 layers, 3584 wide, 28 heads, 4 KV heads, MLP 18944,
 * vocab 152064): the qwen2.5-7b preset. The cards are A100 80GB (the README; SXM or PCIe is not
 * said, 80 GB either way) but for the two-node run, whose log is named ...2gpuA10040GB...
 * (A100 40GB, and its 11.03 GiB a GPU fits 40 GB at 0.5, not 80). */
#define DLEE "vLLM-benchmarking logs (vLLM 0.10.1.1, Qwen2-7B)"
static const struct vcase capacity_dlee[] = {
	/* log/vllm-7B-1gpuA10080GB-0.25GRAM.log: weights 14.25 GiB, KV 5.01 GiB, 93,872 tokens */
	{M_CAP, "Qwen2-7B A100 u0.25 vllm KV tokens", "qwen2.5-7b", "a100-80gb-sxm", "1", NULL, "161", "338", L_BATCH, 1, 1,
	 93872, DLEE, "vllm", "gpu_memory_utilization=0.25", NULL},
	/* log/vllm-7B-1gpuA10080GB-0.5GRAM.log: KV 24.83 GiB, 464,848 tokens */
	{M_CAP, "Qwen2-7B A100 u0.5 vllm KV tokens", "qwen2.5-7b", "a100-80gb-sxm", "1", NULL, "161", "338", L_BATCH, 1, 1,
	 464848, DLEE, "vllm", "gpu_memory_utilization=0.5", NULL},
	/* log/vllm-7B-2gpuA10080GB-0.25GRAM-same-node.log: TP 2, 7.12 GiB a GPU, KV 12.02 GiB a GPU,
	 * 450,192 tokens */
	{M_CAP, "Qwen2-7B 2xA100 u0.25 vllm KV tok", "qwen2.5-7b", "a100-80gb-sxm", "2", NULL, "161", "338", L_BATCH, 1, 1,
	 450192, DLEE, "vllm", "gpu_memory_utilization=0.25", NULL},
	/* log/vllm-7B-2gpuA10080GB-0.5GRAM-same-node.log: TP 2, KV 31.83 GiB a GPU, 1,192,160 tokens */
	{M_CAP, "Qwen2-7B 2xA100 u0.5 vllm KV tok", "qwen2.5-7b", "a100-80gb-sxm", "2", NULL, "161", "338", L_BATCH, 1, 1,
	 1192160, DLEE, "vllm", "gpu_memory_utilization=0.5", NULL},
	/* log/vllm-7B-2gpuA10040GB-0.5GRAM-diff-nodes.log: TP 2 over two nodes (Ray), KV 11.03 GiB
	 * a GPU, 412,944 tokens */
	{M_CAP, "Qwen2-7B 2xA100-40 u0.5 vllm KV", "qwen2.5-7b", "a100-40gb-sxm", "2", NULL, "161", "338", L_BATCH, 1, 1,
	 412944, DLEE, "vllm", "gpu_memory_utilization=0.5", NULL},
};

#endif
