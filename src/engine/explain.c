/*
 * Every result explains itself: what it is, the formula, the formula with today's values,
 * the result, and the source. Text only (snprintf into the caller's buffer): the front
 * ends decide how to show it. Here: the writer the explanations share, the list of keys and
 * the dispatch by key; explain_memory.c and explain_compute.c hold the explanations.
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "explain_internal.h"

void eng_ex_line(struct eng_ex *x, const char *fmt, ...)
{
	va_list ap;
	int w;

	if (x->n == 0 || x->pos >= x->n - 1)
		return;
	va_start(ap, fmt);
	w = vsnprintf(x->buf + x->pos, x->n - x->pos, fmt, ap);
	va_end(ap);
	if (w < 0)
		return;
	x->pos = (size_t)w >= x->n - x->pos ? x->n - 1 : x->pos + (size_t)w;
	if (x->pos < x->n - 1) {
		x->buf[x->pos++] = '\n';
		x->buf[x->pos] = '\0';
	}
}

const char *eng_ex_dtype_name(int dt)
{
	return dt < 0 ? "none" : engine_dtype_info((enum engine_dtype)dt)->name;
}

double eng_ex_dtype_bytes(int dt)
{
	return dt < 0 ? 0.0 : engine_dtype_info((enum engine_dtype)dt)->bytes;
}

void eng_ex_head(struct eng_ex *x, const char *key, const char *title)
{
	eng_ex_line(x, "%s: %s", key, title);
}

static const char *const keys[] = {
	"model.params_total", "model.params_active", "model.params_trainable", "memory.weights", "memory.autocast_copies", "memory.master_weights",
	"memory.gradients",
	"memory.optimizer", "memory.activations", "memory.logits", "memory.kv_cache", "memory.overhead",
	"memory.total", "memory.peak", "memory.host_bytes", "memory.nvme_bytes", "memory.max_batch", "memory.min_gpus", "memory.max_params",
	"compute.flops_per_token_forward", "compute.flops_per_token_train", "compute.train_seconds",
	"compute.mfu", "compute.step_breakdown", "inference.prefill_seconds", "inference.decode_seconds_per_token",
	"inference.max_concurrent", "inference.ttft_seconds", "inference.tpot_seconds", "inference.prefill_flops_causal",
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
	struct eng_ex x = {buf, n, 0};

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
		 strcmp(key, "compute.tokens_per_s") == 0 || strcmp(key, "compute.step_seconds") == 0 ||
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
		eng_ex_line(&x, "%s: no explanation (try one of: memory.total, compute.train_seconds, roofline.decode, ...)", key);
		return false;
	}
	return true;
}

/* An intensity as a person reads it: 1,145 / 28.5 / 1.0 / 0.25 FLOP/B. */
static void fmt_intensity(double v, char *buf, size_t n)
{
	if (v >= 1000.0)
		engine_fmt_int(v, buf, n);
	else if (v >= 100.0)
		snprintf(buf, n, "%.0f", v);
	else if (v >= 1.0)
		snprintf(buf, n, "%.1f", v);
	else
		snprintf(buf, n, "%.2g", v);
}

void engine_roofline_verdict(const struct engine_scenario *sc, const struct engine_result *r, enum engine_point pt,
			     char *buf, size_t n)
{
	const struct engine_roofline_point *p = &r->roofline.points[pt];
	char what[80], in[32];

	switch (pt) {
	case ENGINE_PT_DECODE: snprintf(what, sizeof what, "decode at batch %lld", (long long)sc->batch); break;
	case ENGINE_PT_PREFILL: {
		char t[48];
		util_count(t, sizeof t, (double)sc->prompt, "token", "tokens");
		snprintf(what, sizeof what, "prefill of %s", t);
		break;
	}
	case ENGINE_PT_TRAIN: snprintf(what, sizeof what, "the training step"); break;
	default: snprintf(what, sizeof what, "an element-wise op"); break;
	}
	fmt_intensity(p->intensity, in, sizeof in);
	snprintf(buf, n, "%s is %s-bound: intensity %s FLOP/B, ridge %.0f", what, p->memory_bound ? "memory" : "compute",
		 in, r->roofline.ridge);
}
