/*
 * The knob table: every knob declared once (tmux's options-table.c is the model). The
 * command line, YAML loading and saving, the TUI, --help and validation all read it
 * (knobs.c). Adding a knob is one row here and one field in struct engine_scenario.
 */

#include "internal.h"

#define SC(f) offsetof(struct engine_scenario, f)

_Static_assert(sizeof(enum engine_mode) == sizeof(int), "enum fields are accessed as int");
_Static_assert(sizeof(enum engine_precision) == sizeof(int), "enum fields are accessed as int");

static const struct engine_choice ch_mode[] = {
	{"train", ENGINE_MODE_TRAIN}, {"infer", ENGINE_MODE_INFER},
	{"training", ENGINE_MODE_TRAIN}, {"inference", ENGINE_MODE_INFER}, {NULL, 0},
};
static const struct engine_choice ch_precision[] = {
	{"fp32", ENGINE_PREC_FP32},
	{"amp-bf16", ENGINE_PREC_AMP_BF16},
	{"amp-fp16", ENGINE_PREC_AMP_FP16},
	{"mixed-bf16", ENGINE_PREC_MIXED_BF16},
	{"mixed-fp16", ENGINE_PREC_MIXED_FP16},
	{"bf16", ENGINE_PREC_BF16},
	{"fp8-mixed", ENGINE_PREC_FP8_MIXED},
	{"mixed", ENGINE_PREC_MIXED_BF16},
	{"amp", ENGINE_PREC_AMP_BF16},
	{NULL, 0},
};
static const struct engine_choice ch_optimizer[] = {
	{"adamw", ENGINE_OPT_ADAMW},       {"adam", ENGINE_OPT_ADAM},   {"sgd", ENGINE_OPT_SGD},
	{"sgd-momentum", ENGINE_OPT_SGD_MOMENTUM}, {"adam-8bit", ENGINE_OPT_ADAM_8BIT},
	{"lion", ENGINE_OPT_LION},         {"adafactor", ENGINE_OPT_ADAFACTOR},
	{"adam8bit", ENGINE_OPT_ADAM_8BIT}, {"adamw-8bit", ENGINE_OPT_ADAM_8BIT}, {"momentum", ENGINE_OPT_SGD_MOMENTUM},
	{NULL, 0},
};
static const struct engine_choice ch_recompute[] = {
	{"none", ENGINE_RECOMP_NONE}, {"selective", ENGINE_RECOMP_SELECTIVE}, {"full", ENGINE_RECOMP_FULL},
	{"selective-op", ENGINE_RECOMP_SELECTIVE_OP}, {"off", ENGINE_RECOMP_NONE}, {"op", ENGINE_RECOMP_SELECTIVE_OP},
	{NULL, 0},
};
static const struct engine_choice ch_recompute_method[] = {
	{"block", ENGINE_RCM_BLOCK}, {"every", ENGINE_RCM_EVERY}, {"uniform", ENGINE_RCM_UNIFORM}, {NULL, 0},
};
static const struct engine_choice ch_kernels[] = {
	{"eager", ENGINE_KERNELS_EAGER}, {"fused", ENGINE_KERNELS_FUSED}, {"pytorch", ENGINE_KERNELS_EAGER},
	{"hf", ENGINE_KERNELS_EAGER},    {"megatron", ENGINE_KERNELS_FUSED}, {"te", ENGINE_KERNELS_FUSED},
	{"compiled", ENGINE_KERNELS_COMPILED}, {"compile", ENGINE_KERNELS_COMPILED}, {"inductor", ENGINE_KERNELS_COMPILED},
	{NULL, 0},
};
static const struct engine_choice ch_stack[] = {
	{"hf", ENGINE_STACK_HF},
	{"megatron", ENGINE_STACK_MEGATRON},
	{"torchtitan", ENGINE_STACK_TORCHTITAN},
	{"deepspeed", ENGINE_STACK_DEEPSPEED},
	{"pytorch", ENGINE_STACK_HF},
	{"accelerate", ENGINE_STACK_HF},
	{"nemo", ENGINE_STACK_MEGATRON},
	{"megatron-core", ENGINE_STACK_MEGATRON},
	{"fsdp2", ENGINE_STACK_TORCHTITAN},
	{NULL, 0},
};
static const struct engine_choice ch_loss[] = {
	{"full", ENGINE_LOSS_FULL},       {"chunked", ENGINE_LOSS_CHUNKED}, {"liger", ENGINE_LOSS_CHUNKED},
	{"fused-linear", ENGINE_LOSS_CHUNKED}, {"cce", ENGINE_LOSS_CHUNKED}, {NULL, 0},
};
static const struct engine_choice ch_dtype[] = {
	{"auto", ENGINE_DT_AUTO},         {"fp32", ENGINE_DT_FP32},         {"tf32", ENGINE_DT_TF32},
	{"bf16", ENGINE_DT_BF16},         {"fp16", ENGINE_DT_FP16},         {"fp8-e4m3", ENGINE_DT_FP8_E4M3},
	{"fp8-e5m2", ENGINE_DT_FP8_E5M2}, {"int8", ENGINE_DT_INT8},         {"int4", ENGINE_DT_INT4},
	{"fp4", ENGINE_DT_FP4},           {"fp8", ENGINE_DT_FP8_E4M3},      {"e4m3", ENGINE_DT_FP8_E4M3},
	{"e5m2", ENGINE_DT_FP8_E5M2},     {NULL, 0},
};
static const struct engine_choice ch_mlp[] = {
	{"gated", ENGINE_MLP_GATED}, {"plain", ENGINE_MLP_PLAIN}, {"swiglu", ENGINE_MLP_GATED},
	{"geglu", ENGINE_MLP_GATED}, {"gelu", ENGINE_MLP_PLAIN},  {"relu", ENGINE_MLP_PLAIN}, {NULL, 0},
};
static const struct engine_choice ch_norm[] = {
	{"rmsnorm", ENGINE_NORM_RMS}, {"layernorm", ENGINE_NORM_LAYER}, {"rms", ENGINE_NORM_RMS},
	{"layer", ENGINE_NORM_LAYER}, {NULL, 0},
};
static const struct engine_choice ch_position[] = {
	{"rope", ENGINE_POS_ROPE}, {"learned", ENGINE_POS_LEARNED}, {"none", ENGINE_POS_NONE},
	{"rotary", ENGINE_POS_ROPE}, {"alibi", ENGINE_POS_NONE}, {"absolute", ENGINE_POS_LEARNED}, {NULL, 0},
};
/* bias: which linears carry biases (enum eng_bias in internal.h) */
static const struct engine_choice ch_bias[] = {
	{"none", BIAS_NONE}, {"qkv", BIAS_QKV}, {"attn", BIAS_ATTN}, {"all", BIAS_ALL}, {"off", BIAS_NONE}, {NULL, 0},
};
static const struct engine_choice ch_formula[] = {
	{"exact", ENGINE_FLOPS_EXACT}, {"6n", ENGINE_FLOPS_6N}, {"6nd", ENGINE_FLOPS_6N}, {NULL, 0},
};
static const struct engine_choice ch_finetune[] = {
	{"full", ENGINE_FT_FULL}, {"lora", ENGINE_FT_LORA}, {"qlora", ENGINE_FT_QLORA}, {"none", ENGINE_FT_FULL}, {NULL, 0},
};
/* lora_targets: bits; a list such as "q,k,v" ORs them (ENGINE_KNOB_LIST). The named sets
 * come first so that stepping walks the usual choices; "q,v" is PEFT's default for Llama
 * (its TRANSFORMERS_MODELS_TO_LORA_TARGET_MODULES_MAPPING), "all-linear" its name for every
 * linear but the LM head. */
