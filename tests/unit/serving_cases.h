/*
 * The published serving cases of test_serving_validation.c (docs/serving-validation.md): the
 * case structure and one table per source, each number with where it comes from. Included by
 * that test alone.
 */
#ifndef NAPKIN_SERVING_CASES_H
#define NAPKIN_SERVING_CASES_H

#include <stddef.h>

/* The OpenOrca set's mean prompt: 5,463,976 input tokens over its 24,576 samples = 222.33
 * (min 48, max 1021, median 152, 5th/95th percentile 73/614), the tok_input_length column of
 * MLCommons' open_orca_gpt4_tokenized_llama.sampled_24576.pkl.gz as two third-party files
 * read it: github.com/FlashLab-MBZUAI/HBFSim@96cf1b37cd60e8fabb77967a591cf60edb8d1f23
 * validation/calibration/h100-llama2-70b-calibration-protocol.json ("input_tokens": {"min":
 * 48, "max": 1021, "sum": 5463976}, "rows": 24576, pinned to the file's MD5 c247a315...)
 * and github.com/openshift-psap/performance-dashboard@7cd1065d1e2c53ee745cbda08e2a8f13a42c93bb
 * mlperf-data/summaries/llama2-70b-99.csv (one input_length per sample; the same sum) */
#define MLPERF_PROMPT "222"
/* Their spread, from the same llama2-70b-99.csv (24,576 input_length values): standard
 * deviation 171.50 tokens (population) over the mean 222.33, a coefficient of variation of
 * 0.7714 (99th percentile 791 tokens). The knob prompt_cv (serve_pct.c) */
#define MLPERF_PROMPT_CV "0.7714"
#define MLPERF_OUTPUT "290" /* v4.1: 24524.9 tokens/s ÷ 84.4792 samples/s (H100 offline summary) */
/* NVIDIA's v4.1 harness quantizes Llama-2-70B with an FP8 KV cache (closed/NVIDIA/code/
 * llama2-70b-99/tensorrt/README.md: quantize.py --qformat fp8 --kv_cache_dtype fp8), and
 * Mixtral too (code/mixtral-8x7b/tensorrt/builder.py: --kv_cache_dtype=fp8); v4.0's code
 * (code/llama2-70b/tensorrt/builder.py) takes a prebuilt checkpoint whose recipe the files
 * do not give, so its cases keep the 16-bit KV cache */
#define FP8KV "kv_dtype=fp8-e4m3"
/* TensorRT-LLM's max_num_tokens in the v4.1 Llama-2-70B runs: closed/<submitter>/configs/
 * llama2-70b/__init__.py, GPUBaseConfig (max_num_tokens = 4096; NVIDIA, Fujitsu, ASUSTeK, HPE
 * and Lenovo alike, no system's class sets another) */
#define TRT41 FP8KV ";max_batched_tokens=4096"
#define MLPERF40_OUTPUT "293" /* v4.0: 27738.3 tokens/s ÷ 94.6223 samples/s (H200 offline summary) */

enum metric { M_E2E, M_TTFT, M_ITL, M_TPUT, M_CAP, M_COUNT };

static const char *const metric_name[M_COUNT] = {"request latency", "TTFT", "ITL/TPOT", "throughput", "capacity"};

/* How a case is measured: a fixed concurrency, a request rate (requests/s a replica), or
 * the SLA throughput within MLPerf's server limits. */
enum load { L_BATCH, L_RATE, L_SLA };

struct vcase {
	enum metric metric;
	const char *label, *model, *gpu, *tp, *weights, *prompt, *generate;
	enum load load;
	double batch_or_rate; /* users, or requests/s a replica */
	double replicas;      /* throughput cases: replicas in the published system */
	double published;     /* ms, output tokens/s of the published system, or KV tokens a replica holds */
	const char *source;
	const char *engine;   /* NULL: trtllm */
	const char *knobs;    /* NULL, or "key=value;key=value" set after the case's own */
	const char *apart;    /* NULL, or what the case runs that napkin does not model: printed
			       * and counted apart from the modelled median */
};
/* knobs "itl=median": an ITL case published as the median gap (serving.itl_median_seconds),
 * not the mean (TPOT) */
#define MEDIAN_ITL "itl=median"

struct nemo_row {
	const char *batch, *tp;
	double a100_ms, h100_ms;
};

static const struct nemo_row rows7b[] = {
	{"1", "1", 234.0, 153.8}, {"2", "1", 249.6, 160.8}, {"4", "1", 272.6, 174.8}, {"8", "1", 329.5, 199.2},
	{"1", "2", 171.7, 128.6}, {"2", "2", 180.3, 132.0}, {"4", "2", 202.9, 137.9}, {"8", "2", 237.6, 156.2},
	{"1", "4", 143.7, 107.4}, {"2", "4", 149.9, 114.0}, {"4", "4", 165.2, 120.4}, {"8", "4", 196.4, 134.6},
	{"1", "8", 136.5, 97.6},  {"2", "8", 143.3, 109.1}, {"4", "8", 158.6, 116.2}, {"8", "8", 181.9, 129.1},
};

/* as the page prints them; every one is faster than reading the 16-bit weights once a
 * generated token at the datasheet bandwidth allows (13B TP1 on an A100: 26 GB x 20 /
 * 2.04 TB/s = 255 ms, published 142.5 ms; the 7B rows on the same page need 134 ms and
 * publish 234), so the rows cannot be 16-bit runs: the test prints them, marks them
 * excluded and counts none of them */
static const struct nemo_row rows13b[] = {
	{"1", "1", 142.5, 86.4}, {"2", "1", 163.3, 94.2}, {"4", "1", 198.5, 117.8}, {"8", "1", 282.6, 146.7},
	{"1", "2", 100.4, 69.7}, {"2", "2", 112.2, 73.7}, {"4", "2", 320.0, 88.3},  {"8", "2", 188.6, 109.8},
	{"1", "4", 207.8, 61.4}, {"2", "4", 84.6, 62.0},  {"4", "4", 102.3, 72.0},
};

