/*
 * The data report: JSON or YAML, one tree. A stable contract ("schema": 1): sizes in
 * bytes, rates per second, times in seconds, FLOPs as numbers, no formatting in values.
 * Documented in docs/report-schema.md.
 */
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "cli.h"
#include "emit.h"

int report_format_parse(const char *s, enum report_format *out)
{
	static const struct {
		const char *name;
		enum report_format f;
	} t[] = {{"text", REPORT_TEXT}, {"json", REPORT_JSON}, {"yaml", REPORT_YAML}, {"markdown", REPORT_MARKDOWN},
		 {"md", REPORT_MARKDOWN}};
	size_t i;

	for (i = 0; i < sizeof t / sizeof t[0]; i++)
		if (strcasecmp(s, t[i].name) == 0) {
			*out = t[i].f;
			return 0;
		}
	return -1;
}

static const char *dtn(int dt)
{
	return dt < 0 ? "none" : engine_dtype_info((enum engine_dtype)dt)->name;
}

/* Every result of one group of the result table, by its key's last part. */
static void group(struct emit *e, const struct engine_result *r, const char *prefix)
{
	size_t n, i, pl = strlen(prefix);
	const struct engine_result_def *d = engine_results(&n);

	for (i = 0; i < n; i++) {
		if (strncmp(d[i].key, prefix, pl) != 0 || strchr(d[i].key + pl, '.') != NULL)
			continue; /* a nested result (compute.step_band.low) is written as its object */
		if (d[i].is_int)
			emit_int(e, d[i].key + pl, (int64_t)engine_result_value(r, &d[i]));
		else
			emit_num(e, d[i].key + pl, engine_result_value(r, &d[i]));
	}
}

void report_scenario(struct emit *e, const struct engine_scenario *sc)
{
	size_t n, i;
	const struct engine_knob *k = engine_knobs(&n);
	char buf[128];

	emit_object(e, "scenario");
	for (i = 0; i < n; i++) {
		engine_knob_format(sc, &k[i], buf, sizeof buf);
		if (k[i].type == ENGINE_KNOB_NAME) {
			if (buf[0] != '\0')
				emit_str(e, k[i].key, buf);
			continue;
		}
		if (strcmp(k[i].key, "params") == 0 && sc->params <= 0)
			continue;
		/* a pretraining names no fine-tuning: `finetune: full` loads back as one */
		if (strcmp(k[i].key, "finetune") == 0 && !engine_finetuning(sc))
			continue;
		/* a shape picked by `params` is written as params alone: its fields follow */
		if ((k[i].flags & ENGINE_KNOB_ARCH) && sc->params > 0)
			continue;
		if ((k[i].flags & ENGINE_KNOB_AUTO) && engine_knob_value(sc, &k[i]) == 0.0)
			emit_str(e, k[i].key, "auto");
		/* global_batch in tokens is written as "4M tokens": a number is sequences */
		else if ((k[i].type == ENGINE_KNOB_INT || k[i].type == ENGINE_KNOB_REAL) &&
			 !(strcmp(k[i].key, "global_batch") == 0 && sc->global_batch_tokens))
			emit_num(e, k[i].key, engine_knob_value(sc, &k[i]));
		else
			emit_str(e, k[i].key, buf);
	}
	emit_end(e);
}

