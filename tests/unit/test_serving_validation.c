/*
 * Serving against published measurements (docs/serving-validation.md): each case printed
 * with the published figure, napkin's prediction, the error and the source, then each
 * metric's count, median |error| and signed median; the test holds each median to the
 * bound the model reaches today.
 *
 * Sources:
 *  - NeMo Framework's Llama-2 inference table (docs.nvidia.com/nemo-framework/user-guide/
 *    latest/performance/llama.html, "Configuration 1: Chatbot Conversation", TensorRT-LLM
 *    engines): average latency of a request, 128 tokens in, 20 out, batch 1-8, TP 1-8, on
 *    A100 80GB SXM4 and H100 80GB HBM3; Llama-2-7B (16 rows) and Llama-2-13B (the 11 rows
 *    the page prints in full: TP 1 and 2, TP 4 batch 1-4).
 *  - MLPerf Inference v4.1, closed division, NVIDIA, Llama-2-70B (github.com/mlcommons/
 *    inference_results_v4.1, closed/NVIDIA): results/<system>/llama2-70b-*\/{Offline,Server}/
 *    performance/run_1/mlperf_log_summary.txt for the figures, configs/llama2-70b/{Offline,
 *    Server}/__init__.py for the layout (TensorRT-LLM, FP8 weights, H100-SXM TP2 x4 replicas
 *    with gpu_batch_size 896 offline, H200-SXM TP1 x8 with 806). Output tokens a request:
 *    the summary's tokens/s over samples/s (290.3). Server: the mean first-token latency and
 *    the mean time to output token at the scheduled rate; the completed tokens/s within
 *    MLPerf's limits (TTFT 2 s, TPOT 200 ms at the 99th percentile; napkin's SLA holds the
 *    means to them, so it should read high).
 *    The same from MLPerf Inference v4.0 (github.com/mlcommons/inference_results_v4.0) for
 *    H200-SXM TP1 x8: 293 output tokens a request.
 *  - The SGLang team's SGLang v0.3 against vLLM v0.6 runs (TTFT, TPOT, offline tokens/s) and
 *    the vLLM paper's KV cache slots (capacity): at their tables below.
 *  - The OpenOrca set (mlcommons/inference language/llama2-70b/processorca.py, run with
 *    --seqlen_limit=1024 --num_total_samples=24576 in its README): 24,576 samples drawn
 *    equally from the COT, NIV, FLAN and T0 parts, prompts and reference outputs each under
 *    1024 tokens (filter_seqlen_oob: tok_input_length < 1024, tok_output_length < 1024),
 *    outputs of 3 tokens or more. The reference run's mean output is 294.45 tokens a sample
 *    (the README's "Accuracy Target", docs/index.md); the submission checker holds a
 *    llama2-70b-99.9 one to 90-110% of it (tools/submission/submission_checker/
 *    constants.py). The cases' 290-293 are the results' own, within 1.5% of it. The prompts'
 *    mean is printed nowhere in that repository or the result files: MLPERF_PROMPT stays an
 *    assumption.
 */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine.h"
#include "presets.h"
#include "testengine.h"
#include "testpresets.h"
#include "testutil.h"

