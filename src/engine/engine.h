/*
 * engine: napkin's resource accounting, pure C.
 *
 * A const struct engine_scenario in, a struct engine_result out: no files, no terminal,
 * no allocation, no mutable globals. Every front end (cli, tui, presets, lessons) only
 * translates its input into knob changes through the knob table below, and the result
 * into text or pixels.
 *
 * Call order:
 *   engine_scenario_default(&sc);                 a complete, valid scenario
 *   engine_apply(&sc, assigns, n, &catalog, &err) knob changes, all or nothing
 *   engine_evaluate(&sc, &res, &err)              every result (compute + solves + techniques)
 *   engine_explain(&sc, &res, "memory.weights", buf, sizeof buf)
 *
 * The declarations are in three parts by purpose: engine_scenario.h, engine_knobs.h and
 * engine_result.h; this header includes them and adds the result table and explain.
 *
 * Ownership: every struct here is plain data owned by the caller; the engine keeps no
 * pointer to it after a call returns. Strings in the knob and result tables are static.
 */
#ifndef NAPKIN_ENGINE_H
#define NAPKIN_ENGINE_H

#include "engine_knobs.h"    /* the knob table and units */
#include "engine_result.h"   /* the results, engine_compute, engine_evaluate, the solves */
#include "engine_scenario.h" /* data types, model, GPU, scenario, catalogue */

/* ---------------------------------------------------------------- result table and explain */

enum engine_result_group {
	ENGINE_RG_MODEL,
	ENGINE_RG_MEMORY,
	ENGINE_RG_COMPUTE,
	ENGINE_RG_INFERENCE,
	ENGINE_RG_ROOFLINE,
	ENGINE_RG_DATA,
};

/* Which way a result is better, for marking the best of several (compare): every result
 * declares one (results.c). */
enum engine_better {
	ENGINE_BETTER_NEITHER, /* a figure that just is: parameters, FLOPs per token, the ridge */
	ENGINE_BETTER_HIGHER,  /* headroom, throughput, MFU, bandwidth */
	ENGINE_BETTER_LOWER,   /* memory, time */
};

/* One scalar result: where it lives and how to say it. */
struct engine_result_def {
	const char *key;     /* "memory.weights" (the JSON path) */
	const char *label;   /* "weights" */
	enum engine_result_group group;
	enum engine_unit unit;
	size_t offset;       /* of a double (or an int64_t when is_int) in struct engine_result */
	bool is_int;
	enum engine_better better;
	const char *help;    /* one line: what it is */
};

const struct engine_result_def *engine_results(size_t *count);
/* The step time's error band (src/engine/step_band.c): the table validation measured, the
 * GPU family and precision class a scenario's band is looked up by, a group's stable key
 * ("megatron/hopper/fp8", "any" for a wider group) and the band in words, in tr's
 * language ("±12%: 14 published Megatron-Core runs on H100/H200, FP8", or "no validation
 * for ..."). */
const struct engine_band_row *engine_step_bands(size_t *n);
int engine_band_family(const struct engine_gpu *g);
int engine_band_precision(enum engine_precision p);
const char *engine_band_family_name(int family);
void engine_band_group_key(int stack, int family, int precision, char *buf, size_t n);
void engine_step_band_text(const struct engine_step_band *b, const struct engine_tr *tr, char *buf, size_t n);
/* Serving's error bands (src/engine/serve_band.c): the table validation measured, a metric's
 * stable name ("ttft", "itl", "tokens_per_s", "capacity") and the band in words, in tr's
 * language ("±45%: 15 TensorRT-LLM TTFT cases", "±70%: all 28 TTFT cases (SGLang: fewer
 * than 5)", or "no validation: ..."). */
const struct engine_serve_band_row *engine_serve_bands(size_t *n);
const char *engine_serve_metric_name(int metric);
/* Where the schedule of prefill comes from, in words to translate (N_): "vLLM V0 multi-step:
 * no chunked prefill", "mixed_prefill off", "the engine's default". */
const char *engine_serve_prefill_from(const struct engine_serving *sv);
void engine_serve_band_text(const struct engine_serve_band *b, const struct engine_tr *tr, char *buf, size_t n);
const struct engine_result_def *engine_result_find(const char *key);
double engine_result_value(const struct engine_result *r, const struct engine_result_def *d);

