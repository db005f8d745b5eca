/*
 * Every result explains itself: what it is, the formula, the formula with today's values,
 * the result, and the source. Text only (snprintf into the caller's buffer): the front
 * ends decide how to show it. Here: the list of keys and the dispatch by key;
 * explain_text.c holds the writer the explanations share, explain_memory.c,
 * explain_compute.c and the others the explanations.
 */
#include <stdio.h>
#include <string.h>

#include "explain_internal.h"

/* every key --explain prints in turn, each once: memory.nvme_bytes is explained with
 * memory.host_bytes (one block), and engine_explain still answers it by name */
static const char *const keys[] = {
	"model.params_total", "model.params_active", "model.params_trainable", "memory.weights", "memory.autocast_copies", "memory.master_weights",
	"memory.gradients",
	"memory.optimizer", "memory.activations", "memory.logits", "memory.kv_cache", "memory.overhead",
	"memory.total", "memory.peak", "memory.host_bytes", "memory.max_batch", "memory.min_gpus", "memory.max_params",
	"compute.flops_per_token_forward", "compute.flops_per_token_train", "compute.train_seconds",
	"compute.mfu", "compute.step_breakdown", "inference.prefill_seconds", "inference.decode_seconds_per_token",
	"inference.max_concurrent", "inference.ttft_seconds", "inference.tpot_seconds", "inference.prefill_flops_causal",
	"serving.ttft_seconds", "serving.itl_seconds", "serving.tokens_per_s_replica", "serving.sla_concurrency",
	"serving.ttft_p99_seconds", "serving.sizing_replicas",
	"serving.prefix_tokens", "serving.spec_tokens_per_step",
	"roofline.train_step",
	"roofline.prefill", "roofline.decode", "roofline.elementwise", "data_loading",
	"techniques.mixed_precision", "techniques.selective_recompute", "techniques.full_recompute",
	"techniques.flash_attention", "techniques.kv_cache", "techniques.zero1", "techniques.zero2",
	"techniques.zero3", "techniques.tensor_parallel", "techniques.pipeline_parallel", "techniques.lora",
	"techniques.qlora", "techniques.offload", "techniques.chunked_prefill", NULL,
};

const char *const *engine_explain_keys(void)
{
	return keys;
}

static bool starts(const char *s, const char *p)
{
	return strncmp(s, p, strlen(p)) == 0;
}

