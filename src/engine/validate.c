/*
 * Whole-scenario checks: what no single knob's range can say (divisibility, dtypes the
 * GPU lacks, measurements that contradict each other). Every message names the knob and
 * what is allowed; nothing is clamped silently.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "internal.h"

/* every function here has tr, the scenario's translator, in scope */
#define FAIL(...) return eng_err(err, tr, NAPKIN_EINVAL, __VA_ARGS__)

static int check_range_int(int64_t v, int64_t lo, int64_t hi, const char *key, const struct engine_tr *tr,
			   struct napkin_err *err)
{
	if (v < lo || v > hi)
		FAIL(N_("%s must be between %lld and %lld (got %lld)"), key, (long long)lo, (long long)hi, (long long)v);
	return NAPKIN_OK;
}

static int check_model(const struct engine_model *m, const struct engine_tr *tr, struct napkin_err *err)
{
	int rc;

	if ((rc = check_range_int(m->layers, 1, 100000, "layers", tr, err)) ||
	    (rc = check_range_int(m->hidden, 1, 10000000, "hidden", tr, err)) ||
	    (rc = check_range_int(m->heads, 1, 100000, "heads", tr, err)) ||
	    (rc = check_range_int(m->kv_heads, 1, 100000, "kv_heads", tr, err)) ||
	    (rc = check_range_int(m->head_dim, 1, 100000, "head_dim", tr, err)) ||
	    (rc = check_range_int(m->ffn, 1, 100000000, "ffn", tr, err)) ||
	    (rc = check_range_int(m->vocab, 1, 100000000, "vocab", tr, err)) ||
	    (rc = check_range_int(m->experts, 1, 100000, "experts", tr, err)) ||
	    (rc = check_range_int(m->top_k, 1, 100000, "top_k", tr, err)))
		return rc;
	if (m->kv_heads > m->heads)
		FAIL(N_("kv_heads (%lld) cannot exceed heads (%lld)"), (long long)m->kv_heads, (long long)m->heads);
	if (m->heads % m->kv_heads != 0)
		FAIL(N_("kv_heads (%lld) must divide heads (%lld): each KV head serves a whole group of query heads"),
		     (long long)m->kv_heads, (long long)m->heads);
	if (m->top_k > m->experts)
		FAIL(N_("top_k (%lld) cannot exceed experts (%lld)"), (long long)m->top_k, (long long)m->experts);
	if (m->position == ENGINE_POS_LEARNED && m->max_positions < 1)
		FAIL(N_("max_positions must be at least 1 with learned positions"));
	if (m->sliding_window < 0)
		FAIL(N_("sliding_window (%lld) must be 0 (none) or a number of tokens"), (long long)m->sliding_window);
	if (m->window_layers < 0 || m->window_layers > m->layers)
		FAIL(N_("window_layers (%lld) must be 0 (every layer) up to layers (%lld)"), (long long)m->window_layers,
		     (long long)m->layers);
	if ((m->checkpoint_format < 0 || m->checkpoint_format >= ENGINE_WF_COUNT))
		FAIL(N_("the checkpoint's weight format is unknown"));
	return NAPKIN_OK;
}

static bool is_float_dt(int dt)
{
	return dt >= 0 && engine_dtype_info((enum engine_dtype)dt)->is_float;
}

