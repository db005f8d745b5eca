/*
 * The MLPerf Inference v5.1 serving cases of test_serving_validation.c (AMD's vLLM runs,
 * Dell's and HPE's TensorRT-LLM runs): one table per submitter, each number with where it
 * comes from. Included by serving_cases.h alone, after the macros it shares.
 */
#ifndef NAPKIN_SERVING_CASES_V51_H
#define NAPKIN_SERVING_CASES_V51_H

/* MLPerf Inference v5.1 closed, AMD (github.com/ntuhpc/inference_results_v5.1, a copy of
 * mlcommons/inference_results_v5.1: closed/AMD/results/<system>/<benchmark>/<scenario>/
 * performance/run_1/mlperf_log_summary.txt; systems/<system>.json: vLLM 0.9.0.2.dev (ROCm)).
 * The layout and the engine's settings from closed/AMD/code/<benchmark>/harness_llm/models/
 * <model>/<scenario>_<card>.yaml: 8 replicas of TP 1 (tensor_parallel_size 1, device_count
 * 8), quantization fp8. Llama-2-70B: no kv_cache_dtype (vLLM's 16-bit KV cache), chunked
 * prefill off except MI325X interactive (VLLM_USE_V1 1, chunked prefill on, scheduler steps
 * 1); Mixtral: kv_cache_dtype fp8, chunked prefill off. Every run with chunked prefill off
 * sets num_scheduler_steps > 1, where napkin's vLLM (V0) prefills in steps of its own by
 * default (serve_engine.c), and the V1 run mixes, so no case needs mixed_prefill. Each yaml
 * states max_num_seqs, which every case carries.
 * The Llama-2 runs and the Mixtral server runs set enforce_eager True (no CUDA/HIP graphs), the
 * Mixtral offline runs False; napkin's step has no term for eager mode, so it reads them alike.
 * The Llama-2 runs but MI300X interactive also set AMD's own MLPerf scheduler
 * (VLLM_LLAMA2_MLPERF_SCHED, harness_llm/backends/vllm/vllm_scheduler.py), which napkin does
 * not model (below). Offline cases run max_num_seqs users.
 * Output tokens a request: completed tokens/s over samples/s (Llama-2 301: 27803.9 / 92.1544,
 * 24593.77 / 81.68, 8840.42 / 29.41; Mixtral 144: 53017.3 / 369.007, 143: 68781.4 / 479.775).
 * The interactive runs (llama2-70b-interactive: TTFT 450 ms and TPOT 40 ms at the 99th
 * percentile) give TTFT and TPOT at the scheduled rate; their throughput within those limits
 * is not a case (the test's SLA is the server's 2 s and 200 ms). */
#define AMD51 "MLPerf Inference v5.1 closed, AMD "
#define V51KN(steps, gmu, mbt) "scheduler_steps=" steps ";gpu_memory_utilization=" gmu ";max_batched_tokens=" mbt
/* What these runs set that napkin cannot: the Llama-2 runs but MI300X interactive set
 * VLLM_LLAMA2_MLPERF_SCHED: AMD's vLLM build then holds prefills until the decode batch falls
 * to a target (VLLM_LLAMA2_MLPERF_{MIN,MAX}_TARGET_DECODE_BATCH, e.g. 1280-1536 offline on
 * MI300X), a schedule napkin does not model and whose code is not in the submission. Those
 * cases are printed and counted apart. The max_num_seqs of each run (600-5000, with
 * num_scheduler_steps > 1 vLLM's V0 engine, whose own default napkin's vLLM takes, 256 a
 * step, serve_engine.c) is its yaml's, a knob of each case: the cases without AMD's
 * scheduler (MI300X interactive, Mixtral) are modelled. */
#define AMDSCHED "AMD's MLPerf scheduler (VLLM_LLAMA2_MLPERF_SCHED)"
#define A51(m, lab, model, gpu, out, ld, x, reps, pub, src, kn, why) \
	{m, lab, model, gpu, "1", "fp8", MLPERF_PROMPT, out, ld, x, reps, pub, AMD51 src, "vllm", kn, why}
/* the same for mixtral-8x7b, whose set's prompts are its own (MIXTRAL_PROMPT) */
#define A51M(m, lab, gpu, out, ld, x, reps, pub, src, kn, why) \
	{m, lab, "mixtral-8x7b", gpu, "1", "fp8", MIXTRAL_PROMPT, out, ld, x, reps, pub, AMD51 src, "vllm", kn, why}
