/*
 * Serving as the engines run it: the kernel-boundary bubbles of an engine step, the sequences
 * a step holds (vLLM V0 and V1, the user's max_num_seqs), prefill in the decode steps or
 * apart (mixed_prefill), expert parallelism over replicas for
 * MoE models, and decode attention at the engine's kernel's measured rate.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "engine.h"
#include "presets.h"
#include "serve_internal.h"
#include "serving_scenarios.h"
#include "testengine.h"
#include "testpresets.h"
#include "testutil.h"

static double lesser(double a, double b)
{
	return a < b ? a : b;
}

/* Kernel boundaries (serve_step.c, Spector et al. 2025, Hazy Research): Llama-3.2-1B's 2.47 GB of
 * bf16 weights a token take 0.738 ms at an H100's 3.35 TB/s; vLLM and SGLang reach 50% of the
 * bandwidth, a megakernel 78%, so its 16 layers idle 0.738 × (1/0.50 − 1/0.78) = 0.530 ms a
 * token: 33.1 µs a layer, every step of an engine, none in the bound. */
static void test_kernel_bubbles(void **state)
{
	struct engine_scenario sc;
	struct engine_result r, none;
	double layer = 0.738e-3 * (1.0 / 0.50 - 1.0 / 0.78) / 16.0;

	(void)state;
	assert_float_equal(layer, 33.1e-6, 0.1e-6);
	llama2_7b_infer(&sc);
	te_set(&sc, "engine", "vllm");
	te_set(&sc, "prompt", "128");
	te_set(&sc, "generate", "20");
	te_evaluate(&sc, &r);
	/* Llama-2-7B's 32 layers: 1.06 ms a step */
	assert_float_equal(r.serving.bubble_seconds, 32.0 * layer, 1e-9);
	te_set(&sc, "engine", "none");
	te_evaluate(&sc, &none);
	assert_float_equal(none.serving.bubble_seconds, 0.0, 0.0);
	/* the decode step carries them: vLLM's decode step exceeds the bound's by at least them
	 * and its fixed cost */
	assert_true(r.serving.decode_step_seconds >= none.serving.decode_step_seconds + 32.0 * layer + 1.5e-3 - 1e-9);
}

/* Multi-step scheduling is vLLM V0's (0.6 to 0.9): V0's EngineArgs caps a step at 256
 * sequences on every card (vllm/engine/arg_utils.py, v0.6.0, max_num_seqs: int = 256), where V1
 * allows 1024 on cards of 70 GiB or more other than the A100 (EngineArgs.get_batch_defaults). */
static void test_v0_max_seqs(void **state)
{
	struct engine_scenario sc;
	struct engine_result v1, v0;

	(void)state;
	llama2_7b_infer(&sc);
	te_set(&sc, "engine", "vllm");
	te_evaluate(&sc, &v1);
	assert_float_equal(v1.serving.max_seqs, 1024.0, 0.0);
	te_set(&sc, "scheduler_steps", "10");
	te_evaluate(&sc, &v0);
	assert_float_equal(v0.serving.max_seqs, 256.0, 0.0);
	/* SGLang has no such rule */
	te_set(&sc, "engine", "sglang");
	te_evaluate(&sc, &v0);
	assert_float_equal(v0.serving.max_seqs, 4096.0, 0.0);
	/* the user's --max-num-seqs is kept over either default (AMD's MLPerf v5.1 vLLM runs set
	 * 600 to 5000 with multi-step scheduling) */
	te_set(&sc, "engine", "vllm");
	te_set(&sc, "max_num_seqs", "2048");
	te_evaluate(&sc, &v0);
	assert_float_equal(v0.serving.max_seqs, 2048.0, 0.0);
	te_set(&sc, "scheduler_steps", "1");
	te_set(&sc, "max_num_seqs", "8");
	te_set(&sc, "batch", "64");
	te_evaluate(&sc, &v1);
	assert_float_equal(v1.serving.max_seqs, 8.0, 0.0);
	/* at most 8 of the 64 users run a step */
	assert_true(v1.serving.running <= 8.0 + 1e-9);
}