int eng_validate_inputs(const struct engine_scenario *sc, struct napkin_err *err)
{
	const struct engine_tr *tr = sc->tr;
	const struct engine_model *m = &sc->model;
	struct eng_bytes by;
	int rc, measured;
	bool train = sc->mode == ENGINE_MODE_TRAIN;

	if ((rc = check_model(m, tr, err)) != NAPKIN_OK)
		return rc;
	if ((rc = check_range_int(sc->gpus, 1, 1048576, "gpus", tr, err)) ||
	    (rc = check_range_int(sc->gpus_per_node, 1, 1024, "gpus_per_node", tr, err)) ||
	    (rc = check_range_int(sc->tp, 1, 1024, "tp", tr, err)) || (rc = check_range_int(sc->pp, 1, 1024, "pp", tr, err)) ||
	    (rc = check_range_int(sc->zero, 0, 3, "zero", tr, err)) ||
	    (rc = check_range_int(sc->batch, 1, 10000000, "batch", tr, err)) ||
	    (rc = check_range_int(sc->grad_accum, 1, 10000000, "grad_accum", tr, err)) ||
	    (rc = check_range_int(sc->seq, 1, 100000000, "seq", tr, err)) ||
	    (rc = check_range_int(sc->prompt, 1, 100000000, "prompt", tr, err)) ||
	    (rc = check_range_int(sc->generate, 1, 100000000, "generate", tr, err)))
		return rc;
	if ((rc = check_range_int(sc->cp, 1, 1024, "cp", tr, err)) || (rc = check_range_int(sc->ep, 1, 1024, "ep", tr, err)) ||
	    (rc = check_range_int(sc->vpp, 1, 128, "vpp", tr, err)))
		return rc;
	if (sc->gpus % (sc->tp * sc->pp * sc->cp) != 0)
		FAIL(N_("gpus (%lld) must be a multiple of tp × pp × cp = %lld (data-parallel ranks = gpus ÷ (tp × pp × cp))"),
		     (long long)sc->gpus, (long long)(sc->tp * sc->pp * sc->cp));
	/* disaggregated serving (serve_pd.c): x prefill and y decode replicas of tp × pp GPUs each */
	if (!train && (sc->prefill_replicas > 0) != (sc->decode_replicas > 0))
		FAIL(N_("prefill_replicas (%lld) and decode_replicas (%lld) go together: both 0 (aggregated serving) or both "
			"at least 1 (xPyD, disaggregated)"),
		     (long long)sc->prefill_replicas, (long long)sc->decode_replicas);
	if (!train && sc->prefill_replicas > 0 && sc->serve_engine == ENGINE_SERVE_NONE)
		FAIL(N_("prefill_replicas and decode_replicas split an engine's replicas: give one (engine vllm, sglang, "
			"trtllm or tgi); engine none is the roofline's bound, without a schedule to split"));
	if (!train && sc->prefill_replicas > 0 &&
	    sc->gpus % ((sc->prefill_replicas + sc->decode_replicas) * sc->tp * sc->pp) != 0)
		FAIL(N_("gpus (%lld) must be a multiple of (prefill_replicas + decode_replicas) × tp × pp = (%lld + %lld) × %lld × "
			"%lld = %lld: each replica is tp × pp GPUs, and gpus ÷ that many %lldP%lldD groups serve"),
		     (long long)sc->gpus, (long long)sc->prefill_replicas, (long long)sc->decode_replicas, (long long)sc->tp,
		     (long long)sc->pp, (long long)((sc->prefill_replicas + sc->decode_replicas) * sc->tp * sc->pp),
		     (long long)sc->prefill_replicas, (long long)sc->decode_replicas);
	if (m->heads % sc->tp != 0)
		FAIL(N_("tp (%lld) must divide heads (%lld): each rank computes whole heads"), (long long)sc->tp,
		     (long long)m->heads);
	if (m->kv_heads >= sc->tp ? m->kv_heads % sc->tp != 0 : sc->tp % m->kv_heads != 0)
		FAIL(N_("tp (%lld) and kv_heads (%lld) must divide one another (KV heads are split, or replicated "
		     "when there are fewer than tp)"),
		     (long long)sc->tp, (long long)m->kv_heads);
	if (sc->pp > m->layers)
		FAIL(N_("pp (%lld) cannot exceed layers (%lld): each stage holds at least one layer"), (long long)sc->pp,
		     (long long)m->layers);
	if (sc->recompute_layers > m->layers)
		FAIL(N_("recompute_layers (%lld) cannot exceed layers (%lld): 0 recomputes every layer"),
		     (long long)sc->recompute_layers, (long long)m->layers);
	if (sc->vpp > 1 && (sc->pp < 2 || sc->pp * sc->vpp > m->layers))
		FAIL(N_("vpp (%lld) needs pp > 1 and pp × vpp ≤ layers (%lld): each virtual stage holds a layer"),
		     (long long)sc->vpp, (long long)m->layers);
	/* Megatron-LM runs the interleaved schedule only when the micro-batches are a multiple
	 * of the stages (megatron/core/pipeline_parallel/schedules.py,
	 * forward_backward_pipelining_with_interleaving: "number of microbatches is not divisible
	 * by pipeline-model-parallel-size when using interleaved schedule"); its bubble
	 * (p − 1)/v (Narayanan et al. 2021, §2.2.2) holds only then */
	if (sc->mode == ENGINE_MODE_TRAIN && sc->vpp > 1 && sc->grad_accum % sc->pp != 0)
		FAIL(N_("vpp (%lld) needs grad_accum (%lld micro-batches) to be a multiple of pp (%lld), as Megatron-LM's "
		     "interleaved schedule does; vpp 1 runs any number"),
		     (long long)sc->vpp, (long long)sc->grad_accum, (long long)sc->pp);
	/* Megatron-Core shards the optimizer (its distributed optimizer: ZeRO-1) or everything
	 * (Megatron FSDP: ZeRO-3); it has no stage that shards the gradients alone */
	if (train && sc->stack == ENGINE_STACK_MEGATRON && sc->zero == 2)
		FAIL(N_("zero 2 is not a Megatron-Core mode: zero 1 is its distributed optimizer, zero 3 Megatron FSDP (or "
			"--stack deepspeed for ZeRO-2)"));
	/* Megatron-Core asserts it: the overlapped TP collectives are the all-gather and
	 * reduce-scatter of sequence parallelism (transformer_config.py, tp_comm_overlap) */
	if (train && sc->tp_overlap && sc->tp > 1 && !sc->sequence_parallel)
		FAIL(N_("tp_overlap needs sequence_parallel on: the collectives it overlaps with the GEMMs are sequence "
			"parallelism's all-gather and reduce-scatter"));
	/* a given global batch: whole sequences, split evenly over batch × dp, and grad_accum
	 * (given or derived in adapt.c) the micro-batches that make it */
	if (train && sc->global_batch > 0) {
		double g = eng_global_batch_sequences(sc);
		int64_t dp = sc->gpus / (sc->tp * sc->pp * sc->cp), per = sc->batch * dp;
		char a[48], b[48];
		engine_fmt_int(sc->global_batch, a, sizeof a);
		if (g != floor(g))
			FAIL(N_("global_batch (%s tokens) is not a whole number of %lld-token sequences (seq): give it in "
				"sequences, or in tokens a multiple of seq"),
			     a, (long long)sc->seq);
		engine_fmt_int(g, b, sizeof b);
		if (fmod(g, (double)per) != 0.0 || g < (double)per)
			FAIL(N_("global_batch (%s sequences) must be a multiple of batch \xc3\x97 dp = %lld \xc3\x97 %lld = %lld: "
				"grad_accum = global_batch \xc3\xb7 (batch \xc3\x97 dp) is a whole number of micro-batches"),
			     b, (long long)sc->batch, (long long)dp, (long long)per);
		if ((double)sc->grad_accum * (double)per != g)
			FAIL(N_("grad_accum (%lld) contradicts global_batch (%s sequences): batch \xc3\x97 dp \xc3\x97 grad_accum = "
				"%lld \xc3\x97 %lld \xc3\x97 %lld = %lld; leave grad_accum unset (it follows: %lld) or change one"),
			     (long long)sc->grad_accum, b, (long long)sc->batch, (long long)dp, (long long)sc->grad_accum,
			     (long long)(sc->grad_accum * per), (long long)(g / (double)per));
	}
	if (sc->cp > 1 && sc->seq % sc->cp != 0)
		FAIL(N_("cp (%lld) must divide seq (%lld): each rank holds an equal part of every sequence"), (long long)sc->cp,
		     (long long)sc->seq);
	if (sc->ep > 1 && (m->experts % sc->ep != 0 || (sc->gpus / (sc->tp * sc->pp * sc->cp)) % sc->ep != 0))
		FAIL(N_("ep (%lld) must divide experts (%lld) and the data-parallel ranks (%lld)"), (long long)sc->ep,
		     (long long)m->experts, (long long)(sc->gpus / (sc->tp * sc->pp * sc->cp)));
	if (m->position == ENGINE_POS_LEARNED) {
		int64_t need = train ? sc->seq : sc->prompt + sc->generate;
		if (need > m->max_positions) {
			if (train)
				FAIL(N_("seq (%lld) exceeds the model's %lld learned positions (max_positions): set seq to "
				     "%lld or less, or leave it unset to follow the model's context"),
				     (long long)need, (long long)m->max_positions, (long long)m->max_positions);
			FAIL(N_("prompt + generate (%lld + %lld) exceeds the model's %lld learned positions (max_positions): "
			     "make them add up to %lld or less, or leave them unset to follow the model's context"),
			     (long long)sc->prompt, (long long)sc->generate, (long long)m->max_positions,
			     (long long)m->max_positions);
		}
	}
	if ((int)sc->precision < 0 || sc->precision >= ENGINE_PREC_COUNT)
		FAIL(N_("precision: unknown recipe"));
	if (sc->weight_format < 0 || sc->weight_format >= ENGINE_WF_COUNT)
		FAIL(N_("weight_format: unknown format"));
	if (sc->kv_block < 1)
		FAIL(N_("kv_block (%lld) must be at least 1 token"), (long long)sc->kv_block);
	if (sc->prefill_chunk < 0)
		FAIL(N_("prefill_chunk (%lld) must be 0 (the whole prompt) or a number of tokens"), (long long)sc->prefill_chunk);

	/* LoRA/QLoRA that adapts no linear trains nothing: refused, not timed */
	if (train && sc->finetune != ENGINE_FT_FULL) {
		struct eng_dims dm;
		eng_dims_from_model(m, &dm);
		if (!(eng_lora_layer_adapters(sc, &dm, 1.0) > 0.0)) {
			if (sc->lora_targets == ENGINE_LORA_GATE)
				FAIL(N_("lora_targets gate: a plain MLP has no gate projection, so %s adapts nothing and trains "
				     "no parameter; choose among q,k,v,o,up,down (or mlp: up and down)"),
				     sc->finetune == ENGINE_FT_QLORA ? "QLoRA" : "LoRA");
			FAIL(N_("lora_targets: %s adapts no linear of this model and trains no parameter; choose among "
			     "q,k,v,o,gate,up,down"),
			     sc->finetune == ENGINE_FT_QLORA ? "QLoRA" : "LoRA");
		}
	}

	/* dtypes */
	eng_bytes(sc, &by);
	if (train) {
		if (!is_float_dt(by.weight_dt) || !is_float_dt(by.grad_dt) || !is_float_dt(by.activation_dt))
			FAIL(N_("weight_dtype, grad_dtype and activation_dtype must be floating-point types to train "
			     "(int8 and int4 weights are for inference; to fine-tune on 4-bit weights use "
			     "finetune: qlora)"));
		if (sc->optimizer != ENGINE_OPT_ADAM_8BIT && !is_float_dt(by.state_dt))
			FAIL(N_("optimizer_dtype must be a floating-point type (adam-8bit is the 8-bit optimizer)"));
	}
	if (!is_float_dt(by.matmul_dt) && by.matmul_dt != ENGINE_DT_INT8)
		FAIL(N_("matmul_dtype must be a floating-point type or int8"));
	if (!(sc->peak_flops > 0) && engine_gpu_peak(&sc->gpu, (enum engine_dtype)by.matmul_dt) <= 0) {
		const char *mdt = engine_dtype_info((enum engine_dtype)by.matmul_dt)->name;
		if (by.matmul_dt == ENGINE_DT_BF16 && engine_gpu_peak(&sc->gpu, ENGINE_DT_FP16) > 0)
			FAIL(N_("%s has no bf16 matmul peak (precision %s): use precision %s (its fp16 counterpart) or "
			     "fp32, or give peak_flops"),
			     sc->gpu.name[0] ? sc->gpu.name : "this GPU", engine_precision_name(sc->precision),
			     sc->precision == ENGINE_PREC_AMP_BF16 ? "amp-fp16" : "mixed-fp16");
		FAIL(N_("%s has no %s matmul peak (precision %s): pick another precision or matmul_dtype, or give peak_flops"),
		     sc->gpu.name[0] ? sc->gpu.name : "this GPU", mdt, engine_precision_name(sc->precision));
	}
	if (!(sc->gpu.memory_bytes > 0) || !(sc->gpu.bandwidth > 0))
		FAIL(N_("the GPU profile needs a memory capacity and a bandwidth (gpu_memory, gpu_bandwidth)"));
	if (!(sc->gpu.overhead_bytes >= 0))
		FAIL(N_("overhead cannot be negative"));

	/* training figures */
	if (!(sc->tokens >= 1 && sc->tokens <= 1e17))
		FAIL(N_("tokens must be between 1 and 1e17 (got %g)"), sc->tokens);
	if (!(sc->mfu >= 0 && sc->mfu <= 1)) /* 0: auto */
		FAIL(N_("mfu must be auto, or above 0 and at most 1 (got %g)"), sc->mfu);
	measured = (sc->tokens_per_s > 0) + (sc->step_time > 0) + (sc->achieved_flops > 0);
	if (measured > 1)
		FAIL(N_("give only one measurement: tokens_per_s, step_time or achieved_flops (each implies the others)"));
	if (sc->tokens_per_s < 0 || sc->step_time < 0 || sc->achieved_flops < 0 || sc->peak_flops < 0)
		FAIL(N_("measurements and peak_flops cannot be negative"));
	return NAPKIN_OK;
}