static const struct vcase amd51[] = {
	/* 8xMI300X_2xEPYC_9575F, llama2-70b-99 (closed/AMD/code/llama2-70b-99/harness_llm/models/
	 * llama2-70b/): offline_mi300x.yaml: steps 11, 0.98, 40960, max_num_seqs 1792;
	 * server_mi300x.yaml: steps 9, 1.0, 40960, max_num_seqs 650; interactive_mi300x.yaml:
	 * steps 8, 1.0, 40960, max_num_seqs 600 (no MLPerf scheduler: modelled) */
	A51(M_TPUT, "70B 8xMI300X v5.1 offline tok/s", "llama-2-70b", "mi300x", "301", L_BATCH, 1792, 8, 27803.9,
	    "8xMI300X llama2-70b-99 Offline", V51KN("11", "0.98", "40960") ";max_num_seqs=1792", AMDSCHED),
	A51(M_TTFT, "70B 8xMI300X v5.1 83.9 req/s TTFT", "llama-2-70b", "mi300x", "301", L_RATE, 83.90 / 8, 8, 918.5,
	    "8xMI300X llama2-70b-99 Server", V51KN("9", "1.0", "40960") ";max_num_seqs=650", AMDSCHED),
	A51(M_ITL, "70B 8xMI300X v5.1 83.9 req/s TPOT", "llama-2-70b", "mi300x", "301", L_RATE, 83.90 / 8, 8, 144.6,
	    "8xMI300X llama2-70b-99 Server", V51KN("9", "1.0", "40960") ";max_num_seqs=650", AMDSCHED),
	A51(M_TPUT, "70B 8xMI300X v5.1 server tok/s", "llama-2-70b", "mi300x", "301", L_SLA, 0, 8, 24593.77,
	    "8xMI300X llama2-70b-99 Server", V51KN("9", "1.0", "40960") ";max_num_seqs=650", AMDSCHED),
	A51(M_TTFT, "70B 8xMI300X interactive TTFT", "llama-2-70b", "mi300x", "301", L_RATE, 29.62 / 8, 8, 201.3,
	    "8xMI300X llama2-70b-99 Interactive", V51KN("8", "1.0", "40960") ";max_num_seqs=600", NULL),
	A51(M_ITL, "70B 8xMI300X interactive TPOT", "llama-2-70b", "mi300x", "301", L_RATE, 29.62 / 8, 8, 32.1,
	    "8xMI300X llama2-70b-99 Interactive", V51KN("8", "1.0", "40960") ";max_num_seqs=600", NULL),
	/* 8xMI325X_2xEPYC_9575F_1 (offline, server) and _2 (interactive); offline_mi325x.yaml:
	 * steps 7, 0.98, 65536, max_num_seqs 2700; server_mi325x.yaml: steps 9, 1.0, 40960,
	 * max_num_seqs 1024; interactive_mi325x.yaml: V1, steps 1, 1.0, 43008, chunked prefill,
	 * max_num_seqs 3840 */
	A51(M_TPUT, "70B 8xMI325X v5.1 offline tok/s", "llama-2-70b", "mi325x", "301", L_BATCH, 2700, 8, 34520.4,
	    "8xMI325X_1 llama2-70b-99 Offline", V51KN("7", "0.98", "65536") ";max_num_seqs=2700", AMDSCHED),
	A51(M_TTFT, "70B 8xMI325X 109.5 req/s TTFT", "llama-2-70b", "mi325x", "301", L_RATE, 109.52 / 8, 8, 883.9,
	    "8xMI325X_1 llama2-70b-99 Server", V51KN("9", "1.0", "40960") ";max_num_seqs=1024", AMDSCHED),
	A51(M_ITL, "70B 8xMI325X 109.5 req/s TPOT", "llama-2-70b", "mi325x", "301", L_RATE, 109.52 / 8, 8, 148.7,
	    "8xMI325X_1 llama2-70b-99 Server", V51KN("9", "1.0", "40960") ";max_num_seqs=1024", AMDSCHED),
	A51(M_TPUT, "70B 8xMI325X v5.1 server tok/s", "llama-2-70b", "mi325x", "301", L_SLA, 0, 8, 32027.57,
	    "8xMI325X_1 llama2-70b-99 Server", V51KN("9", "1.0", "40960") ";max_num_seqs=1024", AMDSCHED),
	A51(M_TTFT, "70B 8xMI325X interactive TTFT", "llama-2-70b", "mi325x", "301", L_RATE, 61.89 / 8, 8, 117.9,
	    "8xMI325X_2 llama2-70b-99 Interactive", V51KN("1", "1.0", "43008") ";max_num_seqs=3840", AMDSCHED),
	A51(M_ITL, "70B 8xMI325X interactive TPOT", "llama-2-70b", "mi325x", "301", L_RATE, 61.89 / 8, 8, 35.3,
	    "8xMI325X_2 llama2-70b-99 Interactive", V51KN("1", "1.0", "43008") ";max_num_seqs=3840", AMDSCHED),
	/* mixtral-8x7b (closed/AMD/code/mixtral-8x7b/harness_llm/models/mixtral-8x7b/);
	 * offline_mi300x.yaml: steps 9, 0.97, 51200, max_num_seqs 5000; server_mi300x.yaml: steps
	 * 8, 0.99, 32000, max_num_seqs 4096; offline_mi325x.yaml: steps 13, 0.96, 51200,
	 * max_num_seqs 4736; server_mi325x.yaml: steps 10, 0.96, 32000, max_num_seqs 2560; all
	 * kv_cache_dtype fp8, chunked prefill off (modelled as napkin's vLLM runs it) */
#define MX300S V51KN("8", "0.99", "32000") ";" FP8KV ";max_num_seqs=4096" /* server_mi300x.yaml */
#define MX325S V51KN("10", "0.96", "32000") ";" FP8KV ";max_num_seqs=2560" /* server_mi325x.yaml */
	A51M(M_TPUT, "Mixtral 8xMI300X offline tok/s", "mi300x", "144", L_BATCH, 5000, 8, 53017.3,
	    "8xMI300X mixtral-8x7b Offline", V51KN("9", "0.97", "51200") ";" FP8KV ";max_num_seqs=5000", NULL),
	A51M(M_TTFT, "Mixtral 8xMI300X 334.5 req/s TTFT", "mi300x", "144", L_RATE, 334.53 / 8, 8, 762.4,
	    "8xMI300X mixtral-8x7b Server", MX300S, NULL),
	A51M(M_ITL, "Mixtral 8xMI300X 334.5 req/s TPOT", "mi300x", "144", L_RATE, 334.53 / 8, 8, 123.6,
	    "8xMI300X mixtral-8x7b Server", MX300S, NULL),
	A51M(M_TPUT, "Mixtral 8xMI300X server tok/s", "mi300x", "144", L_SLA, 0, 8, 47804.28,
	    "8xMI300X mixtral-8x7b Server", MX300S, NULL),
	A51M(M_TPUT, "Mixtral 8xMI325X offline tok/s", "mi325x", "143", L_BATCH, 4736, 8, 68781.4,
	    "8xMI325X_1 mixtral-8x7b Offline", V51KN("13", "0.96", "51200") ";" FP8KV ";max_num_seqs=4736", NULL),
	A51M(M_TTFT, "Mixtral 8xMI325X 420 req/s TTFT", "mi325x", "143", L_RATE, 420.16 / 8, 8, 989.3,
	    "8xMI325X_1 mixtral-8x7b Server", MX325S, NULL),
	A51M(M_ITL, "Mixtral 8xMI325X 420 req/s TPOT", "mi325x", "143", L_RATE, 420.16 / 8, 8, 147.0,
	    "8xMI325X_1 mixtral-8x7b Server", MX325S, NULL),
	A51M(M_TPUT, "Mixtral 8xMI325X server tok/s", "mi325x", "143", L_SLA, 0, 8, 59783.64,
	    "8xMI325X_1 mixtral-8x7b Server", MX325S, NULL),
};

