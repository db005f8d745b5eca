/*
 * The published runs of tests/unit/test_step_runs.c typed as the knobs a user gives: the
 * shipped model and GPU presets, the published layout, precision and stack; nothing else
 * set. Included by that test only (its sources are listed there).
 */
#ifndef NAPKIN_TEST_STEP_RUNS_TYPED_H
#define NAPKIN_TEST_STEP_RUNS_TYPED_H

/* Runs typed as the knobs a user gives: the shipped model and GPU presets, the published
 * layout, precision and stack; nothing else set. A published rate (tokens/s per GPU) or a
 * step time (s). */
struct vrun {
	const char *name, *src, *knobs;
	double seconds, tps_gpu;
};

/* NeMo's Llama 3.1 recipes: the distributed optimizer (ZeRO-1), FlashAttention, no
 * recomputation, sequence parallelism with TP (as lscenario) */
#define NEMO "stack=megatron zero=1 recompute=none flash_attention=on overlap=on mfu=auto batch=1 "
#define L8 "model=llama-3-8b seq=8192 "
#define L70 "model=llama-3-70b seq=8192 "
#define L405 "model=llama-3.1-405b seq=8192 "
/* Nemotron-4 (Parmar et al. 2024, table 1; NeMo's nemotron4_15b/340b configs): squared-ReLU
 * MLP (2 matrices), LayerNorm, no bias, RoPE, untied embeddings, vocabulary 256,000 */
#define NEMOTRON "mlp=plain norm=layernorm bias=none position=rope tied_embeddings=off vocab=256000 " \
		 "max_positions=4096 seq=4096 kv_heads=8 "
/* the head size is hidden ÷ heads (the configs' kv_channels: null): 128 for 15B, 192 for 340B
 * (dgxc-benchmarking nemotron/nemotron4-340b-synth.yaml: hidden_size 18432, 96 heads) */
#define N15 NEMOTRON "layers=32 hidden=6144 heads=48 head_dim=128 ffn=24576 "
#define N340 NEMOTRON "layers=96 hidden=18432 heads=96 head_dim=192 ffn=73728 "
#define H100 "gpu=h100-sxm "
#define B200 "gpu=b200 "
#define GB200 "gpu=gb200-nvl72 "
#define GB300 "gpu=gb300-nvl72 "
#define BF "precision=mixed-bf16 "
#define F8 "precision=fp8-mixed "