static const struct engine_choice ch_lora_targets[] = {
	{"q,v", ENGINE_LORA_Q | ENGINE_LORA_V},
	{"attention", ENGINE_LORA_ATTENTION},
	{"mlp", ENGINE_LORA_MLP},
	{"all-linear", ENGINE_LORA_ALL},
	{"q", ENGINE_LORA_Q},
	{"k", ENGINE_LORA_K},
	{"v", ENGINE_LORA_V},
	{"o", ENGINE_LORA_O},
	{"gate", ENGINE_LORA_GATE},
	{"up", ENGINE_LORA_UP},
	{"down", ENGINE_LORA_DOWN},
	{"attn", ENGINE_LORA_ATTENTION},
	{"all", ENGINE_LORA_ALL},
	{"q_proj", ENGINE_LORA_Q},
	{"k_proj", ENGINE_LORA_K},
	{"v_proj", ENGINE_LORA_V},
	{"o_proj", ENGINE_LORA_O},
	{"gate_proj", ENGINE_LORA_GATE},
	{"up_proj", ENGINE_LORA_UP},
	{"down_proj", ENGINE_LORA_DOWN},
	{NULL, 0},
};
static const struct engine_choice ch_token_dtype[] = {
	{"auto", ENGINE_TOKEN_DT_AUTO}, {"uint16", ENGINE_TOKEN_DT_UINT16}, {"uint32", ENGINE_TOKEN_DT_UINT32},
	{"u16", ENGINE_TOKEN_DT_UINT16}, {"u32", ENGINE_TOKEN_DT_UINT32}, {NULL, 0},
};
static const struct engine_choice ch_offload[] = {
	{"none", ENGINE_OFFLOAD_NONE}, {"optimizer", ENGINE_OFFLOAD_OPTIMIZER}, {"params", ENGINE_OFFLOAD_PARAMS},
	{"nvme", ENGINE_OFFLOAD_NVME}, {"nvme-params", ENGINE_OFFLOAD_NVME_PARAMS},
	{"off", ENGINE_OFFLOAD_NONE},  {"cpu", ENGINE_OFFLOAD_OPTIMIZER},        {NULL, 0},
};

/* engine: enum engine_serve_engine (serve_engine.c holds each engine's defaults) */
static const struct engine_choice ch_serve_engine[] = {
	{"vllm", ENGINE_SERVE_VLLM}, {"sglang", ENGINE_SERVE_SGLANG}, {"trtllm", ENGINE_SERVE_TRTLLM},
	{"tgi", ENGINE_SERVE_TGI},   {"none", ENGINE_SERVE_NONE},     {"tensorrt-llm", ENGINE_SERVE_TRTLLM},
	{"trt-llm", ENGINE_SERVE_TRTLLM}, {"bound", ENGINE_SERVE_NONE}, {NULL, 0},
};

/* speculative: enum engine_spec (serve_spec.c) */
static const struct engine_choice ch_spec[] = {
	{"none", ENGINE_SPEC_NONE}, {"draft", ENGINE_SPEC_DRAFT}, {"eagle", ENGINE_SPEC_EAGLE},
	{"mtp", ENGINE_SPEC_MTP},   {"off", ENGINE_SPEC_NONE},    {NULL, 0},
};

/* mixed_prefill: enum engine_mixed_prefill (serve_engine.c), auto the engine's default */
static const struct engine_choice ch_mixed[] = {
	{"auto", ENGINE_MIXED_AUTO}, {"on", ENGINE_MIXED_ON}, {"off", ENGINE_MIXED_OFF}, {"true", ENGINE_MIXED_ON},
	{"false", ENGINE_MIXED_OFF}, {"yes", ENGINE_MIXED_ON}, {"no", ENGINE_MIXED_OFF}, {NULL, 0},
};

/* slo_percentile: enum engine_slo_pct (serve_batch.c, serve_pct.c) */
static const struct engine_choice ch_slo_pct[] = {
	{"mean", ENGINE_SLO_MEAN}, {"p50", ENGINE_SLO_P50}, {"p90", ENGINE_SLO_P90}, {"p99", ENGINE_SLO_P99}, {NULL, 0},
};

/* weight_format: enum engine_weight_format (quant.c derives each one's bits per weight) */
static const struct engine_choice ch_wformat[] = {
	{"dtype", ENGINE_WF_DTYPE},       {"gptq-int4", ENGINE_WF_GPTQ_INT4}, {"awq-int4", ENGINE_WF_AWQ_INT4},
	{"nf4", ENGINE_WF_NF4},           {"nf4-dq", ENGINE_WF_NF4_DQ},       {"q8_0", ENGINE_WF_GGUF_Q8_0},
	{"q4_k_m", ENGINE_WF_GGUF_Q4_K_M}, {"fp8", ENGINE_WF_FP8},           {"nvfp4", ENGINE_WF_NVFP4},
	{"mxfp4", ENGINE_WF_MXFP4},       {"mxfp4-experts", ENGINE_WF_MXFP4_EXPERTS}, {"none", ENGINE_WF_DTYPE},
	{"gptq", ENGINE_WF_GPTQ_INT4},    {"awq", ENGINE_WF_AWQ_INT4},        {"bnb-nf4", ENGINE_WF_NF4},
	{"gguf-q8_0", ENGINE_WF_GGUF_Q8_0}, {"gguf-q4_k_m", ENGINE_WF_GGUF_Q4_K_M}, {NULL, 0},
};

#define M_ALL ENGINE_MOVES_ALL
#define M_MEM ENGINE_MOVES_MEMORY
#define M_CMP (ENGINE_MOVES_COMPUTE | ENGINE_MOVES_TIME)
#define M_TIME ENGINE_MOVES_TIME
#define M_RL ENGINE_MOVES_ROOFLINE
#define M_INF ENGINE_MOVES_INFERENCE
#define M_DATA ENGINE_MOVES_DATA
#define F_ARCH ENGINE_KNOB_ARCH
#define F_GPU ENGINE_KNOB_GPUFIELD
#define F_UNSET ENGINE_KNOB_ZERO_UNSET
#define F_TRAIN ENGINE_KNOB_TRAIN
#define F_INFER ENGINE_KNOB_INFER

#define G_MODEL ENGINE_GROUP_MODEL
#define G_BATCH ENGINE_GROUP_BATCH
#define G_PREC ENGINE_GROUP_PRECISION
#define G_GPU ENGINE_GROUP_GPU
#define G_TRAIN ENGINE_GROUP_TRAINING
#define G_MEM ENGINE_GROUP_MEMORY
#define G_INFER ENGINE_GROUP_INFERENCE