/* What each measurement is, said where a figure looks like the other kind. */
static const char *measurement_whose(const struct engine_scenario *sc)
{
	if (sc->tokens_per_s > 0)
		return eng_tr(sc->tr, N_("tokens_per_s is the whole job's throughput (all GPUs together), not one GPU's"));
	if (sc->step_time > 0)
		return eng_tr(sc->tr, N_("step_time is one optimizer step (grad_accum micro-batches on every GPU), not one micro-batch"));
	return eng_tr(sc->tr, N_("achieved_flops is one GPU's hardware FLOP/s, not the whole job's"));
}

int eng_check_measurement(const struct engine_scenario *sc, struct engine_result *r, struct napkin_err *err)
{
	const struct engine_tr *tr = sc->tr;
	const struct engine_compute *c = &r->compute;
	const char *which = sc->tokens_per_s > 0 ? "tokens_per_s" : sc->step_time > 0 ? "step_time" : "achieved_flops";

	if (sc->mode != ENGINE_MODE_TRAIN || c->source == ENGINE_TPUT_MFU || c->source == ENGINE_TPUT_PREDICTED)
		return NAPKIN_OK;
	/* a figure so far off that the ratio overflows (step_time 1e-300) is said in words, not "inf%" */
	if (!isfinite(c->hfu) || c->hfu >= 1000.0)
		FAIL(N_("%s implies more than 1000 times the GPUs' peak (HFU above 1000; it is at most 1): %s; check it, gpus "
			"(%lld) and the precision"),
		     which, measurement_whose(sc), (long long)sc->gpus);
	if (c->hfu > 1.0 + 1e-9)
		FAIL(N_("%s implies %.0f%% of the GPUs' peak (HFU %.2f > 1): %s; check it, gpus (%lld) and the precision"), which,
		     c->hfu * 100.0, c->hfu, measurement_whose(sc), (long long)sc->gpus);
	/* PaLM reports 46% MFU, Megatron-LM 30 to 55%: under 5% is more likely a figure of the
	 * other kind (one GPU's tokens/s given as the job's) than a real run */
	if (c->mfu < 0.05) {
		char a[32], b[32];
		if (sc->tokens_per_s > 0 && sc->gpus > 1) {
			engine_fmt_int(sc->tokens_per_s, a, sizeof a);
			engine_fmt_int(sc->tokens_per_s * (double)sc->gpus, b, sizeof b);
			eng_warn(r, tr, N_("tokens_per_s %s implies MFU %.1f%% on %lld GPUs: it is the whole job's figure; if %s is "
				 "per GPU, give %s (MFU %.1f%%)"),
				 a, 100.0 * c->mfu, (long long)sc->gpus, a, b, 100.0 * c->mfu * (double)sc->gpus);
		} else {
			eng_warn(r, tr, N_("%s implies MFU %.1f%%, far under what training runs reach (30 to 55%%): %s"), which,
				 100.0 * c->mfu, measurement_whose(sc));
		}
	}
	return NAPKIN_OK;
}