static const struct vrun vruns[] = {
	/* DGXC1 llama3.1/README_8b.md, _70b.md, _405b.md: FP8, the BF16 rows' layouts (405B:
	 * llama3.1_405b.yaml's num_query_groups 16, where the model has 8) */
	{"Llama 3.1 8B FP8, 8 H100", "DGXC1", NEMO L8 H100 F8 "gpus=8 tp=1 pp=1 cp=2 grad_accum=32", 9.67, 0},
	{"Llama 3.1 8B FP8, 128 H100", "DGXC1", NEMO L8 H100 F8 "gpus=128 tp=1 pp=1 cp=2 grad_accum=32", 9.82, 0},
	{"Llama 3.1 70B FP8, 64 H100", "DGXC1", NEMO L70 H100 F8 "gpus=64 tp=4 pp=4 vpp=5 cp=2 grad_accum=64 sequence_parallel=on", 11.01, 0},
	{"Llama 3.1 70B FP8, 2048 H100", "DGXC1", NEMO L70 H100 F8 "gpus=2048 tp=4 pp=4 vpp=5 cp=2 grad_accum=64 sequence_parallel=on", 11.39, 0},
	{"Llama 3.1 405B FP8, 576 H100", "DGXC1", NEMO L405 H100 F8 "kv_heads=16 gpus=576 tp=8 pp=9 vpp=7 cp=2 grad_accum=63 sequence_parallel=on", 11.24, 0},
	{"Llama 3.1 405B FP8, 2304 H100", "DGXC1", NEMO L405 H100 F8 "kv_heads=16 gpus=2304 tp=8 pp=9 vpp=7 cp=2 grad_accum=63 sequence_parallel=on", 12.35, 0},
	/* DGXC1 nemotron/README_15b.md: TP 4, PP 1, MBS 4, GA 4; README_340b.md: TP 8, PP 8, VP 12, MBS 1, GA 16;
	 * nemotron4-340b-synth.yaml: activations_checkpoint_granularity selective (15B's: null) */
	{"Nemotron-4 15B BF16, 16 H100", "DGXC1", NEMO N15 H100 BF "gpus=16 tp=4 pp=1 batch=4 grad_accum=4 sequence_parallel=on", 2.83, 0},
	{"Nemotron-4 15B BF16, 2048 H100", "DGXC1", NEMO N15 H100 BF "gpus=2048 tp=4 pp=1 batch=4 grad_accum=4 sequence_parallel=on", 2.96, 0},
	{"Nemotron-4 15B FP8, 16 H100", "DGXC1", NEMO N15 H100 F8 "gpus=16 tp=4 pp=1 batch=4 grad_accum=4 sequence_parallel=on", 2.08, 0},
	{"Nemotron-4 15B FP8, 2048 H100", "DGXC1", NEMO N15 H100 F8 "gpus=2048 tp=4 pp=1 batch=4 grad_accum=4 sequence_parallel=on", 2.18, 0},
	{"Nemotron-4 340B BF16, 128 H100", "DGXC1", NEMO N340 H100 BF "gpus=128 tp=8 pp=8 vpp=12 grad_accum=16 sequence_parallel=on recompute=selective", 4.61, 0},
	{"Nemotron-4 340B BF16, 2048 H100", "DGXC1", NEMO N340 H100 BF "gpus=2048 tp=8 pp=8 vpp=12 grad_accum=16 sequence_parallel=on recompute=selective", 4.84, 0},
	{"Nemotron-4 340B FP8, 128 H100", "DGXC1", NEMO N340 H100 F8 "gpus=128 tp=8 pp=8 vpp=12 grad_accum=16 sequence_parallel=on recompute=selective", 3.16, 0},
	{"Nemotron-4 340B FP8, 2048 H100", "DGXC1", NEMO N340 H100 F8 "gpus=2048 tp=8 pp=8 vpp=12 grad_accum=16 sequence_parallel=on recompute=selective", 3.49, 0},
	/* DGXC5 llama3.1/README.md: 405B on GB200, TP 4, PP 8, CP 2, VP 8, GA 32 */
	{"Llama 3.1 405B BF16, 128 GB200", "DGXC5", NEMO L405 GB200 BF "gpus=128 tp=4 pp=8 vpp=8 cp=2 grad_accum=32 sequence_parallel=on", 9.347, 0},
	{"Llama 3.1 405B BF16, 512 GB200", "DGXC5", NEMO L405 GB200 BF "gpus=512 tp=4 pp=8 vpp=8 cp=2 grad_accum=32 sequence_parallel=on", 9.508, 0},
	{"Llama 3.1 405B FP8, 128 GB200", "DGXC5", NEMO L405 GB200 F8 "gpus=128 tp=4 pp=8 vpp=8 cp=2 grad_accum=32 sequence_parallel=on", 6.131, 0},
	{"Llama 3.1 405B FP8, 512 GB200", "DGXC5", NEMO L405 GB200 F8 "gpus=512 tp=4 pp=8 vpp=8 cp=2 grad_accum=32 sequence_parallel=on", 6.244, 0},
	/* MB 25.11, pre-training, FP8-CS: tokens/s per GPU */
	{"Llama 3 8B FP8, 8 GB300", "MB 25.11", NEMO L8 GB300 F8 "gpus=8 batch=2 grad_accum=8", 0, 37556},
	{"Llama 3 70B FP8 FSDP, 64 GB300", "MB 25.11", NEMO L70 GB300 F8 "gpus=64 zero=3 batch=2 grad_accum=2", 0, 4520},
	{"Llama 3.1 405B FP8, 256 GB300", "MB 25.11", NEMO L405 GB300 F8 "gpus=256 tp=2 pp=8 vpp=4 cp=2 grad_accum=192 sequence_parallel=on", 0, 999},
	{"Llama 3 8B FP8, 8 GB200", "MB 25.11", NEMO L8 GB200 F8 "gpus=8 batch=2 grad_accum=8", 0, 31508},
	{"Llama 3 70B FP8 FSDP, 64 GB200", "MB 25.11", NEMO L70 GB200 F8 "gpus=64 zero=3 batch=2 grad_accum=2", 0, 4312},
	{"Llama 3.1 405B FP8, 256 GB200", "MB 25.11", NEMO L405 GB200 F8 "gpus=256 tp=4 pp=16 vpp=4 grad_accum=384 sequence_parallel=on", 0, 813},
	{"Llama 3 8B FP8, 8 B200", "MB 25.11", NEMO L8 B200 F8 "gpus=8 batch=2 grad_accum=8", 0, 30624},
	{"Llama 3.1 405B FP8, 128 B200", "MB 25.11", NEMO L405 B200 F8 "gpus=128 tp=4 pp=8 vpp=8 cp=2 grad_accum=32 sequence_parallel=on", 0, 661},
	{"Llama 3 8B FP8 FSDP, 8 H100", "MB 25.11", NEMO L8 H100 F8 "gpus=8 zero=3 grad_accum=16", 0, 14451},
	{"Llama 3 70B FP8, 64 H100", "MB 25.11", NEMO L70 H100 F8 "gpus=64 tp=4 pp=8 vpp=5 grad_accum=64 sequence_parallel=on", 0, 1602},
	{"Llama 3.1 405B FP8, 1024 H100", "MB 25.11", NEMO L405 H100 F8 "gpus=1024 tp=8 pp=8 vpp=8 cp=2 grad_accum=64 sequence_parallel=on", 0, 292},
	/* MB 26.06, pre-training, FP8 */
	{"Llama 3.1 405B FP8, 256 GB300 (TP 4)", "MB 26.06", NEMO L405 GB300 F8 "gpus=256 tp=4 pp=8 vpp=4 grad_accum=192 sequence_parallel=on", 0, 1048},
	{"Llama 3.1 405B FP8, 1024 H100 (GBS 1536)", "MB 26.06", NEMO L405 H100 F8 "gpus=1024 tp=8 pp=8 vpp=8 cp=2 grad_accum=192 sequence_parallel=on", 0, 326},
	/* MB 26.06, SFT ("SFT Performance", LLAMA3_70B): sequences of 4096 packed from shorter
	 * samples, attention within each sample (perf_recipes' llama3_70b_sft_32gpu_*: offline
	 * packing); napkin charges the whole 4096-token causal attention, as the table's model
	 * TFLOP/s count it, so these rows read slower than a packed step by attention's share */
	{"Llama 3 70B FP8 SFT seq 4096, 32 GB300", "MB 26.06", NEMO GB300 F8 "model=llama-3-70b seq=4096 gpus=32 tp=1 pp=2 vpp=20 grad_accum=2", 0, 4819},
	{"Llama 3 70B FP8 SFT seq 4096, 32 GB200", "MB 26.06", NEMO GB200 F8 "model=llama-3-70b seq=4096 gpus=32 tp=1 pp=8 vpp=10 grad_accum=8", 0, 3864},
	{"Llama 3 70B FP8 SFT seq 4096, 32 H100", "MB 26.06", NEMO H100 F8 "model=llama-3-70b seq=4096 gpus=32 tp=4 pp=4 vpp=5 grad_accum=16 sequence_parallel=on", 0, 1638},
};

