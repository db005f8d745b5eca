/*
 * The tails cases of test_serving_validation.c (test_published_percentiles): the MLPerf
 * Server runs' mean and 99th-percentile TTFT and TPOT. Included by serving_cases.h alone
 * (after the tables whose sources and knobs it names).
 */
#ifndef NAPKIN_SERVING_CASES_TAILS_H
#define NAPKIN_SERVING_CASES_TAILS_H

/* The tails of the same Server runs (test_serving_validation.c, test_published_percentiles):
 * each mlperf_log_summary.txt above also prints the LoadGen's percentiles, "99.00 percentile
 * first token latency (ns)" and "99.00 percentile time to output token (ns)" (a request's
 * TPOT: its latency after the first token over its tokens after the first), beside the
 * means the M_TTFT and M_ITL rows hold; ms here, as printed ÷ 1e6. One row a system, the
 * same layout, knobs and rate a replica as its mean rows, and its set's prompt_cv (the
 * prompts' spread, MLPERF_PROMPT_CV and MIXTRAL_PROMPT_CV above). The v4.0 runs (MLPERF40) are not
 * in the mirror this was read from, and AMD's and Dell's v5.1 runs are at a rate napkin
 * does not sustain (no stationary law): neither is a row. HPE's v5.1 RTX PRO 6000 runs
 * (Llama-2-70B p99 TTFT 607.4 ms, TPOT 191.3 ms; Mixtral 507.2, 165.5) are not rows either:
 * a row carries no weight format (the test runs each as FP8) and the SLA comparison below it
 * reads the v4.1 tables only. */
struct pcase {
	const char *label, *model, *gpu, *tp, *prompt, *prompt_cv, *generate;
	double rate;                  /* requests/s a replica */
	double ttft_mean, ttft_p99;   /* ms */
	double tpot_mean, tpot_p99;   /* ms */
	const char *source, *engine, *knobs;
};
static const struct pcase tails[] = {
	{"70B H100 tp2 75 req/s", "llama-2-70b", "h100-sxm", "2", MLPERF_PROMPT, MLPERF_PROMPT_CV, MLPERF_OUTPUT, 75.10 / 4, 275.9,
	 461.3, 155.0, 175.4, MLPERF " DGX-H100 llama2-70b-99.9 Server", NULL, TRT41 ";max_num_seqs=1024"},
	{"70B H200 tp1 101 req/s", "llama-2-70b", "h200-sxm", "1", MLPERF_PROMPT, MLPERF_PROMPT_CV, "291", 101.25 / 8, 198.3, 452.7,
	 123.3, 146.0, MLPERF " H200-SXM-141GBx8 llama2-70b-99 Server", NULL, TRT41 ";max_num_seqs=896"},
	{"70B MI300X vllm 8.6 req/s", "llama-2-70b", "mi300x", "1", MLPERF_PROMPT, MLPERF_PROMPT_CV, MLPERF40_OUTPUT, 8.62, 401.9, 785.3,
	 153.4, 190.3, AMD41 " Server", "vllm", AMD41_SERVER1},
	{"70B 8xMI300X vllm 73.7 req/s", "llama-2-70b", "mi300x", "1", MLPERF_PROMPT, MLPERF_PROMPT_CV, MLPERF40_OUTPUT, 73.66 / 8, 1006.3,
	 1604.2, 143.1, 197.9, AMD8 " (EPYC 9374F) Server", "vllm", AMD41_SERVER8},
	{"70B 8xMI300X Turin 76 req/s", "llama-2-70b", "mi300x", "1", MLPERF_PROMPT, MLPERF_PROMPT_CV, MLPERF40_OUTPUT, 76.17 / 8, 1038.4,
	 1660.4, 143.1, 198.7, AMD8 " (EPYC Turin) Server", "vllm", AMD41_SERVER8},
	{"70B 4xL40S vllm 5 req/s", "llama-2-70b", "l40s", "2", MLPERF_PROMPT, MLPERF_PROMPT_CV, "291", 5.01 / 2, 277.7, 750.8, 120.8,
	 144.2, RH41 " Server", "vllm", RH41KN},
	{"70B 8xL40S trt 11 req/s", "llama-2-70b", "l40s", "4", MLPERF_PROMPT, MLPERF_PROMPT_CV, "293", 11.02 / 2, 291.3, 664.2, 143.3, 176.6,
	 MLP41 "Fujitsu CDI_L40Sx8_TRT llama2-70b-99 Server", NULL, TRT41 ";max_num_seqs=1024"},
	{"70B 8xH100PCIe 28 req/s", "llama-2-70b", "h100-pcie", "2", MLPERF_PROMPT, MLPERF_PROMPT_CV, "291", 28.01 / 4, 267.1, 560.7, 135.5,
	 157.2, MLP41 "ASUSTeK ESC8000A_E12_H100x8_TRT llama2-70b-99 Server", NULL,
	 TRT41 NOLINK ";gpu_memory_utilization=0.95;max_num_seqs=896"},
	{"70B 4xH100NVL 20 req/s", "llama-2-70b", "h100-nvl", "2", MLPERF_PROMPT, MLPERF_PROMPT_CV, "291", 20.04 / 2, 260.4, 548.1, 137.9,
	 166.0, MLP41 "ASUSTeK ESC4000A_E12_4XH100_TRT llama2-70b-99 Server", NULL, TRT41 NOLINK ";max_num_seqs=640"},
	{"70B 4xH100NVL-NVL 24 req/s", "llama-2-70b", "h100-nvl", "2", MLPERF_PROMPT, MLPERF_PROMPT_CV, "290", 24.01 / 2, 195.6, 383.9, 103.9,
	 121.9, MLP41 "HPE DL380a_H100_NVL_94GBx4_TRT llama2-70b-99 Server", NULL, TRT41 ";gpu_memory_utilization=0.95;max_num_seqs=1024"},
	{"70B 8xH100NVL tp1 45 req/s", "llama-2-70b", "h100-nvl", "1", MLPERF_PROMPT, MLPERF_PROMPT_CV, "291", 45.03 / 8, 138.9, 359.4, 67.6,
	 87.0, MLP41 "Lenovo SR675_V3_8xH100_NVL_TRT llama2-70b-99 Server", NULL, TRT41 ";max_num_seqs=640"},
	{"Mixtral H100 tp1 348 req/s", "mixtral-8x7b", "h100-sxm", "1", MIXTRAL_PROMPT, MIXTRAL_PROMPT_CV, "146", 348.37 / 8, 180.0, 628.9,
	 102.6, 123.1, MLP41 "NVIDIA DGX-H100 mixtral-8x7b Server", NULL, FP8KV ";max_batched_tokens=16384;max_num_seqs=896"},
	{"Mixtral H200 tp1 392 req/s", "mixtral-8x7b", "h200-sxm", "1", MIXTRAL_PROMPT, MIXTRAL_PROMPT_CV, "146", 392.18 / 8, 227.6, 539.7,
	 138.4, 167.0, MLP41 "NVIDIA H200-SXM-141GBx8 mixtral-8x7b Server", NULL, FP8KV ";max_batched_tokens=8192;max_num_seqs=1200"},
	{"70B 8xMI300X Dell 68.7 req/s", "llama-2-70b", "mi300x", "1", MLPERF_PROMPT, MLPERF_PROMPT_CV, "294", 68.65 / 8, 1203.9, 1723.3,
	 142.7, 196.0, MLP41 "Dell XE9680_MI300X_192GBx8 vLLM llama2-70b-99 Server", "vllm", DELL41_SERVER8},
};

#endif