#define MLPERF "MLPerf Inference v4.1 closed, NVIDIA"
#define MLPERF40 "MLPerf Inference v4.0 closed, NVIDIA"
static const struct vcase mlperf[] = {
	/* v4.1 (closed/NVIDIA/configs/llama2-70b/{Offline,Server}/__init__.py): H100_SXM_80GB_TP2x1
	 * (the TP2x4 class inherits it) gpu_batch_size 896 offline, 1024 server; H200_SXM_141GBx1
	 * 806 offline, 896 server: a server case's max_num_seqs. max_num_tokens 4096 (TRT41) */
	{M_TPUT, "70B H100 tp2 offline tok/s", "llama-2-70b", "h100-sxm", "2", "fp8", MLPERF_PROMPT, MLPERF_OUTPUT,
	 L_BATCH, 896, 4, 24524.9, MLPERF " DGX-H100 llama2-70b-99.9 Offline", NULL, TRT41, NULL},
	/* H200-SXM: 291 output tokens a request (31302.7 / 107.477; the server run 29228.22 /
	 * 100.35), not the H100 run's 290 */
	{M_TPUT, "70B H200 tp1 offline tok/s", "llama-2-70b", "h200-sxm", "1", "fp8", MLPERF_PROMPT, "291",
	 L_BATCH, 806, 8, 31302.7, MLPERF " H200-SXM-141GBx8 llama2-70b-99 Offline", NULL, TRT41, NULL},
	{M_TTFT, "70B H100 tp2 75 req/s TTFT ms", "llama-2-70b", "h100-sxm", "2", "fp8", MLPERF_PROMPT, MLPERF_OUTPUT,
	 L_RATE, 75.10 / 4, 4, 275.9, MLPERF " DGX-H100 llama2-70b-99.9 Server", NULL, TRT41 ";max_num_seqs=1024", NULL},
	{M_ITL, "70B H100 tp2 75 req/s TPOT ms", "llama-2-70b", "h100-sxm", "2", "fp8", MLPERF_PROMPT, MLPERF_OUTPUT,
	 L_RATE, 75.10 / 4, 4, 155.0, MLPERF " DGX-H100 llama2-70b-99.9 Server", NULL, TRT41 ";max_num_seqs=1024", NULL},
	{M_TTFT, "70B H200 tp1 101 req/s TTFT ms", "llama-2-70b", "h200-sxm", "1", "fp8", MLPERF_PROMPT, "291",
	 L_RATE, 101.25 / 8, 8, 198.3, MLPERF " H200-SXM-141GBx8 llama2-70b-99 Server", NULL, TRT41 ";max_num_seqs=896", NULL},
	{M_ITL, "70B H200 tp1 101 req/s TPOT ms", "llama-2-70b", "h200-sxm", "1", "fp8", MLPERF_PROMPT, "291",
	 L_RATE, 101.25 / 8, 8, 123.3, MLPERF " H200-SXM-141GBx8 llama2-70b-99 Server", NULL, TRT41 ";max_num_seqs=896", NULL},
	{M_TPUT, "70B H100 tp2 server tok/s", "llama-2-70b", "h100-sxm", "2", "fp8", MLPERF_PROMPT, MLPERF_OUTPUT, L_SLA,
	 0, 4, 21605.79, MLPERF " DGX-H100 llama2-70b-99.9 Server", NULL, TRT41 ";max_num_seqs=1024", NULL},
	{M_TPUT, "70B H200 tp1 server tok/s", "llama-2-70b", "h200-sxm", "1", "fp8", MLPERF_PROMPT, "291", L_SLA,
	 0, 8, 29228.22, MLPERF " H200-SXM-141GBx8 llama2-70b-99 Server", NULL, TRT41 ";max_num_seqs=896", NULL},
	/* v4.0 (github.com/mlcommons/inference_results_v4.0, the same paths; configs: H200-SXM
	 * TP1 x8, gpu_batch_size 806 offline, 896 server; the server's is a server case's
	 * max_num_seqs, as in v4.1: configs/llama2-70b/Server/__init__.py, H200_SXM_141GBx1 896,
	 * H100_SXM_80GB_TP2x1 1024) */
	{M_TPUT, "70B H200 tp1 offline tok/s v4.0", "llama-2-70b", "h200-sxm", "1", "fp8", MLPERF_PROMPT,
	 MLPERF40_OUTPUT, L_BATCH, 806, 8, 27738.3, MLPERF40 " H200-SXM-141GBx8 llama2-70b-99.9 Offline", NULL, NULL, NULL},
	{M_TTFT, "70B H200 tp1 91 req/s TTFT v4.0", "llama-2-70b", "h200-sxm", "1", "fp8", MLPERF_PROMPT, MLPERF40_OUTPUT,
	 L_RATE, 91.24 / 8, 8, 412.9, MLPERF40 " H200-SXM-141GBx8 llama2-70b-99.9 Server", NULL, "max_num_seqs=896", NULL},
	{M_ITL, "70B H200 tp1 91 req/s TPOT v4.0", "llama-2-70b", "h200-sxm", "1", "fp8", MLPERF_PROMPT, MLPERF40_OUTPUT,
	 L_RATE, 91.24 / 8, 8, 164.9, MLPERF40 " H200-SXM-141GBx8 llama2-70b-99.9 Server", NULL, "max_num_seqs=896", NULL},
	{M_TPUT, "70B H200 tp1 server tok/s v4.0", "llama-2-70b", "h200-sxm", "1", "fp8", MLPERF_PROMPT, MLPERF40_OUTPUT,
	 L_SLA, 0, 8, 26485.43, MLPERF40 " H200-SXM-141GBx8 llama2-70b-99.9 Server", NULL, "max_num_seqs=896", NULL},
	/* v4.0 DGX-H100 (configs/llama2-70b/Offline/__init__.py, H100_SXM_80GB_TP2x4: TP 2 x 4
	 * replicas, gpu_batch_size 896, use_fp8); 292 output tokens a request (21805.8 / 74.699) */
	{M_TPUT, "70B H100 tp2 offline tok/s v4.0", "llama-2-70b", "h100-sxm", "2", "fp8", MLPERF_PROMPT, "292",
	 L_BATCH, 896, 4, 21805.8, MLPERF40 " DGX-H100 llama2-70b-99.9 Offline", NULL, NULL, NULL},
	{M_TTFT, "70B H100 tp2 71 req/s TTFT v4.0", "llama-2-70b", "h100-sxm", "2", "fp8", MLPERF_PROMPT, "292",
	 L_RATE, 70.98 / 4, 4, 381.6, MLPERF40 " DGX-H100 llama2-70b-99.9 Server", NULL, "max_num_seqs=1024", NULL},
	{M_ITL, "70B H100 tp2 71 req/s TPOT v4.0", "llama-2-70b", "h100-sxm", "2", "fp8", MLPERF_PROMPT, "292",
	 L_RATE, 70.98 / 4, 4, 136.8, MLPERF40 " DGX-H100 llama2-70b-99.9 Server", NULL, "max_num_seqs=1024", NULL},
	{M_TPUT, "70B H100 tp2 server tok/s v4.0", "llama-2-70b", "h100-sxm", "2", "fp8", MLPERF_PROMPT, "292",
	 L_SLA, 0, 4, 20556.40, MLPERF40 " DGX-H100 llama2-70b-99.9 Server", NULL, "max_num_seqs=1024", NULL},
};

/* MLPerf Inference v4.1 closed, AMD, Llama-2-70B on one MI300X (the same repository,
 * closed/AMD/results/1xMI300X_2xEPYC-9374F/llama2-70b-99.9/{Offline,Server}/performance/run_1/
 * mlperf_log_summary.txt; the layout from closed/AMD/code/llama2-70b-99.9/test_VllmFp8/: vLLM,
 * TP 1, FP8 weights and activations (quark wfp8_afp8), --kv-cache-dtype fp8). Output tokens a
 * request: 3062.72 tokens/s / 10.4445 samples/s = 293. The engine's settings are in the
 * harness (closed/AMD/code/llama2-70b-99.9/VllmFp8/): offline, mainVllmFp8_Offline.py's
 * DefaultEngineInput gives max_num_seqs 2048, max_num_batched_tokens 65536,
 * gpu_memory_utilization 0.97 and enable_chunked_prefill False, and
 * test_VllmFp8/test_VllmFp8_Offline_perf.sh passes --gpu-memory-utilization 0.99; the server
 * (run_tests_Server.sh runs test_VllmFp8_SyncServer_perf.sh) mainVllmFp8_SyncServer.py's:
 * max_num_seqs 768, max_num_batched_tokens 65536, gpu_memory_utilization 0.99,
 * enable_chunked_prefill left at vLLM's default (its line commented out), which V0 turns on
 * only for a max_model_len above 32K (vllm/engine/arg_utils.py): off at the harness's 2048.
 * The offline case runs the harness's limit (batch 2048, max_num_seqs holds it). Chunked
 * prefill off, vLLM's V0 scheduler runs the waiting prompts whole in steps of their own, the
 * decodes paused: mixed_prefill=off in every AMD and Dell v4.1 case (AMD_KNOBS). With a
 * budget of 65536 tokens every prompt fits whole in a step. */