/* Prefill in the decode steps or in steps of its own (serve_engine.c, the mixed_prefill knob).
 * vLLM 0.6.0 refused chunked prefill with multi-step scheduling ("Chunked prefill is not
 * supported with multi-step", vllm-project/vllm issue 8274), so vLLM with scheduler_steps > 1
 * prefills apart by default, each prompt whole in a step of at most max(max_model_len, 2048)
 * tokens (V0's SchedulerConfig without chunked prefill); V1 mixes; the knob overrides either,
 * and SGLang's --enable-mixed-chunk (on) mixes. Apart, the decodes pause for the prefill
 * steps: the mean gap is at least the decode-only step. Under multi-step scheduling a new
 * prompt waits out the running bundle, (k − 1)/2 decode steps on average: the TTFT holds its
 * own prefill step and that residual, and its spread (the phase, uniform) holds the residual. */
static void test_mixed_prefill(void **state)
{
	struct engine_scenario sc;
	struct engine_result r;
	struct napkin_err err;
	double residual;

	(void)state;
	llama2_7b_infer(&sc);
	te_set(&sc, "engine", "vllm");
	te_set(&sc, "max_positions", "4096");
	te_set(&sc, "prompt", "512");
	te_set(&sc, "generate", "256");
	te_set(&sc, "batch", "32");
	te_evaluate(&sc, &r);
	assert_false(r.serving.prefill_apart); /* V1: chunked prefill always on */
	assert_int_equal(r.serving.prefill_from, ENGINE_PREFILL_ENGINE);
	te_set(&sc, "scheduler_steps", "10");
	te_evaluate(&sc, &r);
	assert_true(r.serving.prefill_apart);
	assert_int_equal(r.serving.prefill_from, ENGINE_PREFILL_MULTISTEP);
	assert_float_equal(r.serving.budget, 4096.0, 0.0); /* max(max_model_len 4096, 2048) */
	assert_float_equal(r.serving.chunk, 512.0, 1e-9);  /* a prompt whole a step */
	assert_true(r.serving.itl_seconds >= r.serving.decode_step_seconds);
	residual = 0.5 * (10.0 - 1.0) * r.serving.decode_step_seconds;
	assert_true(r.serving.ttft_seconds >= r.serving.mixed_step_seconds + residual);
	/* a closed load: p50 is the mean, the 99th percentile 0.98 of the phase above it */
	assert_true(r.serving.ttft_p99_seconds - r.serving.ttft_p50_seconds >= 0.98 * residual - 1e-12);
	/* vLLM 0.6.3 and later take --enable-chunked-prefill with multi-step (PR 8645) */
	te_set(&sc, "mixed_prefill", "on");
	te_evaluate(&sc, &r);
	assert_false(r.serving.prefill_apart);
	assert_int_equal(r.serving.prefill_from, ENGINE_PREFILL_KNOB);
	/* SGLang apart by default, mixed with --enable-mixed-chunk; TensorRT-LLM apart when told */
	te_set(&sc, "scheduler_steps", "1");
	te_set(&sc, "engine", "sglang");
	te_set(&sc, "mixed_prefill", "auto");
	te_evaluate(&sc, &r);
	assert_true(r.serving.prefill_apart);
	assert_int_equal(r.serving.prefill_from, ENGINE_PREFILL_ENGINE);
	te_set(&sc, "mixed_prefill", "on");
	te_evaluate(&sc, &r);
	assert_false(r.serving.prefill_apart);
	assert_false(te_warned(&r, "no such switch"));
	te_set(&sc, "engine", "trtllm");
	te_set(&sc, "mixed_prefill", "off");
	te_evaluate(&sc, &r);
	assert_true(r.serving.prefill_apart);
	assert_true(r.serving.itl_seconds >= r.serving.decode_step_seconds);
	/* TensorRT-LLM has no such switch: modelled as asked, and said */
	assert_true(te_warned(&r, "TensorRT-LLM has no such switch"));
	/* a value that is none of them: the error names the choices */
	assert_int_not_equal(engine_knob_set(&sc, engine_knob_find("mixed_prefill"), "maybe", NULL, &err), 0);
	assert_non_null(strstr(err.msg, "auto, on, off"));
}