/* Runs whose source gives TFLOP/s per GPU: the published step is the FLOPs of one step in
 * the source's own count ÷ (the rate × GPUs). */
enum flop_count {
	COUNT_MEGATRON, /* Megatron-LM's hardware count, 96·B·s·l·h²·(1 + s/(6h) + V/(16·l·h)) a step */
	COUNT_MODEL,    /* model FLOPs (MFU × peak): napkin's, 6 per parameter and 12·l·h·s a token */
};
struct frun {
	const char *name, *src, *knobs;
	double tflops;
	enum flop_count count;
	double B, s, l, h, V; /* COUNT_MEGATRON's terms (batch, sequence, layers, hidden, vocabulary) */
};

static const struct frun fruns[] = {
	/* BLOOM: Megatron-DeepSpeed (DeepSpeed's pipeline and BF16 ZeRO-1 optimizer over Megatron's
	 * TP and fused kernels), 48 nodes of 8 × A100 80 GB SXM on Jean Zay, 4 × 100 Gb/s
	 * Omni-Path a node (6.25 GB/s a GPU); TP 4, PP 12, DP 8, micro-batch 2, global batch
	 * 2048 (4.2M tokens), sequence 2048, bf16, activation checkpointing, dropout 0.1 (Megatron's
	 * defaults inherited: tr11-176B-ml/README.md), ALiBi,
	 * vocabulary 250,880; 150 TFLOP/s per GPU in Megatron-DeepSpeed's logged count (its
	 * throughput calculator: Megatron's formula with the checkpointing factor 4) */
	{"BLOOM 176B, 384 A100", "BLOOM",
	 "stack=deepspeed kernels=fused gpu=a100-80gb-sxm network_bw=6.25e9 layers=70 hidden=14336 heads=112 "
	 "kv_heads=112 head_dim=128 ffn=57344 vocab=250880 mlp=plain norm=layernorm bias=all position=alibi "
	 "tied_embeddings=on dropout=on max_positions=2048 seq=2048 precision=mixed-bf16 flash_attention=off "
	 "gpus=384 tp=4 pp=12 batch=2 grad_accum=128 zero=1 recompute=full sequence_parallel=off "
	 "tp_overlap=off pp_overlap=off mfu=auto",
	 150, COUNT_MEGATRON, 2048, 2048, 70, 14336, 250880},
	/* L3 table 4, sequence 8192: Meta's own 4D stack (TP, interleaved PP, FSDP-style DP),
	 * typed as napkin's nearest, megatron (fused kernels, the distributed optimizer); no
	 * activation checkpointing (§3.3.2); micro-batch 1, batch per DP 32 and 16 sequences;
	 * the paper's schedule holds 8 one-layer chunks a stage with the embedding and the output
	 * layer as chunks of their own (126 layers), napkin needs a layer in every virtual stage:
	 * vpp 7; RoCE at 400 Gb/s a GPU (the H100 preset's 50 GB/s). TFLOP/s per GPU is MFU ×
	 * 989 TFLOP/s (430: 43%, 400: 41%), converted with napkin's model FLOPs (the paper does
	 * not state its attention count) */
	{"Llama 3.1 405B, 8192 H100", "L3",
	 "stack=megatron model=llama-3.1-405b seq=8192 gpu=h100-sxm precision=mixed-bf16 zero=1 recompute=none "
	 "flash_attention=on batch=1 gpus=8192 tp=8 pp=16 vpp=7 grad_accum=32 mfu=auto",
	 430, COUNT_MODEL, 0, 0, 0, 0, 0},
	{"Llama 3.1 405B, 16384 H100", "L3",
	 "stack=megatron model=llama-3.1-405b seq=8192 gpu=h100-sxm precision=mixed-bf16 zero=1 recompute=none "
	 "flash_attention=on batch=1 gpus=16384 tp=8 pp=16 vpp=7 grad_accum=16 mfu=auto",
	 400, COUNT_MODEL, 0, 0, 0, 0, 0},
};