#define AMD41 "MLPerf Inference v4.1 closed, AMD 1xMI300X vLLM llama2-70b-99.9"
#define AMD8 "MLPerf Inference v4.1 closed, AMD 8xMI300X vLLM llama2-70b-99"
#define AMD_KNOBS "kv_dtype=fp8-e4m3;mixed_prefill=off"
#define AMD41_OFFLINE AMD_KNOBS ";max_num_seqs=2048;max_batched_tokens=65536;gpu_memory_utilization=0.99"
#define AMD41_SERVER AMD_KNOBS ";max_num_seqs=768;max_batched_tokens=65536;gpu_memory_utilization=0.99"
/* Dell's server runs mainVllmFp8_AsyncServer.py: gpu_memory_utilization 0.97 */
#define DELL41_SERVER AMD_KNOBS ";max_num_seqs=768;max_batched_tokens=65536;gpu_memory_utilization=0.97"
/* The harness's batcher (napkin's dispatch_window and dispatch_batch, serve_dispatch.c): the
 * Server runs hold LoadGen's queries and send them to the engines together. AMD's
 * (closed/AMD/code/llama2-70b-99{,.9}/VllmFp8/sync_sut.py, batch_samples_loop, lines 142-163:
 * a batch leaves once gpu_batch_size queries have gathered or batcher_threshold seconds have
 * passed since the last send; send_samples, lines 136-138, puts it on the next engine's queue,
 * next_device_id, lines 264-267, round robin over the DP engines) runs with
 * mainVllmFp8_SyncServer.py's defaults, --batcher-threshold 0.3 and --gpu-batch-size 96 (lines
 * 63-64), which test_VllmFp8/test_VllmFp8_SyncServer_perf.sh does not override, and turns it on
 * there (--enable-batcher, line 62). Dell's (closed/Dell/code/llama2-70b-99{,.9}/VllmFp8/
 * async_sut.py: batch_samples_loop line 139, send_samples line 132, next_device_id line 278)
 * the same loop with mainVllmFp8_AsyncServer.py's 0.4 s and 32 (lines 63-64), on in
 * test_VllmFp8_AsyncServer_perf.sh (line 62). All at commit 198fc467 of
 * mlcommons/inference_results_v4.1. The engines are the DP replicas (the scripts' DP=${DP:-8},
 * line 7: 8 on the 8-GPU systems, DP8 below, gpus=8 of TP 1, `rate` still a replica's; the
 * 1xMI300X system has one GPU, one engine). Settings from the harness, not fitted. */
#define AMD41_BATCHER ";dispatch_window=0.3;dispatch_batch=96"
#define DELL41_BATCHER ";dispatch_window=0.4;dispatch_batch=32"
#define DP8 ";gpus=8"
#define AMD41_SERVER1 AMD41_SERVER AMD41_BATCHER
#define AMD41_SERVER8 AMD41_SERVER AMD41_BATCHER DP8
#define DELL41_SERVER8 DELL41_SERVER DELL41_BATCHER DP8
#define RH41 "MLPerf Inference v4.1 closed, Red Hat 4xL40S vLLM 0.5.1 llama2-70b-99.9"
#define RH41KN "mixed_prefill=off"
static const struct vcase amd[] = {
	{M_TPUT, "70B MI300X vllm offline tok/s", "llama-2-70b", "mi300x", "1", "fp8", MLPERF_PROMPT, MLPERF40_OUTPUT,
	 L_BATCH, 2048, 1, 3062.72, AMD41 " Offline", "vllm", AMD41_OFFLINE, NULL},
	{M_TTFT, "70B MI300X vllm 8.6 req/s TTFT", "llama-2-70b", "mi300x", "1", "fp8", MLPERF_PROMPT, MLPERF40_OUTPUT,
	 L_RATE, 8.62, 1, 401.9, AMD41 " Server", "vllm", AMD41_SERVER1, NULL},
	{M_ITL, "70B MI300X vllm 8.6 req/s TPOT", "llama-2-70b", "mi300x", "1", "fp8", MLPERF_PROMPT, MLPERF40_OUTPUT,
	 L_RATE, 8.62, 1, 153.4, AMD41 " Server", "vllm", AMD41_SERVER1, NULL},
	{M_TPUT, "70B MI300X vllm server tok/s", "llama-2-70b", "mi300x", "1", "fp8", MLPERF_PROMPT, MLPERF40_OUTPUT,
	 L_SLA, 0, 1, 2520.27, AMD41 " Server", "vllm", AMD41_SERVER1, NULL},
	/* the same code on 8 MI300X (test_VllmFp8_*.sh: TP=1, DP=${DP:-8}: 8 replicas of TP 1),
	 * results/8xMI300X_2xEPYC-9374F and 8xMI300X_2xEPYC-TURIN (two host CPUs),
	 * llama2-70b-99/{Offline,Server}; 293 output tokens a request (23514.8 / 80.15) */
	{M_TPUT, "70B 8xMI300X vllm offline tok/s", "llama-2-70b", "mi300x", "1", "fp8", MLPERF_PROMPT, MLPERF40_OUTPUT,
	 L_BATCH, 2048, 8, 23514.8, AMD8 " (EPYC 9374F) Offline", "vllm", AMD41_OFFLINE, NULL},
	{M_TTFT, "70B 8xMI300X vllm 73.7 req/s TTFT", "llama-2-70b", "mi300x", "1", "fp8", MLPERF_PROMPT,
	 MLPERF40_OUTPUT, L_RATE, 73.66 / 8, 8, 1006.3, AMD8 " (EPYC 9374F) Server", "vllm", AMD41_SERVER8, NULL},
	{M_ITL, "70B 8xMI300X vllm 73.7 req/s TPOT", "llama-2-70b", "mi300x", "1", "fp8", MLPERF_PROMPT,
	 MLPERF40_OUTPUT, L_RATE, 73.66 / 8, 8, 143.1, AMD8 " (EPYC 9374F) Server", "vllm", AMD41_SERVER8, NULL},
	{M_TPUT, "70B 8xMI300X vllm server tok/s", "llama-2-70b", "mi300x", "1", "fp8", MLPERF_PROMPT, MLPERF40_OUTPUT,
	 L_SLA, 0, 8, 21028.23, AMD8 " (EPYC 9374F) Server", "vllm", AMD41_SERVER8, NULL},
	{M_TPUT, "70B 8xMI300X Turin offline tok/s", "llama-2-70b", "mi300x", "1", "fp8", MLPERF_PROMPT,
	 MLPERF40_OUTPUT, L_BATCH, 2048, 8, 24109.8, AMD8 " (EPYC Turin) Offline", "vllm", AMD41_OFFLINE, NULL},
	{M_TTFT, "70B 8xMI300X Turin 76 req/s TTFT", "llama-2-70b", "mi300x", "1", "fp8", MLPERF_PROMPT,
	 MLPERF40_OUTPUT, L_RATE, 76.17 / 8, 8, 1038.4, AMD8 " (EPYC Turin) Server", "vllm", AMD41_SERVER8, NULL},
	{M_ITL, "70B 8xMI300X Turin 76 req/s TPOT", "llama-2-70b", "mi300x", "1", "fp8", MLPERF_PROMPT,
	 MLPERF40_OUTPUT, L_RATE, 76.17 / 8, 8, 143.1, AMD8 " (EPYC Turin) Server", "vllm", AMD41_SERVER8, NULL},
	{M_TPUT, "70B 8xMI300X Turin server tok/s", "llama-2-70b", "mi300x", "1", "fp8", MLPERF_PROMPT,
	 MLPERF40_OUTPUT, L_SLA, 0, 8, 22020.92, AMD8 " (EPYC Turin) Server", "vllm", AMD41_SERVER8, NULL},
	/* Red Hat, the same round: vLLM 0.5.1 on 4 L40S (PCIe) as 2 replicas of TP 2
	 * (closed/RedHat/code/llama2-70b-99.9/README.md: "on 4xL40S, we created two copies";
	 * systems/L40S-RedHat-OpenShift.json), FP8 weights (AutoFP8, quantize-autofp8.py), the KV
	 * cache at vLLM's default 16 bits (the serving runtime's arguments are not in the files);
	 * results/L40S-RedHat-OpenShift/llama2-70b-99.9/{Offline,Server}; 291 output tokens a
	 * request (1717.77 / 5.91055). Offline, the client sends 12288 prompts at a time. vLLM 0.5.1
 * is the V0 engine, whose enable_chunked_prefill is off by default at Llama-2's 4096-token
 * max_model_len (on only above 32K, vllm/engine/arg_utils.py): mixed_prefill=off (RH41KN). */
	{M_TPUT, "70B 4xL40S vllm offline tok/s", "llama-2-70b", "l40s", "2", "fp8", MLPERF_PROMPT, "291",
	 L_BATCH, 2048, 2, 1717.77, RH41 " Offline", "vllm", RH41KN, NULL},
	{M_TTFT, "70B 4xL40S vllm 5 req/s TTFT", "llama-2-70b", "l40s", "2", "fp8", MLPERF_PROMPT, "291",
	 L_RATE, 5.01 / 2, 2, 277.7, RH41 " Server", "vllm", RH41KN, NULL},
	{M_ITL, "70B 4xL40S vllm 5 req/s TPOT", "llama-2-70b", "l40s", "2", "fp8", MLPERF_PROMPT, "291",
	 L_RATE, 5.01 / 2, 2, 120.8, RH41 " Server", "vllm", RH41KN, NULL},
	{M_TPUT, "70B 4xL40S vllm server tok/s", "llama-2-70b", "l40s", "2", "fp8", MLPERF_PROMPT, "291",
	 L_SLA, 0, 2, 1469.19, RH41 " Server", "vllm", RH41KN, NULL},
};