#define MLPERF_PROMPT "512" /* assumed: no MLCommons file prints the prompts' mean (cap < 1024) */
#define MLPERF_OUTPUT "290" /* v4.1: 24524.9 tokens/s ÷ 84.4792 samples/s (H100 offline summary) */
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
	{M_TPUT, "70B H100 tp2 offline tok/s", "llama-2-70b", "h100-sxm", "2", "fp8", MLPERF_PROMPT, MLPERF_OUTPUT,
	 L_BATCH, 896, 4, 24524.9, MLPERF " DGX-H100 llama2-70b-99.9 Offline", NULL, NULL, NULL},
	{M_TPUT, "70B H200 tp1 offline tok/s", "llama-2-70b", "h200-sxm", "1", "fp8", MLPERF_PROMPT, MLPERF_OUTPUT,
	 L_BATCH, 806, 8, 31302.7, MLPERF " H200-SXM-141GBx8 llama2-70b-99 Offline", NULL, NULL, NULL},
	{M_TTFT, "70B H100 tp2 75 req/s TTFT ms", "llama-2-70b", "h100-sxm", "2", "fp8", MLPERF_PROMPT, MLPERF_OUTPUT,
	 L_RATE, 75.10 / 4, 4, 275.9, MLPERF " DGX-H100 llama2-70b-99.9 Server", NULL, NULL, NULL},
	{M_ITL, "70B H100 tp2 75 req/s TPOT ms", "llama-2-70b", "h100-sxm", "2", "fp8", MLPERF_PROMPT, MLPERF_OUTPUT,
	 L_RATE, 75.10 / 4, 4, 155.0, MLPERF " DGX-H100 llama2-70b-99.9 Server", NULL, NULL, NULL},
	{M_TTFT, "70B H200 tp1 101 req/s TTFT ms", "llama-2-70b", "h200-sxm", "1", "fp8", MLPERF_PROMPT, MLPERF_OUTPUT,
	 L_RATE, 101.25 / 8, 8, 198.3, MLPERF " H200-SXM-141GBx8 llama2-70b-99 Server", NULL, NULL, NULL},
	{M_ITL, "70B H200 tp1 101 req/s TPOT ms", "llama-2-70b", "h200-sxm", "1", "fp8", MLPERF_PROMPT, MLPERF_OUTPUT,
	 L_RATE, 101.25 / 8, 8, 123.3, MLPERF " H200-SXM-141GBx8 llama2-70b-99 Server", NULL, NULL, NULL},
	{M_TPUT, "70B H100 tp2 server tok/s", "llama-2-70b", "h100-sxm", "2", "fp8", MLPERF_PROMPT, MLPERF_OUTPUT, L_SLA,
	 0, 4, 21605.79, MLPERF " DGX-H100 llama2-70b-99.9 Server", NULL, NULL, NULL},
	{M_TPUT, "70B H200 tp1 server tok/s", "llama-2-70b", "h200-sxm", "1", "fp8", MLPERF_PROMPT, MLPERF_OUTPUT, L_SLA,
	 0, 8, 29228.22, MLPERF " H200-SXM-141GBx8 llama2-70b-99 Server", NULL, NULL, NULL},
	/* v4.0 (github.com/mlcommons/inference_results_v4.0, the same paths; configs: H200-SXM
	 * TP1 x8, gpu_batch_size 806 offline, 896 server) */
	{M_TPUT, "70B H200 tp1 offline tok/s v4.0", "llama-2-70b", "h200-sxm", "1", "fp8", MLPERF_PROMPT,
	 MLPERF40_OUTPUT, L_BATCH, 806, 8, 27738.3, MLPERF40 " H200-SXM-141GBx8 llama2-70b-99.9 Offline", NULL, NULL, NULL},
	{M_TTFT, "70B H200 tp1 91 req/s TTFT v4.0", "llama-2-70b", "h200-sxm", "1", "fp8", MLPERF_PROMPT, MLPERF40_OUTPUT,
	 L_RATE, 91.24 / 8, 8, 412.9, MLPERF40 " H200-SXM-141GBx8 llama2-70b-99.9 Server", NULL, NULL, NULL},
	{M_ITL, "70B H200 tp1 91 req/s TPOT v4.0", "llama-2-70b", "h200-sxm", "1", "fp8", MLPERF_PROMPT, MLPERF40_OUTPUT,
	 L_RATE, 91.24 / 8, 8, 164.9, MLPERF40 " H200-SXM-141GBx8 llama2-70b-99.9 Server", NULL, NULL, NULL},
	{M_TPUT, "70B H200 tp1 server tok/s v4.0", "llama-2-70b", "h200-sxm", "1", "fp8", MLPERF_PROMPT, MLPERF40_OUTPUT,
	 L_SLA, 0, 8, 26485.43, MLPERF40 " H200-SXM-141GBx8 llama2-70b-99.9 Server", NULL, NULL, NULL},
	/* v4.0 DGX-H100 (configs/llama2-70b/Offline/__init__.py, H100_SXM_80GB_TP2x4: TP 2 x 4
	 * replicas, gpu_batch_size 896, use_fp8); 292 output tokens a request (21805.8 / 74.699) */
	{M_TPUT, "70B H100 tp2 offline tok/s v4.0", "llama-2-70b", "h100-sxm", "2", "fp8", MLPERF_PROMPT, MLPERF40_OUTPUT,
	 L_BATCH, 896, 4, 21805.8, MLPERF40 " DGX-H100 llama2-70b-99.9 Offline", NULL, NULL, NULL},
	{M_TTFT, "70B H100 tp2 71 req/s TTFT v4.0", "llama-2-70b", "h100-sxm", "2", "fp8", MLPERF_PROMPT, MLPERF40_OUTPUT,
	 L_RATE, 70.98 / 4, 4, 381.6, MLPERF40 " DGX-H100 llama2-70b-99.9 Server", NULL, NULL, NULL},
	{M_ITL, "70B H100 tp2 71 req/s TPOT v4.0", "llama-2-70b", "h100-sxm", "2", "fp8", MLPERF_PROMPT, MLPERF40_OUTPUT,
	 L_RATE, 70.98 / 4, 4, 136.8, MLPERF40 " DGX-H100 llama2-70b-99.9 Server", NULL, NULL, NULL},
	{M_TPUT, "70B H100 tp2 server tok/s v4.0", "llama-2-70b", "h100-sxm", "2", "fp8", MLPERF_PROMPT, MLPERF40_OUTPUT,
	 L_SLA, 0, 4, 20556.40, MLPERF40 " DGX-H100 llama2-70b-99.9 Server", NULL, NULL, NULL},
};