/* Application order: names first (model, params, gpu), then the fields they fill. */
static const struct engine_knob knobs[] = {
	{"model", G_MODEL, ENGINE_KNOB_NAME, ENGINE_UNIT_NONE, 0, 0, 0, ENGINE_STEP_NONE, NULL, 0, M_ALL, 0,
	 N_("model"), N_("a model preset id, a model YAML or config.json file, or a size like 7B")},
	{"params", G_MODEL, ENGINE_KNOB_REAL, ENGINE_UNIT_COUNT, 1e7, 1e15, 0, ENGINE_STEP_125, NULL, F_UNSET, M_ALL,
	 SC(params), N_("parameters"), N_("a size (7B, 70B): picks a standard dense shape with that many parameters")},
	{"layers", G_MODEL, ENGINE_KNOB_INT, ENGINE_UNIT_LAYERS, 1, 100000, 32, ENGINE_STEP_LINEAR, NULL, F_ARCH, M_ALL,
	 SC(model.layers), N_("layers"), N_("transformer layers (num_hidden_layers)")},
	{"hidden", G_MODEL, ENGINE_KNOB_INT, ENGINE_UNIT_COUNT, 1, 1e7, 4096, ENGINE_STEP_POW2, NULL, F_ARCH, M_ALL,
	 SC(model.hidden), N_("hidden"), N_("model width d (hidden_size)")},
	{"heads", G_MODEL, ENGINE_KNOB_INT, ENGINE_UNIT_HEADS, 1, 1e5, 32, ENGINE_STEP_LINEAR, NULL, F_ARCH, M_ALL,
	 SC(model.heads), N_("heads"), N_("attention heads (num_attention_heads)")},
	{"kv_heads", G_MODEL, ENGINE_KNOB_INT, ENGINE_UNIT_HEADS, 1, 1e5, 32, ENGINE_STEP_POW2, NULL, F_ARCH, M_ALL,
	 SC(model.kv_heads), N_("kv heads"), N_("key/value heads: = heads for MHA, fewer for GQA, 1 for MQA")},
	{"head_dim", G_MODEL, ENGINE_KNOB_INT, ENGINE_UNIT_COUNT, 1, 1e5, 128, ENGINE_STEP_POW2, NULL, F_ARCH, M_ALL,
	 SC(model.head_dim), N_("head dim"), N_("size of one head (not always hidden / heads: Gemma-7B uses 256)")},
	{"ffn", G_MODEL, ENGINE_KNOB_INT, ENGINE_UNIT_COUNT, 1, 1e8, 11008, ENGINE_STEP_POW2, NULL, F_ARCH, M_ALL,
	 SC(model.ffn), N_("MLP width"), N_("MLP inner width (intermediate_size)")},
	{"vocab", G_MODEL, ENGINE_KNOB_INT, ENGINE_UNIT_COUNT, 1, 1e8, 32000, ENGINE_STEP_POW2, NULL, F_ARCH, M_ALL,
	 SC(model.vocab), N_("vocab"), N_("vocabulary size (vocab_size)")},
	{"mlp", G_MODEL, ENGINE_KNOB_ENUM, ENGINE_UNIT_NONE, 0, 0, ENGINE_MLP_GATED, ENGINE_STEP_CHOICE, ch_mlp, F_ARCH,
	 M_ALL, SC(model.mlp), N_("mlp"), N_("gated (SwiGLU, 3 matrices) or plain (GELU, 2 matrices)")},
	{"norm", G_MODEL, ENGINE_KNOB_ENUM, ENGINE_UNIT_NONE, 0, 0, ENGINE_NORM_RMS, ENGINE_STEP_CHOICE, ch_norm,
	 F_ARCH, ENGINE_MOVES_PARAMS | M_MEM, SC(model.norm), N_("norm"), N_("rmsnorm (weight) or layernorm (weight and bias)")},
	{"bias", G_MODEL, ENGINE_KNOB_ENUM, ENGINE_UNIT_NONE, 0, 0, BIAS_NONE, ENGINE_STEP_CHOICE, ch_bias, F_ARCH,
	 ENGINE_MOVES_PARAMS | M_MEM, 0, N_("biases"), N_("linears with biases: none, qkv, attn (qkv and output) or all")},
	{"tied_embeddings", G_MODEL, ENGINE_KNOB_BOOL, ENGINE_UNIT_NONE, 0, 0, 0, ENGINE_STEP_CHOICE, NULL, F_ARCH,
	 ENGINE_MOVES_PARAMS | M_MEM, SC(model.tied), N_("tied embeddings"), N_("the LM head shares the embedding matrix")},
	{"position", G_MODEL, ENGINE_KNOB_ENUM, ENGINE_UNIT_NONE, 0, 0, ENGINE_POS_ROPE, ENGINE_STEP_CHOICE,
	 ch_position, F_ARCH, ENGINE_MOVES_PARAMS | M_MEM, SC(model.position), N_("positions"),
	 N_("rope, learned (a P×d table) or none")},
	{"max_positions", G_MODEL, ENGINE_KNOB_INT, ENGINE_UNIT_TOKENS, 1, 1e9, 4096, ENGINE_STEP_POW2, NULL, F_ARCH,
	 ENGINE_MOVES_PARAMS | M_MEM, SC(model.max_positions), N_("max context"),
	 N_("the model's context length (learned positions: the table's size)")},
	{"experts", G_MODEL, ENGINE_KNOB_INT, ENGINE_UNIT_COUNT, 1, 1e5, 1, ENGINE_STEP_POW2, NULL, F_ARCH, M_ALL,
	 SC(model.experts), N_("experts"), N_("MoE experts per layer (1: dense)")},
	{"top_k", G_MODEL, ENGINE_KNOB_INT, ENGINE_UNIT_COUNT, 1, 1e5, 1, ENGINE_STEP_LINEAR, NULL, F_ARCH, M_ALL,
	 SC(model.top_k), N_("top-k"), N_("experts each token is routed to")},
	{"dropout", G_MODEL, ENGINE_KNOB_BOOL, ENGINE_UNIT_NONE, 0, 0, 0, ENGINE_STEP_CHOICE, NULL, F_ARCH | F_TRAIN,
	 M_MEM, SC(model.dropout), N_("dropout"), N_("trained with dropout (its 1-byte masks are kept)")},
	{"sliding_window", G_MODEL, ENGINE_KNOB_INT, ENGINE_UNIT_TOKENS, 0, 1e9, 0, ENGINE_STEP_POW2, NULL,
	 F_ARCH | F_INFER, M_MEM | M_INF | M_RL, SC(model.sliding_window), N_("sliding window"),
	 N_("sliding-window attention: a layer caches and attends to the last N tokens (0: none; Mistral 4096; inference only)")},
	{"window_layers", G_MODEL, ENGINE_KNOB_INT, ENGINE_UNIT_LAYERS, 0, 100000, 0, ENGINE_STEP_LINEAR, NULL,
	 F_ARCH | F_INFER, M_MEM | M_INF | M_RL, SC(model.window_layers), N_("window layers"),
	 N_("layers that use the sliding window (0: all; Gemma 2: every other layer)")},

	{"gpu", G_GPU, ENGINE_KNOB_NAME, ENGINE_UNIT_NONE, 0, 0, 0, ENGINE_STEP_NONE, NULL, 0, M_ALL, 0, N_("GPU"),
	 N_("a GPU preset id or a GPU profile YAML file")},
	{"gpu_memory", G_GPU, ENGINE_KNOB_REAL, ENGINE_UNIT_BYTES, 1, 1e15, 81559.0 * 1048576.0, ENGINE_STEP_125, NULL,
	 F_GPU, M_MEM, SC(gpu.memory_bytes), N_("memory"), N_("one GPU's memory capacity")},
	{"gpu_bandwidth", G_GPU, ENGINE_KNOB_REAL, ENGINE_UNIT_BYTES_PER_S, 1e6, 1e15, 3.35e12, ENGINE_STEP_125, NULL,
	 F_GPU, M_RL | M_INF | M_TIME, SC(gpu.bandwidth), N_("bandwidth"), N_("one GPU's memory bandwidth")},
	{"peak_flops", G_GPU, ENGINE_KNOB_REAL, ENGINE_UNIT_FLOP_PER_S, 0, 1e20, 0, ENGINE_STEP_125, NULL, F_UNSET,
	 M_CMP | M_RL | M_INF, SC(peak_flops), N_("peak"), N_("override the GPU's dense peak for the matmul dtype")},
	{"overhead", G_GPU, ENGINE_KNOB_REAL, ENGINE_UNIT_BYTES, 0, 1e13, 768.0 * 1048576.0, ENGINE_STEP_125, NULL,
	 F_GPU, M_MEM, SC(gpu.overhead_bytes), N_("overhead"), N_("CUDA context and library workspaces per GPU")},
	{"gpus", G_GPU, ENGINE_KNOB_INT, ENGINE_UNIT_GPUS, 1, 1048576, 8, ENGINE_STEP_POW2, NULL, 0, M_ALL, SC(gpus),
	 N_("GPUs"), N_("GPUs in the job (= dp × tp × pp)")},
	{"gpus_per_node", G_GPU, ENGINE_KNOB_INT, ENGINE_UNIT_GPUS, 1, 1024, 8, ENGINE_STEP_POW2, NULL, 0, M_TIME,
	 SC(gpus_per_node), N_("GPUs per node"), N_("GPUs per node (tensor parallelism should stay within one)")},
	{"tp", G_GPU, ENGINE_KNOB_INT, ENGINE_UNIT_NONE, 1, 1024, 1, ENGINE_STEP_LINEAR, NULL, 0, M_ALL, SC(tp), N_("TP"),
	 N_("tensor-parallel degree (must divide heads)")},
	{"pp", G_GPU, ENGINE_KNOB_INT, ENGINE_UNIT_NONE, 1, 1024, 1, ENGINE_STEP_LINEAR, NULL, 0, M_ALL, SC(pp), N_("PP"),
	 N_("pipeline-parallel degree (the heaviest stage binds when it does not divide layers)")},
	{"vpp", G_GPU, ENGINE_KNOB_INT, ENGINE_UNIT_NONE, 1, 128, 1, ENGINE_STEP_LINEAR, NULL, F_TRAIN, M_CMP, SC(vpp),
	 N_("virtual stages"), N_("virtual pipeline stages per GPU (interleaved 1F1B: bubble (p-1)/(v·m))")},
	{"cp", G_GPU, ENGINE_KNOB_INT, ENGINE_UNIT_NONE, 1, 1024, 1, ENGINE_STEP_POW2, NULL, F_TRAIN, M_ALL, SC(cp), N_("CP"),
	 N_("context-parallel degree: each sequence split over cp ranks (ring attention)")},
	{"ep", G_GPU, ENGINE_KNOB_INT, ENGINE_UNIT_NONE, 1, 1024, 1, ENGINE_STEP_POW2, NULL, 0, M_CMP, SC(ep), N_("EP"),
	 N_("expert-parallel degree (MoE): experts split over data-parallel ranks (serving: over replicas)")},
	{"zero", G_GPU, ENGINE_KNOB_INT, ENGINE_UNIT_NONE, 0, 3, 1, ENGINE_STEP_LINEAR, NULL, F_TRAIN, M_MEM | M_TIME, SC(zero),
	 N_("ZeRO"), N_("ZeRO stage: 1 shards optimizer states, 2 also gradients, 3 also weights")},
	{"overlap", G_GPU, ENGINE_KNOB_BOOL, ENGINE_UNIT_NONE, 0, 0, 1, ENGINE_STEP_CHOICE, NULL, F_TRAIN, M_CMP,
	 SC(overlap), N_("overlap comm"), N_("overlap the data-parallel gradient reduction (ZeRO-3: the gathers) with compute")},
	/* tp_overlap and pp_overlap: set by the stack unless given (adapt.c) */
	{"tp_overlap", G_GPU, ENGINE_KNOB_BOOL, ENGINE_UNIT_NONE, 0, 0, 0, ENGINE_STEP_CHOICE, NULL, F_TRAIN, M_CMP,
	 SC(tp_overlap), N_("TP overlap"), N_("overlap TP communication with the GEMMs (Megatron-Core's tp_comm_overlap; needs sequence parallelism)")},
	{"pp_overlap", G_GPU, ENGINE_KNOB_BOOL, ENGINE_UNIT_NONE, 0, 0, 0, ENGINE_STEP_CHOICE, NULL, F_TRAIN, M_CMP,
	 SC(pp_overlap), N_("PP overlap"), N_("overlap pipeline sends with compute (Megatron-Core's overlap_p2p_comm; interleaved schedule)")},
	/* 0 is the engine's "unknown" (struct engine_gpu): a GPU preset with no scale-out
	 * figure (PCIe cards, TPUs) has it, collectives then run at the host link's pcie_bw
	 * (step.c), and a written scenario must load back with it */
	{"network_bw", G_GPU, ENGINE_KNOB_REAL, ENGINE_UNIT_BYTES_PER_S, 1e6, 1e15, 50e9, ENGINE_STEP_125, NULL,
	 F_GPU | F_UNSET, M_CMP, SC(gpu.network_bw), N_("network"), N_("scale-out bandwidth per GPU per direction (8 × 400 Gb/s per 8 GPUs: 50 GB/s)")},
	{"sequence_parallel", G_GPU, ENGINE_KNOB_BOOL, ENGINE_UNIT_NONE, 0, 0, 0, ENGINE_STEP_CHOICE, NULL, F_TRAIN,
	 M_MEM | M_TIME, SC(sequence_parallel), N_("sequence parallel"), N_("shard the norm and dropout activations over TP ranks")},

	/* a power cap: the compute clock follows it (power.c, eng_power_clock); not a field of the GPU
	 * profile, so a change of GPU keeps it */
	{"power_limit", G_GPU, ENGINE_KNOB_REAL, ENGINE_UNIT_WATTS, 1, 1e5, 0, ENGINE_STEP_LINEAR, NULL, F_UNSET,
	 M_CMP | M_INF, SC(power_limit), N_("power limit"),
	 N_("watts each GPU is capped at, as nvidia-smi -pl sets it (not given: the card's TDP); a compute-bound "
	    "kernel's clock follows the power")},
	{"mode", G_TRAIN, ENGINE_KNOB_ENUM, ENGINE_UNIT_NONE, 0, 0, ENGINE_MODE_TRAIN, ENGINE_STEP_CHOICE, ch_mode, 0,
	 M_ALL, SC(mode), N_("mode"), N_("train or infer")},
	{"batch", G_BATCH, ENGINE_KNOB_INT, ENGINE_UNIT_COUNT, 1, 1e7, 1, ENGINE_STEP_POW2, NULL, 0,
	 M_MEM | M_CMP | M_RL | M_INF | M_DATA, SC(batch), N_("micro-batch"),
	 N_("sequences per GPU per micro-batch (inference: concurrent sequences)")},
	{"grad_accum", G_BATCH, ENGINE_KNOB_INT, ENGINE_UNIT_COUNT, 1, 1e7, 16, ENGINE_STEP_POW2, NULL, F_TRAIN,
	 M_CMP | M_DATA | M_MEM, SC(grad_accum), N_("grad accumulation"), N_("micro-batches per optimizer step")},
	/* sequences (Megatron-LM's --global-batch-size counts them) or tokens ("4M tokens", as
	 * the Llama 2 paper states its batch); parsed and written by knobs.c, knob_text.c */
	{"global_batch", G_TRAIN, ENGINE_KNOB_REAL, ENGINE_UNIT_COUNT, 1, 1e12, 0, ENGINE_STEP_POW2, NULL,
	 F_TRAIN | F_UNSET, M_CMP | M_DATA | M_MEM, SC(global_batch), N_("global batch"),
	 N_("sequences per optimizer step (1024 or 1024 seq) or tokens (4M tokens): grad_accum = global_batch / (batch x dp)")},
	{"seq", G_BATCH, ENGINE_KNOB_INT, ENGINE_UNIT_TOKENS, 1, 1e8, 4096, ENGINE_STEP_POW2, NULL, F_TRAIN,
	 M_MEM | M_CMP | M_RL | M_DATA, SC(seq), N_("sequence"), N_("training sequence length in tokens")},
	{"tokens", G_BATCH, ENGINE_KNOB_REAL, ENGINE_UNIT_COUNT, 1, 1e17, 2e12, ENGINE_STEP_125, NULL, F_TRAIN, M_TIME,
	 SC(tokens), N_("tokens"), N_("training tokens D")},

	{"precision", G_PREC, ENGINE_KNOB_ENUM, ENGINE_UNIT_NONE, 0, 0, ENGINE_PREC_MIXED_BF16, ENGINE_STEP_CHOICE,
	 ch_precision, 0, M_MEM | M_CMP | M_RL | M_INF, SC(precision), N_("precision"),
	 N_("fp32, amp-bf16/fp16 (autocast), mixed-bf16/fp16 (16-bit weights + fp32 master), bf16, fp8-mixed")},
	{"weight_dtype", G_PREC, ENGINE_KNOB_ENUM, ENGINE_UNIT_NONE, 0, 0, ENGINE_DT_AUTO, ENGINE_STEP_CHOICE, ch_dtype,
	 0, M_MEM | M_RL | M_INF, SC(weight_dtype), N_("weights"), N_("weights' dtype (auto: the recipe's; inference: int8, int4)")},
	{"grad_dtype", G_PREC, ENGINE_KNOB_ENUM, ENGINE_UNIT_NONE, 0, 0, ENGINE_DT_AUTO, ENGINE_STEP_CHOICE, ch_dtype,
	 F_TRAIN, M_MEM, SC(grad_dtype), N_("gradients"), N_("gradients' dtype (auto: the recipe's)")},
	{"optimizer_dtype", G_PREC, ENGINE_KNOB_ENUM, ENGINE_UNIT_NONE, 0, 0, ENGINE_DT_AUTO, ENGINE_STEP_CHOICE,
	 ch_dtype, F_TRAIN, M_MEM, SC(optimizer_dtype), N_("optimizer states"), N_("optimizer states' dtype (auto: the recipe's)")},
	{"activation_dtype", G_PREC, ENGINE_KNOB_ENUM, ENGINE_UNIT_NONE, 0, 0, ENGINE_DT_AUTO, ENGINE_STEP_CHOICE,
	 ch_dtype, 0, M_MEM | M_RL, SC(activation_dtype), N_("activations"), N_("activations' dtype (auto: the recipe's)")},
	{"kv_dtype", G_PREC, ENGINE_KNOB_ENUM, ENGINE_UNIT_NONE, 0, 0, ENGINE_DT_AUTO, ENGINE_STEP_CHOICE, ch_dtype,
	 F_INFER, M_MEM | M_INF, SC(kv_dtype), N_("KV cache"), N_("KV cache dtype (auto: the activations'; fp8 halves it)")},
	{"weight_format", G_PREC, ENGINE_KNOB_ENUM, ENGINE_UNIT_NONE, 0, 0, ENGINE_WF_DTYPE, ENGINE_STEP_CHOICE,
	 ch_wformat, F_INFER, M_MEM | M_INF | M_RL, SC(weight_format), N_("weight format"),
	 N_("inference weights: dtype (weight_dtype's), gptq-int4, awq-int4, nf4, nf4-dq, q8_0, q4_k_m, fp8, nvfp4, mxfp4 or "
	    "mxfp4-experts, scales included")},
	{"matmul_dtype", G_PREC, ENGINE_KNOB_ENUM, ENGINE_UNIT_NONE, 0, 0, ENGINE_DT_AUTO, ENGINE_STEP_CHOICE, ch_dtype,
	 0, M_CMP | M_RL | M_INF, SC(matmul_dtype), N_("matmuls"), N_("the dtype matmuls run in, which picks the peak (tf32 for fp32)")},

	{"optimizer", G_TRAIN, ENGINE_KNOB_ENUM, ENGINE_UNIT_NONE, 0, 0, ENGINE_OPT_ADAMW, ENGINE_STEP_CHOICE,
	 ch_optimizer, F_TRAIN, M_MEM | M_TIME, SC(optimizer), N_("optimizer"), N_("adamw, adam, sgd, sgd-momentum, adam-8bit, lion, adafactor")},
	{"recompute", G_MEM, ENGINE_KNOB_ENUM, ENGINE_UNIT_NONE, 0, 0, ENGINE_RECOMP_NONE, ENGINE_STEP_CHOICE,
	 ch_recompute, F_TRAIN, M_MEM | M_CMP | M_RL, SC(recompute), N_("recompute"),
	 N_("activation recomputation: none, selective (Megatron: the attention core), full, or selective-op (torchtitan: "
	    "every second matmul's output kept)")},
	/* Megatron-LM's --recompute-method block --recompute-num-layers N; torchtitan's
	 * selective_ac_option k (every k-th block) is N = layers ÷ k (activations.c) */
	{"recompute_layers", G_MEM, ENGINE_KNOB_INT, ENGINE_UNIT_LAYERS, 0, 100000, 0, ENGINE_STEP_LINEAR, NULL,
	 F_TRAIN | ENGINE_KNOB_ZERO_ALL,
	 M_MEM | M_CMP | M_RL, SC(recompute_layers), N_("recompute layers"),
	 N_("recompute full: how many layers of each pipeline stage recompute (0 or all: every one; Megatron's --recompute-num-layers, "
	    "torchtitan's every k-th: layers / k)")},
	/* set by the stack unless given (adapt.c): every under torchtitan, else block */
	{"recompute_method", G_MEM, ENGINE_KNOB_ENUM, ENGINE_UNIT_NONE, 0, 0, ENGINE_RCM_BLOCK, ENGINE_STEP_CHOICE,
	 ch_recompute_method, F_TRAIN, M_MEM | M_CMP, SC(recompute_method), N_("recompute method"),
	 N_("which recompute_layers recompute: block (the first of a stage, Megatron), every (every k-th, torchtitan) or "
	    "uniform (all, in chunks of recompute_layers, Megatron)")},
	{"flash_attention", G_TRAIN, ENGINE_KNOB_BOOL, ENGINE_UNIT_NONE, 0, 0, 1, ENGINE_STEP_CHOICE, NULL, 0,
	 M_MEM | M_CMP | M_RL, SC(flash_attention), N_("FlashAttention"), N_("FlashAttention: never store the s×s scores")},
	/* default hf: the eager PyTorch / Hugging Face code most runs are planned for; the
	 * knobs it sets (adapt.c) say so in a note */
	{"stack", G_TRAIN, ENGINE_KNOB_ENUM, ENGINE_UNIT_NONE, 0, 0, ENGINE_STACK_HF, ENGINE_STEP_CHOICE, ch_stack, F_TRAIN,
	 M_MEM | M_CMP, SC(stack), N_("stack"),
	 N_("the training framework: hf (default), megatron, torchtitan or deepspeed; it sets kernels, overlaps and sequence parallelism unless given")},
	/* default eager: most runs are planned for PyTorch / Hugging Face code (Trainer,
	 * torchtune-style loops, nanoGPT), not Megatron-LM */
	{"kernels", G_TRAIN, ENGINE_KNOB_ENUM, ENGINE_UNIT_NONE, 0, 0, ENGINE_KERNELS_EAGER, ENGINE_STEP_CHOICE,
	 ch_kernels, F_TRAIN, M_MEM | M_CMP, SC(kernels), N_("kernels"),
	 N_("what runs the model: eager (default: PyTorch / Hugging Face modules), fused (Megatron-LM, TE, Apex) or compiled (torch.compile)")},
	/* default full: the logits materialised, as Hugging Face's, nanoGPT's and Megatron's
	 * losses run; chunked: Liger Kernel, Cut Cross-Entropy, Unsloth (activations.c) */
	{"loss", G_TRAIN, ENGINE_KNOB_ENUM, ENGINE_UNIT_NONE, 0, 0, ENGINE_LOSS_FULL, ENGINE_STEP_CHOICE, ch_loss,
	 F_TRAIN, M_MEM, SC(loss), N_("loss"),
	 N_("the LM head and loss: full (default: the whole sequence's logits) or chunked (Liger, Cut Cross-Entropy)")},
	{"activations", G_TRAIN, ENGINE_KNOB_BOOL, ENGINE_UNIT_NONE, 0, 0, 1, ENGINE_STEP_CHOICE, NULL, 0, M_MEM,
	 SC(activations), N_("count activations"), N_("count activations (off: the napkin estimate that ignores them)")},
	{"mfu", G_TRAIN, ENGINE_KNOB_REAL, ENGINE_UNIT_FRACTION, 0, 1, 0, ENGINE_STEP_LINEAR, NULL,
	 F_TRAIN | F_UNSET | ENGINE_KNOB_MIN_OPEN | ENGINE_KNOB_AUTO, M_TIME, SC(mfu), N_("MFU"),
	 N_("model FLOPs utilisation: auto predicts it from the step; a number assumes it (a measurement wins)")},
	{"tokens_per_s", G_TRAIN, ENGINE_KNOB_REAL, ENGINE_UNIT_TOKENS_PER_S, 0, 1e15, 0, ENGINE_STEP_125, NULL,
	 F_UNSET | F_TRAIN, M_TIME, SC(tokens_per_s), N_("tokens/s"),
	 N_("measured throughput of the whole job, all GPUs together, not per GPU (gives MFU and time)")},
	{"step_time", G_TRAIN, ENGINE_KNOB_REAL, ENGINE_UNIT_SECONDS, 0, 1e9, 0, ENGINE_STEP_125, NULL,
	 F_UNSET | F_TRAIN, M_TIME, SC(step_time), N_("step time"), N_("measured seconds per optimizer step")},
	{"achieved_flops", G_TRAIN, ENGINE_KNOB_REAL, ENGINE_UNIT_FLOP_PER_S, 0, 1e20, 0, ENGINE_STEP_125, NULL,
	 F_UNSET | F_TRAIN, M_TIME, SC(achieved_flops), N_("achieved FLOP/s"), N_("measured hardware FLOP/s per GPU (Megatron's TFLOPs)")},
	{"flops_formula", G_TRAIN, ENGINE_KNOB_ENUM, ENGINE_UNIT_NONE, 0, 0, ENGINE_FLOPS_EXACT, ENGINE_STEP_CHOICE,
	 ch_formula, F_TRAIN, M_TIME, SC(flops_formula), N_("FLOPs formula"), N_("exact (per-matmul) or 6n (the 6·N·D shorthand)")},
	{"price", G_TRAIN, ENGINE_KNOB_REAL, ENGINE_UNIT_NONE, 0, 1e6, 0, ENGINE_STEP_125, NULL, F_UNSET, M_TIME | M_INF,
	 SC(price), N_("price"), N_("price per GPU-hour (any currency): the run's cost")},
	{"pinned", G_TRAIN, ENGINE_KNOB_BOOL, ENGINE_UNIT_NONE, 0, 0, 1, ENGINE_STEP_CHOICE, NULL, F_TRAIN, M_DATA,
	 SC(pinned), N_("pinned memory"), N_("load batches from pinned (page-locked) host memory")},
	/* the dataset file a DataLoader reads through np.memmap (chapter 3.5; data loading) */
	{"dataset_tokens", G_TRAIN, ENGINE_KNOB_REAL, ENGINE_UNIT_COUNT, 0, 1e17, 0, ENGINE_STEP_125, NULL,
	 F_TRAIN | F_UNSET, M_DATA, SC(dataset_tokens), N_("dataset tokens"),
	 N_("tokens in the tokenised dataset file (0: the training tokens, one epoch); its size on disk, what np.memmap "
	    "keeps in RAM, its read time")},
	{"token_dtype", G_TRAIN, ENGINE_KNOB_ENUM, ENGINE_UNIT_NONE, 0, 0, ENGINE_TOKEN_DT_AUTO, ENGINE_STEP_CHOICE,
	 ch_token_dtype, F_TRAIN, M_DATA, SC(token_dtype), N_("token id dtype"),
	 N_("how the dataset file stores a token id: uint16 (2 bytes, vocab up to 65536), uint32 (4 bytes) or auto (by the vocab)")},

	/* fine-tuning (src/engine/finetune.c); PEFT's LoraConfig defaults: r = 8, dropout 0 */
	{"finetune", G_TRAIN, ENGINE_KNOB_ENUM, ENGINE_UNIT_NONE, 0, 0, ENGINE_FT_FULL, ENGINE_STEP_CHOICE, ch_finetune,
	 F_TRAIN, ENGINE_MOVES_PARAMS | M_MEM | M_CMP | M_RL, SC(finetune), N_("fine-tuning"),
	 N_("what is trained: full (every weight), lora (low-rank adapters on frozen weights) or qlora (adapters on NF4 weights)")},
	{"lora_rank", G_TRAIN, ENGINE_KNOB_INT, ENGINE_UNIT_COUNT, 1, 65536, 8, ENGINE_STEP_POW2, NULL, F_TRAIN,
	 ENGINE_MOVES_PARAMS | M_MEM | M_CMP, SC(lora_rank), N_("LoRA rank"), N_("r of each adapter (A is r × in, B out × r)")},
	{"lora_targets", G_TRAIN, ENGINE_KNOB_ENUM, ENGINE_UNIT_NONE, 0, 0, ENGINE_LORA_Q | ENGINE_LORA_V,
	 ENGINE_STEP_CHOICE, ch_lora_targets, F_TRAIN | ENGINE_KNOB_LIST, ENGINE_MOVES_PARAMS | M_MEM | M_CMP,
	 SC(lora_targets), N_("LoRA targets"), N_("the linears adapted: a list of q,k,v,o,gate,up,down, or attention, mlp, all-linear")},
	{"lora_dropout", G_TRAIN, ENGINE_KNOB_REAL, ENGINE_UNIT_FRACTION, 0, 0.99, 0, ENGINE_STEP_LINEAR, NULL, F_TRAIN,
	 M_MEM, SC(lora_dropout), N_("LoRA dropout"), N_("dropout before each adapter's A (its output and 1-byte mask are kept)")},
	/* offload (src/engine/offload.c) */
	{"offload", G_MEM, ENGINE_KNOB_ENUM, ENGINE_UNIT_NONE, 0, 0, ENGINE_OFFLOAD_NONE, ENGINE_STEP_CHOICE, ch_offload,
	 F_TRAIN, M_MEM | M_TIME, SC(offload), N_("offload"),
	 N_("ZeRO-Offload: none, optimizer (states, master and update on the CPU), params (also the weights); "
	 "ZeRO-Infinity: nvme (states and master on NVMe), nvme-params (also the weights)")},
	/* default: one socket of 8-channel DDR4-3200, 8 × 25.6 GB/s = 204.8 GB/s peak, of which
	 * STREAM-like loops sustain about half: 100 GB/s */
	{"host_bandwidth", G_MEM, ENGINE_KNOB_REAL, ENGINE_UNIT_BYTES_PER_S, 1e6, 1e15, 100e9, ENGINE_STEP_125, NULL,
	 F_TRAIN, M_TIME, SC(host_bandwidth), N_("host bandwidth"),
	 N_("host memory bandwidth the CPU optimizer step runs at (offload)")},
	/* defaults: a DGX A100 (320 GB) holds 15 TB as 4 × 3.84 TB PCIe 4.0 U.2 NVMe drives for
	 * its 8 GPUs (DGX A100 datasheet); a drive of that class, Samsung's PM1733 U.2, reads
	 * 6.4 GB/s and writes 3.8 GB/s sequentially (Samsung's specifications, 2019): per GPU
	 * 4 × 6.4 / 8 = 3.2 GB/s read and 4 × 3.8 / 8 = 1.9 GB/s write */
	{"nvme_bandwidth", G_MEM, ENGINE_KNOB_REAL, ENGINE_UNIT_BYTES_PER_S, 1e6, 1e13, 3.2e9, ENGINE_STEP_125, NULL,
	 F_TRAIN, M_TIME, SC(nvme_bandwidth), N_("NVMe read bandwidth"),
	 N_("NVMe read bandwidth one GPU's process gets (offload nvme, nvme-params)")},
	{"nvme_write_bandwidth", G_MEM, ENGINE_KNOB_REAL, ENGINE_UNIT_BYTES_PER_S, 1e6, 1e13, 1.9e9, ENGINE_STEP_125, NULL,
	 F_TRAIN, M_TIME, SC(nvme_write_bandwidth), N_("NVMe write bandwidth"),
	 N_("NVMe write bandwidth one GPU's process gets (offload nvme: the updated states)")},

	{"prompt", G_INFER, ENGINE_KNOB_INT, ENGINE_UNIT_TOKENS, 1, 1e8, 512, ENGINE_STEP_POW2, NULL, F_INFER,
	 M_MEM | M_INF | M_RL, SC(prompt), N_("prompt"), N_("prompt tokens per sequence (prefill)")},
	{"generate", G_INFER, ENGINE_KNOB_INT, ENGINE_UNIT_TOKENS, 1, 1e8, 512, ENGINE_STEP_POW2, NULL, F_INFER,
	 M_MEM | M_INF | M_RL, SC(generate), N_("generate"), N_("tokens generated per sequence (decode steps)")},
	{"prefill_chunk", G_INFER, ENGINE_KNOB_INT, ENGINE_UNIT_TOKENS, 0, 1e8, 0, ENGINE_STEP_POW2, NULL, F_INFER,
	 M_MEM | M_INF, SC(prefill_chunk), N_("prefill chunk"),
	 N_("chunked prefill: prompt tokens per step (0: the whole prompt at once; e.g. 2048)")},
	{"kv_block", G_INFER, ENGINE_KNOB_INT, ENGINE_UNIT_TOKENS, 1, 1e6, 16, ENGINE_STEP_POW2, NULL, F_INFER,
	 M_MEM | M_INF, SC(kv_block), N_("KV block"), N_("paged KV cache: tokens per block (vLLM 16; 1: no paging waste)")},
	/* serving as an engine runs it (serve_engine.c, serve_batch.c) */
	{"engine", G_INFER, ENGINE_KNOB_ENUM, ENGINE_UNIT_NONE, 0, 0, ENGINE_SERVE_NONE, ENGINE_STEP_CHOICE, ch_serve_engine,
	 F_INFER, M_MEM | M_INF, SC(serve_engine), N_("engine"),
	 N_("the serving engine whose schedule, memory reserve and per-step cost apply: vllm, sglang, trtllm, tgi or none "
	    "(the bound)")},
	{"max_batched_tokens", G_INFER, ENGINE_KNOB_INT, ENGINE_UNIT_TOKENS, 1, 1e8, 0, ENGINE_STEP_POW2, NULL,
	 F_INFER | F_UNSET | ENGINE_KNOB_AUTO, M_MEM | M_INF, SC(max_batched_tokens), N_("token budget"),
	 N_("tokens one engine step computes at most, decode and prefill chunks together (auto: the engine's; vLLM 8192 on H100)")},
	{"max_num_seqs", G_INFER, ENGINE_KNOB_INT, ENGINE_UNIT_COUNT, 1, 1e6, 0, ENGINE_STEP_POW2, NULL,
	 F_INFER | F_UNSET | ENGINE_KNOB_AUTO, M_INF, SC(max_num_seqs), N_("max sequences"),
	 N_("sequences one engine step holds at most (auto: the engine's; vLLM V1 1024 on H100, 256 with multi-step, "
	    "TensorRT-LLM 2048)")},
	{"gpu_memory_utilization", G_INFER, ENGINE_KNOB_REAL, ENGINE_UNIT_FRACTION, 0, 1, 0, ENGINE_STEP_LINEAR, NULL,
	 F_INFER | F_UNSET | ENGINE_KNOB_MIN_OPEN | ENGINE_KNOB_AUTO, M_MEM | M_INF, SC(gpu_memory_utilization),
	 N_("memory share"), N_("the share of memory the engine takes for weights and KV cache (auto: the engine's; vLLM 0.9)")},
	{"step_overhead", G_INFER, ENGINE_KNOB_REAL, ENGINE_UNIT_SECONDS, 0, 10, 0, ENGINE_STEP_125, NULL,
	 F_INFER | F_UNSET | ENGINE_KNOB_MIN_OPEN | ENGINE_KNOB_AUTO, M_INF, SC(step_overhead), N_("step overhead"),
	 N_("the engine's fixed cost a step: scheduling, sampling, launches (auto: the engine's)")},
	/* vLLM 0.6's multi-step scheduling (--num-scheduler-steps, default 1: vllm/engine/arg_utils.py;
	 * the scheduler runs once a bundle, vllm/engine/llm_engine.py _has_remaining_steps) */
	{"scheduler_steps", G_INFER, ENGINE_KNOB_INT, ENGINE_UNIT_COUNT, 1, 64, 1, ENGINE_STEP_LINEAR, NULL, F_INFER, M_INF,
	 SC(scheduler_steps), N_("scheduler steps"),
	 N_("decode steps the engine runs a scheduling decision (vLLM 0.6's --num-scheduler-steps; 1: every step): "
	    "a new prompt waits for the running ones to end")},
	/* prefill chunks in the decode steps or prefill steps of their own (serve_engine.c: vLLM's
	 * --enable-chunked-prefill, off by default in V0 up to 32K context and refused with
	 * multi-step scheduling in 0.6.0, vllm-project/vllm issue 8274; SGLang's --enable-mixed-chunk) */
	{"mixed_prefill", G_INFER, ENGINE_KNOB_ENUM, ENGINE_UNIT_NONE, 0, 0, ENGINE_MIXED_AUTO, ENGINE_STEP_CHOICE, ch_mixed,
	 F_INFER, M_INF, SC(mixed_prefill), N_("mixed prefill"),
	 N_("prefill chunks share the decode steps (vLLM's --enable-chunked-prefill, SGLang's --enable-mixed-chunk): on, "
	    "off (prompts run whole in steps of their own, the decodes paused) or auto (the engine's)")},
	{"ttft_slo", G_INFER, ENGINE_KNOB_REAL, ENGINE_UNIT_SECONDS, 0, 3600, 0, ENGINE_STEP_125, NULL, F_INFER | F_UNSET,
	 M_INF, SC(ttft_slo), N_("TTFT target"), N_("the longest time to first token allowed, a mean or the percentile slo_percentile names: the SLA (0: none)")},
	{"tpot_slo", G_INFER, ENGINE_KNOB_REAL, ENGINE_UNIT_SECONDS, 0, 3600, 0, ENGINE_STEP_125, NULL, F_INFER | F_UNSET,
	 M_INF, SC(tpot_slo), N_("TPOT target"), N_("the longest time between tokens allowed, a mean or the percentile slo_percentile names: the SLA (0: none)")},
	/* a percentile SLA as MLPerf's Server holds it (TTFT and TPOT at the 99th percentile of an
	 * open load: mlcommons/inference loadgen, the llama2-70b README's latency constraints) */
	{"slo_percentile", G_INFER, ENGINE_KNOB_ENUM, ENGINE_UNIT_NONE, 0, 0, ENGINE_SLO_MEAN, ENGINE_STEP_CHOICE, ch_slo_pct,
	 F_INFER, M_INF, SC(slo_percentile), N_("SLA statistic"),
	 N_("what ttft_slo and tpot_slo hold: mean (the most closed-loop users), or p50, p90, p99 (the most requests/s "
	    "of an open load whose TTFT and TPOT percentiles stay within them, as MLPerf's Server)")},
	/* sizing: the replicas a service of target_rate requests/s needs within the SLA */
	{"target_rate", G_INFER, ENGINE_KNOB_REAL, ENGINE_UNIT_COUNT, 0, 1e9, 0, ENGINE_STEP_125, NULL, F_INFER | F_UNSET,
	 M_INF, SC(target_rate), N_("target rate"),
	 N_("requests/s the whole service must take: napkin sizes the replicas and GPUs, each replica at the most "
	    "requests/s it takes within ttft_slo and tpot_slo (0: none)")},
	/* an open load (serve_open.c): Poisson arrivals instead of `batch` closed-loop users */
	{"rate", G_INFER, ENGINE_KNOB_REAL, ENGINE_UNIT_COUNT, 0, 1e9, 0, ENGINE_STEP_125, NULL, F_INFER | F_UNSET, M_INF,
	 SC(rate), N_("request rate"),
	 N_("requests/s arriving at one replica, Poisson, as MLPerf's Server and bench_serving --request-rate send them "
	    "(0: none, `batch` users in a closed loop)")},
	/* a front end that holds the arrivals and sends them together (serve_dispatch.c): the MLPerf
	 * v4.1 AMD and Dell vLLM harnesses' batcher (closed/AMD/code/llama2-70b-99.9/VllmFp8/sync_sut.py
	 * batch_samples_loop: --batcher-threshold, --gpu-batch-size), Triton's dynamic batcher
	 * (max_queue_delay_microseconds, max_batch_size); each dispatch to the next replica in turn */
	{"dispatch_window", G_INFER, ENGINE_KNOB_REAL, ENGINE_UNIT_SECONDS, 0, 3600, 0, ENGINE_STEP_125, NULL,
	 F_INFER | F_UNSET, M_INF, SC(dispatch_window), N_("dispatch window"),
	 N_("the front end holds arriving requests and sends them together to the next replica in turn, each this many "
	    "seconds (MLPerf harness batchers, Triton's dynamic batcher max_queue_delay; 0: off, requests reach the "
	    "engine as they arrive); an open load (rate) only")},
	{"dispatch_batch", G_INFER, ENGINE_KNOB_INT, ENGINE_UNIT_COUNT, 0, 1e6, 0, ENGINE_STEP_POW2, NULL, F_INFER | F_UNSET,
	 M_INF, SC(dispatch_batch), N_("dispatch batch"),
	 N_("requests a dispatch holds at most: it is sent as soon as this many have gathered (the harness's "
	    "gpu_batch_size, Triton's max_batch_size; 0: no cap)")},
	/* disaggregated prefill and decode (serve_pd.c): SGLang's --disaggregation-mode prefill|decode, vLLM's
	 * KV connectors (NIXL, Mooncake), NVIDIA Dynamo; DistServe (Zhong et al., OSDI 2024) */
	{"prefill_replicas", G_INFER, ENGINE_KNOB_INT, ENGINE_UNIT_COUNT, 0, 1e6, 0, ENGINE_STEP_LINEAR, NULL, F_INFER, M_MEM | M_INF,
	 SC(prefill_replicas), N_("prefill replicas"),
	 N_("disaggregated serving (xPyD): replicas of tp × pp GPUs that only prefill and hand the KV to a decode replica "
	    "(0 with decode_replicas 0: aggregated); gpus = (x + y) × tp × pp, rate arrives at the whole group")},
	{"decode_replicas", G_INFER, ENGINE_KNOB_INT, ENGINE_UNIT_COUNT, 0, 1e6, 0, ENGINE_STEP_LINEAR, NULL, F_INFER, M_MEM | M_INF,
	 SC(decode_replicas), N_("decode replicas"),
	 N_("disaggregated serving (xPyD): replicas of tp × pp GPUs that only decode, no prefill chunk in their steps; "
	    "batch is a decode replica's users")},
	{"kv_transfer_bw", G_INFER, ENGINE_KNOB_REAL, ENGINE_UNIT_BYTES_PER_S, 0, 1e15, 0, ENGINE_STEP_125, NULL,
	 F_INFER | F_UNSET | ENGINE_KNOB_MIN_OPEN | ENGINE_KNOB_AUTO, M_INF, SC(kv_transfer_bw), N_("KV transfer bandwidth"),
	 N_("disaggregated serving: bytes/s a GPU sends its KV shard to the decode replica at (auto: NVLink when the group "
	    "fits a node, else the GPU's network, at NCCL's share of line rate)")},
	/* the prompts' lengths spread around `prompt` (serve_pct.c: a gamma law of that mean and CV, an
	 * assumption; MLPerf's OpenOrca set measures 0.77, tests/unit/serving_cases.h) */
	{"prompt_cv", G_INFER, ENGINE_KNOB_REAL, ENGINE_UNIT_NONE, 0, 10, 0, ENGINE_STEP_LINEAR, NULL, F_INFER, M_INF,
	 SC(prompt_cv), N_("prompt length CV"),
	 N_("the prompts' lengths' coefficient of variation, a gamma law around `prompt` (0: every prompt the mean; "
	    "MLPerf's OpenOrca set 0.77): spreads the TTFT percentiles, not the means")},
	/* prefix caching and speculative decoding (serve_batch.c, serve_spec.c) */
	{"prefix_hit", G_INFER, ENGINE_KNOB_REAL, ENGINE_UNIT_FRACTION, 0, 1, 0, ENGINE_STEP_LINEAR, NULL, F_INFER,
	 M_MEM | M_INF, SC(prefix_hit), N_("prefix cache hit"),
	 N_("the share of a prompt's tokens whose KV a shared prefix already holds (a system prompt): not prefilled, "
	    "its KV held once a replica")},
	{"speculative", G_INFER, ENGINE_KNOB_ENUM, ENGINE_UNIT_NONE, 0, 0, ENGINE_SPEC_NONE, ENGINE_STEP_CHOICE, ch_spec,
	 F_INFER, M_MEM | M_INF, SC(speculative), N_("speculative decoding"),
	 N_("the drafter: none, draft (a smaller model), eagle (one decoder layer on the target's features) or mtp "
	    "(the model's multi-token prediction module)")},
	{"spec_tokens", G_INFER, ENGINE_KNOB_INT, ENGINE_UNIT_COUNT, 1, 16, 3, ENGINE_STEP_LINEAR, NULL, F_INFER, M_MEM | M_INF,
	 SC(spec_tokens), N_("drafted tokens"), N_("k: tokens drafted a verification step (vLLM num_speculative_tokens)")},
	{"spec_accept", G_INFER, ENGINE_KNOB_REAL, ENGINE_UNIT_FRACTION, 0, 1, 0.7, ENGINE_STEP_LINEAR, NULL, F_INFER, M_INF,
	 SC(spec_accept), N_("acceptance rate"),
	 N_("α: the chance the target accepts a drafted token (an assumption: measure yours; DeepSeek-V3's MTP 0.85-0.9)")},
	{"spec_draft", G_INFER, ENGINE_KNOB_NAME, ENGINE_UNIT_NONE, 0, 0, 0, ENGINE_STEP_NONE, NULL, F_INFER, M_MEM | M_INF, 0,
	 N_("draft model"),
	 N_("speculative draft: a model preset id or file for the draft model (none: spec_draft_params' standard shape)")},
	{"spec_draft_params", G_INFER, ENGINE_KNOB_REAL, ENGINE_UNIT_COUNT, 1e7, 1e13, 1e9, ENGINE_STEP_125, NULL, F_INFER,
	 M_MEM | M_INF, SC(spec_draft_params), N_("draft model size"),
	 N_("speculative draft: the draft model's parameters, a standard dense shape of that size (e.g. 1B)")},
};

#define NKNOBS (sizeof knobs / sizeof knobs[0])
_Static_assert(NKNOBS <= sizeof(((struct engine_scenario *)0)->given) * 8, "one `given` bit per knob: widen it");

const struct engine_knob *engine_knobs(size_t *count)
{
	if (count != NULL)
		*count = NKNOBS;
	return knobs;
}