/* MLPerf Inference v4.1 closed, the other submitters' systems that run a layout, a card or a
 * model the cases above do not (the same repository, closed/<submitter>/results/<system>/
 * <benchmark>/{Offline,Server}/performance/run_1/mlperf_log_summary.txt; the 99 and 99.9
 * runs of a system report the same figures, so each system counts once). All run NVIDIA's
 * TensorRT-LLM harness (code/llama2-70b-99/tensorrt/README.md in each submitter's folder:
 * quantize.py --qformat fp8 --kv_cache_dtype fp8: FP8 weights and an FP8 KV cache) except
 * Dell's MI300X, which runs AMD's vLLM code (below). Output tokens a request: each offline
 * summary's tokens/s over samples/s. */
#define MLP41 "MLPerf Inference v4.1 closed, "
/* the system description says accelerator_interconnect "N/A": the TP all-reduce runs over
 * PCIe (the test sets the card's link bandwidth to 0, serving.c then takes pcie_bw) */
#define NOLINK ";link=pcie"
/* MLCommons' mixtral-8x7b set (mlcommons/inference language/mixtral-8x7b/README.md: 5000
 * samples each of OpenOrca, GSM8K and MBXP; reference 144.84 output tokens a sample): its
 * mean prompt is 6,410,905 input tokens over 15,000 samples = 427.39 (min 35, max 1948,
 * median 283, 5th/95th percentile 85/1006), the tok_input_len column of
 * 09292024_mixtral_15k_mintoken2_v1.pkl as github.com/openshift-psap/performance-dashboard@
 * 67033baeaac181a3a35641dd2b86a7cb22d856dd mlperf-data/summaries/mixtral-8x7b.csv lists it
 * per sample (its output_length column averages 144.84, the README's reference figure) */
#define MIXTRAL_PROMPT "427"
/* its spread, from the same mixtral-8x7b.csv (15,000 input_length values): standard
 * deviation 328.62 tokens (population) over the mean 427.39, a coefficient of variation of
 * 0.7689 (99th percentile 1561 tokens). The knob prompt_cv (serve_pct.c) */