/* MLPerf Inference v4.1 closed, AMD, Llama-2-70B on one MI300X (the same repository,
 * closed/AMD/results/1xMI300X_2xEPYC-9374F/llama2-70b-99.9/{Offline,Server}/performance/run_1/
 * mlperf_log_summary.txt; the layout from closed/AMD/code/llama2-70b-99.9/test_VllmFp8/: vLLM,
 * TP 1, FP8 weights and activations (quark wfp8_afp8), --kv-cache-dtype fp8). Output tokens a
 * request: 3062.72 tokens/s / 10.4445 samples/s = 293. The harness's batch settings are not in
 * the files: the offline case runs vLLM's own limit (batch 2048, max_num_seqs holds it). */
#define AMD41 "MLPerf Inference v4.1 closed, AMD 1xMI300X vLLM llama2-70b-99.9"
#define AMD8 "MLPerf Inference v4.1 closed, AMD 8xMI300X vLLM llama2-70b-99"
#define AMD_KNOBS "kv_dtype=fp8-e4m3"
#define RH41 "MLPerf Inference v4.1 closed, Red Hat 4xL40S vLLM 0.5.1 llama2-70b-99.9"
static const struct vcase amd[] = {
	{M_TPUT, "70B MI300X vllm offline tok/s", "llama-2-70b", "mi300x", "1", "fp8", MLPERF_PROMPT, MLPERF40_OUTPUT,
	 L_BATCH, 2048, 1, 3062.72, AMD41 " Offline", "vllm", AMD_KNOBS, NULL},
	{M_TTFT, "70B MI300X vllm 8.6 req/s TTFT", "llama-2-70b", "mi300x", "1", "fp8", MLPERF_PROMPT, MLPERF40_OUTPUT,
	 L_RATE, 8.62, 1, 401.9, AMD41 " Server", "vllm", AMD_KNOBS, NULL},
	{M_ITL, "70B MI300X vllm 8.6 req/s TPOT", "llama-2-70b", "mi300x", "1", "fp8", MLPERF_PROMPT, MLPERF40_OUTPUT,
	 L_RATE, 8.62, 1, 153.4, AMD41 " Server", "vllm", AMD_KNOBS, NULL},
	{M_TPUT, "70B MI300X vllm server tok/s", "llama-2-70b", "mi300x", "1", "fp8", MLPERF_PROMPT, MLPERF40_OUTPUT,
	 L_SLA, 0, 1, 2520.27, AMD41 " Server", "vllm", AMD_KNOBS, NULL},
	/* the same code on 8 MI300X (test_VllmFp8_*.sh: TP=1, DP=${DP:-8}: 8 replicas of TP 1),
	 * results/8xMI300X_2xEPYC-9374F and 8xMI300X_2xEPYC-TURIN (two host CPUs),
	 * llama2-70b-99/{Offline,Server}; 293 output tokens a request (23514.8 / 80.15) */
	{M_TPUT, "70B 8xMI300X vllm offline tok/s", "llama-2-70b", "mi300x", "1", "fp8", MLPERF_PROMPT, MLPERF40_OUTPUT,
	 L_BATCH, 2048, 8, 23514.8, AMD8 " (EPYC 9374F) Offline", "vllm", AMD_KNOBS, NULL},
	{M_TTFT, "70B 8xMI300X vllm 73.7 req/s TTFT", "llama-2-70b", "mi300x", "1", "fp8", MLPERF_PROMPT,
	 MLPERF40_OUTPUT, L_RATE, 73.66 / 8, 8, 1006.3, AMD8 " (EPYC 9374F) Server", "vllm", AMD_KNOBS, NULL},
	{M_ITL, "70B 8xMI300X vllm 73.7 req/s TPOT", "llama-2-70b", "mi300x", "1", "fp8", MLPERF_PROMPT,
	 MLPERF40_OUTPUT, L_RATE, 73.66 / 8, 8, 143.1, AMD8 " (EPYC 9374F) Server", "vllm", AMD_KNOBS, NULL},
	{M_TPUT, "70B 8xMI300X vllm server tok/s", "llama-2-70b", "mi300x", "1", "fp8", MLPERF_PROMPT, MLPERF40_OUTPUT,
	 L_SLA, 0, 8, 21028.23, AMD8 " (EPYC 9374F) Server", "vllm", AMD_KNOBS, NULL},
	{M_TPUT, "70B 8xMI300X Turin offline tok/s", "llama-2-70b", "mi300x", "1", "fp8", MLPERF_PROMPT,
	 MLPERF40_OUTPUT, L_BATCH, 2048, 8, 24109.8, AMD8 " (EPYC Turin) Offline", "vllm", AMD_KNOBS, NULL},
	{M_TTFT, "70B 8xMI300X Turin 76 req/s TTFT", "llama-2-70b", "mi300x", "1", "fp8", MLPERF_PROMPT,
	 MLPERF40_OUTPUT, L_RATE, 76.17 / 8, 8, 1038.4, AMD8 " (EPYC Turin) Server", "vllm", AMD_KNOBS, NULL},
	{M_ITL, "70B 8xMI300X Turin 76 req/s TPOT", "llama-2-70b", "mi300x", "1", "fp8", MLPERF_PROMPT,
	 MLPERF40_OUTPUT, L_RATE, 76.17 / 8, 8, 143.1, AMD8 " (EPYC Turin) Server", "vllm", AMD_KNOBS, NULL},
	{M_TPUT, "70B 8xMI300X Turin server tok/s", "llama-2-70b", "mi300x", "1", "fp8", MLPERF_PROMPT,
	 MLPERF40_OUTPUT, L_SLA, 0, 8, 22020.92, AMD8 " (EPYC Turin) Server", "vllm", AMD_KNOBS, NULL},
	/* Red Hat, the same round: vLLM 0.5.1 on 4 L40S (PCIe) as 2 replicas of TP 2
	 * (closed/RedHat/code/llama2-70b-99.9/README.md: "on 4xL40S, we created two copies";
	 * systems/L40S-RedHat-OpenShift.json), FP8 weights (AutoFP8, quantize-autofp8.py), the KV
	 * cache at vLLM's default 16 bits (the serving runtime's arguments are not in the files);
	 * results/L40S-RedHat-OpenShift/llama2-70b-99.9/{Offline,Server}; 291 output tokens a
	 * request (1717.77 / 5.91055). Offline, the client sends 12288 prompts at a time. */
	{M_TPUT, "70B 4xL40S vllm offline tok/s", "llama-2-70b", "l40s", "2", "fp8", MLPERF_PROMPT, MLPERF_OUTPUT,
	 L_BATCH, 2048, 2, 1717.77, RH41 " Offline", "vllm", NULL, NULL},
	{M_TTFT, "70B 4xL40S vllm 5 req/s TTFT", "llama-2-70b", "l40s", "2", "fp8", MLPERF_PROMPT, MLPERF_OUTPUT,
	 L_RATE, 5.01 / 2, 2, 277.7, RH41 " Server", "vllm", NULL, NULL},
	{M_ITL, "70B 4xL40S vllm 5 req/s TPOT", "llama-2-70b", "l40s", "2", "fp8", MLPERF_PROMPT, MLPERF_OUTPUT,
	 L_RATE, 5.01 / 2, 2, 120.8, RH41 " Server", "vllm", NULL, NULL},
	{M_TPUT, "70B 4xL40S vllm server tok/s", "llama-2-70b", "l40s", "2", "fp8", MLPERF_PROMPT, MLPERF_OUTPUT,
	 L_SLA, 0, 2, 1469.19, RH41 " Server", "vllm", NULL, NULL},
};