void report_memory(struct emit *e, const struct engine_result *r)
{
	emit_object(e, "memory");
	group(e, r, "memory.");
	emit_bool(e, "fits", r->memory.fits);
	emit_str(e, "peak_phase", engine_peak_phase_name(r->memory.peak_phase));
	emit_bool(e, "logits_alive", r->memory.logits_alive);
	emit_num(e, "zero3_buffer", r->memory.zero3_buffer);
	emit_num(e, "layers_per_stage", r->memory.layers_per_stage);
	emit_num(e, "inflight_microbatches", r->memory.inflight_microbatches);
	emit_object(e, "min_gpus_layout");
	emit_int(e, "tp", r->memory.min_gpus_tp);
	emit_int(e, "pp", r->memory.min_gpus_pp);
	emit_int(e, "dp", r->memory.min_gpus_dp);
	emit_end(e);
	emit_object(e, "dtypes");
	emit_str(e, "weights", r->memory.bits_per_base_weight > 0.0 && r->memory.bits_per_base_weight < 8.0
				       ? "nf4" : dtn(r->memory.weight_dt));
	emit_str(e, "autocast_copies", dtn(r->memory.autocast_dt));
	emit_str(e, "master_weights", dtn(r->memory.master_dt));
	emit_str(e, "gradients", dtn(r->memory.grad_dt));
	emit_str(e, "optimizer", dtn(r->memory.state_dt));
	emit_str(e, "activations", dtn(r->memory.activation_dt));
	emit_str(e, "kv_cache", dtn(r->memory.kv_dt));
	emit_end(e);
	emit_end(e);
}

/* A band's figures: its two ends, the ± (the 80th percentile of |error|), the cases' median
 * |error| where given and their signed median; nulls where there is no band. */
static void band_numbers(struct emit *e, bool has, double low, double high, double rel, const double *median, double bias)
{
	if (!has) {
		emit_null(e, "low");
		emit_null(e, "high");
		emit_null(e, "relative");
		emit_null(e, "quantile");
		if (median != NULL)
			emit_null(e, "median");
		emit_null(e, "bias");
		return;
	}
	emit_num(e, "low", low);
	emit_num(e, "high", high);
	emit_num(e, "relative", rel);
	emit_str(e, "quantile", "p80_abs_error");
	if (median != NULL)
		emit_num(e, "median", *median);
	emit_num(e, "bias", bias);
}

/* compute.step_band (docs/report-schema.md): the band validation measured for this step,
 * null where there is none */
static void report_step_band(struct emit *e, const struct engine_step_band *b)
{
	static const char *lv[] = {"none", "group", "gpu_precision", "gpu", "all"};
	char key[64], text[512];

	emit_object(e, "step_band");
	engine_band_group_key(b->stack, b->family, b->precision, key, sizeof key);
	emit_str(e, "group", key);
	emit_str(e, "from", lv[b->level]);
	if (b->level != ENGINE_BAND_NONE) {
		engine_band_group_key(b->level == ENGINE_BAND_GROUP ? b->stack : -1, b->level <= ENGINE_BAND_PRECISION ? b->family : -1,
				      b->level <= ENGINE_BAND_PRECISION ? b->precision : -1, key, sizeof key);
		emit_str(e, "runs_group", key);
	} else {
		emit_null(e, "runs_group");
	}
	band_numbers(e, b->level != ENGINE_BAND_NONE, b->low, b->high, b->relative, NULL, b->bias);
	emit_int(e, "count", b->count);
	engine_step_band_text(b, NULL, text, sizeof text);
	emit_str(e, "text", text);
	emit_end(e);
}

/* serving.<metric>_band (docs/report-schema.md): the band validation measured for a serving
 * figure (serve_band.c), nulls where there is none */
static void report_serve_band(struct emit *e, const struct engine_serve_band *b)
{
	static const char *lv[] = {"none", "group", "gpu_precision", "gpu", "all"};
	char key[64], text[512];

	snprintf(key, sizeof key, "%s_band", engine_serve_metric_name(b->metric));
	emit_object(e, key);
	emit_str(e, "from", lv[b->level]);
	/* the engine whose cases give the band, "any" where every engine's stand in */
	if (b->level != ENGINE_BAND_NONE)
		emit_str(e, "group", b->level == ENGINE_BAND_GROUP ? engine_serve_engine_name(b->engine) : "any");
	else
		emit_null(e, "group");
	/* the load of its cases: TTFT and ITL under an open load take the cases at a like load */
	if (b->level == ENGINE_BAND_NONE)
		emit_null(e, "load");
	else
		emit_str(e, "load", b->load == ENGINE_SLOAD_LIGHT ? "under_half" : b->load == ENGINE_SLOAD_HEAVY ? "half_or_more" : "any");
	if (b->load == ENGINE_SLOAD_ANY)
		emit_null(e, "utilization");
	else
		emit_num(e, "utilization", b->utilization);
	band_numbers(e, b->level != ENGINE_BAND_NONE, b->low, b->high, b->relative, &b->median, b->bias);
	emit_int(e, "count", b->count);
	engine_serve_band_text(b, NULL, text, sizeof text);
	emit_str(e, "text", text);
	emit_end(e);
}