#define MIXTRAL_PROMPT_CV "0.7689"
static const struct vcase mlperf41[] = {
	/* Fujitsu CDI_L40Sx8_TRT: 8 L40S (PCIe, interconnect N/A), configs/llama2-70b/
	 * {Offline,Server}/custom.py CDI_L40SX8: tensor_parallelism 4 (2 replicas),
	 * gpu_batch_size 1024 (the server cases' max_num_seqs), use_fp8; 293 output tokens (3717.74 / 12.6843) */
	{M_TPUT, "70B 8xL40S trt tp4 offline tok/s", "llama-2-70b", "l40s", "4", "fp8", MLPERF_PROMPT, "293", L_BATCH,
	 1024, 2, 3717.74, MLP41 "Fujitsu CDI_L40Sx8_TRT llama2-70b-99 Offline", NULL, TRT41, NULL},
	{M_TTFT, "70B 8xL40S trt 11 req/s TTFT", "llama-2-70b", "l40s", "4", "fp8", MLPERF_PROMPT, "293", L_RATE,
	 11.02 / 2, 2, 291.3, MLP41 "Fujitsu CDI_L40Sx8_TRT llama2-70b-99 Server", NULL, TRT41 ";max_num_seqs=1024", NULL},
	{M_ITL, "70B 8xL40S trt 11 req/s TPOT", "llama-2-70b", "l40s", "4", "fp8", MLPERF_PROMPT, "293", L_RATE,
	 11.02 / 2, 2, 143.3, MLP41 "Fujitsu CDI_L40Sx8_TRT llama2-70b-99 Server", NULL, TRT41 ";max_num_seqs=1024", NULL},
	{M_TPUT, "70B 8xL40S trt server tok/s", "llama-2-70b", "l40s", "4", "fp8", MLPERF_PROMPT, "293", L_SLA, 0, 2,
	 3218.55, MLP41 "Fujitsu CDI_L40Sx8_TRT llama2-70b-99 Server", NULL, TRT41 ";max_num_seqs=1024", NULL},
	/* ASUSTeK ESC8000A_E12_H100x8_TRT: 8 H100 PCIe 80GB (interconnect N/A), configs/
	 * llama2-70b/{Offline,Server}/custom.py ESC8000A_E12_H100X8: the base tensor_parallelism
	 * 2 (4 replicas), gpu_batch_size 896 (the server cases' max_num_seqs),
	 * kvcache_free_gpu_mem_frac 0.97 offline and 0.95 server; 291 output tokens (9281.5 / 31.9048) */
	{M_TPUT, "70B 8xH100PCIe tp2 offline tok/s", "llama-2-70b", "h100-pcie", "2", "fp8", MLPERF_PROMPT, "291",
	 L_BATCH, 896, 4, 9281.5, MLP41 "ASUSTeK ESC8000A_E12_H100x8_TRT llama2-70b-99 Offline", NULL,
	 TRT41 NOLINK ";gpu_memory_utilization=0.97", NULL},
	{M_TTFT, "70B 8xH100PCIe 28 req/s TTFT", "llama-2-70b", "h100-pcie", "2", "fp8", MLPERF_PROMPT, "291", L_RATE,
	 28.01 / 4, 4, 267.1, MLP41 "ASUSTeK ESC8000A_E12_H100x8_TRT llama2-70b-99 Server", NULL,
	 TRT41 NOLINK ";gpu_memory_utilization=0.95;max_num_seqs=896", NULL},
	{M_ITL, "70B 8xH100PCIe 28 req/s TPOT", "llama-2-70b", "h100-pcie", "2", "fp8", MLPERF_PROMPT, "291", L_RATE,
	 28.01 / 4, 4, 135.5, MLP41 "ASUSTeK ESC8000A_E12_H100x8_TRT llama2-70b-99 Server", NULL,
	 TRT41 NOLINK ";gpu_memory_utilization=0.95;max_num_seqs=896", NULL},
	{M_TPUT, "70B 8xH100PCIe server tok/s", "llama-2-70b", "h100-pcie", "2", "fp8", MLPERF_PROMPT, "291", L_SLA, 0,
	 4, 8094.27, MLP41 "ASUSTeK ESC8000A_E12_H100x8_TRT llama2-70b-99 Server", NULL,
	 TRT41 NOLINK ";gpu_memory_utilization=0.95;max_num_seqs=896", NULL},
	/* ASUSTeK ESC4000A_E12_4XH100_TRT: 4 H100 NVL 94GB (interconnect N/A), custom.py
	 * ESC4000A_E12_4XH100: tensor_parallelism 2 (2 replicas), gpu_batch_size 1300 offline,
	 * 640 server (max_num_seqs); 291 output tokens (6673.95 / 22.9415) */
	{M_TPUT, "70B 4xH100NVL tp2 offline tok/s", "llama-2-70b", "h100-nvl", "2", "fp8", MLPERF_PROMPT, "291",
	 L_BATCH, 1300, 2, 6673.95, MLP41 "ASUSTeK ESC4000A_E12_4XH100_TRT llama2-70b-99 Offline", NULL, TRT41 NOLINK,
	 NULL},
	{M_TTFT, "70B 4xH100NVL 20 req/s TTFT", "llama-2-70b", "h100-nvl", "2", "fp8", MLPERF_PROMPT, "291", L_RATE,
	 20.04 / 2, 2, 260.4, MLP41 "ASUSTeK ESC4000A_E12_4XH100_TRT llama2-70b-99 Server", NULL,
	 TRT41 NOLINK ";max_num_seqs=640", NULL},
	{M_ITL, "70B 4xH100NVL 20 req/s TPOT", "llama-2-70b", "h100-nvl", "2", "fp8", MLPERF_PROMPT, "291", L_RATE,
	 20.04 / 2, 2, 137.9, MLP41 "ASUSTeK ESC4000A_E12_4XH100_TRT llama2-70b-99 Server", NULL,
	 TRT41 NOLINK ";max_num_seqs=640", NULL},
	{M_TPUT, "70B 4xH100NVL server tok/s", "llama-2-70b", "h100-nvl", "2", "fp8", MLPERF_PROMPT, "291", L_SLA, 0, 2,
	 5788.29, MLP41 "ASUSTeK ESC4000A_E12_4XH100_TRT llama2-70b-99 Server", NULL, TRT41 NOLINK ";max_num_seqs=640", NULL},
	/* HPE HPE_ProLiant_DL380a_H100_NVL_94GBx4_TRT: 4 H100 NVL with NVLink bridges, HPE's own
	 * configs/llama2-70b/{Offline,Server}/custom.py HPE_PROLIANT_DL380A_H100_NVL_94GBX4
	 * (KnownSystem.HPE_ProLiant_DL380a_H100_NVL_94GBx4, on NVIDIA's H100_NVL_94GB_TP2x2):
	 * tensor_parallelism 2 (2 replicas), gpu_batch_size 1300 offline and 1024 server (the
	 * server cases' max_num_seqs), kvcache_free_gpu_mem_frac 0.95 both (gpu_memory_utilization);
	 * the server class's server_target_qps is 28 (measurements/.../Server/user.conf 25.76)
	 * where the run's summary gives target_qps 24, so the run may have set more than the
	 * files say; 290 output tokens (8858.78 / 30.5175) */
	{M_TPUT, "70B 4xH100NVL-NVL tp2 offl. tok/s", "llama-2-70b", "h100-nvl", "2", "fp8", MLPERF_PROMPT, "290",
	 L_BATCH, 1300, 2, 8858.78, MLP41 "HPE DL380a_H100_NVL_94GBx4_TRT llama2-70b-99 Offline", NULL,
	 TRT41 ";gpu_memory_utilization=0.95", NULL},
	{M_TTFT, "70B 4xH100NVL-NVL 24 req/s TTFT", "llama-2-70b", "h100-nvl", "2", "fp8", MLPERF_PROMPT, "290", L_RATE,
	 24.01 / 2, 2, 195.6, MLP41 "HPE DL380a_H100_NVL_94GBx4_TRT llama2-70b-99 Server", NULL,
	 TRT41 ";gpu_memory_utilization=0.95;max_num_seqs=1024", NULL},
	{M_ITL, "70B 4xH100NVL-NVL 24 req/s TPOT", "llama-2-70b", "h100-nvl", "2", "fp8", MLPERF_PROMPT, "290", L_RATE,
	 24.01 / 2, 2, 103.9, MLP41 "HPE DL380a_H100_NVL_94GBx4_TRT llama2-70b-99 Server", NULL,
	 TRT41 ";gpu_memory_utilization=0.95;max_num_seqs=1024", NULL},
	{M_TPUT, "70B 4xH100NVL-NVL server tok/s", "llama-2-70b", "h100-nvl", "2", "fp8", MLPERF_PROMPT, "290", L_SLA, 0,
	 2, 6927.80, MLP41 "HPE DL380a_H100_NVL_94GBx4_TRT llama2-70b-99 Server", NULL,
	 TRT41 ";gpu_memory_utilization=0.95;max_num_seqs=1024", NULL},
	/* Lenovo SR675_V3_8xH100_NVL_TRT: 8 H100 NVL, configs/llama2-70b/{Offline,Server}/
	 * __init__.py SR675_V3_8XH100_NVL: tensor_parallelism 1 (8 replicas), gpu_batch_size 1300
	 * offline, 640 server (max_num_seqs); 291 output tokens (15875.8 / 54.5099) */
	{M_TPUT, "70B 8xH100NVL tp1 offline tok/s", "llama-2-70b", "h100-nvl", "1", "fp8", MLPERF_PROMPT, "291",
	 L_BATCH, 1300, 8, 15875.8, MLP41 "Lenovo SR675_V3_8xH100_NVL_TRT llama2-70b-99 Offline", NULL, TRT41, NULL},
	{M_TTFT, "70B 8xH100NVL tp1 45 req/s TTFT", "llama-2-70b", "h100-nvl", "1", "fp8", MLPERF_PROMPT, "291", L_RATE,
	 45.03 / 8, 8, 138.9, MLP41 "Lenovo SR675_V3_8xH100_NVL_TRT llama2-70b-99 Server", NULL,
	 TRT41 ";max_num_seqs=640", NULL},
	{M_ITL, "70B 8xH100NVL tp1 45 req/s TPOT", "llama-2-70b", "h100-nvl", "1", "fp8", MLPERF_PROMPT, "291", L_RATE,
	 45.03 / 8, 8, 67.6, MLP41 "Lenovo SR675_V3_8xH100_NVL_TRT llama2-70b-99 Server", NULL,
	 TRT41 ";max_num_seqs=640", NULL},
	{M_TPUT, "70B 8xH100NVL tp1 server tok/s", "llama-2-70b", "h100-nvl", "1", "fp8", MLPERF_PROMPT, "291", L_SLA, 0,
	 8, 13074.68, MLP41 "Lenovo SR675_V3_8xH100_NVL_TRT llama2-70b-99 Server", NULL, TRT41 ";max_num_seqs=640", NULL},
	/* NVIDIA mixtral-8x7b (results/<system>/mixtral-8x7b; closed/NVIDIA/configs/mixtral-8x7b/
	 * {Offline,Server}/__init__.py; code/mixtral-8x7b/tensorrt/builder.py: --kv_cache_dtype=fp8):
	 * DGX-H100 H100_SXM_80GBx8: tensor_parallelism 1 (8 replicas), gpu_batch_size 896, use_fp8;
	 * H200_SXM_141GBx8: TP 1, gpu_batch_size 3072 offline, 1200 server (the server cases'
	 * max_num_seqs, 896 on H100). max_num_tokens: the
	 * base configs/mixtral-8x7b/__init__.py sets 16384, H100_SXM_80GBx1 offline and
	 * H200_SXM_141GBx1 server 8192 (their x8 classes inherit them). 146 output tokens a
	 * request (52415.9 / 359.173; 59022.3 / 404.431) */
	{M_TPUT, "Mixtral H100 tp1 offline tok/s", "mixtral-8x7b", "h100-sxm", "1", "fp8", MIXTRAL_PROMPT, "146", L_BATCH,
	 896, 8, 52415.9, MLP41 "NVIDIA DGX-H100 mixtral-8x7b Offline", NULL, FP8KV ";max_batched_tokens=8192", NULL},
	{M_TTFT, "Mixtral H100 tp1 348 req/s TTFT", "mixtral-8x7b", "h100-sxm", "1", "fp8", MIXTRAL_PROMPT, "146", L_RATE,
	 348.37 / 8, 8, 180.0, MLP41 "NVIDIA DGX-H100 mixtral-8x7b Server", NULL,
	 FP8KV ";max_batched_tokens=16384;max_num_seqs=896", NULL},
	{M_ITL, "Mixtral H100 tp1 348 req/s TPOT", "mixtral-8x7b", "h100-sxm", "1", "fp8", MIXTRAL_PROMPT, "146", L_RATE,
	 348.37 / 8, 8, 102.6, MLP41 "NVIDIA DGX-H100 mixtral-8x7b Server", NULL,
	 FP8KV ";max_batched_tokens=16384;max_num_seqs=896", NULL},
	{M_TPUT, "Mixtral H100 tp1 server tok/s", "mixtral-8x7b", "h100-sxm", "1", "fp8", MIXTRAL_PROMPT, "146", L_SLA, 0,
	 8, 50795.57, MLP41 "NVIDIA DGX-H100 mixtral-8x7b Server", NULL,
	 FP8KV ";max_batched_tokens=16384;max_num_seqs=896", NULL},
	{M_TPUT, "Mixtral H200 tp1 offline tok/s", "mixtral-8x7b", "h200-sxm", "1", "fp8", MIXTRAL_PROMPT, "146", L_BATCH,
	 3072, 8, 59022.3, MLP41 "NVIDIA H200-SXM-141GBx8 mixtral-8x7b Offline", NULL,
	 FP8KV ";max_batched_tokens=16384", NULL},
	{M_TTFT, "Mixtral H200 tp1 392 req/s TTFT", "mixtral-8x7b", "h200-sxm", "1", "fp8", MIXTRAL_PROMPT, "146", L_RATE,
	 392.18 / 8, 8, 227.6, MLP41 "NVIDIA H200-SXM-141GBx8 mixtral-8x7b Server", NULL,
	 FP8KV ";max_batched_tokens=8192;max_num_seqs=1200", NULL},
	{M_ITL, "Mixtral H200 tp1 392 req/s TPOT", "mixtral-8x7b", "h200-sxm", "1", "fp8", MIXTRAL_PROMPT, "146", L_RATE,
	 392.18 / 8, 8, 138.4, MLP41 "NVIDIA H200-SXM-141GBx8 mixtral-8x7b Server", NULL,
	 FP8KV ";max_batched_tokens=8192;max_num_seqs=1200", NULL},
	{M_TPUT, "Mixtral H200 tp1 server tok/s", "mixtral-8x7b", "h200-sxm", "1", "fp8", MIXTRAL_PROMPT, "146", L_SLA, 0,
	 8, 57177.20, MLP41 "NVIDIA H200-SXM-141GBx8 mixtral-8x7b Server", NULL,
	 FP8KV ";max_batched_tokens=8192;max_num_seqs=1200", NULL},
	/* Dell XE9680_MI300X_192GBx8: AMD's vLLM code (closed/Dell/code/llama2-70b-99.9/
	 * test_VllmFp8/test_VllmFp8_{Offline,AsyncServer}_perf.sh: TP=1, DP=${DP:-8},
	 * --quantization fp8, --kv-cache-dtype fp8): 8 replicas of TP 1; 294 output tokens
	 * (22677.6 / 77.2128). The engine's settings as AMD's (above): offline
	 * VllmFp8/mainVllmFp8_Offline.py (max_num_seqs 2048, max_num_batched_tokens 65536,
	 * chunked prefill off) with test_VllmFp8_Offline_perf.sh's --gpu-memory-utilization 0.99;
	 * the server run_tests_Server.sh runs the AsyncServer, mainVllmFp8_AsyncServer.py:
	 * max_num_seqs 768, max_num_batched_tokens 65536, gpu_memory_utilization 0.97,
	 * enable_chunked_prefill at vLLM's default. The offline runs' chunked prefill off is not
	 * napkin's to say (AMD's comment above) */
	{M_TPUT, "70B 8xMI300X Dell offline tok/s", "llama-2-70b", "mi300x", "1", "fp8", MLPERF_PROMPT, "294", L_BATCH,
	 2048, 8, 22677.6, MLP41 "Dell XE9680_MI300X_192GBx8 vLLM llama2-70b-99 Offline", "vllm", AMD41_OFFLINE, NULL},
	{M_TTFT, "70B 8xMI300X Dell 68.7 req/s TTFT", "llama-2-70b", "mi300x", "1", "fp8", MLPERF_PROMPT, "294", L_RATE,
	 68.65 / 8, 8, 1203.9, MLP41 "Dell XE9680_MI300X_192GBx8 vLLM llama2-70b-99 Server", "vllm", DELL41_SERVER8, NULL},
	{M_ITL, "70B 8xMI300X Dell 68.7 req/s TPOT", "llama-2-70b", "mi300x", "1", "fp8", MLPERF_PROMPT, "294", L_RATE,
	 68.65 / 8, 8, 142.7, MLP41 "Dell XE9680_MI300X_192GBx8 vLLM llama2-70b-99 Server", "vllm", DELL41_SERVER8, NULL},
	{M_TPUT, "70B 8xMI300X Dell server tok/s", "llama-2-70b", "mi300x", "1", "fp8", MLPERF_PROMPT, "294", L_SLA, 0, 8,
	 19886.10, MLP41 "Dell XE9680_MI300X_192GBx8 vLLM llama2-70b-99 Server", "vllm", DELL41_SERVER8, NULL},
};