/* Writes the explanation of result `key` ("memory.activations", "compute.train_days",
 * "roofline.decode", "techniques.flash_attention", ...): what it is, the formula, the
 * formula with today's values, the result, and the source. Lines end in '\n'. Returns
 * false (and writes a one-line note) for an unknown key. */
bool engine_explain(const struct engine_scenario *sc, const struct engine_result *r, const char *key,
		    char *buf, size_t n);
/* One sentence on what a power limit leaves a GPU's compute ("400 W a GPU, its TDP: compute at
 * 79% of its datasheet clock ..."); empty when nothing limits it (power.c). */
void engine_power_note(const struct engine_scenario *sc, char *buf, size_t n);
/* One sentence: "decode at batch 1 is memory-bound: intensity 1 FLOP/B, ridge 295". */
void engine_roofline_verdict(const struct engine_scenario *sc, const struct engine_result *r, enum engine_point pt,
			     char *buf, size_t n);
/* Places pt (its flops and bytes set) on the roofline of peak FLOP/s and bw bytes/s: its
 * intensity, attainable rate and verdict, as the roofline pane's points are placed. */
void engine_roofline_place(struct engine_roofline_point *pt, double peak, double bw);
/* ---------------------------------------------------------------- ops of a layer */

/* The phases a layer's ops run in (the per-op table, `napkin report --ops`). */
enum engine_phase {
	ENGINE_PHASE_FORWARD,  /* training: one micro-batch's forward */
	ENGINE_PHASE_BACKWARD, /* training: its backward (data and weight gradients) */
	ENGINE_PHASE_PREFILL,  /* inference: the batch's prompts */
	ENGINE_PHASE_DECODE,   /* inference: one decode step of the batch at the average context */
	ENGINE_PHASES,
};
#define ENGINE_OPS_MAX 40

/* One op of a layer (the layer table, src/engine/layer.c) on one GPU: its work in each
 * phase and its time on the roofline (the larger of FLOPs ÷ peak and bytes ÷ bandwidth,
 * at 100% of each, as LLM-Viewer's per-op table; the step model's efficiencies apart). */
struct engine_op_row {
	const char *name;      /* the module as the modelling code names it ("q_proj"); static */
	const char *kind;      /* "linear", "attention", "linear attention", "norm", "other": static, English */
	double layers;         /* layers that have it */
	double params;         /* its parameters in one such layer (every copy) */
	double flops[ENGINE_PHASES], bytes[ENGINE_PHASES]; /* one such layer on one GPU */
	double seconds[ENGINE_PHASES];
	bool memory_bound[ENGINE_PHASES];
};
struct engine_ops {
	int n;
	struct engine_op_row row[ENGINE_OPS_MAX];
	double peak, bandwidth;         /* the roofline's: matmul dtype peak, HBM bandwidth */
	double tokens[ENGINE_PHASES];   /* the tokens each phase computes on one GPU */
	double context[ENGINE_PHASES];  /* the keys a query attends to, at most (decode: the average context) */
};
/* Fills out from the scenario (validated as engine_evaluate does); rows in the layer's
 * order, then the LM head (layers 1). */
int engine_ops(const struct engine_scenario *sc, struct engine_ops *out, struct napkin_err *err);

/* The keys engine_explain knows, NULL-terminated. */
const char *const *engine_explain_keys(void);

/* Short descriptions of the scenario for headers: "Llama-2-7B on 8 × H100 SXM, train, mixed-bf16". */
void engine_scenario_summary(const struct engine_scenario *sc, char *buf, size_t n);
const char *engine_precision_name(enum engine_precision p);
const char *engine_optimizer_name(enum engine_optimizer o);
const char *engine_recompute_name(enum engine_recompute r);
const char *engine_mode_name(enum engine_mode m);
const char *engine_finetune_name(enum engine_finetune f);
const char *engine_offload_name(enum engine_offload o);
/* Whether an offload keeps the 16-bit weights off the GPU (params, nvme-params). */
bool engine_offload_weights(enum engine_offload o);
/* Whether an offload keeps the optimizer states on NVMe (nvme, nvme-params). */
bool engine_offload_nvme(enum engine_offload o);

#endif