/* USP: Hugging Face's Ultra-Scale Playbook benchmarks (huggingface/nanotron, README "Benchmarks"
 * and docs/benchmark_summary.svg, commit c2528430, "MFU and Memory Usage for Best
 * Configurations" and "Best Configuration by Model Size and Number of Nodes"; the configs
 * from scripts/scaling_benchmarks.py at commit e24d2483): the best layout nanotron v0.5 found
 * for each model and node count, on HF's H100 cluster (8 × H100 SXM a node), global batch
 * 256 × 4096 tokens (1M), sequence 4096, bf16 with fp32 gradient accumulation, Llama
 * architecture with full multi-head attention (kv heads = heads), vocabulary 131,072, tied
 * embeddings below 4B; no activation recomputation; TP in nanotron's REDUCE_SCATTER mode
 * (sequence parallel), 1F1B pipeline, DDP's bucketed all-reduce overlapped with the
 * backward. nanotron is Hugging Face's own trainer, typed as stack hf with its kernels
 * (flash-attn's attention and rotary, Triton RMSNorm: fused) and its fp32 gradient buffer
 * (accumulate_grad_in_fp32: grad_dtype fp32). The published figure is MFU
 * in nanotron's model count (its get_flops: 6 per matmul weight and 12·l·h·s a token, the
 * LM head included, napkin's count) against 989.5 TFLOP/s. */
#define H100_PEAK 9.895 /* TFLOP/s per MFU percent: H100 SXM's dense BF16 peak ÷ 100 */
#define NT "stack=hf kernels=fused grad_dtype=fp32 overlap=on tp_overlap=off pp_overlap=off gpu=h100-sxm precision=mixed-bf16 " \
	   "flash_attention=on recompute=none dropout=off seq=4096 max_positions=4096 vocab=131072 mlp=gated " \
	   "norm=rmsnorm bias=none position=rope mfu=auto "
/* scripts/scaling_benchmarks.py model_configs (layers, hidden, heads, intermediate) */
#define NT1 "layers=16 hidden=2048 heads=32 kv_heads=32 head_dim=64 ffn=8192 tied_embeddings=on "
#define NT3 "layers=28 hidden=3072 heads=32 kv_heads=32 head_dim=96 ffn=8192 tied_embeddings=on "
#define NT8 "layers=32 hidden=4096 heads=32 kv_heads=32 head_dim=128 ffn=14336 tied_embeddings=off "
#define NT80 "layers=80 hidden=8192 heads=64 kv_heads=64 head_dim=128 ffn=28672 tied_embeddings=off "