/* SGLang v0.3.0 against vLLM v0.6.0, the SGLang team's published runs (github.com/sgl-project/
 * sglang, benchmark/benchmark_vllm_060/README.md): ShareGPT through sglang.bench_serving at 4 and
 * 8 requests/s (Poisson), median TTFT and median TPOT; the offline runs (every prompt at once)
 * for output tokens/s. Llama 3.1 8B Instruct on one A100 80G, Llama 3.1 70B Instruct on 4 H100
 * at TP 4, 16-bit weights, radix cache off; vLLM with --num-scheduler-steps 10 (its ITL column
 * counts the 10-step bursts, so the case reads TPOT). Output tokens a request: the offline
 * tables' tokens/s over requests/s (4281.51 / 22.03 = 194.3); the prompts' mean is not printed:
 * SHAREGPT_PROMPT is the 202 of vLLM's v0.6 post for the same dataset, an assumption. The
 * median E2E column is left out: it is the median request's, not the mean lengths'. */
#define SHAREGPT_PROMPT "202" /* assumed: vLLM v0.6 post (blog.vllm.ai 2024-09-05), ShareGPT mean input */
#define SHAREGPT_OUTPUT "194" /* 4281.51 output tokens/s / 22.03 requests/s (SGLang 8B offline) */
#define SGL "SGLang v0.3 vs vLLM v0.6 (sglang benchmark/benchmark_vllm_060)"
/* every vLLM run of the README starts the server with --num-scheduler-steps 10 (its Notes) */
#define MULTISTEP "scheduler_steps=10"
#define SG8(m, lab, eng, rps, pub, kn) \
	{m, lab, "llama-3-8b", "a100-80gb-sxm", "1", NULL, SHAREGPT_PROMPT, SHAREGPT_OUTPUT, L_RATE, rps, 1, pub, SGL, eng, kn, NULL}
