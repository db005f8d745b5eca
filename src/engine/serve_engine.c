/*
 * The serving engines' defaults: the schedule (the token budget of a step, the sequences a
 * step holds), the memory each one takes for its KV cache, and its fixed cost per step. The
 * `engine` knob picks a row; max_batched_tokens, gpu_memory_utilization and step_overhead
 * override it (0: the engine's).
 *
 * Sources (each engine's own code):
 *  - vLLM (V1, 0.9 and later): gpu_memory_utilization 0.9 of the card (vllm/config.py,
 *    CacheConfig); the KV cache gets that share less the weights, the peak of a profiled
 *    forward of max_num_batched_tokens tokens and the sampler's dummy run over max_num_seqs
 *    rows (vllm/v1/worker/gpu_worker.py determine_available_memory, gpu_model_runner.py
 *    profile_run); chunked prefill always on; max_num_batched_tokens 8192 and max_num_seqs
 *    1024 for the OpenAI server on cards of 70 GiB or more other than the A100, 2048 and 256
 *    on the others (vllm/engine/arg_utils.py, EngineArgs.get_batch_defaults). vLLM V0 (0.6 to
 *    0.9, the engine of --num-scheduler-steps): max_num_seqs 256 on every card (EngineArgs,
 *    v0.6.0).
 *  - SGLang (0.4): mem_fraction_static of the card holds the weights and the KV pool, 0.88 at
 *    tp 1, 0.87 at 2, 0.85 at 4, 0.81 at 8, 0.79 at 16; chunked_prefill_size 8192, 2048 on
 *    cards under 25 GB (python/sglang/srt/server_args.py, ServerArgs.__post_init__).
 *  - TensorRT-LLM (LLM API and trtllm-serve): kv_cache_free_gpu_mem_fraction 0.9 of the memory
 *    left after the weights and the activation buffers of max_num_tokens 8192;
 *    max_batch_size 2048 (tensorrt_llm/llmapi/llm_args.py, KvCacheConfig and BuildConfig).
 *  - TGI (3.x): max_batch_prefill_tokens 4096 and max_concurrent_requests 128 (launcher,
 *    launcher/src/main.rs); after a warm-up prefill of that budget, TGI_WIGGLE_ROOM 0.90 of
 *    the free memory becomes KV blocks (server/text_generation_server/models/globals.py,
 *    flash_causal_lm.py warmup).
 *  - What a running sequence holds of the KV cache (`reserve`, the share of its remaining
 *    output booked ahead). vLLM V1 allocates a request's blocks as its tokens are computed
 *    and preempts the newest running request when a step finds none free (vllm/v1/core/
 *    sched/scheduler.py, schedule(): allocate_slots, else self.running.pop() and free), so a
 *    sequence holds only what it has filled: 0 (V0 alike: vllm/core/scheduler.py
 *    _schedule_running preempts when can_append_slots fails). TensorRT-LLM's default capacity scheduler,
 *    GUARANTEED_NO_EVICT, admits a request only when its whole max context fits beside the
 *    others' (executor SchedulerConfig, CapacitySchedulerPolicy): 1. TGI's v3 queue allocates
 *    input_length + max_new_tokens at admission (backends/v3/src/queue.rs, next_batch): 1.
 *    SGLang's PrefillAdder books new_token_ratio of each running request's remaining
 *    max_new_tokens (python/sglang/srt/managers/schedule_policy.py), a ratio that starts at
 *    0.7 and decays every decode step to base_min_new_token_ratio 0.1 while nothing is
 *    retracted (global_config.py): 0.1 in a steady state.
 *  - Whether prefill shares the decode steps (the mixed_prefill knob sets it; unset, the
 *    engine's default). vLLM V1 (chunked prefill always on), V0 with chunked prefill and
 *    TensorRT-LLM's in-flight batching put the running sequences' decode tokens and prefill
 *    chunks in one step. vLLM V0 under multi-step scheduling (--num-scheduler-steps > 1) runs
 *    without chunked prefill: vLLM 0.6.0 refused the pair ("Chunked prefill is not supported
 *    with multi-step", vllm-project/vllm issue 8274, 2024-09-08), PR 8645 (v0.6.3) allowed it,
 *    and V0's enable_chunked_prefill is on by default only for a max_model_len above 32K
 *    (vllm/engine/arg_utils.py, V0); without it V0 runs each scheduled prompt whole in a
 *    prefill step of its own, the decodes paused (vllm/core/scheduler.py, _schedule_default:
 *    prefills first), so napkin's vLLM with scheduler_steps > 1 prefills apart. Its budget
 *    is then V0's: max_num_batched_tokens defaults to max(max_model_len, 2048) without
 *    chunked prefill, and V0 refuses a smaller one (vllm/config.py, SchedulerConfig), so a
 *    prompt runs whole in one step; napkin takes the model's context for max_model_len.
 *    SGLang runs a new prefill batch in a step of its own and decodes when none is waiting:
 *    Scheduler.get_next_batch_to_run builds get_new_batch_prefill() first and runs the
 *    running batch's decode only when it returns None (python/sglang/srt/managers/
 *    scheduler.py), and mixes the running decodes into a prefill batch only with
 *    --enable-mixed-chunk (server_args.py: enable_mixed_chunk: bool = False, every version
 *    from 0.3 on). TGI is kept with the budget model.
 *  - The fixed cost of a step (the scheduler, preparing inputs, sampling and detokenising on
 *    the CPU, the graph launch): no engine publishes it as a figure; each default is an
 *    estimate not yet fitted on a published series, a knob (step_overhead) the user sets from
 *    a measurement. The published series that grow with the running sequences are of vLLM 0.5
 *    and older (output processing in the step) and SGLang's per-iteration times print no batch
 *    (docs/serving-validation.md, Fitted figures), so the cost stays a fixed time a step. SGLang's overlap scheduler (0.4, "zero-overhead batch scheduler", LMSYS
 *    blog 2024-12-04) and vLLM V1's separate engine-core process hide part of it.
 */