/* Mixtral-8x7B (HF mistralai/Mixtral-8x7B-v0.1 config.json): Mistral-7B's shape without the
 * sliding window, 8 experts, 2 a token; served on 8 × H100 SXM, TP 2. */
static void mixtral_tp2(struct engine_scenario *sc, const char *ep)
{
	mistral_7b(sc);
	te_set(sc, "sliding_window", "0");
	te_set(sc, "experts", "8");
	te_set(sc, "top_k", "2");
	te_set(sc, "engine", "vllm");
	te_set(sc, "gpus", "8");
	te_set(sc, "tp", "2");
	te_set(sc, "ep", ep);
	te_set(sc, "prompt", "512");
	te_set(sc, "generate", "256");
	te_set(sc, "batch", "32");
}

/* Expert parallelism in serving (vLLM's --enable-expert-parallel over data-parallel replicas,
 * SGLang's --ep-size): a GPU holds E/ep of the routed experts and computes them for the
 * tokens of ep replicas, and every MoE layer dispatches and combines over the ep group. */
static void test_expert_parallel(void **state)
{
	struct engine_scenario sc;
	struct engine_result one, four;
	/* the routed experts by hand: 32 layers × 8 experts × 3 matrices of 4096 × 14336 */
	double experts = 32.0 * 8.0 * 3.0 * 4096.0 * 14336.0;

	(void)state;
	assert_float_equal(experts, 45.10e9, 0.01e9);
	mixtral_tp2(&sc, "1");
	te_evaluate(&sc, &one);
	mixtral_tp2(&sc, "4");
	te_evaluate(&sc, &four);
	/* memory: each GPU sheds 3/4 of its TP share of the experts' bf16 weights */
	assert_float_equal(one.memory.weights - four.memory.weights, experts * 2.0 / 2.0 * 0.75, 0.01e9);
	/* a decode step of 32 sequences is bound by the weights it reads: with a quarter of the
	 * experts a GPU, each read for four replicas' tokens, the step is shorter */
	assert_true(four.serving.decode_step_seconds < one.serving.decode_step_seconds);
	assert_true(four.serving.itl_seconds < one.serving.itl_seconds);
	/* dispatch and combine: two all-to-alls a MoE layer, each at least NCCL's small-message
	 * time (nccl-tests: about 20 µs a call) */
	assert_float_equal(one.serving.ep_comm_seconds, 0.0, 0.0);
	assert_true(four.serving.ep_comm_seconds >= 2.0 * 32.0 * 20e-6);
	assert_true(four.serving.mixed_step_seconds > four.serving.ep_comm_seconds);
}

/* The roofline figures are bounds: at 100% of the peak the linears run on and of the
 * bandwidth, so the engine's steady state never beats them. fp8 weights serve W8A8 on the
 * FP8 tensor cores (serve_step.c), so their bounds take the FP8 peak: with the 16-bit one the
 * "bound" on TTFT read 403 ms over a steady-state TTFT of 365 ms (Llama-3-70B, TP 2, 5000
 * tokens in). */