void report_compute(struct emit *e, const struct engine_scenario *sc, const struct engine_result *r)
{
	int i;
	static const char *tput[] = {"mfu", "tokens_per_s", "step_time", "achieved_flops", "predicted"};

	emit_object(e, "compute");
	group(e, r, "compute.");
	emit_str(e, "matmul_dtype", dtn(r->compute.matmul_dt));
	emit_str(e, "throughput_from", tput[r->compute.source]);
	emit_str(e, "flops_formula", sc->flops_formula == ENGINE_FLOPS_6N ? "6n" : "exact");
	emit_str(e, "offload", sc->mode == ENGINE_MODE_TRAIN ? engine_offload_name(sc->offload) : "none");
	emit_str(e, "mfu_source", engine_mfu_source_name(r->compute.source));
	/* the step-time model's parts (docs/step-time.md); they add up to step_seconds when
	 * mfu_source is predicted, to step_seconds_predicted always */
	emit_object(e, "step_breakdown");
	for (i = 0; i < ENGINE_STEP_PARTS; i++)
		emit_num(e, engine_step_part_name(i), engine_step_part(&r->compute.step, i));
	emit_end(e);
	report_step_band(e, &r->compute.band);
	if (sc->price > 0)
		emit_num(e, "cost", r->compute.cost);
	else
		emit_null(e, "cost");
	emit_end(e);
}