/* SGLang v0.3.0 against vLLM v0.6.0, the SGLang team's published runs (github.com/sgl-project/
 * sglang, benchmark/benchmark_vllm_060/README.md): ShareGPT through sglang.bench_serving at 4 and
 * 8 requests/s (Poisson), median TTFT and median TPOT; the offline runs (every prompt at once)
 * for output tokens/s. Llama 3.1 8B Instruct on one A100 80G, Llama 3.1 70B Instruct on 4 H100
 * at TP 4, 16-bit weights, radix cache off; vLLM with --num-scheduler-steps 10 (its ITL column
 * counts the 10-step bursts, so the case reads TPOT); vLLM 0.6.0 refused chunked prefill with
 * multi-step scheduling (vllm-project/vllm issue 8274), so its runs prefill apart, napkin's
 * default for vLLM with scheduler_steps > 1 (serve_engine.c). Output tokens a request: the offline
 * tables' tokens/s over requests/s (4281.51 / 22.03 = 194.3); the prompts' mean is not printed:
 * SHAREGPT_PROMPT is the 202 of vLLM's v0.6 post for the same dataset, an assumption. The
 * median E2E column is left out: it is the median request's, not the mean lengths'. */
#define SHAREGPT_PROMPT "202" /* assumed: vLLM v0.6 post (blog.vllm.ai 2024-09-05), ShareGPT mean input */
#define SHAREGPT_OUTPUT "194" /* 4281.51 output tokens/s / 22.03 requests/s (SGLang 8B offline) */
#define SGL "SGLang v0.3 vs vLLM v0.6 (sglang benchmark/benchmark_vllm_060)"
/* every vLLM run of the README starts the server with --num-scheduler-steps 10 (its Notes) and
 * --max_model_len 4096: V0 without chunked prefill takes max(max_model_len, 2048) tokens a step
 * (vllm/config.py, SchedulerConfig) */
