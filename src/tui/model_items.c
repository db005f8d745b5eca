/*
 * The result panes' items (the rows each pane shows, in order: what focus, e and the
 * highlights name), and the values a lesson's quiz hides until it is answered (see model.h).
 * Pure: no ncurses, no clock.
 */
#include <string.h>

#include "model.h"

/* ---------------------------------------------------------------- result panes */

static const char *const mem_items[] = {
	"memory.weights",     "memory.master_weights", "memory.gradients", "memory.optimizer",
	"memory.activations", "memory.logits",         "memory.kv_cache",  "memory.overhead",
	"memory.total",       "memory.bytes_per_param", "memory.max_batch", "memory.min_gpus",
};
/* inference keeps no master weights, gradients or optimizer states: no rows for them */
static const char *const mem_infer_items[] = {
	"memory.weights",     "memory.activations",     "memory.logits",    "memory.kv_cache",
	"memory.overhead",    "memory.total",           "memory.bytes_per_param", "memory.max_batch",
	"memory.min_gpus",
};
static const char *const compute_train_items[] = {
	"compute.flops_per_token_train", "compute.flops_per_token_forward", "compute.train_flops",
	"compute.train_days",            "compute.mfu",                     "compute.tokens_per_s",
	"compute.step_seconds",          "compute.step_breakdown",          "compute.steps",
	"data_loading.seconds",
};
static const char *const compute_infer_items[] = {
	"compute.flops_per_token_forward",     "inference.prefill_seconds",   "inference.decode_seconds_per_token",
	"inference.decode_tokens_per_s",       "inference.max_concurrent",    "inference.ttft_seconds",
	"inference.tpot_seconds",              "inference.generate_seconds",  "inference.kv_bytes_per_token",
	"compute.peak_flops",
};
static const char *const roofline_items[] = {
	"roofline.train_step", "roofline.prefill", "roofline.decode", "roofline.elementwise",
};
static const char *const tech_items[] = {
	"techniques.mixed_precision", "techniques.selective_recompute", "techniques.full_recompute",
	"techniques.flash_attention", "techniques.kv_cache",            "techniques.zero1",
	"techniques.zero2",           "techniques.zero3",               "techniques.tensor_parallel",
	"techniques.pipeline_parallel", "techniques.lora",                "techniques.qlora",
	"techniques.offload",           "techniques.chunked_prefill",
};
static const char *const dtype_items[] = {
	"dtype.fp32", "dtype.tf32", "dtype.bf16", "dtype.fp16", "dtype.fp8-e4m3",
	"dtype.fp8-e5m2", "dtype.int8", "dtype.int4", "dtype.fp4",
};

#define COUNT(a) ((int)(sizeof(a) / sizeof((a)[0])))

const char *tui_model_tech_item(int i)
{
	return i >= 0 && i < COUNT(tech_items) ? tech_items[i] : NULL;
}

static int copy_items(const char *const *src, int n, const char **keys, int max)
{
	int i;

	for (i = 0; i < n && i < max; i++)
		keys[i] = src[i];
	return i;
}

int tui_pane_items(const struct tui_model *m, enum tui_pane p, const char **keys, int max)
{
	switch (p) {
	case TUI_PANE_MEMORY:
		if (m->sc.mode == ENGINE_MODE_INFER)
			return copy_items(mem_infer_items, COUNT(mem_infer_items), keys, max);
		return copy_items(mem_items, COUNT(mem_items), keys, max);
	case TUI_PANE_COMPUTE:
		if (m->sc.mode == ENGINE_MODE_INFER)
			return copy_items(compute_infer_items, COUNT(compute_infer_items), keys, max);
		return copy_items(compute_train_items, COUNT(compute_train_items), keys, max);
	case TUI_PANE_ROOFLINE: /* inference has no training step: its points start at prefill */
		if (m->sc.mode == ENGINE_MODE_INFER)
			return copy_items(roofline_items + 1, COUNT(roofline_items) - 1, keys, max);
		return copy_items(roofline_items, COUNT(roofline_items), keys, max);
	case TUI_PANE_TECH: return copy_items(tech_items, COUNT(tech_items), keys, max);
	case TUI_PANE_DTYPES: return copy_items(dtype_items, COUNT(dtype_items), keys, max);
	default: return 0;
	}
}

int tui_model_n_items(const struct tui_model *m, enum tui_pane p)
{
	const char *keys[TUI_ITEMS_MAX];
	return tui_pane_items(m, p, keys, TUI_ITEMS_MAX);
}

const char *tui_model_focus_key(const struct tui_model *m)
{
	const char *keys[TUI_ITEMS_MAX];
	int n;

	if (m->pane == TUI_PANE_KNOBS)
		return NULL;
	n = tui_pane_items(m, m->pane, keys, TUI_ITEMS_MAX);
	if (n == 0)
		return NULL;
	return keys[m->item[m->pane] < n ? m->item[m->pane] : n - 1];
}

/* ---------------------------------------------------------------- highlights */

int tui_model_hl_index(const char *key)
{
	size_t nres, i;
	const struct engine_result_def *defs = engine_results(&nres);
	const struct engine_result_def *d;

	if (strncmp(key, "techniques.", 11) == 0) {
		for (i = 0; i < (size_t)COUNT(tech_items); i++)
			if (strcmp(tech_items[i], key) == 0)
				return nres + i < TUI_HL_MAX ? (int)(nres + i) : -1;
		return -1;
	}
	d = engine_result_find(key);
	if (d == NULL)
		return -1;
	i = (size_t)(d - defs);
	return i < TUI_HL_MAX ? (int)i : -1;
}

bool tui_model_hidden(const struct tui_model *m, const char *key)
{
	/* keys that show the same number, or give it away at a glance: the training time in days
	 * or seconds; a token's training FLOPs beside its forward + backward and the run's total
	 * (the tokens are on screen) */
	static const char *const same[][3] = {
		{"compute.train_days", "compute.train_seconds", NULL},
		{"compute.flops_per_token_train", "compute.flops_per_token_forward", "compute.train_flops"},
	};
	size_t g, i, j;

	if (m->hide_key[0] == '\0')
		return false;
	if (strcmp(m->hide_key, key) == 0)
		return true;
	for (g = 0; g < sizeof same / sizeof same[0]; g++)
		for (i = 0; i < 3 && same[g][i] != NULL; i++)
			if (strcmp(m->hide_key, same[g][i]) == 0)
				for (j = 0; j < 3 && same[g][j] != NULL; j++)
					if (strcmp(key, same[g][j]) == 0)
						return true;
	return false;
}

bool tui_model_hideable(const char *key)
{
	/* the rows whose values draw_compute.c (and draw.c's header) write as "?" while hidden;
	 * and the largest model (memory.max_params), which no pane and no row's explanation
	 * draws: nothing on screen gives it away */
	static const char *const keys[] = {"compute.train_days", "compute.train_seconds", "compute.flops_per_token_train",
					   "data_loading.dataset_bytes", "data_loading.bytes_per_step", "memory.max_params"};
	size_t i;

	for (i = 0; i < sizeof keys / sizeof keys[0]; i++)
		if (strcmp(key, keys[i]) == 0)
			return true;
	return false;
}

bool tui_model_explain_hidden(const struct tui_model *m, const char *key)
{
	if (m->hide_key[0] == '\0')
		return false;
	if (tui_model_hidden(m, key))
		return true;
	/* data_loading's one explanation spells out the dataset's bytes */
	return strncmp(m->hide_key, "data_loading.", 13) == 0 && strncmp(key, "data_loading", 12) == 0;
}