static void test_bounds_hold(void **state)
{
	static const char *const formats[] = {"dtype", "fp8", "awq"};
	static const char *const users[] = {"1", "8", "64"};
	struct engine_scenario sc;
	struct engine_result r;
	size_t f, u;

	(void)state;
	for (f = 0; f < sizeof formats / sizeof formats[0]; f++)
		for (u = 0; u < sizeof users / sizeof users[0]; u++) {
			llama3_70b_tp2(&sc);
			te_set(&sc, "engine", "vllm");
			te_set(&sc, "weight_format", formats[f]);
			te_set(&sc, "prompt", "5000");
			te_set(&sc, "generate", "500");
			te_set(&sc, "batch", users[u]);
			te_evaluate(&sc, &r);
			print_message("%s, %s users (%.0f run): TTFT %.1f ms (bound %.1f), ITL %.2f ms (bound %.2f)\n", formats[f],
				      users[u], r.serving.running, 1e3 * r.serving.ttft_seconds, 1e3 * r.inference.ttft_seconds,
				      1e3 * r.serving.itl_seconds, 1e3 * r.inference.tpot_seconds);
			assert_true(r.serving.ttft_seconds >= r.inference.ttft_seconds);
			/* the TPOT bound decodes every user at once: a bound where the engine admits them
			 * all (the report says so where it does not) */
			if (r.serving.running >= (double)sc.batch)
				assert_true(r.serving.itl_seconds >= r.inference.tpot_seconds);
		}
}

/* The bounds under expert parallelism: a GPU holds E/ep of the routed experts (memory.c)
 * and computes them for ep replicas' tokens, so no bound may read more of the experts than
 * that. Before, the decode bound read every expert the replica's tokens reach, as without
 * ep: DeepSeek-V3 over 16 GPUs (ep 16, 64 users, SGLang) had "TPOT ≥ 177.7 ms" over a
 * predicted 108.9 ms ITL (5.8 TB of fp8 experts at 3.35 TB/s, not the 56 GiB a GPU holds);
 * Mixtral on ep 8, 128 tokens in, a TTFT bound of 28.5 ms over the predicted 21.9 ms; the ops
 * table's decode step (report --ops) read 598.7 GB a GPU for DeepSeek-V3's, now 71.4 GB. */
static void test_bounds_hold_ep(void **state)
{
	static const char *const eps[] = {"1", "2", "4"};
	static const char *const prompts[] = {"4", "128", "2000"};
	static const char *const users[] = {"1", "16", "64"};
	struct engine_scenario sc;
	struct engine_result r;
	size_t e, p, u;

	(void)state;
	for (e = 0; e < sizeof eps / sizeof eps[0]; e++)
		for (p = 0; p < sizeof prompts / sizeof prompts[0]; p++)
			for (u = 0; u < sizeof users / sizeof users[0]; u++) {
				double held;
				mixtral_tp2(&sc, eps[e]);
				te_set(&sc, "prompt", prompts[p]);
				te_set(&sc, "batch", users[u]);
				te_evaluate(&sc, &r);
				print_message("ep %s, prompt %s, %s users: TTFT %.2f ms (bound %.2f), ITL %.3f ms (bound %.3f)\n",
					      eps[e], prompts[p], users[u], 1e3 * r.serving.ttft_seconds,
					      1e3 * r.inference.ttft_seconds, 1e3 * r.serving.itl_seconds,
					      1e3 * r.inference.tpot_seconds);
				assert_true(r.serving.ttft_seconds >= r.inference.ttft_seconds);
				if (r.serving.running >= (double)sc.batch)
					assert_true(r.serving.itl_seconds >= r.inference.tpot_seconds);
				/* a decode step reads at most what a GPU holds: its weights and the
				 * batch's KV (its TP share) */
				held = r.memory.weights + (double)sc.batch * r.inference.kv_bytes_per_sequence / 2.0;
				assert_true(r.inference.decode_bytes / 2.0 <= held);
				/* and so does the ops table's decode step (napkin report --ops), its
				 * activations under 1% of that */
				{
					struct engine_ops ops;
					struct napkin_err err;
					double sum = 0.0;
					int i;
					assert_int_equal(engine_ops(&sc, &ops, &err), NAPKIN_OK);
					for (i = 0; i < ops.n; i++)
						sum += ops.row[i].layers * ops.row[i].bytes[ENGINE_PHASE_DECODE];
					assert_true(sum <= 1.01 * held);
				}
			}
	/* a short prompt reaches few of many experts: 4 tokens, 2 of 64 each, read at most 8
	 * experts' weights (1 − (62/64)^4 = 11.8% of them on average), and so does the bound (it
	 * read all 64: DeepSeek-V3 on TGI, 16 tokens in, a TTFT bound of 46.6 ms over the
	 * predicted 39.9 ms) */
	mixtral_tp2(&sc, "1");
	te_set(&sc, "experts", "64");
	te_set(&sc, "prompt", "4");
	te_set(&sc, "batch", "1");
	te_evaluate(&sc, &r);
	print_message("64 experts, prompt 4: TTFT %.2f ms (bound %.2f)\n", 1e3 * r.serving.ttft_seconds,
		      1e3 * r.inference.ttft_seconds);
	assert_true(r.serving.ttft_seconds >= r.inference.ttft_seconds);
}