#define MULTISTEP "scheduler_steps=10;max_batched_tokens=4096"
#define SG8(m, lab, eng, rps, pub, kn) \
	{m, lab, "llama-3-8b", "a100-80gb-sxm", "1", NULL, SHAREGPT_PROMPT, SHAREGPT_OUTPUT, L_RATE, rps, 1, pub, SGL, eng, kn, NULL}
#define SG70(m, lab, eng, rps, pub, kn) \
	{m, lab, "llama-3-70b", "h100-sxm", "4", NULL, SHAREGPT_PROMPT, SHAREGPT_OUTPUT, L_RATE, rps, 1, pub, SGL, eng, kn, NULL}
/* the same, published as the median ITL (bench_serving's "Median ITL": the median gap
 * between two tokens of a request, over every request's gaps) */
#define SG8M(lab, eng, rps, pub) \
	{M_ITL, lab, "llama-3-8b", "a100-80gb-sxm", "1", NULL, SHAREGPT_PROMPT, SHAREGPT_OUTPUT, L_RATE, rps, 1, pub, SGL, eng, \
	 MEDIAN_ITL, NULL}
#define SG70M(lab, eng, rps, pub) \
	{M_ITL, lab, "llama-3-70b", "h100-sxm", "4", NULL, SHAREGPT_PROMPT, SHAREGPT_OUTPUT, L_RATE, rps, 1, pub, SGL, eng, \
	 MEDIAN_ITL, NULL}
static const struct vcase sglang[] = {
	SG8(M_TTFT, "8B A100 sglang 4 req/s TTFT ms", "sglang", 4, 31.98, NULL),
	SG8(M_ITL, "8B A100 sglang 4 req/s TPOT ms", "sglang", 4, 13.17, NULL),
	SG8(M_TTFT, "8B A100 vllm 4 req/s TTFT ms", "vllm", 4, 100.48, MULTISTEP),
	SG8(M_ITL, "8B A100 vllm 4 req/s TPOT ms", "vllm", 4, 14.14, MULTISTEP),
	SG8(M_TTFT, "8B A100 sglang 8 req/s TTFT ms", "sglang", 8, 35.68, NULL),
	SG8(M_ITL, "8B A100 sglang 8 req/s TPOT ms", "sglang", 8, 17.85, NULL),
	SG8(M_TTFT, "8B A100 vllm 8 req/s TTFT ms", "vllm", 8, 120.39, MULTISTEP),
	SG8(M_ITL, "8B A100 vllm 8 req/s TPOT ms", "vllm", 8, 17.09, MULTISTEP),
	SG70(M_TTFT, "70B H100 tp4 sglang 4 req/s TTFT", "sglang", 4, 53.94, NULL),
	SG70(M_ITL, "70B H100 tp4 sglang 4 req/s TPOT", "sglang", 4, 25.03, NULL),
	SG70(M_TTFT, "70B H100 tp4 vllm 4 req/s TTFT", "vllm", 4, 179.15, MULTISTEP),
	SG70(M_ITL, "70B H100 tp4 vllm 4 req/s TPOT", "vllm", 4, 23.58, MULTISTEP),
	SG70(M_TTFT, "70B H100 tp4 sglang 8 req/s TTFT", "sglang", 8, 58.11, NULL),
	SG70(M_ITL, "70B H100 tp4 sglang 8 req/s TPOT", "sglang", 8, 33.07, NULL),
	SG70(M_TTFT, "70B H100 tp4 vllm 8 req/s TTFT", "vllm", 8, 207.12, MULTISTEP),
	SG70(M_ITL, "70B H100 tp4 vllm 8 req/s TPOT", "vllm", 8, 29.15, MULTISTEP),
	/* the median ITL column of SGLang's own rows (vLLM's counts its 10-step bursts) */
	SG8M("8B A100 sglang 4 req/s ITL ms", "sglang", 4, 11.93),
	SG8M("8B A100 sglang 8 req/s ITL ms", "sglang", 8, 14.41),
	SG70M("70B H100 tp4 sglang 4 req/s ITL", "sglang", 4, 21.67),
	SG70M("70B H100 tp4 sglang 8 req/s ITL", "sglang", 8, 24.45),
	/* offline: 5000 prompts at once, so the engine runs full; SGLang's 70B run at --mem-frac 0.88 */
	{M_TPUT, "8B A100 sglang offline tok/s", "llama-3-8b", "a100-80gb-sxm", "1", NULL, SHAREGPT_PROMPT,
	 SHAREGPT_OUTPUT, L_BATCH, 5000, 1, 4281.51, SGL, "sglang", NULL, NULL},
	{M_TPUT, "8B A100 vllm offline tok/s", "llama-3-8b", "a100-80gb-sxm", "1", NULL, SHAREGPT_PROMPT,
	 SHAREGPT_OUTPUT, L_BATCH, 5000, 1, 4132.37, SGL, "vllm", MULTISTEP, NULL},
	{M_TPUT, "70B H100 tp4 sglang offl. tok/s", "llama-3-70b", "h100-sxm", "4", NULL, SHAREGPT_PROMPT,
	 SHAREGPT_OUTPUT, L_BATCH, 5000, 1, 3856.01, SGL, "sglang", "gpu_memory_utilization=0.88", NULL},
	{M_TPUT, "70B H100 tp4 vllm offl. tok/s", "llama-3-70b", "h100-sxm", "4", NULL, SHAREGPT_PROMPT,
	 SHAREGPT_OUTPUT, L_BATCH, 5000, 1, 3700.64, SGL, "vllm", MULTISTEP, NULL},
};