#define SG70(m, lab, eng, rps, pub, kn) \
	{m, lab, "llama-3-70b", "h100-sxm", "4", NULL, SHAREGPT_PROMPT, SHAREGPT_OUTPUT, L_RATE, rps, 1, pub, SGL, eng, kn, NULL}
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
	SG8(M_ITL, "8B A100 sglang 4 req/s ITL ms", "sglang", 4, 11.93, NULL),
	SG8(M_ITL, "8B A100 sglang 8 req/s ITL ms", "sglang", 8, 14.41, NULL),
	SG70(M_ITL, "70B H100 tp4 sglang 4 req/s ITL", "sglang", 4, 21.67, NULL),
	SG70(M_ITL, "70B H100 tp4 sglang 8 req/s ITL", "sglang", 8, 24.45, NULL),
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
};

static int cmp(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

static double median(double *v, size_t n)
{
	qsort(v, n, sizeof v[0], cmp);
	return n == 0 ? 0.0 : n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

static void scenario(struct engine_scenario *sc, const struct vcase *c, const struct engine_catalog *cat)
{
	struct napkin_err e;

	engine_scenario_default(sc);
	util_err_clear(&e);
	if (engine_knob_set(sc, engine_knob_find("model"), c->model, cat, &e) != 0)
		fail_msg("model: %s", e.msg);
	if (engine_knob_set(sc, engine_knob_find("gpu"), c->gpu, cat, &e) != 0)
		fail_msg("gpu: %s", e.msg);
	te_set(sc, "mode", "infer");
	te_set(sc, "engine", c->engine ? c->engine : "trtllm");
	te_set(sc, "gpus", c->tp);
	te_set(sc, "tp", c->tp);
	if (c->weights)
		te_set(sc, "weight_format", c->weights);
	te_set(sc, "prompt", c->prompt);
	te_set(sc, "generate", c->generate);
	if (c->knobs) {
		char buf[256], *save = NULL, *kv;
		snprintf(buf, sizeof buf, "%s", c->knobs);
		for (kv = strtok_r(buf, ";", &save); kv; kv = strtok_r(NULL, ";", &save)) {
			char *eq = strchr(kv, '=');
			if (!eq)
				fail_msg("knob without a value: %s", kv);
			*eq = '\0';
			te_set(sc, kv, eq + 1);
		}
	}
}

static void set_batch(struct engine_scenario *sc, double users)
{
	char v[32];
	snprintf(v, sizeof v, "%.0f", users);
	te_set(sc, "batch", v);
}

/* The prediction in the published unit; *bound_ms: the weights read once a generated token
 * at the datasheet bandwidth; *saturated: the published rate is beyond the most the
 * predicted replica completes. */
static double predict(const struct vcase *c, const struct engine_catalog *cat, double *bound_ms, bool *saturated)
{
	struct engine_scenario sc;
	struct engine_result r;

	*saturated = false;
	scenario(&sc, c, cat);
	if (c->load == L_BATCH) {
		set_batch(&sc, c->batch_or_rate);
		te_evaluate(&sc, &r);
	} else if (c->load == L_RATE) {
		/* the fewest users whose steady state completes the published rate (Little's law) */
		double lo = 1.0, hi = 8192.0;
		while (hi - lo > 1.0) {
			double mid = floor(0.5 * (lo + hi));
			set_batch(&sc, mid);
			te_evaluate(&sc, &r);
			if (r.serving.requests_per_s >= c->batch_or_rate)
				hi = mid;
			else
				lo = mid;
		}
		set_batch(&sc, hi);
		te_evaluate(&sc, &r);
		*saturated = r.serving.requests_per_s < c->batch_or_rate * 0.999;
	} else {
		te_set(&sc, "ttft_slo", "2");
		te_set(&sc, "tpot_slo", "0.2");
		set_batch(&sc, 1.0);
		te_evaluate(&sc, &r);
		return r.serving.sla_tokens_per_s_gpu * (double)sc.tp * c->replicas;
	}
	*bound_ms = strtod(c->generate, NULL) * r.memory.weights / sc.gpu.bandwidth * 1e3;
	switch (c->metric) {
	case M_E2E:
		return r.serving.e2e_seconds * 1e3;
	case M_TTFT:
		return r.serving.ttft_seconds * 1e3;
	case M_ITL:
		return r.serving.itl_seconds * 1e3;
	case M_CAP:
		return r.serving.kv_tokens;
	default:
		return r.serving.tokens_per_s_replica * c->replicas;
	}
}

#define MAXC 128

static void test_published_serving(void **state)
{
	static struct vcase cases[MAXC];
	static char labels[MAXC][64];
	static double err[M_COUNT][MAXC], sig[M_COUNT][MAXC], merr[M_COUNT][MAXC], msig[M_COUNT][MAXC];
	double med[M_COUNT], smed[M_COUNT], mmed[M_COUNT], msmed[M_COUNT], e7[64] = {0};
	size_t n = 0, cnt[M_COUNT] = {0}, mcnt[M_COUNT] = {0}, n7 = 0, i, excluded = 0, saturated = 0, apart = 0;
	int m, g;
	struct preset_registry *reg = tp_builtin();
	struct engine_catalog cat = preset_catalog(reg);

	(void)state;
	for (g = 0; g < 2; g++)
		for (i = 0; i < sizeof rows7b / sizeof rows7b[0] + sizeof rows13b / sizeof rows13b[0]; i++) {
			bool is7 = i < sizeof rows7b / sizeof rows7b[0];
			const struct nemo_row *row = is7 ? &rows7b[i] : &rows13b[i - sizeof rows7b / sizeof rows7b[0]];
			struct vcase *c = &cases[n];
			snprintf(labels[n], sizeof labels[n], "%s %s tp%s batch %s e2e ms", is7 ? "7B" : "13B",
				 g ? "H100" : "A100", row->tp, row->batch);
			c->metric = M_E2E;
			c->label = labels[n];
			c->model = is7 ? "llama-2-7b" : "llama-2-13b";
			c->gpu = g ? "h100-sxm" : "a100-80gb-sxm";
			c->tp = row->tp;
			c->weights = NULL;
			c->prompt = "128";
			c->generate = "20";
			c->load = L_BATCH;
			c->batch_or_rate = strtod(row->batch, NULL);
			c->replicas = 1;
			c->published = g ? row->h100_ms : row->a100_ms;
			c->source = "NeMo Llama-2 inference table";
			c->engine = NULL;
			c->knobs = NULL;
			c->apart = NULL;
			n++;
		}
	for (i = 0; i < sizeof mlperf / sizeof mlperf[0]; i++)
		cases[n++] = mlperf[i];
	for (i = 0; i < sizeof amd / sizeof amd[0]; i++)
		cases[n++] = amd[i];
	for (i = 0; i < sizeof sglang / sizeof sglang[0]; i++)
		cases[n++] = sglang[i];
	for (i = 0; i < sizeof capacity / sizeof capacity[0]; i++)
		cases[n++] = capacity[i];

	printf("%-32s %10s %10s %7s  %s\n", "case", "published", "predicted", "error", "source");
	for (i = 0; i < n; i++) {
		const struct vcase *c = &cases[i];
		double bound = 0.0, pred, e;
		bool sat;
		pred = predict(c, &cat, &bound, &sat);
		e = pred / c->published - 1.0;
		if (c->metric == M_E2E && c->published < bound) {
			printf("%-32s %10.1f %10.1f %7s  %s (excluded: below the weights' bandwidth bound %.0f ms)\n", c->label,
			       c->published, pred, "", c->source, bound);
			excluded++;
			continue;
		}
		printf("%-32s %10.1f %10.1f %+6.1f%%  %s%s%s%s%s\n", c->label, c->published, pred, 100.0 * e, c->source,
		       sat ? " (napkin saturates below this rate)" : "", c->apart ? " (apart: " : "",
		       c->apart ? c->apart : "", c->apart ? ")" : "");
		saturated += sat;
		apart += c->apart != NULL;
		err[c->metric][cnt[c->metric]] = fabs(e);
		sig[c->metric][cnt[c->metric]++] = e;
		if (!sat && !c->apart) {
			merr[c->metric][mcnt[c->metric]] = fabs(e);
			msig[c->metric][mcnt[c->metric]++] = e;
		}
		if (strncmp(c->label, "7B ", 3) == 0)
			e7[n7++] = fabs(e);
	}
	preset_registry_free(reg);
	printf("\n%-16s %4s %14s %14s   %4s %14s %14s\n", "metric", "n", "median |error|", "signed median", "n",
	       "modelled |err|", "signed");
	for (m = 0; m < M_COUNT; m++) {
		med[m] = median(err[m], cnt[m]);
		smed[m] = median(sig[m], cnt[m]);
		mmed[m] = median(merr[m], mcnt[m]);
		msmed[m] = median(msig[m], mcnt[m]);
		printf("%-16s %4zu %13.1f%% %+13.1f%%   %4zu %13.1f%% %+13.1f%%\n", metric_name[m], cnt[m], 100.0 * med[m],
		       100.0 * smed[m], mcnt[m], 100.0 * mmed[m], 100.0 * msmed[m]);
	}
	printf("%zu cases excluded (faster than their weights' bandwidth bound), %zu at a rate napkin does not sustain,"
	       " %zu apart (a schedule napkin does not model); modelled: neither of the last two\n",
	       excluded, saturated, apart);
	/* today's model (docs/serving-validation.md); each bound a little above what it reaches.
	 * With the decode GEMM's weight stream at 78% and no wave floor under 64 rows
	 * (serve_step.c STREAM_BW, FEW_ROWS) and gpt-fast's 32 µs an all-reduce (serving.c
	 * ENG_AR_LATENCY): request latency 10.0% -> 6.8% (7B rows 8.7% -> 6.0%), TTFT 26.4% -> 24.0%
	 * (modelled 19.5% -> 14.6%), ITL 21.4% -> 11.2% (modelled 17.4% -> 8.5%), throughput
	 * 24.7% -> 23.5%. With the 78% stream alone and the 8 µs all-reduce: request latency 24.0%,
	 * TTFT 32.0%: the floor had stood in for the all-reduces' cost. */
	assert_true(n - excluded >= 102);
	assert_true(cnt[M_TTFT] >= 16 && cnt[M_ITL] >= 20 && cnt[M_TPUT] >= 20 && cnt[M_CAP] >= 3);
	assert_true(median(e7, n7) <= 0.07);
	assert_true(med[M_E2E] <= 0.08);
	assert_true(med[M_ITL] <= 0.14);
	assert_true(med[M_TPUT] <= 0.24);
	assert_true(med[M_CAP] <= 0.07);
	/* vLLM's multi-step runs are modelled (scheduler_steps): none apart, 9 TTFT cases counted */
	assert_true(apart == 0 && mcnt[M_TTFT] >= 11);
	assert_true(mmed[M_TTFT] <= 0.15);
	assert_true(mmed[M_ITL] <= 0.09);
	/* TTFT at MLPerf's server rates: napkin saturates at NVIDIA's four and Red Hat's L40S
	 * run today, 10 cases (its 16-bit KV cache at the assumed 512-token prompts admits fewer sequences
	 * than the systems run in flight), so its TTFT there is a queue, and the 5 of 16 TTFT
	 * cases set the unmodelled median; the count may only fall */
	assert_true(saturated <= 10);
	assert_true(med[M_TTFT] <= 0.44);
}

static const struct CMUnitTest tests[] = {
	cmocka_unit_test(test_published_serving),
};

TESTUTIL_MAIN("serving_validation", tests)