static const struct frun uspruns[] = {
	{"nanotron 1.34B, 512 H100", "USP", NT NT1 "gpus=512 tp=2 pp=2 batch=2 grad_accum=1 zero=1 sequence_parallel=on",
	 5.25 * H100_PEAK, COUNT_MODEL, 0, 0, 0, 0, 0},
	{"nanotron 3.57B, 512 H100", "USP", NT NT3 "gpus=512 tp=4 pp=1 batch=2 grad_accum=1 zero=1 sequence_parallel=on",
	 10.49 * H100_PEAK, COUNT_MODEL, 0, 0, 0, 0, 0},
	{"nanotron 8.86B, 512 H100", "USP", NT NT8 "gpus=512 tp=4 pp=1 batch=2 grad_accum=1 zero=0 sequence_parallel=on",
	 18.69 * H100_PEAK, COUNT_MODEL, 0, 0, 0, 0, 0},
	{"nanotron 80B, 512 H100", "USP", NT NT80 "gpus=512 tp=16 pp=1 batch=2 grad_accum=4 zero=1 sequence_parallel=on",
	 17.79 * H100_PEAK, COUNT_MODEL, 0, 0, 0, 0, 0},
	{"nanotron 1.34B, 256 H100", "USP", NT NT1 "gpus=256 tp=4 pp=1 batch=4 grad_accum=1 zero=0 sequence_parallel=on",
	 23.20 * H100_PEAK, COUNT_MODEL, 0, 0, 0, 0, 0},
	{"nanotron 3.57B, 256 H100", "USP", NT NT3 "gpus=256 tp=4 pp=1 batch=4 grad_accum=1 zero=0 sequence_parallel=on",
	 26.77 * H100_PEAK, COUNT_MODEL, 0, 0, 0, 0, 0},
	{"nanotron 8.86B, 256 H100", "USP", NT NT8 "gpus=256 tp=8 pp=1 batch=8 grad_accum=1 zero=0 sequence_parallel=on",
	 32.71 * H100_PEAK, COUNT_MODEL, 0, 0, 0, 0, 0},
	{"nanotron 80B, 256 H100", "USP", NT NT80 "gpus=256 tp=4 pp=16 batch=1 grad_accum=64 zero=1 sequence_parallel=on",
	 30.75 * H100_PEAK, COUNT_MODEL, 0, 0, 0, 0, 0},
	{"nanotron 1.34B, 128 H100", "USP", NT NT1 "gpus=128 tp=2 pp=1 batch=4 grad_accum=1 zero=0 sequence_parallel=on",
	 29.46 * H100_PEAK, COUNT_MODEL, 0, 0, 0, 0, 0},
	{"nanotron 3.57B, 128 H100", "USP", NT NT3 "gpus=128 tp=4 pp=1 batch=8 grad_accum=1 zero=0 sequence_parallel=on",
	 34.59 * H100_PEAK, COUNT_MODEL, 0, 0, 0, 0, 0},
	{"nanotron 8.86B, 128 H100", "USP", NT NT8 "gpus=128 tp=8 pp=1 batch=8 grad_accum=2 zero=0 sequence_parallel=on",
	 36.33 * H100_PEAK, COUNT_MODEL, 0, 0, 0, 0, 0},
	{"nanotron 80B, 128 H100", "USP", NT NT80 "gpus=128 tp=4 pp=32 batch=1 grad_accum=256 zero=0 sequence_parallel=on",
	 34.29 * H100_PEAK, COUNT_MODEL, 0, 0, 0, 0, 0},
	{"nanotron 1.34B, 64 H100", "USP", NT NT1 "gpus=64 tp=1 pp=2 batch=1 grad_accum=8 zero=1 sequence_parallel=off",
	 32.47 * H100_PEAK, COUNT_MODEL, 0, 0, 0, 0, 0},
	{"nanotron 3.57B, 64 H100", "USP", NT NT3 "gpus=64 tp=1 pp=2 batch=1 grad_accum=8 zero=1 sequence_parallel=off",
	 35.53 * H100_PEAK, COUNT_MODEL, 0, 0, 0, 0, 0},
	{"nanotron 8.86B, 64 H100", "USP", NT NT8 "gpus=64 tp=1 pp=2 batch=1 grad_accum=8 zero=1 sequence_parallel=off",
	 39.50 * H100_PEAK, COUNT_MODEL, 0, 0, 0, 0, 0},
	{"nanotron 80B, 64 H100", "USP", NT NT80 "gpus=64 tp=4 pp=16 batch=1 grad_accum=256 zero=0 sequence_parallel=on",
	 30.65 * H100_PEAK, COUNT_MODEL, 0, 0, 0, 0, 0},
	{"nanotron 1.34B, 32 H100", "USP", NT NT1 "gpus=32 tp=1 pp=2 batch=1 grad_accum=16 zero=1 sequence_parallel=off",
	 38.38 * H100_PEAK, COUNT_MODEL, 0, 0, 0, 0, 0},
	{"nanotron 3.57B, 32 H100", "USP", NT NT3 "gpus=32 tp=1 pp=2 batch=2 grad_accum=8 zero=1 sequence_parallel=off",
	 40.39 * H100_PEAK, COUNT_MODEL, 0, 0, 0, 0, 0},
	{"nanotron 8.86B, 32 H100", "USP", NT NT8 "gpus=32 tp=1 pp=2 batch=1 grad_accum=16 zero=1 sequence_parallel=off",
	 43.31 * H100_PEAK, COUNT_MODEL, 0, 0, 0, 0, 0},
	{"nanotron 80B, 32 H100", "USP", NT NT80 "gpus=32 tp=8 pp=4 batch=1 grad_accum=256 zero=0 sequence_parallel=on",
	 14.76 * H100_PEAK, COUNT_MODEL, 0, 0, 0, 0, 0},
	{"nanotron 1.34B, 16 H100", "USP", NT NT1 "gpus=16 tp=1 pp=2 batch=1 grad_accum=32 zero=1 sequence_parallel=off",
	 41.59 * H100_PEAK, COUNT_MODEL, 0, 0, 0, 0, 0},
	{"nanotron 3.57B, 16 H100", "USP", NT NT3 "gpus=16 tp=1 pp=2 batch=2 grad_accum=16 zero=1 sequence_parallel=off",
	 43.77 * H100_PEAK, COUNT_MODEL, 0, 0, 0, 0, 0},
	{"nanotron 8.86B, 16 H100", "USP", NT NT8 "gpus=16 tp=4 pp=1 batch=4 grad_accum=16 zero=1 sequence_parallel=on",
	 43.94 * H100_PEAK, COUNT_MODEL, 0, 0, 0, 0, 0},
	{"nanotron 1.34B, 8 H100", "USP", NT NT1 "gpus=8 tp=1 pp=2 batch=4 grad_accum=16 zero=1 sequence_parallel=off",
	 44.32 * H100_PEAK, COUNT_MODEL, 0, 0, 0, 0, 0},
	{"nanotron 3.57B, 8 H100", "USP", NT NT3 "gpus=8 tp=1 pp=2 batch=2 grad_accum=32 zero=1 sequence_parallel=off",
	 46.68 * H100_PEAK, COUNT_MODEL, 0, 0, 0, 0, 0},
	{"nanotron 8.86B, 8 H100", "USP", NT NT8 "gpus=8 tp=1 pp=4 batch=1 grad_accum=128 zero=1 sequence_parallel=off",
	 45.22 * H100_PEAK, COUNT_MODEL, 0, 0, 0, 0, 0},
};