#include <string.h>

#include "serve_internal.h"

static const struct eng_serve_engine_def defs[ENGINE_SERVE_COUNT] = {
	[ENGINE_SERVE_VLLM] = {"vllm", N_("vLLM"), 8192, 2048, 1024, 256, 0.90, false, 1.5e-3, true, 0.0, false},
	[ENGINE_SERVE_SGLANG] = {"sglang", N_("SGLang"), 8192, 8192, 4096, 4096, 0.88, false, 1.0e-3, false, 0.1, true},
	[ENGINE_SERVE_TRTLLM] = {"trtllm", N_("TensorRT-LLM"), 8192, 8192, 2048, 2048, 0.90, true, 1.0e-3, true, 1.0, false},
	[ENGINE_SERVE_TGI] = {"tgi", N_("TGI"), 4096, 4096, 128, 128, 0.90, true, 1.5e-3, true, 1.0, false},
	[ENGINE_SERVE_NONE] = {"none", N_("no engine"), 0, 0, 0, 0, 1.0, false, 0.0, false, 1.0, false},
};

const struct eng_serve_engine_def *eng_serve_engine_def(int engine)
{
	if (engine < 0 || engine >= ENGINE_SERVE_COUNT)
		engine = ENGINE_SERVE_VLLM;
	return &defs[engine];
}

/* SGLang's mem_fraction_static by TP degree (server_args.py). */
static double sglang_fraction(int64_t tp)
{
	return tp >= 16 ? 0.79 : tp >= 8 ? 0.81 : tp >= 4 ? 0.85 : tp >= 2 ? 0.87 : 0.88;
}