/* MLPerf Inference v5.1 closed, Dell, NVIDIA's TensorRT-LLM harness on 8 H200 (the same copy;
 * results/{XE9680_H200_SXM_141GBx8_TRT,XE7745_H200_NVL_141GBx8_TRT}/llama2-70b-99/{Offline,
 * Server,Interactive}/performance/run_1/mlperf_log_summary.txt). The settings from closed/Dell/
 * configs/<system>/<scenario>/llama2-70b.py (the 99 accuracy target's block): tensor_parallelism
 * 1 (8 replicas), precision fp8, trtllm_checkpoint_flags kv_cache_dtype fp8,
 * kvcache_free_gpu_mem_frac 0.9, chunked context; max_num_tokens 1536 and gpu_batch_size 2048
 * offline and server, max_num_tokens 256 and gpu_batch_size 512 (SXM) or 256 (NVL) interactive
 * (each case's max_batched_tokens and max_num_seqs).
 * 292 output tokens a request (35316.7 / 120.831; 31267.4 / 106.977). The interactive runs
 * give TTFT and TPOT at the scheduled rate (their limits, 450 ms and 40 ms, are not the test's
 * SLA). The table also holds HPE's RTX PRO 6000 runs of the same harness (below). */
#define DELL51 "MLPerf Inference v5.1 closed, Dell "
#define TRT51(tokens) FP8KV ";max_batched_tokens=" tokens
#define D51(m, lab, gpu, ld, x, pub, src, tokens, seqs) \
	{m, lab, "llama-2-70b", gpu, "1", "fp8", MLPERF_PROMPT, "292", ld, x, 8, pub, DELL51 src, NULL, \
	 TRT51(tokens) ";max_num_seqs=" seqs, NULL}