void report_members(struct emit *e, const struct engine_scenario *sc, const struct engine_result *r, bool explain)
{
	int i;

	emit_int(e, "schema", 1);
	emit_str(e, "napkin_version", NAPKIN_VERSION);
	{
		char s[256];
		engine_scenario_summary(sc, s, sizeof s);
		emit_str(e, "summary", s);
	}
	emit_str(e, "mode", engine_mode_name(sc->mode));

	emit_object(e, "model");
	emit_str(e, "name", sc->model.name);
	emit_str(e, "id", sc->model.id);
	emit_str(e, "architecture", sc->model.arch);
	emit_num(e, "params_total", r->params.total);
	emit_num(e, "params_non_embedding", r->params.non_embedding);
	emit_num(e, "params_active", r->params.active);
	emit_num(e, "params_per_layer", r->params.per_layer);
	emit_num(e, "params_per_gpu", r->params.per_gpu);
	emit_num(e, "params_trainable", r->params.trainable);
	emit_num(e, "params_adapters", r->params.adapters);
	emit_str(e, "finetune", sc->mode == ENGINE_MODE_TRAIN ? engine_finetune_name(sc->finetune) : "none");
	if (sc->model.params_published > 0)
		emit_num(e, "params_published", sc->model.params_published);
	else
		emit_null(e, "params_published");
	emit_int(e, "layers", sc->model.layers);
	emit_int(e, "hidden", sc->model.hidden);
	emit_int(e, "heads", sc->model.heads);
	emit_int(e, "kv_heads", sc->model.kv_heads);
	emit_int(e, "head_dim", sc->model.head_dim);
	emit_int(e, "ffn", sc->model.ffn);
	emit_int(e, "vocab", sc->model.vocab);
	emit_int(e, "experts", sc->model.experts);
	emit_int(e, "top_k", sc->model.top_k);
	emit_str(e, "source", sc->model.source);
	emit_end(e);

	emit_object(e, "gpu");
	emit_str(e, "name", sc->gpu.name);
	emit_str(e, "id", sc->gpu.id);
	emit_num(e, "memory_bytes", sc->gpu.memory_bytes);
	emit_num(e, "bandwidth_bytes_per_s", sc->gpu.bandwidth);
	emit_object(e, "peak_flops");
	for (i = 0; i < ENGINE_DT_COUNT; i++)
		if (sc->gpu.peak[i] > 0)
			emit_num(e, i == ENGINE_DT_FP8_E4M3 ? "fp8" : engine_dtype_info((enum engine_dtype)i)->name,
				 sc->gpu.peak[i]);
	emit_end(e);
	emit_num(e, "pcie_bytes_per_s", sc->gpu.pcie_bw);
	emit_num(e, "link_bytes_per_s", sc->gpu.link_bw);
	emit_num(e, "overhead_bytes", sc->gpu.overhead_bytes);
	emit_bool(e, "measured", sc->gpu.measured);
	emit_str(e, "source", sc->gpu.source);
	emit_end(e);

	emit_object(e, "parallel");
	emit_int(e, "gpus", sc->gpus);
	emit_int(e, "dp", r->dp);
	emit_int(e, "tp", sc->tp);
	emit_int(e, "pp", sc->pp);
	emit_int(e, "vpp", sc->vpp);
	emit_int(e, "cp", sc->cp);
	emit_int(e, "ep", sc->ep);
	emit_int(e, "zero", sc->zero);
	emit_bool(e, "sequence_parallel", sc->sequence_parallel);
	emit_bool(e, "overlap", sc->overlap);
	emit_int(e, "gpus_per_node", sc->gpus_per_node);
	emit_num(e, "network_bytes_per_s", r->compute.network_bw);
	emit_end(e);

	report_memory(e, r);

	report_compute(e, sc, r);


	emit_object(e, "inference");
	group(e, r, "inference.");
	emit_num(e, "decode_context", r->inference.decode_context);
	emit_num(e, "prefill_bytes", r->inference.prefill_bytes);
	emit_end(e);

	if (sc->mode == ENGINE_MODE_INFER) {
		/* serving as the engine runs it: the continuous-batching steady state */
		emit_object(e, "serving");
		emit_str(e, "engine", engine_serve_engine_name(r->serving.engine));
		group(e, r, "serving.");
		emit_num(e, "mem_fraction", r->serving.mem_fraction);
		emit_num(e, "step_overhead_seconds", r->serving.step_overhead);
		emit_num(e, "running", r->serving.running);
		emit_num(e, "running_max", r->serving.running_max);
		emit_num(e, "held_tokens", r->serving.held_tokens);
		emit_num(e, "mixed_fraction", r->serving.mixed_fraction);
		emit_bool(e, "prefill_apart", r->serving.prefill_apart);
		emit_str(e, "prefill_from", r->serving.prefill_from == ENGINE_PREFILL_KNOB ? "knob"
					    : r->serving.prefill_from == ENGINE_PREFILL_MULTISTEP ? "vllm-v0-multistep"
												   : "engine");
		emit_num(e, "straggler", r->serving.straggler);
		emit_bool(e, "saturated", r->serving.saturated);
		emit_bool(e, "rate_saturated", r->serving.rate_saturated);
		for (i = 0; i < ENGINE_SM_COUNT; i++)
			report_serve_band(e, &r->serving.band[i]);
		emit_end(e);
	}

	emit_object(e, "roofline");
	emit_num(e, "peak_flops", r->roofline.peak);
	emit_num(e, "bandwidth_bytes_per_s", r->roofline.bandwidth);
	emit_num(e, "ridge_flops_per_byte", r->roofline.ridge);
	emit_str(e, "dtype", dtn(r->roofline.dt));
	emit_array(e, "points");
	for (i = 0; i < ENGINE_PT_COUNT; i++) {
		const struct engine_roofline_point *p = &r->roofline.points[i];
		char v[200];
		emit_object(e, NULL);
		emit_str(e, "name", p->name);
		emit_num(e, "flops", p->flops);
		emit_num(e, "bytes", p->bytes);
		emit_num(e, "intensity", p->intensity);
		emit_num(e, "attainable_flops", p->attainable);
		if (i == ENGINE_PT_TRAIN && sc->mode == ENGINE_MODE_TRAIN)
			emit_num(e, "achieved_flops", r->compute.achieved_flops); /* hardware FLOP/s per GPU */
		emit_str(e, "bound", p->memory_bound ? "memory" : "compute");
		if (i == ENGINE_PT_DECODE) { /* what it decodes at once: the batch knob, or the open load's */
			static const char *const from[] = {"batch", "open_load_mean", "open_load_limit"};
			emit_num(e, "sequences", r->roofline.decode_sequences);
			emit_str(e, "sequences_from", from[r->roofline.decode_at]);
		}
		engine_roofline_verdict(sc, r, (enum engine_point)i, v, sizeof v);
		emit_str(e, "verdict", v);
		emit_end(e);
	}
	emit_end(e);
	emit_end(e);

	emit_object(e, "data_loading");
	group(e, r, "data_loading.");
	emit_num(e, "bytes_per_token", r->data.bytes_per_token);
	emit_num(e, "pinned_bytes_per_s", r->data.pinned_bw);
	emit_num(e, "pageable_bytes_per_s", r->data.pageable_bw);
	emit_num(e, "step_seconds", r->data.step_seconds);
	emit_bool(e, "pinned", sc->pinned);
	emit_bool(e, "overlapped", r->data.overlapped);
	emit_num(e, "dataset_tokens", r->data.dataset_tokens);
	emit_num(e, "token_file_bytes", r->data.token_file_bytes);
	emit_end(e);

	emit_array(e, "techniques");
	for (i = 0; i < ENGINE_TECH_COUNT; i++) {
		const struct engine_technique *t = &r->techniques[i];
		if (t->name == NULL)
			continue;
		emit_object(e, NULL);
		emit_str(e, "name", t->name);
		emit_str(e, "label", t->label);
		emit_str(e, "compare", t->compare);
		emit_bool(e, "enabled", t->enabled);
		emit_bool(e, "applies", t->applies);
		emit_num(e, "delta_memory_bytes", t->delta_memory_bytes);
		emit_num(e, "delta_flops", t->delta_flops);
		emit_num(e, "delta_bytes_moved", t->delta_bytes_moved);
		emit_num(e, "delta_seconds", t->delta_seconds);
		emit_end(e);
	}
	emit_end(e);

	emit_array(e, "dtypes");
	for (i = 0; i < ENGINE_DT_COUNT; i++) {
		const struct engine_dtype_info *d = engine_dtype_info((enum engine_dtype)i);
		emit_object(e, NULL);
		emit_str(e, "name", d->name);
		emit_num(e, "bytes", d->bytes);
		emit_int(e, "bits", d->bits);
		emit_int(e, "exponent_bits", d->exponent_bits);
		emit_int(e, "mantissa_bits", d->mantissa_bits);
		emit_num(e, "max_finite", d->max_finite);
		emit_num(e, "min_normal", d->min_normal);
		emit_num(e, "epsilon", d->epsilon);
		emit_end(e);
	}
	emit_end(e);

	emit_array(e, "warnings");
	for (i = 0; i < r->n_warnings; i++)
		emit_str(e, NULL, r->warnings[i]);
	emit_end(e);

	report_scenario(e, sc);

	if (explain) {
		const char *const *k = engine_explain_keys();
		char buf[4096];
		emit_object(e, "explain");
		for (; *k != NULL; k++) {
			engine_explain(sc, r, *k, buf, sizeof buf);
			emit_str(e, *k, buf);
		}
		emit_end(e);
	}
}

void report_tree(FILE *f, enum report_format fmt, const struct engine_scenario *sc, const struct engine_result *r,
		 bool explain)
{
	struct emit e;

	emit_begin(&e, f, fmt == REPORT_YAML ? EMIT_YAML : EMIT_JSON);
	report_members(&e, sc, r, explain);
	emit_finish(&e);
}