bool engine_explain(const struct engine_scenario *sc, const struct engine_result *r, const char *key, char *buf,
		    size_t n)
{
	struct eng_ex x = {buf, n, 0, sc->tr};

	if (n > 0)
		buf[0] = '\0';
	if (strcmp(key, "model.params_total") == 0 || strcmp(key, "model.params_non_embedding") == 0)
		eng_ex_params(&x, sc, r, false);
	else if (strcmp(key, "model.params_active") == 0)
		eng_ex_params(&x, sc, r, true);
	else if (strcmp(key, "model.params_trainable") == 0 || strcmp(key, "model.params_adapters") == 0 ||
		 strcmp(key, "memory.bits_per_base_weight") == 0 || strcmp(key, "memory.dequant_buffer") == 0)
		eng_ex_finetune(&x, sc, r);
	else if (strcmp(key, "memory.host_bytes") == 0 || strcmp(key, "memory.nvme_bytes") == 0 ||
		 starts(key, "compute.offload_"))
		eng_ex_offload(&x, sc, r);
	else if (strcmp(key, "memory.weights") == 0)
		eng_ex_weights(&x, sc, r);
	else if (strcmp(key, "memory.autocast_copies") == 0 || strcmp(key, "memory.autocast_bytes_per_param") == 0)
		eng_ex_autocast(&x, sc, r);
	else if (strcmp(key, "memory.master_weights") == 0 || strcmp(key, "memory.gradients") == 0 ||
		 strcmp(key, "memory.optimizer") == 0 || strcmp(key, "memory.bytes_per_param") == 0)
		eng_ex_state(&x, sc, r, strcmp(key, "memory.bytes_per_param") == 0 ? "memory.optimizer" : key);
	else if (strcmp(key, "memory.activations") == 0 || strcmp(key, "memory.activations_per_layer") == 0)
		eng_ex_activations(&x, sc, r);
	else if (strcmp(key, "memory.kv_sequences") == 0)
		eng_ex_simple_mem(&x, sc, r, "memory.kv_cache");
	else if (strcmp(key, "memory.logits") == 0 || strcmp(key, "memory.kv_cache") == 0 ||
		 strcmp(key, "memory.overhead") == 0 || strcmp(key, "memory.total") == 0 ||
		 strcmp(key, "memory.headroom") == 0 || strcmp(key, "memory.capacity") == 0 ||
		 strcmp(key, "memory.peak") == 0 || strcmp(key, "memory.scratch") == 0)
		eng_ex_simple_mem(&x, sc, r, key);
	else if (strcmp(key, "memory.max_batch") == 0 || strcmp(key, "memory.min_gpus") == 0 ||
		 strcmp(key, "memory.max_params") == 0)
		eng_ex_solves(&x, sc, r, key);
	else if (strcmp(key, "compute.flops_per_token_forward") == 0 || strcmp(key, "compute.flops_per_token_6n") == 0 ||
		 strcmp(key, "compute.flops_per_token_train") == 0 || strcmp(key, "compute.flops_per_token_hw") == 0 ||
		 strcmp(key, "compute.flops_per_token_backward") == 0)
		eng_ex_flops(&x, sc, r, key);
	else if (strcmp(key, "compute.train_seconds") == 0 || strcmp(key, "compute.train_days") == 0 ||
		 strcmp(key, "compute.gpu_hours") == 0 || strcmp(key, "compute.train_flops") == 0 ||
		 strcmp(key, "compute.train_flops_6n") == 0 || strcmp(key, "compute.steps") == 0)
		eng_ex_time(&x, sc, r, key);
	else if (strncmp(key, "compute.step_breakdown", 22) == 0 || strcmp(key, "compute.step_seconds_predicted") == 0)
		eng_ex_step(&x, sc, r);
	else if (strcmp(key, "compute.mfu") == 0 || strcmp(key, "compute.hfu") == 0 ||
		 strcmp(key, "compute.tokens_per_s") == 0 || strcmp(key, "compute.step_seconds") == 0 || starts(key, "compute.step_band") ||
		 strcmp(key, "compute.achieved_flops") == 0 || strcmp(key, "compute.peak_flops") == 0)
		eng_ex_mfu(&x, sc, r);
	else if (strcmp(key, "inference.prefill_seconds") == 0 || strcmp(key, "inference.prefill_flops") == 0)
		eng_ex_inference(&x, sc, r, "inference.prefill_seconds");
	else if (eng_ex_serving(&x, sc, r, key))
		;
	else if (starts(key, "inference."))
		eng_ex_inference(&x, sc, r, "inference.decode_seconds_per_token");
	else if (strcmp(key, "roofline.train_step") == 0)
		eng_ex_roofline(&x, sc, r, ENGINE_PT_TRAIN);
	else if (strcmp(key, "roofline.prefill") == 0)
		eng_ex_roofline(&x, sc, r, ENGINE_PT_PREFILL);
	else if (strcmp(key, "roofline.decode") == 0 || strcmp(key, "roofline.ridge_flops_per_byte") == 0 ||
		 strcmp(key, "roofline.peak_flops") == 0 || strcmp(key, "roofline.bandwidth_bytes_per_s") == 0)
		eng_ex_roofline(&x, sc, r, sc->mode == ENGINE_MODE_TRAIN && strcmp(key, "roofline.decode") != 0 ? ENGINE_PT_TRAIN
														: ENGINE_PT_DECODE);
	else if (strcmp(key, "roofline.elementwise") == 0)
		eng_ex_roofline(&x, sc, r, ENGINE_PT_ELEMENTWISE);
	else if (starts(key, "data_loading"))
		eng_ex_data(&x, sc, r);
	else if (starts(key, "techniques."))
		eng_ex_technique(&x, r, key + strlen("techniques."));
	else {
		eng_ex_line(&x, N_("%s: no explanation (try one of: memory.total, compute.train_seconds, roofline.decode, ...)"),
			    key);
		return false;
	}
	return true;
}