/* Microsoft's AI-benchmarking-guide, Azure ND MI300X v5 (8 MI300X), "End-to-End Inference
 * Workloads - vLLM" (github.com/samuel-bohman/AI-benchmarking-guide, a fork of
 * Azure/AI-benchmarking-guide, Azure_Results/ND_MI300X_v5_results.md@3de0c294fd1059a91a2c158712c4a078619d73e8;
 * the figures were entered 2025-01-23, commits e138afd, d3ab2bf, 5f7f696). The run, from
 * Benchmarks/AMD/LLMBenchmark.py@04e2ae7d224dff22b002cf60acdaeb5adc0a2faf (committed the same
 * evening, unchanged at 3de0c294) and config.json@12ac825265a6ca4e542aac563a4a06c5739d95e2: the
 * rocm/vllm-dev:20241121-tuned image, /app/vllm/benchmarks/benchmark_throughput.py (offline, the
 * LLM class: every prompt at once, synthetic prompts of exactly --input-len tokens, ignore_eos so
 * every request generates --output-len) with --model amd/Meta-Llama-3.1-{8B,70B,405B}-Instruct-
 * FP8-KV --quantization fp8 --kv-cache-dtype fp8 --dtype half --gpu-memory-utilization 0.90
 * --num-scheduler-steps 10 --enable-chunked-prefill false --max-num-batched-tokens 131072
 * --max-model-len 8192 --max-num-seqs 3000 --num-prompts 1000 --tensor-parallel-size 1 (8B) or
 * 8 (70B, 405B). The figure is the "Throughput: " line's field [6] (line.split(' ')[6]): in the
 * vLLM of late 2024 that line reads "Throughput: R requests/s, T total tokens/s, O output
 * tokens/s" (vllm-project/vllm PR 8914, 2024-10-23; in ROCm/vllm's main of 2024-11-21,
 * 9afa0145, benchmarks/benchmark_throughput.py), so field 6 is O, output tokens/s, what the
 * test predicts (the older two-field line has no field 6: the script would have failed). vLLM
 * 0.6.4 with --num-scheduler-steps is the V0 engine (scheduler_steps=10; max_num_seqs 3000 set,
 * so not V0's default 256); chunked prefill off with a 131072-token budget: a step prefills up
 * to 131072 prompt tokens (napkin's budget) and V0 profiles a forward of that many tokens.
 * Prefill in steps of its own, the decodes paused, is napkin's default for vLLM with
 * scheduler_steps > 1 (serve_engine.c), so the knobs need no mixed_prefill=off.
 * Llama 3.1 8B and 70B have Llama 3's shapes (only the RoPE scaling and the 131072 positions
 * differ; KV cache and weights alike): the llama-3-8b and llama-3-70b presets. The guide's
 * heading says "LLAMA 3 (405B)", its model is Llama-3.1-405B: the llama-3.1-405b preset. The
 * offline run drains 1000 requests with no replacement (a ramp and a tail); the cases run the
 * steady state of 1000 at once, as the other offline cases do. One replica. */
#define AZURE "AI-benchmarking-guide ND MI300X v5 vLLM (rocm/vllm-dev 20241121)"
#define AZKN "scheduler_steps=10;max_num_seqs=3000;max_batched_tokens=131072;gpu_memory_utilization=0.90;" FP8KV
#define AZ(lab, model, tp, in, out, pub) \
	{M_TPUT, lab, model, "mi300x", tp, "fp8", in, out, L_BATCH, 1000, 1, pub, AZURE, "vllm", AZKN, NULL}
static const struct vcase azure[] = {
	AZ("L3.1-8B MI300X 128/128 tok/s", "llama-3-8b", "1", "128", "128", 18149),
	AZ("L3.1-8B MI300X 128/1024 tok/s", "llama-3-8b", "1", "128", "1024", 19579),
	AZ("L3.1-8B MI300X 128/2048 tok/s", "llama-3-8b", "1", "128", "2048", 16394),
	AZ("L3.1-8B MI300X 500/2000 tok/s", "llama-3-8b", "1", "500", "2000", 13559),
	AZ("L3.1-8B MI300X 1024/1024 tok/s", "llama-3-8b", "1", "1024", "1024", 10995),
	AZ("L3.1-8B MI300X 2048/2048 tok/s", "llama-3-8b", "1", "2048", "2048", 7356),
	AZ("L3.1-70B 8xMI300X 128/128 tok/s", "llama-3-70b", "8", "128", "128", 9026),
	AZ("L3.1-70B 8xMI300X 128/1024 tok/s", "llama-3-70b", "8", "128", "1024", 12461),
	AZ("L3.1-70B 8xMI300X 128/2048 tok/s", "llama-3-70b", "8", "128", "2048", 12204),
	AZ("L3.1-70B 8xMI300X 500/2000 tok/s", "llama-3-70b", "8", "500", "2000", 10877),
	AZ("L3.1-70B 8xMI300X 1024/1024 tok/s", "llama-3-70b", "8", "1024", "1024", 8256),
	AZ("L3.1-70B 8xMI300X 2048/2048 tok/s", "llama-3-70b", "8", "2048", "2048", 7421),
	AZ("405B 8xMI300X 128/128 tok/s", "llama-3.1-405b", "8", "128", "128", 2484),
	AZ("405B 8xMI300X 128/1024 tok/s", "llama-3.1-405b", "8", "128", "1024", 3846),
	AZ("405B 8xMI300X 128/2048 tok/s", "llama-3.1-405b", "8", "128", "2048", 3902),
	AZ("405B 8xMI300X 500/2000 tok/s", "llama-3.1-405b", "8", "500", "2000", 3407),
	AZ("405B 8xMI300X 1024/1024 tok/s", "llama-3.1-405b", "8", "1024", "1024", 2363),
	AZ("405B 8xMI300X 2048/2048 tok/s", "llama-3.1-405b", "8", "2048", "2048", 1840),
};

/* MLPerf Inference v5.1: AMD's, Dell's and HPE's runs */
#include "serving_cases_v51.h"

/* the capacity cases: KV tokens an engine admits (papers, startup logs, memory tables) */
#include "serving_cases_capacity.h"

#include "serving_cases_tails.h"

#endif