/* MLP  MLPerf Training v5.1 closed (github.com/mlcommons/training_results_v5.1, commit 441d65f4):
 * the AMD Instinct submissions. Each published figure is the median over a submission's ten
 * result_*.txt logs of the log's mean "tracked_stats" throughput, in samples per second of
 * training (the callback's count; the logs' block_start/block_stop times give the same, eval
 * excluded); one sample is one sequence of 8192 tokens, so tokens/s per GPU is samples/s ×
 * 8192 ÷ GPUs. MLPerf's time to a target is not used: the step count to reach it varies.
 *
 * llama2_70b_lora: LoRA fine-tuning of Llama 2 70B on GovReport with AMD's NeMo recipe
 * (AMD/benchmarks/llama2_70b_lora/implementations/MI3xxX_EPYC_9575F_pytorch_llama2_70b,
 * config_MI3xxX_1x8x1.sh and src/conf/megatron_gpt_peft_tuning_config.yaml; the other
 * submitters ship the same config files): LoRA r 16 (adapter_dim) on target_modules
 * ['attention'] (the QKV and output projections), adapter dropout 0.1, sequence 8192 (packed,
 * packed_sequence_return_cu_seqlen False: causal attention over the whole 8192),
 * micro-batch 1, global batch 8 (one sequence a data-parallel rank: MINIBS 1), TP 1, PP 1,
 * max_position_embeddings 8192 (the config's; Llama 2 was trained at 4096),
 * FP8 hybrid with fp8_params (the frozen weights held in FP8), no dropout elsewhere; the
 * MI300X recomputes 21 of its 80 layers (ACG full, ACM block, ACL 21), the MI325X none;
 * fused_adam on one node, Megatron's distributed optimizer on two (its optim name).
 * MangoBoost's two-node runs (config_MI3xxX_2x8x1.sh) put CP 2 across 16 GPUs and recompute
 * 21 layers on both cards. Typed as megatron (NeMo on Megatron-Core, Transformer Engine).
 *
 * llama31_8b: pre-training of Llama 3.1 8B on C4 (AMD/benchmarks/llama31_8b/implementations/
 * MI355X_EPYC_9575F_pytorch_llama3_8b: config_MI355X_1x8x1_8b.sh, src/train.py): NeMo 2 on
 * Megatron-Core, sequence 8192, TP 1, PP 1, CP 1, micro-batch 2, global batch 32 (2
 * micro-batches a rank), FP8 hybrid with fp8_params, the distributed optimizer with bf16
 * gradient reduction (grad_reduce_in_fp32 False) and no overlap_grad_reduce (Megatron's
 * DistributedDataParallelConfig default), no recomputation; Dell and Supermicro ran AMD's
 * config on their MI355X servers. The MI350X submissions are left out: napkin has no MI350X
 * preset. */