void eng_serve_settings(const struct engine_scenario *sc, struct eng_serve_set *set)
{
	const struct eng_serve_engine_def *d = eng_serve_engine_def(sc->serve_engine);
	/* vLLM's "large" cards: 70 GiB or more and not an A100 (arg_utils.py) */
	bool large = sc->gpu.memory_bytes >= 70.0 * 1073741824.0 && strncmp(sc->gpu.id, "a100", 4) != 0;

	memset(set, 0, sizeof *set);
	set->engine = sc->serve_engine;
	set->def = d;
	set->budget = (double)(large ? d->budget_large : d->budget_small);
	if (sc->serve_engine == ENGINE_SERVE_SGLANG && sc->gpu.memory_bytes < 25e9)
		set->budget = 2048.0;
	set->max_seqs = (double)(large ? d->seqs_large : d->seqs_small);
	set->mem_fraction = sc->serve_engine == ENGINE_SERVE_SGLANG ? sglang_fraction(sc->tp) : d->mem_fraction;
	set->of_free = d->of_free;
	set->step_overhead = d->step_overhead;
	set->profiles = d->profiles;
	set->apart = d->apart;
	set->apart_from = ENGINE_PREFILL_ENGINE;
	/* vLLM V0 under multi-step scheduling: no chunked prefill (0.6.0 refused the two together,
	 * vllm-project/vllm issue 8274; V0 turns chunked prefill on by default only above 32K of
	 * max_model_len, vllm/engine/arg_utils.py), so each prompt runs in a prefill step of its
	 * own, the decodes paused */
	if (sc->serve_engine == ENGINE_SERVE_VLLM && sc->scheduler_steps > 1) {
		set->apart = true;
		set->apart_from = ENGINE_PREFILL_MULTISTEP;
	}
	/* the user's mixed_prefill (vLLM's --enable-chunked-prefill, SGLang's --enable-mixed-chunk) */
	if (sc->mixed_prefill != ENGINE_MIXED_AUTO && sc->serve_engine != ENGINE_SERVE_NONE) {
		set->apart = sc->mixed_prefill == ENGINE_MIXED_OFF;
		set->apart_from = ENGINE_PREFILL_KNOB;
	}
	/* multi-step scheduling (--num-scheduler-steps) exists only in vLLM's V0 engine (0.6 to
	 * 0.9; V1 never had it): V0's EngineArgs default max_num_seqs is 256 on every card
	 * (vllm/engine/arg_utils.py, EngineArgs, v0.6.0: `max_num_seqs: int = 256`) */
	if (sc->serve_engine == ENGINE_SERVE_VLLM && sc->scheduler_steps > 1)
		set->max_seqs = 256.0;
	/* vLLM V0 without chunked prefill: max_num_batched_tokens defaults to max(max_model_len,
	 * 2048), a whole prompt of the longest context a step (vllm/config.py, SchedulerConfig,
	 * V0); max_model_len is the model's context */
	if (sc->serve_engine == ENGINE_SERVE_VLLM && set->apart)
		set->budget = eng_max(2048.0, (double)sc->model.max_positions);
	if (sc->max_batched_tokens > 0)
		set->budget = (double)sc->max_batched_tokens;
	if (sc->max_num_seqs > 0)
		set->max_seqs = (double)sc->max_num_seqs; /* the user's --max-num-seqs (vLLM), --max_batch_size (TensorRT-LLM) */
	if (sc->gpu_memory_utilization > 0)
		set->mem_fraction = sc->gpu_memory_utilization;
	if (sc->step_overhead > 0)
		set->step_overhead = sc->step_overhead;
	/* a user's prefill_chunk caps the chunk under the budget (0: the budget alone) */
	if (sc->serve_engine == ENGINE_SERVE_NONE) {
		/* the bound: every prompt at once, nothing in the way */
		set->budget = 0.0;
		set->max_seqs = 0.0;
	}
}

const char *engine_serve_prefill_from(const struct engine_serving *sv)
{
	switch (sv->prefill_from) {
	case ENGINE_PREFILL_KNOB: return sv->prefill_apart ? N_("mixed_prefill off") : N_("mixed_prefill on");
	case ENGINE_PREFILL_MULTISTEP: return N_("vLLM V0 multi-step: no chunked prefill");
	default: return sv->prefill_apart ? N_("the engine's default: no --enable-mixed-chunk") : N_("the engine's default");
	}
}

const char *engine_serve_engine_name(int engine)
{
	return eng_serve_engine_def(engine)->name;
}

const char *engine_serve_engine_label(int engine)
{
	return eng_serve_engine_def(engine)->label;
}