int engine_validate(const struct engine_scenario *sc, struct napkin_err *err)
{
	struct engine_result r;
	int rc = eng_validate_inputs(sc, err);

	/* a measurement that implies more than the peak is only seen once computed */
	if (rc != NAPKIN_OK || (sc->tokens_per_s <= 0 && sc->step_time <= 0 && sc->achieved_flops <= 0))
		return rc;
	eng_compute_core(sc, &r);
	return eng_check_measurement(sc, &r, err);
}

const char *engine_precision_name(enum engine_precision p)
{
	static const char *n[ENGINE_PREC_COUNT] = {"fp32", "amp-bf16", "amp-fp16", "mixed-bf16",
						   "mixed-fp16", "bf16", "fp8-mixed"};
	return (int)p >= 0 && p < ENGINE_PREC_COUNT ? n[p] : "?";
}

const char *engine_optimizer_name(enum engine_optimizer o)
{
	static const char *n[ENGINE_OPT_COUNT] = {"adamw", "adam", "sgd", "sgd-momentum", "adam-8bit", "lion",
						  "adafactor"};
	return (int)o >= 0 && o < ENGINE_OPT_COUNT ? n[o] : "?";
}

const char *engine_recompute_name(enum engine_recompute r)
{
	return r == ENGINE_RECOMP_FULL ? "full" : r == ENGINE_RECOMP_SELECTIVE ? "selective"
		: r == ENGINE_RECOMP_SELECTIVE_OP ? "selective-op" : "none";
}