#define MLP_LORA "stack=megatron model=llama-2-70b seq=8192 max_positions=8192 precision=fp8-mixed weight_dtype=fp8 finetune=lora " \
		 "lora_rank=16 lora_targets=attention lora_dropout=0.1 dropout=off flash_attention=on mfu=auto " \
		 "tp=1 pp=1 batch=1 grad_accum=1 "
#define MLP_RC21 "recompute=full recompute_layers=21 recompute_method=block "
#define MLP_1N "gpus=8 zero=0 "
#define MLP_2N "gpus=16 cp=2 zero=1 "
#define MLP_8B "stack=megatron model=llama-3-8b seq=8192 precision=fp8-mixed weight_dtype=fp8 grad_dtype=bf16 zero=1 " \
	       "overlap=off recompute=none dropout=off flash_attention=on mfu=auto gpus=8 tp=1 pp=1 batch=2 grad_accum=2 "
#define MLP_TPS(sps, gpus) ((sps) * 8192.0 / (gpus)) /* samples/s → tokens/s per GPU */

static const struct vrun amdruns[] = {
	/* CDNA 3: MI300X (750 W, HBM3) and MI325X (1000 W, HBM3E), the same 304 CUs */
	{"Llama 2 70B LoRA FP8, 8 MI300X (AMD)", "MLP", MLP_LORA MLP_RC21 MLP_1N "gpu=mi300x", 0, MLP_TPS(2.1168, 8)},
	{"Llama 2 70B LoRA FP8, 8 MI300X (Krai, v5.0 stack)", "MLP", MLP_LORA MLP_RC21 MLP_1N "gpu=mi300x", 0, MLP_TPS(2.0361, 8)},
	{"Llama 2 70B LoRA FP8, 8 MI300X (Krai, v5.1 stack)", "MLP", MLP_LORA MLP_RC21 MLP_1N "gpu=mi300x", 0, MLP_TPS(2.0843, 8)},
	{"Llama 2 70B LoRA FP8, 8 MI300X (MangoBoost)", "MLP", MLP_LORA MLP_RC21 MLP_1N "gpu=mi300x", 0, MLP_TPS(2.0723, 8)},
	{"Llama 2 70B LoRA FP8, 16 MI300X CP 2 (MangoBoost)", "MLP", MLP_LORA MLP_RC21 MLP_2N "gpu=mi300x", 0, MLP_TPS(3.9262, 16)},
	{"Llama 2 70B LoRA FP8, 8 MI325X (AMD)", "MLP", MLP_LORA "recompute=none " MLP_1N "gpu=mi325x", 0, MLP_TPS(2.8366, 8)},
	{"Llama 2 70B LoRA FP8, 8 MI325X (ASUSTeK)", "MLP", MLP_LORA "recompute=none " MLP_1N "gpu=mi325x", 0, MLP_TPS(2.7818, 8)},
	{"Llama 2 70B LoRA FP8, 8 MI325X (MiTAC)", "MLP", MLP_LORA "recompute=none " MLP_1N "gpu=mi325x", 0, MLP_TPS(2.8398, 8)},
	{"Llama 2 70B LoRA FP8, 8 MI325X (Supermicro)", "MLP", MLP_LORA "recompute=none " MLP_1N "gpu=mi325x", 0, MLP_TPS(2.7676, 8)},
	{"Llama 2 70B LoRA FP8, 8 MI325X (MangoBoost)", "MLP", MLP_LORA "recompute=none " MLP_1N "gpu=mi325x", 0, MLP_TPS(2.8783, 8)},
	{"Llama 2 70B LoRA FP8, 16 MI325X CP 2 (MangoBoost)", "MLP", MLP_LORA MLP_RC21 MLP_2N "gpu=mi325x", 0, MLP_TPS(4.7102, 16)},
	/* CDNA 4: MI355X (1400 W, HBM3E) */
	{"Llama 2 70B LoRA FP8, 8 MI355X (AMD)", "MLP", MLP_LORA "recompute=none " MLP_1N "gpu=mi355x", 0, MLP_TPS(5.8760, 8)},
	{"Llama 2 70B LoRA FP8, 8 MI355X (Dell)", "MLP", MLP_LORA "recompute=none " MLP_1N "gpu=mi355x", 0, MLP_TPS(5.8303, 8)},
	{"Llama 2 70B LoRA FP8, 8 MI355X (Supermicro)", "MLP", MLP_LORA "recompute=none " MLP_1N "gpu=mi355x", 0, MLP_TPS(5.8601, 8)},
	{"Llama 3.1 8B FP8, 8 MI355X (AMD)", "MLP", MLP_8B "gpu=mi355x", 0, MLP_TPS(30.6539, 8)},
	{"Llama 3.1 8B FP8, 8 MI355X (Dell)", "MLP", MLP_8B "gpu=mi355x", 0, MLP_TPS(29.3199, 8)},
	{"Llama 3.1 8B FP8, 8 MI355X (Supermicro)", "MLP", MLP_8B "gpu=mi355x", 0, MLP_TPS(29.6766, 8)},
};