/* An engine that finds no room for one sequence's KV blocks stops at start-up (vLLM: "No
 * available memory for the cache blocks. Try increasing gpu_memory_utilization"), while
 * napkin's own count (no reserve) still fits: Mixtral-8x7B on TP 2 holds ~43.5 GiB of bf16
 * weights a GPU, over 90% of a 48 GiB card (43.2 GiB). The report says so, as a note; the
 * capacity is no sequence. */
static void test_engine_admits_none(void **state)
{
	struct engine_scenario sc;
	struct engine_result r;
	int i;
	bool said = false;

	(void)state;
	mixtral_tp2(&sc, "1");
	te_set(&sc, "batch", "1");
	te_set(&sc, "gpu_memory", "48GiB");
	te_evaluate(&sc, &r);
	assert_true(r.memory.weights > 0.9 * 48.0 * 1073741824.0);
	assert_true(r.memory.fits);
	assert_int_equal(r.serving.max_concurrent, 0);
	assert_int_equal(r.inference.max_concurrent, 0);
	for (i = 0; i < r.n_warnings; i++)
		said = said || strstr(r.warnings[i], "admits no sequence") != NULL;
	assert_true(said);
	/* with room for it, no such note */
	te_set(&sc, "gpu_memory", "80GiB");
	te_evaluate(&sc, &r);
	assert_true(r.serving.max_concurrent > 0);
	for (i = 0; i < r.n_warnings; i++)
		assert_null(strstr(r.warnings[i], "admits no sequence"));
}

/* What a running sequence holds of the KV cache (serve_engine.c, reserve): vLLM books its
 * blocks as they fill, a mean of the prompt and half the output over its life; SGLang books
 * a tenth of the rest ahead too (base_min_new_token_ratio 0.1); TensorRT-LLM's
 * GUARANTEED_NO_EVICT the whole context. Prompt 1000, output 200, blocks of 16, by hand:
 * vLLM 1000 + 100 = 1100 → 69 blocks, 1104 tokens; SGLang 1000 + 110 = 1110 → 1120;
 * the whole context 1200 (75 blocks). */