const char *engine_mode_name(enum engine_mode m)
{
	return m == ENGINE_MODE_INFER ? "infer" : "train";
}

void engine_scenario_summary(const struct engine_scenario *sc, char *buf, size_t n)
{
	char gpus[32];

	snprintf(gpus, sizeof gpus, "%lld", (long long)sc->gpus);
	if (sc->mode == ENGINE_MODE_TRAIN)
		/* TRANSLATORS: model, GPU count, GPU, train or the fine-tuning method, precision,
		 * optimizer, then " · offload " and the offload tier or nothing */
		snprintf(buf, n, eng_tr(sc->tr, N_("%s on %s \xc3\x97 %s \xc2\xb7 %s \xc2\xb7 %s \xc2\xb7 %s%s%s")),
			 sc->model.name[0] ? sc->model.name : eng_tr(sc->tr, N_("custom model")), gpus,
			 sc->gpu.name[0] ? sc->gpu.name : "GPU",
			 sc->finetune == ENGINE_FT_FULL ? eng_tr(sc->tr, N_("train")) : engine_finetune_name(sc->finetune),
			 engine_precision_name(sc->precision), engine_optimizer_name(sc->optimizer),
			 sc->offload != ENGINE_OFFLOAD_NONE ? " \xc2\xb7 offload " : "",
			 sc->offload != ENGINE_OFFLOAD_NONE ? engine_offload_name(sc->offload) : "");
	else {
		/* inference keeps weights and a KV cache: their dtypes, not a training recipe */
		struct eng_bytes by;
		eng_bytes(sc, &by);
		/* TRANSLATORS: model, GPU count, GPU, the weights' format, the KV cache's dtype */
		snprintf(buf, n, eng_tr(sc->tr, N_("%s on %s \xc3\x97 %s \xc2\xb7 infer \xc2\xb7 %s weights \xc2\xb7 %s KV")),
			 sc->model.name[0] ? sc->model.name : eng_tr(sc->tr, N_("custom model")), gpus,
			 sc->gpu.name[0] ? sc->gpu.name : "GPU",
			 sc->weight_format != ENGINE_WF_DTYPE
				 ? engine_weight_format_info((enum engine_weight_format)sc->weight_format)->name
				 : by.weight_dt >= 0 ? engine_dtype_info((enum engine_dtype)by.weight_dt)->name : "?",
			 by.kv_dt >= 0 ? engine_dtype_info((enum engine_dtype)by.kv_dt)->name : "?");
	}
}