/* Runs added after MLPerf's AMD runs (they come last, so that the earlier sets keep their
 * bounds). DGXC5 = NVIDIA/dgxc-benchmarking at v25.05 (commit 68eaf7e): nemotron/README.md
 * and launch.sh (NeMo 25.04.00, scripts.performance.llm.pretrain_nemotron4_340b; on GB200
 * `-fsdp 0 --cuda_graphs true`, 4 GPUs a node) and llama3.1/README.md; DGXC4 = the same at
 * v25.04 (commit 741c886), llama3.1/README.md (H100, NeMo 25.02). Seconds per step, the
 * mean over iterations 11-44 (parse_train_timing.sh). Typed as the earlier DGXC rows:
 * the distributed optimizer, no recomputation (not stated per row: the recipes' defaults,
 * an assumption), sequence parallelism with TP. */
static const struct vrun newruns[] = {
	/* DGXC5 llama3.1/README.md: the 256-GPU row of the weak-scaling table (TP 4, PP 8, CP 2, VP 8, GBS 128, GA 32) */
	{"Llama 3.1 405B BF16, 256 GB200", "DGXC5", NEMO L405 GB200 BF "gpus=256 tp=4 pp=8 vpp=8 cp=2 grad_accum=32 sequence_parallel=on", 9.484, 0},
	/* DGXC5 nemotron/README.md, GB200: TP 8, PP 4, VP 12, MBS 1; weak scaling GBS = GPUs / 4 (GA 8) */
	{"Nemotron-4 340B BF16, 128 GB200", "DGXC5", NEMO N340 GB200 BF "gpus=128 tp=8 pp=4 vpp=12 grad_accum=8 sequence_parallel=on", 2.189, 0},
	{"Nemotron-4 340B BF16, 256 GB200", "DGXC5", NEMO N340 GB200 BF "gpus=256 tp=8 pp=4 vpp=12 grad_accum=8 sequence_parallel=on", 2.19, 0},
	{"Nemotron-4 340B BF16, 512 GB200", "DGXC5", NEMO N340 GB200 BF "gpus=512 tp=8 pp=4 vpp=12 grad_accum=8 sequence_parallel=on", 2.229, 0},
	/* and strong scaling at GBS 512 (GA 128, 64, 32) */
	{"Nemotron-4 340B BF16 GBS 512, 128 GB200", "DGXC5", NEMO N340 GB200 BF "gpus=128 tp=8 pp=4 vpp=12 grad_accum=128 sequence_parallel=on", 32.66, 0},
	{"Nemotron-4 340B BF16 GBS 512, 256 GB200", "DGXC5", NEMO N340 GB200 BF "gpus=256 tp=8 pp=4 vpp=12 grad_accum=64 sequence_parallel=on", 16.58, 0},
	{"Nemotron-4 340B BF16 GBS 512, 512 GB200", "DGXC5", NEMO N340 GB200 BF "gpus=512 tp=8 pp=4 vpp=12 grad_accum=32 sequence_parallel=on", 8.468, 0},
	/* DGXC5 nemotron/README.md, H100: 15B TP 2, MBS 2, GBS 64 (GA 4); 340B TP 8, PP 8, VP 12, GBS 64 (GA 16) */
	{"Nemotron-4 15B BF16 TP 2, 16 H100", "DGXC5", NEMO N15 H100 BF "gpus=16 tp=2 pp=1 batch=2 grad_accum=4 sequence_parallel=on", 2.746, 0},
	{"Nemotron-4 340B BF16, 256 H100", "DGXC5", NEMO N340 H100 BF "gpus=256 tp=8 pp=8 vpp=12 grad_accum=16 sequence_parallel=on", 4.606, 0},
	/* DGXC4 llama3.1/README.md, H100: 405B TP 8, PP 8, CP 2, VP 8, GBS = GPUs / 2 (GA 64) */
	{"Llama 3.1 405B BF16 PP 8, 512 H100", "DGXC4", NEMO L405 H100 BF "gpus=512 tp=8 pp=8 vpp=8 cp=2 grad_accum=64 sequence_parallel=on", 19.78, 0},
	{"Llama 3.1 405B BF16 PP 8, 2048 H100", "DGXC4", NEMO L405 H100 BF "gpus=2048 tp=8 pp=8 vpp=8 cp=2 grad_accum=64 sequence_parallel=on", 19.87, 0},
};

#endif