static const struct vcase dell51[] = {
	D51(M_TPUT, "70B H200 v5.1 offline tok/s", "h200-sxm", L_BATCH, 2048, 35316.7,
	    "XE9680_H200_SXM_141GBx8_TRT llama2-70b-99 Offline", "1536", "2048"),
	D51(M_TTFT, "70B H200 v5.1 114 req/s TTFT", "h200-sxm", L_RATE, 114.23 / 8, 394.7,
	    "XE9680_H200_SXM_141GBx8_TRT llama2-70b-99 Server", "1536", "2048"),
	D51(M_ITL, "70B H200 v5.1 114 req/s TPOT", "h200-sxm", L_RATE, 114.23 / 8, 169.1,
	    "XE9680_H200_SXM_141GBx8_TRT llama2-70b-99 Server", "1536", "2048"),
	D51(M_TPUT, "70B H200 v5.1 server tok/s", "h200-sxm", L_SLA, 0, 33244.25,
	    "XE9680_H200_SXM_141GBx8_TRT llama2-70b-99 Server", "1536", "2048"),
	D51(M_TTFT, "70B H200 interactive 75 req/s TTFT", "h200-sxm", L_RATE, 75.19 / 8, 124.9,
	    "XE9680_H200_SXM_141GBx8_TRT llama2-70b-99 Interactive", "256", "512"),
	D51(M_ITL, "70B H200 interactive 75 req/s TPOT", "h200-sxm", L_RATE, 75.19 / 8, 37.2,
	    "XE9680_H200_SXM_141GBx8_TRT llama2-70b-99 Interactive", "256", "512"),
	D51(M_TPUT, "70B H200NVL v5.1 offline tok/s", "h200-nvl", L_BATCH, 2048, 31267.4,
	    "XE7745_H200_NVL_141GBx8_TRT llama2-70b-99 Offline", "1536", "2048"),
	D51(M_TTFT, "70B H200NVL v5.1 100 req/s TTFT", "h200-nvl", L_RATE, 99.94 / 8, 373.6,
	    "XE7745_H200_NVL_141GBx8_TRT llama2-70b-99 Server", "1536", "2048"),
	D51(M_ITL, "70B H200NVL v5.1 100 req/s TPOT", "h200-nvl", L_RATE, 99.94 / 8, 174.3,
	    "XE7745_H200_NVL_141GBx8_TRT llama2-70b-99 Server", "1536", "2048"),
	D51(M_TPUT, "70B H200NVL v5.1 server tok/s", "h200-nvl", L_SLA, 0, 29070.31,
	    "XE7745_H200_NVL_141GBx8_TRT llama2-70b-99 Server", "1536", "2048"),
	D51(M_TTFT, "70B H200NVL interactive TTFT", "h200-nvl", L_RATE, 56.27 / 8, 106.3,
	    "XE7745_H200_NVL_141GBx8_TRT llama2-70b-99 Interactive", "256", "256"),
	D51(M_ITL, "70B H200NVL interactive TPOT", "h200-nvl", L_RATE, 56.27 / 8, 37.4,
	    "XE7745_H200_NVL_141GBx8_TRT llama2-70b-99 Interactive", "256", "256"),
	/* HPE, the same harness on 8 RTX PRO 6000 Blackwell Server Edition (PCIe, 96 GB, 600 W;
	 * systems/HPE_PROLIANT_DL380A_RTX_PRO_6000_PCIE_96GBx8_TRT_TRT.json: TensorRT 10.11, CUDA
	 * 12.9, accelerator_interconnect "PCIe Gen5 Switch"), results/
	 * HPE_PROLIANT_DL380A_RTX_PRO_6000_PCIE_96GBx8_TRT_TRT/<benchmark>/{Offline,Server}/
	 * performance/run_1/mlperf_log_summary.txt; settings from configs/
	 * HPE_PROLIANT_DL380A_RTX_PRO_6000_PCIE_96GBx8_TRT/<scenario>/<model>.py. Llama-2-70B
	 * (llama2-70b.py, the 99 and 99.9 targets' one block; the 99.9 runs print the same figures
	 * within 0.1%, so the system counts once): tensor_parallelism 1 (8 replicas), precision
	 * 'fp4' (NVFP4 weights and activations on Blackwell's FP4 tensor cores; Server sets
	 * gemm_plugin 'fp4'), kv_cache_dtype fp8, gpu_batch_size 2048, max_num_tokens 2048,
	 * kvcache_free_gpu_mem_frac 0.90 (TensorRT-LLM's default, serve_engine.c), chunked context.
	 * napkin takes W4A4 as matmul_dtype fp4 (what engine_adapt picks for nvfp4 weights on a card
	 * with an FP4 peak, adapt.c adapt_matmul_dtype; the test's knobs skip engine_adapt, so the
	 * case names it): the FP4 peak at the 16-bit GEMM curve's fraction (gemm.c has no FP4
	 * measurement). 273 output tokens a request (26205.8 / 96.1302 = 272.6; fewer than the FP8
	 * runs' 290-292). The llama2-70b Interactive config is in the files, its results are not:
	 * no case. */
#define HPE51 "MLPerf Inference v5.1 closed, HPE DL380A_RTX_PRO_6000_PCIE_96GBx8_TRT "
#define RTXFP4 FP8KV ";max_batched_tokens=2048;matmul_dtype=fp4"
#define H51(m, lab, ld, x, pub, src) \
	{m, lab, "llama-2-70b", "rtx-pro-6000-server", "1", "nvfp4", MLPERF_PROMPT, "273", ld, x, 8, pub, HPE51 src, NULL, \
	 RTXFP4, NULL}
	H51(M_TPUT, "70B RTX6000 nvfp4 offline tok/s", L_BATCH, 2048, 26205.8, "llama2-70b-99 Offline"),
	H51(M_TTFT, "70B RTX6000 nvfp4 96 req/s TTFT", L_RATE, 96.11 / 8, 343.4, "llama2-70b-99 Server"),
	H51(M_ITL, "70B RTX6000 nvfp4 96 req/s TPOT", L_RATE, 96.11 / 8, 176.7, "llama2-70b-99 Server"),
	H51(M_TPUT, "70B RTX6000 nvfp4 server tok/s", L_SLA, 0, 26005.90, "llama2-70b-99 Server"),
	/* Mixtral (mixtral-8x7b.py): tensor_parallelism 1 (8 replicas), precision 'fp8' with
	 * trtllm_checkpoint_flags effective_bits 8.75 (code/mixtral-8x7b/modelopt/main.py: ModelOpt's
	 * auto_quantize, --fp4 false, "fp8+fp16": most linears FP8, some left in 16 bits, which
	 * napkin runs as all FP8), kv_cache_dtype fp8, gpu_batch_size 2048,
	 * kvcache_free_gpu_mem_frac 0.98; max_num_tokens 9216 offline (chunked context), 8192
	 * server (enable_chunked_context not set). 144 output tokens a request (32738.8 /
	 * 226.575 = 144.5) */
#define M51(m, lab, ld, x, pub, src, tokens) \
	{m, lab, "mixtral-8x7b", "rtx-pro-6000-server", "1", "fp8", MIXTRAL_PROMPT, "144", ld, x, 8, pub, HPE51 src, NULL, \
	 TRT51(tokens) ";gpu_memory_utilization=0.98", NULL}
	M51(M_TPUT, "Mixtral RTX6000 offline tok/s", L_BATCH, 2048, 32738.8, "mixtral-8x7b Offline", "9216"),
	M51(M_TTFT, "Mixtral RTX6000 208 req/s TTFT", L_RATE, 207.73 / 8, 286.1, "mixtral-8x7b Server", "8192"),
	M51(M_ITL, "Mixtral RTX6000 208 req/s TPOT", L_RATE, 207.73 / 8, 146.3, "mixtral-8x7b Server", "8192"),
	M51(M_TPUT, "Mixtral RTX6000 server tok/s", L_SLA, 0, 30134.33, "mixtral-8x7b Server", "8192"),
};

#endif