static void test_held_blocks(void **state)
{
	struct engine_scenario sc;
	static struct engine_result v, g, t;

	(void)state;
	llama2_7b_infer(&sc);
	te_set(&sc, "prompt", "1000");
	te_set(&sc, "generate", "200");
	te_set(&sc, "engine", "vllm");
	te_evaluate(&sc, &v);
	te_set(&sc, "engine", "sglang");
	te_evaluate(&sc, &g);
	te_set(&sc, "engine", "trtllm");
	te_evaluate(&sc, &t);
	assert_float_equal(v.serving.held_tokens, 1104.0, 0.0);
	assert_float_equal(g.serving.held_tokens, 1120.0, 0.0);
	assert_float_equal(t.serving.held_tokens, 1200.0, 0.0);
	/* the logged capacity counts whole contexts; the engine runs the KV ÷ what each holds */
	assert_true(v.inference.max_concurrent == (int64_t)floor(v.serving.kv_tokens / 1200.0));
	assert_float_equal(v.serving.running_max, lesser(floor(v.serving.kv_tokens / 1104.0), v.serving.max_seqs), 0.0);
	assert_float_equal(g.serving.running_max, lesser(floor(g.serving.kv_tokens / 1120.0), g.serving.max_seqs), 0.0);
	assert_float_equal(t.serving.running_max, (double)t.inference.max_concurrent, 0.0);
	assert_true(v.serving.running_max > (double)v.inference.max_concurrent);
	/* users between the two run without waiting for KV room */
	{
		char b[32];
		snprintf(b, sizeof b, "%.0f", v.serving.running_max);
		te_set(&sc, "engine", "vllm");
		te_set(&sc, "batch", b);
		te_evaluate(&sc, &v);
		assert_float_equal(v.serving.running, v.serving.running_max, 0.0);
	}
}

/* TGI's warm-up asks for the prompts' log-probabilities (serve_batch.c, activation_peak): the
 * budget's tokens through the LM head, their logits and log_softmax in bf16 beside the layer's
 * intermediates and the sampler's rows. Llama-3-8B (hidden 4096, q 4096 + k,v 2 × 1024, gated
 * MLP 3 × 14336, vocabulary 128,256) at TGI's 4096 tokens and 128 requests, by hand:
 *   the layer   2 B × 4096 × (2 × 4096 + 43008)     =   419,430,400 B
 *   the sampler 2 × 4 B × 128 × 128256             =   131,334,144 B
 *   the logits  2 × 2 B × 4096 × 128256            = 2,101,346,304 B */
static void test_tgi_warmup_logits(void **state)
{
	struct engine_scenario sc;
	static struct engine_result r;

	(void)state;
	llama2_7b_infer(&sc);
	/* Llama-3-8B's shapes (meta-llama/Meta-Llama-3-8B config.json) */
	te_set(&sc, "vocab", "128256");
	te_set(&sc, "kv_heads", "8");
	te_set(&sc, "ffn", "14336");
	te_set(&sc, "engine", "tgi");
	te_evaluate(&sc, &r);
	assert_float_equal(r.serving.activation_peak, 419430400.0 + 131334144.0 + 2101346304.0, 1.0);
}

/* Decode attention's KV read at the engine's kernel's measured rate (serve_step.c, DEC_ATTN).
 * The FlashInfer team's kernel benchmarks ("Accelerating Self-Attentions for LLM Serving with
 * FlashInfer", 2024-02-02; nvbench, fp16, utilisation = bytes read ÷ time ÷ the datasheet
 * bandwidth): Figure 9, batch 64 × 8192 tokens of Llama-2-70B at TP 2 (32 query and 4 KV heads
 * of 128 a GPU): the tensor-core decode kernel 88.5% of an H100 SXM, 79% of an A100, the
 * CUDA-core one 51% and 43.5%; Figure 6, Llama-2-7B's MHA (32 and 32 heads), 1.07 GB read: the
 * CUDA-core kernel 88% and 87%. The step's decode attention over the same read must take the
 * figure's time, ±1.5 points of utilisation (the figures are read off the plots). SGLang runs
 * the tensor-core kernel at GQA 8, TGI the CUDA-core one (use_tensor_cores = g not in
 * {1, 2, 4, 8}); the MI300X has no measurement and keeps the streaming 85%. */
static double dec_attn_util(const struct engine_catalog *cat, const char *gpu, const char *engine, double kv_heads,
			    double batch, double ctx)
{
	struct engine_scenario sc;
	struct eng_dims dm;
	struct eng_bytes b;
	struct eng_serve_ctx c;
	struct eng_serve_step st;
	struct napkin_err e;
	char kvh[16];
	double kv_rank;

	llama2_7b_infer(&sc);
	util_err_clear(&e);
	if (engine_knob_set(&sc, engine_knob_find("gpu"), gpu, cat, &e) != 0)
		fail_msg("gpu: %s", e.msg);
	te_set(&sc, "hidden", "8192");
	te_set(&sc, "heads", "64");
	snprintf(kvh, sizeof kvh, "%.0f", kv_heads);
	te_set(&sc, "kv_heads", kvh);
	te_set(&sc, "gpus", "2");
	te_set(&sc, "tp", "2");
	te_set(&sc, "engine", engine);
	eng_dims_from_model(&sc.model, &dm);
	eng_bytes(&sc, &b);
	assert_float_equal(b.kv, 2.0, 0.0);
	/* K and V of 128 elements for each of the GPU's KV heads, every layer */
	kv_rank = 2.0 * dm.L * 128.0 * 2.0 * (kv_heads / 2.0);
	eng_serve_ctx_init(&sc, &dm, &b, kv_rank, 0.0, &c);
	eng_serve_step_time(&c, 0.0, 0.0, batch, ctx, &st);
	return batch * ctx * kv_rank / st.attention / sc.gpu.bandwidth;
}

static void test_decode_attention_kernels(void **state)
{
	struct preset_registry *reg = tp_builtin();
	struct engine_catalog cat = preset_catalog(reg);

	(void)state;
	/* GQA 8 (64 and 8 heads at TP 2: 32 and 4 a GPU), Figure 9 */
	assert_float_equal(dec_attn_util(&cat, "h100-sxm", "sglang", 8.0, 64.0, 8192.0), 0.885, 0.015);
	assert_float_equal(dec_attn_util(&cat, "h100-sxm", "tgi", 8.0, 64.0, 8192.0), 0.51, 0.015);
	assert_float_equal(dec_attn_util(&cat, "a100-80gb-pcie", "sglang", 8.0, 64.0, 8192.0), 0.79, 0.015);
	assert_float_equal(dec_attn_util(&cat, "a100-80gb-pcie", "tgi", 8.0, 64.0, 8192.0), 0.435, 0.015);
	/* vLLM's FlashAttention and TensorRT-LLM's XQA: the tensor-core class */
	assert_float_equal(dec_attn_util(&cat, "h100-sxm", "vllm", 8.0, 64.0, 8192.0), 0.885, 0.015);
	assert_float_equal(dec_attn_util(&cat, "h100-sxm", "trtllm", 8.0, 64.0, 8192.0), 0.885, 0.015);
	/* MHA (64 and 64 heads: 32 and 32 a GPU), Figure 6 */
	assert_float_equal(dec_attn_util(&cat, "h100-sxm", "tgi", 64.0, 64.0, 1024.0), 0.88, 0.015);
	assert_float_equal(dec_attn_util(&cat, "a100-80gb-pcie", "tgi", 64.0, 64.0, 1024.0), 0.87, 0.015);
	/* no kernel measured: the streaming fraction (gemm.c) */
	assert_float_equal(dec_attn_util(&cat, "mi300x", "vllm", 8.0, 64.0, 8192.0), 0.774, 1e-9); /* BabelStream on MI300X */
	assert_float_equal(dec_attn_util(&cat, "h100-sxm", "none", 8.0, 64.0, 8192.0), 0.90, 1e-9);
	preset_registry_free(reg);
}

static const struct CMUnitTest tests[] = {
	cmocka_unit_test(test_kernel_bubbles),
	cmocka_unit_test(test_v0_max_seqs),
	cmocka_unit_test(test_mixed_prefill),
	cmocka_unit_test(test_expert_parallel),
	cmocka_unit_test(test_bounds_hold),
	cmocka_unit_test(test_bounds_hold_ep),
	cmocka_unit_test(test_engine_admits_none),
	cmocka_unit_test(test_held_blocks),
	cmocka_unit_test(test_tgi_warmup_logits),
	cmocka_unit_test(test_decode_attention_kernels),
};

TESTUTIL_MAIN("serving_engine", tests)
